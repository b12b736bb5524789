"""``nn.space_to_batch_nd`` and ``nn.batch_to_space_nd`` (TVM 0.19's relay.nn, topi semantics).

For data of shape ``[N, S1..SM, rest...]`` and ``block_shape = [b1..bM]``:

- ``space_to_batch_nd(data, block_shape, paddings, pad_value=0)`` pads each spatial dim
  ``Si`` by ``paddings[i] = [before, after]`` (with ``pad_value``) to ``Pi`` (a multiple of
  ``bi``), and moves the blocks into the batch: the result is
  ``[b1*..*bM*N, P1/b1, .., PM/bM, rest...]`` with
  ``out[(i1*b2*..*bM + .. + iM)*N + n, y1, .., yM, ...] = padded[n, y1*b1 + i1, .., yM*bM + iM, ...]``;
- ``batch_to_space_nd(data, block_shape, crops)`` is its inverse: batch ``b1*..*bM*N`` back to
  ``N``, spatial dims ``Si*bi``, then ``crops[i] = [begin, end]`` removed from each.

They are operators of the expression tree (builders with TVM's signatures in relay_mlir.op.nn,
an interpreter kernel here); with no dialect operator yet, the emitter writes each call as its definition
(``nn.pad``, ``reshape``, ``transpose``, ``reshape``, and ``strided_slice`` for the crops),
which needs the data's static shape (relay_mlir.defined_ops).

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(1, 4, 4, 3))
    >>> y = relay.nn.space_to_batch_nd(x, block_shape=[2, 2], paddings=[[0, 0], [0, 0]])
    >>> relay.transform.InferType()(relay.IRModule.from_expr(y))["main"].body.checked_type
    TensorType([4, 2, 2, 3], float32)
"""
from __future__ import annotations

from typing import Callable, List, Sequence

import numpy as np

from .expr import Call, Expr
from .interpreter_ops import KERNELS
from .op.nn import pad
from .op.tensor import reshape, transpose
from .op.transform import strided_slice

__all__ = ["DEFINITIONS"]

SPACE_TO_BATCH = "nn.space_to_batch_nd"
BATCH_TO_SPACE = "nn.batch_to_space_nd"


def _space_to_batch_shapes(op: str, shape: Sequence[int], block: List[int], paddings):
    """(padded shape, the split shape [N, P1/b1, b1, .., rest], the permutation putting the
    blocks first, the result shape)."""
    m = len(block)
    if len(shape) < m + 1:
        raise ValueError(f"{op}: data of rank {len(shape)} has no {m} spatial dims after the batch")
    padded = [shape[0]] + [s + p[0] + p[1] for s, p in zip(shape[1:m + 1], paddings)] + \
        list(shape[m + 1:])
    for i, b in enumerate(block):
        if padded[1 + i] % b:
            raise ValueError(f"{op}: padded spatial dim {i} ({padded[1 + i]}) is not a multiple "
                             f"of block_shape[{i}] = {b}")
    split = [padded[0]]
    for i, b in enumerate(block):
        split += [padded[1 + i] // b, b]
    split += padded[m + 1:]
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + \
        list(range(2 * m + 1, len(split)))
    result = [int(np.prod(block)) * padded[0]] + [padded[1 + i] // b for i, b in enumerate(block)] \
        + padded[m + 1:]
    return padded, split, perm, result


def _batch_to_space_shapes(op: str, shape: Sequence[int], block: List[int]):
    """(the split shape [b1..bM, N, S1..SM, rest], the permutation interleaving each Si with
    its bi, the uncropped result shape)."""
    m, nb = len(block), int(np.prod(block))
    if len(shape) < m + 1:
        raise ValueError(f"{op}: data of rank {len(shape)} has no {m} spatial dims after the batch")
    if shape[0] % nb:
        raise ValueError(f"{op}: batch {shape[0]} is not a multiple of the block size {nb}")
    split = list(block) + [shape[0] // nb] + list(shape[1:])
    perm = [m]
    for i in range(m):
        perm += [m + 1 + i, i]
    perm += list(range(2 * m + 1, len(split)))
    result = [shape[0] // nb] + [s * b for s, b in zip(shape[1:m + 1], block)] + list(shape[m + 1:])
    return split, perm, result


def _space_to_batch_definition(call: Call, shape_of: Callable[[Expr], List[int]]) -> Expr:
    a = call.attrs
    block, pads = list(a["block_shape"]), [list(p) for p in a["paddings"]]
    shape = shape_of(call.args[0])
    _, split, perm, result = _space_to_batch_shapes(SPACE_TO_BATCH, shape, block, pads)
    width = [[0, 0]] + pads + [[0, 0]] * (len(shape) - len(block) - 1)
    padded = pad(call.args[0], width, float(a["pad_value"]))
    return reshape(transpose(reshape(padded, split), perm), result)


def _batch_to_space_definition(call: Call, shape_of: Callable[[Expr], List[int]]) -> Expr:
    a = call.attrs
    block, crops = list(a["block_shape"]), [list(c) for c in a["crops"]]
    shape = shape_of(call.args[0])
    split, perm, full = _batch_to_space_shapes(BATCH_TO_SPACE, shape, block)
    y = reshape(transpose(reshape(call.args[0], split), perm), full)
    if not any(c[0] or c[1] for c in crops):
        return y
    begin = [0] + [c[0] for c in crops] + [0] * (len(full) - len(block) - 1)
    end = [full[0]] + [s - c[1] for s, c in zip(full[1:], crops)] + full[len(block) + 1:]
    return strided_slice(y, begin, end)


def _space_to_batch_kernel(args, attrs):
    (x,) = args
    block, pads = list(attrs["block_shape"]), [list(p) for p in attrs["paddings"]]
    _, split, perm, result = _space_to_batch_shapes(SPACE_TO_BATCH, x.shape, block, pads)
    width = [(0, 0)] + [tuple(p) for p in pads] + [(0, 0)] * (x.ndim - len(block) - 1)
    padded = np.pad(x, width, constant_values=np.asarray(attrs["pad_value"]).astype(x.dtype))
    return np.ascontiguousarray(padded.reshape(split).transpose(perm)).reshape(result)


def _batch_to_space_kernel(args, attrs):
    (x,) = args
    block, crops = list(attrs["block_shape"]), [list(c) for c in attrs["crops"]]
    split, perm, full = _batch_to_space_shapes(BATCH_TO_SPACE, x.shape, block)
    y = np.ascontiguousarray(x.reshape(split).transpose(perm)).reshape(full)
    index = (slice(None),) + tuple(slice(c[0], s - c[1]) for s, c in zip(full[1:], crops))
    return np.ascontiguousarray(y[index])


KERNELS[SPACE_TO_BATCH] = _space_to_batch_kernel
KERNELS[BATCH_TO_SPACE] = _batch_to_space_kernel

#: name -> definition(call, shape_of) for the emitter (relay_mlir.defined_ops)
DEFINITIONS = {SPACE_TO_BATCH: _space_to_batch_definition, BATCH_TO_SPACE: _batch_to_space_definition}
