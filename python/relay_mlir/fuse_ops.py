"""Relay's operator fusion as TVM 0.19 groups operators (``FuseOps``) and its inverse
(``DefuseOps``), on the expressions users inspect.

Each group of fused operators becomes a function with the attribute ``Primitive=1``, called in
place of the group: ``%1 = fn (%p0, %p1, Primitive=1) { nn.relu(nn.conv2d(%p0, %p1)) };
%1(%x, %w)``. relay-mlir's lowering does not need the grouping (IREE fuses on its own);
a fused module compiles as it is, its primitive functions called as closures.

The grouping follows TVM 0.19's rules, which this module implements on its own graph: the
operators' patterns (``OP_PATTERNS``: TVM's ``TOpPattern`` of each operator relay-mlir has,
recorded from TVM 0.19's registry), the post-dominator tree of the dataflow graph (an edge of
a broadcast operator whose operand has the result's shape counts as elementwise), and three
passes over the nodes, operands first:

1. an out-elementwise-fusable operator (convolution, dense, pool, softmax, ...) takes the
   elementwise/broadcast operators up to its post-dominator when the edge to it is elementwise;
   an elementwise/broadcast node joins its post-dominator when that is injective or a
   reduction and every operator between is at most injective (the post-dominator: at most
   broadcast, injective, a reduction or out-elementwise-fusable);
2. injective nodes and tuples join a post-dominator reached through injective operators only;
3. injective nodes join a tuple that was fused into injective operators after it.

Nothing joins a tuple before phase 3, and nothing joins a reduction's, opaque operator's or
the function result's consumers. At opt level 0 every operator is its own group. Groups
without operators (a returned tuple) stay as they are; groups of reshapes only get
``relay.reshape_only=1`` as in TVM. Constants an operator of a group reads are inside its
function (TVM makes non-scalar ones parameters: a ``dyn.*`` operator's constant shape is
then a parameter, and the result type loses its static shape).

    >>> import relay_mlir as relay
    >>> from relay_mlir.fuse_ops import fuse_ops, primitive_groups
    >>> x, w = relay.var("x", shape=(1, 3, 8, 8)), relay.var("w", shape=(4, 3, 3, 3))
    >>> fn = relay.Function([x, w], relay.exp(relay.sum(relay.nn.relu(relay.nn.conv2d(x, w)))))
    >>> primitive_groups(fuse_ops(fn, opt_level=2))
    [['exp'], ['sum'], ['nn.conv2d', 'nn.relu']]
"""
from __future__ import annotations

from typing import Dict, List, Optional

from .expr import Call, Constant, Expr, Function, Op, Tuple, TupleGetItem, Var
from .expr_functor import ExprMutator, ExprVisitor, Substitute
from .expr_parts import parts, rebuild

__all__ = ["fuse_ops", "defuse_ops", "primitive_groups", "OP_PATTERNS"]

# TVM's OpPatternKind
ELEMWISE, BROADCAST, INJECTIVE, COMM_REDUCE, OUT_EWISE_FUSABLE, TUPLE, OPAQUE = 0, 1, 2, 3, 4, 7, 8

