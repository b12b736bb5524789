"""TVM 0.19's facts about its x86 (``llvm``) targets that its passes ask (measured in the side venv).

- ``simd_32bit_lanes(target)``: TVM's ``tvm.target.x86.get_simd_32bit_lanes()``, the block
  AlterOpLayout's fallback tiles start from: 16 with avx512f and avx512bw, 8 with avx2, else 4;
- ``has_fast_int8(target)``: TVM's ``is_fast_int8_on_intel()`` (the target has sse4.2), which
  picks qnn.Legalize's rewrite of int8 convolutions and dense layers.

TVM asks LLVM for the features of ``-mcpu``; relay-mlir has a table of the CPUs measured
(``llvm -mcpu=X`` in the side venv); an unknown ``-mcpu`` is a ValueError naming the known
ones. ``-mattr=+avx2`` / ``+avx512f,+avx512bw`` / ``+sse4.2`` count as in TVM (LLVM's
implied features: ``+avx2`` or ``+avx512f`` alone bring sse4.2).

    >>> from relay_mlir.tvm.target import Target
    >>> simd_32bit_lanes(Target("llvm -mcpu=haswell")), has_fast_int8(Target("llvm"))
    (8, False)
"""
from __future__ import annotations

__all__ = ["simd_32bit_lanes", "has_fast_int8"]

# TVM 0.19's get_simd_32bit_lanes() under Target("llvm -mcpu=X"), measured in the side venv
# (16: avx512f and avx512bw, 8: avx2, else 4)
_LANES_BY_MCPU = {
    **dict.fromkeys(["", "generic", "x86-64", "sandybridge", "ivybridge", "nehalem", "westmere",
                     "core2", "corei7", "corei7-avx", "core-avx-i"], 4),
    **dict.fromkeys(["core-avx2", "haswell", "broadwell", "skylake", "znver1", "znver2",
                     "znver3", "alderlake", "knl", "knm", "x86-64-v3"], 8),
    **dict.fromkeys(["skylake-avx512", "cascadelake", "cooperlake", "icelake-server",
                     "icelake-client", "tigerlake", "sapphirerapids", "cannonlake", "rocketlake",
                     "znver4", "x86-64-v4", "graniterapids", "emeraldrapids"], 16),
}


def simd_32bit_lanes(target) -> int:
    """TVM's x86 ``get_simd_32bit_lanes`` for ``target``: 16 with avx512f+avx512bw, 8 with
    avx2, else 4 (``-mattr=+avx512f,+avx512bw`` / ``+avx2`` count as in TVM)."""
    feats = _mattr(target)
    lanes = _LANES_BY_MCPU[_mcpu(target)]
    if {"avx512f", "avx512bw"} <= feats:
        return 16
    return max(lanes, 8) if "avx2" in feats else lanes


# -mcpu values without sse4.2 (TVM 0.19's is_fast_int8_on_intel() is False under them)
_NO_SSE42 = frozenset({"", "generic", "x86-64", "core2"})
# -mattr features that bring sse4.2 (LLVM's implied features)
_SSE42_FEATURES = frozenset({"sse4.2", "avx", "avx2", "avx512f", "avx512bw", "avx512vnni"})


def _mcpu(target) -> str:
    mcpu = str(target.attrs.get("mcpu", "") or "")
    if mcpu not in _LANES_BY_MCPU:
        raise ValueError(f"unknown -mcpu={mcpu!r} for TVM's x86 target facts (known: "
                         f"{', '.join(sorted(k for k in _LANES_BY_MCPU if k))})")
    return mcpu


def _mattr(target) -> set:
    mattr = str(target.attrs.get("mattr", "") or "")
    return {f.strip().lstrip("+") for f in mattr.split(",") if f.strip().startswith("+")}


def has_fast_int8(target) -> bool:
    """TVM's ``is_fast_int8_on_intel()`` under ``target``: it has sse4.2."""
    return _mcpu(target) not in _NO_SSE42 or bool(_mattr(target) & _SSE42_FEATURES)
