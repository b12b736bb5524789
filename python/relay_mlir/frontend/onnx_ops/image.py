"""Image ONNX ops: Resize, Upsample."""
from __future__ import annotations

import numpy as np

from ...op import dyn as D
from ..common import UnsupportedError
from ._base import Node, fmt_shape, register

_METHODS = {"nearest": "nearest_neighbor", "linear": "linear", "cubic": "cubic"}


def _resize(n: Node, scales, sizes, mode: str, coord: str, nearest_mode: str, cubic_a: float,
            exclude: int, extrapolation: float):
    xs = n.shape(0)
    if xs is None or len(xs) != 4:
        raise n.unsupported(f"only 4-D (NCHW) resize is supported, got {fmt_shape(xs)}")
    if sizes is None:
        if scales is None:
            raise n.unsupported("neither scales nor sizes given")
        if len(scales) != 4 or scales[0] != 1 or scales[1] != 1:
            raise n.unsupported(f"scales {list(scales)} must keep N and C")
        if any(d is None for d in xs[2:]):
            raise n.unsupported("scales on unknown spatial dims")
        sizes = [int(np.floor(xs[2 + i] * scales[2 + i])) for i in range(2)]
        for i in range(2):
            # Relay's resize maps coordinates with out/in; ONNX with the given scale
            if sizes[i] != xs[2 + i] * scales[2 + i] and coord not in ("align_corners",):
                raise n.unsupported(f"scale {scales[2 + i]} does not give a whole output size "
                                    f"for dim {xs[2 + i]}")
    else:
        sizes = [int(s) for s in sizes]
        if len(sizes) != 4 or (xs[0] is not None and sizes[0] != xs[0]) or (xs[1] is not None and sizes[1] != xs[1]):
            raise n.unsupported(f"sizes {sizes} must keep N and C")
        sizes = sizes[2:]
    method = {"nearest": "nearest_neighbor", "linear": "linear", "cubic": "cubic"}.get(mode)
    if method is None:
        raise n.unsupported(f"mode {mode!r}")
    if coord == "tf_crop_and_resize":
        raise n.unsupported("coordinate_transformation_mode tf_crop_and_resize")
    rounding = {"round_prefer_floor": "round_prefer_floor", "round_prefer_ceil": "round_prefer_ceil",
                "floor": "floor", "ceil": "ceil"}[nearest_mode] if method == "nearest_neighbor" else ""
    return n.op("image.resize2d")(n.expr(0), size=sizes, layout="NCHW", method=method,
                                  coordinate_transformation_mode=coord, rounding_method=rounding,
                                  cubic_alpha=cubic_a, cubic_exclude=exclude,
                                  extrapolation_value=extrapolation)