_BY_PATTERN = {
    ELEMWISE: """abs acos acosh asin asinh atan atanh bitwise_not cast cast_like ceil clip copy cos cosh dyn.full
        dyn.ones dyn.zeros erf exp fast_erf fast_exp fast_tanh fixed_point_multiply floor full
        full_like isfinite isinf isnan log log10 log2 logical_not negative nn.leaky_relu nn.relu
        ones ones_like qnn.dequantize qnn.quantize qnn.requantize qnn.simulated_dequantize
        qnn.simulated_quantize reinterpret round rsqrt sigmoid sign sin sinh sqrt tan tanh trilu
        trunc zeros zeros_like""",    BROADCAST: """add bitwise_and bitwise_or bitwise_xor broadcast_to broadcast_to_like divide
        dyn.broadcast_to equal expand_dims fixed_point_multiply_per_axis floor_divide floor_mod
        greater greater_equal left_shift
        less less_equal logical_and logical_or logical_xor maximum minimum mod multiply
        nn.bias_add nn.prelu not_equal power repeat right_shift subtract tile trunc_divide
        trunc_mod where""",
    INJECTIVE: """concatenate contrib_reverse_reshape dyn.expand_dims dyn.nn.pad dyn.reshape
        dyn.squeeze dyn.strided_slice dyn.tile einsum gather gather_nd image.resize2d
        invert_permutation layout_transform matrix_set_diag meshgrid ndarray_size nn.batch_flatten
        nn.batch_to_space_nd nn.depth_to_space nn.dilate nn.mirror_pad nn.pad nn.space_to_batch_nd
        nn.space_to_depth nn.upsampling nn.upsampling3d reshape reshape_like reverse
        reverse_sequence sequence_mask split squeeze stack strided_set strided_slice take transpose
        unravel_index""",
    COMM_REDUCE: """all any argmax argmin collapse_sum_like collapse_sum_to max mean min prod sum
        variance""",
    OUT_EWISE_FUSABLE: """dyn.one_hot nn.adaptive_avg_pool1d nn.adaptive_avg_pool2d nn.adaptive_avg_pool3d
        nn.adaptive_max_pool1d nn.adaptive_max_pool2d nn.adaptive_max_pool3d nn.avg_pool1d
        nn.avg_pool2d nn.avg_pool3d nn.batch_matmul nn.batch_norm nn.contrib_conv2d_NCHWc
        nn.contrib_depthwise_conv2d_NCHWc nn.conv1d nn.conv1d_transpose nn.conv2d
        nn.conv2d_transpose nn.conv3d nn.conv3d_transpose nn.dense nn.global_avg_pool2d
        nn.global_max_pool2d nn.log_softmax nn.matmul nn.max_pool1d nn.max_pool2d nn.max_pool3d
        nn.nll_loss nn.softmax one_hot""",
}
#: TVM 0.19's TOpPattern of the operators relay-mlir has (recorded from its registry); the
#: others (arange, sort, topk, cumsum, shape_of, nn.dropout, nn.layer_norm, searchsorted,
#: sliding_window, sparse_to_dense, nn.cross_entropy, ...) are opaque.
OP_PATTERNS: Dict[str, int] = {n: k for k, names in _BY_PATTERN.items() for n in names.split()}
_RESHAPES = {"reshape", "squeeze", "expand_dims", "nn.batch_flatten", "reverse_reshape",
             "contrib_reverse_reshape"}
_SIMPLE_SCALARS = {"int32", "int64", "float32", "float64", "bool"}


class _Node:
    def __init__(self, expr: Expr, index: int, pattern: int) -> None:
        self.expr, self.index, self.pattern = expr, index, pattern
        self.outputs: List[tuple] = []       # (consumer node, edge pattern)
        self.extern = False                   # used outside the dataflow region
        # post-dominator tree
        self.dom: Optional["_Node"] = None
        self.depth = 0
        self.dom_pattern = ELEMWISE
        # union-find group
        self.group: "_Node" = self
        self.group_pattern = pattern
        self.anchor = pattern == OUT_EWISE_FUSABLE
        self.num_nodes = 1                    # as a group: its nodes when it was last a root

    def root(self) -> "_Node":
        g = self
        while g.group is not g:
            g = g.group
        return g


def _shape(e: Expr):
    t = getattr(e, "_checked_type", None) or getattr(e, "checked_type", None)
    return tuple(t.shape) if t is not None and hasattr(t, "shape") else None


def _is_dataflow(e: Expr) -> bool:
    return isinstance(e, (Call, Tuple, TupleGetItem)) and not (
        isinstance(e, Call) and not isinstance(e.op, Op))


def _node_pattern(e: Expr) -> int:
    if isinstance(e, Call) and isinstance(e.op, Op):
        return OP_PATTERNS.get(e.op.name, OPAQUE)
    if isinstance(e, Tuple):
        return TUPLE
    if isinstance(e, TupleGetItem):
        return INJECTIVE
    if isinstance(e, Constant) and e.data.ndim == 0 and str(e.data.dtype) in _SIMPLE_SCALARS:
        return ELEMWISE
    return OPAQUE


