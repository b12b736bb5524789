"""``aten::embedding_bag`` (``nn.EmbeddingBag``, ``F.embedding_bag``), PyTorch's definition:
bag ``b`` is ``indices[offsets[b]:offsets[b + 1]]`` (the last runs to the end, or to the last
offset with ``include_last_offset``); its row of the output reduces ``weight[bag]`` by
``mode`` 0 sum (each row scaled by ``per_sample_weights`` if given), 1 mean, 2 max; an
empty bag gives zeros. The indices may be known only at run time, the offsets must be known
at import time (``nn.EmbeddingBag`` on 2-d input makes them from its shape). Bags of one
length become one ``take`` + ``reshape`` + reduction, others one slice per bag. The other
three results (offset2bag, bag_size, max_indices) are PyTorch's for these offsets; mode
max's max_indices depend on the values and are refused if the model reads them.
TVM 0.19 has no converter for ``aten::embedding_bag`` ("not implemented").
"""
from __future__ import annotations

from typing import List

import numpy as np

from ... import expr as E
from ... import op
from ..torch_ops._base import _Ctx, _TV
from ._registry import register


def _bags(offsets: np.ndarray, n: int, include_last: bool) -> List[tuple]:
    ends = list(offsets[1:]) + ([] if include_last else [n])
    return list(zip(offsets[:len(ends)], ends))


def _reduce(rows: E.Expr, mode: int, axis: int) -> E.Expr:
    """Rows reduced along ``axis`` (kept when it is 0: one bag's row of the output)."""
    return [op.sum, op.mean, op.max][mode](rows, axis=axis, keepdims=axis == 0)


@register("embedding_bag", "_embedding_bag")
def _embedding_bag(c: _Ctx) -> list:
    import torch
    w, idx = c.tv(c.a["weight"]), c.tv(c.a["indices"])
    offsets, mode = c.a.get("offsets"), int(c.a.get("mode", 0))
    psw = c.a.get("per_sample_weights")
    if isinstance(offsets, _TV) or not isinstance(offsets, torch.Tensor):
        raise c.unsupported("offsets known only at run time (give 2-d indices, or offsets the "
                            "model computes from shapes)")
    if c.a.get("padding_idx") not in (None, -1) or idx.ndim != 1 or mode not in (0, 1, 2):
        raise c.unsupported("padding_idx, indices that are not 1-d, or a mode other than sum/mean/max")
    if mode == 2 and any(u for u in c.imp.jit_node.outputsAt(3).uses()):
        raise c.unsupported("mode max's max_indices are read (they depend on the values)")
    bags = _bags(offsets.numpy().astype(np.int64), idx.shape[0], bool(c.a.get("include_last_offset")))
    rows = op.take(w.expr, idx.expr, axis=0)
    if psw is not None:
        rows = rows * op.expand_dims(c.ex(psw), 1)
    dim = w.shape[1]
    lengths = {e - s for s, e in bags}
    if len(lengths) == 1 and 0 not in lengths and bags[0][0] == 0 and bags[-1][1] == idx.shape[0]:
        out = _reduce(op.reshape(rows, (len(bags), lengths.pop(), dim)), mode, 1)
    elif bags:
        zeros = E.const(np.zeros((1, dim), w.dtype), w.dtype)
        out = op.concatenate([_reduce(op.strided_slice(rows, [int(s)], [int(e)], axes=[0]), mode, 0)
                              if e > s else zeros for s, e in bags], 0)
    else:
        out = E.const(np.zeros((0, dim), w.dtype), w.dtype)
    examples = c.node.meta["val"]
    aux = [_TV(E.const(t.numpy(), str(t.dtype).replace("torch.", "")), tuple(t.shape),
               str(t.dtype).replace("torch.", "")) for t in examples[1:]]
    return [c.result(out, 0)] + aux
