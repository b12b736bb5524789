"""Every gradient rule against central finite differences in float64.

The rule list comes from the C++ table (``relay-mlir-opt
--list-gradient-rules``); every rule must have a case here (the test fails
otherwise). A case is ``f(x, ...) = sum(op(x, ...) * W)`` with a fixed
random ``W`` (so every output element gets a different seed); its gradient
from ``relay.transform.gradient`` run by the reference interpreter must
match ``(f(x + h e_i) - f(x - h e_i)) / 2h`` (``f`` evaluated by the same
interpreter, which knows nothing of the rules), h = 1e-6, within
rtol 1e-5 / atol 1e-7; so must the forward mode (``jvp``) along a random
tangent. A third test compiles every case's gradient in
float32 in one module (llvm-cpu) and checks it against the interpreter
(rtol 1e-4, atol 1e-5).
"""
from __future__ import annotations

import os
import subprocess
import zlib
from pathlib import Path
from typing import Callable, Dict, List, Optional

import numpy as np
import pytest

import relay_mlir as relay

# The dtype the case being built uses (float64 for finite differences,
# float32 for the compiled check); the case builders read it.
DTYPE = "float64"
H = 1e-6


def _v(name, shape, dtype):
    return relay.var(name, shape=shape, dtype=dtype)


class Case:
    """``build(*vars) -> expr``; inputs drawn by ``gen`` (default: normal, away from kinks)."""

    def __init__(self, shapes: List[tuple], build: Callable, gen: Optional[Callable] = None,
                 consts: Optional[List[np.ndarray]] = None):
        self.shapes = shapes
        self.build = build
        self.gen = gen
        self.consts = consts or []  # non-differentiated inputs (indices, conditions)


def _pos(rng, shape):
    return rng.uniform(0.5, 2.0, size=shape)


def _unit(rng, shape):
    return rng.uniform(-0.8, 0.8, size=shape)


def _away_from_zero(rng, shape):
    x = rng.uniform(0.3, 1.5, size=shape)
    return x * rng.choice([-1.0, 1.0], size=shape)


def _distinct(rng, shape):
    n = int(np.prod(shape))
    return (rng.permutation(n).reshape(shape) * 0.37 + rng.uniform(0, 0.1, size=shape))


def _cat(*exprs):
    """Several results (of any shapes) as one flat vector, so one case can
    check several variants of an op (layouts, modes, groups)."""
    return relay.concatenate([relay.reshape(e, (-1,)) for e in exprs], axis=0)


def _nhwc(x):
    return relay.transpose(x, (0, 2, 3, 1))


