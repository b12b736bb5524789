"""The TorchScript nodes with their own rules (``prim::*`` and a few ``aten::`` builtins):
constants, module attributes (weights become parameters of ``main``), lists and tuples,
``if`` (a branch taken at import time, or a Relay ``If`` on a run-time boolean),
loops (unrolled: trip count and condition known at import time), exceptions raised
for the given shapes, and conversions between tensors and Python numbers.
Each rule is ``rule(importer, node)`` and stores the node's outputs in the importer.
"""
from __future__ import annotations

from typing import Any, List, Optional, Tuple

import numpy as np

from ... import expr as E
from ... import op
from ..torch_ops._base import _TV
from . import _eval
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
    condition holds and fewer than max_trip_count iterations ran, unrolled."""
    ins = [imp.get(v) for v in node.inputs()]
    trip, cond = ins[0][0], ins[1][0]
    if isinstance(trip, _TV) or isinstance(cond, _TV):
        raise imp.unsupported(node, "a loop whose trip count or condition is known only at run time "
                                    "is not supported")
    carried = ins[2:]
    body = list(node.blocks())[0]
    i = 0
    while bool(cond) and i < int(trip):
        if i == MAX_UNROLL:
            raise imp.unsupported(node, f"the loop runs more than {MAX_UNROLL} iterations at import time "
                                        "(it is unrolled)")
        outs = imp.run_block(body, [(i, i)] + carried)
        cond = outs[0][0]
        if isinstance(cond, _TV):
            raise imp.unsupported(node, "a loop condition known only at run time is not supported")
        carried = outs[1:]
        i += 1
    imp.put_outputs(node, carried)


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
    "prim::RaiseException": _raise,
    "prim::NumToTensor": _num_to_tensor,
    "aten::Int": _to_number,
    "aten::Float": _to_number,
    "aten::Bool": _to_number,
    "aten::ScalarImplicit": _to_number,
    "aten::item": _to_number,
    "aten::is_grad_enabled": _grad_enabled,
}
