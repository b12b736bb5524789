"""Which of relay-mlir's own CPU kernels a compile for ``llvm-cpu`` uses.

``llvm-cpu`` compiles for the host CPU (``--iree-llvmcpu-target-cpu=host``), so a kernel
that needs a CPU feature is used when the host has it. Two kernel sets exist, the first
the host can run is used: ``avx512vnni`` (``relay-vnni-matmul``: 8-bit matmuls and
convolutions with constant weights on ``vpdpbusd``, which IREE 3.13's own kernels do not
use, and the f32 ones below) needs AVX-512 F, BW and VNNI; ``avx512`` (the f32 GEMM
alone: f32 matmuls and convolutions with constant weights on ``vfmadd``, reading the
activations where they are instead of packing them in a dispatch of their own) needs
AVX-512 F. ``RELAY_MLIR_CPU_KERNELS=none`` (or a set's name) overrides the detection
(benchmarks and tests of each path); extra iree-compile flags that choose another CPU or
triple turn the kernels off (the kernel might not run there).

    >>> for_target("vulkan-spirv")
    'none'
    >>> for_target("llvm-cpu", ["--iree-llvmcpu-target-cpu=haswell"])
    'none'
"""
from __future__ import annotations

import functools
import os
import platform
from typing import FrozenSet, Sequence

__all__ = ["KERNEL_SETS", "for_target", "host_flags"]

#: Each kernel set and the /proc/cpuinfo flags it needs (the larger set first).
KERNEL_SETS = {"avx512vnni": frozenset({"avx512f", "avx512bw", "avx512_vnni"}),
               "avx512": frozenset({"avx512f"})}

# iree-compile flags that compile for another CPU than the host
_OTHER_CPU = ("--iree-llvmcpu-target-cpu", "--iree-llvmcpu-target-cpu-features",
              "--iree-llvmcpu-target-triple")


@functools.lru_cache(maxsize=None)
def host_flags() -> FrozenSet[str]:
    """The host CPU's feature flags as Linux names them (empty elsewhere)."""
    if platform.machine() not in ("x86_64", "AMD64"):
        return frozenset()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("flags"):
                    return frozenset(line.split(":", 1)[1].split())
    except OSError:
        pass
    return frozenset()


def for_target(target_name: str, extra_args: Sequence[str] = ()) -> str:
    """The kernel set (``"avx512vnni"``, ``"avx512"`` or ``"none"``) for a compile to ``target_name``
    with the extra iree-compile flags ``extra_args``."""
    if target_name != "llvm-cpu":
        return "none"
    forced = os.environ.get("RELAY_MLIR_CPU_KERNELS")
    if forced:
        if forced != "none" and forced not in KERNEL_SETS:
            raise ValueError(f"RELAY_MLIR_CPU_KERNELS={forced!r}: expected none or "
                             f"{', '.join(KERNEL_SETS)}")
        return forced
    if any(a.split("=", 1)[0] in _OTHER_CPU for a in extra_args):
        return "none"
    for name, needs in KERNEL_SETS.items():
        if needs <= host_flags():
            return name
    return "none"
