"""Passes in Relay's calling style, and TVM's pass infrastructure (docs/passes.md).

A pass is called on an ``IRModule`` and returns one: ``relay_mlir.transform.InferType()(mod)``.
A ``Sequential`` runs passes in order under the current ``PassContext``, which decides by opt
level, ``required_pass`` and ``disabled_pass`` which of them run; ``module_pass`` and
``function_pass`` turn Python functions or classes into passes::

    >>> import numpy as np
    >>> import relay_mlir as relay
    >>> from relay_mlir.transform import PassContext, Sequential
    >>> x = relay.var("x", shape=(2,))
    >>> ones = relay.ones_like(relay.const(np.zeros(2, "float32")))     # constant: folds
    >>> mod = relay.IRModule.from_expr(relay.Function([x], x + ones))
    >>> seq = Sequential([relay.transform.InferType(), relay.transform.FoldConstant()])
    >>> with PassContext(opt_level=1):      # FoldConstant is opt level 2: skipped
    ...     print(type(seq(mod)["main"].body.args[1]).__name__)
    Call
    >>> with PassContext(opt_level=3):
    ...     print(type(seq(mod)["main"].body.args[1]).__name__)
    Constant
    >>> mod["main"].body.checked_type
    TensorType([2], float32)

Where TVM 0.19 keeps things: ``tvm.relay.transform`` has the passes, ``FunctionPass`` and
``function_pass``; ``PassContext``, ``PassInfo``, ``Pass``, ``ModulePass``, ``Sequential`` and
``module_pass`` are ``tvm.transform``'s; ``PassInstrument``, ``pass_instrument``,
``PassTimingInstrument``, ``PrintBeforeAll``, ``PrintAfterAll`` and ``PassPrintingInstrument`` are
``tvm.instrument``'s. They live in ``relay_mlir.pass_infra``; this module re-exports them
all.

TVM's other ``relay.transform`` names (``FakeQuantizationToInteger``, ...) are not
implemented yet: reading one is an ``AttributeError`` that says so.
"""
from __future__ import annotations

import logging
import warnings

from ._worker import run_pipeline
from .autodiff import _run_passes, gradient, jvp
from .emit import _ir
from .errors import CompileError
from .expr import Call, Expr, Function, Op, TupleGetItem, Var
from .mlir_import import from_mlir_text
from .analysis import post_order_visit
from .module import IRModule
from .op import dyn as _dyn
from .pass_infra import (FunctionPass, ModulePass, Pass, PassContext, PassInfo, PassInstrument,
                         PassPrintingInstrument, PassTimingInstrument, PrintAfterAll,
                         PrintBeforeAll, Sequential, _NOT_YET, _register_pass, _shallow_copy,
                         function_pass, module_pass, pass_instrument)
from .expr_functor import ExprMutator
from .ty import FuncType, IncompleteType, TensorType
from .byoc import AnnotateTarget, MergeCompilerRegions, MergeComposite, PartitionGraph  # BYOC (docs/byoc.md)

__all__ = [
    # the passes (TVM's relay.transform names)
    "InferType", "DynamicToStatic", "FoldConstant", "gradient", "jvp",
    "ForwardFoldScaleAxis", "BackwardFoldScaleAxis", "FoldScaleAxis",
    "SimplifyInference", "DeadCodeElimination", "EliminateCommonSubexpr",
    "DivToMul", "CanonicalizeCast", "SimplifyExpr", "SimplifyExprPostAlterOp", "FoldExplicitPadding", "CanonicalizeOps",
    "CombineParallelConv2D", "CombineParallelDense", "CombineParallelBatchMatmul",
    "FastMath", "ToMixedPrecision",
    "ToANormalForm", "ToBasicBlockNormalForm", "ToGraphNormalForm", "ConvertLayout", "AlterOpLayout",
    "FlattenAtrousConv",
    "LambdaLift", "PartialEvaluate", "FuseOps", "DefuseOps",
    "RemoveUnusedFunctions", "Inline", "EtaExpand", "Legalize",
    "FunctionPass", "function_pass",
    # TVM's tvm.transform
    "PassInfo", "PassContext", "Pass", "ModulePass", "Sequential", "module_pass",
    # TVM's tvm.instrument
    "PassInstrument", "pass_instrument", "PassTimingInstrument", "PassPrintingInstrument",
    "PrintAfterAll", "PrintBeforeAll",
]
__all__ += ["MergeComposite", "AnnotateTarget", "MergeCompilerRegions", "PartitionGraph"]
from .devices.plan import PlanDevices  # noqa: E402 (devices, docs/byoc.md)
__all__ += ["PlanDevices"]


# -- the passes ----------------------------------------------------------------------------------
def _infer(mod: IRModule) -> IRModule:
    """Type inference outside the pass infrastructure (no instruments, no context)."""
    mod._emitted = mod.to_mlir(infer=True)
    _fill_return_types(mod)
    return mod


class _ReturnTypeFiller(ExprMutator):
    """Gives each function without a ``ret_type`` its inferred return type and each untyped
    variable its inferred type (a new Var), in a copy: the functions and the nodes enclosing
    them are rebuilt (with their checked types), the rest is shared."""

    iterative_scopes = True

    def _dispatch(self, expr: Expr):
        new = super()._dispatch(expr)
        if new is not expr and new._checked_type is None:
            new._checked_type = expr._checked_type
        return new

    def visit_var(self, var: Var) -> Expr:
        """An untyped variable becomes one annotated with its inferred type, as in TVM 0.19's
        typed copy (``relay.var("w").type_annotation`` is ``None`` before, the type after)."""
        checked = var._checked_type
        if var.type_annotation is not None or checked is None or isinstance(checked, IncompleteType):
            return var
        typed = Var(var.name_hint, checked)
        typed._checked_type, typed.span = checked, var.span
        return typed

    def visit_function(self, fn: Function) -> Expr:
        new = super().visit_function(fn)
        checked = fn._checked_type
        if fn.ret_type is not None or not isinstance(checked, FuncType):
            return new
        if new is fn:
            new = Function(fn.params, fn.body, None, fn.type_params, fn.attrs)
            new.span = fn.span
        new.ret_type = checked.ret_type
        return new


def _fill_return_types(mod: IRModule) -> None:
    """TVM 0.19's InferType returns a typed copy of the module whose functions, global and
    local, have their ``ret_type``; here ``mod``'s functions are replaced by such copies (the
    Function objects given, which other modules may share, are left as they were)."""
    for gv, fn in list(mod.functions.items()):
        if isinstance(fn, Function):
            mod.functions[gv] = _ReturnTypeFiller().visit(fn)


def _infer_expr_type(e):
    """(shape with None for ``?`` dims, dtype) of a tensor expression by InferType, or None
    (the type oracle of the dyn compositions, ``op.dyn.type_of``). An operand that does not
    type-check is a TypeError saying why (a dtype mismatch inside a shape computation, e.g.)."""
    try:
        _infer(IRModule.from_expr(e))
    except CompileError as err:
        raise TypeError(f"the operand does not type-check: {err}") from None
    except (ValueError, TypeError):
        return None
    t = getattr(e, "_checked_type", None)
    if not isinstance(t, TensorType):
        return None
    return tuple(d if isinstance(d, int) else None for d in t.shape), t.dtype


@_register_pass
class InferType(ModulePass):
    """Runs ``relay-infer-type`` (the C++ relations) on a module (PassInfo: "InferType", opt
    level 0).

    Every expression of the module gets ``checked_type``; ``mod.mlir()``
    shows the typed MLIR. Type errors raise ``CompileError``. The module is typed in place
    and returned (TVM returns a typed copy).
    """

    _info = PassInfo(0, "InferType")

    def __init__(self) -> None:
        pass

    def _apply(self, mod: IRModule, ctx: PassContext) -> IRModule:
        return _infer(mod)


