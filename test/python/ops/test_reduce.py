"""Numerics of the reductions on llvm-cpu against numpy.

Every case is one function of ONE module, compiled once for the file
(`Executable.run(name, ...)`); cases with a `?` dim run at two sizes.
References are plain numpy in float64 (integer/bool ops exact).
Tolerances: max/min/argmax/argmin/all/any exact; sum-like (prod, variance,
std, logsumexp) float32 rtol 1e-5 / atol 1e-5; sum and mean float32 rtol 1e-4 /
atol 1e-5; float16 (accumulated in
float16, as the op computes) rtol 1e-2 / atol 1e-2.
"""
from __future__ import annotations

from typing import Callable, Dict, List, Tuple

import numpy as np
import pytest

import relay_mlir as relay

R = np.random.default_rng(11)
EXACT = dict(rtol=0, atol=0)
F32 = dict(rtol=1e-5, atol=1e-5)
F16 = dict(rtol=1e-2, atol=1e-2)

# name -> (params, body, [input sets], reference, tolerance)
CASES: Dict[str, Tuple[List, object, List[List[np.ndarray]], Callable, dict]] = {}


def rand(*shape, dtype="float32", lo=-2.0, hi=2.0):
    if np.dtype(dtype).kind in "iu":
        return R.integers(lo, hi, size=shape).astype(dtype)
    if np.dtype(dtype) == np.bool_:
        return R.random(size=shape) < 0.5
    return R.uniform(lo, hi, size=shape).astype(dtype)


def axes_of(ndim, axis, exclude):
    if axis is None:
        return tuple(range(ndim))
    axes = tuple(a % ndim for a in ([axis] if isinstance(axis, int) else axis))
    return tuple(a for a in range(ndim) if a not in axes) if exclude else axes


def npreduce(fn, x, axis=None, keepdims=False, exclude=False, dtype=None):
    out = fn(x.astype(np.float64) if x.dtype.kind == "f" else x,
             axis=axes_of(x.ndim, axis, exclude), keepdims=keepdims)
    return np.asarray(out).astype(dtype or x.dtype)


def add(name, shape, dtype, op, ref, tol, runs=None, **attrs):
    x = relay.var("x", shape=shape, dtype=dtype)
    if runs is None:
        runs = [[rand(*shape, dtype=dtype)]]
    CASES[name] = ([x], op(x, **attrs), runs, lambda a: ref(a, **attrs), tol)


# -- max / min / prod ----------------------------------------------------------
for dt, tol in (("float32", EXACT), ("float16", EXACT), ("int32", EXACT), ("int8", EXACT)):
    add(f"max_axis1_{dt}", (2, 3, 4), dt, relay.max, lambda a, **k: npreduce(np.max, a, **k), tol,
        axis=1)
    add(f"min_all_{dt}", (3, 5), dt, relay.min, lambda a, **k: npreduce(np.min, a, **k), tol)
add("max_keepdims_exclude", (2, 3, 4), "float32", relay.max,
    lambda a, **k: npreduce(np.max, a, **k), EXACT, axis=1, keepdims=True, exclude=True)
add("min_neg_axes", (2, 3, 4), "float32", relay.min, lambda a, **k: npreduce(np.min, a, **k),
    EXACT, axis=(-1, 0))
add("prod_axis0_f32", (3, 4), "float32", relay.prod, lambda a, **k: npreduce(np.prod, a, **k),
    F32, axis=0)
add("prod_keepdims_i32", (2, 3, 2), "int32", relay.prod, lambda a, **k: npreduce(np.prod, a, **k),
    EXACT, axis=(1, 2), keepdims=True)
add("prod_f16", (2, 5), "float16", relay.prod, lambda a, **k: npreduce(np.prod, a, **k), F16,
    axis=1)

# -- all / any (bool) ----------------------------------------------------------
add("all_axis1", (3, 4, 2), "bool", relay.all, lambda a, **k: npreduce(np.all, a, **k), EXACT,
    axis=1)
add("any_axis1", (3, 4, 2), "bool", relay.any, lambda a, **k: npreduce(np.any, a, **k), EXACT,
    axis=1)
