"""The TorchScript nodes with their own rules (``prim::*`` and a few ``aten::`` builtins):
constants, module attributes (weights become parameters of ``main``), lists and tuples,
``if`` (a branch taken at import time, or a Relay ``If`` on a run-time boolean),
loops (unrolled while trip count and condition are known at import time, else a Relay
loop: a private global function calling itself), exceptions raised
for the given shapes, and conversions between tensors and Python numbers.
Each rule is ``rule(importer, node)`` and stores the node's outputs in the importer.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, List, Optional, Tuple

import numpy as np

from ... import expr as E
from ... import op
from ...analysis import free_vars
from ...ty import TupleType
from ..torch_ops._base import _TV

if TYPE_CHECKING:  # the importer imports these rules, which only name its type
    from ._importer import TorchScriptImporter

MAX_UNROLL = 10000  # loop iterations unrolled at import time, at most


def _constant(imp: TorchScriptImporter, node) -> None:
    out = node.outputsAt(0)
    try:
        v = out.toIValue()
    except RuntimeError:
        v = None  # a function or class constant: only used by nodes inlining removed
    imp.put(out, v, v)


def _get_attr(imp: TorchScriptImporter, node) -> None:
    import torch
    obj, _ = imp.get(node.inputsAt(0))
    attr = getattr(obj, node.s("name"))
    out = node.outputsAt(0)
    name = imp.weight_names.get(out.unique())
    if name is not None:
        # (the example is the module's own tensor: requires_grad, read by scripted fast-path checks)
        imp.put(out, imp.weight_var(name, imp.state[name]), attr)
    elif isinstance(attr, torch.Tensor):
        imp.put(out, attr.detach(), attr.detach())
    elif isinstance(attr, list) and attr and all(_state_key(imp, t) for t in attr):
        imp.put(out, [imp.weight_var(_state_key(imp, t), t) for t in attr], list(attr))
    else:
        imp.put(out, attr, attr)


def _state_key(imp: TorchScriptImporter, t: Any) -> Optional[str]:
    """The state-dict key of a module tensor (by storage and shape), else None."""
    import torch
    if not isinstance(t, torch.Tensor):
        return None
    key = imp.state_keys.get(t.data_ptr())
    return key if key is not None and tuple(imp.state_tensors[key].shape) == tuple(t.shape) else None


def _construct(kind):
    def run(imp: TorchScriptImporter, node) -> None:
        ins = [imp.get(v) for v in node.inputs()]
        values, examples = [p[0] for p in ins], [p[1] for p in ins]
        if kind is tuple:
            imp.put(node.outputsAt(0), tuple(values), tuple(examples))
        else:
            imp.put(node.outputsAt(0), values, examples)
    return run


def _unpack(imp: TorchScriptImporter, node) -> None:
    value, example = imp.get(node.inputsAt(0))
    if len(value) != node.outputsSize():
        raise imp.unsupported(node, f"unpacks {node.outputsSize()} values from {len(value)}")
    imp.put_outputs(node, list(zip(value, example)))
    imp.views.inherit(node)


def _if(imp: TorchScriptImporter, node) -> None:
    """An ``if`` on a value known at import time takes its branch; on a run-time boolean
    (``aten::Bool`` of a one-element tensor) both branches become a Relay ``If``."""
    cond, _ = imp.get(node.inputsAt(0))
    blocks = list(node.blocks())
    if not isinstance(cond, _TV):
        imp.put_outputs(node, imp.run_block(blocks[0] if bool(cond) else blocks[1], []))
        return
    then_outs, else_outs = imp.run_block(blocks[0], []), imp.run_block(blocks[1], [])
    fields: List[Tuple[E.Expr, E.Expr]] = []
    for i, ((t, t_ex), (f, f_ex)) in enumerate(zip(then_outs, else_outs)):
        if not isinstance(t, _TV) and not isinstance(f, _TV) and _same(t, f):
            continue
        tt, ft = imp.as_tv(t, None, node), imp.as_tv(f, None, node)
        if (tt.shape, tt.dtype) != (ft.shape, ft.dtype):
            raise imp.unsupported(node, f"output {i} of the branches differs in type: "
                                        f"{list(tt.shape)} {tt.dtype} vs {list(ft.shape)} {ft.dtype}")
        fields.append((tt.expr, ft.expr))
    branch = E.If(cond.expr, E.Tuple([f[0] for f in fields]), E.Tuple([f[1] for f in fields]))
    outs, k = [], 0
    for (t, t_ex), (f, _) in zip(then_outs, else_outs):
        if not isinstance(t, _TV) and not isinstance(f, _TV) and _same(t, f):
            outs.append((t, t_ex))
            continue
        tv = imp.as_tv(t, None, node)
        outs.append((_TV(E.TupleGetItem(branch, k), tv.shape, tv.dtype), t_ex))
        k += 1
    imp.put_outputs(node, outs)


def _same(a: Any, b: Any) -> bool:
    """Two import-time values are the same (an output both branches of an ``if`` agree on)."""
    import torch
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        return isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) and a is b
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - values without a plain equality
        return a is b


def _loop(imp: TorchScriptImporter, node) -> None:
    """``prim::Loop(max_trip_count, initial_condition, *carried)``: the body runs while the
    condition holds and fewer than max_trip_count iterations ran. Unrolled while the trip
    count and condition are known at import time; from the first that is not, a Relay loop
    (``_run_time_loop``), as TVM 0.19 converts such loops."""
    ins = [imp.get(v) for v in node.inputs()]
    trip, cond = ins[0][0], ins[1][0]
    carried = ins[2:]
    body = list(node.blocks())[0]
    i = 0
    while isinstance(trip, _TV) or isinstance(cond, _TV) or (bool(cond) and i < int(trip)):
        if isinstance(trip, _TV) or isinstance(cond, _TV):
            imp.put_outputs(node, _run_time_loop(imp, node, i, trip, cond, carried))
            return
        if i == MAX_UNROLL:
            raise imp.unsupported(node, f"the loop runs more than {MAX_UNROLL} iterations at import time "
                                        "(it is unrolled)")
        outs = imp.run_block(body, [(i, i)] + carried)
        cond = outs[0][0]
        carried = outs[1:]
        i += 1
    imp.put_outputs(node, carried)


def _run_time_loop(imp: TorchScriptImporter, node, start: int, trip: Any, cond: Any,
                   carried: List[Tuple[Any, Any]]) -> List[Tuple[Any, Any]]:
    """The rest of a loop from iteration ``start`` as a private global function
    ``loop(i, cond, *carried, *free) = if (i < trip && cond) loop(i + 1, body...) else carried``
    (the body converted once, on variables; the weights and inputs it reads passed along).
    The carried values must be tensors of a fixed type; the body's results are checked."""
    import torch
    state = []
    for j, (v, ex) in enumerate(carried):
        if not isinstance(v, (_TV, torch.Tensor, bool, int)):
            raise imp.unsupported(node, f"a loop run at run time carries value {j}, a {type(v).__name__}; "
                                        "it can carry tensors, ints and bools")
        state.append((imp.as_tv(v, None, node), ex))  # an int: a 0-d int64 tensor
    i = E.var("i", shape=(), dtype="int64")
    c = E.var("cond", shape=(), dtype="bool")
    cvars = [E.var(f"carried{j}", shape=tv.shape, dtype=tv.dtype) for j, (tv, _) in enumerate(state)]
    outs = imp.run_block(list(node.blocks())[0], [(_TV(i, (), "int64"), start)]
                         + [(_TV(v, tv.shape, tv.dtype), ex) for v, (tv, ex) in zip(cvars, state)])
    nxt = []
    for j, ((o, _), (tv, _)) in enumerate(zip(outs[1:], state)):
        ot = imp.as_tv(o, None, node)
        if (ot.shape, ot.dtype) != (tv.shape, tv.dtype):
            raise imp.unsupported(node, f"loop-carried value {j} changes type in the body: "
                                        f"{list(tv.shape)} {tv.dtype} -> {list(ot.shape)} {ot.dtype}")
        nxt.append(ot.expr)
    more = op.logical_and(op.less(i, _scalar(imp, node, trip, "int64")), c)
    step = [i + E.Constant(np.array(1, "int64")), _scalar(imp, node, outs[0][0], "bool")] + nxt
    own = [i, c] + cvars
    extra = [v for v in free_vars(E.Tuple(step + [more])) if all(v is not o for o in own)]
    gv = E.GlobalVar(f"loop{len(imp.loops)}")
    ret = TupleType([v.type_annotation for v in cvars])
    imp.loops.append((gv, E.Function(own + extra, E.If(more, E.Call(gv, step + extra), E.Tuple(cvars)),
                                     ret, attrs={"private": 1})))
    res = E.Call(gv, [E.Constant(np.array(start, "int64")), _scalar(imp, node, cond, "bool")]
                 + [tv.expr for tv, _ in state] + extra)
    return [(_TV(E.TupleGetItem(res, j), tv.shape, tv.dtype), ex) for j, (tv, ex) in enumerate(state)]


