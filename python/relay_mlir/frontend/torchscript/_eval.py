"""Evaluating TorchScript nodes on Python values at import time.

A node whose inputs are all known at import time (constants, weights' example
values are *not* among them: they are parameters) runs here, as the TorchScript
interpreter would run it: typed operators through their ``torch.ops`` overload
(``aten::eq.int``, ``aten::size.int``), the generic list/None/str builtins
(``aten::len``, ``aten::__getitem__``, ``aten::append``, ``aten::format``,
``aten::__is__``...) in Python, since ``torch.ops`` cannot take Python lists for
``List[t]``.

Metadata operators (``aten::size``, ``aten::dim``, ``prim::dtype``,
``prim::device``, ...) also run on tensors known only at run time: their results
depend only on the shape, dtype and device, which the importer knows (its example
tensors have them).
"""
from __future__ import annotations

import re
from typing import Any, Callable, Dict, List, Optional, Sequence

# operators whose result depends only on the shape/dtype/device of their tensor inputs
METADATA_OPS = frozenset({
    "aten::size", "aten::dim", "aten::len", "aten::numel", "aten::is_floating_point",
    "aten::is_complex", "aten::is_contiguous", "prim::dtype", "prim::device", "prim::layout",
    "prim::is_nested", "prim::is_cuda", "prim::is_sparse", "prim::is_quantized", "prim::is_mkldnn",
    "prim::requires_grad", "prim::type", "aten::__is__", "aten::__isnot__",
    "aten::get_device", "prim::is_meta", "prim::is_xpu", "prim::is_mps", "aten::sym_size",
})


def _format(fmt: str, *args: Any) -> str:
    parts = re.split(r"\{\}", fmt)
    out = parts[0]
    for i, p in enumerate(parts[1:]):
        out += (str(args[i]) if i < len(args) else "{}") + p
    return out


def _append(lst: List[Any], v: Any) -> List[Any]:
    lst.append(v)
    return lst


def _dict(*kv: Any) -> Dict[Any, Any]:
    return {kv[i]: kv[i + 1] for i in range(0, len(kv), 2)}


# builtins on generic values (lists, tuples, None, str, dicts)
PY_OPS: Dict[str, Callable[..., Any]] = {
    "aten::len": len,
    "aten::__getitem__": lambda c, i: c[i],
    "prim::TupleIndex": lambda c, i: c[i],
    "aten::append": _append,
    "aten::format": _format,
    "aten::__is__": lambda a, b: a is b or (a is None and b is None),
    "aten::__isnot__": lambda a, b: not (a is b or (a is None and b is None)),
    "aten::__not__": lambda a: not a,
    "aten::__contains__": lambda c, k: k in c,
    "aten::list": list,
    "aten::str": str,
    "prim::unchecked_cast": lambda a: a,
    "prim::DictConstruct": _dict,
    "prim::Uninitialized": lambda: None,
    "aten::warn": lambda *a: None,
    "aten::keys": lambda d: list(d.keys()),
    "aten::values": lambda d: list(d.values()),
}


def _set_item(lst: List[Any], i: int, v: Any) -> List[Any]:
    lst[i] = v
    return lst


def _insert(lst: List[Any], i: int, v: Any) -> None:
    lst.insert(i, v)


def _extend(lst: List[Any], other: List[Any]) -> None:
    lst.extend(other)


def _reverse(lst: List[Any]) -> None:
    lst.reverse()


# builtins on lists whose schemas take generic lists (t[]), which torch.ops cannot be
# called with: by qualified name, since aten::slice/add/mul are also tensor operators
LIST_OPS: Dict[str, Callable[..., Any]] = {
    "aten::slice.t": lambda lst, start, end, step: lst[start:end:step],
    "aten::add.t": lambda a, b: a + b,
    "aten::mul.left_t": lambda lst, n: lst * n,
    "aten::mul.right_": lambda n, lst: n * lst,
    "aten::_set_item.t": _set_item,
    "aten::insert.t": _insert,
    "aten::extend.t": _extend,
    "aten::pop.t": lambda lst, i=-1: lst.pop(i),
    "aten::reverse.t": _reverse,
    "aten::copy.t": list,
}

# the builtins that move values (possibly run-time tensors) in and out of containers
CONTAINER_OPS = frozenset({"aten::__getitem__", "prim::TupleIndex", "aten::append",
                           "prim::unchecked_cast", "aten::list"})


def qualified(node) -> str:
    """``aten::slice.t`` for a node with a schema, else its kind."""
    try:
        schema = node.schema()
    except RuntimeError:
        return node.kind()
    return node.kind() if schema == "(no schema)" else schema.partition("(")[0]


def container_builtin(node) -> Optional[Callable[..., Any]]:
    """The Python implementation of a list/tuple builtin ``node`` calls, if it is one."""
    fn = LIST_OPS.get(qualified(node))
    if fn is None and node.kind() in CONTAINER_OPS:
        fn = PY_OPS[node.kind()]
    return fn


def overload(node):
    """The ``torch.ops`` OpOverload of a node with a schema (``aten::add.Tensor``), else None."""
    import torch
    try:
        schema = node.schema()
    except RuntimeError:
        return None
    if schema == "(no schema)":
        return None
    qual, _, _ = schema.partition("(")
    ns_name, _, ov = qual.partition(".")
    ns, _, name = ns_name.partition("::")
    try:
        packet = getattr(getattr(torch.ops, ns), name)
        return getattr(packet, ov or "default")
    except (AttributeError, RuntimeError):
        return None


def call_args(target, values: Sequence[Any]):
    """A TorchScript node's inputs (all of its schema's arguments, in order) as ``(args,
    kwargs)`` for calling its OpOverload."""
    args, kwargs = [], {}
    for a, v in zip(target._schema.arguments, values):
        if a.kwarg_only:
            kwargs[a.name] = v
        else:
            args.append(v)
    return args, kwargs


def evaluate(node, values: Sequence[Any]) -> Any:
    """Runs ``node`` on known ``values``; raises ``LookupError`` when it cannot."""
    fn = LIST_OPS.get(qualified(node)) or PY_OPS.get(node.kind())
    if fn is not None:
        return fn(*values)
    target = overload(node)
    if target is None:
        raise LookupError(node.kind())
    args, kwargs = call_args(target, values)
    return target(*args, **kwargs)