class _Graph:
    """The dataflow graph of one region (operators, tuples, their operands as leaves), in
    post-DFS order, with its post-dominator tree."""

    def __init__(self, body: Expr) -> None:
        self.nodes: Dict[Expr, _Node] = {}
        self.order: List[_Node] = []
        stack = [(body, False)]
        while stack:                           # iterative post-order
            e, done = stack.pop()
            if e in self.nodes:
                continue
            kids = self._operands(e)
            if done or not kids:
                self.nodes[e] = n = _Node(e, len(self.order), _node_pattern(e))
                self.order.append(n)
                continue
            stack.append((e, True))
            stack.extend((k, False) for k in reversed(kids) if k not in self.nodes)
        for n in self.order:
            self._link(n)
        self.nodes[body].extern = True
        self._post_dominators()

    @staticmethod
    def _operands(e: Expr) -> List[Expr]:
        """Operands, and the parts of control flow and closures (behind opaque edges); not
        the body of a primitive function already there."""
        if isinstance(e, Function) and e.attrs.get("Primitive"):
            return []
        return parts(e)

    def _link(self, n: _Node) -> None:
        e = n.expr
        for arg in self._operands(e):
            edge = n.pattern
            if isinstance(e, (Tuple, TupleGetItem)):
                edge = INJECTIVE
            elif edge == BROADCAST and _shape(arg) is not None and _shape(arg) == _shape(e):
                edge = ELEMWISE
            self.nodes[arg].outputs.append((n, edge))

    def _post_dominators(self) -> None:
        for n in reversed(self.order):          # consumers first
            if n.extern or not n.outputs:
                continue
            parent, pattern = None, ELEMWISE
            for out, edge in n.outputs:
                pattern = max(pattern, edge)
                if parent is None:
                    parent = out
                else:
                    parent, pattern = self._lca(parent, out, pattern)
                    if parent is None:
                        break
            if parent is not None:
                n.dom, n.depth, n.dom_pattern = parent, parent.depth + 1, pattern

    @staticmethod
    def _lca(a: _Node, b: _Node, p: int) -> tuple:
        """The nearest common post-dominator of ``a`` and ``b`` and the patterns combined
        climbing to it."""
        while a is not b:
            if a is None or b is None:
                return None, p
            if a.depth < b.depth:
                p, b = max(p, b.dom_pattern), b.dom
            elif a.depth > b.depth:
                p, a = max(p, a.dom_pattern), a.dom
            else:
                p, a, b = max(p, a.dom_pattern, b.dom_pattern), a.dom, b.dom
        return a, p


class _Partitioner:
    def __init__(self, graph: _Graph, max_depth: int = 256) -> None:
        self.g = graph
        self.max_depth = max_depth

    def _count_with(self, src: _Node, sink: _Node) -> int:
        """The nodes ``sink``'s group would have with ``src`` and the nodes up to ``sink``
        (each node's own group count, as TVM counts them)."""
        total, seen, stack = sink.root().num_nodes, set(), [src]
        while stack:
            n = stack.pop()
            if n is sink or n.index in seen:
                continue
            seen.add(n.index)
            total += n.num_nodes
            stack.extend(out for out, _ in n.outputs)
        return total

    def _check_path(self, src: _Node, sink: _Node, fcond) -> bool:
        seen, stack = set(), [out for out, _ in src.outputs]
        while stack:
            n = stack.pop()
            if n.index in seen:
                continue
            seen.add(n.index)
            if not fcond(n.root().group_pattern, n is sink):
                return False
            if n is not sink:
                stack.extend(out for out, _ in n.outputs)
        return True

    def _commit(self, src: _Node, sink: _Node) -> None:
        target, seen, stack = sink.root(), set(), [src]
        while stack:
            n = stack.pop()
            if n is sink or n.index in seen:
                continue
            seen.add(n.index)
            child = n.root()
            if child is not target:
                child.group = target
                target.num_nodes += child.num_nodes
                if child.anchor:
                    target.anchor = True
                    target.group_pattern = max(child.group_pattern, target.group_pattern)
            stack.extend(out for out, _ in n.outputs)

    def run(self) -> None:
        for phase in range(3):
            for n in self.g.order:
                self._try(n, phase)

    def _try(self, n: _Node, phase: int) -> None:
        grp, dom = n.root(), n.dom
        if grp.group_pattern == OPAQUE or dom is None or self._count_with(n, dom) > self.max_depth:
            return
        if phase == 2:
            droot = dom.root()
            if grp.group_pattern > INJECTIVE or droot.group_pattern == TUPLE:
                return
            if dom.group_pattern == TUPLE and droot.group_pattern <= INJECTIVE and \
                    self._check_path(n, dom, lambda k, sink: k <= INJECTIVE):
                self._commit(n, dom)
            return
        if grp is dom.root() or dom.group_pattern == TUPLE:
            return
        if grp.group_pattern == OUT_EWISE_FUSABLE:
            if phase == 0 and n.dom_pattern == ELEMWISE and \
                    self._check_path(n, dom, lambda k, sink: k <= BROADCAST):
                self._commit(n, dom)
        elif grp.group_pattern <= BROADCAST:
            if n.dom_pattern <= INJECTIVE or n.dom_pattern == COMM_REDUCE:
                def cond(k, sink):
                    return k <= INJECTIVE if not sink else k in (
                        ELEMWISE, BROADCAST, INJECTIVE, COMM_REDUCE, OUT_EWISE_FUSABLE)
                if self._check_path(n, dom, cond):
                    self._commit(n, dom)
        elif grp.group_pattern in (INJECTIVE, TUPLE):
            if phase == 1 and self._check_path(n, dom, lambda k, sink: k <= INJECTIVE):
                self._commit(n, dom)


