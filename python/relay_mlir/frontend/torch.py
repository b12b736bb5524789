"""``from_torch``: a PyTorch ``nn.Module`` to a Relay ``IRModule`` through ``torch.export``.

* the module is exported with ``torch.export.export`` in eval mode (dropout
  is the identity, batch norm uses its running statistics) and, with
  ``decompose=True``, lowered further to core ATen by
  ``run_decompositions()``; both op sets are converted;
* tensor inputs of ``forward`` become parameters of ``main`` (named after
  ``forward``'s arguments; the example inputs fix shapes and dtypes), and
  parameters, buffers and tensor constants become constants;
* each ATen op is converted to Relay ops by the converter registered for it
  (``supported_ops()`` lists them); ops whose tensor inputs are all constants
  (``arange``, ``zeros``, a permuted weight, ...) are evaluated by PyTorch
  at import time;
* ``nn.LSTM`` (``aten.lstm``) is unrolled over its fixed sequence length into
  ``dense``/``split``/``sigmoid``/``tanh``;
* every Relay expression built for a node carries the node's place in the
  model's Python source (from ``torch.export``'s stack trace) as its
  location, so diagnostics point at the ``forward`` line;
* an ATen op without a converter, or an argument form that cannot be
  converted exactly, raises ``UnsupportedError`` naming the op (e.g.
  ``aten.grid_sampler.default``) and the FX node.

Example::

    >>> import torch
    >>> from relay_mlir.frontend import from_torch
    >>> net = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU())
    >>> mod = from_torch(net, (torch.zeros(2, 4),))
    >>> mod["main"].params[0].type_annotation
    TensorType([2, 4], float32)
"""
from __future__ import annotations

import math
import re
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from .. import expr as E
from .. import op
from ..module import IRModule
from ..op import nn
from .common import ImportError_, UnsupportedError, round_half_to_even

__all__ = ["from_torch", "from_exported_program", "supported_ops"]

_CONVERTERS: Dict[str, Callable] = {}


def _register(*names: str):
    """Registers a converter for ATen op packets (``"conv2d"``) or overloads (``"squeeze.dims"``)."""
    def deco(fn):
        for n in names:
            _CONVERTERS[n] = fn
        return fn
    return deco


def supported_ops() -> List[str]:
    """The ATen ops (``aten.<name>`` packets, or ``<name>.<overload>``) with a converter."""
    return sorted(_CONVERTERS)


_DTYPES = {
    "float32": "float32", "float64": "float64", "float16": "float16", "int64": "int64",
    "int32": "int32", "int16": "int16", "int8": "int8", "uint8": "uint8", "bool": "bool",
}


def _dtype_name(torch_dtype) -> str:
    name = str(torch_dtype).replace("torch.", "")
    if name not in _DTYPES:
        raise ValueError(name)
    return _DTYPES[name]


class _TV:
    """Shape and dtype of a Relay expression standing for a torch tensor."""

    __slots__ = ("expr", "shape", "dtype")

    def __init__(self, expr: E.Expr, shape: Tuple[int, ...], dtype: str) -> None:
        self.expr, self.shape, self.dtype = expr, tuple(shape), dtype

    @property
    def ndim(self) -> int:
        return len(self.shape)


class _Ctx:
    """What a converter sees: the node, its normalised arguments and helpers."""

    def __init__(self, imp: "_Importer", node, args: Dict[str, Any]) -> None:
        self.imp, self.node, self.a = imp, node, args

    # -- errors --------------------------------------------------------------------
    @property
    def op_name(self) -> str:
        return _op_name(self.node.target)

    def unsupported(self, why: str) -> UnsupportedError:
        return self.imp.unsupported(self.node, why)

    # -- output type ---------------------------------------------------------------
    def out(self, i: Optional[int] = None) -> Tuple[Tuple[int, ...], str]:
        val = self.node.meta.get("val")
        if i is not None:
            val = val[i]
        return self.imp.tensor_type(val, self.node)

    # -- operands --------------------------------------------------------------------
    def tv(self, v: Any, dtype: Optional[str] = None) -> _TV:
        """``v`` (an expression, a constant tensor or a Python number) as a typed expression."""
        return self.imp.as_tv(v, dtype, self.node)

    def ex(self, v: Any, dtype: Optional[str] = None) -> E.Expr:
        return self.tv(v, dtype).expr

    def result(self, expr: E.Expr, i: Optional[int] = None) -> _TV:
        shape, dtype = self.out(i)
        return _TV(expr, shape, dtype)


def _op_name(target) -> str:
    return str(target) if not callable(target) or not hasattr(target, "__name__") or \
        hasattr(target, "_schema") else f"{getattr(target, '__module__', '')}.{target.__name__}"


def _packet(target) -> Tuple[str, str]:
    """(packet name, overload name) of an ATen OpOverload, e.g. ("add", "Tensor")."""
    name = getattr(target, "_schema", None)
    if name is None:
        return "", ""
    full = target._schema.name  # "aten::add"
    ns, _, base = full.partition("::")
    return (base if ns == "aten" else full), (target._overloadname or "default")


