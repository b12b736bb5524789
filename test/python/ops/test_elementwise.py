"""Numerics of the elementwise operators on llvm-cpu against numpy.

Every case is one global function of ONE module, compiled once for the
whole file (CI has 2 cores) and called by name with ``Executable.run``.
References are plain numpy (``math.erf`` for erf), computed independently
of the lowering. Tolerances:

* exact (``assert_array_equal``): integer and bool results, rounding, abs,
  sign, clip, casts, comparisons, selects, float floor_divide/mod on
  exactly representable inputs;
* float32 subtract, multiply, divide, maximum, minimum: rtol 1e-5, atol 1e-6;
* float32 math functions: rtol 1e-5, atol 1e-5 (IREE uses polynomial
  approximations; the fast_* variants rtol 1e-4, atol 1e-4);
* float16: rtol 2e-3, atol 2e-3 against the float32 result rounded to
  float16 (f16 has an 11-bit significand);
* float64 math functions expanded by the lowering (tanh, sin, cos, tan,
  asin, acos, atan, log2, erf; ``F64Math.cpp``): rtol 1e-14, atol 0 over
  magnitudes from 1e-300 up (subnormals excluded: IREE flushes them to 0),
  plus +-0, +-inf and NaN.

The `?`-dim cases are functions of the same module run at two sizes.
"""
from __future__ import annotations

import math
from typing import Callable, Dict, Tuple

import numpy as np
import pytest

import relay_mlir as relay

EXACT = None
MATH = dict(rtol=1e-5, atol=1e-5)
FAST = dict(rtol=1e-4, atol=1e-4)
F16 = dict(rtol=2e-3, atol=2e-3)
F64 = dict(rtol=1e-14, atol=0)

R = np.random.default_rng(11)


def rand(shape, lo=-2.0, hi=2.0, dtype="float32"):
    return R.uniform(lo, hi, size=shape).astype(dtype)


def randint(shape, lo=-20, hi=20, dtype="int32"):
    return R.integers(lo, hi, size=shape).astype(dtype)


def randbool(shape):
    return R.integers(0, 2, size=shape).astype(bool)


def nonzero_int(shape, lo=-9, hi=9, dtype="int32"):
    v = randint(shape, lo, hi, dtype)
    v[v == 0] = 3
    return v


_erf = np.vectorize(math.erf, otypes=[np.float64])


def erf_ref(x):
    return _erf(x.astype(np.float64)).astype(x.dtype)


def wide64(lo, hi, n=200, uniform=(-2.0, 2.0), extra=()):
    """float64: n log-uniform magnitudes in [lo, hi] with random signs, n
    uniform values, ``extra`` and +-0, +-inf, NaN."""
    mags = np.exp(R.uniform(np.log(lo), np.log(hi), n)) * R.choice([-1.0, 1.0], n)
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, *extra]
    return np.concatenate([mags, R.uniform(*uniform, n), special]).astype("float64")


def quiet(ref):
    """``ref`` without numpy's warnings for NaN/inf results (log2(-1), ...)."""
    def run(x):
        with np.errstate(invalid="ignore", divide="ignore"):
            return ref(x)
    return run


def round_ref(x):
    """TVM's round: halves away from zero (numpy's round goes to even), in float64
    where ``|x| + 0.5`` is exact for float32/float16 inputs."""
    x = np.asarray(x)
    return np.copysign(np.floor(np.abs(x.astype(np.float64)) + 0.5), x).astype(x.dtype)


def halves(shape=(3, 5)):
    """Values with exact .5 fractions (ties), integers and randoms."""
    v = rand(shape, -4.0, 4.0)
    flat = v.reshape(-1)
    flat[:8] = [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -3.0, 0.0]
    return v


# name -> (build() -> (Function, [runs of inputs]), reference, tolerance)
CASES: Dict[str, Tuple[Callable, Callable, object]] = {}


