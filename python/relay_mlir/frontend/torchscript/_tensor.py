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
* ``adaptive_avg_pool1d``, ``cosine_similarity``, ``pairwise_distance``, ``bilinear``;
* ``copy_``/``fill_``: the values written (``_views`` writes them into the target);
* ``flatten``/``view``/``reshape`` holding no example size (``relay.Any()`` dims).
"""
from __future__ import annotations

import math
from typing import Tuple

import numpy as np

from ... import expr as E
from ... import op
from ...op import nn
from ..torch_ops._base import _Ctx, _TV, _axis
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


@register("adaptive_avg_pool1d")
def _adaptive_avg_pool1d(c: _Ctx) -> _TV:
    """[N, C, L] pooled as [N, C, 1, L] to (1, out) by ``adaptive_avg_pool2d``."""
    x = c.tv(c.a["self"])
    shape, _ = c.out()
    if x.ndim != 3:
        raise c.unsupported("only 3-D inputs are supported")
    y = nn.adaptive_avg_pool2d(op.reshape(x.expr, (x.shape[0], x.shape[1], 1, x.shape[2])),
                               output_size=(1, shape[-1]))
    return c.result(op.reshape(y, shape))


@register("cosine_similarity")
def _cosine_similarity(c: _Ctx) -> _TV:
    """``sum(x1 / max(|x1|, eps) * x2 / max(|x2|, eps), dim)`` (ATen 2.x: each norm clamped)."""
    _, dtype = c.out()
    x1, x2 = c.tv(c.a["x1"], dtype), c.tv(c.a["x2"], dtype)
    shape = np.broadcast_shapes(x1.shape, x2.shape)
    dim = _axis(int(c.a.get("dim", 1)), len(shape))
    eps = E.Constant(np.array(float(c.a.get("eps", 1e-8)), dtype))

    def unit(t: _TV) -> E.Expr:
        norm = op.sqrt(op.sum(t.expr * t.expr, axis=[_axis(dim - (len(shape) - t.ndim), t.ndim)], keepdims=True))
        return t.expr / op.maximum(norm, eps)
    return c.result(op.sum(unit(x1) * unit(x2), axis=[dim]))


@register("pairwise_distance")
def _pairwise_distance(c: _Ctx) -> _TV:
    """``norm(x1 - x2 + eps, p, dim=-1)`` for p = 1, 2, inf or any p > 0."""
    _, dtype = c.out()
    d = c.ex(c.a["x1"], dtype) - c.ex(c.a["x2"], dtype) + E.Constant(np.array(float(c.a.get("eps", 1e-6)), dtype))
    p, keep = float(c.a.get("p", 2.0)), bool(c.a.get("keepdim", False))
    if p == math.inf:
        return c.result(op.max(op.abs(d), axis=[-1], keepdims=keep))
    if p <= 0:
        raise c.unsupported(f"p={p} is not supported (p > 0 is)")
    powered = op.sum(op.power(op.abs(d), E.Constant(np.array(p, dtype))), axis=[-1], keepdims=keep)
    return c.result(op.power(powered, E.Constant(np.array(1.0 / p, dtype))))


@register("bilinear")
def _bilinear(c: _Ctx) -> _TV:
    """``y[..., k] = x1[..., i] W[k, i, j] x2[..., j] + b[k]``."""
    shape, dtype = c.out()
    x1, x2, w = c.tv(c.a["input1"]), c.tv(c.a["input2"]), c.tv(c.a["weight"])
    rows = int(np.prod(x1.shape[:-1]))
    a = op.reshape(x1.expr, (rows, x1.shape[-1]))
    b = op.reshape(x2.expr, (rows, x2.shape[-1]))
    y = op.einsum([a, w.expr, b], "bi,kij,bj->bk")
    if c.a.get("bias") is not None:
        y = nn.bias_add(y, c.ex(c.a["bias"]), axis=-1)
    return c.result(op.reshape(y, shape))


@register("flatten", "view", "reshape")
def _size_free_reshape(c: _Ctx) -> _TV:
    """With ``relay.Any()`` input dims (``imp.any_dims``), ``flatten``/``view``/``reshape`` as a
    Relay ``reshape`` holding no example size: flatten keeps the dims before ``start``
    (``0``: copy) and infers the merged one (``-1``); view/reshape keep the model's sizes,
    a size equal to the input's at that position (``x.view(x.size(0), -1)``) as ``0`` (copy).
    ``from_torchscript`` checks that no example size got in. Static inputs, or a size 0
    (PyTorch: empty; Relay: copy): the result's shape, as ``frontend.torch``."""
    x = c.tv(c.a["self"])
    shape, _ = c.out()
    packet = c.node.target._schema.name.split("::")[-1]
    sizes = c.a.get("size", c.a.get("shape"))
    newshape = list(shape)
    if not c.imp.any_dims or x.ndim == 0:
        return c.result(op.reshape(x.expr, newshape))
    if packet == "flatten":
        start = _axis(int(c.a.get("start_dim", 0)), x.ndim)
        if _axis(int(c.a.get("end_dim", -1)), x.ndim) >= start:
            newshape = [0] * start + [-1] + list(shape[start + 1:])
    elif isinstance(sizes, (list, tuple)) and all(isinstance(s, int) and s != 0 for s in sizes):
        newshape = [0 if i < x.ndim and s == x.shape[i] else s for i, s in enumerate(sizes)]
    return c.result(op.reshape(x.expr, newshape))
