"""Tensor operators TorchScript keeps as single ATen ops (PyTorch's definitions):

* ``upsample_nearest2d``: ``out[i] = in[floor(i * in_size / out_size)]``;
  ``upsample_bilinear2d``: half-pixel centres, or corners aligned with
  ``align_corners`` (the output size is the op's, computed by PyTorch); scripted
  ``F.interpolate`` (``aten::__interpolate``) with mode nearest or bilinear;
* ``index`` with one index tensor (``x[:, idx]``): ``take`` along that dim;
* ``topk(x, k, dim, largest, sorted)`` -> (values, int64 indices);
* ``new_zeros`` / ``new_ones`` / ``new_full`` / ``new_empty`` (zeros): constants;
* ``linalg_vector_norm(x, ord, dim, keepdim)`` for ord 1, 2, inf;
* ``instance_norm`` with the input's statistics (batch norm with running ones otherwise);
* ``einsum(equation, tensors)``; ``pixel_shuffle`` (``depth_to_space``, CRD order);
* ``copy_``/``fill_``: the values written (``_views`` writes them into the target).
"""
from __future__ import annotations

import math
from typing import Tuple

import numpy as np

from ... import expr as E
from ... import op
from ...op import nn
from ..torch import _Ctx, _TV, _axis
from ._registry import register


@register("upsample_nearest2d", "upsample_bilinear2d", "__interpolate")
def _upsample(c: _Ctx) -> _TV:
    """``aten::__interpolate`` is what scripted ``F.interpolate`` becomes after TVM's graph
    preparation (``_jit_pass_onnx_function_substitution``); its ``mode`` picks the kernel."""
    x = c.tv(c.a["input"])
    shape, _ = c.out()
    packet = c.node.target._schema.name.split("::")[-1]
    mode = {"upsample_nearest2d": "nearest", "upsample_bilinear2d": "bilinear"}.get(packet, c.a.get("mode"))
    if x.ndim != 4 or mode not in ("nearest", "bilinear"):
        raise c.unsupported(f"mode '{mode}' on a {x.ndim}-d input (nearest and bilinear on 4-d are supported)")
    if mode == "nearest":
        y = op.image.resize2d(x.expr, shape[2:], method="nearest_neighbor",
                              coordinate_transformation_mode="asymmetric", rounding_method="floor")
    else:
        cmode = "align_corners" if c.a.get("align_corners") else "half_pixel"
        y = op.image.resize2d(x.expr, shape[2:], method="linear", coordinate_transformation_mode=cmode)
    return c.result(y)


@register("index")
def _index(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    given = [(d, i) for d, i in enumerate(c.a["indices"]) if i is not None]
    if len(given) != 1:
        raise c.unsupported(f"indexing with {len(given)} index tensors (only one is supported)")
    dim, idx = given[0]
    it = c.tv(idx)
    if it.dtype == "bool":
        raise c.unsupported("boolean mask indexing (the result's size is data-dependent)")
    return c.result(op.take(x.expr, it.expr, axis=dim, mode="fast"))


@register("topk")
def _topk(c: _Ctx) -> Tuple[_TV, _TV]:
    x = c.tv(c.a["self"])
    axis = _axis(int(c.a.get("dim", -1)), x.ndim)
    vals, idx = op.topk(x.expr, k=int(c.a["k"]), axis=axis, ret_type="both",
                        is_ascend=not c.a.get("largest", True), dtype="int64")
    (s0, d0), (s1, d1) = c.out(0), c.out(1)
    return _TV(vals, s0, d0), _TV(idx, s1, d1)


@register("new_zeros", "new_ones", "new_full", "new_empty")
def _new_const(c: _Ctx) -> _TV:
    shape, dtype = c.out()
    packet = c.node.target._schema.name.split("::")[-1]
    value = {"new_zeros": 0, "new_ones": 1, "new_empty": 0}.get(packet, c.a.get("fill_value"))
    if not isinstance(value, (int, float, bool)):
        raise c.unsupported("a tensor fill value is not supported")
    return c.result(E.Constant(np.full(shape, value, dtype)))


@register("linalg_vector_norm")
def _vector_norm(c: _Ctx) -> _TV:
    _, dtype = c.out()
    x = c.tv(c.a["self"], dtype)
    dims = c.a.get("dim")
    axis = None if dims is None else [_axis(int(d), x.ndim) for d in ([dims] if isinstance(dims, int) else dims)]
    keep = bool(c.a.get("keepdim", False))
    order = float(c.a.get("ord", 2))
    if order == 2:
        return c.result(op.sqrt(op.sum(x.expr * x.expr, axis=axis, keepdims=keep)))
    if order == 1:
        return c.result(op.sum(op.abs(x.expr), axis=axis, keepdims=keep))
    if order == math.inf:
        return c.result(op.max(op.abs(x.expr), axis=axis, keepdims=keep))
    raise c.unsupported(f"ord={order} is not supported (1, 2 and inf are)")


@register("instance_norm")
def _instance_norm(c: _Ctx) -> _TV:
    a = c.a
    x = c.tv(a["input"])
    ones = lambda v, fill: c.ex(v) if v is not None else E.Constant(np.full((x.shape[1],), fill, x.dtype))  # noqa: E731
    gamma, beta = ones(a.get("weight"), 1.0), ones(a.get("bias"), 0.0)
    if a.get("use_input_stats", True):
        return c.result(nn.instance_norm(x.expr, gamma, beta, axis=1, epsilon=float(a["eps"])))
    return c.result(nn.batch_norm(x.expr, gamma, beta, c.ex(a["running_mean"]), c.ex(a["running_var"]),
                                  axis=1, epsilon=float(a["eps"]))[0])


@register("einsum")
def _einsum(c: _Ctx) -> _TV:
    _, dtype = c.out()
    return c.result(op.einsum([c.ex(t, dtype) for t in c.a["tensors"]], c.a["equation"]))


@register("pixel_shuffle")
def _pixel_shuffle(c: _Ctx) -> _TV:
    """``out[n, c, h*r + i, w*r + j] = in[n, c*r*r + i*r + j, h, w]``: ``depth_to_space`` CRD."""
    x = c.tv(c.a["self"])
    if x.ndim != 4:
        raise c.unsupported("only 4-D inputs are supported")
    return c.result(nn.depth_to_space(x.expr, int(c.a["upscale_factor"]), mode="CRD"))


@register("copy_", "copy")
def _copy(c: _Ctx) -> _TV:
    """``self.copy_(src)``: ``src`` broadcast to ``self``'s shape in ``self``'s dtype (the
    write into ``self`` is the importer's, ``_views``)."""
    shape, dtype = c.out()
    src = c.tv(c.a["src"], dtype)
    return c.result(src.expr if src.shape == shape else op.broadcast_to(src.expr, shape))


@register("fill_", "fill")
def _fill(c: _Ctx) -> _TV:
    shape, dtype = c.out()
    value = c.tv(c.a["value"], dtype)
    return c.result(op.broadcast_to(value.expr, shape))
