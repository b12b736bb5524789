"""Elementwise ONNX ops: arithmetic, comparisons, logic, activations, Cast, Where, Clip."""
from __future__ import annotations

import numpy as np

from ... import expr as E
from ..common import round_half_to_even
from ...narrow_dtypes import NARROW_DTYPES
from ._base import check_dtype, have_op, Node, register
from .narrow_cast import cast_to_narrow

_FLOATS = ("float16", "bfloat16", "float32", "float64")


def _float_only(n: Node, i: int = 0) -> str:
    dt = n.dtype(i)
    if dt not in _FLOATS:
        raise n.unsupported(f"element type {dt} (only floating-point types are supported)")
    return dt


# -- binary --------------------------------------------------------------------
def _no_legacy_broadcast(n: Node) -> None:
    # opset < 7: explicit broadcast/axis attributes (we only see them in old models)
    if n.has_attr("axis") or n.has_attr("broadcast"):
        bc = n.attr("broadcast", 0)
        if bc and n.has_attr("axis"):
            raise n.unsupported("legacy broadcast with 'axis' is not supported")
        n.ignore("axis", "broadcast")


def _binary(relay_name: str, float_only: bool = False):
    def conv(n: Node):
        _no_legacy_broadcast(n)
        if float_only:
            _float_only(n)
        if n.dtype(0) != n.dtype(1):
            raise n.unsupported(f"operands of different element types ({n.dtype(0)}, {n.dtype(1)})")
        return n.op(relay_name)(n.expr(0), n.expr(1))
    return conv


for _onnx, _relay in [("Add", "add"), ("Sub", "subtract"), ("Mul", "multiply")]:
    register(_onnx, since=1)(_binary(_relay))


@register("Div", since=1)
def _div(n: Node):
    _no_legacy_broadcast(n)
    dt = n.dtype(0)
    if dt not in _FLOATS:
        # ONNX integer Div truncates toward zero
        return n.op("divide")(n.expr(0), n.expr(1))
    return n.op("divide")(n.expr(0), n.expr(1))


@register("Pow", since=7)
def _pow(n: Node):
    if n.dtype(0) != n.dtype(1):
        if n.dtype(0) in _FLOATS:
            y = n.op("cast")(n.expr(1), n.dtype(0))
            return n.op("power")(n.expr(0), y)
        raise n.unsupported(f"Pow of {n.dtype(0)} by {n.dtype(1)}")
    if n.dtype(0) not in _FLOATS:
        raise n.unsupported(f"integer Pow ({n.dtype(0)})")
    if n.is_const(1) and n.const(1).size == 1:
        e = float(n.const_scalar(1))
        if e == 2.0:
            x = n.expr(0)
            return n.op("multiply")(x, x)
        if e == 1.0:
            return n.op("multiply")(n.expr(0), n.scalar(1.0))
        if e == 0.5:
            return n.op("sqrt")(n.op("add")(n.expr(0), n.scalar(0.0)))
    return n.op("power")(n.expr(0), n.expr(1))


@register("Mod", since=10)
def _mod(n: Node):
    fmod = n.attr("fmod", 0)
    dt = n.dtype(0)
    if dt == "float64" and (fmod or dt in _FLOATS):
        # arith.remf on f64 becomes a call of libm's fmod, which IREE's llvm-cpu
        # executables cannot link
        raise n.unsupported("float64 Mod (its fmod does not link in IREE's llvm-cpu executables)")
    if fmod:
        return n.op("mod")(n.expr(0), n.expr(1))
    if dt in _FLOATS:
        # numpy's float mod: r = fmod(a, b); r + b when r != 0 and r, b differ in sign;
        # a zero r takes b's sign
        a, b = n.expr(0), n.expr(1)
        r = n.op("mod")(a, b)
        zero = n.scalar(0.0, dtype=dt)
        differ = n.op("not_equal")(n.op("less")(r, zero), n.op("less")(b, zero))
        adjust = n.op("logical_and")(n.op("not_equal")(r, zero), differ)
        signed_zero = n.op("where")(n.op("less")(b, zero), n.scalar(-0.0, dtype=dt), zero)
        r0 = n.op("where")(n.op("equal")(r, zero), signed_zero, r)
        return n.op("where")(adjust, n.op("add")(r, b), r0)
    return n.op("floor_mod")(n.expr(0), n.expr(1))


def _variadic(relay_name: str):
    def conv(n: Node):
        xs = [n.expr(i) for i in range(len(n)) if n.has(i)]
        if not xs:
            raise n.unsupported("no inputs")
        acc = xs[0]
        if len(xs) == 1:
            return n.op("add")(acc, n.scalar(0, dtype=n.dtype(0))) if relay_name == "add" else \
                n.op(relay_name)(acc, acc)
        for x in xs[1:]:
            acc = n.op(relay_name)(acc, x)
        return acc
    return conv


