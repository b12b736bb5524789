"""Helpers shared by the numeric tests of the nn families (test_nn.py,
test_conv.py, test_pool.py, test_norm.py); not a test file itself.

Each of those files keeps its own ``CASES`` dict (compiled into ONE module
for the file), its own seeded random generator and its own numpy
references; this module holds only what they share: the tolerances, the
input and variable builders, and the compile-once / run-and-compare steps.
It deliberately names no operator, so it cannot satisfy
test_op_coverage.py on any test file's behalf (which also only scans
``test_*.py``).
"""
from __future__ import annotations

from typing import Callable, Dict, List, Tuple

import numpy as np

import relay_mlir as relay

ACCUM = dict(rtol=1e-4, atol=1e-5)
TRANSC = dict(rtol=1e-5, atol=2e-5)
EXACT = dict(rtol=0, atol=0)
F16 = dict(rtol=1e-2, atol=1e-2)

Any = relay.Any

# name -> (Function, [input lists, one per run], reference, tolerance)
Cases = Dict[str, Tuple[relay.Function, List[list], Callable, dict]]


def make_rand(seed: int) -> Callable:
    """``rand(*shape, lo, hi, dtype)`` drawing from its own generator, so a
    file's inputs do not depend on which other files were imported first."""
    gen = np.random.default_rng(seed)

    def rand(*shape, lo=-2.0, hi=2.0, dtype="float32"):
        if np.dtype(dtype).kind in "iu":
            return gen.integers(int(lo), int(hi) + 1, size=shape).astype(dtype)
        return gen.uniform(lo, hi, size=shape).astype(dtype)
    return rand


def make_case(cases: Cases) -> Callable:
    """``case(name, params, body, runs, reference, tol=ACCUM)`` adding to ``cases``."""
    def case(name, params, body, runs, reference, tol=ACCUM):
        assert name not in cases, f"duplicate case {name!r}"
        cases[name] = (relay.Function(params, body), runs, reference, tol)
    return case


def v(name, shape, dtype="float32"):
    return relay.var(name, shape=shape, dtype=dtype)


def fn_name(name: str) -> str:
    return "t_" + "".join(c if c.isalnum() else "_" for c in name)


def compile_cases(cases: Cases):
    """All cases as functions of one module, compiled once for llvm-cpu."""
    mod = relay.IRModule({fn_name(n): f for n, (f, _, _, _) in cases.items()})
    return relay.compile(mod, target="llvm-cpu")


def check_case(exe, cases: Cases, name: str) -> None:
    """Run case ``name`` on each of its input sets and compare with its reference (a tuple
    result with a tuple of references)."""
    _, runs, reference, tol = cases[name]
    assert len(runs) == (2 if name.endswith("[?]") else 1)
    for inputs in runs:
        got = exe.run(fn_name(name), *inputs)
        want = reference(*inputs)
        if isinstance(want, tuple):  # a tuple result, field by field
            assert isinstance(got, tuple) and len(got) == len(want), (type(got), len(want))
        else:
            got, want = (got,), (want,)
        for g, w in zip(got, want):
            assert g.shape == w.shape, (g.shape, w.shape)
            assert g.dtype == w.dtype, (g.dtype, w.dtype)
            np.testing.assert_allclose(g, w, **tol)


def call_in_nchw(exe, function, x, w, nhwc):
    """``exe.run(function, x[, w])`` for NCHW ``x`` and OIHW ``w`` (None: no weight
    argument), transposing to NHWC/HWIO and the result back when ``nhwc``."""
    args = [x.transpose(0, 2, 3, 1).copy() if nhwc else x]
    if w is not None:
        args.append(w.transpose(2, 3, 1, 0).copy() if nhwc else w)
    y = exe.run(function, *args)
    return y.transpose(0, 3, 1, 2) if nhwc else y


def asking_conv_strategy(module, strategy: str, functions) -> str:
    """``module`` as MLIR text whose nn.conv2d in each of ``functions`` asks for ``strategy``
    (the ``relay.conv_strategy`` attribute: the lowering then skips its cost rules)."""
    import re

    lines, current, asked = [], None, set()
    for line in module.to_mlir(infer=True).text().splitlines():
        m = re.search(r"func\.func (?:\w+ )?@(\w+)\(", line)
        if m:
            current = m.group(1)
        if current in functions:
            line, k = re.subn(r"(relay\.nn\.conv2d [^{]*\{)", rf'\1relay.conv_strategy = "{strategy}", ', line)
            if k:
                asked.add(current)
        lines.append(line)
    assert asked == set(functions), set(functions) - asked
    return "\n".join(lines)


# kWinogradMinMacs (lib/Conversion/RelayToLinalg/Conv.cpp): below it the cost rules take the
# direct form of a 3x3 convolution
WINOGRAD_MIN_MACS = 32 << 20


def conv3x3_macs(case) -> int:
    """Multiply-adds of the direct form of a Winograd test case (N, C, H, W, O, (top, left,
    bottom, right) padding, ...): output pixels x 9 x C x O."""
    n, c, h, w, o, (top, left, bottom, right) = case[:6]
    return n * (h + top + bottom - 2) * (w + left + right - 2) * o * 9 * c