class _PipelinePass(FunctionPass):
    """A pass that runs relay-mlir passes (after relay-infer-type) on the module's MLIR and
    reads the result back into expressions; as the FunctionPass it is in TVM, InferType runs
    after."""

    passes = ""

    def __init__(self) -> None:
        pass

    def _transform_functions(self, mod: IRModule, ctx: PassContext) -> IRModule:
        return _run_passes(mod.to_mlir(infer=True).text(debug_info=True), "relay-infer-type," + self.passes,
                           self._info.name, types_of=mod)


@_register_pass
class DynamicToStatic(_PipelinePass):
    """Relay's DynamicToStatic (``relay-dynamic-to-static``; PassInfo: "DynamicToStatic", opt
    level 2): ``dyn.*`` operators whose shape arguments are constants become their static
    operators, ``shape_of`` of a static shape a constant, and the types after them are inferred
    again::

        >>> import numpy as np, relay_mlir as relay
        >>> x = relay.var("x", shape=(4, 6))
        >>> y = relay.op.dyn.tile(x, relay.const([2, 1], "int64"))
        >>> mod = relay.transform.DynamicToStatic()(relay.IRModule.from_expr(relay.Function([x], y)))
        >>> mod["main"].body.op.name, mod["main"].body.checked_type
        ('tile', TensorType([8, 6], float32))
    """

    _info = PassInfo(2, "DynamicToStatic")
    passes = "relay-dynamic-to-static"


@_register_pass
class FoldConstant(_PipelinePass):
    """Relay's FoldConstant (``relay-fold-constants``; PassInfo: "FoldConstant", opt level 2):
    operators whose arguments are all constants are computed at compile time by the pass's
    C++ evaluators (the reference interpreter's values; results above 2**22 elements stay
    operators), ``shape_of`` of static shapes and lets bound to constants fold::

        >>> import numpy as np, relay_mlir as relay
        >>> w = relay.const(np.arange(6, dtype="float32").reshape(2, 3))
        >>> mod = relay.IRModule.from_expr(relay.Function([], relay.sum(relay.transpose(w), axis=1)))
        >>> relay.transform.FoldConstant()(mod)["main"].body.data.numpy()
        array([3., 5., 7.], dtype=float32)
    """

    _info = PassInfo(2, "FoldConstant")
    passes = "relay-fold-constants"

    def __init__(self, fold_qnn: bool = False) -> None:
        """``fold_qnn`` as in TVM 0.19 (default False: ``qnn.*`` operators on constants stay,
        as they do here); True (TVM: lower them to integer ops and fold those) is refused."""
        if fold_qnn:
            raise ValueError("FoldConstant(fold_qnn=True) is not supported yet: qnn.* operators "
                             "are not folded; use fold_qnn=False (the default)")
        self.fold_qnn = False


@_register_pass
class SimplifyInference(_PipelinePass):
    """Relay's SimplifyInference (``relay-simplify-inference``; PassInfo: "SimplifyInference", opt
    level 0, requires InferType): field 0 of ``nn.batch_norm`` becomes ``x * scale + shift``,
    field 0 of ``nn.dropout`` its input, ``nn.layer_norm``/``group_norm``/``instance_norm`` become
    mean, variance, subtract, sqrt, divide, multiply, add, and ``nn.l2_normalize``
    ``x / sqrt(max(sum(x * x), eps))``::

        >>> import relay_mlir as relay
        >>> x, g, b = relay.var("x", shape=(2, 8)), relay.var("g", shape=(8,)), relay.var("b", shape=(8,))
        >>> mod = relay.IRModule.from_expr(relay.Function([x, g, b], relay.nn.layer_norm(x, g, b)))
        >>> body = relay.transform.SimplifyInference()(mod)["main"].body
        >>> body.op.name, body.args[0].op.name
        ('add', 'multiply')
    """

    _info = PassInfo(0, "SimplifyInference", ["InferType"])
    passes = "relay-simplify-inference"


@_register_pass
class DeadCodeElimination(ModulePass):
    """Relay's DeadCodeElimination(inline_once=False, ignore_impurity=False)
    (``relay-dead-code-elimination``; PassInfo: "DeadCodeElimination", opt level 1, a module pass
    requiring InferType): a let whose variable is unused goes if its value is pure (TVM 0.19's
    purity: reference reads and writes, and calls of functions with them or of unknown function
    values, are impure), or always with ``ignore_impurity``. With ``inline_once`` a pure value
    used once inside an ``if`` branch or ``match`` clause is computed there (not moved into a
    closure, which may run many times)::

        >>> import relay_mlir as relay
        >>> x, y = relay.var("x", shape=(2,)), relay.var("y")
        >>> mod = relay.IRModule.from_expr(relay.Function([x], relay.Let(y, relay.exp(x), x + x)))
        >>> relay.transform.DeadCodeElimination()(mod)["main"].body.op.name
        'add'
    """

    _info = PassInfo(1, "DeadCodeElimination", ["InferType"])

    def __init__(self, inline_once: bool = False, ignore_impurity: bool = False) -> None:
        self.inline_once = bool(inline_once)
        self.ignore_impurity = bool(ignore_impurity)

    def _apply(self, mod: IRModule, ctx: PassContext) -> IRModule:
        opts = f"inline-once={str(self.inline_once).lower()} ignore-impurity={str(self.ignore_impurity).lower()}"
        return _run_passes(mod.to_mlir(infer=True).text(debug_info=True),
                           f"relay-infer-type,relay-dead-code-elimination{{{opts}}}",
                           self._info.name, types_of=mod)


@_register_pass
class EliminateCommonSubexpr(FunctionPass):
    """Relay's EliminateCommonSubexpr(fskip=None) (``relay-eliminate-common-subexpr``; PassInfo:
    "EliminateCommonSubexpr", opt level 3, requires InferType): an operator call equal to an
    earlier one (same operator, attributes and operands: the same expressions, or equal scalar
    constants) is replaced by it, and so is a ``TupleGetItem`` of the same tuple and index.
    Calls of functions, reference reads and writes, ``nn.dropout``, constants and tuples are not
    merged. ``fskip(expr)`` is asked of each operator call and ``TupleGetItem``; those it returns
    True for are neither merged nor merged into. As in TVM, equal calls in two ``if`` branches
    (or a branch and after it) merge into one computed before the ``if``::

        >>> import relay_mlir as relay
        >>> x = relay.var("x", shape=(2,))
        >>> mod = relay.IRModule.from_expr(relay.Function([x], relay.exp(x) + relay.exp(x)))
        >>> body = relay.transform.EliminateCommonSubexpr()(mod)["main"].body
        >>> body.args[0] is body.args[1]
        True
    """

    _info = PassInfo(3, "EliminateCommonSubexpr", ["InferType"])

    def __init__(self, fskip=None) -> None:
        if fskip is not None and not callable(fskip):
            raise TypeError(f"EliminateCommonSubexpr: fskip must be callable, got {type(fskip).__name__}")
        self.fskip = fskip

    def _transform_functions(self, mod: IRModule, ctx: PassContext) -> IRModule:
        em = mod.to_mlir(infer=True)
        if self.fskip is not None:
            _mark_skipped(em, self.fskip)
        return _run_passes(em.text(debug_info=True), "relay-infer-type,relay-eliminate-common-subexpr",
                           self._info.name, types_of=mod)


def _mark_skipped(em, fskip) -> None:
    """Sets ``relay.cse_skip`` on the ops computing the operator calls and ``TupleGetItem``s
    ``fskip`` returns True for (asked once per expression)."""
    ir = _ir()
    asked = {}
    marked = []

    def visit(op):
        loc = op.location
        if loc.is_a_name():
            e = em.keys.get(loc.name_str)
            if isinstance(e, TupleGetItem) or (isinstance(e, Call) and isinstance(e.op, Op) and e.args):
                if e not in asked:
                    asked[e] = bool(fskip(e))
                if asked[e]:
                    marked.append(op)
        return ir.WalkResult.ADVANCE

    with em.ctx:
        em.operation.walk(visit)
        for op in marked:
            op.attributes["relay.cse_skip"] = ir.UnitAttr.get()


