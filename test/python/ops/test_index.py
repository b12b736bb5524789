"""Numerics of indexing (take, gather, gather_nd, scatter_elements,
scatter_nd, one_hot), scans (cumsum, cumprod) and sorting (sort, argsort,
topk) on llvm-cpu against numpy.

Every case is one function of ONE module compiled once for the file; cases
with a `?` dim run at two sizes. References are plain numpy (np.take,
take_along_axis, stable np.argsort, explicit loops for the scatters).
Tolerances: data movement and integer results exact; float scans rtol 1e-5
/ atol 1e-5 (float16, accumulated in float16: 1e-2).
"""
from __future__ import annotations

from typing import Callable, Dict, List, Tuple

import numpy as np
import pytest

import relay_mlir as relay

R = np.random.default_rng(5)
EXACT = dict(rtol=0, atol=0)
F32 = dict(rtol=1e-5, atol=1e-5)
F16 = dict(rtol=1e-2, atol=1e-2)
DYN = relay.Any()

CASES: Dict[str, Tuple[List, object, List[List[np.ndarray]], Callable, dict]] = {}


def rand(*shape, dtype="float32", lo=-2.0, hi=2.0):
    if np.dtype(dtype).kind in "iu":
        return R.integers(lo, hi, size=shape).astype(dtype)
    return R.uniform(lo, hi, size=shape).astype(dtype)


def case(name, params, body, runs, ref, tol=EXACT):
    CASES[name] = (params, body, runs, ref, tol)


def v(name, shape, dtype="float32"):
    return relay.var(name, shape=shape, dtype=dtype)


# -- take ------------------------------------------------------------------------
def np_take(a, i, axis=None, batch_dims=0, mode="clip"):
    if axis is None:
        a, axis = a.reshape(-1), 0
    n = a.shape[axis]
    if mode == "clip":
        i = np.clip(i, 0, n - 1)
    elif mode == "wrap":
        i = np.mod(i, n)
    if batch_dims == 0:
        return np.take(a, i, axis=axis)
    out = [np_take(a[b], i[b], axis - 1, batch_dims - 1, mode) for b in range(a.shape[0])]
    return np.stack(out)


def take_case(name, dshape, ishape, dtype="float32", itype="int32", ilo=0, ihi=None, **attrs):
    d, i = v("d", dshape, dtype), v("i", ishape, itype)
    axis = attrs.get("axis")
    n = int(np.prod(dshape)) if axis is None else dshape[axis]
    idx = rand(*ishape, dtype=itype, lo=ilo, hi=n if ihi is None else ihi)
    case(name, [d, i], relay.take(d, i, **attrs), [[rand(*dshape, dtype=dtype), idx]],
         lambda a, b: np_take(a, b, **attrs))


take_case("take_rows", (10, 4), (2, 3), axis=0)                       # embedding lookup
take_case("take_axis1_i64", (3, 5, 2), (4,), itype="int64", axis=1)
take_case("take_flat_clip", (3, 4), (7,), ilo=-5, ihi=20)             # clip: out of range
take_case("take_wrap", (3, 4), (2, 5), axis=1, ilo=-9, ihi=9, mode="wrap")
take_case("take_fast_f16", (6, 3), (4,), dtype="float16", axis=0, mode="fast")
take_case("take_i8", (5, 3), (2, 2), dtype="int8", axis=-1)
take_case("take_batch_dims", (2, 5, 3), (2, 4), axis=1, batch_dims=1)


def _take_nan():
    d, i = v("d", (4,)), v("i", (5,), "int32")
    case("take_nan", [d, i], relay.take(d, i, axis=0, mode="nan"),
         [[np.arange(4, dtype="float32"), np.array([0, 3, 4, -1, 2], "int32")]],
         lambda a, b: np.where((b >= 0) & (b < 4), a[np.clip(b, 0, 3)], np.nan).astype("float32"))


_take_nan()