def case(name, params, body, runs, reference, tol=EXACT):
    """``params``: [(name, shape, dtype)]; ``body(*vars)`` builds the
    result; ``runs``: a list of input lists (one per run)."""
    def build():
        vs = [relay.var(n, shape=s, dtype=d) for n, s, d in params]
        return relay.Function(vs, body(*vs)), runs
    CASES[name] = (build, reference, tol)


def unary(name, op, ref, dtype="float32", lo=-2.0, hi=2.0, tol=EXACT, x=None, shape=(3, 5)):
    if x is not None:
        dtype = str(x.dtype)
    else:
        x = rand(shape, lo, hi, dtype) if "float" in dtype else randint(shape, int(lo), int(hi), dtype)
    case(name, [("x", shape, dtype)], op, [[x]], ref, tol)


def binary(name, op, ref, a, b, tol=EXACT):
    case(name, [("a", a.shape, str(a.dtype)), ("b", b.shape, str(b.dtype))], op, [[a, b]], ref, tol)


def f16(ref):
    return lambda x: ref(x.astype(np.float32)).astype(np.float16)


# -- unary, float math ---------------------------------------------------------
unary("log2_f32", relay.log2, np.log2, lo=0.1, hi=8.0, tol=MATH)
unary("log10_f32", relay.log10, np.log10, lo=0.1, hi=8.0, tol=MATH)
unary("rsqrt_f32", relay.rsqrt, lambda x: 1 / np.sqrt(x), lo=0.1, hi=8.0, tol=MATH)
unary("sin_f32", relay.sin, np.sin, lo=-3.0, hi=3.0, tol=MATH)
unary("cos_f32", relay.cos, np.cos, lo=-3.0, hi=3.0, tol=MATH)
unary("tan_f32", relay.tan, np.tan, lo=-1.2, hi=1.2, tol=MATH)
unary("asin_f32", relay.asin, np.arcsin, lo=-0.99, hi=0.99, tol=MATH)
unary("acos_f32", relay.acos, np.arccos, lo=-0.99, hi=0.99, tol=MATH)
unary("atan_f32", relay.atan, np.arctan, lo=-5.0, hi=5.0, tol=MATH)
unary("sinh_f32", relay.sinh, np.sinh, lo=-3.0, hi=3.0, tol=MATH)
unary("cosh_f32", relay.cosh, np.cosh, lo=-3.0, hi=3.0, tol=MATH)
unary("erf_f32", relay.erf, erf_ref, lo=-3.0, hi=3.0, tol=MATH)
unary("fast_exp_f32", relay.fast_exp, np.exp, lo=-5.0, hi=5.0, tol=FAST)
unary("fast_tanh_f32", relay.fast_tanh, np.tanh, lo=-4.0, hi=4.0, tol=FAST)
unary("fast_erf_f32", relay.fast_erf, erf_ref, lo=-3.0, hi=3.0, tol=FAST)
unary("sin_f16", relay.sin, f16(np.sin), dtype="float16", lo=-3.0, hi=3.0, tol=F16)
unary("exp_f16", relay.exp, f16(np.exp), dtype="float16", tol=F16)
unary("tanh_f16", relay.tanh, f16(np.tanh), dtype="float16", tol=F16)
unary("sqrt_f16", relay.sqrt, f16(np.sqrt), dtype="float16", lo=0.0, hi=4.0, tol=F16)
unary("erf_f16", relay.erf, f16(erf_ref), dtype="float16", tol=F16)
# float64: expanded in the lowering (IREE has no f64 tanh/sin/.../erf).
_near1 = list(1.0 - np.exp(np.linspace(np.log(1e-16), np.log(0.1), 20)))
_tiny = [1e-300, -1e-300, 1e-20, -1e-20]
_x = wide64(1e-300, 1e3, uniform=(-1, 1), extra=[*_tiny, 0.3, -0.3])
unary("tanh_f64", relay.tanh, np.tanh, x=_x, shape=_x.shape, tol=F64)
unary("fast_tanh_f64", relay.fast_tanh, np.tanh, x=_x, shape=_x.shape, tol=F64)
for _name, _op, _ref in [("sin", relay.sin, np.sin), ("cos", relay.cos, np.cos), ("tan", relay.tan, np.tan)]:
    _x = wide64(1e-300, 1e5, uniform=(-10, 10), extra=[*_tiny, *(np.arange(1, 9) * np.pi / 4), 1e6, -1e6])
    unary(f"{_name}_f64", _op, quiet(_ref), x=_x, shape=_x.shape, tol=F64)