@_register_pass
class DivToMul(_PipelinePass):
    """Relay's DivToMul (``relay-div-to-mul``; PassInfo: "DivToMul", opt level 0, requires
    InferType and FoldConstant): ``divide(x, c)`` with ``c`` a float16/32/64 constant becomes
    ``multiply(x, 1 / c)``, every element of ``c`` inverted (TVM 0.19 inverts only the first
    element of a non-scalar constant). Integer division, a divisor with a zero and a divisor
    that is not a constant stay::

        >>> import relay_mlir as relay
        >>> x = relay.var("x", shape=(3,))
        >>> mod = relay.IRModule.from_expr(relay.Function([x], x / relay.const(4.0)))
        >>> body = relay.transform.DivToMul()(mod)["main"].body
        >>> body.op.name, float(body.args[1].data)
        ('multiply', 0.25)
    """

    _info = PassInfo(0, "DivToMul", ["InferType", "FoldConstant"])
    passes = "relay-div-to-mul"


@_register_pass
class CanonicalizeCast(_PipelinePass):
    """Relay's CanonicalizeCast (``relay-canonicalize-cast``; PassInfo: "CanonicalizeCast", opt
    level 3, requires InferType): a widening ``cast`` (to more bits) read by several elementwise
    or broadcast operators gets a copy for each such use after the first, so each consumer can
    fuse with its own cast; other consumers share the original::

        >>> import relay_mlir as relay
        >>> x, y = relay.var("x", shape=(3,), dtype="int8"), relay.var("y", shape=(3,))
        >>> c = relay.cast(x, "float32")
        >>> mod = relay.IRModule.from_expr(relay.Function([x, y], relay.Tuple([c + y, c * y])))
        >>> a, m = relay.transform.CanonicalizeCast()(mod)["main"].body.fields
        >>> a.args[0].op.name, m.args[0].op.name, a.args[0] is m.args[0]
        ('cast', 'cast', False)
    """

    _info = PassInfo(3, "CanonicalizeCast", ["InferType"])
    passes = "relay-canonicalize-cast"


@_register_pass
class SimplifyExpr(_PipelinePass):
    """Relay's SimplifyExpr (``relay-simplify-expr``; PassInfo: "SimplifyExpr", opt level 0,
    requires InferType): TVM 0.19's sub-rewrites as rewrite patterns: consecutive reshapes and
    transposes merged, identity transposes and same-dtype casts dropped, a cast after a widening
    cast made direct, ``x + 0``/``x * 1``/``x - 0``/``x / 1`` → ``x``, ``x / sqrt(y)`` →
    ``x * rsqrt(y)``, ``x + x`` → ``x * 2``, ``zeros_like``/``ones_like``/``cast_like``
    concretized, a zeros/ones operand of a broadcast op made a scalar (docs/passes.md lists what
    is not there yet)::

        >>> import relay_mlir as relay
        >>> x = relay.var("x", shape=(2, 3))
        >>> y = relay.transpose(relay.transpose(x, (1, 0)), (1, 0)) * relay.ones_like(x)
        >>> mod = relay.IRModule.from_expr(relay.Function([x], y))
        >>> mod = relay.transform.SimplifyExpr()(mod)
        >>> mod["main"].body is mod["main"].params[0]
        True
    """

    _info = PassInfo(0, "SimplifyExpr", ["InferType"])
    passes = "relay-simplify-expr"


@_register_pass
class SimplifyExprPostAlterOp(_PipelinePass):
    """Relay's SimplifyExprPostAlterOp (``relay-simplify-expr-post-alter-op``; PassInfo:
    "SimplifyExprPostAlterOp", opt level 0, requires InferType; TVM 0.19 has it as
    ``relay._transform.SimplifyExprPostAlterOp`` and ``relay.build`` runs it after
    AlterOpLayout at every opt level): of SimplifyExpr's rewrites only ``x + 0``/``x * 1``/
    ``x - 0``/``x / 1`` → ``x``, consecutive reshapes merged, same-dtype casts dropped, a cast
    after a widening cast made direct, the casts after a ``clip`` that change no value dropped
    and a ``clip`` that clips nothing dropped (transposes, ``layout_transform`` pairs and the
    ``*_like`` operators stay)::

        >>> import relay_mlir as relay
        >>> x = relay.var("x", shape=(4,), dtype="int32")
        >>> c = relay.clip(x, 0, 255)
        >>> mod = relay.IRModule.from_expr(relay.Function([x], relay.cast(relay.cast(c, "uint8"), "int32")))
        >>> relay.transform.SimplifyExprPostAlterOp()(mod)["main"].body.op.name
        'clip'
    """

    _info = PassInfo(0, "SimplifyExprPostAlterOp", ["InferType"])
    passes = "relay-simplify-expr-post-alter-op"


@_register_pass
class FoldExplicitPadding(_PipelinePass):
    """Relay's FoldExplicitPadding (``relay-fold-explicit-padding``; PassInfo:
    " FoldExplicitPadding" with TVM 0.19's leading space, so ``disabled_pass`` must spell it so;
    opt level 0, requires InferType): an ``nn.pad`` in "constant" mode that pads only spatial
    dims and has no other use is folded into the ``padding`` of the ``nn.conv1d/2d/3d`` or
    ``nn.avg_pool1d/2d/3d`` it feeds if its value is 0 (an average pool then counts its padding;
    one that does not count it takes the pad only without padding of its own), of the
    ``nn.max_pool1d/2d/3d`` if its value is -inf (floats) or the lowest integer::

        >>> import relay_mlir as relay
        >>> x, w = relay.var("x", shape=(1, 2, 5, 5)), relay.var("w", shape=(3, 2, 3, 3))
        >>> y = relay.nn.conv2d(relay.nn.pad(x, ((0, 0), (0, 0), (1, 1), (2, 0))), w)
        >>> body = relay.transform.FoldExplicitPadding()(relay.IRModule.from_expr(relay.Function([x, w], y)))["main"].body
        >>> body.op.name, list(body.attrs["padding"]), type(body.args[0]).__name__
        ('nn.conv2d', [1, 2, 1, 0], 'Var')
    """

    _info = PassInfo(0, " FoldExplicitPadding", ["InferType"])
    passes = "relay-fold-explicit-padding"


@_register_pass
class CanonicalizeOps(_PipelinePass):
    """Relay's CanonicalizeOps (``relay-canonicalize-ops``; PassInfo: "CanonicalizeOps", opt
    level 3, requires InferType): ``nn.bias_add(x, b, axis)`` becomes ``add(x, b')`` with ``b'``
    the bias given unit dims after ``axis`` by ``expand_dims`` (none for the last axis), the
    one operator TVM 0.19's pass rewrites::

        >>> import relay_mlir as relay
        >>> x, b = relay.var("x", shape=(1, 3, 4, 4)), relay.var("b", shape=(3,))
        >>> mod = relay.IRModule.from_expr(relay.Function([x, b], relay.nn.bias_add(x, b)))
        >>> body = relay.transform.CanonicalizeOps()(mod)["main"].body
        >>> body.op.name, body.args[1].op.name, body.args[1].checked_type
        ('add', 'expand_dims', TensorType([3, 1, 1], float32))
    """

    _info = PassInfo(3, "CanonicalizeOps", ["InferType"])
    passes = "relay-canonicalize-ops"


def _min_branches(min_num_branches) -> int:
    if isinstance(min_num_branches, bool) or not isinstance(min_num_branches, int) \
            or min_num_branches < 0:
        raise TypeError(f"min_num_branches must be a non-negative int, got {min_num_branches!r}")
    return int(min_num_branches)


