"""Image ONNX ops: Resize, Upsample."""
from __future__ import annotations

import numpy as np

from ._base import Node, fmt_shape, register


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


@register("Resize", since=11)
def _resize11(n: Node):
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


@register("Resize", since=10)
def _resize10(n: Node):
    mode = n.attr("mode", "nearest")
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
    scales = [float(s) for s in n.const(1, "scales")]
    return _resize(n, scales, None, mode, "asymmetric", "floor", -0.75, 0, 0.0)