# -- gather / gather_nd ----------------------------------------------------------
def gather_case(name, dshape, ishape, axis, dtype="float32"):
    d, i = v("d", dshape, dtype), v("i", ishape, "int64")
    idx = rand(*ishape, dtype="int64", lo=0, hi=dshape[axis])
    case(name, [d, i], relay.gather(d, axis, i), [[rand(*dshape, dtype=dtype), idx]],
         lambda a, b: np.take_along_axis(a, b, axis=axis))


gather_case("gather_axis1", (3, 5, 2), (3, 4, 2), 1)
gather_case("gather_axis0_i32", (4, 3), (6, 3), 0, dtype="int32")


def np_gather_nd(a, idx, batch_dims=0):
    if batch_dims:
        return np.stack([np_gather_nd(a[b], idx[:, b], batch_dims - 1) for b in range(a.shape[0])])
    m = idx.shape[0]
    ys = idx.shape[1:]
    out = np.empty(ys + a.shape[m:], a.dtype)
    for y in np.ndindex(*ys):
        out[y] = a[tuple(idx[(slice(None),) + y])]
    return out


def _gather_nd():
    d, i = v("d", (3, 4, 5)), v("i", (2, 6), "int32")
    idx = np.stack([rand(6, dtype="int32", lo=0, hi=3), rand(6, dtype="int32", lo=0, hi=4)])
    case("gather_nd", [d, i], relay.gather_nd(d, i), [[rand(3, 4, 5), idx]], np_gather_nd)
    i2 = v("i", (1, 3, 2), "int32")
    idx2 = rand(1, 3, 2, dtype="int32", lo=0, hi=4)
    case("gather_nd_batch", [d, i2], relay.gather_nd(d, i2, batch_dims=1), [[rand(3, 4, 5), idx2]],
         lambda a, b: np_gather_nd(a, b, 1))


_gather_nd()


# -- scatter_elements / scatter_nd ---------------------------------------------------
def np_scatter_elements(a, idx, upd, axis=0, reduction="update"):
    out = a.copy()
    for u in np.ndindex(*idx.shape):
        t = list(u)
        t[axis] = idx[u] % a.shape[axis]
        t = tuple(t)
        if reduction == "update":
            out[t] = upd[u]
        elif reduction == "add":
            out[t] += upd[u]
        elif reduction == "mul":
            out[t] *= upd[u]
        elif reduction == "mean":  # Relay's (TVM 0.19) running mean, in update order
            out[t] = (out[t] + upd[u]) / 2
        elif reduction == "min":
            out[t] = min(out[t], upd[u])
        else:
            out[t] = max(out[t], upd[u])
    return out


def scatter_el_case(name, dshape, ishape, axis, reduction, dtype="float32"):
    d, i, u = v("d", dshape, dtype), v("i", ishape, "int32"), v("u", ishape, dtype)
    idx = rand(*ishape, dtype="int32", lo=-dshape[axis], hi=dshape[axis])  # duplicates, negatives
    case(name, [d, i, u], relay.scatter_elements(d, i, u, axis=axis, reduction=reduction),
         [[rand(*dshape, dtype=dtype), idx, rand(*ishape, dtype=dtype)]],
         lambda a, b, c: np_scatter_elements(a, b, c, axis, reduction), F32)


scatter_el_case("scatter_elements_update", (4, 3), (5, 3), 0, "update")
scatter_el_case("scatter_elements_add_axis1", (3, 6), (2, 4), 1, "add")   # updates smaller than data
scatter_el_case("scatter_elements_mul", (4, 3), (3, 2), 0, "mul")
scatter_el_case("scatter_elements_mean", (4, 3), (6, 3), 0, "mean")    # up to 6 updates per element
scatter_el_case("scatter_elements_mean_axis1", (3, 5), (2, 4), 1, "mean")
# index 1 gets three updates: the running mean differs from the arithmetic one
_d, _i, _u = v("d", (5,)), v("i", (4,), "int64"), v("u", (4,))
case("scatter_elements_mean_repeated", [_d, _i, _u], relay.scatter_elements(_d, _i, _u, reduction="mean"),
     [[rand(5), np.array([1, -4, 3, 1], "int64"), rand(4)]],
     lambda a, b, c: np_scatter_elements(a, b, c, 0, "mean"), F32)