_x = wide64(1e-300, 1.0, uniform=(-1, 1), extra=[1.0, -1.0, 1.5, -1.5, *_near1, *np.negative(_near1)])
unary("asin_f64", relay.asin, quiet(np.arcsin), x=_x, shape=_x.shape, tol=F64)
unary("acos_f64", relay.acos, quiet(np.arccos), x=_x, shape=_x.shape, tol=F64)
_x = wide64(1e-300, 1e300, uniform=(-3, 3), extra=[1.0, -1.0, np.tan(np.pi / 8)])
unary("atan_f64", relay.atan, np.arctan, x=_x, shape=_x.shape, tol=F64)
_x = np.abs(wide64(1e-300, 1e300, uniform=(0, 3), extra=[*2.0 ** np.arange(-60, 61, 7), -1.0]))
_x[:3] = [-1.0, -0.0, np.inf]
unary("log2_f64", relay.log2, quiet(np.log2), x=_x, shape=_x.shape, tol=F64)
_x = wide64(1e-300, 30.0, uniform=(-7, 7), extra=[*_tiny, 1.0, -1.0, 2.5, -2.5, 6.0, -6.0])
unary("erf_f64", relay.erf, erf_ref, x=_x, shape=_x.shape, tol=F64)
unary("fast_erf_f64", relay.fast_erf, erf_ref, x=_x, shape=_x.shape, tol=F64)

# -- unary, rounding / sign / abs (floats and integers) -------------------------
for _name, _op, _ref in [("ceil", relay.ceil, np.ceil), ("floor", relay.floor, np.floor),
                         ("round", relay.round, round_ref), ("trunc", relay.trunc, np.trunc),
                         ("abs", relay.abs, np.abs), ("sign", relay.sign, np.sign)]:
    unary(f"{_name}_f32", _op, _ref, x=halves())
    unary(f"{_name}_i32", _op, _ref, dtype="int32", lo=-50, hi=50)
unary("round_f16", relay.round, round_ref, dtype="float16", x=halves().astype("float16"))
unary("abs_i8", relay.abs, np.abs, dtype="int8", lo=-100, hi=100)
unary("sign_i8", relay.sign, np.sign, dtype="int8", lo=-3, hi=3)
unary("negative_i8", relay.negative, np.negative, dtype="int8", lo=-100, hi=100)
unary("negative_f16", relay.negative, np.negative, dtype="float16")
unary("relu_i32", relay.nn.relu, lambda x: np.maximum(x, 0), dtype="int32", lo=-50, hi=50)
unary("relu_f16", relay.nn.relu, lambda x: np.maximum(x, np.float16(0)), dtype="float16")
unary("copy_f32", relay.copy, np.copy)
unary("copy_i8", relay.copy, np.copy, dtype="int8", lo=-100, hi=100)

# -- unary, tests and bits -------------------------------------------------------
_special = np.array([[0.0, -1.5, np.inf, -np.inf, np.nan],
                     [1e38, -0.0, np.nan, 3.0, -np.inf]], dtype="float32")
