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

Views an op returns several of (``split``, ``unbind``, ``chunk``) are not followed:
writing into one is refused. Other views of a base written later keep the values
they had (reading a view after writing its base through another alias is not
followed).
"""
from __future__ import annotations

from typing import Any, Dict, Tuple

import numpy as np

from ... import expr as E
from ... import op
from ..torch import _TV
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
        self.of: Dict[int, Tuple[Any, Any]] = {}  # view value id -> (base Value, index tensor)
        self.untracked: Dict[int, str] = {}     # value id -> the op that made it

    def record(self, imp, node, target, examples, in_tv: _TV) -> None:
        """Notes ``node``'s output as a view of its first input (or of that input's base)."""
        import torch
        src = node.inputsAt(0)
        out = node.outputsAt(0).unique()
        if returns_views(target):
            self.untracked[out] = node.kind()
            return
        base, idx = self.of.get(src.unique(), (src, None))
        if idx is None:
            idx = torch.arange(int(np.prod(in_tv.shape)), dtype=torch.int64).reshape(in_tv.shape)
        args, kwargs = _call_args(target, [idx] + list(examples[1:]))
        with torch.no_grad():
            view_idx = target(*args, **kwargs)
        self.of[out] = (base, view_idx)

    def inherit(self, node) -> None:
        """Values taken out of a list of views (ListUnpack, indexing) are untracked views too."""
        made_by = self.untracked.get(node.inputsAt(0).unique()) if node.inputsSize() else None
        if made_by is not None:
            for v in node.outputs():
                self.untracked[v.unique()] = made_by

    def write(self, imp, node, result: _TV, example: Any) -> None:
        """``node`` wrote ``result`` into its first input: that value, and its base, change."""
        target = node.inputsAt(0)
        if target.unique() in self.untracked:
            raise imp.unsupported(node, f"writes into a view made by {self.untracked[target.unique()]} "
                                        "(a list of views), which the importer does not follow")
        imp.put(target, result, example)
        if target.unique() not in self.of:
            return
        base, idx = self.of[target.unique()]
        base_tv, base_ex = imp.get(base)
        n, covered = int(np.prod(base_tv.shape)), idx.reshape(-1).numpy()
        gather = np.arange(n, dtype=np.int64)
        gather[covered] = n + np.arange(covered.size, dtype=np.int64)
        value = result.expr if result.dtype == base_tv.dtype else op.cast(result.expr, base_tv.dtype)
        value = op.broadcast_to(value, tuple(idx.shape)) if result.shape != tuple(idx.shape) else value
        both = op.concatenate([op.reshape(base_tv.expr, (n,)), op.reshape(value, (covered.size,))], axis=0)
        new = op.reshape(op.take(both, E.const(gather, "int64"), axis=0, mode="fast"), base_tv.shape)
        imp.put(base, _TV(new, base_tv.shape, base_tv.dtype), base_ex)