register("Sum", since=8)(_variadic("add"))
register("Max", since=8)(_variadic("maximum"))
register("Min", since=8)(_variadic("minimum"))


@register("Mean", since=8)
def _mean(n: Node):
    s = _variadic("add")(n)
    cnt = sum(1 for i in range(len(n)) if n.has(i))
    return n.op("divide")(s, n.scalar(float(cnt)))


# -- comparisons and logic ---------------------------------------------------------
for _onnx, _relay in [("Equal", "equal"), ("Less", "less"), ("Greater", "greater"),
                      ("LessOrEqual", "less_equal"), ("GreaterOrEqual", "greater_equal")]:
    register(_onnx, since=7)(_binary(_relay))
for _onnx, _relay in [("And", "logical_and"), ("Or", "logical_or"), ("Xor", "logical_xor")]:
    register(_onnx, since=7)(_binary(_relay))
for _onnx, _relay in [("BitwiseAnd", "bitwise_and"), ("BitwiseOr", "bitwise_or"),
                      ("BitwiseXor", "bitwise_xor")]:
    register(_onnx, since=18)(_binary(_relay))


@register("Not", since=1)
def _not(n: Node):
    return n.op("logical_not")(n.expr(0))


@register("BitwiseNot", since=18)
def _bitwise_not(n: Node):
    return n.op("bitwise_not")(n.expr(0))


@register("BitShift", since=11)
def _bitshift(n: Node):
    d = n.expect("direction", "LEFT", "RIGHT")
    return n.op("left_shift" if d == "LEFT" else "right_shift")(n.expr(0), n.expr(1))


@register("Where", since=9)
def _where(n: Node):
    return n.op("where")(n.expr(0), n.expr(1), n.expr(2))


# -- unary ---------------------------------------------------------------------
_EXACT_UNARY = {"negative", "nn.relu", "abs", "sign", "ceil", "floor", "round", "isnan"}

# inverse hyperbolic functions by their logarithmic forms, when relay has no operator
_INVERSE_HYPERBOLIC = {
    # asinh(x) = sign(x) * log(|x| + sqrt(x^2 + 1))
    "asinh": lambda n, x: n.op("multiply")(n.op("sign")(x), n.op("log")(n.op("add")(
        n.op("abs")(x), n.op("sqrt")(n.op("add")(n.op("multiply")(x, x), n.scalar(1.0, dtype=_dt(n, x))))))),
    # acosh(x) = log(x + sqrt(x^2 - 1))
    "acosh": lambda n, x: n.op("log")(n.op("add")(x, n.op("sqrt")(n.op("subtract")(
        n.op("multiply")(x, x), n.scalar(1.0, dtype=_dt(n, x)))))),
    # atanh(x) = log((1 + x) / (1 - x)) / 2
    "atanh": lambda n, x: n.op("multiply")(n.scalar(0.5, dtype=_dt(n, x)), n.op("log")(n.op("divide")(
        n.op("add")(n.scalar(1.0, dtype=_dt(n, x)), x), n.op("subtract")(n.scalar(1.0, dtype=_dt(n, x)), x)))),
}


def _dt(n: Node, x) -> str:
    return getattr(n, "_compute_dtype", None) or n.dtype(0)


def _unary(relay_name: str, float_only: bool = False):
    def conv(n: Node):
        n.ignore("consumed_inputs")
        if float_only:
            _float_only(n)
        x = n.expr(0)
        dt = n.dtype(0)
        # bfloat16 transcendentals are computed in float32 and rounded once, as the
        # reference (numpy with ml_dtypes) computes them
        wide = dt == "bfloat16" and relay_name not in _EXACT_UNARY
        if wide:
            x = n.op("cast")(x, "float32")
            n._compute_dtype = "float32"
        if relay_name in _INVERSE_HYPERBOLIC and not have_op(relay_name):
            y = _INVERSE_HYPERBOLIC[relay_name](n, x)
        else:
            y = n.op(relay_name)(x)
        return n.op("cast")(y, dt) if wide else y
    return conv


for _onnx, _relay, _fo in [
        ("Neg", "negative", False), ("Exp", "exp", True), ("Log", "log", True), ("Sqrt", "sqrt", True),
        ("Tanh", "tanh", True), ("Sigmoid", "sigmoid", True), ("Relu", "nn.relu", False),
        ("Abs", "abs", False), ("Ceil", "ceil", True), ("Floor", "floor", True),
        ("Sign", "sign", False), ("Sin", "sin", True), ("Cos", "cos", True), ("Tan", "tan", True),
        ("Asin", "asin", True), ("Acos", "acos", True), ("Atan", "atan", True), ("Sinh", "sinh", True),
        ("Cosh", "cosh", True), ("Asinh", "asinh", True), ("Acosh", "acosh", True),
        ("Atanh", "atanh", True), ("Erf", "erf", True), ("IsNaN", "isnan", True)]:
    register(_onnx, since=1)(_unary(_relay, _fo))