unary("isnan_f32", relay.isnan, np.isnan, x=_special, shape=_special.shape)
unary("isinf_f32", relay.isinf, np.isinf, x=_special, shape=_special.shape)
unary("isfinite_f32", relay.isfinite, np.isfinite, x=_special, shape=_special.shape)
_special16 = np.where(np.abs(_special) == 1e38, 6e4, _special).astype("float16")
unary("isnan_f16", relay.isnan, np.isnan, x=_special16, shape=_special.shape)
unary("isinf_f16", relay.isinf, np.isinf, x=_special16, shape=_special.shape)
unary("logical_not_bool", relay.logical_not, np.logical_not, dtype="bool", x=randbool((3, 5)))
unary("bitwise_not_i32", relay.bitwise_not, np.invert, dtype="int32", lo=-1000, hi=1000)
unary("bitwise_not_i8", relay.bitwise_not, np.invert, dtype="int8", lo=-100, hi=100)
unary("bitwise_not_bool", relay.bitwise_not, np.invert, dtype="bool", x=randbool((3, 5)))

# -- clip ----------------------------------------------------------------------
unary("clip_f32", lambda x: relay.clip(x, -1.0, 1.5), lambda x: np.clip(x, -1.0, 1.5))
unary("clip_f16", lambda x: relay.clip(x, 0, 1), lambda x: np.clip(x, 0, 1).astype("float16"),
      dtype="float16")
# Integer bounds are truncated towards zero: [-3.7, 5.9] acts as [-3, 5].
unary("clip_i32", lambda x: relay.clip(x, -3.7, 5.9), lambda x: np.clip(x, -3, 5),
      dtype="int32", lo=-10, hi=10)
unary("clip_i8", lambda x: relay.clip(x, -1000, 50), lambda x: np.clip(x, -128, 50),
      dtype="int8", lo=-128, hi=127)

# -- cast / cast_like ----------------------------------------------------------------
_mixed = halves() * 10


def cast_case(name, x, dtype, ref=None):
    unary(name, lambda v: relay.cast(v, dtype), ref or (lambda v: v.astype(dtype)),
          dtype=str(x.dtype), x=x, shape=x.shape)


cast_case("cast_f32_i32", _mixed, "int32", lambda v: np.trunc(v).astype("int32"))
cast_case("cast_f32_i8", _mixed, "int8", lambda v: np.trunc(v).astype("int8"))
cast_case("cast_f32_i32_0d", np.array(-7.75, "float32"), "int32")  # truncates, as astype
cast_case("cast_i32_f32", randint((3, 5), -1000, 1000), "float32")
cast_case("cast_f32_f16", rand((3, 5), -100, 100), "float16")
cast_case("cast_f16_f32", rand((3, 5), -100, 100, "float16"), "float32")
cast_case("cast_f32_bool", np.where(randbool((3, 5)), 0.0, _mixed).astype("float32"), "bool",
          lambda v: v != 0)
cast_case("cast_i32_bool", randint((3, 5), -2, 3), "bool", lambda v: v != 0)
cast_case("cast_bool_f32", randbool((3, 5)), "float32")
cast_case("cast_bool_i32", randbool((3, 5)), "int32")
cast_case("cast_i8_i32", randint((3, 5), -128, 127, "int8"), "int32")
cast_case("cast_i32_i8", randint((3, 5), -1000, 1000), "int8")  # wraps, as numpy
cast_case("cast_f32_f32", _mixed, "float32")
binary("cast_like_f32_i8", relay.cast_like, lambda a, b: np.trunc(a).astype("int8"),
       _mixed, randint((2,), dtype="int8"))

# -- binary, arithmetic ------------------------------------------------------------
_fa, _fb = rand((4, 1), -9, 9), rand((3,), 0.5, 4)
_fb[1] = -2.5
# Exactly representable operands for the float division family.
_qa = np.array([[-7.0], [7.0], [-6.0], [5.5]], "float32")
_qb = np.array([2.0, -2.0, 0.5], "float32")
_ia, _ib = randint((4, 1), -30, 30), nonzero_int((3,))


def floor_mod_ref(a, b):
    return a - np.floor(a / b) * b


