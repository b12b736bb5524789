"""Numerics of the shape-transform and tensor-creation operators on llvm-cpu.

Every case is one global function of ONE module, compiled once for the
whole file (CI has 2 cores) and called by name with ``Executable.run``.
References are plain numpy (``np.reshape``, slicing, ``np.tile``,
``np.einsum`` ...), written independently of the lowering. Tolerances:

* exact (``assert_array_equal``): every data-movement and creation op
  (reshape, slicing, tiling, broadcasting, layouts, fills, integer arange);
* float32 sums/contractions (collapse_sum_like, einsum, float arange):
  rtol 1e-5, atol 1e-5;
* float16 einsum: rtol 1e-2, atol 1e-2 against the float32 result (f16
  accumulation over <= 16 terms).

Cases whose parameters have a `?` dim are run at two sizes (the same
compiled function).
"""
from __future__ import annotations

from typing import Callable, Dict, List, Sequence, Tuple

import numpy as np
import pytest

import relay_mlir as relay

EXACT = None
F32 = dict(rtol=1e-5, atol=1e-5)
F16 = dict(rtol=1e-2, atol=1e-2)
ANY = relay.Any()

R = np.random.default_rng(5)


def rand(*shape, dtype="float32"):
    if np.dtype(dtype).kind == "f":
        return R.uniform(-2.0, 2.0, size=shape).astype(dtype)
    if np.dtype(dtype).kind == "b":
        return R.integers(0, 2, size=shape).astype(bool)
    return R.integers(-100, 100, size=shape).astype(dtype)


# name -> (Function, [runs of inputs], reference(*inputs), tolerance)
CASES: Dict[str, Tuple[object, List[list], Callable, object]] = {}


def case(name: str, params: Sequence[Tuple[str, tuple, str]], body: Callable, runs: List[list],
         reference: Callable, tol=EXACT) -> None:
    vs = [relay.var(n, shape=s, dtype=d) for n, s, d in params]
    out = body(*vs)
    if isinstance(out, (list, tuple)):
        out = relay.Tuple(list(out))
    CASES[name] = (relay.Function(vs, out), runs, reference, tol)


def one(name, shape, dtype, body, reference, tol=EXACT, runs=None):
    """A case of one parameter ``x``; `?` shapes need explicit ``runs``."""
    runs = runs or [[rand(*shape, dtype=dtype)]]
    case(name, [("x", shape, dtype)], body, runs, reference, tol)


# -- reshape: every newshape code ------------------------------------------------------
X234 = (2, 3, 4)
for _ns, _want in [((4, 0, 2), (4, 3, 2)), ((2, 0, 0), (2, 3, 4)), ((6, 1, -1), (6, 1, 4)),
                   ((3, -1, 8), (3, 1, 8)), ((-1,), (24,)), ((-2,), (2, 3, 4)),
                   ((2, -2), (2, 3, 4)), ((-2, 1, 1), (2, 3, 4, 1, 1)), ((-3, 4), (6, 4)),
                   ((0, -3), (2, 12)), ((-3, -2), (6, 4)), ((-4, 1, 2, -2), (1, 2, 3, 4)),
                   ((2, -4, -1, 3, -2), (2, 1, 3, 4)), ((0, 2, -1, 2), (2, 2, 3, 2))]:
    one(f"reshape{_ns}", X234, "float32", lambda x, ns=_ns: relay.reshape(x, ns),
        lambda x, w=_want: x.reshape(w))
one("reshape(-3,-3)", (2, 3, 4, 5), "int32", lambda x: relay.reshape(x, (-3, -3)),
    lambda x: x.reshape(6, 20))
one("reshape(allowzero)", (0, 4), "float32", lambda x: relay.reshape(x, (4, 0), allowzero=True),
    lambda x: x.reshape(4, 0))
one("reshape_dyn(0,-1)", (ANY, 3, 4), "float32", lambda x: relay.reshape(x, (0, -1)),
    lambda x: x.reshape(x.shape[0], -1), runs=[[rand(2, 3, 4)], [rand(5, 3, 4)]])
one("reshape_dyn(-1,4)", (ANY, 3, 4), "int8", lambda x: relay.reshape(x, (-1, 4)),
    lambda x: x.reshape(-1, 4), runs=[[rand(2, 3, 4, dtype="int8")], [rand(3, 3, 4, dtype="int8")]])
