"""Automatic differentiation: ``relay_mlir.transform.gradient`` (TVM's ``relay.transform.gradient``).

The transformation is the C++ ``relay-gradient`` pass (reverse mode, one
table of gradient rules; docs/autodiff.md): the function is emitted to the
relay dialect inside a module that applies ``relay.grad`` to it, the pass
expands that, and the gradient function is read back as a ``Function``.

Example::

    >>> import numpy as np
    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(3,))
    >>> f = relay.Function([x], relay.sum(x * x))
    >>> g = relay.transform.gradient(f)
    >>> run = relay.create_executor("debug", mod=relay.IRModule.from_expr(g)).evaluate()
    >>> value, (dx,) = run(np.array([1.0, 2.0, 3.0], dtype="float32"))
    >>> float(value), dx.tolist()
    (14.0, [2.0, 4.0, 6.0])

Beyond TVM 0.19: no ``InferType`` needed first; shared subexpressions,
``let``, ``if``, calls of module functions and let-bound closures are all
differentiated; tuple results are seeded on every float field; DLVM-style
declarations select parameters (``wrt``), drop the original result
(``keeping=False``) or take the result's adjoint as a last argument
(``seedable=True``).
"""
from __future__ import annotations

from typing import Optional, Sequence

from ._worker import run_pipeline
from .analysis import free_vars
from .errors import CompileError
from .expr import Call, Function, GlobalVar, TupleGetItem, Tuple, Var
from .mlir_import import from_mlir_text
from .module import IRModule
from .op import add, multiply, sum as reduce_sum, zeros_like
from .ty import TensorType

__all__ = ["gradient", "jvp"]

_TARGET = "__grad_input"
_MODES = ("higher_order", "first_order")


def _param_index(fn: Function, p) -> int:
    if isinstance(p, int):
        if not 0 <= p < len(fn.params):
            raise CompileError(f"gradient: wrt names parameter #{p} but the function has "
                               f"{len(fn.params)} parameter(s)")
        return p
    for i, v in enumerate(fn.params):
        if v is p or getattr(v, "name_hint", None) == p:
            return i
    raise CompileError(f"gradient: wrt names {p!r}, which is not a parameter of the function")


def gradient(expr: Function, mod: Optional[IRModule] = None, mode: str = "higher_order",
             wrt: Optional[Sequence] = None, keeping: bool = True,
             seedable: bool = False) -> Function:
    """The function computing ``(result, (d result / d param, ...))`` of ``expr``.

    ``mod`` holds the module functions ``expr`` calls; calls of recursive
    ones are differentiated through pullback functions (``@f$vjp``) that
    are added to ``mod``. ``mode`` is TVM's
    ``"higher_order"`` or ``"first_order"`` (the same transformation here).
    ``wrt`` (parameters, their names or positions) restricts and orders
    the gradients; ``keeping=False`` returns only the gradients' tuple;
    ``seedable=True`` adds a last parameter, the adjoint of the result
    (otherwise it is ones). Errors are ``CompileError``s naming the cause.
    """
    if mode not in _MODES:
        raise CompileError(f"gradient: unknown mode {mode!r} (expected one of {', '.join(_MODES)})")
    if not isinstance(expr, Function):
        raise CompileError("gradient: expected a relay.Function, got " + type(expr).__name__)
    free = free_vars(expr)
    if free:
        raise CompileError("gradient: the function has free variables: "
                           + ", ".join(v.name_hint for v in free))
    positions = None if wrt is None else [_param_index(expr, p) for p in wrt]

    em = _emit_as_target(expr, mod)
    text = em.text().rstrip()
    if not text.endswith("}"):
        raise CompileError("gradient: unexpected module text from emission")
    # em.text() is one `module { ... }`: the caller goes inside it.
    fn, helpers = _expand(text[:-1] + _grad_caller(em, positions, keeping, seedable) + "}\n",
                          set() if mod is None else {gv.name_hint for gv in mod.get_global_vars()}, mod)
    # Functions the gradient calls (`@f$vjp` of recursive functions) join
    # `mod`, beside the functions they differentiate.
    for name, helper in helpers.items():
        mod[name] = helper
    _type_check(fn, mod)
    # Parameters keep the names the user gave them.
    for new, old in zip(fn.params, expr.params):
        new.name_hint = old.name_hint
    if seedable:
        fn.params[-1].name_hint = "seed"
    return fn


def _grad_caller(em, positions, keeping: bool, seedable: bool) -> str:
    """A function applying ``relay.grad`` (with the declarations) to the target."""
    from . import ir

    with em.ctx:
        target = None
        for op in em.operation.regions[0].blocks[0].operations:
            op = op.operation
            if op.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == _TARGET:
                target = op
        ftype = ir.FunctionType(ir.TypeAttr(target.attributes["function_type"]).value)
        inputs = ", ".join(str(t) for t in ftype.inputs)
        fn_type = f"!relay.fn<({inputs}) -> {ftype.results[0]}>"
    attrs = []
    if positions is not None:
        attrs.append("wrt = array<i64" + (": " + ", ".join(map(str, positions)) if positions else "") + ">")
    if not keeping:
        attrs.append("keeping = false")
    if seedable:
        attrs.append("seedable")
    attr_text = " {" + ", ".join(attrs) + "}" if attrs else ""
    return f"""
func.func private @__grad_caller() -> !relay.incomplete {{
  %f = relay.global_fn @{_TARGET} : {fn_type}
  %g = relay.grad %f{attr_text} : ({fn_type}) -> !relay.incomplete
  return %g : !relay.incomplete
}}
"""


