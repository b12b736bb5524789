"""Programs with run-time shape arguments written against TVM 0.19's Python API, shared by
scripts/tvm_dyn_expectations.py (runs them in TVM, writes test/data/dyn/) and test_dyn_api.py
(runs them in relay-mlir, compiled once, and compares).

Each case: ``build(relay) -> (params, body)`` and a list of run-time input sets (numpy
arrays); ``prefix`` (optional): unique's outputs are compared on their defined prefix only."""
from __future__ import annotations

import numpy as np


def _f(*shape, seed=0):
    return np.random.RandomState(seed).uniform(-2, 2, shape).astype("float32")


def _i64(v):
    return np.array(v, "int64")


def _i32(v):
    return np.array(v, "int32")


def strided_slice(relay):
    x = relay.var("x", shape=(relay.Any(), 5))
    b, e, s = (relay.var(n, shape=(2,), dtype="int64") for n in "bes")
    return [x, b, e, s], relay.strided_slice(x, b, e, s)


def strided_slice_size(relay):
    x = relay.var("x", shape=(relay.Any(), 4, 3))
    b, e = (relay.var(n, shape=(2,), dtype="int64") for n in "be")
    return [x, b, e], relay.strided_slice(x, b, e, relay.const(np.array([1, 1], "int64")), slice_mode="size")


def pad(mode):
    def build(relay):
        x = relay.var("x", shape=(relay.Any(), 3))
        w = relay.var("w", shape=(2, 2), dtype="int64")
        return [x, w], relay.nn.pad(x, w, relay.const(0.5), mode)
    return build


def tile(relay):
    x = relay.var("x", shape=(relay.Any(), 3))
    r = relay.var("r", shape=(3,), dtype="int64")
    return [x, r], relay.tile(x, r)


def topk(relay):
    x = relay.var("x", shape=(relay.Any(), 6))
    k = relay.var("k", shape=(), dtype="int32")
    return [x, k], relay.topk(x, k, axis=1, ret_type="both", is_ascend=False, dtype="int32").astuple()


def one_hot(relay):
    i = relay.var("i", shape=(relay.Any(),), dtype="int32")
    d = relay.var("d", shape=(), dtype="int32")
    return [i, d], relay.one_hot(i, relay.const(3.0), relay.const(-1.0), d, 0, "float32")


def resize(method, mode):
    def build(relay):
        x = relay.var("x", shape=(1, 2, relay.Any(), relay.Any()))
        s = relay.var("s", shape=(2,), dtype="int64")
        return [x, s], relay.image.resize2d(x, s, None, "NCHW", method, mode, "", -0.5, 0, 0.0, None)
    return build


def upsampling(method, align):
    def build(relay):
        x = relay.var("x", shape=(1, 2, relay.Any(), relay.Any()))
        h, w = (relay.var(n, shape=(), dtype="float32") for n in "hw")
        return [x, h, w], relay.nn.upsampling(x, h, w, "NCHW", method, align)
    return build


def reshape(relay):
    x = relay.var("x", shape=(relay.Any(), 6))
    s = relay.var("s", shape=(3,), dtype="int64")
    return [x, s], relay.reshape(x, s)


def broadcast_to(relay):
    x = relay.var("x", shape=(relay.Any(), 1))
    s = relay.var("s", shape=(3,), dtype="int64")
    return [x, s], relay.broadcast_to(x, s)


def full(relay):
    s = relay.var("s", shape=(2,), dtype="int64")
    return [s], relay.Tuple([relay.zeros(s, "float32"), relay.ones(s, "int32"),
                             relay.full(relay.const(2.5), s, "float32")])


def arange(relay):
    a, b, c = (relay.var(n, shape=(), dtype="float32") for n in "abc")
    return [a, b, c], relay.arange(a, b, c, dtype="float32")


# Where TVM 0.19 itself is wrong (checked against numpy in test_dyn_api.py instead): its dyn
# strided_slice returns garbage for bounds beyond the dim, dyn arange of floats gives too many
# elements, dyn squeeze/expand_dims mishandle negative axes.


def squeeze(relay):
    x = relay.var("x", shape=(1, relay.Any(), 1, 3))
    a = relay.var("a", shape=(2,), dtype="int64")
    return [x, a], relay.squeeze(x, a)


def expand_dims(relay):
    x = relay.var("x", shape=(relay.Any(), 3))
    a = relay.var("a", shape=(), dtype="int64")
    return [x, a], relay.expand_dims(x, a, 2)


def argwhere(dtype):
    def build(relay):
        c = relay.var("c", shape=(relay.Any(), relay.Any()), dtype=dtype)
        return [c], relay.argwhere(c)
    return build


def unique(is_sorted, counts):
    def build(relay):
        x = relay.var("x", shape=(relay.Any(),), dtype="int32")
        return [x], relay.unique(x, is_sorted, counts).astuple()
    return build


def _mask(shape, p, seed):
    return np.random.RandomState(seed).uniform(0, 1, shape) < p