add("all_full", (2, 2), "bool", relay.all, lambda a, **k: npreduce(np.all, a, **k), EXACT,
    runs=[[np.array([[True, True], [True, True]])]])
add("any_exclude_keepdims", (3, 4, 2), "bool", relay.any,
    lambda a, **k: npreduce(np.any, a, **k), EXACT, axis=0, exclude=True, keepdims=True)


# -- argmax / argmin -------------------------------------------------------------
def npargreduce(fn, a, axis=None, keepdims=False, exclude=False, select_last_index=False):
    """Row-major index over the reduced dims (Relay), first or last on ties."""
    axes = axes_of(a.ndim, axis, exclude)
    kept = [d for d in range(a.ndim) if d not in axes]
    moved = np.transpose(a, kept + list(axes))
    flat = moved.reshape([a.shape[d] for d in kept] + [-1])
    if select_last_index:
        idx = flat.shape[-1] - 1 - fn(flat[..., ::-1], axis=-1)
    else:
        idx = fn(flat, axis=-1)
    idx = idx.astype("int32")
    if keepdims:
        idx = idx.reshape([1 if d in axes else a.shape[d] for d in range(a.ndim)])
    return idx


TIES = np.array([[1, 3, 3, 0], [2, 2, 2, 2], [5, 1, 5, 1]], "float32")
for name, op, fn in (("argmax", relay.argmax, np.argmax), ("argmin", relay.argmin, np.argmin)):
    ref = (lambda f: lambda a, **k: npargreduce(f, a, **k))(fn)
    add(f"{name}_axis1", (2, 5, 3), "float32", op, ref, EXACT, axis=1)
    add(f"{name}_all_i32", (3, 4), "int32", op, ref, EXACT, runs=[[rand(3, 4, dtype="int32", lo=-50, hi=50)]])
    add(f"{name}_multi_keepdims", (2, 3, 4), "float32", op, ref, EXACT, axis=(0, 2), keepdims=True)
    add(f"{name}_ties_first", (3, 4), "float32", op, ref, EXACT, runs=[[TIES]], axis=1)
    add(f"{name}_ties_last", (3, 4), "float32", op, ref, EXACT, runs=[[TIES]], axis=1,
        select_last_index=True)
    add(f"{name}_f16", (4, 6), "float16", op, ref, EXACT, axis=-1)


# -- variance / std / mean_variance / logsumexp -------------------------------
def npvar(a, axis=None, keepdims=False, exclude=False, unbiased=False):
    return npreduce(lambda v, axis, keepdims: np.var(v, axis=axis, keepdims=keepdims,
                                                     ddof=1 if unbiased else 0),
                    a, axis, keepdims, exclude)


def npstd(a, **k):
    return np.sqrt(npvar(a, **k).astype(np.float64)).astype(a.dtype)


add("variance_axis1", (3, 5), "float32", relay.variance, npvar, F32, axis=1)
add("variance_unbiased_keepdims", (2, 3, 4), "float32", relay.variance, npvar, F32,
    axis=(0, 2), keepdims=True, unbiased=True)
add("variance_all_exclude", (2, 3, 4), "float32", relay.variance, npvar, F32, axis=1, exclude=True)
add("variance_f16", (4, 8), "float16", relay.variance, npvar, F16, axis=1)
add("std_axis0", (6, 3), "float32", relay.std, npstd, F32, axis=0)
add("std_unbiased_all", (3, 4), "float32", relay.std, npstd, F32, unbiased=True)


def nplogsumexp(a, axis=None, keepdims=False):
    v = a.astype(np.float64)
    axes = axes_of(a.ndim, axis, False)
    m = v.max(axis=axes, keepdims=True)
    out = np.log(np.exp(v - m).sum(axis=axes, keepdims=True)) + m
    return (out if keepdims else np.squeeze(out, axis=axes)).astype(a.dtype)


add("logsumexp_axis1", (3, 6), "float32", relay.logsumexp, nplogsumexp, F32, axis=1)
add("logsumexp_large_keepdims", (2, 4), "float32", relay.logsumexp, nplogsumexp, F32,
    runs=[[rand(2, 4, lo=80.0, hi=120.0)]], keepdims=True)