binary("floor_divide_f32", relay.floor_divide, lambda a, b: np.floor(a / b), _qa, _qb)
binary("floor_divide_i32", relay.floor_divide, np.floor_divide, _ia, _ib)
binary("floor_divide_i8", relay.floor_divide, np.floor_divide, _ia.astype("int8"), _ib.astype("int8"))
binary("mod_f32", relay.mod, np.fmod, _fa, _fb, tol=MATH)
binary("mod_i32", relay.mod, np.fmod, _ia, _ib)
binary("floor_mod_f32", relay.floor_mod, floor_mod_ref, _fa, _fb, tol=MATH)
binary("floor_mod_exact_f32", relay.floor_mod, np.mod, _qa, _qb)
binary("floor_mod_i32", relay.floor_mod, np.mod, _ia, _ib)
binary("floor_mod_i8", relay.floor_mod, np.mod, _ia.astype("int8"), _ib.astype("int8"))
binary("power_f32", relay.power, np.power, rand((4, 1), 0.1, 3), rand((3,), -2, 2), tol=MATH)
binary("power_f16", relay.power, lambda a, b: np.power(a.astype("float32"), b).astype("float16"),
       rand((4, 1), 0.1, 3, "float16"), rand((3,), -2, 2, "float16"), tol=F16)

# -- comparisons (bool results) --------------------------------------------------------
_ca = randint((4, 1), -2, 3).astype("float32")
_cb = randint((3,), -2, 3).astype("float32")
for _name, _op, _ref in [("equal", relay.equal, np.equal), ("not_equal", relay.not_equal, np.not_equal),
                         ("less", relay.less, np.less), ("less_equal", relay.less_equal, np.less_equal),
                         ("greater", relay.greater, np.greater),
                         ("greater_equal", relay.greater_equal, np.greater_equal)]:
    binary(f"{_name}_f32", _op, _ref, _ca, _cb)
    binary(f"{_name}_i32", _op, _ref, _ca.astype("int32"), _cb.astype("int32"))
binary("less_i8", relay.less, np.less, randint((4, 1), -128, 127, "int8"), randint((3,), -128, 127, "int8"))
binary("greater_bool", relay.greater, np.greater, randbool((4, 1)), randbool((3,)))
binary("equal_f16", relay.equal, np.equal, _ca.astype("float16"), _cb.astype("float16"))

# -- logical and bitwise --------------------------------------------------------------
_ba, _bb = randbool((4, 1)), randbool((3,))
binary("logical_and_bool", relay.logical_and, np.logical_and, _ba, _bb)
binary("logical_or_bool", relay.logical_or, np.logical_or, _ba, _bb)
binary("logical_xor_bool", relay.logical_xor, np.logical_xor, _ba, _bb)
_xa, _xb = randint((4, 1), -1000, 1000), randint((3,), -1000, 1000)
for _name, _op, _ref in [("bitwise_and", relay.bitwise_and, np.bitwise_and),
                         ("bitwise_or", relay.bitwise_or, np.bitwise_or),
                         ("bitwise_xor", relay.bitwise_xor, np.bitwise_xor)]:
    binary(f"{_name}_i32", _op, _ref, _xa, _xb)
    binary(f"{_name}_bool", _op, _ref, _ba, _bb)
binary("bitwise_and_i8", relay.bitwise_and, np.bitwise_and, _xa.astype("int8"), _xb.astype("int8"))
_sh = randint((3,), 0, 8)
binary("left_shift_i32", relay.left_shift, np.left_shift, _xa, _sh)
binary("right_shift_i32", relay.right_shift, np.right_shift, _xa, _sh)  # arithmetic for negatives
binary("right_shift_i8", relay.right_shift, np.right_shift,
       randint((4, 1), -128, 127, "int8"), randint((3,), 0, 8, "int8"))

# -- where ------------------------------------------------------------------------------
case("where_f32", [("c", (4, 1), "bool"), ("x", (3,), "float32"), ("y", (), "float32")],
     relay.where, [[randbool((4, 1)), rand((3,)), np.array(-9.0, "float32")]], np.where)
case("where_i32_cond", [("c", (4, 3), "int32"), ("x", (4, 3), "int8"), ("y", (3,), "int8")],
     relay.where, [[randint((4, 3), -1, 2), randint((4, 3), dtype="int8"), randint((3,), dtype="int8")]],
     lambda c, x, y: np.where(c != 0, x, y))