def _resize_composed(n: Node, mode: str, coord: str, nearest_mode: str, cubic_a: float, exclude: int,
                     extrap: float, axes, policy: str, scales_i, sizes_i, roi_i, antialias: bool = False):
    """Resize by ONNX's rules, one axis at a time (``op.dyn.resize_axis``: gathers of the
    neighbouring rows and their weights), with scales/sizes/roi read at run time (or constant):
    the output sizes are computed in the program and checked (no negative size, at most 2^40
    elements)."""
    xs = n.shape(0)
    if xs is None:
        raise n.unsupported("the input rank is unknown")
    r = len(xs)
    axes = list(range(r)) if axes is None else list(axes)
    k = len(axes)
    method = _METHODS.get(mode)
    if method is None:
        raise n.unsupported(f"mode {mode!r}")
    if method != "nearest_neighbor" and np.dtype(n.dtype(0)).kind != "f":
        raise n.unsupported(f"{mode} resize of {n.dtype(0)} data")
    x = n.expr(0)
    f64 = "float64"

    def vec(i, dt, what):
        s = n.shape(i)
        if s is None or len(s) != 1 or (s[0] is not None and s[0] != (2 * k if what == "roi" else k)):
            raise n.invalid(f"input {i} ({what}) of shape {fmt_shape(s)} does not match {k} axes")
        v = n.expr(i)
        return v if n.dtype(i) == dt else n.op("cast")(v, dt)
    ins = [D.dim(x, xs, a) for a in axes]
    in_f = [n.op("cast")(d, f64) for d in ins]
    const_scales = None
    if sizes_i is not None:
        sz = vec(sizes_i, "int64", "sizes")
        outs = [D.entry(sz, j) for j in range(k)]
        scales = [n.op("divide")(n.op("cast")(o, f64), f) for o, f in zip(outs, in_f)]
        if policy in ("not_larger", "not_smaller"):
            s = scales[0]
            for t in scales[1:]:
                s = n.op("minimum" if policy == "not_larger" else "maximum")(s, t)
            scales = [s] * k
            half = n.constant(np.array(0.5, f64))
            outs = [n.op("cast")(n.op("floor")(n.op("add")(n.op("multiply")(s, f), half)), "int64")
                    for f in in_f]
        elif policy != "stretch":
            raise n.invalid(f"keep_aspect_ratio_policy {policy!r}")
    else:
        if n.is_const(scales_i):
            const_scales = [float(v) for v in n.const(scales_i).reshape(-1)]
        sc = vec(scales_i, f64, "scales")
        scales = [D.entry(sc, j) for j in range(k)]
        outs = [n.op("cast")(n.op("floor")(n.op("multiply")(s, f)), "int64") for s, f in zip(scales, in_f)]
    # the whole result checked: no negative size, at most 2^40 elements
    full = [D.dim(x, xs, a) for a in range(r)]
    for j, a in enumerate(axes):
        full[a] = outs[j]
    full = D.checked_sizes(full)
    outs = [full[a] for a in axes]
    rois = [None] * k
    if coord == "tf_crop_and_resize":
        if roi_i is None:
            raise n.invalid("tf_crop_and_resize without a roi")
        rv = vec(roi_i, f64, "roi")
        rois = [(D.entry(rv, j), D.entry(rv, k + j)) for j in range(k)]
    y = x
    for j, a in enumerate(axes):
        if const_scales is not None and const_scales[j] == 1.0 and coord != "tf_crop_and_resize":
            continue  # an identity axis (exact for every mode)
        c, outside = D.onnx_coords(coord, ins[j], outs[j], scales[j], rois[j])
        y = D.resize_axis(y, r, a, ins[j], outs[j], c, method, nearest_mode, cubic_a, bool(exclude), outside,
                          extrap, antialias=scales[j] if antialias and method != "nearest_neighbor" else None)
    return y


def _nonempty(n: Node, i: int) -> bool:
    """Input ``i`` is given and not an empty tensor (ONNX's "absent" scales)."""
    if not n.has(i):
        return False
    if n.is_const(i):
        return n.const(i).size > 0
    s = n.shape(i)
    return not (s is not None and len(s) == 1 and s[0] == 0)


_RESIZE_CHOICES = {
    "mode": ("nearest", "linear", "cubic"),
    "coordinate_transformation_mode": ("half_pixel", "half_pixel_symmetric", "pytorch_half_pixel",
                                       "align_corners", "asymmetric", "tf_crop_and_resize",
                                       "tf_half_pixel_for_nn"),
    "nearest_mode": ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil"),
    "keep_aspect_ratio_policy": ("stretch", "not_larger", "not_smaller"),
}


def _check_resize_attrs(n: Node) -> None:
    """String attributes must name one of the schema's choices (an unknown one reached the
    coordinate code as a ValueError: ONNX fuzz seed 20, mutant 5049)."""
    for name, choices in _RESIZE_CHOICES.items():
        if n.has_attr(name) and n.attr(name) not in choices:
            raise n.invalid(f"attribute '{name}' is {n.attr(name)!r}, expected one of {', '.join(choices)}")