@_register_pass
class BackwardFoldScaleAxis(_PipelinePass):
    """Relay's BackwardFoldScaleAxis (``relay-backward-fold-scale-axis``; PassInfo:
    "BackwardFoldScaleAxis", opt level 3, requires InferType): a ``multiply`` by a scale along
    the channel axis alone (a scalar, ``[C]``, ``[C, 1, 1]``, ...) after an ``nn.conv2d`` /
    ``nn.conv3d`` (groups 1 or depthwise) or ``nn.dense``, maybe through ``nn.relu`` /
    ``nn.leaky_relu`` (then a non-negative constant scale), ``add`` / ``subtract`` of a
    per-channel operand and ``nn.bias_add`` (those operands are scaled too), each value used
    once, is folded into the weight (along O); a constant weight and scale become a new
    constant::

        >>> import numpy as np, relay_mlir as relay
        >>> x = relay.var("x", shape=(1, 2, 5, 5))
        >>> w = relay.const(np.ones((3, 2, 3, 3), "float32"))
        >>> s = relay.const(np.array([1, 2, 3], "float32").reshape(3, 1, 1))
        >>> mod = relay.IRModule.from_expr(relay.Function([x], relay.nn.conv2d(x, w) * s))
        >>> body = relay.transform.BackwardFoldScaleAxis()(mod)["main"].body
        >>> body.op.name, body.args[1].data[:, 0, 0, 0].tolist()
        ('nn.conv2d', [1.0, 2.0, 3.0])
    """

    _info = PassInfo(3, "BackwardFoldScaleAxis", ["InferType"])
    passes = "relay-backward-fold-scale-axis"


@_register_pass
class ForwardFoldScaleAxis(_PipelinePass):
    """Relay's ForwardFoldScaleAxis (``relay-forward-fold-scale-axis``; PassInfo:
    "ForwardFoldScaleAxis", opt level 3, requires InferType): a ``multiply`` by a scale along
    one axis whose every use reaches the data of ``nn.conv2d`` / ``nn.conv3d`` (groups 1 or
    depthwise; their C axis) or ``nn.dense`` (the last axis), maybe through ``nn.relu`` /
    ``nn.leaky_relu`` (then a non-negative constant scale) and float ``add`` / ``subtract`` of
    an operand along that axis (divided by the scale), is folded into their weights (along I)::

        >>> import numpy as np, relay_mlir as relay
        >>> x = relay.var("x", shape=(1, 2, 5, 5))
        >>> w = relay.const(np.ones((3, 2, 3, 3), "float32"))
        >>> s = relay.const(np.array([2, 4], "float32").reshape(2, 1, 1))
        >>> mod = relay.IRModule.from_expr(relay.Function([x], relay.nn.conv2d(x * s, w)))
        >>> out = relay.transform.ForwardFoldScaleAxis()(mod)
        >>> body = out["main"].body
        >>> body.args[0] is out["main"].params[0], body.args[1].data[0, :, 0, 0].tolist()
        (True, [2.0, 4.0])
    """

    _info = PassInfo(3, "ForwardFoldScaleAxis", ["InferType"])
    passes = "relay-forward-fold-scale-axis"


def FoldScaleAxis() -> Sequential:
    """Relay's FoldScaleAxis: as in TVM 0.19, ``Sequential([BackwardFoldScaleAxis(),
    ForwardFoldScaleAxis(), FoldConstant()], name="FoldScaleAxis")`` (PassInfo "FoldScaleAxis",
    opt level 0). The folds are opt level 3: under the default context (opt level 2) only
    FoldConstant runs::

        >>> import numpy as np, relay_mlir as relay
        >>> x = relay.var("x", shape=(1, 2, 5, 5))
        >>> w = relay.const(np.ones((3, 2, 3, 3), "float32"))
        >>> mod = relay.IRModule.from_expr(relay.Function([x], relay.nn.conv2d(x, w) * relay.const(2.0)))
        >>> relay.transform.FoldScaleAxis()(mod)["main"].body.op.name
        'multiply'
        >>> with relay.transform.PassContext(opt_level=3):
        ...     relay.transform.FoldScaleAxis()(mod)["main"].body.op.name
        'nn.conv2d'
    """
    return Sequential([BackwardFoldScaleAxis(), ForwardFoldScaleAxis(), FoldConstant()],
                      name="FoldScaleAxis")


@_register_pass
class CombineParallelConv2D(_PipelinePass):
    """Relay's CombineParallelConv2D (``relay-combine-parallel-conv2d``; PassInfo:
    "CombineParallelConv2d", opt level 4, requires InferType): at least ``min_num_branches``
    ``nn.conv2d`` ops (groups 1) reading the same data, with equal strides, padding, dilation,
    layouts, out_dtype and kernel size, become one conv2d of their concatenated weights; the
    elementwise/broadcast ops following every branch alike are combined too; each branch's
    result is a ``strided_slice`` of its channels::

        >>> import relay_mlir as relay
        >>> x = relay.var("x", shape=(1, 4, 8, 8))
        >>> ws = [relay.var(f"w{i}", shape=(2, 4, 3, 3)) for i in range(3)]
        >>> y = relay.Tuple([relay.nn.relu(relay.nn.conv2d(x, w)) for w in ws])
        >>> mod = relay.transform.CombineParallelConv2D()(relay.IRModule.from_expr(relay.Function([x] + ws, y)))
        >>> [f.op.name for f in mod["main"].body.fields]
        ['strided_slice', 'strided_slice', 'strided_slice']
    """

    _info = PassInfo(4, "CombineParallelConv2d", ["InferType"])

    def __init__(self, min_num_branches: int = 3) -> None:
        self.min_num_branches = _min_branches(min_num_branches)
        self.passes = f"relay-combine-parallel-conv2d{{min-num-branches={self.min_num_branches}}}"


@_register_pass
class CombineParallelDense(_PipelinePass):
    """Relay's CombineParallelDense (``relay-combine-parallel-dense``; PassInfo:
    "CombineParallelDense", opt level 4, requires InferType): at least ``min_num_branches``
    ``nn.dense`` ops reading the same data with the same out_dtype become, with ``to_batch``,
    one ``nn.batch_matmul`` of the stacked data and weights (equal weight shapes; each branch a
    ``squeeze`` of a ``split``), otherwise one ``nn.dense`` of the concatenated weights (equal
    input sizes; each branch a ``strided_slice``); elementwise/broadcast ops following every
    branch alike are combined too::

        >>> import relay_mlir as relay
        >>> x = relay.var("x", shape=(2, 4))
        >>> ws = [relay.var(f"w{i}", shape=(3, 4)) for i in range(3)]
        >>> mod = relay.IRModule.from_expr(relay.Function([x] + ws, relay.Tuple([relay.nn.dense(x, w) for w in ws])))
        >>> [f.op.name for f in relay.transform.CombineParallelDense()(mod)["main"].body.fields]
        ['squeeze', 'squeeze', 'squeeze']
    """

    _info = PassInfo(4, "CombineParallelDense", ["InferType"])

    def __init__(self, min_num_branches: int = 3, to_batch: bool = True) -> None:
        self.min_num_branches = _min_branches(min_num_branches)
        self.to_batch = bool(to_batch)
        self.passes = (f"relay-combine-parallel-dense{{min-num-branches={self.min_num_branches} "
                       f"to-batch={str(self.to_batch).lower()}}}")