case("where_f32_cond", [("c", (3,), "float32"), ("x", (2, 3), "float16"), ("y", (2, 1), "float16")],
     relay.where, [[np.array([0.0, -0.5, 2.0], "float32"), rand((2, 3), dtype="float16"),
                    rand((2, 1), dtype="float16")]],
     lambda c, x, y: np.where(c != 0, x, y))

# -- `?` dims: each function runs at two sizes ----------------------------------------------
A = relay.Any()


def _dyn_float(x, y):
    big = relay.greater(x, y)
    return relay.where(big, relay.power(relay.abs(x), y), relay.floor_mod(x, y))


case("dyn_float", [("x", (A, 4), "float32"), ("y", (4,), "float32")], _dyn_float,
     [[rand((3, 4), -3, 3), rand((4,), 0.5, 2)], [rand((7, 4), -3, 3), rand((4,), 0.5, 2)]],
     lambda x, y: np.where(x > y, np.power(np.abs(x), y), floor_mod_ref(x, y)), MATH)


def _dyn_math(x):
    return relay.add(relay.sin(relay.clip(x, -1.0, 1.0)), relay.erf(relay.round(x)))


case("dyn_math", [("x", (2, A), "float32")], _dyn_math,
     [[halves((2, 5))], [halves((2, 9))]],
     lambda x: np.sin(np.clip(x, -1, 1)) + erf_ref(round_ref(x)), MATH)


def _dyn_int(a, b):
    bits = relay.bitwise_xor(relay.left_shift(a, b), relay.right_shift(a, b))
    return relay.Tuple([relay.floor_divide(bits, relay.const(np.array([3, -4, 5], "int32"))),
                        relay.logical_and(relay.cast(a, "bool"), relay.less_equal(a, b)),
                        relay.cast(relay.sign(a), "float32")])


case("dyn_int", [("a", (A, 3), "int32"), ("b", (A, 3), "int32")], _dyn_int,
     [[randint((2, 3), -50, 50), randint((2, 3), 0, 6)], [randint((6, 3), -50, 50), randint((6, 3), 0, 6)]],
     lambda a, b: (np.floor_divide((a << b) ^ (a >> b), np.array([3, -4, 5], "int32")),
                   np.logical_and(a != 0, a <= b), np.sign(a).astype("float32")))

# -- float32 log, sigmoid and broadcast arithmetic (from test_ops.py, its tolerances) ----------
ROUNDED = dict(rtol=1e-5, atol=1e-6)
unary("log_f32", relay.log, np.log, lo=0.1, hi=4.0, tol=MATH)
unary("sigmoid_f32", relay.sigmoid,
      lambda x: (1.0 / (1.0 + np.exp(-x.astype(np.float64)))).astype(x.dtype), lo=-6.0, hi=6.0, tol=MATH)
for _name, _op, _ref, _lo, _hi in [("subtract", relay.subtract, np.subtract, -2.0, 2.0),
                                   ("multiply", relay.multiply, np.multiply, -2.0, 2.0),
                                   ("divide", relay.divide, np.divide, 0.5, 2.0),
                                   ("maximum", relay.maximum, np.maximum, -2.0, 2.0),
                                   ("minimum", relay.minimum, np.minimum, -2.0, 2.0)]:
    binary(f"{_name}_f32", _op, _ref, rand((4, 1)), rand((3,), _lo, _hi), tol=ROUNDED)

# -- TVM 0.19's acosh/asinh/atanh (log/sqrt expansions) and trunc_divide/trunc_mod -----------
# Their own generator, so the values of the cases above stay as they were.
_T = np.random.default_rng(19)
_F64_LOG = dict(rtol=2e-15 * 8, atol=0)  # a few ulp: log1p through log, then a multiply
_hyp32 = {"acosh": (np.arccosh, 1.0, 8.0), "asinh": (np.arcsinh, -8.0, 8.0), "atanh": (np.arctanh, -0.99, 0.99)}
for _name, (_ref, _lo, _hi) in _hyp32.items():
    _x = _T.uniform(_lo, _hi, size=(3, 5)).astype("float32")
    unary(f"{_name}_f32", getattr(relay, _name), _ref, x=_x, shape=_x.shape, tol=MATH)
