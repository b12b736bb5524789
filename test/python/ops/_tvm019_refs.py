"""numpy references of TVM 0.19's trilu, sequence_mask, reverse_sequence, meshgrid,
unravel_index, invert_permutation, searchsorted, matrix_set_diag, collapse_sum_to,
reinterpret, sliding_window, nn.dilate, sparse_to_dense, contrib_reverse_reshape,
nn.cross_entropy(_with_logits) and nn.nll_loss, written from their documented
semantics (explicit loops where the formula is the point). Shared by the numeric tests
(test_transform_masks.py, test_index_search.py, test_nn_losses.py, test_elementwise.py)
and scripts/tvm_op_probe.py, which checked them against TVM 0.19 on the same cases.
Pure numpy: no relay_mlir import.
"""
from __future__ import annotations

import numpy as np


def trilu(x, k, upper=True):
    out = np.zeros_like(x)
    for idx in np.ndindex(*x.shape):
        i, j = idx[-2], idx[-1]
        if (j - i >= k) if upper else (j - i <= k):
            out[idx] = x[idx]
    return out


def sequence_mask(x, lengths, mask_value=0.0, axis=0):
    out = x.copy()
    for idx in np.ndindex(*x.shape):
        if idx[axis] >= lengths[idx[1 - axis]]:
            out[idx] = mask_value
    return out


def reverse_sequence(x, lengths, seq_axis=1, batch_axis=0):
    out = x.copy()
    n = x.shape[seq_axis]
    for idx in np.ndindex(*x.shape):
        m = min(int(lengths[idx[batch_axis]]), n)
        s = idx[seq_axis]
        if s < m:
            src = list(idx)
            src[seq_axis] = m - 1 - s
            out[idx] = x[tuple(src)]
    return out


def meshgrid(*xs, indexing="ij"):
    return [g.copy() for g in np.meshgrid(*[np.reshape(x, -1) for x in xs], indexing=indexing)]


def unravel_index(indices, shape):
    """TVM's: floordiv / floormod by the strides (a negative index wraps)."""
    flat = np.reshape(indices, -1).astype(np.int64)
    rows = []
    for r in range(len(shape)):
        stride = int(np.prod(shape[r + 1:], dtype=np.int64))
        rows.append([(v // stride) % int(shape[r]) for v in flat])
    out = np.array(rows, dtype=indices.dtype)
    return out[:, 0] if np.ndim(indices) == 0 else out


def invert_permutation(p):
    out = np.zeros_like(p)
    for i, v in enumerate(p):
        out[v] = i
    return out


def searchsorted(s, v, right=False, dtype="int32"):
    out = np.zeros(v.shape, dtype=dtype)
    for idx in np.ndindex(*v.shape):
        row = s if s.ndim == 1 else s[idx[:-1]]
        out[idx] = sum(1 for e in row if (e <= v[idx] if right else e < v[idx]))
    return out


def _diag_len(rows, cols, d):
    return min(rows + min(d, 0), cols - max(d, 0))


def matrix_set_diag(x, diag, k=0, align="RIGHT_LEFT"):
    """TensorFlow's MatrixSetDiagV3 (what TVM's matrix_set_diag follows)."""
    k1, k2 = (k, k) if np.isscalar(k) else k
    rows, cols = x.shape[-2:]
    max_len = max(_diag_len(rows, cols, d) for d in range(k1, k2 + 1))
    sup_right, sub_right = align.split("_")[0] == "RIGHT", align.split("_")[1] == "RIGHT"
    out = x.copy()
    for idx in np.ndindex(*x.shape):
        i, j = idx[-2], idx[-1]
        d = j - i
        if not k1 <= d <= k2:
            continue
        right = sup_right if d >= 0 else sub_right
        offset = max_len - _diag_len(rows, cols, d) if right else 0
        pos = (i if d >= 0 else j) + offset
        src = idx[:-2] + ((pos,) if k1 == k2 else (k2 - d, pos))
        out[idx] = diag[src]
    return out


def collapse_sum_to(x, shape):
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape)
                                      if s == 1 and x.shape[lead + i] != 1)
    acc = np.float64 if x.dtype.kind == "f" else np.int64
    return np.sum(x.astype(acc), axis=axes, keepdims=True).reshape(shape).astype(x.dtype)


def reinterpret(x, dtype):
    return x.view(dtype)


def sliding_window(x, axis, window, strides):
    counts = [(x.shape[axis + i] - w) // s + 1 for i, (w, s) in enumerate(zip(window, strides))]
    out = np.zeros(x.shape[:axis] + tuple(counts) + tuple(window), dtype=x.dtype)
    for idx in np.ndindex(*out.shape):
        pre, n, w = idx[:axis], idx[axis:axis + len(window)], idx[axis + len(window):]
        out[idx] = x[pre + tuple(a * s + b for a, s, b in zip(n, strides, w))]
    return out


def dilate(x, strides, value=0.0):
    shape = [(d - 1) * s + 1 if d else 0 for d, s in zip(x.shape, strides)]
    out = np.full(shape, value).astype(x.dtype)
    for idx in np.ndindex(*x.shape):
        out[tuple(i * s for i, s in zip(idx, strides))] = x[idx]
    return out


def sparse_to_dense(indices, shape, values, default):
    out = np.full(shape, default, dtype=values.dtype)
    idx = np.reshape(indices, (-1, 1)) if np.ndim(indices) < 2 else indices
    vals = np.broadcast_to(values, (idx.shape[0],))
    for row, v in zip(idx, vals):
        out[tuple(int(i) for i in row)] = v
    return out


def reverse_reshape(x, newshape):
    """TVM's rule: reshape codes (0 copy, -1 infer, -2 rest, -3 merge two) applied to the
    reversed shape and the reversed newshape, the result reversed."""
    shape, codes, out, i, infer = list(x.shape)[::-1], list(newshape)[::-1], [], 0, None
    j = 0
    while j < len(codes):
        c = codes[j]
        if c > 0:
            out.append(c)
            i += 1
        elif c == 0:
            out.append(shape[i])
            i += 1
        elif c == -1:
            infer = len(out)
            out.append(1)
            i += 1
        elif c == -2:
            out.extend(shape[i:])
            i = len(shape)
        elif c == -3:
            out.append(shape[i] * shape[i + 1])
            i += 2
        j += 1
    if infer is not None:
        out[infer] = x.size // int(np.prod(out))
    return x.reshape(out[::-1])


def cross_entropy(x, y):
    return np.asarray(-np.sum(np.log(x.astype(np.float64)) * y) / x.shape[0], dtype=x.dtype)


def cross_entropy_with_logits(x, y):
    return np.asarray(-np.sum(x.astype(np.float64) * y) / x.shape[0], dtype=x.dtype)


def nll_loss(pred, target, weights, reduction="mean", ignore_index=-100):
    loss = np.zeros(target.shape)
    wsum = 0.0
    for idx in np.ndindex(*target.shape):
        t = int(target[idx])
        if t == ignore_index:
            continue
        w = float(weights[t])
        loss[idx] = -float(pred[(idx[0], t) + idx[1:]]) * w
        wsum += w
    if reduction == "none":
        return loss.astype(pred.dtype)
    if reduction == "sum":
        return np.asarray(loss.sum(), dtype=pred.dtype)
    return np.asarray(loss.sum() / wsum, dtype=pred.dtype)