one("reshape_dyn(-4)", (2, ANY, 4), "float32", lambda x: relay.reshape(x, (2, -4, -1, 2, 0)),
    lambda x: x.reshape(2, -1, 2, 4), runs=[[rand(2, 4, 4)], [rand(2, 6, 4)]])
one("reshape_dyn(-3,-2)", (2, ANY, 4), "float32", lambda x: relay.reshape(x, (-3, -2)),
    lambda x: x.reshape(-1, 4), runs=[[rand(2, 1, 4)], [rand(2, 5, 4)]])

# -- reshape_like, squeeze, expand_dims ------------------------------------------------
case("reshape_like", [("x", (1, 2, 3, 4), "float32"), ("s", (6, 2, 2, 3), "float32")],
     lambda x, s: relay.reshape_like(x, s, lhs_begin=1, rhs_end=3),
     [[rand(1, 2, 3, 4), rand(6, 2, 2, 3)]], lambda x, s: x.reshape(1, 6, 2, 2))
case("reshape_like_dyn", [("x", (ANY, 6), "int32"), ("s", (ANY, 2, 3), "int32")],
     lambda x, s: relay.reshape_like(x, s),
     [[rand(2, 6, dtype="int32"), rand(2, 2, 3, dtype="int32")],
      [rand(4, 6, dtype="int32"), rand(4, 2, 3, dtype="int32")]],
     lambda x, s: x.reshape(s.shape))
one("squeeze", (1, 3, 1, 2), "float32", lambda x: relay.squeeze(x), lambda x: np.squeeze(x))
one("squeeze(axis)", (1, 3, 1, 2), "bool", lambda x: relay.squeeze(x, axis=[-2]),
    lambda x: np.squeeze(x, axis=-2))
one("squeeze_dyn", (ANY, 1, 3), "float32", lambda x: relay.squeeze(x, axis=[1]),
    lambda x: np.squeeze(x, axis=1), runs=[[rand(2, 1, 3)], [rand(5, 1, 3)]])
one("expand_dims", (2, 3), "float16", lambda x: relay.expand_dims(x, 1, num_newaxis=2),
    lambda x: x.reshape(2, 1, 1, 3))
one("expand_dims(-1)", (2, 3), "int32", lambda x: relay.expand_dims(x, -1),
    lambda x: x[..., None])
one("expand_dims_dyn", (ANY, 3), "float32", lambda x: relay.expand_dims(x, 0),
    lambda x: x[None], runs=[[rand(2, 3)], [rand(4, 3)]])
one("expand_dims_0d", (), "float32", lambda x: relay.expand_dims(x, 0, num_newaxis=2),
    lambda x: x.reshape(1, 1), runs=[[np.array(3.5, "float32")]])

# -- stack, split ---------------------------------------------------------------------
case("stack", [("a", (2, 3), "float32"), ("b", (2, 3), "float32"), ("c", (2, 3), "float32")],
     lambda a, b, c: relay.stack([a, b, c], axis=0),
     [[rand(2, 3), rand(2, 3), rand(2, 3)]], lambda a, b, c: np.stack([a, b, c], 0))
case("stack(-1)", [("a", (2, 3), "int8"), ("b", (2, 3), "int8")],
     lambda a, b: relay.stack((a, b), axis=-1),
     [[rand(2, 3, dtype="int8"), rand(2, 3, dtype="int8")]], lambda a, b: np.stack([a, b], -1))
case("stack_dyn", [("a", (ANY, 3), "float32"), ("b", (ANY, 3), "float32")],
     lambda a, b: relay.stack([a, b], axis=1),
     [[rand(2, 3), rand(2, 3)], [rand(5, 3), rand(5, 3)]], lambda a, b: np.stack([a, b], 1))
one("split(sections)", (4, 6), "float32", lambda x: list(relay.split(x, 3, axis=1)),
    lambda x: tuple(np.split(x, 3, axis=1)))
one("split(indices)", (7, 2), "int32", lambda x: list(relay.split(x, [1, 4])),
    lambda x: tuple(np.split(x, [1, 4])))
one("split_dyn(sections)", (ANY, 3), "float32", lambda x: list(relay.split(x, 2)),
    lambda x: tuple(np.split(x, 2)), runs=[[rand(4, 3)], [rand(8, 3)]])
