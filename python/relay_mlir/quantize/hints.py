"""The quantizer's three internal operators, as TVM 0.19 names them.

- ``relay.op.annotation.simulated_quantize(data, dom_scale, clip_min, clip_max, kind, sign,
  rounding)``: a quantization point placed by annotate; ``dom_scale``/``clip_min``/``clip_max``
  are variables until calibrate binds them to scalar constants. It computes
  ``round(clip(data / dom_scale, clip_min, clip_max)) * dom_scale`` (TVM's compute: clip
  before round).
- ``annotation.cast_hint(data, dtype)``: partition's "store this in ``dtype``" mark.
- ``annotation.stop_fusion(data)``: partition's and realize's fusion barrier (identity).

They are not dialect operators: they live between the quantizer's passes (the builders of
the first two are relay_mlir.annotation's, which the text parser uses too).
``simulate`` turns the simulated quantizations into float arithmetic (``do_simulation``)
and ``drop_hints`` removes the fusion barriers and cast hints left at the end, which only
steer TVM's operator fusion (this compiler fuses on its own).
"""
from __future__ import annotations

from typing import Dict

import numpy as np

from ..annotation import SIMULATED_QUANTIZE, cast_hint, simulated_quantize
from ..expr import Call, Expr, Function, Op, const
from ..op import tensor
from .forward_rewrite import forward_rewrite, scalar_of

__all__ = ["SIMULATED_QUANTIZE", "simulated_quantize", "is_simulated_quantize", "cast_hint",
           "stop_fusion", "simulate", "drop_hints", "HINT_RULES"]



def is_simulated_quantize(e: Expr) -> bool:
    return isinstance(e, Call) and isinstance(e.op, Op) and e.op.name == SIMULATED_QUANTIZE


def stop_fusion(data: Expr) -> Call:
    return Call(Op.get("annotation.stop_fusion"), [data])


def _simulate_one(call: Call, args) -> Expr:
    data = args[0]
    scale = scalar_of(args[1], "dom_scale")
    lo, hi = scalar_of(args[2], "clip_min"), scalar_of(args[3], "clip_max")
    f32 = np.float32
    scaled = tensor.clip(data / const(f32(scale)), float(lo), float(hi))
    return tensor.round(scaled) * const(f32(scale))


def simulate(fn: Function) -> Function:
    """Calibrated simulated quantizations as float arithmetic (``do_simulation=True``)."""
    return forward_rewrite(fn, {SIMULATED_QUANTIZE: _simulate_one})


HINT_RULES: Dict[str, object] = {
    "annotation.stop_fusion": lambda call, args: args[0],
    "annotation.cast_hint": lambda call, args: args[0],
}


def drop_hints(fn: Function) -> Function:
    """``fn`` without ``stop_fusion``/``cast_hint`` calls (identities for computation)."""
    return forward_rewrite(fn, HINT_RULES)  # type: ignore[arg-type]
