"""Errors and small helpers shared by the importers."""
from __future__ import annotations

from typing import Optional

from ..errors import CompileError, Diagnostic

__all__ = ["ImportError_", "UnsupportedError", "UnexpectedImportError", "round_half_to_even",
           "round_half_to_even_clipped", "ROUNDING_MAGIC", "CLIP_BOUND"]


def round_half_to_even(x, half):
    """ONNX's and PyTorch's ``round`` (halves to the even neighbour) from Relay ops:
    ``relay.round`` rounds halves away from zero, as TVM does. ``half`` is the
    constant 0.5 in ``x``'s float dtype.

    At a tie (``|x - trunc(x)| == 0.5``) the two neighbours are ``trunc(x)``
    and ``round(x)``, one of them even: when ``round(x)`` is odd (``round(x) / 2``
    is not an integer) the result is ``trunc(x)``, which also keeps the sign
    of ``-0.5 -> -0``. Every step is exact in floating point; NaN and
    infinities come out of ``round`` unchanged (their tie test is false).
    """
    from .. import op
    y = op.round(x)
    t = op.trunc(x)
    tie = op.equal(op.abs(op.subtract(x, t)), half)
    y_half = op.multiply(y, half)
    odd = op.not_equal(op.floor(y_half), y_half)
    return op.where(op.logical_and(tie, odd), t, y)


# float32's spacing is 1 between 2^23 and 2^24: x + 1.5 * 2^23 rounds x to an integer (ties to
# the even one, the constant being even) and the subtraction is exact, for |x| <= 2^22.
ROUNDING_MAGIC = 1.5 * 2.0 ** 23
CLIP_BOUND = float(2 ** 22)


def round_half_to_even_clipped(x, magic):
    """``round_half_to_even`` of a float32 ``x`` whose result is then saturated to a range
    within +-2^22 (8- and 16-bit quantization): ``x`` clipped to +-2^22 (no saturated result
    changes; infinities saturate as before), plus and minus ``magic`` (the float32 constant
    ROUNDING_MAGIC). Four elementwise ops where the general form takes eleven."""
    from .. import op
    x = op.clip(x, -CLIP_BOUND, CLIP_BOUND)
    return op.subtract(op.add(x, magic), magic)


class ImportError_(CompileError):
    """A model could not be imported (malformed or inconsistent model)."""

    def __init__(self, message: str, op_type: Optional[str] = None, node_name: Optional[str] = None,
                 opset: Optional[int] = None, location: Optional[str] = None) -> None:
        self.op_type, self.node_name, self.opset = op_type, node_name, opset
        diags = []
        if location is not None:
            diags.append(Diagnostic("error", message, location, 0, 0))
        super().__init__(message, diags)

    def __str__(self) -> str:  # the message already names the node
        return self.message


class UnsupportedError(ImportError_):
    """The model uses an operator, attribute or input form the importer does not support.

    ``op_type``, ``node_name`` and ``opset`` name the offending ONNX node;
    the message names all three.
    """


class UnexpectedImportError(ImportError_):
    """A converter failed with an unexpected Python exception (an importer bug).

    The importer's last resort: the model may well be malformed, but the
    check that should have said so cleanly is missing. ``cause_type`` and
    ``cause_frame`` (``file:function`` of the innermost importer frame) say
    where it happened; the message names the node.
    """

    def __init__(self, message: str, cause: BaseException, op_type: Optional[str] = None,
                 node_name: Optional[str] = None, opset: Optional[int] = None) -> None:
        import os
        import traceback
        frames = traceback.extract_tb(cause.__traceback__)
        ours = [f for f in frames if "relay_mlir" in f.filename] or frames
        f = ours[-1] if ours else None
        fn = f.filename if f else "?"
        if "relay_mlir" in fn:
            fn = fn[fn.rindex("relay_mlir"):]
        else:
            fn = os.path.basename(fn)
        self.cause_type = type(cause).__name__
        self.cause_frame = f"{fn}:{f.name}" if f else "?"
        super().__init__(message, op_type, node_name, opset)