one("split_dyn(indices)", (2, ANY), "float32", lambda x: list(relay.split(x, [2], axis=-1)),
    lambda x: tuple(np.split(x, [2], axis=-1)), runs=[[rand(2, 3)], [rand(2, 6)]])

# -- strided_slice, reverse -------------------------------------------------------------
one("strided_slice", (3, 4), "float32", lambda x: relay.strided_slice(x, [0, 1], [2, 4]),
    lambda x: x[0:2, 1:4])
one("strided_slice(neg,clamp)", (5, 6), "int32",
    lambda x: relay.strided_slice(x, [-100, -1], [100, -7], strides=[2, -2]),
    lambda x: x[0:5:2, 5::-2])
one("strided_slice(partial)", (4, 5, 6), "float32",
    lambda x: relay.strided_slice(x, [1], [3]), lambda x: x[1:3])
one("strided_slice(axes)", (4, 5, 6), "float32",
    lambda x: relay.strided_slice(x, [1, 4], [6, 1], strides=[2, -1], axes=[2, 1]),
    lambda x: x[:, 4:1:-1, 1:6:2])
one("strided_slice(size)", (4, 6), "bool",
    lambda x: relay.strided_slice(x, [1, 2], [2, -1], slice_mode="size"),
    lambda x: x[1:3, 2:])

def _np_set(x, v, index):
    out = x.copy()
    out[index] = v
    return out


case("strided_set(run-time begin/end, clamp)", [("x", (ANY, 4), "float32"), ("v", (ANY, 4), "float32"),
                                                ("b", (1,), "int64"), ("e", (1,), "int64")],
     lambda x, v, b, e: relay.strided_set(x, v, b, e),
     [[rand(5, 4), rand(2, 4), np.array([1]), np.array([3])],
      [rand(3, 4), rand(2, 4), np.array([-2]), np.array([100])]],
     lambda x, v, b, e: _np_set(x, v, np.s_[int(b[0]):int(e[0])]))
case("strided_set(strides)", [("x", (4, 6), "int32"), ("v", (2, 3), "int32")],
     lambda x, v: relay.strided_set(x, v, [3, 0], [-100, 6], [-2, 2]),
     [[rand(4, 6, dtype="int32"), rand(2, 3, dtype="int32")]],
     lambda x, v: _np_set(x, v, np.s_[3::-2, 0:6:2]))
case("strided_set(one stride: dim 0, as TVM)", [("x", (4, 6), "float32"), ("v", (2, 5), "float32")],
     lambda x, v: relay.strided_set(x, v, [0, 1], [4, 6], [2]),
     [[rand(4, 6), rand(2, 5)]],
     lambda x, v: _np_set(x, v, np.s_[0:4:2, 1:6]))
one("strided_slice_dyn", (ANY, 6), "float32",
    lambda x: relay.strided_slice(x, [1, 0], [-1, 6], strides=[1, 2]),
    lambda x: x[1:-1, 0:6:2], runs=[[rand(3, 6)], [rand(7, 6)]])
one("strided_slice_dyn(neg)", (ANY,), "int32",
    lambda x: relay.strided_slice(x, [-2], [0], strides=[-3]),
    lambda x: x[-2:0:-3], runs=[[rand(5, dtype="int32")], [rand(11, dtype="int32")]])
one("reverse", (3, 4), "float32", lambda x: relay.reverse(x, axis=1), lambda x: x[:, ::-1])
one("reverse(i8)", (3, 4, 2), "int8", lambda x: relay.reverse(x, axis=-3), lambda x: x[::-1])
one("reverse_dyn", (ANY, 3), "float32", lambda x: relay.reverse(x, axis=0),
    lambda x: x[::-1], runs=[[rand(2, 3)], [rand(6, 3)]])

# -- tile, repeat ------------------------------------------------------------------------
one("tile", (2, 3), "float32", lambda x: relay.tile(x, (2, 3)), lambda x: np.tile(x, (2, 3)))
one("tile(promote)", (2, 3), "int32", lambda x: relay.tile(x, (2, 1, 2)),
    lambda x: np.tile(x, (2, 1, 2)))
