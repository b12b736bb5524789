"""ONNX NonMaxSuppression: greedy selection composed of relay operators.

ONNX's reference: per batch and class, the candidates (score above
``score_threshold`` when given) are taken in score order (ties: lower box
index first); a candidate is selected unless its IoU with an already
selected box of the class exceeds ``iou_threshold``, until
``max_output_boxes_per_class`` are selected. The output lists
``(batch, class, box)`` rows ordered by batch, class and selection order.

Composition (static numbers of batches ``B``, classes ``C`` and boxes ``N``):
each box's rank in its class's score order is counted from pairwise
comparisons (exact ties rule, no sort); the pairwise "suppresses" matrix of
each batch follows ONNX's IoU test; the greedy pass is ``N`` steps, step
``r`` deciding the box of rank ``r`` from the boxes kept before it; the
kept boxes in rank order are then listed with ``argwhere`` (row-major:
batch, class, rank) and their box indices gathered. The number of rows is a
run-time size.
"""
from __future__ import annotations

import numpy as np

from ...op import dyn as D
from ._base import Node, fmt_shape, register

#: greedy steps unrolled (one per box): larger inputs are refused
MAX_BOXES = 256


@register("NonMaxSuppression", since=10)
def _nms(n: Node):
    op = n.op
    bs, ss = n.shape(0), n.shape(1)
    if bs is None or ss is None or len(bs) != 3 or len(ss) != 3 or None in bs or None in ss:
        raise n.unsupported(f"NonMaxSuppression of boxes {fmt_shape(bs)} and scores {fmt_shape(ss)} "
                            "(static [B, N, 4] and [B, C, N] are supported)")
    B, N, four = bs
    C = ss[1]
    if four != 4 or ss[0] != B or ss[2] != N:
        raise n.invalid(f"boxes {fmt_shape(bs)} and scores {fmt_shape(ss)} do not match ([B, N, 4], [B, C, N])")
    if N > MAX_BOXES:
        raise n.unsupported(f"NonMaxSuppression of {N} boxes (at most {MAX_BOXES}: the greedy pass is unrolled)")
    center = int(n.attr("center_point_box", 0))
    if center not in (0, 1):
        raise n.invalid(f"attribute 'center_point_box' is {center}, expected 0 or 1")
    dt = n.dtype(0)
    boxes, scores = n.expr(0), n.expr(1)

    def scalar(i, default, dtype):
        if not n.has(i):
            return _const(default, dtype)
        return op("reshape")(op("cast")(n.expr(i), dtype), [])

    max_out = scalar(2, 0, "int64")
    iou_thr = scalar(3, 0.0, dt)
    take = lambda x, k: op("take")(x, _const(k, "int32"), axis=2)  # noqa: E731
    if center == 0:
        y1, x1, y2, x2 = (take(boxes, k) for k in range(4))
        xmin, xmax = op("minimum")(x1, x2), op("maximum")(x1, x2)
        ymin, ymax = op("minimum")(y1, y2), op("maximum")(y1, y2)
    else:
        xc, yc, w, h = (take(boxes, k) for k in range(4))
        half = _const(2.0, dt)
        xmin, xmax = op("subtract")(xc, op("divide")(w, half)), op("add")(xc, op("divide")(w, half))
        ymin, ymax = op("subtract")(yc, op("divide")(h, half)), op("add")(yc, op("divide")(h, half))

    # pairwise [B, N(j: selected), N(i: candidate)]
    col = lambda x: op("expand_dims")(x, 2)  # noqa: E731  [B, N, 1]
    row = lambda x: op("expand_dims")(x, 1)  # noqa: E731  [B, 1, N]
    ix0, ix1 = op("maximum")(col(xmin), row(xmin)), op("minimum")(col(xmax), row(xmax))
    iy0, iy1 = op("maximum")(col(ymin), row(ymin)), op("minimum")(col(ymax), row(ymax))
    zero = _const(0.0, dt)
    inter = op("multiply")(op("subtract")(ix1, ix0), op("subtract")(iy1, iy0))
    area = op("multiply")(op("subtract")(xmax, xmin), op("subtract")(ymax, ymin))
    union = op("subtract")(op("add")(col(area), row(area)), inter)
    ok = op("logical_and")
    overlap = ok(ok(op("greater")(ix1, ix0), op("greater")(iy1, iy0)), op("greater")(inter, zero))
    positive = ok(ok(op("greater")(col(area), zero), op("greater")(row(area), zero)), op("greater")(union, zero))
    safe_union = op("where")(op("greater")(union, zero), union, _const(1.0, dt))
    suppresses = ok(ok(overlap, positive), op("greater")(op("divide")(inter, safe_union), iou_thr))
    suppresses = op("expand_dims")(suppresses, 1)  # [B, 1, N, N]: the same for every class

    # rank of each box in its class: higher score first, then lower index
    s_j, s_i = op("expand_dims")(scores, 3), op("expand_dims")(scores, 2)  # [B, C, N, 1], [B, C, 1, N]
    idx = np.arange(N)
    lower = _const((idx[:, None] < idx[None, :]), "bool")  # [N(j), N(i)]: j < i
    before = op("logical_or")(op("greater")(s_j, s_i), ok(op("equal")(s_j, s_i), lower))  # j ranks before i
    rank = op("sum")(op("cast")(before, "int32"), axis=[2])  # [B, C, N]

    candidate = _const(np.ones((B, C, N), bool), "bool")
    if n.has(4):
        candidate = op("greater")(scores, op("reshape")(op("cast")(n.expr(4), dt), []))
    keep = _const(np.zeros((B, C, N), bool), "bool")
    for r in range(N):
        kept_j = op("expand_dims")(keep, 3)  # [B, C, N(j), 1]
        hit = op("any")(ok(kept_j, suppresses), axis=[2])  # [B, C, N(i)]
        room = op("less")(op("sum")(op("cast")(keep, "int64"), axis=[2], keepdims=True), max_out)
        now = ok(ok(candidate, op("logical_not")(hit)), room)
        keep = op("where")(op("equal")(rank, _const(r, "int32")), now, keep)

    # kept boxes in rank order: order[b, c, r] = the box of rank r
    one_hot = op("equal")(op("expand_dims")(rank, 2), _const(idx.reshape(N, 1), "int32"))  # [B, C, N(r), N(i)]
    order = op("sum")(op("multiply")(op("cast")(one_hot, "int32"), _const(idx, "int32")), axis=[3])
    kept_sorted = op("sum")(op("multiply")(op("cast")(one_hot, "int32"), op("expand_dims")(op("cast")(keep, "int32"), 2)),
                            axis=[3])  # [B, C, N(r)]
    rows = D.argwhere(op("cast")(kept_sorted, "bool"), (B, C, N), "bool")  # [M, 3] (b, c, r)
    box = op("gather_nd")(order, op("transpose")(rows, [1, 0]))  # [M]
    bc = op("strided_slice")(rows, [0, 0], [2 ** 31 - 1, 2], [1, 1])
    out = op("concatenate")([bc, op("expand_dims")(box, 1)], 1)
    return op("cast")(out, "int64")


def _const(value, dtype):
    from ...expr import Constant
    return Constant(np.asarray(value, dtype))