class _Fuser:
    """Rebuilds one function body, operands first, each group of operators as a called
    primitive function (closures' bodies, branches and let values are in the same graph,
    behind opaque edges, as in TVM)."""

    def __init__(self, body: Expr, opt_level: int, max_depth: int) -> None:
        self.graph = _Graph(body)
        if opt_level > 0:
            _Partitioner(self.graph, max_depth).run()
        self.with_ops = {n.root() for n in self.graph.order
                         if isinstance(n.expr, Call) and isinstance(n.expr.op, Op)}
        self.new: Dict[Expr, Expr] = {}

    def run(self, body: Expr) -> Expr:
        for n in self.graph.order:            # operands before their users
            grp = n.root()
            if grp in self.with_ops and _is_dataflow(n.expr):
                if grp is n:
                    self.new[n.expr] = self._group_call(grp)
                continue                       # (members are used inside their group only)
            self.new[n.expr] = self._rebuild_any(n.expr)
        return self.new[body]

    def _rebuild_any(self, e: Expr) -> Expr:
        if isinstance(e, Function) and e.attrs.get("Primitive"):
            return e
        return rebuild(e, [self.new[p] for p in parts(e)])

    def _group_call(self, grp: _Node) -> Expr:
        params: Dict[Expr, Var] = {}
        args: List[Expr] = []
        body_memo: Dict[Expr, Expr] = {}

        def inside(e: Expr) -> Expr:
            if e in body_memo:
                return body_memo[e]
            n = self.graph.nodes.get(e)
            if isinstance(e, Constant):  # inside the function (TVM: a parameter unless scalar)
                out = e
            elif n is not None and n.root() is grp and _is_dataflow(e):
                out = rebuild(e, [inside(p) for p in parts(e)])
            else:
                if e not in params:
                    params[e] = Var(f"p{len(params)}", getattr(e, "_checked_type", None))
                    args.append(self.new[e])
                out = params[e]
            body_memo[e] = out
            return out

        body = inside(grp.expr)
        ops = [n.expr.op.name for n in self.graph.order
               if n.root() is grp and isinstance(n.expr, Call)]
        attrs = {"Primitive": 1}
        if ops and all(o in _RESHAPES for o in ops):
            attrs["relay.reshape_only"] = 1
        return Call(Function(list(params.values()), body, attrs=attrs), args)


def fuse_ops(fn: Function, opt_level: int = 2, max_depth: int = 256) -> Function:
    """``fn`` with its operators grouped into ``Primitive=1`` functions as TVM 0.19's FuseOps
    groups them at ``opt_level`` (0: each operator alone), no fusion making a group of more
    than ``max_depth`` nodes (TVM's ``relay.FuseOps.max_depth``). ``fn`` should be typed
    (shapes decide which broadcast edges are elementwise)."""
    if not isinstance(fn, Function):
        raise TypeError(f"fuse_ops: a Function, got {type(fn).__name__}")
    if fn.attrs.get("Primitive"):
        return fn
    return Function(fn.params, _Fuser(fn.body, int(opt_level), max_depth).run(fn.body),
                    fn.ret_type, fn.type_params, fn.attrs)


class _Defuser(ExprMutator):
    def visit_call(self, call: Call) -> Expr:
        op = call.op
        if isinstance(op, Function) and op.attrs.get("Primitive"):
            args = [self.visit(a) for a in call.args]
            return Substitute(dict(zip(op.params, args))).visit(op.body)
        return super().visit_call(call)


def defuse_ops(fn: Function) -> Function:
    """``fn`` with every call of a ``Primitive=1`` function replaced by its body (TVM 0.19's
    DefuseOps)."""
    if not isinstance(fn, Function):
        raise TypeError(f"defuse_ops: a Function, got {type(fn).__name__}")
    return Function(fn.params, _Defuser().visit(fn.body), fn.ret_type, fn.type_params, fn.attrs)


def primitive_groups(e: Expr) -> List[List[str]]:
    """The operators of each ``Primitive=1`` function in ``e`` (operands first), in the order
    the functions are reached, outputs first."""
    groups: List[List[str]] = []

    class V(ExprVisitor):
        def visit_function(self, f):
            if f.attrs.get("Primitive"):
                ops: List[str] = []

                class O(ExprVisitor):
                    def visit_call(self, c):
                        super().visit_call(c)
                        if isinstance(c.op, Op):
                            ops.append(c.op.name)
                O().visit(f.body)
                groups.append(ops)
            super().visit_function(f)

    V().visit(e.body if isinstance(e, Function) else e)
    return groups