scatter_el_case("scatter_elements_min_i32", (4, 3), (5, 3), 0, "min", dtype="int32")
scatter_el_case("scatter_elements_max", (2, 5), (2, 5), 1, "max")


def np_scatter_nd(a, idx, upd, mode="update"):
    out = a.copy()
    m = idx.shape[0]
    for y in np.ndindex(*idx.shape[1:]):
        t = tuple(idx[(slice(None),) + y])
        if mode == "update":
            out[t] = upd[y]
        elif mode == "add":
            out[t] += upd[y]
        elif mode == "mul":
            out[t] *= upd[y]
        elif mode == "min":
            out[t] = np.minimum(out[t], upd[y])
        else:
            out[t] = np.maximum(out[t], upd[y])
    return out


def scatter_nd_case(name, dshape, m, yshape, mode):
    ishape = (m,) + yshape
    ushape = yshape + dshape[m:]
    d, i, u = v("d", dshape), v("i", ishape, "int32"), v("u", ushape)
    idx = np.stack([rand(*yshape, dtype="int32", lo=0, hi=dshape[j]) for j in range(m)])
    case(name, [d, i, u], relay.scatter_nd(d, i, u, mode=mode),
         [[rand(*dshape), idx, rand(*ushape)]], lambda a, b, c: np_scatter_nd(a, b, c, mode), F32)


scatter_nd_case("scatter_nd_update_rows", (5, 3), 1, (4,), "update")
scatter_nd_case("scatter_nd_add_points", (4, 3), 2, (2, 3), "add")
scatter_nd_case("scatter_nd_max", (3, 4, 2), 2, (5,), "max")


# -- one_hot -----------------------------------------------------------------
def np_one_hot(idx, on, off, depth, axis, dtype):
    hot = idx[..., None] == np.arange(depth)
    out = np.where(hot, on, off).astype(dtype)
    return np.moveaxis(out, -1, axis if axis >= 0 else out.ndim - 1)


def one_hot_case(name, ishape, depth, axis, dtype, on, off):
    i = v("i", ishape, "int32")
    idx = rand(*ishape, dtype="int32", lo=-1, hi=depth + 1)  # some indices match no class
    body = relay.one_hot(i, relay.const(on, dtype), relay.const(off, dtype), depth, axis, dtype)
    case(name, [i], body, [[idx]], lambda b: np_one_hot(b, on, off, depth, axis, dtype))


one_hot_case("one_hot_last", (2, 3), 4, -1, "float32", 1.0, 0.0)
one_hot_case("one_hot_axis0_i32", (5,), 3, 0, "int32", 7, -1)


# -- cumsum / cumprod ----------------------------------------------------------
def np_scan(fn, a, axis=None, dtype=None, exclusive=False):
    x = a.reshape(-1) if axis is None else a
    ax = 0 if axis is None else axis
    x = x.astype(dtype or a.dtype)
    out = fn(x.astype(np.float64) if x.dtype.kind == "f" else x, axis=ax)
    if exclusive:
        ident = 1 if fn is np.cumprod else 0
        out = np.concatenate([np.full_like(np.take(out, [0], axis=ax), ident),
                              np.take(out, range(x.shape[ax] - 1), axis=ax)], axis=ax)
    return out.astype(dtype or a.dtype)


def scan_case(name, op, fn, shape, dtype="float32", tol=F32, lo=-2.0, hi=2.0, **attrs):
    d = v("d", shape, dtype)
    case(name, [d], op(d, **attrs), [[rand(*shape, dtype=dtype, lo=lo, hi=hi)]],
         lambda a: np_scan(fn, a, **attrs), tol)