def _scalar(imp: TorchScriptImporter, node, v: Any, dtype: str) -> E.Expr:
    """A loop's trip count or condition (a number or a one-element run-time tensor) as a
    0-d Relay expression of ``dtype``."""
    if not isinstance(v, _TV):
        return E.Constant(np.array(min(int(v), np.iinfo(np.int64).max) if dtype == "int64" else bool(v), dtype))
    if int(np.prod(v.shape)) != 1:
        raise imp.unsupported(node, f"a loop's trip count or condition has shape {list(v.shape)}")
    e = op.reshape(v.expr, ()) if v.shape else v.expr
    return e if v.dtype == dtype else op.cast(e, dtype)


def _bool_op(imp: TorchScriptImporter, node) -> None:
    """``aten::__and__``/``__or__``/``__not__`` on Python booleans (a loop's ``break`` flags):
    evaluated when known at import time, else Relay's ``logical_and``/``or``/``not``; on
    tensors, the bitwise operators' converters."""
    ins = [imp.get(v) for v in node.inputs()]
    flags = [v for v, _ in ins]
    if not any(isinstance(v, _TV) for v in flags) or not all(
            isinstance(v, (bool, _TV)) and (not isinstance(v, _TV) or v.shape == ()) for v in flags):
        imp.run_node_default(node)
        return
    exprs = [_scalar(imp, node, v, "bool") for v in flags]
    kind = node.kind()
    out = op.logical_not(exprs[0]) if kind == "aten::__not__" else \
        (op.logical_and if kind == "aten::__and__" else op.logical_or)(exprs[0], exprs[1])
    examples = [ex for _, ex in ins]
    example = (not examples[0]) if kind == "aten::__not__" else \
        (all(examples) if kind == "aten::__and__" else any(examples))
    imp.put(node.outputsAt(0), _TV(out, (), "bool"), bool(example))