@_register_pass
class CombineParallelBatchMatmul(_PipelinePass):
    """Relay's CombineParallelBatchMatmul (``relay-combine-parallel-batch-matmul``; PassInfo:
    "CombineParallelBatchMatmul", opt level 4, requires InferType): at least
    ``min_num_branches`` ``nn.batch_matmul`` ops (``transpose_b=True``) of the same x, with y of
    the same batch and dtype, become one batch_matmul of the y concatenated along axis 1; the
    elementwise/broadcast ops following every branch alike are combined too; each branch's
    result is a ``strided_slice`` of its columns::

        >>> import relay_mlir as relay
        >>> x = relay.var("x", shape=(2, 3, 4))
        >>> ys = [relay.var(f"y{i}", shape=(2, 5, 4)) for i in range(3)]
        >>> mod = relay.IRModule.from_expr(relay.Function([x] + ys, relay.Tuple([relay.nn.batch_matmul(x, y) for y in ys])))
        >>> [f.op.name for f in relay.transform.CombineParallelBatchMatmul()(mod)["main"].body.fields]
        ['strided_slice', 'strided_slice', 'strided_slice']
    """

    _info = PassInfo(4, "CombineParallelBatchMatmul", ["InferType"])

    def __init__(self, min_num_branches: int = 3) -> None:
        self.min_num_branches = _min_branches(min_num_branches)
        self.passes = f"relay-combine-parallel-batch-matmul{{min-num-branches={self.min_num_branches}}}"


@_register_pass
class FastMath(_PipelinePass):
    """Relay's FastMath (``relay-fast-math``; PassInfo: "FastMath", opt level 4, requires
    InferType): ``exp``, ``tanh`` and ``erf`` become ``fast_exp``, ``fast_tanh`` and
    ``fast_erf``. TVM 0.19 also makes ``nn.softmax`` an ``nn.fast_softmax``, which relay-mlir
    does not have: softmax stays. Compiled, the fast operators are the exact ones' math ops
    (errors measured on llvm-cpu in docs/passes.md, with TVM's)::

        >>> import relay_mlir as relay
        >>> x = relay.var("x", shape=(3,))
        >>> mod = relay.IRModule.from_expr(relay.Function([x], relay.tanh(relay.exp(x))))
        >>> body = relay.transform.FastMath()(mod)["main"].body
        >>> body.op.name, body.args[0].op.name
        ('fast_tanh', 'fast_exp')
    """

    _info = PassInfo(4, "FastMath", ["InferType"])
    passes = "relay-fast-math"


@_register_pass
class ToMixedPrecision(FunctionPass):
    """Relay's ToMixedPrecision (``relay-to-mixed-precision``; PassInfo: "ToMixedPrecision", opt
    level 0): operators compute in ``mixed_precision_type`` ("float16" or "bfloat16") by TVM
    0.19's lists: convolutions, ``nn.dense`` and ``nn.batch_matmul`` always (accumulating in it,
    ``out_dtype``), data movement and simple arithmetic/activations when their inputs are in it
    (or parameters or constants), ``exp``, ``softmax``, ``sum``, ``mean``, ``erf``, ... never
    (their inputs cast back to float32). An operator on no list follows its inputs and is
    reported: ``missing_op_mode`` 0 is a ``CompileError``, 1 a ``UserWarning``, 2 silent.
    Constants are converted at compile time. ``main`` returns the low type unless the
    PassContext config ``relay.ToMixedPrecision.keep_orig_output_dtype`` is true::

        >>> import numpy as np, relay_mlir as relay
        >>> x = relay.var("x", shape=(2, 4))
        >>> w = relay.const(np.ones((3, 4), "float32"))
        >>> mod = relay.IRModule.from_expr(relay.Function([x], relay.nn.softmax(relay.nn.dense(x, w))))
        >>> out = relay.transform.ToMixedPrecision()(mod)
        >>> dense = out["main"].body.args[0].args[0]
        >>> dense.op.name, dense.checked_type.dtype, dense.args[1].data.dtype
        ('nn.dense', 'float16', dtype('float16'))
        >>> out["main"].body.checked_type      # softmax: never in float16
        TensorType([2, 3], float32)
    """

    _info = PassInfo(0, "ToMixedPrecision")

    def __init__(self, mixed_precision_type: str = "float16", missing_op_mode: int = 1) -> None:
        if missing_op_mode not in (0, 1, 2) or isinstance(missing_op_mode, bool):
            raise ValueError(f"ToMixedPrecision: missing_op_mode is 0, 1 or 2, got {missing_op_mode!r}")
        if mixed_precision_type not in ("float16", "bfloat16", "float32", "float64"):
            raise ValueError("ToMixedPrecision: mixed_precision_type is 'float16' or 'bfloat16' "
                             f"('float32', 'float64' accepted), got {mixed_precision_type!r}")
        self.mixed_precision_type = mixed_precision_type
        self.missing_op_mode = int(missing_op_mode)

    def _transform_functions(self, mod: IRModule, ctx: PassContext) -> IRModule:
        keep = bool(ctx.config.get("relay.ToMixedPrecision.keep_orig_output_dtype", False))
        passes = (f"relay-infer-type,relay-to-mixed-precision{{mixed-precision-type="
                  f"{self.mixed_precision_type} missing-op-mode={self.missing_op_mode} "
                  f"keep-orig-output-dtype={str(keep).lower()}}}")
        what = self._info.name
        out, diags = run_pipeline(mod.to_mlir(infer=True).text(debug_info=True), f"builtin.module({passes})",
                                  what)  # in the worker, as autodiff._run_passes
        for d in diags:
            if d.severity == "warning":
                warnings.warn(f"{what}: {d.message}", UserWarning, stacklevel=4)
        return from_mlir_text(out, f"<{what}>", trusted=True, types_of=mod)


# -- passes over the module's functions (issue 31) ------------------------------------------
class _ModulePipelinePass(ModulePass):
    """A module pass that runs relay-mlir passes (after relay-infer-type) on the module's MLIR
    and reads the result back, typed."""

    def _mlir_passes(self) -> str:
        raise NotImplementedError

    @property
    def passes(self) -> str:
        """The relay-mlir-opt pass (what ``optimizer.mlir_passes`` runs inside compile())."""
        return self._mlir_passes()

    def _apply(self, mod: IRModule, ctx: PassContext) -> IRModule:
        return _run_passes(mod.to_mlir(infer=True).text(debug_info=True),
                           "relay-infer-type," + self._mlir_passes() + ",relay-infer-type",
                           self._info.name, types_of=mod)


@_register_pass
class RemoveUnusedFunctions(_ModulePipelinePass):
    """Relay's RemoveUnusedFunctions(entry_functions=None) (``relay-remove-unused-functions``;
    PassInfo: "RemoveUnusedFunctions", opt level 1, a module pass): the functions named by
    ``entry_functions`` (``["main"]`` when None) and the functions they reach (calls, functions
    used as values) stay, the others go; type definitions stay. A name that is no function of
    the module is a ``CompileError`` naming it (TVM 0.19: an InternalError "candidates are")::

        >>> import relay_mlir as relay
        >>> mod = relay.fromtext(
        ...     "def @unused(%x: Tensor[(2), float32]) -> Tensor[(2), float32] { %x }\\n"
        ...     "def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] { negative(%x) }")
        >>> [g.name_hint for g in relay.transform.RemoveUnusedFunctions()(mod).get_global_vars()]
        ['main']
    """

    _info = PassInfo(1, "RemoveUnusedFunctions")

    def __init__(self, entry_functions=None) -> None:
        names = ["main"] if entry_functions is None else list(entry_functions)
        for n in names:
            if not isinstance(n, str) or not n.replace("_", "a").replace(".", "a").isalnum():
                raise TypeError(f"RemoveUnusedFunctions: entry_functions are function names, got {n!r}")
        self.entry_functions = names
        self._public = False

    @classmethod
    def _exported(cls) -> "RemoveUnusedFunctions":
        """The pass as ``compile()`` runs it in relay.build's sequence: every public function
        is an entry too (the executable exports them all; TVM builds main alone)."""
        p = cls([])
        p._public = True
        return p

    def _mlir_passes(self) -> str:
        if self._public:
            return "relay-remove-unused-functions{public-entries=true}"
        return f"relay-remove-unused-functions{{entry-functions={','.join(self.entry_functions)}}}"


