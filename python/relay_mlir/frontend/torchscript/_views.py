"""Writes through views: ``acc[i] = v``, ``x[:, 0].mul_(2)``, ``y.fill_(0)``.

TorchScript keeps PyTorch's aliasing: ``acc[i] = v`` is ``s = aten::select(acc, 0, i);
aten::copy_(s, v)`` and later uses of ``acc`` see the write. Relay values are
immutable, so the importer follows it:

* a view op (its schema's result aliases ``self``, e.g. ``select``, ``slice``,
  ``transpose``, ``view``) of a run-time tensor records which elements of the base
  tensor the view covers: the op is replayed in PyTorch on the base's element
  indices (``arange(numel).reshape(shape)``), views of views chaining to the base;
* an in-place op (its schema writes ``self``) makes its result the new value of
  ``self`` and, when ``self`` is a view, of the base: the base's elements that the
  view covers are replaced by the result's (one ``take`` from the base's and the
  result's elements with a constant index map).

A view read after a write into its base through another alias is read again from
the new base. Views of tensors known at import time are followed too
(``acc = torch.zeros(n); acc[i] = x``).
Views an op returns several of (``split``, ``unbind``, ``chunk``) are not followed:
writing into one is refused.
"""
from __future__ import annotations

from typing import Any, Dict, Tuple

import numpy as np

from ... import expr as E
from ... import op
from ..torch_ops._base import _TV
from ._eval import call_args as _call_args


def _is_list(ret) -> bool:
    return ret.type.kind() == "ListType"


def returns_view(target) -> bool:
    rets = target._schema.returns
    return len(rets) == 1 and rets[0].alias_info is not None and not rets[0].alias_info.is_write \
        and not _is_list(rets[0])


def writes_self(target) -> bool:
    args = target._schema.arguments
    return bool(args) and args[0].alias_info is not None and args[0].alias_info.is_write


def returns_views(target) -> bool:
    """Several views (a list result aliasing ``self``): ``split``, ``unbind``, ``chunk``."""
    rets = target._schema.returns
    return len(rets) == 1 and _is_list(rets[0]) and rets[0].alias_info is not None


class Views:
    """Which base elements each tracked view covers (see the module docstring)."""

    def __init__(self) -> None:
        self.of: Dict[int, Tuple[Any, Any, Any]] = {}  # view id -> (view Value, base Value, indices)
        self.untracked: Dict[int, str] = {}          # value id -> the op that made it
        self.version: Dict[int, int] = {}            # base id -> number of writes into it
        self.seen: Dict[int, int] = {}               # view id -> the base version its value reflects

    def record(self, node, target, examples, shape: Tuple[int, ...]) -> None:
        """Notes ``node``'s output as a view of its first input (of ``shape``) or of that
        input's base."""
        import torch
        src = node.inputsAt(0)
        out = node.outputsAt(0)
        if returns_views(target):
            self.untracked[out.unique()] = node.kind()
            return
        _, base, idx = self.of.get(src.unique(), (src, src, None))
        if idx is None:
            idx = torch.arange(int(np.prod(shape)), dtype=torch.int64).reshape(shape)
        args, kwargs = _call_args(target, [idx] + list(examples[1:]))
        with torch.no_grad():
            view_idx = target(*args, **kwargs)
        if isinstance(view_idx, torch.Tensor):
            self.of[out.unique()] = (out, base, view_idx)
            self.seen[out.unique()] = self.version.get(base.unique(), 0)

    def inherit(self, node) -> None:
        """Values taken out of a list of views (ListUnpack, indexing) are untracked views too."""
        made_by = self.untracked.get(node.inputsAt(0).unique()) if node.inputsSize() else None
        if made_by is not None:
            for v in node.outputs():
                self.untracked[v.unique()] = made_by

    def write(self, imp, node, result: _TV, example: Any) -> None:
        """``node`` wrote ``result`` into its first input: that value, its base and the base's
        other views change."""
        target = node.inputsAt(0)
        if target.unique() in self.untracked:
            raise imp.unsupported(node, f"writes into a view made by {self.untracked[target.unique()]} "
                                        "(a list of views), which the importer does not follow")
        imp.put(target, result, example)
        base = target
        if target.unique() in self.of:
            _, base, idx = self.of[target.unique()]
            self._write_base(imp, base, idx, result)
        self.version[base.unique()] = self.version.get(base.unique(), 0) + 1
        if target.unique() in self.of:
            self.seen[target.unique()] = self.version[base.unique()]

    def _write_base(self, imp, base, idx, result: _TV) -> None:
        """The base with the elements ``idx`` covers replaced by ``result``'s."""
        base_value, base_ex = imp.get(base)
        base_tv = imp.as_tv(base_value, None, None)
        n, covered = int(np.prod(base_tv.shape)), idx.reshape(-1).numpy()
        gather = np.arange(n, dtype=np.int64)
        gather[covered] = n + np.arange(covered.size, dtype=np.int64)
        value = result.expr if result.dtype == base_tv.dtype else op.cast(result.expr, base_tv.dtype)
        value = op.broadcast_to(value, tuple(idx.shape)) if result.shape != tuple(idx.shape) else value
        both = op.concatenate([op.reshape(base_tv.expr, (n,)), op.reshape(value, (covered.size,))], axis=0)
        new = op.reshape(op.take(both, E.const(gather, "int64"), axis=0, mode="fast"), base_tv.shape)
        imp.put(base, _TV(new, base_tv.shape, base_tv.dtype), base_ex)

    def current(self, imp, value) -> None:
        """A view read after a write into its base (through another alias) is read again
        from the base's new elements."""
        u = value.unique()
        view, base, idx = self.of[u]
        if self.seen[u] == self.version.get(base.unique(), 0):
            return
        base_tv = imp.as_tv(imp.get(base)[0], None, None)
        flat = op.reshape(base_tv.expr, (int(np.prod(base_tv.shape)),))
        taken = op.take(flat, E.const(idx.reshape(-1).numpy(), "int64"), axis=0, mode="fast")
        imp.vals[u] = (_TV(op.reshape(taken, tuple(idx.shape)), tuple(idx.shape), base_tv.dtype), imp.vals[u][1])
        self.seen[u] = self.version[base.unique()]