scan_case("cumsum_axis1", relay.cumsum, np.cumsum, (3, 7), axis=1)
scan_case("cumsum_flat", relay.cumsum, np.cumsum, (2, 3, 2))
scan_case("cumsum_exclusive_i32", relay.cumsum, np.cumsum, (4, 5), dtype="int32", tol=EXACT,
          lo=-9, hi=9, axis=0, exclusive=True)
scan_case("cumprod_axis0", relay.cumprod, np.cumprod, (5, 3), lo=0.5, hi=1.5, axis=0)
scan_case("cumprod_exclusive_f16", relay.cumprod, np.cumprod, (2, 6), dtype="float16", tol=F16,
          lo=0.5, hi=1.5, axis=-1, exclusive=True)


def _cumsum_dtype():
    d = v("d", (9,), "int8")
    case("cumsum_int8_as_int32", [d], relay.cumsum(d, axis=0, dtype="int32"),
         [[rand(9, dtype="int8", lo=100, hi=127)]],      # would overflow int8
         lambda a: np.cumsum(a.astype("int32")).astype("int32"))


_cumsum_dtype()


# -- sort / argsort / topk -------------------------------------------------------
def ties(*shape, dtype="float32"):
    return R.integers(-3, 4, size=shape).astype(dtype)   # many equal values


def np_argsort(a, axis=-1, is_ascend=True):
    key = a if is_ascend else -a.astype(np.float64)
    return np.argsort(key, axis=axis, kind="stable")


def np_sort(a, axis=-1, is_ascend=True):
    return np.take_along_axis(a, np_argsort(a, axis, is_ascend), axis=axis)


def np_topk(a, k=1, axis=-1, ret_type="both", is_ascend=False, dtype="int32"):
    idx = np_argsort(a, axis, is_ascend)
    if k >= 1:
        idx = np.take(idx, range(k), axis=axis)
    vals = np.take_along_axis(a, idx, axis=axis)
    idx = idx.astype(dtype)
    return {"both": (vals, idx), "values": vals, "indices": idx}[ret_type]


def sort_case(name, op, ref, shape, data_dtype="float32", **attrs):
    d = v("d", shape, data_dtype)
    case(name, [d], op(d, **attrs), [[ties(*shape, dtype=data_dtype)]], lambda a: ref(a, **attrs))


sort_case("sort_last", relay.sort, np_sort, (3, 8))
sort_case("sort_desc_axis0_i32", relay.sort, np_sort, (6, 3), data_dtype="int32", axis=0,
          is_ascend=False)
sort_case("sort_f16", relay.sort, np_sort, (2, 5), data_dtype="float16")
sort_case("argsort_stable", relay.argsort, lambda a, **k: np_argsort(a, **k).astype("int32"), (4, 9))
sort_case("argsort_desc_i64", relay.argsort,
          lambda a, **k: np_argsort(a, k["axis"], k["is_ascend"]).astype(k["dtype"]),
          (3, 5, 2), axis=1, is_ascend=False, dtype="int64")


def topk_case(name, shape, **attrs):
    d = v("d", shape)
    out = relay.topk(d, **attrs)
    body = relay.Tuple([out[0], out[1]]) if attrs.get("ret_type", "both") == "both" else out
    case(name, [d], body, [[ties(*shape)]], lambda a: np_topk(a, **attrs))


topk_case("topk_both", (3, 8), k=3)
topk_case("topk_values_asc_axis0", (6, 4), k=2, axis=0, ret_type="values", is_ascend=True)
topk_case("topk_indices_all", (2, 5), k=0, ret_type="indices")


# -- `?` dims: one compiled function, two runtime sizes -------------------------------
def dyn_case(name, params, body, runs, ref, tol=EXACT):
    case(name, params, body, runs, ref, tol)