# float64 over many magnitudes: tiny (asinh/atanh keep x), near 1 (acosh, atanh), huge (log(x) + ln 2)
_mags = np.exp(_T.uniform(np.log(1e-300), np.log(1e300), 200))
_x = np.concatenate([_mags, -_mags, _T.uniform(-3, 3, 100), [0.0, -0.0, np.inf, -np.inf, 1e8, 9.99e7]])
unary("asinh_f64", relay.asinh, np.arcsinh, x=_x, shape=_x.shape, tol=_F64_LOG)
_x = np.concatenate([1 + np.exp(_T.uniform(np.log(1e-15), np.log(1e300), 200)), _T.uniform(1, 3, 100),
                     [1.0, np.inf, 1e8, 9.99e7]])
unary("acosh_f64", relay.acosh, np.arccosh, x=_x, shape=_x.shape, tol=_F64_LOG)
_near1 = 1 - np.exp(_T.uniform(np.log(1e-15), np.log(0.5), 100))
_x = np.concatenate([np.exp(_T.uniform(np.log(1e-300), np.log(0.5), 100)), _near1, -_near1,
                     _T.uniform(-1, 1, 100), [0.0, -0.0]])
unary("atanh_f64", relay.atanh, np.arctanh, x=_x, shape=_x.shape, tol=_F64_LOG)
_edge = np.array([0.5, 1.0, -1.0, 1.5, -1.5, np.nan], "float32")
unary("hyperbolic_edges_f32", lambda x: relay.Tuple([relay.acosh(x), relay.asinh(x), relay.atanh(x)]),
      quiet(lambda x: (np.arccosh(x), np.arcsinh(x), np.arctanh(x))), x=_edge, shape=_edge.shape, tol=MATH)
# Truncation towards zero, the remainder with the sign of lhs (TVM 0.19: -7.5 / 2 -> -3, fmod -1.5).
_ta, _tb = _T.integers(-30, 30, size=(4, 1)).astype("int32"), nonzero_int((3,))
_ta[:2, 0] = [-7, 7]
_tb[:3] = [2, -2, 3]
_tfa = (np.array([[7.5], [-7.5], [-6.0], [5.0]]) + _T.uniform(-0.4, 0.4, (4, 1))).astype("float32")
_tfb = np.array([2.0, -2.0, 0.75], "float32")


def _trunc_div_ref(a, b):
    q = np.abs(a) // np.abs(b)
    return (np.sign(a) * np.sign(b) * q).astype(a.dtype)


binary("trunc_divide_i32", relay.trunc_divide, _trunc_div_ref, _ta, _tb)
binary("trunc_divide_i8", relay.trunc_divide, _trunc_div_ref, _ta.astype("int8"), _tb.astype("int8"))
binary("trunc_divide_u8", relay.trunc_divide, np.floor_divide, np.array([[7], [200], [255], [0]], "uint8"),
       np.array([2, 3, 254], "uint8"))
binary("trunc_divide_f32", relay.trunc_divide, lambda a, b: np.trunc(a / b), _tfa, _tfb)
binary("trunc_divide_f64", relay.trunc_divide, lambda a, b: np.trunc(a / b), _tfa.astype("float64"),
       _tfb.astype("float64"))
binary("trunc_mod_i32", relay.trunc_mod, np.fmod, _ta, _tb)
binary("trunc_mod_i64", relay.trunc_mod, np.fmod, _ta.astype("int64"), _tb.astype("int64"))
binary("trunc_mod_u8", relay.trunc_mod, np.fmod, np.array([[7], [200], [255], [0]], "uint8"),
       np.array([2, 3, 254], "uint8"))