one("tile(short reps)", (2, 3, 2), "bool", lambda x: relay.tile(x, (3,)),
    lambda x: np.tile(x, (3,)))
one("tile_dyn", (ANY, 3), "float32", lambda x: relay.tile(x, (2, 2)),
    lambda x: np.tile(x, (2, 2)), runs=[[rand(1, 3)], [rand(4, 3)]])
one("repeat", (2, 3), "float32", lambda x: relay.repeat(x, 2, axis=1),
    lambda x: np.repeat(x, 2, axis=1))
one("repeat(i8)", (2, 3), "int8", lambda x: relay.repeat(x, 3, axis=-2),
    lambda x: np.repeat(x, 3, axis=0))
one("repeat_dyn", (ANY, 2), "float32", lambda x: relay.repeat(x, 2, axis=0),
    lambda x: np.repeat(x, 2, axis=0), runs=[[rand(1, 2)], [rand(5, 2)]])

# -- broadcast_to(_like), collapse_sum_like --------------------------------------------
one("broadcast_to", (3, 1), "float32", lambda x: relay.broadcast_to(x, (2, 3, 4)),
    lambda x: np.broadcast_to(x, (2, 3, 4)))
one("broadcast_to(bool)", (1,), "bool", lambda x: relay.broadcast_to(x, (2, 3)),
    lambda x: np.broadcast_to(x, (2, 3)))
one("broadcast_to(1x1)", (1, 1), "int32", lambda x: relay.broadcast_to(x, (2, 1, 3)),
    lambda x: np.broadcast_to(x, (2, 1, 3)))
case("broadcast_to_like", [("x", (4,), "float32"), ("l", (2, 3, 4), "float32")],
     lambda x, l: relay.broadcast_to_like(x, l), [[rand(4), rand(2, 3, 4)]],
     lambda x, l: np.broadcast_to(x, l.shape))
case("broadcast_to_like_dyn", [("x", (3, 1), "float32"), ("l", (ANY, 3, 2), "float32")],
     lambda x, l: relay.broadcast_to_like(x, l),
     [[rand(3, 1), rand(1, 3, 2)], [rand(3, 1), rand(4, 3, 2)]],
     lambda x, l: np.broadcast_to(x, l.shape))
case("collapse_sum_like", [("x", (2, 3, 4), "float32"), ("l", (3, 1), "float32")],
     lambda x, l: relay.collapse_sum_like(x, l), [[rand(2, 3, 4), rand(3, 1)]],
     lambda x, l: x.sum(axis=(0, 2)).reshape(3, 1), F32)
case("collapse_sum_like(i32)", [("x", (2, 3), "int32"), ("l", (3,), "int32")],
     lambda x, l: relay.collapse_sum_like(x, l),
     [[rand(2, 3, dtype="int32"), rand(3, dtype="int32")]], lambda x, l: x.sum(axis=0, dtype="int32"))
case("collapse_sum_like_dyn", [("x", (ANY, 4), "float32"), ("l", (1, 4), "float32")],
     lambda x, l: relay.collapse_sum_like(x, l),
     [[rand(3, 4), rand(1, 4)], [rand(6, 4), rand(1, 4)]],
     lambda x, l: x.sum(axis=0, keepdims=True), F32)

# -- zeros, ones, full, *_like, arange ----------------------------------------------------
case("zeros", [], lambda: relay.zeros((2, 3), "float32"), [[]],
     lambda: np.zeros((2, 3), "float32"))
case("ones(i8)", [], lambda: relay.ones((4,), "int8"), [[]], lambda: np.ones(4, "int8"))
case("zeros(bool)", [], lambda: relay.zeros((2,), "bool"), [[]], lambda: np.zeros(2, bool))
case("ones(f16)", [], lambda: relay.ones((3, 1), "float16"), [[]],
     lambda: np.ones((3, 1), "float16"))
case("full", [("v", (), "float32")], lambda v: relay.full(v, (2, 2)),
     [[np.array(2.5, "float32")]], lambda v: np.full((2, 2), v, "float32"))
case("full(cast)", [("v", (), "float32")], lambda v: relay.full(v, (3,), "int32"),
     [[np.array(-7.0, "float32")]], lambda v: np.full(3, np.int32(v)))