def _with_zero(rng, shape):
    x = rng.normal(size=shape)
    x.flat[len(x.flat) // 2] = 0.0
    return x


def _unary(f, gen=None, shape=(2, 3)):
    return Case([shape], lambda x: f(x), gen)


def _binary(f, gen=None, shapes=((2, 3), (3,))):
    return Case(list(shapes), lambda a, b: f(a, b), gen)


CASES: Dict[str, Case] = {
    "relay.negative": _unary(relay.negative),
    "relay.copy": _unary(relay.copy),
    "relay.exp": _unary(relay.exp),
    "relay.fast_exp": _unary(relay.fast_exp),
    "relay.log": _unary(relay.log, _pos),
    "relay.log2": _unary(relay.log2, _pos),
    "relay.log10": _unary(relay.log10, _pos),
    "relay.sqrt": _unary(relay.sqrt, _pos),
    "relay.rsqrt": _unary(relay.rsqrt, _pos),
    "relay.tanh": _unary(relay.tanh),
    "relay.sigmoid": _unary(relay.sigmoid),
    "relay.sin": _unary(relay.sin),
    "relay.cos": _unary(relay.cos),
    "relay.tan": _unary(relay.tan, _unit),
    "relay.asin": _unary(relay.asin, _unit),
    "relay.acos": _unary(relay.acos, _unit),
    "relay.atan": _unary(relay.atan),
    "relay.sinh": _unary(relay.sinh),
    "relay.cosh": _unary(relay.cosh),
    "relay.acosh": _unary(relay.acosh, lambda r, s: r.uniform(1.2, 3.0, size=s)),
    "relay.asinh": _unary(relay.asinh),
    "relay.atanh": _unary(relay.atanh, _unit),
    "relay.erf": _unary(relay.erf),
    "relay.fast_tanh": _unary(relay.fast_tanh),
    "relay.fast_erf": _unary(relay.fast_erf),
    "relay.abs": _unary(relay.abs, _away_from_zero),
    "relay.nn.relu": _unary(relay.nn.relu, _away_from_zero),
    "relay.nn.gelu": _unary(relay.nn.gelu),
    "relay.nn.leaky_relu": _unary(lambda x: relay.nn.leaky_relu(x, alpha=0.2), _away_from_zero),
    "relay.clip": _unary(lambda x: relay.clip(x, -0.5, 0.7), _distinct),
    # the int32 path has zero gradient (trunc), the float64 one passes it on
    "relay.cast": _unary(lambda x: relay.cast(relay.cast(x, "int32"), DTYPE) + relay.cast(x, DTYPE), _unit),
    "relay.cast_like": _binary(lambda a, b: relay.cast_like(a, b), shapes=((2, 3), (1,))),
    "relay.sign": _unary(lambda x: relay.sign(x) * x, _away_from_zero),
    "relay.ceil": _unary(lambda x: relay.ceil(x) + x, _away_from_zero),
    "relay.floor": _unary(lambda x: relay.floor(x) + x, _away_from_zero),
    "relay.round": _unary(lambda x: relay.round(x) + x, _away_from_zero),
    "relay.trunc": _unary(lambda x: relay.trunc(x) + x, _away_from_zero),
    "relay.floor_divide": _binary(lambda a, b: relay.floor_divide(a, b) + a * b, _pos),
    "relay.trunc_divide": _binary(lambda a, b: relay.trunc_divide(a, b) + a * b, _pos),
    "relay.zeros_like": _unary(lambda x: relay.zeros_like(x) + x),
    "relay.ones_like": _unary(lambda x: relay.ones_like(x) * x),
    "relay.add": _binary(relay.add),
    "relay.subtract": _binary(relay.subtract, shapes=((3,), (2, 3))),
    "relay.multiply": _binary(relay.multiply, shapes=((2, 1), (1, 3))),
    "relay.divide": _binary(relay.divide, _pos),
    "relay.power": _binary(relay.power, _pos),
    "relay.maximum": _binary(relay.maximum, _distinct, shapes=((2, 3), (2, 3))),
    "relay.minimum": _binary(relay.minimum, _distinct, shapes=((2, 3), (2, 3))),
    "relay.floor_mod": _binary(relay.floor_mod, lambda r, s: r.uniform(1.1, 1.9, size=s) * (1 + 2 * (len(s) == 2))),
    "relay.mod": _binary(relay.mod, lambda r, s: r.uniform(1.1, 1.9, size=s) * (1 + 2 * (len(s) == 2))),
    "relay.trunc_mod": _binary(relay.trunc_mod, lambda r, s: r.uniform(1.1, 1.9, size=s) * (1 + 2 * (len(s) == 2))),
    "relay.where": Case([(2, 3), (2, 3)], lambda a, b, c: relay.where(c, a, b),
                        consts=[np.array([[True, False, True], [False, False, True]])]),
    # nn
    "relay.nn.dense": _binary(relay.nn.dense, shapes=((2, 3), (4, 3))),
    "relay.nn.matmul": Case([(3, 2), (4, 3)], lambda a, b: relay.nn.matmul(a, b, transpose_a=True,
                                                                           transpose_b=True)),
    "relay.nn.batch_matmul": _binary(relay.nn.batch_matmul, shapes=((2, 3, 4), (1, 5, 4))),
    "relay.nn.bias_add": _binary(relay.nn.bias_add, shapes=((2, 3, 2), (3,))),
    "relay.nn.prelu": Case([(2, 3, 2), (3,)], lambda x, a: relay.nn.prelu(x, a),
                           lambda r, s: _away_from_zero(r, s)),
    "relay.nn.softmax": _unary(lambda x: relay.nn.softmax(x, axis=1)),
    "relay.nn.log_softmax": _unary(lambda x: relay.nn.log_softmax(x, axis=0)),
    "relay.nn.layer_norm": Case([(2, 4), (4,), (4,)], lambda x, g, b: relay.nn.layer_norm(x, g, b)),
    "relay.nn.batch_norm": Case([(2, 3, 2), (3,), (3,), (3,), (3,)],
                                lambda x, g, b, m, v: relay.nn.batch_norm(x, g, b, m, v)[0] * relay.const(2.0, DTYPE)
                                + relay.sum(relay.nn.batch_norm(x, g, b, m, v)[1]
                                            * relay.nn.batch_norm(x, g, b, m, v)[2]),
                                lambda r, s: _pos(r, s)),
    "relay.nn.dropout": _unary(lambda x: relay.nn.dropout(x, rate=0.5)),
    # reductions
    "relay.sum": _unary(lambda x: relay.sum(x, axis=1, keepdims=True), shape=(2, 3, 2)),
    "relay.mean": _unary(lambda x: relay.mean(x, axis=(0, 2)), shape=(2, 3, 2)),
    "relay.max": _unary(lambda x: relay.max(x, axis=1), _distinct),
    "relay.min": _unary(lambda x: relay.min(x, axis=0, keepdims=True), _distinct),
    "relay.prod": _unary(lambda x: relay.prod(x, axis=1), _pos),
    "relay.variance": _unary(lambda x: relay.variance(x, axis=1, unbiased=True), shape=(2, 4)),
    # transforms
    "relay.reshape": _unary(lambda x: relay.reshape(x, (3, 2))),
    "relay.reshape_like": _binary(relay.reshape_like, shapes=((2, 3), (6,))),
    "relay.squeeze": _unary(lambda x: relay.squeeze(x, axis=[0]), shape=(1, 3)),
    "relay.expand_dims": _unary(lambda x: relay.expand_dims(x, 1)),
    "relay.nn.batch_flatten": _unary(relay.nn.batch_flatten, shape=(2, 2, 2)),
    "relay.dyn.reshape": Case([(2, 3)], lambda x, s: relay.reshape(x, s),
                              consts=[np.array([3, 2], dtype="int64")]),
    "relay.dyn.squeeze": Case([(1, 3, 1)], lambda x, a: relay.squeeze(x, a),
                              consts=[np.array([0, -1], dtype="int64")]),
    "relay.dyn.expand_dims": Case([(2, 3)], lambda x, a: relay.expand_dims(x, a, 2),
                                  consts=[np.array(1, dtype="int64")]),
    "relay.transpose": _unary(lambda x: relay.transpose(x, (2, 0, 1)), shape=(2, 3, 2)),
    "relay.broadcast_to": _unary(lambda x: relay.broadcast_to(x, (2, 2, 3)), shape=(1, 3)),
    "relay.broadcast_to_like": _binary(relay.broadcast_to_like, shapes=((3,), (2, 3))),
    "relay.dyn.broadcast_to": Case([(1, 3)], lambda x, s: relay.broadcast_to(x, s),
                                   consts=[np.array([2, 3], dtype="int64")]),
    "relay.collapse_sum_like": _binary(relay.collapse_sum_like, shapes=((2, 3), (3,))),
    # TVM 0.19's gradients of collapse_sum_to, contrib_reverse_reshape and the cross entropies
    "relay.collapse_sum_to": _unary(lambda x: relay.collapse_sum_to(x, (3, 1)), shape=(2, 3, 4)),
    "relay.contrib_reverse_reshape": _unary(lambda x: relay.reverse_reshape(x, (-1, 0)), shape=(2, 3, 4)),
    "relay.nn.cross_entropy": Case([(3, 4), (3, 4)], lambda p, t: relay.nn.cross_entropy(p, t), _pos),
    "relay.nn.cross_entropy_with_logits": _binary(relay.nn.cross_entropy_with_logits, shapes=((3, 4), (3, 4))),
    "relay.concatenate": _binary(lambda a, b: relay.concatenate([a, b, a], axis=1),
                                 shapes=((2, 3), (2, 1))),
    "relay.split": _unary(lambda x: relay.split(x, 3, axis=1)[1] * relay.split(x, 3, axis=1)[2],
                          shape=(2, 6)),
    "relay.stack": _binary(lambda a, b: relay.stack([a, b], axis=1), shapes=((2, 3), (2, 3))),
    "relay.strided_slice": _unary(lambda x: _cat(
        relay.strided_slice(x, [1, 0], [3, -1])
        + relay.strided_slice(x, [0, 1], [4, 3], strides=[2, 1])
        + relay.strided_slice(x, [1, 0], [4, 3], strides=[2, 2], axes=[0, 1]) * relay.const(1.0, DTYPE),
        # negative strides: every second row from row 3 down, columns reversed; from the end
        relay.strided_slice(x, [3, 2], [0, -4], strides=[-2, -1]),
        relay.strided_slice(x, [-1], [-6], strides=[-2], axes=[1])), shape=(5, 3)),
    "relay.nn.pad": Case([(2, 3), ()], lambda x, v: relay.nn.pad(x, ((1, 0), (2, 1)), v)),
    "relay.reverse": _unary(lambda x: relay.reverse(x, axis=1)),
    "relay.tile": _unary(lambda x: relay.tile(x, (2, 1, 2))),
    "relay.repeat": _unary(lambda x: relay.repeat(x, 2, axis=0)),
    "relay.gather": Case([(3, 4)], lambda x, i: relay.gather(x, 1, i),
                         consts=[np.array([[0, 3], [1, 1], [2, 0]], dtype="int64")]),
    "relay.scatter_elements": Case([(3, 4), (2, 4)], lambda d, u, i: relay.scatter_elements(d, i, u, 0, "update")
                                   + relay.scatter_elements(d, i, u, 0, "add"),
                                   consts=[np.array([[2, 0, 1, 2], [0, 2, 0, 1]], dtype="int64")]),
    "relay.take": Case([(4, 3)], lambda x, i, j, k: _cat(
        relay.take(x, i, axis=0),
        relay.take(x, j, axis=1, batch_dims=1),                                     # row b: x[b, j[b]]
        relay.take(relay.reshape(x, (2, 2, 3)), k, axis=2, batch_dims=1, mode="wrap")),
        consts=[np.array([[3, 0], [3, -1]], dtype="int64"),
                np.array([[2, 0], [1, 1], [0, 0], [2, 1]], dtype="int64"),
                np.array([[[0, 4], [2, 2]], [[-1, 1], [1, 0]]], dtype="int64")]),
    "relay.cumsum": _unary(lambda x: _cat(relay.cumsum(x, axis=1) + relay.cumsum(x, axis=0, exclusive=True),
                                          relay.cumsum(x, exclusive=True)), shape=(3, 4)),
    "relay.full": Case([()], lambda v: relay.full(v, (2, 3), DTYPE)),
    "relay.dyn.full": Case([()], lambda v, s: relay.full(v, s, DTYPE), consts=[np.array([2, 3], dtype="int64")]),
    "relay.full_like": _binary(lambda a, v: relay.full_like(a, v), shapes=((2, 3), ())),
    "relay.nn.instance_norm": Case([(2, 3, 4), (3,), (3,)], lambda x, g, b: relay.nn.instance_norm(x, g, b)),
    # conv and pools
    # plain, grouped (groups = 2) and NHWC/HWIO
    "relay.nn.conv2d": Case([(2, 2, 5, 6), (3, 2, 3, 2), (4, 1, 3, 2)], lambda x, w, wg: _cat(
        relay.nn.conv2d(x, w, strides=(2, 1), padding=(1, 1), dilation=(1, 2)),
        relay.nn.conv2d(x, wg, strides=(1, 2), padding=(0, 1, 1, 0), groups=2),
        relay.nn.conv2d(_nhwc(x), relay.transpose(w, (2, 3, 1, 0)), strides=(1, 2), padding=(1, 0),
                        data_layout="NHWC", kernel_layout="HWIO"))),
    "relay.nn.conv3d": Case([(1, 2, 3, 4, 4), (3, 2, 2, 1, 2), (2, 1, 2, 2, 2)], lambda x, w, wg: _cat(
        relay.nn.conv3d(x, w, strides=(1, 2, 1), padding=(1, 0, 1, 0, 1, 1), dilation=(1, 1, 2)),
        relay.nn.conv3d(x, wg, strides=(2, 1, 2), padding=(0, 1, 1), groups=2),
        relay.nn.conv3d(relay.transpose(x, (0, 2, 3, 4, 1)), relay.transpose(w, (2, 3, 4, 1, 0)),
                        padding=(1, 1, 0), data_layout="NDHWC", kernel_layout="DHWIO"))),
    "relay.nn.avg_pool2d": _unary(lambda x: _cat(
        relay.nn.avg_pool2d(x, (2, 3), strides=(2, 1), padding=(1, 1)),
        relay.nn.avg_pool2d(_nhwc(x), (3, 2), strides=(2, 2), padding=(1, 0), layout="NHWC",
                            count_include_pad=True, ceil_mode=True)), shape=(1, 2, 5, 5)),
    "relay.nn.max_pool2d": _unary(lambda x: _cat(
        relay.nn.max_pool2d(x, (3, 2), strides=(2, 2), padding=(1, 0)),
        relay.nn.max_pool2d(_nhwc(x), (2, 2), strides=(2, 1), padding=(0, 1), layout="NHWC", ceil_mode=True)),
        _distinct, shape=(1, 2, 5, 6)),
    "relay.nn.avg_pool1d": _unary(lambda x: _cat(
        relay.nn.avg_pool1d(x, 3, strides=2, padding=(1, 1)),
        relay.nn.avg_pool1d(relay.transpose(x, (0, 2, 1)), 2, strides=2, padding=(1, 0), layout="NWC",
                            count_include_pad=True, ceil_mode=True)), shape=(1, 2, 7)),
    "relay.nn.max_pool1d": _unary(lambda x: _cat(
        relay.nn.max_pool1d(x, 3, strides=2, padding=(1, 1)),
        relay.nn.max_pool1d(x, 2, strides=1, dilation=2)), _distinct, shape=(1, 2, 7)),
    "relay.nn.avg_pool3d": _unary(lambda x: _cat(
        relay.nn.avg_pool3d(x, (2, 2, 2), strides=(2, 1, 2), padding=(1, 0, 1)),
        relay.nn.avg_pool3d(x, (2, 1, 3), strides=(1, 2, 1), padding=(0, 1, 1), count_include_pad=True)),
        shape=(1, 2, 3, 4, 3)),
    "relay.nn.max_pool3d": _unary(lambda x: _cat(
        relay.nn.max_pool3d(x, (2, 2, 2), strides=(1, 2, 2), padding=(0, 1, 1)),
        relay.nn.max_pool3d(relay.transpose(x, (0, 2, 3, 4, 1)), (2, 1, 2), strides=(1, 1, 2),
                            layout="NDHWC", ceil_mode=True)), _distinct, shape=(1, 2, 3, 4, 3)),
    "relay.nn.global_avg_pool2d": _unary(lambda x: _cat(
        relay.nn.global_avg_pool2d(x), relay.nn.global_avg_pool2d(_nhwc(x), layout="NHWC")),
        shape=(2, 3, 2, 2)),
    "relay.nn.global_max_pool2d": _unary(lambda x: _cat(
        relay.nn.global_max_pool2d(x), relay.nn.global_max_pool2d(_nhwc(x), layout="NHWC")),
        _distinct, shape=(2, 3, 2, 2)),
    "relay.nn.adaptive_avg_pool2d": _unary(lambda x: _cat(
        relay.nn.adaptive_avg_pool2d(x, (3, 4)),
        relay.nn.adaptive_avg_pool2d(_nhwc(x), (2, 5), layout="NHWC")), shape=(1, 2, 5, 7)),
    "relay.nn.adaptive_max_pool2d": _unary(lambda x: relay.nn.adaptive_max_pool2d(x, (3, 4)),
                                           _distinct, shape=(1, 2, 5, 7)),
    "relay.nn.conv2d_transpose": Case([(2, 4, 3, 4), (4, 2, 3, 2), (4, 3, 2, 2)], lambda x, w, wg: _cat(
        relay.nn.conv2d_transpose(x, w, strides=(2, 1), padding=(1, 0), output_padding=(1, 0), dilation=(1, 2)),
        relay.nn.conv2d_transpose(x, wg, strides=(1, 2), padding=(0, 1), groups=2))),
    "relay.nn.conv1d": Case([(2, 2, 9), (3, 2, 3), (4, 1, 2)], lambda x, w, wg: _cat(
        relay.nn.conv1d(x, w, strides=2, padding=(1, 2), dilation=2),
        relay.nn.conv1d(x, wg, strides=3, padding=(2, 0), groups=2),
        relay.nn.conv1d(relay.transpose(x, (0, 2, 1)), relay.transpose(w, (2, 1, 0)), padding=1,
                        data_layout="NWC", kernel_layout="WIO"))),
    # norms
    "relay.nn.group_norm": Case([(2, 4, 3), (4,), (4,)], lambda x, g, b: _cat(
        relay.nn.group_norm(x, g, b, num_groups=2),
        relay.nn.group_norm(relay.transpose(x, (0, 2, 1)), g, b, num_groups=4, axis=2, center=False))),
    "relay.nn.l2_normalize": _unary(lambda x: _cat(
        relay.nn.l2_normalize(x, 1e-10, axis=[1]),
        relay.nn.l2_normalize(x, 1e-10),
        # the norm below sqrt(eps): divided by the constant sqrt(eps)
        relay.nn.l2_normalize(x * relay.const(0.01, DTYPE), 1e-2, axis=[1])), shape=(2, 3, 2)),
    "relay.nn.lrn": _unary(lambda x: _cat(
        relay.nn.lrn(x, size=3, alpha=0.5, beta=0.75, bias=1.0),
        relay.nn.lrn(x, size=4, axis=1, alpha=0.3, beta=0.5, bias=2.0)), shape=(1, 5, 2, 2)),
    # indexing, sorting, scans
    "relay.one_hot": Case([(), ()], lambda on, off, i: _cat(
        relay.one_hot(i, on, off, 4, -1, DTYPE), relay.one_hot(i, off * on, on, 3, 0, DTYPE)),
        consts=[np.array([[0, 2], [3, 1], [1, 1]], dtype="int32")]),
    # start 0.3, step 0.3: 16 elements up to 5, far from a length change
    "relay.arange": Case([(), ()], lambda start, step: relay.arange(start, relay.const(5.0, DTYPE), step, DTYPE),
                         lambda r, s: np.full(s, 0.3)),
    "relay.gather_nd": Case([(3, 4, 2)], lambda x, i, j: _cat(
        relay.gather_nd(x, i), relay.gather_nd(x, j, batch_dims=1)),   # per row of x: x[b, j[0, b, y]]
        consts=[np.array([[0, 2, 2], [1, 3, 1]], dtype="int64"),
                np.array([[[3, 0, 3, 1], [2, 2, 0, 1], [1, 3, 3, 0]]], dtype="int64")]),
    "relay.scatter_nd": Case([(3, 4), (2, 4)], lambda d, u, i: _cat(
        relay.scatter_nd(d, i, u, "update"), relay.scatter_nd(d, i, u, "add")),
        consts=[np.array([[2, 0]], dtype="int64")]),
    "relay.sort": _unary(lambda x: _cat(relay.sort(x, axis=1), relay.sort(x, axis=0, is_ascend=False)),
                         _distinct, shape=(3, 4)),
    "relay.topk": _unary(lambda x: _cat(relay.topk(x, k=2, axis=1)[0],
                                        relay.topk(x, k=2, axis=0, ret_type="values", is_ascend=True)),
                         _distinct, shape=(3, 4)),
    "relay.cumprod": _unary(lambda x: _cat(relay.cumprod(x, axis=1), relay.cumprod(x, axis=0, exclusive=True),
                                           relay.cumprod(x)), _with_zero, shape=(3, 4)),
    "relay.einsum": Case([(2, 3), (3, 4), (4, 2)], lambda a, b, c: _cat(
        relay.einsum([a, b, c], "ij,jk,kl->il"),
        relay.einsum([a, b], "ij,jk->i"),    # k summed in b alone
        relay.einsum([a, b], "ij,jk"),       # implicit output: ik
        relay.einsum([a], "ij->ji"),
        relay.einsum([relay.reshape(b, (3, 1, 4)), c], "...k,kl->...l"),   # ellipsis
        relay.einsum([relay.reshape(b, (2, 3, 2)), relay.reshape(a, (2, 3))], "i...j,i..."))),
    # layouts and resampling
    "relay.nn.depth_to_space": _unary(lambda x: _cat(
        relay.nn.depth_to_space(x, 2), relay.nn.depth_to_space(x, 2, mode="CRD"),
        relay.nn.depth_to_space(_nhwc(x), 2, layout="NHWC")), shape=(1, 8, 2, 3)),
    "relay.nn.space_to_depth": _unary(lambda x: _cat(
        relay.nn.space_to_depth(x, 2), relay.nn.space_to_depth(_nhwc(x), 2, layout="NHWC")),
        shape=(1, 2, 4, 6)),
    "relay.layout_transform": _unary(lambda x: _cat(
        relay.layout_transform(x, "NCHW", "NHWC"), relay.layout_transform(x, "NCHW", "NCHW2c")),
        shape=(1, 4, 2, 3)),
    "relay.image.resize2d": _unary(lambda x: _cat(
        relay.image.resize2d(x, (5, 3)),
        relay.image.resize2d(x, (4, 7), method="nearest_neighbor", coordinate_transformation_mode="asymmetric",
                             rounding_method="floor"),
        relay.image.resize2d(x, (6, 5), method="cubic", coordinate_transformation_mode="align_corners"),
        relay.image.resize2d(_nhwc(x), (2, 6), layout="NHWC")), shape=(1, 2, 3, 4)),
    "relay.nn.upsampling": _unary(lambda x: _cat(
        relay.nn.upsampling(x, 2, 3),
        relay.nn.upsampling(x, 2, 2, method="bilinear", align_corners=True),
        relay.nn.upsampling(_nhwc(x), 3, 2, layout="NHWC")), shape=(1, 2, 3, 2)),
}


def _rule_names() -> List[str]:
    bin_dir = os.environ.get("RELAY_MLIR_BIN_DIR")
    if bin_dir:
        tool = str(Path(bin_dir) / "relay-mlir-opt")
    else:
        from relay_mlir._tools import tool_path
        tool = tool_path("relay-mlir-opt")
    out = subprocess.run([tool, "--list-gradient-rules"], check=True, capture_output=True, text=True)
    return out.stdout.split()


RULES = _rule_names()


def test_every_rule_has_a_case():
    assert len(RULES) >= 120, RULES
    missing = sorted(set(RULES) - set(CASES))
    assert not missing, f"gradient rules without a finite-difference case: {missing}"
    stale = sorted(set(CASES) - set(RULES))
    assert not stale, f"cases for ops without a rule: {stale}"


def _problem(name: str, dtype: str = "float64"):
    """(loss Function, differentiated inputs, constant inputs) in ``dtype``."""
    global DTYPE
    case = CASES[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    xs = [_v(f"x{i}", s, dtype) for i, s in enumerate(case.shapes)]
    cs = [relay.var(f"c{i}", shape=c.shape, dtype=str(c.dtype)) for i, c in enumerate(case.consts)]
    saved, DTYPE = DTYPE, dtype
    try:
        out = case.build(*xs, *cs)
    finally:
        DTYPE = saved
    if isinstance(out, relay.TupleWrapper):
        out = out.astuple()
    gen = case.gen or (lambda r, s: r.normal(size=s))
    inputs = [np.asarray(gen(rng, s), dtype=dtype) for s in case.shapes]
    # the output's shape (run-time shapes included) from one evaluation
    shape = np.shape(_interpreted(relay.Function(xs + cs, out))(*inputs, *case.consts))
    weights = rng.normal(size=shape).astype(dtype)
    loss = relay.Function(xs + cs, relay.sum(out * relay.const(weights, dtype)))
    return loss, inputs, list(case.consts)


def _interpreted(fn):
    return relay.create_executor("debug", mod=relay.IRModule.from_expr(fn)).evaluate()


@pytest.mark.parametrize("name", sorted(CASES))
def test_rule_matches_finite_differences(name):
    loss, inputs, consts = _problem(name)
    n = len(inputs)
    grad_fn = relay.transform.gradient(loss, wrt=list(range(n)))
    value, grads = _interpreted(grad_fn)(*inputs, *consts)
    f = _interpreted(loss)
    want_value = f(*inputs, *consts)
    np.testing.assert_allclose(np.asarray(value), np.asarray(want_value), rtol=1e-12)
    for k, x in enumerate(inputs):
        fd = np.zeros_like(x)
        for idx in np.ndindex(x.shape):
            plus, minus = [a.copy() for a in inputs], [a.copy() for a in inputs]
            plus[k][idx] += H
            minus[k][idx] -= H
            fp = float(np.asarray(f(*plus, *consts)))
            fm = float(np.asarray(f(*minus, *consts)))
            fd[idx] = (fp - fm) / (2 * H)
        got = np.asarray(grads[k])
        assert got.shape == x.shape and got.dtype == np.float64, (got.shape, got.dtype)
        np.testing.assert_allclose(got, fd, rtol=1e-5, atol=1e-7,
                                   err_msg=f"d loss / d input {k} of {name}")


@pytest.mark.parametrize("name", sorted(CASES))
def test_forward_mode_matches_finite_differences(name):
    """``jvp`` (the reverse mode transposed: it differentiates each rule's
    backward code, so the ops a rule emits need rules too) along a random
    tangent against the central difference of the loss along it (float64,
    rtol 1e-5 / atol 1e-7)."""
    loss, inputs, consts = _problem(name)
    rng = np.random.default_rng(zlib.crc32(name.encode()) + 1)
    tangents = [rng.normal(size=x.shape) for x in inputs]
    value, tangent = _interpreted(relay.transform.jvp(loss))(
        *inputs, *consts, *tangents, *[np.zeros_like(c) for c in consts])
    f = _interpreted(loss)
    fp = float(np.asarray(f(*[x + H * t for x, t in zip(inputs, tangents)], *consts)))
    fm = float(np.asarray(f(*[x - H * t for x, t in zip(inputs, tangents)], *consts)))
    np.testing.assert_allclose(np.asarray(value), np.asarray(f(*inputs, *consts)), rtol=1e-12)
    np.testing.assert_allclose(float(np.asarray(tangent)), (fp - fm) / (2 * H), rtol=1e-5, atol=1e-7,
                               err_msg=f"jvp of {name}")


_COMPILED = {}


def _compiled_gradients():
    """Every case's gradient in ONE module, compiled once for llvm-cpu in
    float32 (IREE's float64 support is partial: no f64 erf, f64 contractions
    fail to vectorize)."""
    if not _COMPILED:
        names, fns, data = {}, {}, {}
        for i, name in enumerate(sorted(CASES)):
            loss, inputs, consts = _problem(name, "float32")
            names[name] = f"g{i}"
            fns[f"g{i}"] = relay.transform.gradient(loss, wrt=list(range(len(inputs))))
            data[name] = (fns[f"g{i}"], inputs + consts)
        _COMPILED["exe"] = relay.compile(relay.IRModule(fns), target="llvm-cpu")
        _COMPILED["names"], _COMPILED["data"] = names, data
    return _COMPILED


@pytest.mark.parametrize("name", sorted(CASES))
def test_compiled_gradient_matches_interpreter(name):
    c = _compiled_gradients()
    fn, args = c["data"][name]
    want_value, want_grads = _interpreted(fn)(*args)
    # functions other than `main` return their tuple flattened
    got = c["exe"].run(c["names"][name], *args)
    assert len(got) == 1 + len(want_grads)
    np.testing.assert_allclose(np.asarray(got[0]), np.asarray(want_value), rtol=1e-4, atol=1e-5)
    for k, (g, want) in enumerate(zip(got[1:], want_grads)):
        assert np.asarray(g).dtype == np.float32
        np.testing.assert_allclose(np.asarray(g), np.asarray(want), rtol=1e-4, atol=1e-5,
                                   err_msg=f"gradient {k} of {name} (llvm-cpu vs interpreter)")
