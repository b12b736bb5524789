"""The targets relay-mlir compiles for (IREE backend, runtime driver and flags) and TVM's
target names for them (``"llvm -mcpu=..."`` is ``llvm-cpu``): below every module that takes
a target (the compiler, the executors, device planning, the TVM stand-in)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Union

__all__ = ["Target", "TARGETS", "get_target", "normalize_target"]


@dataclass(frozen=True)
class Target:
    """An IREE target: compiler backend, runtime driver and extra compiler flags."""

    name: str
    backend: str
    driver: str
    flags: List[str] = field(default_factory=list)
    #: Flags that only make the code faster. IREE 3.13 rejects some valid
    #: programs with them (data tiling fails on i1 tensors that meet a
    #: matmul, "linalg.pack op expected padding_value has 'i8' but got
    #: 'i1'"), so a failed compile is retried with `fallback_speed_flags`,
    #: then without any.
    speed_flags: List[str] = field(default_factory=list)
    #: Alternatives to `speed_flags`, tried in order when a compile with
    #: them fails.
    fallback_speed_flags: List[List[str]] = field(default_factory=list)
    #: Speed flags added for programs with run-time sizes (a `?` dim).
    run_time_size_flags: List[str] = field(default_factory=list)
    #: Flags for programs with loops (`Lowered.has_loop`).
    loop_flags: List[str] = field(default_factory=list)


# iree-compile demotes f64 to f32 by default, which would silently change a
# program's result dtype; targets with f64 support keep it.
_KEEP_F64 = ["--iree-input-demote-f64-to-f32=false"]

# Data tiling (packed matmul operands, weights packed once at compile time)
# is off by default in IREE 3.13; with it the matmuls we emit (dense,
# batch_matmul, im2col convolutions) run 1.6-3x faster on llvm-cpu
# (ResNet-18: 93 -> 60 ms, bench/RESULTS.md).
_DATA_TILING = ["--iree-dispatch-creation-data-tiling"]
# A zero padding fused into the window op that reads it instead of a padded
# copy of the input: depthwise convolutions read their windows from the
# unpadded input (MobileNetV2 0.93-0.95x CPU time, bench/PARTIAL.md). IREE
# 3.13's direct conv_2d_nhwc_hwcf is slower with it (ResNet-18 1.14x), so
# the lowering puts the padded input of a direct convolution behind a
# util.optimization_barrier (Conv.cpp, directConvInput).
_PAD_INTO_CONSUMER = ["--iree-dispatch-creation-enable-fuse-padding-into-linalg-consumer-ops"]
# The same, started in global optimization: slightly slower on static
# programs, but it compiles the dynamic-shape attention that the
# dispatch-creation path rejects (a transposed, collapsed batch_matmul
# operand with a run-time batch: "'affine.delinearize_index' op no basis
# element may be statically non-positive"); on BERT with dynamic axes it
# halves the matmuls' time against no data tiling (bench/DYNAMIC.md).
_GLOBAL_DATA_TILING = ["--iree-global-opt-data-tiling"]
# IREE 3.13 picks a data-tiled matmul's workgroup tiles for its row count,
# taking a `?` row count as 1024 rows: at the default tile budget (256 KiB)
# the 64-row matmuls of BERT-tiny at batch 1, sequence 64 are one workgroup,
# one thread. Half the budget splits them: BERT-tiny with dynamic axes 0.72
# -> 0.61 ms at 1x64 on 2 threads; ResNet-18, the LSTM LM and large matmuls
# unchanged (bench/DYNAMIC.md, session 13).
_RUN_TIME_ROWS = ["--iree-llvmcpu-matmul-tile-bytes=131072"]
# IREE 3.13's reusable (indirect) command buffers race in a loop on Vulkan
# (lavapipe): a loop adding an input to its one carried tensor 1000 times
# gave 1002-1187 additions' worth, varying run to run
# (test_recursion.py::test_non_tail_recursion_on_vulkan). Programs with loops
# record their command buffers directly on the GPU targets.
_GPU_LOOPS = ["--iree-hal-indirect-command-buffers=false"]

TARGETS = {
    "llvm-cpu": Target("llvm-cpu", "llvm-cpu", "local-task",
                       ["--iree-llvmcpu-target-cpu=host", *_KEEP_F64],
                       [*_DATA_TILING, *_PAD_INTO_CONSUMER],
                       [_GLOBAL_DATA_TILING], _RUN_TIME_ROWS),
    "vulkan-spirv": Target("vulkan-spirv", "vulkan-spirv", "vulkan", [], loop_flags=_GPU_LOOPS),
    "cuda": Target("cuda", "cuda", "cuda", [*_KEEP_F64], loop_flags=_GPU_LOOPS),
    "rocm": Target("rocm", "rocm", "hip", ["--iree-rocm-target=gfx942", *_KEEP_F64],
                   loop_flags=_GPU_LOOPS),
}
_ALIASES = {"cpu": "llvm-cpu", "llvm": "llvm-cpu", "vulkan": "vulkan-spirv", "hip": "rocm"}


def get_target(name: Union[str, Target]) -> Target:
    """The ``Target`` called ``name`` (``llvm-cpu``, ``vulkan-spirv``, ``cuda``, ``rocm``).

    >>> get_target("vulkan").driver
    'vulkan'
    """
    if isinstance(name, Target):
        return name
    key = _ALIASES.get(name, name)
    if key not in TARGETS:
        raise ValueError(f"unknown target '{name}' (choose from {', '.join(TARGETS)})")
    return TARGETS[key]


_TVM_TARGETS = {"llvm": "llvm-cpu", "c": "llvm-cpu", "cpu": "llvm-cpu", "cuda": "cuda",
                "nvptx": "cuda", "rocm": "rocm", "vulkan": "vulkan-spirv", "spirv": "vulkan-spirv"}


def normalize_target(target: Union[str, Target, None]) -> Union[str, Target]:
    """Maps TVM target strings (``"llvm"``, ``"llvm -mcpu=skylake"``, ``"cuda"``,
    ``"vulkan"``) to this project's targets; others pass through.

    >>> normalize_target("llvm -mcpu=core-avx2"), normalize_target("vulkan"), normalize_target(None)
    ('llvm-cpu', 'vulkan-spirv', 'llvm-cpu')
    """
    if target is None:
        return "llvm-cpu"
    if isinstance(target, str):
        kind = target.strip().split()[0] if target.strip() else "llvm"
        return _TVM_TARGETS.get(kind, kind)
    return target