@_register_pass
class Inline(_ModulePipelinePass):
    """Relay's Inline (``relay-inline``; PassInfo: "InlineGlobals", opt level 1, a module pass):
    every call of a module function with the attribute ``Inline=1``
    (``Function.with_attr("Inline", 1)``) becomes the function's body, unless the function is
    recursive (alone or with others) or has a ``Compiler`` attribute; inlined functions then
    unreferenced go, entries (functions nothing called, such as ``main``) stay. Unlike TVM 0.19,
    which crashes on them: a function called twice by one caller is inlined at both calls, one
    calling functions without ``Inline`` is inlined, and one used as a value stays a function::

        >>> import relay_mlir as relay
        >>> mod = relay.fromtext(
        ...     "def @g(%x: Tensor[(2), float32], Inline=1) -> Tensor[(2), float32] { exp(%x) }\\n"
        ...     "def @main(%a: Tensor[(2), float32]) -> Tensor[(2), float32] { add(@g(%a), @g(%a)) }")
        >>> out = relay.transform.Inline()(mod)
        >>> [g.name_hint for g in out.get_global_vars()], out["main"].body.args[0].op.name
        (['main'], 'exp')
    """

    _info = PassInfo(1, "InlineGlobals")

    def __init__(self) -> None:
        pass

    def _mlir_passes(self) -> str:
        return "relay-inline"


@_register_pass
class EtaExpand(_ModulePipelinePass):
    """Relay's EtaExpand(expand_constructor=False, expand_global_var=False)
    (``relay-eta-expand``; PassInfo: "EtaExpand", opt level 1, a module pass): with
    ``expand_global_var`` a module function used as a value (not called) becomes
    ``fn (params) { @g(params) }``. Constructors used as values are such functions already in
    relay-mlir (the builder makes ``fn (fields) { C(fields) }`` of them, so they read back so
    with or without ``expand_constructor``). Neither flag is a ``ValueError`` (TVM: "must expand
    at least one language feature")::

        >>> import relay_mlir as relay
        >>> mod = relay.fromtext(
        ...     "def @g(%x: Tensor[(2), float32]) -> Tensor[(2), float32] { exp(%x) }\\n"
        ...     "def @main() -> fn (Tensor[(2), float32]) -> Tensor[(2), float32] { @g }")
        >>> body = relay.transform.EtaExpand(expand_global_var=True)(mod)["main"].body
        >>> type(body).__name__, body.body.op.name_hint
        ('Function', 'g')
    """

    _info = PassInfo(1, "EtaExpand")

    def __init__(self, expand_constructor: bool = False, expand_global_var: bool = False) -> None:
        if not expand_constructor and not expand_global_var:
            raise ValueError("EtaExpand: expand at least one of constructors (expand_constructor) "
                             "and global functions (expand_global_var)")
        self.expand_constructor = bool(expand_constructor)
        self.expand_global_var = bool(expand_global_var)

    def _mlir_passes(self) -> str:
        return (f"relay-eta-expand{{expand-constructor={str(self.expand_constructor).lower()} "
                f"expand-global-var={str(self.expand_global_var).lower()}}}")


@_register_pass
class LambdaLift(_ModulePipelinePass):
    """Relay's LambdaLift (``relay-lambda-lift``; PassInfo: "LambdaLift", opt level 1, a module
    pass): every closure (``fn`` inside a function) becomes a module function, innermost first.
    As TVM 0.19 writes the result: a closure that captures values becomes
    ``def @f(captures..., Closure=1) { fn (params) { body } }`` and ``@f(captures)`` where it
    was; one without captures becomes ``def @f(params) { body }`` and ``@f``. The names are
    ``@<function>$fn<N>`` (TVM: ``@lifted_name<hash>``)::

        >>> import relay_mlir as relay
        >>> mod = relay.fromtext(
        ...     "def @main(%x: Tensor[(2), float32], %b: Tensor[(2), float32]) -> Tensor[(2), float32] {"
        ...     " let %f = fn (%p: Tensor[(2), float32]) { add(%p, %b) }; %f(%x) }")
        >>> out = relay.transform.LambdaLift()(mod)
        >>> [g.name_hint for g in out.get_global_vars()], out["main$fn0"].attrs
        (['main', 'main$fn0'], {'Closure': 1})
    """

    _info = PassInfo(1, "LambdaLift")

    def __init__(self) -> None:
        pass

    def _mlir_passes(self) -> str:
        return "relay-lambda-lift"


@_register_pass
class PartialEvaluate(_ModulePipelinePass):
    """Relay's PartialEvaluate (``relay-partial-eval`` and ``relay-fold-constants``, twice;
    PassInfo: "PartialEval", opt level 1, a module pass): calls of non-recursive module
    functions and of closures known where they are called are inlined, operators on constants
    are computed, and an ``if`` whose condition became a constant is its chosen branch (the
    second round inlines and folds what the first one made static). Unlike TVM 0.19, calls of
    recursive functions stay calls even when their arguments are static (TVM runs them at
    compile time), and the result is in graph form, not TVM's A-normal form of lets::

        >>> import relay_mlir as relay
        >>> mod = relay.fromtext(
        ...     "def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {"
        ...     " if (less(1, 2)) { exp(%x) } else { negative(%x) } }")
        >>> relay.transform.PartialEvaluate()(mod)["main"].body.op.name
        'exp'
    """

    _info = PassInfo(1, "PartialEval")

    def __init__(self) -> None:
        pass

    def _mlir_passes(self) -> str:
        return "relay-partial-eval,relay-fold-constants,relay-partial-eval,relay-fold-constants"


def _each_function(mod: IRModule, form) -> IRModule:
    """A copy of ``mod`` with ``form`` applied to each of its functions."""
    new = _shallow_copy(mod)
    for gv, fn in list(mod.functions.items()):
        if isinstance(fn, Function):
            new[gv] = form(fn)
    return new


class _FormPass(ModulePass):
    """A module pass putting each function in a form of relay_mlir.normal_form (``_form``)."""

    _form = ""

    def __init__(self) -> None:
        pass

    def _apply(self, mod: IRModule, ctx: PassContext) -> IRModule:
        from . import normal_form

        return _each_function(mod, getattr(normal_form, self._form))


@_register_pass
class ToANormalForm(_FormPass):
    """Relay's ToANormalForm (PassInfo: "ToANormalForm", opt level 1, a module pass): every
    expression but variables, global functions, operators and constructors is bound by a
    ``let`` (constants, closures and ``if``s too), in the innermost scope (function body,
    branch, clause) holding all its uses, as TVM 0.19 places them (relay_mlir.normal_form; a
    form of the expressions: the MLIR is SSA). Unlike TVM, a function ending in a let variable
    does not bind it again (TVM adds ``let %x_1 = %b; let %x_2 = %x_1``)::

        >>> import relay_mlir as relay
        >>> from relay_mlir.normal_form import count_lets
        >>> mod = relay.fromtext("def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {"
        ...                      " %0 = exp(add(%x, 1f)); multiply(%0, %0) }")
        >>> count_lets(relay.transform.ToANormalForm()(mod)["main"])
        4
    """

    _info = PassInfo(1, "ToANormalForm")
    _form = "to_a_normal_form"