# A fractional fill value truncates toward zero, as numpy's astype (a cast of
# the extracted scalar would run in IREE's VM: rounds to nearest, no f16 or
# u8 casts).
case("full(cast trunc)", [("v", (), "float32")], lambda v: relay.full(v, (3,), "int32"),
     [[np.array(-7.75, "float32")], [np.array(7.75, "float32")], [np.array(-0.5, "float32")]],
     lambda v: np.full(3, v.astype("int32")))
# (widened to int32 for the check: results of unsigned dtypes come back signed)
case("full(cast trunc u8)", [("v", (), "float32")],
     lambda v: relay.cast(relay.full(v, (2,), "uint8"), "int32"),
     [[np.array(200.9, "float32")], [np.array(0.75, "float32")]],
     lambda v: np.full(2, v.astype("uint8")).astype("int32"))
case("full(cast trunc f16)", [("v", (), "float16")], lambda v: relay.full(v, (2, 1), "int16"),
     [[np.array(-2.75, "float16")]], lambda v: np.full((2, 1), v.astype("int16")))
case("full_like(cast trunc)", [("x", (2, 2), "int64"), ("v", (), "float32")],
     lambda x, v: relay.full_like(x, v),
     [[rand(2, 2, dtype="int64"), np.array(-3.99, "float32")]],
     lambda x, v: np.full_like(x, v.astype("int64")))
case("full(const)", [], lambda: relay.full(relay.const(3, "int32"), (2,), "float16"), [[]],
     lambda: np.full(2, 3, "float16"))
one("zeros_like", (2, 3), "int32", relay.zeros_like, np.zeros_like)
one("ones_like", (2, 3), "float16", relay.ones_like, np.ones_like)
case("full_like", [("x", (2, 3), "int8"), ("v", (), "float32")],
     lambda x, v: relay.full_like(x, v), [[rand(2, 3, dtype="int8"), np.array(5.0, "float32")]],
     lambda x, v: np.full_like(x, 5))
one("ones_like_dyn", (ANY, 2), "float32", relay.ones_like, np.ones_like,
    runs=[[rand(1, 2)], [rand(3, 2)]])
case("full_like_dyn", [("x", (ANY,), "float32"), ("v", (), "float32")],
     lambda x, v: relay.full_like(x, v),
     [[rand(2), np.array(1.5, "float32")], [rand(5), np.array(-1.0, "float32")]],
     lambda x, v: np.full_like(x, v))
case("arange", [], lambda: relay.arange(relay.const(1.0), relay.const(5.0), relay.const(1.5)),
     [[]], lambda: np.arange(1.0, 5.0, 1.5, dtype="float32"), F32)
case("arange(int32)", [], lambda: relay.arange(7, dtype="int32"), [[]],
     lambda: np.arange(7, dtype="int32"))
case("arange(neg step)", [], lambda: relay.arange(10, 1, -3, dtype="int64"), [[]],
     lambda: np.arange(10, 1, -3, dtype="int64"))
case("arange_dyn", [("stop", (), "float32")], lambda s: relay.arange(relay.const(0.5), s),
     [[np.array(4.0, "float32")], [np.array(9.2, "float32")]],
     lambda s: np.arange(0.5, s, dtype="float32"), F32)
case("arange_dyn(int32)", [("n", (), "int32")],
     lambda n: relay.arange(relay.const(1, "int32"), n, relay.const(2, "int32"), dtype="int32"),
     [[np.array(6, "int32")], [np.array(11, "int32")]],
     lambda n: np.arange(1, n, 2, dtype="int32"))
case("arange_dyn(args)", [("a", (), "float32"), ("b", (), "float32"), ("c", (), "float32")],
     lambda a, b, c: relay.arange(a, b, c),
     [[np.array(-1.5, "float32"), np.array(2.0, "float32"), np.array(0.25, "float32")],
      [np.array(3.0, "float32"), np.array(-4.1, "float32"), np.array(-0.7, "float32")]],
     lambda a, b, c: np.arange(a, b, c, dtype="float32"), F32)
case("arange_dyn(args int64)", [("a", (), "int64"), ("b", (), "int64"), ("c", (), "int64")],
     lambda a, b, c: relay.arange(a, b, c, dtype="int64"),
     [[np.array(-3, "int64"), np.array(11, "int64"), np.array(4, "int64")],
      [np.array(9, "int64"), np.array(2, "int64"), np.array(-2, "int64")]],
     lambda a, b, c: np.arange(a, b, c, dtype="int64"))