@register("Round", since=1)
def _round(n: Node):
    # ONNX rounds halves to even; relay.round (TVM's) rounds them away from zero
    _float_only(n)
    return round_half_to_even(n.expr(0), n.scalar(0.5))


@register("Reciprocal", since=1)
def _reciprocal(n: Node):
    n.ignore("consumed_inputs")
    _float_only(n)
    return n.op("divide")(n.scalar(1.0), n.expr(0))


@register("Identity", since=1)
def _identity(n: Node):
    return n.inputs[0] if n.has(0) else n.expr(0)


@register("IsInf", since=10)
def _isinf(n: Node):
    _float_only(n)
    pos, neg = n.attr("detect_positive", 1), n.attr("detect_negative", 1)
    x = n.expr(0)
    if pos and neg:
        return n.op("isinf")(x)
    if pos:
        return n.op("equal")(x, n.scalar(np.inf))
    if neg:
        return n.op("equal")(x, n.scalar(-np.inf))
    return n.constant(np.zeros(n.static_shape(0), dtype=bool))


# -- Cast --------------------------------------------------------------------------
def _onnx_dtype(n: Node, to: int) -> str:
    from onnx import helper
    try:
        dt = np.dtype(helper.tensor_dtype_to_np_dtype(to)).name
    except Exception:
        raise n.unsupported(f"cast to ONNX element type {to}") from None
    return check_dtype(n, dt)


def _cast_to(n: Node, x: E.Expr, src: str, dst: str, saturate: bool = True, round_mode: str = "up"):
    if src == dst:
        return x
    if dst in NARROW_DTYPES:
        return cast_to_narrow(n, x, src, dst, saturate, round_mode)
    if src in NARROW_DTYPES and dst == "bool":  # (narrow types only cast; compare in float32)
        x, src = n.op("cast")(x, "float32"), "float32"
    if dst == "bool":
        # ONNX: nonzero -> true
        return n.op("not_equal")(x, n.scalar(0, dtype=src))
    return n.op("cast")(x, dst)


@register("Cast", since=6)
def _cast(n: Node):
    dst = _onnx_dtype(n, n.attr("to"))
    saturate = bool(n.attr("saturate", 1)) if n.opset >= 19 else True  # only matters for float8
    round_mode = n.attr("round_mode", "up") if n.opset >= 24 else "up"  # (float8_e8m0 only)
    return _cast_to(n, n.expr(0), n.dtype(0), dst, saturate, round_mode)


@register("CastLike", since=15)
def _castlike(n: Node):
    return _cast_to(n, n.expr(0), n.dtype(0), n.dtype(1), bool(n.attr("saturate", 1)),
                    n.attr("round_mode", "up"))


# -- Clip ------------------------------------------------------------------------
@register("Clip", since=6)
def _clip6(n: Node):
    x = n.expr(0)
    lo, hi = n.attr("min", None), n.attr("max", None)
    if lo is not None:
        x = n.op("maximum")(x, n.scalar(lo))
    if hi is not None:
        x = n.op("minimum")(x, n.scalar(hi))
    return x


@register("Clip", since=11)
def _clip11(n: Node):
    x = n.expr(0)
    if n.has(1):
        x = n.op("maximum")(x, n.expr(1) if not n.is_const(1) else n.scalar(n.const_scalar(1)))
    if n.has(2):
        x = n.op("minimum")(x, n.expr(2) if not n.is_const(2) else n.scalar(n.const_scalar(2)))
    return x


# -- activations (composed like Relay's ONNX frontend) ----------------------------
def _pos_neg(n: Node, x):
    zero = n.scalar(0.0)
    return n.op("maximum")(x, zero), n.op("minimum")(x, zero)


@register("LeakyRelu", since=6)
def _leaky_relu(n: Node):
    _float_only(n)
    alpha = float(n.attr("alpha", 0.01))
    pos, neg = _pos_neg(n, n.expr(0))
    return n.op("add")(pos, n.op("multiply")(n.scalar(alpha), neg))


@register("PRelu", since=7)
def _prelu(n: Node):
    _float_only(n)
    pos, neg = _pos_neg(n, n.expr(0))
    return n.op("add")(pos, n.op("multiply")(n.expr(1), neg))