@_register_pass
class ToBasicBlockNormalForm(_FormPass):
    """Relay's ToBasicBlockNormalForm (PassInfo: "ToBasicBlockNormalForm", opt level 1, a
    module pass): an expression used from a scope other than its own (inside an ``if`` branch,
    ``match`` clause or closure and outside it, or in two branches) is let-bound in the
    innermost scope holding all its uses, as TVM 0.19 does; the rest stays a graph
    (relay_mlir.normal_form). relay.build's sequence inside ``compile()`` has no need of it:
    MLIR regions are in that form by construction::

        >>> import relay_mlir as relay
        >>> from relay_mlir.normal_form import count_lets
        >>> mod = relay.fromtext("def @main(%x: Tensor[(2), float32], %c: bool) -> Tensor[(2), float32] {"
        ...                      " %0 = exp(%x); if (%c) { %0 } else { negative(%0) } }")
        >>> count_lets(relay.transform.ToBasicBlockNormalForm()(mod)["main"])
        1
    """

    _info = PassInfo(1, "ToBasicBlockNormalForm")
    _form = "to_basic_block_normal_form"


@_register_pass
class ToGraphNormalForm(FunctionPass):
    """Relay's ToGraphNormalForm (PassInfo: "ToGraphNormalForm", opt level 1, a function pass):
    lets become graph nodes, except a recursive closure's, one whose value has a reference
    operation, and an unused one whose value calls a function (TVM 0.19 removes those too,
    losing effects); relay_mlir.normal_form::

        >>> import relay_mlir as relay
        >>> from relay_mlir.normal_form import count_lets
        >>> mod = relay.fromtext("def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {"
        ...                      " let %a = exp(%x); let %b = add(%a, %a); %b }")
        >>> count_lets(relay.transform.ToGraphNormalForm()(mod)["main"])
        0
    """

    _info = PassInfo(1, "ToGraphNormalForm")

    def __init__(self) -> None:
        from .normal_form import to_graph_normal_form

        self._pass_func = lambda fn, mod, ctx: to_graph_normal_form(fn)


@_register_pass
class ConvertLayout(_PipelinePass):
    """Relay's ConvertLayout(desired_layouts) (``relay-convert-layout``; PassInfo:
    "ConvertLayout", opt level 3, requires InferType and CanonicalizeOps, a function pass).
    ``desired_layouts`` is TVM's dict ``{"nn.conv2d": [data_layout, kernel_layout]}``:
    ``["NHWC", "default"]`` (kernel HWIO) or ``["NCHW", "default"]`` (kernel OIHW), the kernel
    layout also spelled out. Every ``nn.conv2d`` gets those layouts, with a ``layout_transform``
    of its data (and a transposed weight) before it and back after it, as TVM writes them, and
    the layout changes are moved through the ops that can take the new layout (elementwise and
    broadcast ops, ``nn.bias_add``, pools, reductions, ``concatenate``), so they cancel between
    convolutions. Other operators' layouts (``nn.conv2d_transpose``, ``qnn.conv2d``, ...) and
    other kernel layouts are not converted: asking for them is a ``ValueError``::

        >>> import relay_mlir as relay
        >>> x, w = relay.var("x", shape=(1, 3, 8, 8)), relay.var("w", shape=(4, 3, 3, 3))
        >>> mod = relay.IRModule.from_expr(relay.Function([x, w], relay.nn.relu(relay.nn.conv2d(x, w))))
        >>> out = relay.transform.ConvertLayout({"nn.conv2d": ["NHWC", "default"]})(mod)
        >>> body = out["main"].body        # back to NCHW after the relu
        >>> body.op.name, body.attrs["src_layout"], body.args[0].args[0].attrs["data_layout"]
        ('layout_transform', 'NHWC', 'NHWC')
    """

    _info = PassInfo(3, "ConvertLayout", ["InferType", "CanonicalizeOps"])
    _KERNELS = {"NHWC": "HWIO", "NCHW": "OIHW"}

    def __init__(self, desired_layouts) -> None:
        if not isinstance(desired_layouts, dict):
            raise TypeError("ConvertLayout: desired_layouts is a dict such as "
                            f"{{'nn.conv2d': ['NHWC', 'default']}}, got {desired_layouts!r}")
        others = sorted(k for k in desired_layouts if k != "nn.conv2d")
        if others:
            raise ValueError(f"ConvertLayout: relay-mlir converts the layout of nn.conv2d only, "
                             f"not of {', '.join(map(str, others))}")
        layouts = list(desired_layouts.get("nn.conv2d", ()))
        if not layouts:
            raise ValueError("ConvertLayout: desired_layouts needs 'nn.conv2d': "
                             "[data_layout, kernel_layout]")
        data = layouts[0]
        kernel = layouts[1] if len(layouts) > 1 else "default"
        if data not in self._KERNELS or kernel not in ("default", self._KERNELS[data]) \
                or len(layouts) > 2:
            raise ValueError("ConvertLayout: nn.conv2d layouts are ['NHWC', 'default'|'HWIO'] or "
                             f"['NCHW', 'default'|'OIHW'], got {layouts!r}")
        self.desired_layouts = {"nn.conv2d": [data, kernel]}
        self.passes = (f"relay-convert-layout{{desired-layout={data} constant-weights-only=false "
                       "layout-transforms=true}")


class _CPUTargetPass(FunctionPass):
    """A function pass of TVM's x86 target hooks: it asks the current ``tvm.target.Target``
    and changes nothing without one or under a target that is not a CPU (TVM's generic
    functions do nothing there); under a CPU target it runs the MLIR passes
    ``_cpu_passes(target)`` names (the target's answers as pass options)."""

    def __init__(self) -> None:
        pass

    def _cpu_passes(self, target) -> str:
        raise NotImplementedError

    def target_passes(self) -> str:
        """The relay-mlir-opt passes this pass runs under the current Target ("": none)."""
        from .tvm.target import Target

        target = Target.current()
        if target is None or "cpu" not in target.keys:
            return ""
        return self._cpu_passes(target)

    def _transform_functions(self, mod: IRModule, ctx: PassContext) -> IRModule:
        passes = self.target_passes()
        if not passes:
            return mod
        return _run_passes(mod.to_mlir(infer=True).text(debug_info=True),
                           "relay-infer-type," + passes, self._info.name, types_of=mod)


@_register_pass
class AlterOpLayout(_CPUTargetPass):
    """Relay's AlterOpLayout() (``relay-alter-op-layout{simd-lanes=N}``; PassInfo:
    "AlterOpLayout", opt level 3, requires InferType, a function pass): under a CPU
    ``tvm.target.Target`` (``llvm``), TVM 0.19's x86 blocking of NCHW ``nn.conv2d`` into
    ``nn.contrib_conv2d_NCHWc`` / ``nn.contrib_depthwise_conv2d_NCHWc`` with NCHW{n}c blocks
    from the target's SIMD lanes (``relay_mlir.x86_target.simd_32bit_lanes``, handed to the
    MLIR pass as ``simd-lanes``), ``layout_transform``s at the edges and elementwise ops,
    binary broadcasts, channel concatenates, pools and reductions running blocked
    (relay_mlir.alter_op_layout says what is and is not done); with no target or another
    kind, the module is unchanged. ``compile()`` never runs it, but a module it produced
    compiles and runs with the same values::

        >>> import relay_mlir as relay
        >>> from relay_mlir.tvm.target import Target
        >>> x, w = relay.var("x", shape=(1, 8, 5, 5)), relay.var("w", shape=(8, 8, 3, 3))
        >>> mod = relay.IRModule.from_expr(relay.Function([x, w], relay.nn.relu(relay.nn.conv2d(x, w))))
        >>> with Target("llvm"):
        ...     body = relay.transform.AlterOpLayout()(mod)["main"].body
        >>> body.attrs["src_layout"], body.args[0].op.name, body.args[0].args[0].op.name
        ('NCHW4c', 'nn.relu', 'nn.contrib_conv2d_NCHWc')
    """

    _info = PassInfo(3, "AlterOpLayout", ["InferType"])

    def _cpu_passes(self, target) -> str:
        from .x86_target import simd_32bit_lanes

        return f"relay-alter-op-layout{{simd-lanes={simd_32bit_lanes(target)}}}"