_NUMBER_OPS = {"aten::add": op.add, "aten::sub": op.subtract, "aten::mul": op.multiply,
               "aten::lt": op.less, "aten::le": op.less_equal, "aten::gt": op.greater,
               "aten::ge": op.greater_equal, "aten::eq": op.equal, "aten::ne": op.not_equal}


def _number_op(imp: TorchScriptImporter, node) -> None:
    """Arithmetic and comparisons of Python ints (``int + int``, ``int < int``) where one is
    known only at run time (a run-time loop's counter): the Relay op on 0-d int64 tensors.
    On tensors, or on numbers known at import time, the usual conversion."""
    ins = [imp.get(v) for v in node.inputs()]
    kind_out = node.outputsAt(0).type().kind()
    if kind_out not in ("IntType", "BoolType") or len(ins) != 2 or not any(isinstance(v, _TV) for v, _ in ins) \
            or not all(isinstance(v, int) or (isinstance(v, _TV) and v.shape == ()) for v, _ in ins):
        imp.run_node_default(node)
        return
    a, b = (imp.as_tv(v, "int64", node).expr for v, _ in ins)
    dtype = "int64" if kind_out == "IntType" else "bool"
    example = imp.evaluate(node, [ex for _, ex in ins])[0]
    imp.put(node.outputsAt(0), _TV(_NUMBER_OPS[node.kind()](a, b), (), dtype), example)