def _dyn():
    w, i = v("w", (DYN, 4)), v("i", (DYN,), "int32")
    dyn_case("dyn_take_rows", [w, i], relay.take(w, i, axis=0),
             [[rand(6, 4), rand(3, dtype="int32", lo=0, hi=6)],
              [rand(9, 4), rand(7, dtype="int32", lo=0, hi=9)]],
             lambda a, b: np.take(a, b, axis=0))
    d, g = v("d", (DYN, 5)), v("g", (DYN, 2), "int32")
    dyn_case("dyn_gather", [d, g], relay.gather(d, 1, g),
             [[rand(2, 5), rand(2, 2, dtype="int32", lo=0, hi=5)],
              [rand(6, 5), rand(6, 2, dtype="int32", lo=0, hi=5)]],
             lambda a, b: np.take_along_axis(a, b, axis=1))
    x, si, su = v("x", (DYN, 3)), v("si", (1, 4), "int32"), v("su", (4, 3))
    dyn_case("dyn_scatter_nd_add", [x, si, su], relay.scatter_nd(x, si, su, mode="add"),
             [[rand(5, 3), rand(1, 4, dtype="int32", lo=0, hi=5), rand(4, 3)],
              [rand(8, 3), rand(1, 4, dtype="int32", lo=0, hi=8), rand(4, 3)]],
             lambda a, b, c: np_scatter_nd(a, b, c, "add"), F32)
    sd, sx, sv = v("sd", (DYN, 3)), v("sx", (DYN, 3), "int32"), v("sv", (DYN, 3))
    dyn_case("dyn_scatter_elements_mean", [sd, sx, sv], relay.scatter_elements(sd, sx, sv, reduction="mean"),
             [[rand(2, 3), rand(4, 3, dtype="int32", lo=0, hi=2), rand(4, 3)],
              [rand(5, 3), rand(7, 3, dtype="int32", lo=-5, hi=5), rand(7, 3)]],
             lambda a, b, c: np_scatter_elements(a, b, c, 0, "mean"), F32)
    oi = v("oi", (DYN,), "int32")
    dyn_case("dyn_one_hot", [oi], relay.one_hot(oi, relay.const(1.0), relay.const(0.0), 5, -1,
                                                "float32"),
             [[rand(3, dtype="int32", lo=0, hi=5)], [rand(8, dtype="int32", lo=0, hi=5)]],
             lambda b: np_one_hot(b, 1.0, 0.0, 5, -1, "float32"))
    c = v("c", (2, DYN))
    dyn_case("dyn_cumsum", [c], relay.cumsum(c, axis=1),
             [[rand(2, 3)], [rand(2, 11)]], lambda a: np.cumsum(a.astype(np.float64), axis=1)
             .astype("float32"), F32)
    dyn_case("dyn_cumprod_flat", [c], relay.cumprod(c),
             [[rand(2, 3, lo=0.5, hi=1.5)], [rand(2, 5, lo=0.5, hi=1.5)]],
             lambda a: np.cumprod(a.reshape(-1).astype(np.float64)).astype("float32"), F32)
    s = v("s", (DYN, 6))
    dyn_case("dyn_sort_desc", [s], relay.sort(s, is_ascend=False),
             [[ties(2, 6)], [ties(5, 6)]], lambda a: np_sort(a, is_ascend=False))
    t = v("t", (2, DYN))
    out = relay.topk(t, k=2)
    dyn_case("dyn_topk", [t], relay.Tuple([out[0], out[1]]),
             [[ties(2, 4)], [ties(2, 9)]], lambda a: np_topk(a, k=2))
    dyn_case("dyn_argsort", [t], relay.argsort(t),
             [[ties(2, 3)], [ties(2, 10)]], lambda a: np_argsort(a).astype("int32"))


_dyn()