def _mean_var_case():
    x = relay.var("x", shape=(3, 4))
    mv = relay.mean_variance(x, axis=1)
    CASES["mean_variance_tuple"] = (
        [x], relay.Tuple([mv[0], mv[1]]), [[rand(3, 4)]],
        lambda a: (a.mean(axis=1), npvar(a, axis=1)), F32)


_mean_var_case()

# -- `?` dims: one compiled function, two runtime sizes ----------------------
DYN = relay.Any()


def dyn(name, shape, dtype, op, ref, tol, sizes, **attrs):
    x = relay.var("x", shape=shape, dtype=dtype)
    runs = []
    for n in sizes:
        concrete = tuple(n if s is DYN else s for s in shape)
        runs.append([rand(*concrete, dtype=dtype)])
    CASES[name] = ([x], op(x, **attrs), runs, lambda a: ref(a, **attrs), tol)


dyn("dyn_max_axis0", (DYN, 5), "float32", relay.max, lambda a, **k: npreduce(np.max, a, **k),
    EXACT, (2, 9), axis=0)
dyn("dyn_prod_keepdims", (3, DYN), "float32", relay.prod, lambda a, **k: npreduce(np.prod, a, **k),
    F32, (1, 6), axis=1, keepdims=True)
dyn("dyn_any", (DYN, 3), "bool", relay.any, lambda a, **k: npreduce(np.any, a, **k), EXACT, (2, 7),
    axis=0)
dyn("dyn_argmax_all", (DYN, 4), "float32", relay.argmax,
    lambda a, **k: npargreduce(np.argmax, a, **k), EXACT, (3, 8))
dyn("dyn_argmin_axis0", (DYN, 4), "int32", relay.argmin,
    lambda a, **k: npargreduce(np.argmin, a, **k), EXACT, (3, 8), axis=0, select_last_index=True)
dyn("dyn_variance", (DYN, 6), "float32", relay.variance, npvar, F32, (2, 5), axis=(0, 1),
    unbiased=True)
dyn("dyn_std_axis1", (4, DYN), "float32", relay.std, npstd, F32, (3, 10), axis=1)
dyn("dyn_logsumexp", (DYN, 5), "float32", relay.logsumexp, nplogsumexp, F32, (1, 4), axis=0)

# -- sum / mean (float32, accumulated: rtol 1e-4 / atol 1e-5) ---------------------------------
ACCUM = dict(rtol=1e-4, atol=1e-5)
add("sum_axis1_keepdims", (2, 3, 4), "float32", relay.sum, lambda a, **k: npreduce(np.sum, a, **k), ACCUM,
    axis=1, keepdims=True)
add("sum_all", (3, 5), "float32", relay.sum, lambda a, **k: npreduce(np.sum, a, **k), ACCUM)
add("mean_axes02", (2, 3, 4), "float32", relay.mean, lambda a, **k: npreduce(np.mean, a, **k), ACCUM,
    axis=(0, 2))
add("mean_exclude", (2, 3, 4), "float32", relay.mean, lambda a, **k: npreduce(np.mean, a, **k), ACCUM,
    axis=1, exclude=True)


def _dyn_sum_mean_case():
    x = relay.var("x", shape=(DYN, 5))
    CASES["dyn_sum_mean"] = (
        [x], relay.Tuple([relay.sum(x, axis=1), relay.mean(x, axis=0, keepdims=True)]),
        [[rand(2, 5)], [rand(9, 5)]], lambda a: (a.sum(axis=1), a.mean(axis=0, keepdims=True)), ACCUM)


_dyn_sum_mean_case()


@pytest.fixture(scope="module")
def exe():
    mod = relay.IRModule({name: relay.Function(params, body)
                          for name, (params, body, _, _, _) in CASES.items()})
    return relay.compile(mod, target="llvm-cpu")


@pytest.mark.parametrize("name", list(CASES))
def test_reduce_numerics(exe, name):
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
