"""RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR (NHWC, the output size a constant).

``align_corners`` maps to Relay's ``align_corners`` coordinates, ``half_pixel_centers``
to ``half_pixel`` (nearest: rounding half up), otherwise ``asymmetric`` (nearest:
floor), as TVM 0.19's importer does. Quantized nearest-neighbour resizing moves the
integers unchanged; quantized bilinear resizing (TFLite interpolates in its own
fixed point) is refused.
"""
from __future__ import annotations

from ... import expr as _expr
from ... import op as _op
from ._base import Op, register

_OPTIONS = {"RESIZE_BILINEAR": ("ResizeBilinearOptions", "linear"),
            "RESIZE_NEAREST_NEIGHBOR": ("ResizeNearestNeighborOptions", "nearest_neighbor")}


@register(*_OPTIONS)
def resize(op: Op) -> _expr.Expr:
    kind, method = _OPTIONS[op.name]
    opts = op.options(kind)
    align = bool(opts.AlignCorners()) if opts is not None else False
    half = bool(opts.HalfPixelCenters()) if opts is not None else False
    if method == "linear" and op.quantized:
        raise op.unsupported("quantized RESIZE_BILINEAR is not supported (float, or nearest neighbour)")
    size = [int(v) for v in op.const(1).reshape(-1)]
    if len(size) != 2:
        raise op.invalid(f"the size (input 1) must have 2 elements, got {size}", op.inputs[1])
    mode = "half_pixel" if half else "align_corners" if align else "asymmetric"
    rounding = ""
    if method == "nearest_neighbor":
        rounding = "round_prefer_ceil" if half and not align else "round" if align else "floor"
    return _op.image.resize2d(op.expr(0), size, layout="NHWC", method=method,
                              coordinate_transformation_mode=mode, rounding_method=rounding)