# -- layout_transform -----------------------------------------------------------------------
one("layout NCHW->NHWC", (1, 3, 2, 4), "float32",
    lambda x: relay.layout_transform(x, "NCHW", "NHWC"), lambda x: x.transpose(0, 2, 3, 1))
one("layout NHWC->NCHW", (2, 2, 4, 3), "int32",
    lambda x: relay.layout_transform(x, "NHWC", "NCHW"), lambda x: x.transpose(0, 3, 1, 2))
one("layout NCHW->NCHW4c", (2, 8, 2, 3), "float32",
    lambda x: relay.layout_transform(x, "NCHW", "NCHW4c"),
    lambda x: x.reshape(2, 2, 4, 2, 3).transpose(0, 1, 3, 4, 2))
one("layout NCHW4c->NCHW", (2, 2, 2, 3, 4), "float32",
    lambda x: relay.layout_transform(x, "NCHW4c", "NCHW"),
    lambda x: x.transpose(0, 1, 4, 2, 3).reshape(2, 8, 2, 3))
one("layout NCHW4c->NHWC2c", (1, 2, 2, 3, 4), "float16",
    lambda x: relay.layout_transform(x, "NCHW4c", "NHWC2c"),
    lambda x: x.transpose(0, 1, 4, 2, 3).reshape(1, 4, 2, 2, 3).transpose(0, 3, 4, 1, 2))
one("layout_dyn NCHW->NHWC", (ANY, 2, 3, 3), "float32",
    lambda x: relay.layout_transform(x, "NCHW", "NHWC"), lambda x: x.transpose(0, 2, 3, 1),
    runs=[[rand(1, 2, 3, 3)], [rand(3, 2, 3, 3)]])

# -- einsum ------------------------------------------------------------------------------------


def einsum_case(name, eq, shapes, dtype="float32", tol=F32, runs=None):
    params = [(f"x{i}", s, dtype) for i, s in enumerate(shapes)]
    runs = runs or [[rand(*s, dtype=dtype) for s in shapes]]
    ref = (lambda *xs: np.einsum(eq, *[x.astype("float32") for x in xs]).astype(dtype)) \
        if dtype == "float16" else (lambda *xs: np.einsum(eq, *xs))
    case(name, params, lambda *xs: relay.einsum(list(xs), eq), runs, ref, tol)


einsum_case("einsum bij,bjk->bik", "bij,bjk->bik", [(2, 3, 4), (2, 4, 5)])
einsum_case("einsum ij,jk->ik", "ij,jk->ik", [(3, 4), (4, 5)])
einsum_case("einsum bhqd,bhkd->bhqk", "bhqd,bhkd->bhqk", [(2, 2, 3, 8), (2, 2, 5, 8)])
einsum_case("einsum bhqk,bhkd->bhqd", "bhqk,bhkd->bhqd", [(2, 2, 3, 5), (2, 2, 5, 8)])
einsum_case("einsum bhqd,bhkd->bhqk f16", "bhqd,bhkd->bhqk", [(1, 2, 3, 16), (1, 2, 4, 16)],
            dtype="float16", tol=F16)
einsum_case("einsum ij->ji", "ij->ji", [(3, 4)], tol=EXACT)
einsum_case("einsum bij->j", "bij->j", [(2, 3, 4)])
einsum_case("einsum i,i->", "i,i->", [(5,), (5,)])
einsum_case("einsum ii->i", "ii->i", [(4, 4)], tol=EXACT)
einsum_case("einsum implicit ij,jk", "ij,jk", [(2, 3), (3, 4)])
einsum_case("einsum ...ij,...jk->...ik", "...ij,...jk->...ik", [(2, 1, 3, 4), (3, 4, 2)])
einsum_case("einsum i,j->ij i32", "i,j->ij", [(3,), (4,)], dtype="int32", tol=EXACT)
einsum_case("einsum_dyn bij,bjk->bik", "bij,bjk->bik", [(ANY, 3, 4), (ANY, 4, 2)],
            runs=[[rand(1, 3, 4), rand(1, 4, 2)], [rand(3, 3, 4), rand(3, 4, 2)]])