def _elu_part(n: Node, x, alpha: float):
    pos, neg = _pos_neg(n, x)
    one = n.scalar(1.0)
    return pos, n.op("multiply")(n.scalar(alpha), n.op("subtract")(n.op("exp")(neg), one))


@register("Elu", since=6)
def _elu(n: Node):
    _float_only(n)
    pos, negp = _elu_part(n, n.expr(0), float(n.attr("alpha", 1.0)))
    return n.op("add")(pos, negp)


@register("Selu", since=6)
def _selu(n: Node):
    _float_only(n)
    alpha = float(n.attr("alpha", 1.67326319217681884765625))
    gamma = float(n.attr("gamma", 1.05070102214813232421875))
    pos, negp = _elu_part(n, n.expr(0), alpha)
    return n.op("multiply")(n.scalar(gamma), n.op("add")(pos, negp))


@register("Celu", since=12)
def _celu(n: Node):
    _float_only(n)
    alpha = float(n.attr("alpha", 1.0))
    x = n.expr(0)
    pos, _ = _pos_neg(n, x)
    scaled = n.op("divide")(x, n.scalar(alpha)) if alpha != 1.0 else x
    e = n.op("multiply")(n.scalar(alpha), n.op("subtract")(n.op("exp")(scaled), n.scalar(1.0)))
    return n.op("add")(pos, n.op("minimum")(n.scalar(0.0), e))


def _hard_sigmoid(n: Node, x, alpha: float, beta: float):
    y = n.op("add")(n.op("multiply")(n.scalar(alpha), x), n.scalar(beta))
    return n.op("minimum")(n.op("maximum")(y, n.scalar(0.0)), n.scalar(1.0))


@register("HardSigmoid", since=6)
def _hardsigmoid(n: Node):
    _float_only(n)
    return _hard_sigmoid(n, n.expr(0), float(n.attr("alpha", 0.2)), float(n.attr("beta", 0.5)))


@register("HardSwish", since=14)
def _hardswish(n: Node):
    _float_only(n)
    x = n.expr(0)
    return n.op("multiply")(x, _hard_sigmoid(n, x, 1.0 / 6.0, 0.5))


@register("Softplus", since=1)
def _softplus(n: Node):
    _float_only(n)
    return n.op("log")(n.op("add")(n.op("exp")(n.expr(0)), n.scalar(1.0)))


@register("Softsign", since=1)
def _softsign(n: Node):
    _float_only(n)
    x = n.expr(0)
    absx = n.op("maximum")(x, n.op("negative")(x))
    return n.op("divide")(x, n.op("add")(absx, n.scalar(1.0)))


@register("ThresholdedRelu", since=10)
def _thresholded_relu(n: Node):
    _float_only(n)
    x = n.expr(0)
    alpha = float(n.attr("alpha", 1.0))
    return n.op("where")(n.op("greater")(x, n.scalar(alpha)), x, n.scalar(0.0))


@register("Mish", since=18)
def _mish(n: Node):
    _float_only(n)
    x = n.expr(0)
    sp = n.op("log")(n.op("add")(n.op("exp")(x), n.scalar(1.0)))
    return n.op("multiply")(x, n.op("tanh")(sp))


@register("Swish", since=24)
def _swish(n: Node):
    _float_only(n)
    x = n.expr(0)
    alpha = float(n.attr("alpha", 1.0))
    ax = x if alpha == 1.0 else n.op("multiply")(n.scalar(alpha), x)
    return n.op("multiply")(x, n.op("sigmoid")(ax))


@register("Gelu", since=20)
def _gelu(n: Node):
    _float_only(n)
    x = n.expr(0)
    approx = n.expect("approximate", "none", "tanh", default="none")
    half = n.scalar(0.5)
    if approx == "none":
        inner = n.op("erf")(n.op("multiply")(x, n.scalar(float(1.0 / np.sqrt(2.0)))))
    else:
        x3 = n.op("multiply")(n.op("multiply")(x, x), x)
        t = n.op("add")(x, n.op("multiply")(n.scalar(0.044715), x3))
        inner = n.op("tanh")(n.op("multiply")(n.scalar(float(np.sqrt(2.0 / np.pi))), t))
    return n.op("multiply")(n.op("multiply")(half, x), n.op("add")(n.scalar(1.0), inner))


@register("Shrink", since=9)
def _shrink(n: Node):
    _float_only(n)
    x = n.expr(0)
    lambd, bias = float(n.attr("lambd", 0.5)), float(n.attr("bias", 0.0))
    lo = n.op("less")(x, n.scalar(-lambd))
    hi = n.op("greater")(x, n.scalar(lambd))
    return n.op("where")(lo, n.op("add")(x, n.scalar(bias)),
                         n.op("where")(hi, n.op("subtract")(x, n.scalar(bias)), n.scalar(0.0)))
