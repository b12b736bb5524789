"""Types of a workload's weight variables, solved from the operator that uses them.

TVM 0.19's workloads create their weights without types (``relay.var("conv0_weight")``)
and let ``InferType`` solve them: the conv2d relation gives an unannotated weight the
shape ``channels × in_channels/groups × kernel_size`` (OIHW, permuted to ``kernel_layout``;
conv3d likewise in OIDHW), conv2d_transpose ``in_channels × channels/groups × kernel_size``
(IOHW, permuted), dense ``units × in_features``, bias_add and batch_norm ``(C,)`` with
``C`` the data's size on ``axis``, all of the data's dtype. relay-mlir's
``relay-infer-type`` does not solve a *function parameter* from its use yet, so
``create_workload`` runs :func:`solve_param_types` first: it walks the body in post
order and, at each call that takes an unannotated parameter, types that parameter from
the call's attributes and its data operand's type (computed by relay-mlir's own type
inference, a few new nodes at a time).

    >>> import relay_mlir as relay
    >>> x = relay.var("data", shape=(1, 3, 8, 8))
    >>> w = relay.var("conv_weight")
    >>> y = relay.nn.conv2d(x, w, channels=4, kernel_size=(3, 3))
    >>> solve_param_types(relay.Function([x, w], y))
    >>> w.type_annotation
    TensorType([4, 3, 3, 3], float32)
"""
from __future__ import annotations

from typing import Callable, Dict, List

from ..errors import CompileError
from ..expr import Call, Constant, Expr, Function, Tuple, TupleGetItem, Var
from ..module import IRModule
from ..transform import InferType
from ..ty import TensorType

__all__ = ["solve_param_types"]


def _channels(data: TensorType, layout: str, what: str) -> int:
    if "C" not in layout or len(layout) != len(data.shape):
        raise TypeError(f"{what}: layout {layout!r} does not fit data of shape {list(data.shape)}")
    return int(data.shape[layout.index("C")])


def _conv_weight(call: Call, data: TensorType) -> TensorType:
    """conv2d, conv3d and conv2d_transpose alike: I = the data's channels, O = ``channels``,
    (D,) H, W = ``kernel_size``, in ``kernel_layout``'s order."""
    a, op = call.attrs, call.op.name
    if not a.get("channels") or not a.get("kernel_size"):
        raise TypeError(f"{op}: an unannotated weight needs `channels` and `kernel_size`")
    if int(a.get("groups", 1)) != 1:
        raise TypeError(f"{op}: an unannotated weight needs groups == 1 (TVM 0.19: 'Weight shape "
                        f"must be specified when groups is greater than 1'); got groups={a['groups']}")
    spatial = "DHW"[-len(a["kernel_size"]):]
    dims = dict(zip(spatial, (int(k) for k in a["kernel_size"])))
    dims.update(O=int(a["channels"]), I=_channels(data, a["data_layout"], op))
    layout = a["kernel_layout"]
    if sorted(layout) != sorted(dims):
        raise TypeError(f"{op}: kernel_layout {layout!r} is not a permutation of OI{spatial}")
    return TensorType([dims[c] for c in layout], data.dtype)


def _dense_weight(call: Call, data: TensorType) -> TensorType:
    units = call.attrs.get("units")
    if not units:
        raise TypeError("nn.dense: an unannotated weight needs `units`")
    return TensorType([int(units), int(data.shape[-1])], data.dtype)


def _axis_vector(call: Call, data: TensorType) -> TensorType:
    """bias_add / batch_norm: a vector of the data's size on ``axis``."""
    axis = int(call.attrs.get("axis", 1))
    if not -len(data.shape) <= axis < len(data.shape):
        raise TypeError(f"{call.op.name}: axis {axis} is out of range for data of rank {len(data.shape)}")
    return TensorType([int(data.shape[axis])], data.dtype)


_RULES: Dict[str, Callable[[Call, TensorType], TensorType]] = {
    "nn.conv2d": _conv_weight,
    "nn.conv2d_transpose": _conv_weight,
    "nn.conv3d": _conv_weight,
    "nn.dense": _dense_weight,
    "nn.bias_add": _axis_vector,
    "nn.batch_norm": _axis_vector,
}