def _raise(imp: TorchScriptImporter, node) -> None:
    msg, _ = imp.get(node.inputsAt(0))
    raise imp.unsupported(node, f"the model raises an exception for these inputs: {msg}")


def _num_to_tensor(imp: TorchScriptImporter, node) -> None:
    import torch
    v, _ = imp.get(node.inputsAt(0))
    if isinstance(v, _TV):
        raise imp.unsupported(node, "a number known only at run time")
    t = torch.tensor(v)
    imp.put(node.outputsAt(0), t, t)


def _to_number(imp: TorchScriptImporter, node) -> None:
    """``aten::Int``/``Float``/``Bool``/``item``: evaluated when the tensor is known at import
    time; ``aten::Bool`` of a one-element run-time tensor is a run-time boolean (for ``if``)."""
    v, ex = imp.get(node.inputsAt(0))
    if isinstance(v, _TV):
        if node.kind() == "aten::Bool" and int(np.prod(v.shape)) == 1:
            flag = op.cast(op.reshape(v.expr, ()), "bool")
            imp.put(node.outputsAt(0), _TV(flag, (), "bool"), bool(ex.reshape(()).item()))
            return
        raise imp.unsupported(node, "converts a tensor known only at run time to a Python number "
                                    "(data-dependent shapes are not supported)")
    out = imp.evaluate(node, [v])[0]
    imp.put(node.outputsAt(0), out, out)


def container(imp: TorchScriptImporter, node, fn) -> None:
    """A builtin on lists/tuples (indexing, append, slicing, ...: ``fn``) runs on the values
    and on the examples; an index must be known at import time."""
    import torch
    ins = [imp.get(v) for v in node.inputs()]
    try:
        args = torch._C.parse_schema(node.schema()).arguments
    except RuntimeError:
        args = []
    for a, (value, _) in zip(args, ins):
        if isinstance(value, _TV) and str(a.type) in ("int", "Optional[int]", "SymInt"):
            raise imp.unsupported(node, "an index known only at run time")
    out = fn(*[p[0] for p in ins])
    ex = fn(*[p[1] for p in ins]) if ins and ins[0][1] is not ins[0][0] else out
    if node.outputsSize():
        imp.put(node.outputsAt(0), out, ex)
        imp.views.inherit(node)


def _grad_enabled(imp: TorchScriptImporter, node) -> None:
    imp.put(node.outputsAt(0), imp.grad_enabled, imp.grad_enabled)


RULES = {
    "prim::Constant": _constant,
    "prim::GetAttr": _get_attr,
    "prim::ListConstruct": _construct(list),
    "prim::TupleConstruct": _construct(tuple),
    "prim::ListUnpack": _unpack,
    "prim::TupleUnpack": _unpack,
    "prim::If": _if,
    "prim::Loop": _loop,
    "aten::__and__": _bool_op,
    "aten::__or__": _bool_op,
    "aten::__not__": _bool_op,
    **{kind: _number_op for kind in _NUMBER_OPS},
    "prim::RaiseException": _raise,
    "prim::NumToTensor": _num_to_tensor,
    "aten::Int": _to_number,
    "aten::Float": _to_number,
    "aten::Bool": _to_number,
    "aten::ScalarImplicit": _to_number,
    "aten::item": _to_number,
    "aten::is_grad_enabled": _grad_enabled,
}
