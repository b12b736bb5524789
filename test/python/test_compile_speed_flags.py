"""Which speed flags iree-compile took (``Executable.speed_flags``), and why it refused others.

``compile`` tries the target's speed flags (data tiling, pad fusion), then each fallback set,
then none; a program compiled on a fallback is correct but slower, so what was refused is
recorded on the ``Executable`` (and reported by bench/models.py and bench/quant.py) instead
of being dropped: quantized ResNet-18 once compiled only without pad fusion, unseen.
"""
from __future__ import annotations

import dataclasses
import logging

import numpy as np

import relay_mlir as relay
from relay_mlir import compiler
from relay_mlir.targets import get_target


def _program():
    x = relay.var("x", shape=(4, 8))
    return relay.IRModule.from_expr(relay.Function([x], relay.nn.relu(x)))


def test_a_program_takes_the_targets_first_speed_flags():
    exe = relay.compile(_program())
    assert exe.speed_flags == get_target("llvm-cpu").speed_flags and exe.speed_flags_refused == []
    np.testing.assert_array_equal(exe(np.full((4, 8), -1.0, "float32")), np.zeros((4, 8), "float32"))


def test_refused_speed_flags_are_recorded_and_logged(caplog):
    cpu = get_target("llvm-cpu")
    target = dataclasses.replace(cpu, speed_flags=["--iree-no-such-flag"],
                                 fallback_speed_flags=[["--iree-no-such-flag-either"], *cpu.fallback_speed_flags])
    low = compiler._lower_source(_program(), parameters=True)
    with caplog.at_level(logging.INFO, logger="relay_mlir"):
        out = compiler._iree_compile(low, target, [])
    assert out.speed_flags == cpu.fallback_speed_flags[0]
    assert len(out.refused) == 2 and all("no-such-flag" in r for r in out.refused), out.refused
    assert sum("iree-compile refused" in m for m in caplog.messages) == 2
    assert b"" != out.vmfb


def test_a_pad_before_a_transpose_keeps_the_speed_flags():
    """IREE 3.13 fuses a tensor.pad into an elementwise or transpose consumer under the pad
    fusion flag and then fails to compile it (at 1x3x24x24 and up); the lowering hands it
    such pads as fill + insert_slice (PadsForIREE.h). Quantized MobileNetV2 and ResNet-18
    (the zero-point pad of the NCHW input, then its transpose) had compiled on a fallback."""
    x = relay.var("x", shape=(1, 3, 24, 24), dtype="int8")
    p = relay.nn.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), pad_value=relay.const(np.int8(-3)))
    y = relay.exp(relay.cast(relay.transpose(p, (0, 2, 3, 1)), "float32"))
    exe = relay.compile(relay.IRModule.from_expr(relay.Function([x], y)))
    assert exe.speed_flags_refused == []
    xi = np.random.default_rng(0).integers(-8, 8, (1, 3, 24, 24)).astype("int8")
    want = np.exp(np.pad(xi, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-3).transpose(0, 2, 3, 1)
                  .astype("float32"))
    np.testing.assert_allclose(exe(xi), want, rtol=1e-6)