def _normalize(target, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Dict[str, Any]:
    """Arguments of an OpOverload call by schema name, defaults filled in."""
    out: Dict[str, Any] = {}
    schema = target._schema
    for i, a in enumerate(schema.arguments):
        if i < len(args) and not a.kwarg_only:
            out[a.name] = args[i]
        elif a.name in kwargs:
            out[a.name] = kwargs[a.name]
        elif a.has_default_value():
            out[a.name] = a.default_value
        else:
            out[a.name] = None
    return out


class _Importer:
    def __init__(self, ep, source: str) -> None:
        import torch
        self.torch = torch
        self.ep = ep
        self.source = source
        self.env: Dict[Any, Any] = {}
        self.spanned: set = set()

    # -- errors and types ------------------------------------------------------------
    def where(self, node) -> str:
        span = self.span_of(node, 0)
        return f"{span.filename}:{span.line}" if span.line else span.filename

    def unsupported(self, node, why: str) -> UnsupportedError:
        name = _op_name(node.target)
        return UnsupportedError(f"PyTorch {name} (node '{node.name}', at {self.where(node)}): {why}",
                                name, node.name, None)

    def tensor_type(self, val, node) -> Tuple[Tuple[int, ...], str]:
        torch = self.torch
        if not isinstance(val, torch.Tensor):
            raise self.unsupported(node, f"expected a tensor value, found {type(val).__name__}")
        shape = []
        for d in val.shape:
            if not isinstance(d, int):
                raise self.unsupported(node, f"dynamic (symbolic) shapes are not supported (dim {d}); "
                                             "export with static shapes")
            shape.append(d)
        try:
            dtype = _dtype_name(val.dtype)
        except ValueError:
            raise self.unsupported(node, f"dtype {val.dtype} is not supported") from None
        return tuple(shape), dtype

    def as_tv(self, v: Any, dtype: Optional[str], node) -> _TV:
        torch = self.torch
        if isinstance(v, _TV):
            if dtype is not None and v.dtype != dtype:
                return _TV(op.cast(v.expr, dtype), v.shape, dtype)
            return v
        if isinstance(v, torch.Tensor):
            arr = v.detach().cpu().contiguous().numpy()
            if dtype is not None:
                arr = arr.astype(dtype)
            return _TV(E.const(arr, arr.dtype.name), arr.shape, arr.dtype.name)
        if isinstance(v, (bool, int, float, np.number)):
            dt = dtype or ("bool" if isinstance(v, bool) else "int64" if isinstance(v, int) else "float32")
            return _TV(E.const(np.array(v, dt), dt), (), dt)
        raise self.unsupported(node, f"expected a tensor operand, found {type(v).__name__}")

    # -- locations -------------------------------------------------------------------------
    def span_of(self, node, idx: int) -> E.Span:
        trace = node.meta.get("stack_trace") or ""
        frames = re.findall(r'File "([^"]+)", line (\d+)', trace)
        frames = [f for f in frames if "/torch/" not in f[0]] or frames
        if frames:
            f, line = frames[-1]
            return E.Span(f, int(line), 1)
        return E.Span(f"{self.source}:{node.name}", idx + 1, 1)

    def set_span(self, root: Any, span: E.Span) -> None:
        stack = [root]
        while stack:
            e = stack.pop()
            if isinstance(e, _TV):
                e = e.expr
            if isinstance(e, (list, tuple)):
                stack.extend(e)
                continue
            if isinstance(e, E.TupleWrapper):
                e = e.astuple()
            if not isinstance(e, E.Expr) or id(e) in self.spanned or isinstance(e, (E.Var, E.Op)):
                continue
            self.spanned.add(id(e))
            e.span = span
            if isinstance(e, E.Call):
                stack.extend(e.args)
            elif isinstance(e, E.Tuple):
                stack.extend(e.fields)
            elif isinstance(e, E.TupleGetItem):
                stack.append(e.tuple_value)

    # -- graph ---------------------------------------------------------------------------------
    def lookup(self, a: Any) -> Any:
        import torch.fx as fx
        if isinstance(a, fx.Node):
            return self.env[a]
        if isinstance(a, tuple):
            return tuple(self.lookup(x) for x in a)
        if isinstance(a, list):
            return [self.lookup(x) for x in a]
        if isinstance(a, dict):
            return {k: self.lookup(v) for k, v in a.items()}
        return a

    def run(self) -> IRModule:
        from torch.export.graph_signature import InputKind, OutputKind
        ep, torch = self.ep, self.torch
        sig = ep.graph_signature
        specs = {s.arg.name: s for s in sig.input_specs}
        params: List[E.Var] = []
        graph = ep.graph_module.graph
        for idx, node in enumerate(graph.nodes):
            if node.op == "placeholder":
                spec = specs.get(node.name)
                kind = spec.kind if spec is not None else InputKind.USER_INPUT
                if kind == InputKind.USER_INPUT:
                    val = node.meta.get("val")
                    if not isinstance(val, torch.Tensor):
                        raise UnsupportedError(
                            f"PyTorch model '{self.source}': input '{node.name}' is not a tensor "
                            f"({type(val).__name__}); only tensor inputs are supported", None, node.name)
                    shape, dtype = self.tensor_type(val, node)
                    v = E.var(node.name, shape=shape, dtype=dtype)
                    v.span = self.span_of(node, idx)
                    params.append(v)
                    self.env[node] = _TV(v, shape, dtype)
                elif kind in (InputKind.PARAMETER, InputKind.BUFFER):
                    t = ep.state_dict[spec.target] if spec.target in ep.state_dict else ep.constants[spec.target]
                    self.env[node] = t.detach()
                elif kind == InputKind.CONSTANT_TENSOR:
                    self.env[node] = ep.constants[spec.target].detach()
                else:
                    raise UnsupportedError(f"PyTorch model '{self.source}': input '{node.name}' of kind "
                                           f"{kind.name} is not supported", None, node.name)
            elif node.op == "call_function":
                self.convert(idx, node)
            elif node.op == "output":
                outs = node.args[0]
                kinds = [s.kind for s in sig.output_specs]
                results = []
                for o, k in zip(outs, kinds):
                    if k != OutputKind.USER_OUTPUT:
                        raise UnsupportedError(f"PyTorch model '{self.source}': the model mutates "
                                               f"state ({k.name} output '{o}'); export it in eval mode",
                                               None, str(o))
                    v = self.lookup(o)
                    if v is None or not isinstance(v, (_TV, torch.Tensor)):
                        raise UnsupportedError(f"PyTorch model '{self.source}': output '{o}' is not a "
                                               "tensor", None, str(o))
                    results.append(self.as_tv(v, None, node).expr)
                body = results[0] if len(results) == 1 else E.Tuple(results)
                fn = E.Function(params, body)
                fn.span = E.Span(self.source, 0, 0)
                return IRModule.from_expr(fn)
            else:  # get_attr etc.
                raise UnsupportedError(f"PyTorch model '{self.source}': graph node '{node.name}' "
                                       f"({node.op}) is not supported", None, node.name)
        raise ImportError_(f"PyTorch model '{self.source}': the graph has no output")

    def convert(self, idx: int, node) -> None:
        import operator
        torch = self.torch
        target = node.target
        if target is operator.getitem:
            seq, i = self.lookup(node.args[0]), node.args[1]
            self.env[node] = seq[i]
            return
        if not hasattr(target, "_schema"):
            raise self.unsupported(node, "only ATen operators are supported")
        packet, overload = _packet(target)
        args = self.lookup(list(node.args))
        kwargs = self.lookup(dict(node.kwargs))
        # fold: every tensor input is a constant -> run the op in PyTorch
        if packet not in _NO_FOLD and not _has_tv(args) and not _has_tv(kwargs):
            with torch.no_grad():
                try:
                    self.env[node] = target(*args, **kwargs)
                    return
                except Exception:
                    pass  # e.g. an op PyTorch cannot run on CPU: convert it
        conv = _CONVERTERS.get(f"{packet}.{overload}") or _CONVERTERS.get(packet)
        if conv is None:
            raise self.unsupported(node, "no converter for this operator")
        a = _normalize(target, args, kwargs)
        result = conv(_Ctx(self, node, a))
        self.set_span(result, self.span_of(node, idx))
        self.env[node] = result


_NO_FOLD = {"dropout", "native_dropout", "rand", "randn", "rand_like", "randn_like", "randint",
            "bernoulli", "normal", "uniform", "empty", "empty_like"}


def _has_tv(v: Any) -> bool:
    if isinstance(v, _TV):
        return True
    if isinstance(v, (list, tuple)):
        return any(_has_tv(x) for x in v)
    if isinstance(v, dict):
        return any(_has_tv(x) for x in v.values())
    return False


def _const_np(v: Any) -> Optional[np.ndarray]:
    """The numpy value of a constant operand (a torch tensor), else None."""
    if hasattr(v, "detach") and hasattr(v, "numpy"):
        return v.detach().cpu().contiguous().numpy()
    return None


def _axis(a: int, ndim: int) -> int:
    return a + ndim if a < 0 else a


# ---------------------------------------------------------------------------
# elementwise
# ---------------------------------------------------------------------------
def _unary(relay_fn):
    def conv(c: _Ctx) -> _TV:
        _, dtype = c.out()
        return c.result(relay_fn(c.ex(c.a["self"], dtype)))
    return conv


for _name, _fn in {
    "relu": nn.relu, "sigmoid": op.sigmoid, "tanh": op.tanh, "exp": op.exp, "log": op.log,
    "sqrt": op.sqrt, "rsqrt": op.rsqrt, "neg": op.negative, "abs": op.abs, "erf": op.erf,
    "sin": op.sin, "cos": op.cos, "floor": op.floor, "ceil": op.ceil,
    "trunc": op.trunc, "sign": op.sign, "log2": op.log2, "log10": op.log10,
}.items():
    _register(_name)(_unary(_fn))


@_register("round.default")
def _round(c: _Ctx) -> _TV:
    # torch.round rounds halves to even; relay.round (TVM's) away from zero
    _, dtype = c.out()
    x = c.ex(c.a["self"], dtype)
    if not dtype.startswith(("float", "bfloat")):
        return c.result(x)
    return c.result(round_half_to_even(x, E.Constant(np.array(0.5, dtype=dtype))))


@_register("relu_", "relu6", "hardtanh", "hardtanh_", "clamp", "clip")
def _clamp(c: _Ctx) -> _TV:
    packet, _ = _packet(c.node.target)
    x = c.a["self"]
    if packet in ("relu_",):
        return c.result(nn.relu(c.ex(x)))
    if packet == "relu6":
        lo, hi = 0.0, 6.0
    elif packet.startswith("hardtanh"):
        lo, hi = c.a["min_val"], c.a["max_val"]
    else:
        lo, hi = c.a.get("min"), c.a.get("max")
        if _has_tv([lo, hi]) or _const_np(lo) is not None or _const_np(hi) is not None:
            raise c.unsupported("tensor bounds are not supported")
    shape, dtype = c.out()
    info = np.finfo(dtype) if dtype.startswith("float") else np.iinfo(dtype)
    lo = float(info.min) if lo is None else float(lo)
    hi = float(info.max) if hi is None else float(hi)
    return c.result(op.clip(c.ex(x, dtype), lo, hi))


@_register("gelu")
def _gelu(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    approx = c.a.get("approximate", "none")
    if approx == "none":
        return c.result(nn.gelu(x.expr))
    if approx == "tanh":  # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
        k = lambda v: E.Constant(np.array(v, x.dtype))  # noqa: E731
        inner = k(math.sqrt(2.0 / math.pi)) * (x.expr + k(0.044715) * x.expr * x.expr * x.expr)
        return c.result(k(0.5) * x.expr * (k(1.0) + op.tanh(inner)))
    raise c.unsupported(f"approximate='{approx}' is not supported")


@_register("silu")
def _silu(c: _Ctx) -> _TV:
    x = c.ex(c.a["self"])
    return c.result(x * op.sigmoid(x))


@_register("leaky_relu")
def _leaky_relu(c: _Ctx) -> _TV:
    return c.result(nn.leaky_relu(c.ex(c.a["self"]), alpha=float(c.a["negative_slope"])))


def _binary(relay_fn, compare: bool = False):
    def conv(c: _Ctx) -> _TV:
        x, y = c.a["self"], c.a["other"]
        if compare:
            dt = _common_dtype(c, x, y)
            return c.result(relay_fn(c.ex(x, dt), c.ex(y, dt)))
        _, dtype = c.out()
        lhs, rhs = c.ex(x, dtype), c.ex(y, dtype)
        alpha = c.a.get("alpha", 1)
        if alpha not in (None, 1):
            rhs = rhs * E.Constant(np.array(alpha, dtype))
        return c.result(relay_fn(lhs, rhs))
    return conv


def _common_dtype(c: _Ctx, x: Any, y: Any) -> str:
    import torch
    dts = []
    for v in (x, y):
        if isinstance(v, _TV):
            dts.append(getattr(torch, v.dtype))
        elif isinstance(v, torch.Tensor):
            dts.append(v.dtype)
    if not dts:
        return "float32"
    if len(dts) == 2:
        return _dtype_name(torch.promote_types(*dts))
    other = y if isinstance(x, (_TV, torch.Tensor)) else x
    if isinstance(other, float) and not dts[0].is_floating_point:
        return "float32"
    return _dtype_name(dts[0])


for _name, _fn in {"add": op.add, "sub": op.subtract, "mul": op.multiply, "maximum": op.maximum,
                   "minimum": op.minimum, "remainder": op.floor_mod,
                   "fmod": op.mod}.items():
    _register(_name, _name + "_")(_binary(_fn))
_register("max.other")(_binary(op.maximum))
_register("min.other")(_binary(op.minimum))
for _name, _fn in {"eq": op.equal, "ne": op.not_equal, "lt": op.less, "le": op.less_equal,
                   "gt": op.greater, "ge": op.greater_equal}.items():
    _register(_name)(_binary(_fn, compare=True))
_register("logical_and")(_binary(op.logical_and, compare=True))
_register("logical_or")(_binary(op.logical_or, compare=True))
_register("logical_not")(_unary(op.logical_not))


@_register("rsub")
def _rsub(c: _Ctx) -> _TV:
    _, dtype = c.out()
    alpha = c.a.get("alpha", 1)
    x = c.ex(c.a["self"], dtype)
    if alpha not in (None, 1):
        x = x * E.Constant(np.array(alpha, dtype))
    return c.result(op.subtract(c.ex(c.a["other"], dtype), x))


@_register("pow")
def _pow(c: _Ctx) -> _TV:
    _, dtype = c.out()
    if not dtype.startswith("float"):
        raise c.unsupported("integer pow is not supported")
    return c.result(op.power(c.ex(c.a["self"], dtype), c.ex(c.a["exponent"], dtype)))


@_register("log1p")
def _log1p(c: _Ctx) -> _TV:
    _, dtype = c.out()
    return c.result(op.log(c.ex(c.a["self"], dtype) + E.Constant(np.array(1, dtype))))


@_register("expm1")
def _expm1(c: _Ctx) -> _TV:
    _, dtype = c.out()
    return c.result(op.exp(c.ex(c.a["self"], dtype)) - E.Constant(np.array(1, dtype)))


@_register("div", "div_")
def _div(c: _Ctx) -> _TV:
    _, dtype = c.out()
    mode = c.a.get("rounding_mode")
    if mode is None:
        return c.result(op.divide(c.ex(c.a["self"], dtype), c.ex(c.a["other"], dtype)))
    x, y = c.tv(c.a["self"]), c.tv(c.a["other"])
    if mode == "floor":
        if dtype.startswith("float"):
            return c.result(op.floor(op.divide(c.ex(x, dtype), c.ex(y, dtype))))
        return c.result(op.floor_divide(c.ex(x, dtype), c.ex(y, dtype)))
    if mode == "trunc":
        if dtype.startswith("float"):
            return c.result(op.trunc(op.divide(c.ex(x, dtype), c.ex(y, dtype))))
        return c.result(op.divide(c.ex(x, dtype), c.ex(y, dtype)))
    raise c.unsupported(f"rounding_mode='{mode}' is not supported")


@_register("full_like", "zeros_like", "ones_like")
def _full_like(c: _Ctx) -> _TV:
    packet, _ = _packet(c.node.target)
    shape, dtype = c.out()
    value = {"zeros_like": 0, "ones_like": 1}.get(packet, c.a.get("fill_value"))
    if _has_tv([value]) or _const_np(value) is not None:
        raise c.unsupported("a tensor fill value is not supported")
    return c.result(E.Constant(np.full(shape, value, dtype)))


@_register("any", "all")
def _any_all(c: _Ctx) -> _TV:
    packet, _ = _packet(c.node.target)
    x = c.tv(c.a["self"], "bool")
    fn = op.any if packet == "any" else op.all
    return c.result(fn(x.expr, axis=_reduce_axes(c, x), keepdims=bool(c.a.get("keepdim", False))))


@_register("reciprocal")
def _reciprocal(c: _Ctx) -> _TV:
    _, dtype = c.out()
    return c.result(op.divide(E.Constant(np.array(1, dtype)), c.ex(c.a["self"], dtype)))


@_register("square")
def _square(c: _Ctx) -> _TV:
    x = c.ex(c.a["self"])
    return c.result(x * x)


@_register("where")
def _where(c: _Ctx) -> _TV:
    if "condition" not in c.a or c.a.get("self") is None:
        raise c.unsupported("only where(condition, self, other) is supported")
    _, dtype = c.out()
    return c.result(op.where(c.ex(c.a["condition"], "bool"), c.ex(c.a["self"], dtype),
                             c.ex(c.a["other"], dtype)))


@_register("masked_fill")
def _masked_fill(c: _Ctx) -> _TV:
    _, dtype = c.out()
    return c.result(op.where(c.ex(c.a["mask"], "bool"), c.ex(c.a["value"], dtype), c.ex(c.a["self"], dtype)))


@_register("_to_copy", "to", "type_as")
def _to(c: _Ctx) -> _TV:
    _, dtype = c.out()
    x = c.tv(c.a["self"])
    return c.result(x.expr if x.dtype == dtype else op.cast(x.expr, dtype))


@_register("clone", "contiguous", "alias", "detach", "lift_fresh_copy", "dropout", "feature_dropout",
           "alpha_dropout", "_assert_tensor_metadata")
def _identity(c: _Ctx) -> Any:
    packet, _ = _packet(c.node.target)
    if packet == "_assert_tensor_metadata":
        return None
    if packet in ("dropout", "feature_dropout", "alpha_dropout") and c.a.get("train"):
        raise c.unsupported("dropout in training mode; call model.eval() before importing")
    return c.tv(c.a.get("self", c.a.get("input")))


@_register("native_dropout")
def _native_dropout(c: _Ctx) -> Any:
    if c.a.get("train"):
        raise c.unsupported("dropout in training mode; call model.eval() before importing")
    x = c.tv(c.a["input"])
    return (x, None)


# ---------------------------------------------------------------------------
# linear algebra
# ---------------------------------------------------------------------------
def _dense(c: _Ctx, x: _TV, w_t: Any, bias: Any = None) -> E.Expr:
    """``x @ w_t (+ bias)`` with ``w_t`` [k, n]; a constant is transposed in numpy for ``nn.dense``."""
    w_np = _const_np(w_t)
    if w_np is not None:
        y = nn.dense(x.expr, E.Constant(np.ascontiguousarray(w_np.T)), units=int(w_np.shape[1]))
    else:
        w = c.tv(w_t)
        y = nn.matmul(x.expr, w.expr, units=int(w.shape[1]))
    if bias is not None:
        b = c.tv(bias)
        y = nn.bias_add(y, b.expr, axis=-1) if b.ndim == 1 else y + b.expr
    return y


@_register("linear")
def _linear(c: _Ctx) -> _TV:
    x, w = c.tv(c.a["input"]), c.a["weight"]
    w_np = _const_np(w)
    if w_np is not None:
        y = nn.dense(x.expr, E.Constant(np.ascontiguousarray(w_np)), units=int(w_np.shape[0]))
    else:
        wt = c.tv(w)
        y = nn.dense(x.expr, wt.expr, units=int(wt.shape[0]))
    b = c.a.get("bias")
    if b is not None:
        y = nn.bias_add(y, c.ex(b), axis=-1)
    return c.result(y)


@_register("addmm")
def _addmm(c: _Ctx) -> _TV:
    beta, alpha = c.a.get("beta", 1), c.a.get("alpha", 1)
    if beta != 1 or alpha != 1:
        raise c.unsupported("beta/alpha other than 1 are not supported")
    return c.result(_dense(c, c.tv(c.a["mat1"]), c.a["mat2"], c.a["self"]))


@_register("mm")
def _mm(c: _Ctx) -> _TV:
    return c.result(_dense(c, c.tv(c.a["self"]), c.a["mat2"]))


@_register("bmm")
def _bmm(c: _Ctx) -> _TV:
    return c.result(nn.batch_matmul(c.ex(c.a["self"]), c.ex(c.a["mat2"]), transpose_b=False))


@_register("baddbmm")
def _baddbmm(c: _Ctx) -> _TV:
    beta, alpha = c.a.get("beta", 1), c.a.get("alpha", 1)
    _, dtype = c.out()
    y = nn.batch_matmul(c.ex(c.a["batch1"]), c.ex(c.a["batch2"]), transpose_b=False)
    if alpha != 1:
        y = y * E.Constant(np.array(alpha, dtype))
    s = c.ex(c.a["self"], dtype)
    if beta != 1:
        s = s * E.Constant(np.array(beta, dtype))
    return c.result(y + s)


@_register("matmul")
def _matmul(c: _Ctx) -> _TV:
    a, b = c.tv(c.a["self"]), c.tv(c.a["other"])
    shape, _ = c.out()
    if a.ndim == 1 or b.ndim == 1:
        raise c.unsupported("matmul with a 1-D operand is not supported")
    if b.ndim == 2:
        return c.result(_dense(c, a, c.a["other"]))
    # batched: broadcast batch dims, fold them into one, batch_matmul
    batch = shape[:-2]
    nb = int(np.prod(batch)) if batch else 1
    m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
    ae = op.broadcast_to(a.expr, batch + (m, k)) if a.shape[:-2] != batch else a.expr
    be = op.broadcast_to(b.expr, batch + (k, n)) if b.shape[:-2] != batch else b.expr
    y = nn.batch_matmul(op.reshape(ae, (nb, m, k)), op.reshape(be, (nb, k, n)), transpose_b=False)
    return c.result(op.reshape(y, shape))


# ---------------------------------------------------------------------------
# convolution, normalisation, pooling
# ---------------------------------------------------------------------------
def _conv(c: _Ctx, x: Any, w: Any, b: Any, stride, padding, dilation, groups: int,
          transposed: bool = False, output_padding=None) -> _TV:
    xt, wt = c.tv(x), c.tv(w)
    nd = xt.ndim - 2
    if isinstance(padding, str):
        if padding == "valid":
            padding = [0] * nd
        elif padding == "same":
            ks = wt.shape[2:]
            dil = list(dilation) * (nd // len(dilation)) if len(dilation) < nd else list(dilation)
            total = [d * (k - 1) for d, k in zip(dil, ks)]
            if any(t % 2 for t in total):
                raise c.unsupported("padding='same' with an even kernel is not supported")
            padding = [t // 2 for t in total]
        else:
            raise c.unsupported(f"padding='{padding}' is not supported")
    rep = lambda v: list(v) * nd if len(v) == 1 else list(v)  # noqa: E731
    stride, padding, dilation = rep(stride), rep(padding), rep(dilation)
    if transposed:
        if nd != 2:
            raise c.unsupported(f"{nd}-d transposed convolution is not supported")
        y = nn.conv2d_transpose(xt.expr, wt.expr, strides=stride, padding=padding, dilation=dilation,
                                groups=groups, channels=wt.shape[1] * groups,
                                kernel_size=wt.shape[2:], output_padding=rep(output_padding or [0]))
    elif nd == 2:
        y = nn.conv2d(xt.expr, wt.expr, strides=stride, padding=padding, dilation=dilation,
                      groups=groups, channels=wt.shape[0], kernel_size=wt.shape[2:])
    elif nd == 1:
        y = nn.conv1d(xt.expr, wt.expr, strides=stride, padding=padding, dilation=dilation,
                      groups=groups, channels=wt.shape[0], kernel_size=wt.shape[2:])
    elif nd == 3:
        y = nn.conv3d(xt.expr, wt.expr, strides=stride, padding=padding, dilation=dilation,
                      groups=groups, channels=wt.shape[0], kernel_size=wt.shape[2:])
    else:
        raise c.unsupported(f"{nd}-d convolution is not supported")
    if b is not None:
        y = nn.bias_add(y, c.ex(b), axis=1)
    return c.result(y)


@_register("conv1d", "conv2d", "conv3d")
def _convnd(c: _Ctx) -> _TV:
    a = c.a
    return _conv(c, a["input"], a["weight"], a.get("bias"), a["stride"], a["padding"], a["dilation"],
                 int(a["groups"]))


@_register("convolution", "_convolution")
def _convolution(c: _Ctx) -> _TV:
    a = c.a
    return _conv(c, a["input"], a["weight"], a.get("bias"), a["stride"], a["padding"], a["dilation"],
                 int(a["groups"]), bool(a["transposed"]), a.get("output_padding"))


@_register("conv_transpose2d")
def _conv_transpose2d(c: _Ctx) -> _TV:
    a = c.a
    return _conv(c, a["input"], a["weight"], a.get("bias"), a["stride"], a["padding"], a["dilation"],
                 int(a["groups"]), True, a.get("output_padding"))


def _bn(c: _Ctx, x: Any, w: Any, b: Any, mean: Any, var: Any, eps: float) -> E.Expr:
    xt = c.tv(x)
    ch = xt.shape[1]
    one = lambda v, fill: c.ex(v) if v is not None else E.Constant(np.full((ch,), fill, xt.dtype))  # noqa: E731
    return nn.batch_norm(xt.expr, one(w, 1.0), one(b, 0.0), c.ex(mean), c.ex(var), axis=1,
                         epsilon=float(eps))[0]


@_register("batch_norm", "_native_batch_norm_legit_no_training", "_native_batch_norm_legit",
           "native_batch_norm", "_batch_norm_impl_index")
def _batch_norm(c: _Ctx) -> Any:
    packet, _ = _packet(c.node.target)
    a = c.a
    training = a.get("training", False) if packet != "_native_batch_norm_legit_no_training" else False
    if training or a.get("running_mean") is None:
        raise c.unsupported("batch norm in training mode (batch statistics); call model.eval() "
                            "before importing")
    y = _bn(c, a["input"], a.get("weight"), a.get("bias"), a["running_mean"], a["running_var"], a["eps"])
    if packet == "batch_norm":
        return c.result(y)
    shape, dtype = c.out(0)
    return (_TV(y, shape, dtype), None, None)


@_register("layer_norm", "native_layer_norm")
def _layer_norm(c: _Ctx) -> Any:
    packet, _ = _packet(c.node.target)
    a = c.a
    x = c.tv(a["input"])
    norm = list(a["normalized_shape"])
    eps = float(a["eps"])
    k = len(norm)
    w, b = a.get("weight"), a.get("bias")
    if k == 1:
        gamma = c.ex(w) if w is not None else E.Constant(np.ones(norm, x.dtype))
        beta = c.ex(b) if b is not None else E.Constant(np.zeros(norm, x.dtype))
        y = nn.layer_norm(x.expr, gamma, beta, axis=-1, epsilon=eps)
    else:  # normalise over the last k dims: flatten them, normalise, unflatten
        flat = int(np.prod(norm))
        xe = op.reshape(x.expr, x.shape[:-k] + (flat,))
        gamma = op.reshape(c.ex(w), (flat,)) if w is not None else E.Constant(np.ones(flat, x.dtype))
        beta = op.reshape(c.ex(b), (flat,)) if b is not None else E.Constant(np.zeros(flat, x.dtype))
        y = op.reshape(nn.layer_norm(xe, gamma, beta, axis=-1, epsilon=eps), x.shape)
    if packet == "layer_norm":
        return c.result(y)
    shape, dtype = c.out(0)
    return (_TV(y, shape, dtype), None, None)


@_register("group_norm", "native_group_norm")
def _group_norm(c: _Ctx) -> Any:
    packet, _ = _packet(c.node.target)
    a = c.a
    x = c.tv(a["input"])
    ch = x.shape[1]
    gamma = c.ex(a["weight"]) if a.get("weight") is not None else E.Constant(np.ones(ch, x.dtype))
    beta = c.ex(a["bias"]) if a.get("bias") is not None else E.Constant(np.zeros(ch, x.dtype))
    groups = int(a["num_groups"] if packet == "group_norm" else a["group"])
    y = nn.group_norm(x.expr, gamma, beta, num_groups=groups, axis=1, epsilon=float(a["eps"]))
    if packet == "group_norm":
        return c.result(y)
    shape, dtype = c.out(0)
    return (_TV(y, shape, dtype), None, None)


def _pool_args(c: _Ctx, nd: int):
    a = c.a
    rep = lambda v: [int(i) for i in v] * nd if len(v) == 1 else [int(i) for i in v]  # noqa: E731
    k = rep(a["kernel_size"])
    s = rep(a["stride"]) if a.get("stride") else k
    p = rep(a["padding"])
    return k, s, p


@_register("max_pool2d", "max_pool2d_with_indices", "max_pool1d", "max_pool3d",
           "max_pool1d_with_indices", "max_pool3d_with_indices")
def _max_pool(c: _Ctx) -> Any:
    packet, _ = _packet(c.node.target)
    x = c.tv(c.a["self"])
    nd = x.ndim - 2
    k, s, p = _pool_args(c, nd)
    d = c.a.get("dilation") or [1]
    d = [int(i) for i in d] * nd if len(d) == 1 else [int(i) for i in d]
    fn = {1: nn.max_pool1d, 2: nn.max_pool2d, 3: nn.max_pool3d}[nd]
    y = fn(x.expr, pool_size=k, strides=s, dilation=d, padding=p, ceil_mode=bool(c.a["ceil_mode"]))
    if packet.endswith("with_indices"):
        shape, dtype = c.out(0)
        return (_TV(y, shape, dtype), None)
    return c.result(y)


@_register("avg_pool2d", "avg_pool1d", "avg_pool3d")
def _avg_pool(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    nd = x.ndim - 2
    if c.a.get("divisor_override") is not None:
        raise c.unsupported("divisor_override is not supported")
    k, s, p = _pool_args(c, nd)
    fn = {1: nn.avg_pool1d, 2: nn.avg_pool2d, 3: nn.avg_pool3d}[nd]
    return c.result(fn(x.expr, pool_size=k, strides=s, padding=p, ceil_mode=bool(c.a["ceil_mode"]),
                       count_include_pad=bool(c.a["count_include_pad"])))


@_register("adaptive_avg_pool2d", "_adaptive_avg_pool2d", "adaptive_max_pool2d")
def _adaptive_pool(c: _Ctx) -> Any:
    packet, _ = _packet(c.node.target)
    x = c.tv(c.a["self"])
    if x.ndim != 4:
        raise c.unsupported("only 4-D (NCHW) inputs are supported")
    size = [int(v) for v in c.a["output_size"]]
    if packet == "adaptive_max_pool2d":
        y = nn.adaptive_max_pool2d(x.expr, output_size=size)
        shape, dtype = c.out(0)
        return (_TV(y, shape, dtype), None)
    if size == [1, 1]:
        return c.result(nn.global_avg_pool2d(x.expr))
    return c.result(nn.adaptive_avg_pool2d(x.expr, output_size=size))


@_register("softmax", "_softmax", "log_softmax", "_log_softmax")
def _softmax(c: _Ctx) -> _TV:
    packet, _ = _packet(c.node.target)
    _, dtype = c.out()
    x = c.ex(c.a["self"], dtype)
    axis = int(c.a["dim"])
    return c.result((nn.log_softmax if "log" in packet else nn.softmax)(x, axis=axis))


@_register("embedding")
def _embedding(c: _Ctx) -> _TV:
    # an index outside [0, rows) is PyTorch's IndexError: take's mode "fast" makes it a run-time
    # error (checked after the program's work), not a clamped row
    return c.result(op.take(c.ex(c.a["weight"]), c.ex(c.a["indices"]), axis=0, mode="fast"))


@_register("constant_pad_nd", "pad")
def _pad(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"] if "self" in c.a else c.a["input"])
    mode = c.a.get("mode", "constant")
    if mode not in ("constant", "reflect", "replicate"):
        raise c.unsupported(f"pad mode '{mode}' is not supported")
    pad = [int(v) for v in c.a["pad"]]
    widths = [[0, 0] for _ in range(x.ndim)]
    for i in range(len(pad) // 2):  # pairs from the last dim backwards
        widths[x.ndim - 1 - i] = [pad[2 * i], pad[2 * i + 1]]
    if any(v < 0 for w in widths for v in w):
        raise c.unsupported("negative padding is not supported")
    value = c.a.get("value") or 0.0
    return c.result(nn.pad(x.expr, widths, E.Constant(np.array(value, x.dtype)),
                           pad_mode={"replicate": "edge"}.get(mode, mode)))


# ---------------------------------------------------------------------------
# shapes
# ---------------------------------------------------------------------------
@_register("view", "_unsafe_view", "reshape", "flatten", "unflatten", "view_as", "reshape_as")
def _reshape(c: _Ctx) -> _TV:
    shape, _ = c.out()
    return c.result(op.reshape(c.ex(c.a["self"]), shape))


@_register("squeeze", "unsqueeze", "expand_dims")
def _squeeze(c: _Ctx) -> _TV:
    shape, _ = c.out()
    x = c.tv(c.a["self"])
    if x.shape == shape:
        return c.result(x.expr)
    return c.result(op.reshape(x.expr, shape))


@_register("permute")
def _permute(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    return c.result(op.transpose(x.expr, [_axis(int(d), x.ndim) for d in c.a["dims"]]))


@_register("transpose", "swapaxes")
def _transpose(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    d0 = _axis(int(c.a.get("dim0", c.a.get("axis0"))), x.ndim)
    d1 = _axis(int(c.a.get("dim1", c.a.get("axis1"))), x.ndim)
    perm = list(range(x.ndim))
    perm[d0], perm[d1] = perm[d1], perm[d0]
    return c.result(op.transpose(x.expr, perm))


@_register("t", "numpy_T")
def _t(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    return c.result(op.transpose(x.expr, list(range(x.ndim))[::-1]) if x.ndim > 1 else x.expr)


@_register("expand", "expand_as", "broadcast_to")
def _expand(c: _Ctx) -> _TV:
    shape, _ = c.out()
    x = c.tv(c.a["self"])
    return c.result(x.expr if x.shape == shape else op.broadcast_to(x.expr, shape))


@_register("repeat")
def _repeat(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    reps = [int(r) for r in c.a["repeats"]]
    e = x.expr
    if len(reps) > x.ndim:
        e = op.reshape(e, (1,) * (len(reps) - x.ndim) + x.shape)
    return c.result(op.tile(e, reps))


@_register("cat", "concat", "concatenate")
def _cat(c: _Ctx) -> _TV:
    shape, dtype = c.out()
    parts = [c.tv(t, dtype) for t in c.a["tensors"]]
    parts = [p for p in parts if not (p.ndim == 1 and p.shape[0] == 0)]  # torch skips empty 1-d
    axis = _axis(int(c.a["dim"]), len(shape))
    if len(parts) == 1:
        return c.result(parts[0].expr)
    return c.result(op.concatenate([p.expr for p in parts], axis=axis))


@_register("stack")
def _stack(c: _Ctx) -> _TV:
    shape, dtype = c.out()
    return c.result(op.stack([c.ex(t, dtype) for t in c.a["tensors"]], axis=_axis(int(c.a["dim"]), len(shape))))


def _split_at(c: _Ctx, x: _TV, sizes: List[int], axis: int) -> List[_TV]:
    if len(sizes) == 1:
        return [x]
    idx = list(np.cumsum(sizes)[:-1])
    parts = op.split(x.expr, [int(i) for i in idx], axis=axis)
    out = []
    for i, s in enumerate(sizes):
        shp = list(x.shape)
        shp[axis] = s
        out.append(_TV(parts[i], tuple(shp), x.dtype))
    return out


@_register("split", "split_with_sizes", "chunk", "tensor_split", "unsafe_split",
           "split_with_sizes_copy", "unsafe_split_with_sizes")
def _split(c: _Ctx) -> List[_TV]:
    packet, overload = _packet(c.node.target)
    x = c.tv(c.a["self"])
    axis = _axis(int(c.a["dim"]), x.ndim)
    n = x.shape[axis]
    if packet == "chunk":
        k = int(c.a["chunks"])
        each = -(-n // k)
        sizes = [min(each, n - i) for i in range(0, n, each)]
    elif packet == "tensor_split":
        raise c.unsupported("tensor_split is not supported")
    elif "split_size" in c.a and isinstance(c.a["split_size"], int):
        each = int(c.a["split_size"])
        sizes = [min(each, n - i) for i in range(0, n, each)]
    else:
        sizes = [int(s) for s in c.a.get("split_sizes", c.a.get("split_size"))]
    return _split_at(c, x, sizes, axis)


@_register("unbind")
def _unbind(c: _Ctx) -> List[_TV]:
    x = c.tv(c.a["self"])
    axis = _axis(int(c.a["dim"]), x.ndim)
    parts = _split_at(c, x, [1] * x.shape[axis], axis)
    shape = x.shape[:axis] + x.shape[axis + 1:]
    return [_TV(op.reshape(p.expr, shape), shape, x.dtype) for p in parts]


@_register("slice", "slice_copy")
def _slice(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    axis = _axis(int(c.a["dim"]), x.ndim)
    n = x.shape[axis]
    start, end, step = c.a.get("start"), c.a.get("end"), int(c.a.get("step") or 1)
    start = 0 if start is None else int(start)
    end = n if end is None else int(end)
    start = max(0, min(n, start + n if start < 0 else start))
    end = max(0, min(n, end + n if end < 0 else end))
    if start == 0 and end == n and step == 1:
        return c.result(x.expr)
    return c.result(op.strided_slice(x.expr, begin=[start], end=[end], strides=[step], axes=[axis]))


@_register("select", "select_copy")
def _select(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    axis = _axis(int(c.a["dim"]), x.ndim)
    i = int(c.a["index"])
    i = i + x.shape[axis] if i < 0 else i
    shape, _ = c.out()
    y = op.strided_slice(x.expr, begin=[i], end=[i + 1], strides=[1], axes=[axis])
    return c.result(op.reshape(y, shape))


@_register("index_select")
def _index_select(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    return c.result(op.take(x.expr, c.ex(c.a["index"]), axis=_axis(int(c.a["dim"]), x.ndim),
                            mode="fast"))


@_register("gather")
def _gather(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    return c.result(op.gather(x.expr, _axis(int(c.a["dim"]), x.ndim), c.ex(c.a["index"])))


@_register("flip")
def _flip(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    y = x.expr
    for d in c.a["dims"]:
        y = op.reverse(y, axis=_axis(int(d), x.ndim))
    return c.result(y)


# ---------------------------------------------------------------------------
# reductions
# ---------------------------------------------------------------------------
def _reduce_axes(c: _Ctx, x: _TV) -> Optional[List[int]]:
    dims = c.a.get("dim")
    if dims is None or (isinstance(dims, (list, tuple)) and len(dims) == 0):
        return None
    if isinstance(dims, int):
        dims = [dims]
    return [_axis(int(d), x.ndim) for d in dims]


def _reducer(relay_fn):
    def conv(c: _Ctx) -> _TV:
        _, dtype = c.out()
        x = c.tv(c.a["self"], dtype)
        return c.result(relay_fn(x.expr, axis=_reduce_axes(c, x), keepdims=bool(c.a.get("keepdim", False))))
    return conv


_register("mean")(_reducer(op.mean))
_register("sum")(_reducer(op.sum))
_register("amax")(_reducer(op.max))
_register("amin")(_reducer(op.min))
_register("prod")(_reducer(op.prod))


@_register("max.dim", "min.dim")
def _max_dim(c: _Ctx) -> Tuple[_TV, _TV]:
    packet, _ = _packet(c.node.target)
    x = c.tv(c.a["self"])
    axis = [_axis(int(c.a["dim"]), x.ndim)]
    keep = bool(c.a.get("keepdim", False))
    vals = (op.max if packet == "max" else op.min)(x.expr, axis=axis, keepdims=keep)
    idx = (op.argmax if packet == "max" else op.argmin)(x.expr, axis=axis, keepdims=keep)
    s0, d0 = c.out(0)
    s1, _ = c.out(1)
    return (_TV(vals, s0, d0), _TV(op.cast(idx, "int64"), s1, "int64"))


@_register("max.default", "min.default")
def _max_all(c: _Ctx) -> _TV:
    packet, _ = _packet(c.node.target)
    return c.result((op.max if packet == "max" else op.min)(c.ex(c.a["self"])))


@_register("argmax", "argmin")
def _argmax(c: _Ctx) -> _TV:
    packet, _ = _packet(c.node.target)
    x = c.tv(c.a["self"])
    dim = c.a.get("dim")
    keep = bool(c.a.get("keepdim", False))
    fn = op.argmax if packet == "argmax" else op.argmin
    y = fn(x.expr, axis=None if dim is None else [_axis(int(dim), x.ndim)], keepdims=keep)
    return c.result(op.cast(y, "int64"))


@_register("cumsum")
def _cumsum(c: _Ctx) -> _TV:
    _, dtype = c.out()
    x = c.tv(c.a["self"], dtype)
    return c.result(op.cumsum(x.expr, axis=_axis(int(c.a["dim"]), x.ndim)))


@_register("var", "std")
def _var(c: _Ctx) -> _TV:
    packet, _ = _packet(c.node.target)
    x = c.tv(c.a["self"])
    corr = c.a.get("correction")
    unbiased = c.a.get("unbiased")
    if corr is None:
        corr = 1 if unbiased in (None, True) else 0
    if corr not in (0, 1):
        raise c.unsupported(f"correction={corr} is not supported")
    fn = op.variance if packet == "var" else op.std
    return c.result(fn(x.expr, axis=_reduce_axes(c, x), keepdims=bool(c.a.get("keepdim", False)),
                       unbiased=bool(corr)))


# ---------------------------------------------------------------------------
# attention and recurrent layers
# ---------------------------------------------------------------------------
@_register("scaled_dot_product_attention")
def _sdpa(c: _Ctx) -> _TV:
    a = c.a
    q, k, v = c.tv(a["query"]), c.tv(a["key"]), c.tv(a["value"])
    if a.get("dropout_p"):
        raise c.unsupported("dropout_p > 0 is not supported")
    if a.get("enable_gqa"):
        raise c.unsupported("enable_gqa is not supported")
    shape, dtype = c.out()
    batch, (lq, d), lk = q.shape[:-2], q.shape[-2:], k.shape[-2]
    nb = int(np.prod(batch)) if batch else 1
    scale = a.get("scale")
    scale = 1.0 / math.sqrt(d) if scale is None else float(scale)
    qe = op.reshape(q.expr, (nb, lq, d))
    ke = op.reshape(k.expr, (nb, lk, d))
    ve = op.reshape(v.expr, (nb, lk, v.shape[-1]))
    s = nn.batch_matmul(qe, ke, transpose_b=True) * E.Constant(np.array(scale, dtype))
    s = op.reshape(s, batch + (lq, lk))
    if a.get("is_causal"):
        mask = np.triu(np.full((lq, lk), -np.inf, dtype), 1)
        s = s + E.Constant(mask)
    m = a.get("attn_mask")
    if m is not None:
        mt = c.tv(m)
        if mt.dtype == "bool":
            neg = E.Constant(np.array(-np.inf, dtype))
            s = op.where(mt.expr, s, neg)
        else:
            s = s + mt.expr
    p = op.reshape(nn.softmax(s, axis=-1), (nb, lq, lk))
    return c.result(op.reshape(nn.batch_matmul(p, ve, transpose_b=False), shape))


def _lstm_direction(c: _Ctx, xs: E.Expr, seq: int, batch: int, in_size: int, hidden: int,
                    weights: List[Any], h0: E.Expr, c0: E.Expr, reverse: bool, dtype: str):
    """One direction of one LSTM layer; ``xs`` is [seq, batch, in]. Returns ([h_t], h_n, c_n)."""
    w_ih, w_hh = weights[0], weights[1]
    b_ih = weights[2] if len(weights) > 2 else None
    b_hh = weights[3] if len(weights) > 3 else None
    proj = nn.dense(op.reshape(xs, (seq * batch, in_size)), c.ex(w_ih), units=4 * hidden)
    if b_ih is not None:
        proj = nn.bias_add(proj, c.ex(b_ih), axis=-1)
    proj = op.reshape(proj, (seq, batch, 4 * hidden))
    h, cell = h0, c0
    outs: List[E.Expr] = [None] * seq  # type: ignore[list-item]
    whh = c.ex(w_hh)
    bhh = c.ex(b_hh) if b_hh is not None else None
    steps = range(seq - 1, -1, -1) if reverse else range(seq)
    for t in steps:
        g = op.reshape(op.strided_slice(proj, begin=[t], end=[t + 1], axes=[0]), (batch, 4 * hidden))
        rec = nn.dense(h, whh, units=4 * hidden)
        if bhh is not None:
            rec = nn.bias_add(rec, bhh, axis=-1)
        i, f, gg, o = op.split(g + rec, 4, axis=1)
        cell = op.sigmoid(f) * cell + op.sigmoid(i) * op.tanh(gg)
        h = op.sigmoid(o) * op.tanh(cell)
        outs[t] = h
    return outs, h, cell


@_register("lstm.input")
def _lstm(c: _Ctx) -> Tuple[_TV, _TV, _TV]:
    a = c.a
    x = c.tv(a["input"])
    hx = list(a["hx"])
    params = list(a["params"])
    has_biases, num_layers = bool(a["has_biases"]), int(a["num_layers"])
    if a.get("train") and float(a.get("dropout") or 0.0) > 0 and num_layers > 1:
        raise c.unsupported("LSTM dropout in training mode; call model.eval() before importing")
    bidir, batch_first = bool(a["bidirectional"]), bool(a["batch_first"])
    if x.ndim != 3:
        raise c.unsupported("only batched (3-D) LSTM inputs are supported")
    dirs = 2 if bidir else 1
    per = 4 if has_biases else 2
    if len(params) != num_layers * dirs * per:
        raise c.unsupported("LSTM with projections (proj_size > 0) is not supported")
    dtype = x.dtype
    xs = op.transpose(x.expr, (1, 0, 2)) if batch_first else x.expr
    seq, batch, in_size = (x.shape[1], x.shape[0], x.shape[2]) if batch_first else x.shape
    h0, c0 = c.tv(hx[0]), c.tv(hx[1])
    hidden = h0.shape[-1]

    def state(t: _TV, i: int) -> E.Expr:
        arr = _const_np(hx[0] if t is h0 else hx[1])
        if arr is not None:
            return E.Constant(np.ascontiguousarray(arr[i]))
        return op.reshape(op.strided_slice(t.expr, begin=[i], end=[i + 1], axes=[0]), (batch, hidden))

    hn, cn = [], []
    for layer in range(num_layers):
        outs_dir = []
        for d in range(dirs):
            k = layer * dirs + d
            w = params[k * per:(k + 1) * per]
            outs, h, cell = _lstm_direction(c, xs, seq, batch, in_size, hidden, w, state(h0, k),
                                            state(c0, k), d == 1, dtype)
            outs_dir.append(outs)
            hn.append(h)
            cn.append(cell)
        steps = [op.concatenate([o[t] for o in outs_dir], axis=1) if dirs == 2 else outs_dir[0][t]
                 for t in range(seq)]
        xs = op.stack(steps, axis=0)  # [seq, batch, dirs * hidden]
        in_size = dirs * hidden
    out = op.transpose(xs, (1, 0, 2)) if batch_first else xs
    s0, _ = c.out(0)
    s1, _ = c.out(1)
    return (_TV(out, s0, dtype), _TV(op.stack(hn, axis=0), s1, dtype), _TV(op.stack(cn, axis=0), s1, dtype))


# ---------------------------------------------------------------------------
# entry points
# ---------------------------------------------------------------------------
def from_exported_program(ep, source: Optional[str] = None) -> IRModule:
    """Converts a ``torch.export.ExportedProgram`` (see ``from_torch``)."""
    return _Importer(ep, source or "exported_program").run()


def from_torch(module, example_args: Sequence[Any], example_kwargs: Optional[Mapping[str, Any]] = None,
               decompose: bool = False) -> IRModule:
    """Imports a PyTorch ``nn.Module`` (or an ``ExportedProgram``) as an ``IRModule``.

    Args:
      module: an ``nn.Module``; it is exported in eval mode (its training
        flag is restored afterwards). An ``ExportedProgram`` is converted as is.
      example_args: the inputs of ``forward`` (a tuple of tensors); their
        shapes and dtypes become those of ``main``'s parameters.
      example_kwargs: keyword inputs of ``forward``.
      decompose: lower to core ATen (``run_decompositions()``) before
        converting; the default keeps the higher-level ops (``linear``,
        ``conv2d``, ``layer_norm``, ``lstm``, ...) that map to single Relay ops.

    Raises ``UnsupportedError`` (a ``CompileError``) naming the ATen op and FX
    node of anything that cannot be converted exactly.
    """
    import torch
    if isinstance(module, torch.export.ExportedProgram):
        ep = module
        name = "exported_program"
    else:
        if not isinstance(module, torch.nn.Module):
            raise TypeError(f"from_torch takes a torch.nn.Module or an ExportedProgram, got "
                            f"{type(module).__name__}")
        name = type(module).__name__
        was_training = module.training
        module.eval()
        try:
            with torch.no_grad():
                ep = torch.export.export(module, tuple(example_args), dict(example_kwargs or {}))
        finally:
            module.train(was_training)
    if decompose:
        ep = ep.run_decompositions()
    return from_exported_program(ep, name)