binary("trunc_mod_f32", relay.trunc_mod, np.fmod, _tfa, _tfb, tol=MATH)
# (no float64 trunc_mod / mod: arith.remf on f64 becomes a call to fmod, which IREE's llvm-cpu
# cannot link)


# -- reinterpret (TVM 0.19's): the bits read as another dtype of the same width -----------------
unary("reinterpret_f32_i32", lambda x: relay.reinterpret(x, "int32"), lambda x: x.view(np.int32))
unary("reinterpret_i16_f16", lambda x: relay.reinterpret(x, "float16"), lambda x: x.view(np.float16),
      dtype="int16", lo=-20000, hi=20000)
unary("reinterpret_u8_i8", lambda x: relay.reinterpret(x, "int8"), lambda x: x.view(np.int8),
      dtype="uint8", lo=0, hi=255)
# TVM 0.19's result on these inputs (relay.reinterpret run by its VM on llvm, session 27)
unary("reinterpret_tvm019", lambda x: relay.reinterpret(x, "int32"),
      lambda x: np.array([1065353216, -1073741824, 1056964608], "int32"),
      x=np.array([1.0, -2.0, 0.5], "float32"), shape=(3,))


# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def compiled():
    """The module of every case, compiled once: (Executable, {name: runs})."""
    functions, runs = {}, {}
    for name, (build, _, _) in CASES.items():
        functions[name], runs[name] = build()
    exe = relay.compile(relay.IRModule(functions), target="llvm-cpu")
    return exe, runs


def _check(got, want, tol):
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if tol is EXACT:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got.astype("float64"), want.astype("float64"), **tol)
        if tol is F64:  # the f64 expansions keep the sign of +-0
            zero = want == 0
            np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(want[zero]))


@pytest.mark.parametrize("name", list(CASES))
def test_elementwise(compiled, name):
    exe, runs = compiled
    _, reference, tol = CASES[name]
    for inputs in runs[name]:
        got = exe.run(name, *inputs)
        want = reference(*inputs)
        if isinstance(want, tuple):
            assert isinstance(got, tuple) and len(got) == len(want)
            for g, w in zip(got, want):
                _check(g, w, tol)
        else:
            _check(got, want, tol)


def test_dynamic_cases_run_two_sizes():
    dyn = [n for n in CASES if n.startswith("dyn_")]
    assert dyn and all(len(CASES[n][0]()[1]) == 2 for n in dyn)


# -- builder API -----------------------------------------------------------------------------
def test_builders_and_inference():
    builds = [
        (lambda x, i: relay.isnan(x), "bool", (A, 3)),
        (lambda x, i: relay.less(x, x), "bool", (A, 3)),
        (lambda x, i: relay.cast(x, "int8"), "int8", (A, 3)),
        (lambda x, i: relay.cast_like(x, i), "int8", (A, 3)),
        (lambda x, i: relay.clip(i, 0, 3), "int8", (3,)),
        (lambda x, i: relay.where(relay.less(x, x), x, relay.const(1.0)), "float32", (A, 3)),
    ]
    functions = {}
    for k, (build, _, _) in enumerate(builds):
        x, i = relay.var("x", shape=(A, 3)), relay.var("i", shape=(3,), dtype="int8")
        functions[f"f{k}"] = relay.Function([x, i], build(x, i))
    mod = relay.transform.InferType()(relay.IRModule(functions))
    for k, (_, dtype, shape) in enumerate(builds):
        ty = mod[f"f{k}"].body.checked_type
        assert ty.dtype == dtype
        assert len(ty.shape) == len(shape)


def test_relation_rejects_wrong_dtype():
    x = relay.var("x", shape=(3,))
    mod = relay.IRModule.from_expr(relay.Function([x], relay.bitwise_and(x, x)))
    with pytest.raises(relay.CompileError, match="operands must be integer or bool tensors"):
        relay.transform.InferType()(mod)


def test_clip_attribute_kinds():
    with pytest.raises(TypeError):
        relay.clip(relay.var("x", shape=(2,)), "0", 1)