einsum_case("einsum_dyn ij,jk->ik", "ij,jk->ik", [(ANY, 4), (4, 3)],
            runs=[[rand(2, 4), rand(4, 3)], [rand(5, 4), rand(4, 3)]])

# -- transpose, concatenate ---------------------------------------------------------------------
one("transpose", (2, 3, 4), "float32", lambda x: relay.transpose(x), lambda x: x.transpose())
one("transpose(axes)", (2, 3, 4), "float32", lambda x: relay.transpose(x, axes=(1, 0, 2)),
    lambda x: x.transpose(1, 0, 2))
case("concatenate", [("a", (2, 1), "float32"), ("b", (2, 3), "float32"), ("c", (2, 2), "float32")],
     lambda a, b, c: relay.concatenate((a, b, c), axis=1), [[rand(2, 1), rand(2, 3), rand(2, 2)]],
     lambda a, b, c: np.concatenate([a, b, c], axis=1))
one("concatenate_dyn(transpose)", (ANY, 3, 4), "float32",
    lambda x: relay.concatenate([relay.transpose(relay.reshape(x, (0, -1)))] * 2, axis=1),
    lambda x: np.concatenate([x.reshape(x.shape[0], -1).T] * 2, axis=1),
    runs=[[rand(2, 3, 4)], [rand(5, 3, 4)]])


# -- compile once ---------------------------------------------------------------------------------
def _fn_name(i: int) -> str:
    return f"case{i}"


NAMES = list(CASES)


@pytest.fixture(scope="module")
def compiled():
    """Every case as a function of one module, compiled once."""
    mod = relay.IRModule({_fn_name(i): CASES[n][0] for i, n in enumerate(NAMES)})
    return relay.compile(mod, target="llvm-cpu")


def _check(got, want, tol) -> None:
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _check(g, w, tol)
        return
    want = np.asarray(want)
    got = np.asarray(got)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if tol is EXACT:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got.astype("float32"), want.astype("float32"), **tol)


@pytest.mark.parametrize("name", NAMES)
def test_transform(compiled, name):
    _, runs, reference, tol = CASES[name]
    for inputs in runs:
        _check(compiled.run(_fn_name(NAMES.index(name)), *inputs), reference(*inputs), tol)


def test_full_cast_truncates():
    v = relay.var("v", shape=(), dtype="float32")
    exe = relay.compile(relay.IRModule.from_expr(relay.Function([v], relay.full(v, (3,), "int32"))))
    np.testing.assert_array_equal(exe(np.array(-7.75, "float32")), np.full(3, -7, "int32"))


def test_dynamic_cases_run_two_sizes():
    dyn = [n for n in NAMES if "dyn" in n]
    assert len(dyn) >= 15
    assert all(len(CASES[n][1]) == 2 for n in dyn)


def test_inferred_types():
    x = relay.var("x", shape=(ANY, 6))
    parts = relay.split(x, 3, axis=1)
    f = relay.Function([x], relay.Tuple([parts[0], relay.strided_slice(x, [0, -2], [2, 6]),
                                         relay.arange(relay.const(0.0), relay.const(2.0),
                                                      relay.const(0.5))]))
    mod = relay.transform.InferType()(relay.IRModule.from_expr(f))
    assert str(mod["main"].body.checked_type) == \
        "tuple<tensor<?x2xf32>, tensor<?x2xf32>, tensor<4xf32>>"


def test_relation_errors_are_located():
    x = relay.var("x", shape=(2, 3))
    with pytest.raises(relay.CompileError, match="cannot squeeze axis 1: its dim is 3, not 1"):
        relay.transform.InferType()(relay.IRModule.from_expr(relay.squeeze(x, axis=[1])))
    with pytest.raises(relay.CompileError, match="does not broadcast to target shape"):
        relay.transform.InferType()(relay.IRModule.from_expr(relay.broadcast_to(x, (2, 4))))


def test_builder_checks():
    x = relay.var("x", shape=(2, 3))
    with pytest.raises(TypeError):
        relay.repeat(x, 2.0, axis=0)
    with pytest.raises(ValueError):
        relay.stack([], axis=0)
    assert len(relay.split(x, [1, 2], axis=1)) == 3
    assert relay.arange(3, dtype="int32").args[0].data.dtype == np.int32