@register("Resize", since=11)
def _resize11(n: Node):
    _check_resize_attrs(n)
    try:
        return _resize11_static(n)
    except UnsupportedError:
        # run-time scales/sizes/roi, or what the static image.resize2d does not cover
        # (tf_crop_and_resize, scales giving fractional sizes, other ranks, aspect policies)
        antialias = bool(n.opset >= 18 and n.has_attr("antialias") and n.attr("antialias"))
        mode = n.attr("mode", "nearest")
        coord = n.attr("coordinate_transformation_mode", "half_pixel")
        nearest_mode = n.attr("nearest_mode", "round_prefer_floor")
        axes = None
        if n.opset >= 18 and n.has_attr("axes"):
            xs = n.shape(0)
            if xs is None:
                raise
            axes = n.check_axes(n.attr("axes"), len(xs), "attribute 'axes'")
        policy = n.attr("keep_aspect_ratio_policy", "stretch") if n.opset >= 18 else "stretch"
        sizes_i = 3 if _nonempty(n, 3) else None
        scales_i = 2 if sizes_i is None and _nonempty(n, 2) else None
        if sizes_i is None and scales_i is None:
            raise
        roi_i = 1 if _nonempty(n, 1) else None
        return _resize_composed(n, mode, coord, nearest_mode, float(n.attr("cubic_coeff_a", -0.75)),
                                int(n.attr("exclude_outside", 0)), float(n.attr("extrapolation_value", 0.0)),
                                axes, policy, scales_i, sizes_i, roi_i, antialias)


def _resize11_static(n: Node):
    mode = n.attr("mode", "nearest")
    coord = n.attr("coordinate_transformation_mode", "half_pixel")
    nearest_mode = n.attr("nearest_mode", "round_prefer_floor")
    cubic_a = float(n.attr("cubic_coeff_a", -0.75))
    exclude = int(n.attr("exclude_outside", 0))
    extrap = float(n.attr("extrapolation_value", 0.0))
    if n.opset >= 18:
        if n.has_attr("antialias") and n.attr("antialias"):
            raise n.unsupported("antialias=1")
        n.expect("keep_aspect_ratio_policy", "stretch", default="stretch")
    axes = n.check_axes(n.attr("axes"), 4, "attribute 'axes'") if n.opset >= 18 and n.has_attr("axes") else None
    if any(n.has(i) and not n.is_const(i) for i in (1, 2, 3)):
        raise n.unsupported("scales/sizes/roi known only at run time")
    scales = n.const(2, "scales") if n.has(2) and n.const(2, "scales").size else None
    sizes = n.const(3, "sizes") if n.has(3) else None
    if scales is not None:
        scales = [float(s) for s in scales]
    if axes is not None:
        if len(set(axes)) != len(axes):
            raise n.unsupported(f"axes {axes}")
        xs = n.shape(0) or (None,) * 4
        if scales is not None:
            full = [1.0] * 4
            for a, v in zip(axes, scales):
                full[a] = v
            scales = full
        if sizes is not None:
            full = list(xs)
            for a, v in zip(axes, sizes):
                full[a] = int(v)
            if any(d is None for d in full):
                raise n.unsupported("sizes with axes on unknown dims")
            sizes = full
    return _resize(n, scales, sizes, mode, coord, nearest_mode, cubic_a, exclude, extrap)


def _scales_input(n: Node, mode: str):
    """Resize-10/Upsample-9 with scales known only at run time (asymmetric, nearest floor)."""
    if not n.is_const(1):
        return _resize_composed(n, mode, "asymmetric", "floor", -0.75, 0, 0.0, None, "stretch", 1, None, None)
    return None


@register("Resize", since=10)
def _resize10(n: Node):
    mode = n.attr("mode", "nearest")
    y = _scales_input(n, mode)
    if y is not None:
        return y
    scales = [float(s) for s in n.const(1, "scales")]
    return _resize(n, scales, None, mode, "asymmetric", "floor", -0.75, 0, 0.0)


@register("Upsample", since=7)
def _upsample7(n: Node):
    mode = n.attr("mode", "nearest")
    scales = [float(s) for s in n.attr("scales")]
    return _resize(n, scales, None, mode, "asymmetric", "floor", -0.75, 0, 0.0)


@register("Upsample", since=9)
def _upsample9(n: Node):
    mode = n.attr("mode", "nearest")
    y = _scales_input(n, mode)
    if y is not None:
        return y
    scales = [float(s) for s in n.const(1, "scales")]
    return _resize(n, scales, None, mode, "asymmetric", "floor", -0.75, 0, 0.0)