def _post_order_calls(body: Expr) -> List[Call]:
    """The calls of a dataflow body, arguments before users, left to right (no recursion)."""
    return [n for n in _post_order_nodes(body, stop={}) if isinstance(n, Call)]


def _children(node: Expr) -> List[Expr]:
    if isinstance(node, Call):
        return list(node.args)
    if isinstance(node, Tuple):
        return list(node.fields)
    if isinstance(node, TupleGetItem):
        return [node.tuple_value]
    return []


class _TypeOracle:
    """Types of dataflow expressions by relay-mlir's InferType; a node typed once is
    stood in for by a typed variable afterwards, so each query infers only new nodes."""

    def __init__(self) -> None:
        self._types: Dict[int, object] = {}
        self._keep: List[Expr] = []  # keeps the ids in _types alive

    def type_of(self, expr: Expr):
        if id(expr) in self._types:
            return self._types[id(expr)]
        copies: Dict[int, Expr] = {}
        for node in _post_order_nodes(expr, stop=self._types):
            copies[id(node)] = self._copy(node, copies)
        InferType()(IRModule.from_expr(copies[id(expr)]))
        for node in _post_order_nodes(expr, stop=self._types):
            self._types[id(node)] = copies[id(node)].checked_type
            self._keep.append(node)
        return self._types[id(expr)]

    def _copy(self, node: Expr, copies: Dict[int, Expr]) -> Expr:
        def arg(e: Expr) -> Expr:
            if id(e) in copies:
                return copies[id(e)]
            return Var("typed", self._types[id(e)])
        if isinstance(node, Call):
            return Call(node.op, [arg(a) for a in node.args], node.attrs)
        if isinstance(node, Tuple):
            return Tuple([arg(f) for f in node.fields])
        if isinstance(node, TupleGetItem):
            return TupleGetItem(arg(node.tuple_value), node.index)
        if isinstance(node, Var):
            if node.type_annotation is None:
                raise TypeError(f"parameter {node.name_hint!r} has no type and none can be solved "
                                "before its first use as data; annotate it (relay.var(name, shape=...))")
            return node
        if isinstance(node, Constant):
            return node
        raise TypeError(f"solving weight types handles dataflow graphs (calls, tuples, variables, "
                        f"constants), not {type(node).__name__}; annotate the parameters instead")


def _post_order_nodes(expr: Expr, stop: Dict[int, object]) -> List[Expr]:
    """The nodes under ``expr`` not yet in ``stop``, children first."""
    out: List[Expr] = []
    seen = set()
    stack = [(expr, False)]
    while stack:
        node, ready = stack.pop()
        if id(node) in seen or id(node) in stop:
            continue
        if ready:
            seen.add(id(node))
            out.append(node)
            continue
        stack.append((node, True))
        for child in reversed(_children(node)):
            stack.append((child, False))
    return out


def solve_param_types(fn: Function, strict: bool = True) -> None:
    """Annotates ``fn``'s unannotated parameters in place with the types TVM 0.19's
    InferType gives them (see the module docstring). A parameter no rule solves is a
    ``TypeError`` naming it and the operator that uses it; with ``strict=False`` solving
    stops there instead, leaving the rest to InferType (and its error)."""
    try:
        _solve(fn)
    except (TypeError, CompileError):
        if strict:
            raise


def _solve(fn: Function) -> None:
    untyped = {id(p): p for p in fn.params if p.type_annotation is None}
    if not untyped:
        return
    oracle = _TypeOracle()
    for call in _post_order_calls(fn.body):
        slots = [a for a in call.args[1:] if id(a) in untyped]
        if not slots:
            continue
        name = getattr(call.op, "name", type(call.op).__name__)
        rule = _RULES.get(name)
        if rule is None:
            raise TypeError(f"parameter {slots[0].name_hint!r} has no type and {name} does not imply "
                            f"one; annotate it (relay.var(name, shape=..., dtype=...))")
        data = oracle.type_of(call.args[0])
        if not isinstance(data, TensorType):
            raise TypeError(f"{name}: data of type {data} is not a tensor")
        for p in slots:
            p.type_annotation = rule(call, data)
            del untyped[id(p)]
    if untyped:
        names = ", ".join(repr(p.name_hint) for p in untyped.values())
        raise TypeError(f"parameters {names} have no type and no operator implies one; annotate them")
