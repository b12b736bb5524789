"""``fixed_point_multiply``: integer ``x * multiplier`` for a real multiplier, in integer ops.

TVM 0.19's realize rescales by a factor that is not a power of two with its
``fixed_point_multiply(x, multiplier, shift)`` operator (topi's ``q_multiply_shift``): with
``(m, s)`` the Q31 mantissa and exponent of the factor (``qnn.fixed_point.fixed_point``), it
computes in int64 ``((x << max(s, 0)) * m + 2^(30 + max(-s, 0))) >> (31 + max(-s, 0))`` and
casts back to x's dtype: rounding half up ("UPWARD"). ``rounding="TONEAREST"`` rounds
half away from zero (TVM's ``FixedPointMultiplyToNearest``: the rounding term is one less
for negative products). Realize emits the ``fixed_point_multiply`` operator
(``relay_mlir.op.fixed_point_multiply``) for UPWARD, as TVM does; this module spells the
arithmetic with ``cast``/``left_shift``/``multiply``/``add``/``right_shift`` (and
``greater_equal``/``where`` for TONEAREST), which realize uses for TONEAREST (TVM spells
that out too): bit-exact with TVM.
"""
from __future__ import annotations


from ..expr import Expr, const
from ..op import tensor
from ..qnn.fixed_point import fixed_point

__all__ = ["fixed_point_multiply"]


def _i64(v: int) -> Expr:
    return const(int(v), "int64")


def fixed_point_multiply(x: Expr, dtype: str, multiplier: float, rounding: str = "UPWARD") -> Expr:
    """``x`` (an integer tensor of ``dtype``) times ``multiplier``, rounded as ``rounding``."""
    mantissa, shift = fixed_point(float(multiplier))
    wide = x if dtype == "int64" else tensor.cast(x, "int64")
    if shift > 0:
        wide = tensor.left_shift(wide, _i64(shift))
    wide = wide * _i64(mantissa)
    total = 31 + max(-shift, 0)
    half = 1 << (total - 1)
    if rounding == "UPWARD":
        wide = wide + _i64(half)
    else:
        wide = wide + tensor.where(tensor.greater_equal(wide, _i64(0)), _i64(half), _i64(half - 1))
    wide = tensor.right_shift(wide, _i64(total))
    return wide if dtype == "int64" else tensor.cast(wide, dtype)