CASES = {
    "strided_slice": (strided_slice, [
        [_f(6, 5), _i64([0, 1]), _i64([6, 5]), _i64([2, 2])],
        [_f(6, 5), _i64([-1, 4]), _i64([-7, -6]), _i64([-1, -2])],
        [_f(1, 5), _i64([0, 2]), _i64([1, 3]), _i64([1, 1])]]),
    "strided_slice_size": (strided_slice_size, [
        [_f(5, 4, 3), _i64([1, 1]), _i64([2, -1])],
        [_f(1, 4, 3), _i64([0, 3]), _i64([1, 1])]]),
    "pad_constant": (pad("constant"), [[_f(2, 3), _i64([[1, 2], [0, 1]])], [_f(1, 3), _i64([[0, 0], [3, 0]])]]),
    "pad_edge": (pad("edge"), [[_f(2, 3), _i64([[1, 2], [2, 1]])], [_f(1, 3), _i64([[2, 0], [0, 0]])]]),
    "pad_reflect": (pad("reflect"), [[_f(3, 3), _i64([[2, 1], [2, 1]])], [_f(2, 3), _i64([[1, 0], [0, 2]])]]),
    "tile": (tile, [[_f(2, 3), _i64([2, 1, 3])], [_f(1, 3), _i64([1, 1, 1])], [_f(3, 3), _i64([1, 2, 1])]]),
    "topk": (topk, [[_f(3, 6), _i32(2)], [_f(1, 6), _i32(6)], [_f(2, 6), _i32(1)]]),
    "one_hot": (one_hot, [[_i32([0, 2, 1, 5]), _i32(4)], [_i32([1]), _i32(2)], [_i32([3, 0, 3]), _i32(1)]]),
    "resize_nearest_asymmetric": (resize("nearest_neighbor", "asymmetric"),
                                  [[_f(1, 2, 3, 4), _i64([6, 8])], [_f(1, 2, 1, 1), _i64([3, 2])],
                                   [_f(1, 2, 4, 4), _i64([2, 2])]]),
    "resize_linear_half_pixel": (resize("linear", "half_pixel"),
                                 [[_f(1, 2, 3, 4), _i64([5, 7])], [_f(1, 2, 1, 1), _i64([1, 3])],
                                  [_f(1, 2, 6, 5), _i64([3, 2])]]),
    "resize_linear_align_corners": (resize("linear", "align_corners"),
                                    [[_f(1, 2, 3, 4), _i64([5, 7])], [_f(1, 2, 4, 2), _i64([1, 1])]]),
    "resize_cubic_half_pixel": (resize("cubic", "half_pixel"),
                                [[_f(1, 2, 4, 4), _i64([7, 5])], [_f(1, 2, 2, 3), _i64([1, 6])]]),
    "upsampling_nearest": (upsampling("nearest_neighbor", False),
                           [[_f(1, 2, 3, 4), np.float32(2), np.float32(1.5)],
                            [_f(1, 2, 1, 1), np.float32(3), np.float32(1)]]),
    "upsampling_bilinear_align": (upsampling("bilinear", True),
                                  [[_f(1, 2, 3, 4), np.float32(2), np.float32(1.5)],
                                   [_f(1, 2, 2, 2), np.float32(1), np.float32(2.5)]]),
    "reshape": (reshape, [[_f(4, 6), _i64([2, -1, 3])], [_f(1, 6), _i64([0, 3, 2])]]),
    "broadcast_to": (broadcast_to, [[_f(3, 1), _i64([2, 3, 4])], [_f(1, 1), _i64([1, 1, 1])]]),
    "full": (full, [[_i64([2, 3])], [_i64([1, 1])], [_i64([0, 4])]]),
    "squeeze": (squeeze, [[_f(1, 4, 1, 3), _i64([0, 2])], [_f(1, 1, 1, 3), _i64([2, 0])]]),
    "expand_dims": (expand_dims, [[_f(4, 3), _i64(1)], [_f(1, 3), _i64(2)], [_f(2, 3), _i64(0)]]),
    "argwhere_float": (argwhere("float32"), [
        [np.where(_mask((4, 5), 0.4, 1), 1.5, 0).astype("float32")],
        [np.ones((1, 1), "float32")], [np.zeros((2, 3), "float32")], [np.zeros((0, 3), "float32")]]),
    "argwhere_bool": (argwhere("bool"), [[_mask((3, 7), 0.5, 2)], [_mask((1, 4), 1.0, 3)]]),
    "unique_sorted": (unique(True, False), [[_i32([4, 5, 1, 2, 3, 3, 4, 5])], [_i32([7])],
                                            [np.random.RandomState(4).randint(0, 6, 20).astype("int32")]]),
    "unique_unsorted_counts": (unique(False, True), [[_i32([4, 5, 1, 2, 3, 3, 4, 5])], [_i32([7])],
                                                     [np.random.RandomState(5).randint(-3, 3, 17).astype("int32")]]),
    "unique_sorted_counts": (unique(True, True), [[_i32([2, 2, 2])], [_i32([9, -1, 9, 0])]]),
}