@_register_pass
class FlattenAtrousConv(_PipelinePass):
    """Relay's FlattenAtrousConv() (``relay-flatten-atrous-conv``; PassInfo:
    "FlattenAtrousConv", opt level 0, requires InferType, a function pass):
    ``batch_to_space_nd(conv2d(space_to_batch_nd(x)))`` with an NHWC conv2d becomes one
    ``nn.conv2d`` of ``x`` with ``dilation = block_shape``; the padding is the paddings minus
    the crops (TVM 0.19 always uses SAME padding, which breaks a VALID atrous conv). The three
    stay unless a dilated conv equals them (2-entry block shapes equal in both, pad value 0, a
    conv2d with strides 1, dilation 1 and no padding of its own, crops within the paddings)::

        >>> import relay_mlir as relay
        >>> x, w = relay.var("x", shape=(1, 10, 10, 3)), relay.var("w", shape=(3, 3, 3, 4))
        >>> y = relay.nn.space_to_batch_nd(x, [2, 2], [[2, 2], [2, 2]])
        >>> y = relay.nn.conv2d(y, w, data_layout="NHWC", kernel_layout="HWIO")
        >>> y = relay.nn.batch_to_space_nd(y, [2, 2], [[0, 0], [0, 0]])
        >>> body = relay.transform.FlattenAtrousConv()(relay.IRModule.from_expr(relay.Function([x, w], y)))["main"].body
        >>> body.op.name, body.attrs["dilation"], body.attrs["padding"]
        ('nn.conv2d', [2, 2], [2, 2, 2, 2])
    """

    _info = PassInfo(0, "FlattenAtrousConv", ["InferType"])
    passes = "relay-flatten-atrous-conv"


@_register_pass
class FuseOps(FunctionPass):
    """Relay's FuseOps(fuse_opt_level=-1) (PassInfo: "FuseOps", opt level 0, requires
    InferType, a function pass): operators are grouped into ``Primitive=1`` functions called in
    place, as TVM 0.19 groups them (relay_mlir.fuse_ops: TVM's operator patterns and fusion
    rules; at ``fuse_opt_level`` 0 each operator alone, -1 the PassContext's opt level). A form
    of the expressions for users who inspect fusion: relay-mlir's lowering ignores it (IREE
    fuses on its own), and a fused module compiles as it is (or after ``DefuseOps``)::

        >>> import relay_mlir as relay
        >>> from relay_mlir.fuse_ops import primitive_groups
        >>> x, w = relay.var("x", shape=(2, 8)), relay.var("w", shape=(4, 8))
        >>> mod = relay.IRModule.from_expr(relay.Function([x, w], relay.nn.softmax(relay.nn.relu(relay.nn.dense(x, w)))))
        >>> primitive_groups(relay.transform.FuseOps()(mod)["main"])
        [['nn.softmax'], ['nn.dense', 'nn.relu']]
    """

    _info = PassInfo(0, "FuseOps", ["InferType"])

    def __init__(self, fuse_opt_level: int = -1) -> None:
        if isinstance(fuse_opt_level, bool) or not isinstance(fuse_opt_level, int):
            raise TypeError(f"FuseOps: fuse_opt_level is an int, got {fuse_opt_level!r}")
        self.fuse_opt_level = fuse_opt_level

    def _transform_functions(self, mod: IRModule, ctx: PassContext) -> IRModule:
        from .fuse_ops import fuse_ops

        level = ctx.opt_level if self.fuse_opt_level == -1 else self.fuse_opt_level
        depth = int(ctx.config.get("relay.FuseOps.max_depth", 256))
        self._pass_func = lambda fn, m, c: fuse_ops(fn, level, depth)
        return super()._transform_functions(_infer(mod), ctx)


@_register_pass
class DefuseOps(FunctionPass):
    """Relay's DefuseOps (PassInfo: "DefuseOps", opt level 3, requires InferType, a function
    pass): every call of a ``Primitive=1`` function becomes the function's body on its
    arguments (relay_mlir.fuse_ops), undoing FuseOps::

        >>> import relay_mlir as relay
        >>> x = relay.var("x", shape=(2,))
        >>> mod = relay.transform.FuseOps()(relay.IRModule.from_expr(relay.Function([x], relay.exp(x))))
        >>> relay.transform.DefuseOps()(mod)["main"].body.op.name
        'exp'
    """

    _info = PassInfo(3, "DefuseOps", ["InferType"])

    def __init__(self) -> None:
        from .fuse_ops import defuse_ops

        self._pass_func = lambda fn, mod, ctx: defuse_ops(fn)


@_register_pass
class Legalize(_PipelinePass):
    """Relay's Legalize(legalize_map_attr_name="FTVMLegalize") (``relay-legalize``; PassInfo:
    "Legalize", opt level 1, requires InferType, a function pass): what TVM 0.19's Legalize
    does for the llvm target to the operators relay-mlir has: ``erf`` of float16 is computed
    in float32 (casts around it) and ``nn.conv2d_transpose`` gets NCHW data and an IOHW kernel
    (transposes around it). TVM's int8 dense/conv2d/batch_matmul rewrites for VNNI/AVX-512
    targets are not done; another ``legalize_map_attr_name`` (``FTVMQnnLegalize`` is
    relay.qnn.transform.Legalize's) is a ``ValueError``::

        >>> import relay_mlir as relay
        >>> x = relay.var("x", shape=(4,), dtype="float16")
        >>> mod = relay.IRModule.from_expr(relay.Function([x], relay.erf(x)))
        >>> body = relay.transform.Legalize()(mod)["main"].body
        >>> body.op.name, body.args[0].op.name, body.args[0].checked_type.dtype
        ('cast', 'erf', 'float32')
    """

    _info = PassInfo(1, "Legalize", ["InferType"])
    passes = "relay-legalize"

    def __init__(self, legalize_map_attr_name: str = "FTVMLegalize") -> None:
        if legalize_map_attr_name != "FTVMLegalize":
            raise ValueError("Legalize: relay-mlir has the legalizations of 'FTVMLegalize' "
                             f"(TVM's for llvm), not {legalize_map_attr_name!r}")
        self.legalize_map_attr_name = legalize_map_attr_name


_dyn.set_type_oracle(_infer_expr_type)


# TVM passes relay-mlir leaves out on purpose (docs/optimizer.md says why)
_LEFT_OUT: dict = {}


def __getattr__(name: str):
    if name in _LEFT_OUT:
        raise AttributeError(f"relay_mlir.transform.{name} is left out on purpose: {_LEFT_OUT[name]} "
                             "(docs/optimizer.md)", name=name, obj=None)
    if name in _NOT_YET:
        raise AttributeError(f"relay_mlir.transform.{name}: TVM's relay.transform.{name} is not "
                             "implemented yet in relay-mlir (docs/passes.md lists the passes it has)",
                             name=name, obj=None)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}", name=name, obj=None)


def SpanCheck():  # noqa: N802  (TVM's name)
    """TVM 0.19's ``relay.SpanCheck()``: a pass (opt level 0) that reports, as log warnings
    (``logging``, logger ``relay_mlir.parser``; TVM's is ``tvm.relay.SpanCheck``, defined
    with its parser), every expression of the module's functions
    without a source span, and returns the module unchanged. Parsed text has spans on its
    calls; expressions built in Python have none."""
    log = logging.getLogger("relay_mlir.parser")

    def check(mod: IRModule, ctx) -> IRModule:
        for gv in mod.get_global_vars():
            fn = mod[gv]
            if not isinstance(fn, Function):
                continue

            def visit(e):
                if isinstance(e, Call) and getattr(e, "span", None) is None:
                    log.warning("%s: a call of '%s' has no span", gv.name_hint,
                                getattr(e.op, "name", getattr(e.op, "name_hint", "?")))
            post_order_visit(fn, visit)
        return mod
    return module_pass(check, opt_level=0, name="SpanCheck")