def _expand(text: str, known: set, mod: Optional[IRModule] = None):
    """The gradient function and the new module functions it calls."""
    back = _run_passes(text, "relay-infer-type,relay-monomorphize,relay-gradient,canonicalize,cse",
                       "gradient", types_of=mod)
    name = None
    for gv in back.get_global_vars():
        if gv.name_hint.startswith(_TARGET + "$grad"):
            name = gv.name_hint
    if name is None:
        raise CompileError("gradient: relay-gradient produced no gradient function")
    helpers = {gv.name_hint: back[gv] for gv in back.get_global_vars()
               if gv.name_hint not in known | {name, _TARGET, "__grad_caller"}}
    return back[name], helpers


def jvp(expr: Function, mod: Optional[IRModule] = None) -> Function:
    """Forward mode: ``fn(params..., tangents...) -> (result, J · tangents)``.

    One tangent per parameter (of its type; those of integer parameters are
    ignored); the result must be a tensor. Computed by transposing the
    reverse mode: with ``v(x, u) = Jᵀu`` (``gradient(..., seedable=True)``),
    ``J t = d/du <v(x, u), t>``, a second ``gradient`` of a function linear
    in ``u``. So it supports what the reverse mode supports whose backward
    ops have gradient rules themselves (not conv2d_transpose/scatter yet).
    The calls between the pieces are inlined (relay-partial-eval): the
    result is straight-line where the function is.
    """
    if not isinstance(expr, Function):
        raise CompileError("jvp: expected a relay.Function, got " + type(expr).__name__)
    vjp = gradient(expr, mod, keeping=False, seedable=True)
    ret = vjp.params[-1].type_annotation
    if not isinstance(ret, TensorType):
        raise CompileError(f"jvp: the result must be a tensor, got {ret}")
    xs = [Var(p.name_hint, p.type_annotation) for p in expr.params]
    ts = [Var(p.name_hint + "_dot", p.type_annotation) for p in expr.params]
    u = Var("u", ret)
    pulled = Call(vjp, xs + [u])
    terms = [reduce_sum(multiply(TupleGetItem(pulled, i), t))
             for i, (x, t) in enumerate(zip(xs, ts))
             if isinstance(x.type_annotation, TensorType) and x.type_annotation.dtype.startswith(("float", "bfloat"))]
    if not terms:
        raise CompileError("jvp: the function has no floating-point parameter")
    inner = terms[0]
    for t in terms[1:]:
        inner = add(inner, t)
    lin = Function(xs + ts + [u], inner)
    dlin = gradient(lin, mod, wrt=[len(xs) + len(ts)], keeping=False)
    xs2 = [Var(p.name_hint, p.type_annotation) for p in expr.params]
    ts2 = [Var(p.name_hint + "_dot", p.type_annotation) for p in expr.params]
    value = Call(expr, xs2)
    tangent = TupleGetItem(Call(dlin, xs2 + ts2 + [zeros_like(value)]), 0)
    return _partial_eval(Function(xs2 + ts2, Tuple([value, tangent])), mod)


def _partial_eval(fn: Function, mod: Optional[IRModule]) -> Function:
    """``fn`` with its known calls and closures inlined (relay-partial-eval), typed."""
    back = _run_passes(_emit_as_target(fn, mod).text(debug_info=True),
                       "relay-partial-eval,relay-fold-constants,canonicalize,cse",
                       "partial evaluation", types_of=mod)
    result = back[_TARGET]
    for new, old in zip(result.params, fn.params):
        new.name_hint = old.name_hint
    _type_check(result, mod)
    return result


def _emit_as_target(fn: Function, mod: Optional[IRModule]):
    """``mod``'s functions and ``fn`` (as ``@__grad_input``), emitted and typed."""
    work = IRModule()
    if mod is not None:
        work.update(mod)
    work[GlobalVar(_TARGET)] = fn
    return work.to_mlir(infer=True)


def _run_passes(text: str, passes: str, what: str, types_of: Optional[IRModule] = None) -> IRModule:
    """``passes`` (a comma-separated pipeline) run on relay MLIR ``text`` in the worker
    process (``_worker.run_pipeline``: a crash in C++ is a ``CompileError``), read back
    (with the ADTs of ``types_of``)."""
    out, _ = run_pipeline(text, f"builtin.module({passes})", what)
    return from_mlir_text(out, f"<{what}>", trusted=True, types_of=types_of)


def _type_check(fn: Function, mod: Optional[IRModule]) -> None:
    """Fills ``checked_type`` of ``fn`` (with ``mod``'s functions), as TVM's InferType would."""
    typing = IRModule()
    if mod is not None:
        typing.update(mod)
    typing["main"] = fn
    typing.to_mlir(infer=True)
