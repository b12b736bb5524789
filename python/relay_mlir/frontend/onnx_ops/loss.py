"""Loss ONNX ops: NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss (composed as in the ONNX reference)."""
from __future__ import annotations

from ._base import Node, register
from ._shape import squeeze, unsqueeze
from .elementwise import _float_only


def _nll(n: Node, x, xs, target, ts, tdt: str, weight_i: int):
    """-x[n, target[n, ...], ...] weighted; returns (loss, applied weights or None)."""
    reduction = n.expect("reduction", "none", "sum", "mean", default="mean")
    ignore = n.attr("ignore_index", None)
    dt = n.dtype(0)
    zero_i = n.scalar(0, dtype=tdt)
    if ignore is not None:
        keep = n.op("not_equal")(target, n.scalar(int(ignore), dtype=tdt))
        safe = n.op("where")(keep, target, zero_i)
    else:
        keep, safe = None, target
    idx = unsqueeze(n, safe, ts, [1])
    g = n.op("gather")(x, 1, idx)
    g = squeeze(n, g, [xs[0], 1] + list(xs[2:]), [1])
    loss = n.op("negative")(g)
    w = None
    if n.has(weight_i):
        w = n.op("take")(n.expr(weight_i), safe, axis=0, mode="clip")
        if keep is not None:
            w = n.op("where")(keep, w, n.scalar(0.0, dtype=dt))
    elif ignore is not None and int(ignore) != -1:
        w = n.op("cast")(keep, dt)
    elif keep is not None:  # ignored positions contribute 0 (the mean still counts them)
        loss = n.op("where")(keep, loss, n.scalar(0.0, dtype=dt))
    if w is not None:
        loss = n.op("multiply")(w, loss)
        if reduction == "mean":
            return n.op("divide")(n.op("sum")(loss), n.op("sum")(w))
    if reduction == "mean":
        return n.op("mean")(loss)
    if reduction == "sum":
        return n.op("sum")(loss)
    return loss


@register("NegativeLogLikelihoodLoss", since=13)
def _nll_loss(n: Node):
    _float_only(n)
    xs, ts = n.shape(0), n.shape(1)
    if xs is None or ts is None:
        raise n.unsupported("input ranks must be known")
    return _nll(n, n.expr(0), xs, n.expr(1), ts, n.dtype(1), 2)


@register("SoftmaxCrossEntropyLoss", since=13)
def _sce_loss(n: Node):
    _float_only(n)
    xs, ts = n.shape(0), n.shape(1)
    if xs is None or ts is None:
        raise n.unsupported("input ranks must be known")
    logp = n.op("nn.log_softmax")(n.expr(0), axis=1)
    loss = _nll(n, logp, xs, n.expr(1), ts, n.dtype(1), 2)
    return [loss, logp]