@pytest.fixture(scope="module")
def exe():
    mod = relay.IRModule({name: relay.Function(params, body)
                          for name, (params, body, _, _, _) in CASES.items()})
    return relay.compile(mod, target="llvm-cpu")


def _gather_nd_rows(d, i):
    return d[i[0], i[1]]


# (op, its call on data [5, 3] and indices, numpy on valid indices, valid, invalid indices)
_CHECKED = {
    # mode "fast": indices in [0, n)
    "take_fast": (lambda d, i: relay.take(d, i, axis=0, mode="fast"), lambda d, i: d[i],
                  [4, 0, 2], [[5], [0, -1], [2, 1 << 40]]),
    # gather and gather_nd: in [-n, n), negative ones from the end
    "gather": (lambda d, i: relay.gather(d, 1, relay.reshape(i, (1, -1))),
               lambda d, i: np.take_along_axis(d[:1], i.reshape(1, -1), axis=1),
               [2, -3, 0], [[3], [0, -4], [1 << 40]]),
    "gather_nd": (lambda d, i: relay.gather_nd(d, relay.reshape(i, (2, -1))), _gather_nd_rows,
                  [4, -5, 2, -1], [[5, 0], [0, 3], [-6, 0], [0, -4]]),
    # scatters: an index out of range would lose its update
    "scatter_elements": (
        lambda d, i: relay.scatter_elements(d, relay.reshape(i, (-1, 1)),
                                            relay.cast(relay.reshape(i, (-1, 1)), "float32"), 0),
        lambda d, i: _np_scatter_rows(d, i), [4, -1, 0], [[5], [0, -6], [1 << 40]]),
    "scatter_nd": (
        lambda d, i: relay.scatter_nd(d, relay.reshape(i, (2, -1)),
                                      relay.cast(relay.sum(relay.reshape(i, (2, -1)), axis=0),
                                                 "float32")),
        lambda d, i: _np_scatter_cells(d, i), [4, -5, 2, -1], [[5, 0], [0, 3], [-6, 0], [0, -4]]),
}


def _np_scatter_rows(d, i):
    out = d.copy()
    out[i, 0] = i
    return out


def _np_scatter_cells(d, i):
    out = d.copy()
    out[i[0], i[1]] = i[0] + i[1]
    return out


@pytest.mark.parametrize("op", list(_CHECKED))
def test_index_out_of_range_is_a_run_time_error(op):
    # an index out of range is an error after the program's work (never a clamped read or a
    # read out of bounds), compiled and interpreted alike
    build, ref, good, bads = _CHECKED[op]
    d, i = v("d", (5, 3)), v("i", (DYN,), "int64")
    f = relay.Function([d, i], relay.exp(build(d, i)))
    exe = relay.compile(f)
    interp = relay.create_executor("debug", mod=relay.IRModule.from_expr(f)).evaluate()
    data = rand(5, 3)
    good = np.array(good, np.int64)
    want = np.exp(ref(data, good.reshape(2, -1) if op.endswith("_nd") else good))
    np.testing.assert_allclose(exe(data, good), want, rtol=1e-6)
    np.testing.assert_allclose(interp(data, good), want, rtol=1e-6)
    for bad in bads:
        for run in (exe, interp):
            with pytest.raises(relay.RelayRuntimeError, match="index is out of range"):
                run(data, np.array(bad, np.int64))


@pytest.mark.parametrize("name", list(CASES))
def test_index_numerics(exe, name):
    _, _, runs, reference, tol = CASES[name]
    for inputs in runs:
        got = exe.run(name, *inputs)
        want = reference(*inputs)
        if isinstance(want, tuple):
            assert isinstance(got, tuple) and len(got) == len(want)
            pairs = list(zip(got, want))
        else:
            pairs = [(got, want)]
        for g, w in pairs:
            w = np.asarray(w)
            assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, g.dtype, w.shape, w.dtype)
            np.testing.assert_allclose(g, w, **tol)
