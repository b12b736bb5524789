"""Neural-network ONNX ops: Conv, pooling, Gemm/MatMul, normalizations, Softmax, Flatten, Dropout."""
from __future__ import annotations

from typing import List, Optional, Sequence

import numpy as np

from ._base import Node, fmt_shape, have_op, register
from ._shape import dims_of, reshape_dims, prod, reshape, squeeze, unsqueeze
from .elementwise import _float_only
from ._symshape import depend, runtime_check


# -- padding ---------------------------------------------------------------------
def _pads(n: Node, spatial_in: Sequence[Optional[int]], kernel: Sequence[int], strides: Sequence[int],
          dilations: Sequence[int]) -> List[int]:
    """ONNX pads ``[b1, b2, ..., e1, e2, ...]`` after resolving ``auto_pad``."""
    nd = len(kernel)
    auto = n.attr("auto_pad", "NOTSET")
    if auto in ("NOTSET", ""):
        pads = list(n.attr("pads", [0] * (2 * nd)))
        if len(pads) != 2 * nd:
            raise n.unsupported(f"pads {pads} do not match {nd} spatial dims")
        return pads
    n.ignore("pads")
    if auto == "VALID":
        return [0] * (2 * nd)
    if auto not in ("SAME_UPPER", "SAME_LOWER"):
        raise n.unsupported(f"auto_pad={auto!r}")
    if any(d is None for d in spatial_in):
        raise n.unsupported(f"auto_pad={auto} needs static spatial dims, got {fmt_shape(spatial_in)}")
    begins, ends = [], []
    for i in range(nd):
        out = -(-spatial_in[i] // strides[i])
        total = max((out - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 - spatial_in[i], 0)
        small = total // 2
        if auto == "SAME_UPPER":
            begins.append(small), ends.append(total - small)
        else:
            begins.append(total - small), ends.append(small)
    return begins + ends


def _window_attr(n: Node, name: str, nd: int, default: Optional[List[int]] = (), minimum: int = 1) -> List[int]:
    """``kernel_shape``/``strides``/``dilations``: ``nd`` integers, each at least ``minimum``
    (``default`` () means all ones; None means the attribute is required)."""
    if default == ():
        default = [1] * nd
    v = n.attr(name) if default is None else n.attr(name, default)
    v = [int(d) for d in v]
    if len(v) != nd:
        raise n.invalid(f"attribute '{name}' {v} has {len(v)} entries for {nd} spatial dims")
    if any(d < minimum for d in v):
        raise n.invalid(f"attribute '{name}' {v}: every entry must be at least {minimum}")
    return v


def _to_2d(n: Node, shape, x, extra_axis: int):
    """[N, C, W] -> [N, C, 1, W] for 1-D ops lowered through the 2-D Relay ops."""
    return unsqueeze(n, x, shape, [extra_axis])


# -- Conv -------------------------------------------------------------------------
def _conv(n: Node):
    xs, ws = n.shape(0), n.shape(1)
    if xs is None or ws is None:
        raise n.unsupported("input and weight ranks must be known")
    if any(d is None for d in ws):
        raise n.unsupported(f"weight needs a static shape, got {fmt_shape(ws)}")
    nd = len(xs) - 2
    if nd not in (1, 2):
        if nd == 3 and have_op("nn.conv3d"):
            pass
        else:
            raise n.unsupported(f"{nd}-D convolution (relay-mlir has 1-D and 2-D)")
    kernel = _window_attr(n, "kernel_shape", nd, list(ws[2:]))
    if list(kernel) != list(ws[2:]):
        raise n.unsupported(f"kernel_shape {kernel} does not match the weight shape {list(ws)}")
    strides = _window_attr(n, "strides", nd)
    dil = _window_attr(n, "dilations", nd)
    group = int(n.attr("group", 1))
    pads = _pads(n, xs[2:], kernel, strides, dil)
    x, w = n.expr(0), n.expr(1)
    if nd == 1:
        x = _to_2d(n, xs, x, 2)
        w = n.constant(n.const(1)[:, :, None, :]) if n.is_const(1) else reshape(n, w, [ws[0], ws[1], 1, ws[2]])
        kernel, strides, dil = [1] + kernel, [1] + strides, [1] + dil
        pads = [0, pads[0], 0, pads[1]]
    if nd == 3:
        y = n.op("nn.conv3d")(x, w, strides=strides, padding=pads, dilation=dil, groups=group,
                              channels=int(ws[0]), kernel_size=kernel)
    else:
        y = n.op("nn.conv2d")(x, w, strides=strides, padding=pads, dilation=dil, groups=group,
                              channels=int(ws[0]), kernel_size=kernel)
    if n.has(2):
        y = n.op("nn.bias_add")(y, n.expr(2), axis=1)
    if nd == 1:
        y = squeeze(n, y, [xs[0], ws[0], 1, None], [2])
    return y


@register("ConvTranspose", since=1)
def _conv_transpose(n: Node):
    xs, ws = n.shape(0), n.static_shape(1, "weight")
    nd = len(xs) - 2
    if nd != 2:
        raise n.unsupported(f"{nd}-D transposed convolution (relay-mlir has 2-D)")
    kernel = _window_attr(n, "kernel_shape", nd, list(ws[2:]))
    strides = _window_attr(n, "strides", nd)
    dil = _window_attr(n, "dilations", nd)
    group = int(n.attr("group", 1))
    outpad = list(n.attr("output_padding", [0] * nd))
    out_shape = n.attr("output_shape", None)
    auto = n.attr("auto_pad", "NOTSET")
    if out_shape is not None or auto not in ("NOTSET", ""):
        if any(d is None for d in xs[2:]):
            raise n.unsupported("output_shape/auto_pad need static spatial dims")
        if out_shape is None:
            out_shape = [xs[2 + i] * strides[i] for i in range(nd)]
        out_shape = list(out_shape)[-nd:]
        if len(out_shape) != nd:
            raise n.invalid(f"output_shape {list(n.attr('output_shape'))} needs {nd} spatial entries")
        total = [strides[i] * (xs[2 + i] - 1) + outpad[i] + ((kernel[i] - 1) * dil[i] + 1) - out_shape[i]
                 for i in range(nd)]
        n.ignore("pads")
        # an output_shape larger than the full transposed convolution: the extra rows/cols
        # at the end get no input contributions, i.e. output padding
        for i in range(nd):
            if total[i] < 0:
                outpad[i] -= total[i]
                total[i] = 0
                if outpad[i] >= max(strides[i], dil[i]):
                    raise n.unsupported(f"output_shape {out_shape} needs output padding {outpad[i]} "
                                        f"(>= stride {strides[i]})")
        if auto == "SAME_UPPER":
            pads = [t // 2 for t in total] + [t - t // 2 for t in total]
        else:
            pads = [t - t // 2 for t in total] + [t // 2 for t in total]
    else:
        pads = list(n.attr("pads", [0] * (2 * nd)))
    y = n.op("nn.conv2d_transpose")(n.expr(0), n.expr(1), strides=strides, padding=pads, dilation=dil,
                                    groups=group, channels=int(ws[1] * group), kernel_size=kernel,
                                    kernel_layout="IOHW", output_padding=outpad)
    if n.has(2):
        y = n.op("nn.bias_add")(y, n.expr(2), axis=1)
    return y


# -- pooling ------------------------------------------------------------------------
def _pool(n: Node, kind: str, x=None, include_pad: Optional[bool] = None, ceil_counts_window: bool = False):
    """ONNX pooling. ``ceil_counts_window``: with count_include_pad=1, ceil mode's last windows
    divide by the whole window (onnxruntime's QLinearAveragePool) instead of leaving the elements
    past the end padding out of the count (its AveragePool)."""
    xs = n.shape(0)
    if xs is None:
        raise n.unsupported("input rank must be known")
    nd = len(xs) - 2
    if nd not in (1, 2) and not (nd == 3 and have_op(f"nn.{kind}_pool3d")):
        raise n.unsupported(f"{nd}-D pooling (relay-mlir has 1-D and 2-D)")
    if kind == "max" and n.wants_output(1):
        raise n.unsupported("the Indices output is not supported")
    kernel = _window_attr(n, "kernel_shape", nd, None)
    strides = _window_attr(n, "strides", nd)
    dil = _window_attr(n, "dilations", nd)
    ceil = bool(n.attr("ceil_mode", 0))
    if kind == "max":
        n.expect("storage_order", 0, default=0)
    pads = _pads(n, xs[2:], kernel, strides, dil)
    if include_pad is None:
        include_pad = bool(n.attr("count_include_pad", 0)) if kind == "avg" else False
    if x is None:
        x = n.expr(0)
    if ceil and any(d is None for d in xs[2:]):
        return _pool_ceil_runtime(n, kind, x, xs, kernel, strides, dil, pads, include_pad,
                                  ceil_counts_window)
    if ceil:
        # ONNX drops windows that would start in the right padding; with static dims ceil
        # mode changes something only where its last window reads past the end padding
        if any(_ceil_extra(xs[2 + i], kernel[i], strides[i], dil[i], pads[i], pads[nd + i])
               for i in range(nd)):
            return _pool_ceil_static(n, kind, x, xs, kernel, strides, dil, pads, include_pad,
                                     ceil_counts_window)
        ceil = False
    if all(d is not None for d in xs[2:]):
        # end padding that no window reads changes nothing: drop it
        for i in range(nd):
            eff = (kernel[i] - 1) * dil[i] + 1
            out = (xs[2 + i] + pads[i] + pads[nd + i] - eff) // strides[i] + 1
            needed = (out - 1) * strides[i] + eff - xs[2 + i] - pads[i]
            if 0 <= needed < pads[nd + i]:
                pads[nd + i] = needed
    return _pool_op(n, kind, x, xs, kernel, strides, dil, pads, ceil, include_pad)


def _pool_op(n: Node, kind: str, x, xs, kernel, strides, dil, pads, ceil: bool, include_pad: bool):
    """The Relay pooling op for ``nd`` = 1 (through 2-D), 2 or 3 spatial dims."""
    nd = len(xs) - 2
    if nd == 1:
        x = _to_2d(n, xs, x, 2)
        kernel, strides, dil = [1] + kernel, [1] + strides, [1] + dil
        pads = [0, pads[0], 0, pads[1]]
    if nd == 3:
        extra = {} if kind == "max" else {"count_include_pad": include_pad}
        return n.op(f"nn.{kind}_pool3d")(x, pool_size=kernel, strides=strides, dilation=dil, padding=pads,
                                         ceil_mode=ceil, **extra)
    if kind == "max":
        y = n.op("nn.max_pool2d")(x, pool_size=kernel, strides=strides, dilation=dil, padding=pads,
                                  ceil_mode=ceil)
    else:
        y = n.op("nn.avg_pool2d")(x, pool_size=kernel, strides=strides, dilation=dil, padding=pads,
                                  ceil_mode=ceil, count_include_pad=include_pad)
    if nd == 1:
        y = squeeze(n, y, [xs[0], xs[1], 1, None], [2])
    return y


def _ceil_extra(size: int, kernel: int, stride: int, dil: int, lo: int, hi: int) -> int:
    """Elements past the end padding that ONNX's ceil mode reads: its last window (ceil of the
    span over the stride, less a window that would start in the end padding) in floor mode."""
    eff = (kernel - 1) * dil + 1
    span = size + lo + hi - eff
    out = -(-span // stride) + 1
    if (out - 1) * stride >= size + lo:
        out -= 1
    return max(0, (out - 1) * stride + eff - (size + lo + hi))


def _pool_ceil_static(n: Node, kind: str, x, xs, kernel, strides, dil, pads, include_pad: bool,
                      counts_window: bool = False):
    """ceil_mode=1 with a partial last window and static spatial dims: floor mode over the input
    padded at the end by ``_ceil_extra`` elements. Max pooling pads them with the lowest value;
    average pooling pads with zeros and scales each window's mean over its full size by
    ``size / count``, a constant: ``count`` is what onnxruntime divides by (the input elements
    of the window, and its explicit pads with count_include_pad=1, never the ceil extension;
    full windows are unscaled; ``counts_window``: the whole window with count_include_pad=1)."""
    nd = len(xs) - 2
    size = list(xs[2:])
    extras = [_ceil_extra(size[i], kernel[i], strides[i], dil[i], pads[i], pads[nd + i]) for i in range(nd)]
    dt = n.dtype(0)
    if kind == "max":
        low = float(-np.inf) if np.dtype(dt).kind == "f" else float(np.iinfo(dt).min)
        xp = n.op("nn.pad")(x, [[0, 0], [0, 0]] + [[0, e] for e in extras], pad_value=low)
        grown = list(xs[:2]) + [size[i] + extras[i] for i in range(nd)]
        return _pool_op(n, kind, xp, grown, kernel, strides, dil, pads, False, False)
    before, after = pads[:nd], [pads[nd + i] + extras[i] for i in range(nd)]
    xp = n.op("nn.pad")(x, [[0, 0], [0, 0]] + [[before[i], after[i]] for i in range(nd)], pad_value=0.0)
    padded = [size[i] + before[i] + after[i] for i in range(nd)]
    means = _pool_op(n, "avg", xp, list(xs[:2]) + padded, kernel, strides, dil, [0] * (2 * nd), False, True)
    if include_pad and counts_window:
        return means
    mask = np.zeros(padded, np.float64)
    inner = tuple(slice(0, before[i] + size[i] + pads[nd + i]) if include_pad else
                  slice(before[i], before[i] + size[i]) for i in range(nd))
    mask[inner] = 1.0
    counts = mask
    for i in range(nd):  # window sums of the mask along each spatial dim
        eff = (kernel[i] - 1) * dil[i] + 1
        out = (padded[i] - eff) // strides[i] + 1
        taps = [np.take(counts, np.arange(out) * strides[i] + k * dil[i], axis=i) for k in range(kernel[i])]
        counts = np.sum(taps, axis=0)
    full = float(np.prod(kernel))
    scale = np.where(counts > 0, full / np.maximum(counts, 1.0), 0.0).astype(np.float32)
    return n.op("multiply")(means, n.constant(scale.reshape((1, 1) + scale.shape)))


def _pool_ceil_runtime(n: Node, kind: str, x, xs, kernel, strides, dil, pads, include_pad: bool,
                       counts_window: bool = False):
    """ceil_mode=1 with spatial dims known at run time: ONNX's output size (ceil, minus a last
    window that would start in the right padding) is floor mode over the input padded at the
    end by ``extra`` = (out - 1) * stride + window - padded size (0 <= extra < stride) elements,
    computed at run time (``pad_axes``). Max pooling pads with the lowest value; average
    pooling divides the window sums by the window counts (a pooled mask of ones on the input,
    and on the explicit pads too with count_include_pad=1, never on ``extra``), as onnxruntime
    counts them."""
    from ...op import dyn as D
    nd = len(xs) - 2
    i64 = lambda v: n.constant(np.array(v, np.int64))  # noqa: E731
    extras = []
    for i in range(nd):
        if strides[i] == 1:  # ceil and floor agree
            extras.append(None)
            continue
        eff = (kernel[i] - 1) * dil[i] + 1
        s = strides[i]
        d = D.dim(x, xs, 2 + i)
        span = n.op("subtract")(n.op("add")(d, i64(pads[i] + pads[nd + i])), i64(eff))
        cl = n.op("add")(n.op("negative")(n.op("floor_divide")(n.op("negative")(span), i64(s))), i64(1))
        drop = n.op("greater_equal")(n.op("multiply")(n.op("subtract")(cl, i64(1)), i64(s)),
                                     n.op("add")(d, i64(pads[i])))
        cl = n.op("where")(drop, n.op("subtract")(cl, i64(1)), cl)
        extra = n.op("subtract")(n.op("add")(n.op("multiply")(n.op("subtract")(cl, i64(1)), i64(s)), i64(eff)),
                                 n.op("add")(d, i64(pads[i] + pads[nd + i])))
        extras.append(n.op("maximum")(extra, i64(0)))
    if all(e is None for e in extras):
        return _pool_op(n, kind, x, xs, kernel, strides, dil, pads, False, include_pad)

    def padded(data, shape, before, after, value):
        """``data`` padded on the spatial dims by the static ``before[i]``, ``after[i]`` plus
        ``extras[i]`` after (``pad_axes``: a gather, the widths being run-time values)."""
        lo, hi = [None, None], [None, None]
        for i in range(nd):
            if extras[i] is None and before[i] == 0 and after[i] == 0:
                lo.append(None), hi.append(None)
                continue
            lo.append(i64(before[i]))
            hi.append(i64(after[i]) if extras[i] is None else n.op("add")(extras[i], i64(after[i])))
        return D.pad_axes(data, shape, lo, hi, n.constant(np.array(value, dt)), "constant")
    dt = n.dtype(0)
    grown = [None if xs[2 + i] is None or extras[i] is not None else xs[2 + i] for i in range(nd)]
    zero = [0] * nd
    if kind == "max":
        low = -np.inf if np.dtype(dt).kind == "f" else np.iinfo(dt).min
        xp = padded(x, xs, zero, zero, low)
        return _pool_op(n, kind, xp, list(xs[:2]) + grown, kernel, strides, dil, pads, False, False)
    xp = padded(x, xs, pads[:nd], pads[nd:], 0)
    spatial = [None if xs[2 + i] is None else xs[2 + i] + pads[i] + pads[nd + i] for i in range(nd)]
    sums = _pool_op(n, "avg", xp, list(xs[:2]) + [None if g is None else s for g, s in zip(grown, spatial)],
                    kernel, strides, dil, zero * 2, False, True)
    if include_pad and counts_window:  # the whole window counts (QLinearAveragePool)
        return sums
    # the mask: ones over (1, 1, spatial dims) of the input
    dims = [D.dim(x, xs, 2 + i) for i in range(nd)]
    ones = n.op("ones")(n.op("concatenate")([i64([1, 1])] + [n.op("reshape")(d, [1]) for d in dims], axis=0), dt)
    ms = [1, 1] + list(xs[2:])
    if include_pad:
        ones = n.op("nn.pad")(ones, [[0, 0], [0, 0]] + [[pads[i], pads[nd + i]] for i in range(nd)],
                              pad_value=1.0)
        mask = padded(ones, [1, 1] + [None if d is None else d + pads[i] + pads[nd + i]
                                      for i, d in enumerate(xs[2:])], zero, zero, 0)
    else:
        mask = padded(ones, ms, pads[:nd], pads[nd:], 0)
    counts = _pool_op(n, "avg", mask, [1, 1] + [None] * nd, kernel, strides, dil, zero * 2, False, True)
    return n.op("divide")(sums, counts)


@register("MaxPool", since=1)
def _maxpool(n: Node):
    return _pool(n, "max")


@register("LpPool", since=11)
def _lppool(n: Node):
    _float_only(n)
    p = int(n.attr("p", 2))
    if p < 1:
        raise n.unsupported(f"p={p}")
    x = n.expr(0)
    if p == 1:
        t = n.op("abs")(x)
    elif p == 2:
        t = n.op("multiply")(x, x)
    else:
        t = n.op("power")(n.op("abs")(x), n.scalar(float(p)))
    k = 1
    for d in n.attr("kernel_shape"):
        k *= int(d)
    s = n.op("multiply")(_pool(n, "avg", t, include_pad=True), n.scalar(float(k)))
    if p == 1:
        return s
    return n.op("sqrt")(s) if p == 2 else n.op("power")(s, n.scalar(1.0 / p))


@register("AveragePool", since=1)
def _avgpool(n: Node):
    return _pool(n, "avg")


def _spatial_axes(n: Node) -> List[int]:
    return list(range(2, n.rank(0)))


@register("GlobalAveragePool", since=1)
def _global_avg(n: Node):
    return n.op("mean")(n.expr(0), axis=_spatial_axes(n), keepdims=True)


@register("GlobalMaxPool", since=1)
def _global_max(n: Node):
    return n.op("max")(n.expr(0), axis=_spatial_axes(n), keepdims=True)


# -- Gemm / MatMul -----------------------------------------------------------------------
def _transpose2(n: Node, i: int):
    if n.is_const(i):
        return n.constant(np.ascontiguousarray(n.const(i).T))
    return n.op("transpose")(n.expr(i), [1, 0])


def _via_f32(fn):
    """Runs a matmul-like converter (MatMul, Gemm, Conv) in float32 for float16/bfloat16
    operands (accumulating in 16 bits rounds differently from the reference)."""
    def conv(n: Node):
        dt = n.dtype(0)
        if dt not in ("float16", "bfloat16"):
            return fn(n)
        for i in range(len(n.inputs)):
            if n.has(i):
                if n.is_const(i):
                    n.inputs[i] = n.const(i).astype(np.float32)
                else:
                    n.inputs[i] = n.op("cast")(n.inputs[i], "float32")
                if n.in_types[i]:
                    n.in_types[i] = (n.in_types[i][0], "float32")
        return n.op("cast")(fn(n), dt)
    conv.__name__ = fn.__name__
    return conv


register("Conv", since=1)(_via_f32(_conv))


@register("Gemm", since=7)
@_via_f32
def _gemm(n: Node):
    if n.rank(0) != 2 or n.rank(1) != 2:
        raise n.unsupported("Gemm operands must be 2-D")
    alpha, beta = float(n.attr("alpha", 1.0)), float(n.attr("beta", 1.0))
    ta, tb = int(n.attr("transA", 0)), int(n.attr("transB", 0))
    a = _transpose2(n, 0) if ta else n.expr(0)
    b = n.expr(1) if tb else _transpose2(n, 1)       # dense wants [N, K]
    bshape = n.shape(1)
    units = bshape[0] if tb else bshape[1]
    if alpha != 1.0:
        a = n.op("multiply")(a, n.scalar(alpha))
    y = n.op("nn.dense")(a, b, units=None if units is None else int(units))
    if n.has(2):
        c = n.expr(2)
        if beta != 1.0:
            c = n.op("multiply")(c, n.scalar(beta, like=2))
        y = n.op("add")(y, c)
    return y


@register("MatMul", since=1)
@_via_f32
def _matmul(n: Node):
    sa, sb = n.shape(0), n.shape(1)
    if sa is None or sb is None:
        raise n.unsupported("operand ranks must be known")
    a, b = n.expr(0), n.expr(1)
    ra, rb = len(sa), len(sb)
    if ra == 0 or rb == 0:
        raise n.invalid(f"MatMul operands must have rank 1 or more, got {fmt_shape(sa)} and {fmt_shape(sb)}")
    if ra == 1:
        a, sa = unsqueeze(n, a, sa, [0]), (1,) + tuple(sa)
    squeeze_last = False
    if rb == 1:
        if n.is_const(1):
            b = n.constant(n.const(1)[:, None])
        else:
            b = unsqueeze(n, b, sb, [1])
        sb, squeeze_last = tuple(sb) + (1,), True
    ra2, rb2 = len(sa), len(sb)
    if rb2 == 2:
        K, N = sb
        bt = n.constant(np.ascontiguousarray(n.const(1).reshape(K, N).T)) if n.is_const(1) \
            else n.op("transpose")(b, [1, 0])
        lead = list(sa[:-1])
        if ra2 > 2 and sum(d is None for d in lead) > 1:
            # run-time leading dims: nn.dense on the N-d operand (its lowering collapses and
            # restores them from the operand's own dims: no reshapes to check at run time)
            y = n.op("nn.dense")(a, bt, units=None if N is None else int(N))
            out = lead + [N]
            if ra == 1:
                y = squeeze(n, y, out, [len(out) - 2])
                out = out[:-2] + out[-1:]
            if squeeze_last:
                y = squeeze(n, y, out, [len(out) - 1])
            return y
        a2 = a if ra2 == 2 else reshape(n, a, [prod(lead), sa[-1]], sa)
        y = n.op("nn.dense")(a2, bt, units=None if N is None else int(N))
        out = lead + [N]
        if ra2 != 2:
            y = reshape(n, y, out)
    else:
        y, out = _batched_matmul(n, a, b, list(sa), list(sb))
    if ra == 1:
        y = squeeze(n, y, out, [len(out) - 2])
        out = out[:-2] + out[-1:]
    if squeeze_last:
        y = squeeze(n, y, out, [len(out) - 1])
    return y


def _batched_matmul(n: Node, a, b, sa, sb):
    """[..., M, K] x [..., K, N] with numpy broadcasting of the batch dims."""
    ba, bb = list(sa[:-2]), list(sb[:-2])
    nb = max(len(ba), len(bb))
    ba2, bb2 = [1] * (nb - len(ba)) + ba, [1] * (nb - len(bb)) + bb
    out_b = []
    for x, y in zip(ba2, bb2):
        if x is None or y is None:
            if x == 1 or y == 1:
                out_b.append(y if x == 1 else x)
            elif x is None and y is None:
                out_b.append(None)
            else:
                out_b.append(x if x is not None else y)
        elif x == y or y == 1:
            out_b.append(x)
        elif x == 1:
            out_b.append(y)
        else:
            raise n.unsupported(f"batch dims of {fmt_shape(sa)} and {fmt_shape(sb)} do not broadcast")
    out = out_b + [sa[-2], sb[-1]]
    if ba2 == bb2 and len(ba) == len(bb) and any(d is None for d in ba2 + sa[-2:] + sb[-2:]) and \
            have_op("nn.batch_matmul"):
        # run-time batch dims (the same on both sides): flattened with -1, restored from a's dims
        a3 = reshape_dims(n, a, [-1] + dims_of(a, sa)[-2:])
        b3 = reshape_dims(n, b, [-1] + dims_of(b, sb)[-2:])
        y = n.op("nn.batch_matmul")(a3, b3, transpose_a=False, transpose_b=False)
        return reshape_dims(n, y, dims_of(a, sa)[:-1] + dims_of(b, sb)[-1:]), out
    if ba2 == bb2 and all(d is not None for d in ba2) and have_op("nn.batch_matmul"):
        B = prod(ba2)
        a3 = reshape(n, a, [B, sa[-2], sa[-1]], sa)
        b3 = reshape(n, b, [B, sb[-2], sb[-1]], sb)
        y = n.op("nn.batch_matmul")(a3, b3, transpose_a=False, transpose_b=False)
        return reshape(n, y, out), out
    # multiply-and-sum: [..., M, K, 1] * [..., 1, K, N] summed over K
    a4 = unsqueeze(n, a, sa, [len(sa)])
    b4 = unsqueeze(n, b, sb, [len(sb) - 2])
    prod_ = n.op("multiply")(a4, b4)
    return n.op("sum")(prod_, axis=[nb + 1], keepdims=False), out


# -- normalization ----------------------------------------------------------------
@register("BatchNormalization", since=7)
def _batch_norm(n: Node):
    _float_only(n)
    if n.opset < 9 and not n.attr("spatial", 1):
        raise n.unsupported("spatial=0")
    n.ignore("spatial", "momentum", "is_test")
    if n.attr("training_mode", 0):
        raise n.unsupported("training_mode=1")
    for j in range(1, len(n.outputs)):
        if n.wants_output(j):
            raise n.unsupported("running mean/variance outputs (training mode)")
    eps = float(n.attr("epsilon", 1e-5))
    bn = n.op("nn.batch_norm")(n.expr(0), n.expr(1), n.expr(2), n.expr(3), n.expr(4), axis=1,
                               epsilon=eps)
    return bn[0]


def _normalize(n: Node, x, axes: List[int], eps: float):
    """(x - mean) / sqrt(var + eps) over ``axes``; returns (y, mean, inv_std)."""
    mean = n.op("mean")(x, axis=axes, keepdims=True)
    d = n.op("subtract")(x, mean)
    var = n.op("mean")(n.op("multiply")(d, d), axis=axes, keepdims=True)
    std = n.op("sqrt")(n.op("add")(var, n.scalar(eps)))
    inv = n.op("divide")(n.scalar(1.0), std)
    return n.op("divide")(d, std), mean, inv


def _channel_param(n: Node, i: int, rank: int):
    """A per-channel [C] parameter reshaped to broadcast against [N, C, ...]."""
    c = n.shape(i)
    if n.is_const(i):
        return n.constant(n.const(i).reshape((-1,) + (1,) * (rank - 2)))
    return reshape(n, n.expr(i), [c[0]] + [1] * (rank - 2))


@register("InstanceNormalization", since=6)
def _instance_norm(n: Node):
    _float_only(n)
    r = n.rank(0)
    y, _, _ = _normalize(n, n.expr(0), list(range(2, r)), float(n.attr("epsilon", 1e-5)))
    y = n.op("multiply")(y, _channel_param(n, 1, r))
    return n.op("add")(y, _channel_param(n, 2, r))


@register("LayerNormalization", since=17)
def _layer_norm(n: Node):
    _float_only(n)
    r = n.rank(0)
    axis = n.axis("axis", r, -1)
    n.ignore("stash_type")
    y, mean, inv = _normalize(n, n.expr(0), list(range(axis, r)), float(n.attr("epsilon", 1e-5)))
    y = n.op("multiply")(y, n.expr(1))
    if n.has(2):
        y = n.op("add")(y, n.expr(2))
    return [y, mean, inv]


@register("RMSNormalization", since=23)
def _rms_norm(n: Node):
    _float_only(n)
    r = n.rank(0)
    axis = n.axis("axis", r, -1)
    n.ignore("stash_type")
    x = n.expr(0)
    ms = n.op("mean")(n.op("multiply")(x, x), axis=list(range(axis, r)), keepdims=True)
    rms = n.op("sqrt")(n.op("add")(ms, n.scalar(float(n.attr("epsilon", 1e-5)))))
    return n.op("multiply")(n.op("divide")(x, rms), n.expr(1))


@register("GroupNormalization", since=18)
def _group_norm(n: Node):
    _float_only(n)
    xs = n.shape(0)
    if xs is None or any(d is None for d in xs[1:]):
        raise n.unsupported(f"needs static non-batch dims, got {fmt_shape(xs)}")
    if len(xs) < 2:  # (ONNX fuzz seed 20, mutant 26621: an IndexError before)
        raise n.invalid(f"input 0 has shape {fmt_shape(xs)}; GroupNormalization needs rank >= 2")
    G = int(n.attr("num_groups"))
    n.ignore("stash_type")
    eps = float(n.attr("epsilon", 1e-5))
    C = xs[1]
    x3 = n.op("reshape")(n.expr(0), [0, G, -1])
    y, _, _ = _normalize(n, x3, [2], eps)
    r = len(xs)
    if n.opset < 21:  # scale and bias per group
        if not (n.is_const(1) and n.is_const(2)):
            raise n.unsupported("per-group scale/bias (opset 18) must be constants")
        sc = np.repeat(n.const(1), C // G)
        bi = np.repeat(n.const(2), C // G)
    else:
        sc = bi = None
    y = n.op("reshape")(y, [0] + list(xs[1:]))
    s = n.constant(sc.reshape((-1,) + (1,) * (r - 2))) if sc is not None else _channel_param(n, 1, r)
    b = n.constant(bi.reshape((-1,) + (1,) * (r - 2))) if bi is not None else _channel_param(n, 2, r)
    return n.op("add")(n.op("multiply")(y, s), b)


@register("MeanVarianceNormalization", since=9)
def _mvn(n: Node):
    _float_only(n)
    axes = [int(a) for a in n.attr("axes", [0, 2, 3])]
    x = n.expr(0)
    mean = n.op("mean")(x, axis=axes, keepdims=True)
    ex2 = n.op("mean")(n.op("multiply")(x, x), axis=axes, keepdims=True)
    var = n.op("subtract")(ex2, n.op("multiply")(mean, mean))
    std = n.op("add")(n.op("sqrt")(var), n.scalar(1e-9))
    return n.op("divide")(n.op("subtract")(x, mean), std)


@register("LpNormalization", since=1)
def _lp_norm(n: Node):
    _float_only(n)
    axis = n.axis("axis", n.rank(0), -1)
    p = n.expect("p", 1, 2, default=2)
    x = n.expr(0)
    if p == 2:
        norm = n.op("sqrt")(n.op("sum")(n.op("multiply")(x, x), axis=[axis], keepdims=True))
    else:
        absx = n.op("maximum")(x, n.op("negative")(x))
        norm = n.op("sum")(absx, axis=[axis], keepdims=True)
    # ONNX divides by 1 where the norm is 0
    zero = n.op("equal")(norm, n.scalar(0.0))
    norm = n.op("where")(zero, n.scalar(1.0), norm)
    return n.op("divide")(x, norm)


@register("LRN", since=1)
def _lrn(n: Node):
    _float_only(n)
    xs = n.shape(0)
    if xs is None or len(xs) != 4 or any(d is None for d in xs[1:]):
        raise n.unsupported(f"needs a 4-D input with static C, H, W, got {fmt_shape(xs)}")
    size = int(n.attr("size"))
    alpha, beta, bias = float(n.attr("alpha", 1e-4)), float(n.attr("beta", 0.75)), float(n.attr("bias", 1.0))
    x = n.expr(0)
    sq = n.op("multiply")(x, x)
    _, C, H, W = xs
    s4 = n.op("reshape")(sq, [0, 1, C, H * W])
    lo, hi = (size - 1) // 2, size - 1 - (size - 1) // 2
    avg = n.op("nn.avg_pool2d")(s4, pool_size=[size, 1], strides=[1, 1], padding=[lo, 0, hi, 0],
                                count_include_pad=True)
    ssum = n.op("reshape")(avg, [0, C, H, W])  # = sum / size
    base = n.op("add")(n.scalar(bias), n.op("multiply")(n.scalar(alpha), ssum))
    if beta == 1.0:
        den = base
    elif beta == 0.5:
        den = n.op("sqrt")(base)
    else:
        den = n.op("exp")(n.op("multiply")(n.scalar(beta), n.op("log")(base)))
    return n.op("divide")(x, den)


# -- softmax -------------------------------------------------------------------------
def _softmax(n: Node, log: bool):
    r = n.rank(0)
    x = n.expr(0)
    if n.opset >= 13:
        axis = n.axis("axis", r, -1)
        if n.dtype(0) == "bfloat16":
            # the reference rounds every step to bfloat16 and sums in order; our result
            # differed from it in the last bit for a fifth of the elements
            raise n.unsupported("bfloat16 Softmax/LogSoftmax (not bit-exact with the reference yet)")
        if not log and n.dtype(0) == "float16":
            return _softmax16(n, x, axis)
        y = n.op("nn.softmax")(x, axis=axis)
        return _log(n, y, x, axis) if log else y
    axis = n.axis("axis", r, 1)
    if axis == r - 1:
        y = n.op("nn.softmax")(x, axis=-1)
        return _log(n, y, x, -1) if log else y
    xs = n.shape(0)
    inner = prod(xs[axis:])
    if inner is None:
        raise n.unsupported(f"opset<13 softmax over axes {axis}.. needs static dims, got {fmt_shape(xs)}")
    x2 = n.op("reshape")(x, [-1, inner])
    y = n.op("nn.softmax")(x2, axis=-1)
    if log:
        y = _log(n, y, x2, -1)
    if sum(d is None for d in xs) > 1:
        raise n.unsupported("reshape back needs at most one unknown dim")
    return reshape(n, y, list(xs), None)


def _softmax16(n: Node, x, axis: int):
    """float16 softmax as the reference computes it: ``exp(x - max)`` rounded to 16 bits,
    its sum accumulated in float32 (then rounded), the quotient rounded (a 16-bit
    accumulator rounds differently)."""
    dt = n.dtype(0)
    m = n.op("max")(x, axis=[axis], keepdims=True)
    # exp in float32, rounded to 16 bits (as numpy computes a 16-bit exp)
    e = n.op("cast")(n.op("exp")(n.op("cast")(n.op("subtract")(x, m), "float32")), dt)
    s = n.op("sum")(n.op("cast")(e, "float32"), axis=[axis], keepdims=True)
    return n.op("divide")(e, n.op("cast")(s, dt))


def _log(n: Node, y, x, axis: int):
    if have_op("nn.log_softmax"):
        return n.op("nn.log_softmax")(x, axis=axis)
    if have_op("max"):
        m = n.op("max")(x, axis=[axis], keepdims=True)
        d = n.op("subtract")(x, m)
        lse = n.op("log")(n.op("sum")(n.op("exp")(d), axis=[axis], keepdims=True))
        return n.op("subtract")(d, lse)
    return n.op("log")(y)


@register("Softmax", since=1)
def _softmax_c(n: Node):
    return _softmax(n, False)


@register("LogSoftmax", since=1)
def _log_softmax_c(n: Node):
    return _softmax(n, True)


# -- Flatten / Dropout -------------------------------------------------------------
@register("Flatten", since=1)
def _flatten(n: Node):
    xs = n.shape(0)
    if xs is None:
        raise n.unsupported("input rank must be known")
    r = len(xs)
    axis = n.attr("axis", 1)
    if not -r <= axis <= r:  # Flatten's axis may also be r (all dims on the left)
        raise n.invalid(f"attribute 'axis': axis {axis} is out of range for a rank-{r} tensor "
                        f"(allowed {-r}..{r})")
    if axis < 0:
        axis += r
    left, right = prod(xs[:axis]), prod(xs[axis:])
    if left is not None and right is not None:
        return n.op("reshape")(n.expr(0), [left, right])
    if axis == 1 and r >= 2 and right is not None:
        return n.op("reshape")(n.expr(0), [0, right]) if r == 2 else n.op("nn.batch_flatten")(n.expr(0))
    if axis == 1:
        return n.op("nn.batch_flatten")(n.expr(0))
    if left is not None:
        return n.op("reshape")(n.expr(0), [left, -1])
    if right is not None:
        return n.op("reshape")(n.expr(0), [-1, right])
    raise n.unsupported(f"flattening {fmt_shape(xs)} at axis {axis} needs static dims")


@register("Dropout", since=7)
def _dropout(n: Node):
    n.ignore("ratio", "seed", "is_test")
    if n.has(2):
        if not n.is_const(2) or bool(n.const_scalar(2)):
            raise n.unsupported("training_mode (random dropout) is not supported")
    out = [n.expr(0)]
    if n.wants_output(1):
        out.append(n.constant(np.ones(n.static_shape(0), dtype=bool)))
    return out


def _block_shape(n: Node, x, xs, entries):
    """A 1-d int64 shape from ``entries``: an int, or ``(axis, mul, div)`` = dim ``axis`` of
    ``x`` (static shape ``xs``) times ``mul`` divided by ``div`` (exactly: checked by the caller)."""
    from ...op import dyn as D
    parts = []
    for e in entries:
        if isinstance(e, tuple):
            a, mul, div = e
            if xs[a] is not None:
                parts.append(n.constant(np.array([xs[a] * mul // div], np.int64)))
                continue
            d = D.dim(x, xs, a)
            if mul != 1:
                d = n.op("multiply")(d, n.constant(np.array(mul, np.int64)))
            if div != 1:
                d = n.op("floor_divide")(d, n.constant(np.array(div, np.int64)))
            parts.append(n.op("reshape")(d, [1]))
        else:
            parts.append(n.constant(np.array([int(e)], np.int64)))
    return n.op("concatenate")(parts, axis=0)


def _blocks_runtime(n: Node, x, xs, axes, b: int, what: str):
    """``x``, made to depend on a run-time check that its dims ``axes`` unknown at import time
    are multiples of ``b`` (static ones are checked now)."""
    from ...op import dyn as D
    ok = None
    for a in axes:
        if xs[a] is not None:
            if xs[a] % b:
                raise n.invalid(f"{what}: dim {a} of the input ({xs[a]}) is not a multiple of {b}")
            continue
        c = n.op("equal")(n.op("floor_mod")(D.dim(x, xs, a), n.constant(np.array(b, np.int64))),
                          n.constant(np.array(0, np.int64)))
        ok = c if ok is None else n.op("logical_and")(ok, c)
    return x if ok is None else depend(n, x, runtime_check(n, ok))


def _depth_to_space_runtime(n: Node, xs, b: int, mode: str):
    if len(xs) != 4:
        raise n.invalid(f"input 0 must have rank 4, got {fmt_shape(xs)}")
    x = _blocks_runtime(n, n.expr(0), xs, [1], b * b, "DepthToSpace")
    c = (1, 1, b * b)
    if mode == "DCR":
        t = n.op("reshape")(x, _block_shape(n, x, xs, [(0, 1, 1), b, b, c, (2, 1, 1), (3, 1, 1)]))
        t = n.op("transpose")(t, [0, 3, 4, 1, 5, 2])
    else:
        t = n.op("reshape")(x, _block_shape(n, x, xs, [(0, 1, 1), c, b, b, (2, 1, 1), (3, 1, 1)]))
        t = n.op("transpose")(t, [0, 1, 4, 2, 5, 3])
    return n.op("reshape")(t, _block_shape(n, x, xs, [(0, 1, 1), c, (2, b, 1), (3, b, 1)]))


def _space_to_depth_runtime(n: Node, xs, b: int):
    if len(xs) != 4:
        raise n.invalid(f"input 0 must have rank 4, got {fmt_shape(xs)}")
    x = _blocks_runtime(n, n.expr(0), xs, [2, 3], b, "SpaceToDepth")
    t = n.op("reshape")(x, _block_shape(n, x, xs, [(0, 1, 1), (1, 1, 1), (2, 1, b), b, (3, 1, b), b]))
    t = n.op("transpose")(t, [0, 3, 5, 1, 2, 4])
    return n.op("reshape")(t, _block_shape(n, x, xs, [(0, 1, 1), (1, b * b, 1), (2, 1, b), (3, 1, b)]))


@register("DepthToSpace", since=1)
def _depth_to_space(n: Node):
    xs = n.shape(0)
    if xs is not None and any(d is None for d in xs):
        b = int(n.attr("blocksize"))
        if b < 1:
            raise n.invalid(f"attribute 'blocksize'={b} must be at least 1")
        return _depth_to_space_runtime(n, xs, b, n.expect("mode", "DCR", "CRD", default="DCR"))
    N, C, H, W = n.static_shape(0)
    b = int(n.attr("blocksize"))
    if b < 1:
        raise n.invalid(f"attribute 'blocksize'={b} must be at least 1")
    mode = n.expect("mode", "DCR", "CRD", default="DCR")
    x = n.expr(0)
    if mode == "DCR":
        t = n.op("reshape")(x, [N, b, b, C // (b * b), H, W])
        t = n.op("transpose")(t, [0, 3, 4, 1, 5, 2])
    else:
        t = n.op("reshape")(x, [N, C // (b * b), b, b, H, W])
        t = n.op("transpose")(t, [0, 1, 4, 2, 5, 3])
    return n.op("reshape")(t, [N, C // (b * b), H * b, W * b])


@register("SpaceToDepth", since=1)
def _space_to_depth(n: Node):
    xs = n.shape(0)
    if xs is not None and any(d is None for d in xs):
        b = int(n.attr("blocksize"))
        if b < 1:
            raise n.invalid(f"attribute 'blocksize'={b} must be at least 1")
        return _space_to_depth_runtime(n, xs, b)
    N, C, H, W = n.static_shape(0)
    b = int(n.attr("blocksize"))
    if b < 1:
        raise n.invalid(f"attribute 'blocksize'={b} must be at least 1")
    t = n.op("reshape")(n.expr(0), [N, C, H // b, b, W // b, b])
    t = n.op("transpose")(t, [0, 3, 5, 1, 2, 4])
    return n.op("reshape")(t, [N, C * b * b, H // b, W // b])
