"""``prim::Loop`` whose condition is known only at run time (a scripted ``while`` on a tensor)
and a ``for`` with a data-dependent ``break`` (TorchScript carries an int counter) through the
TorchScript importer (``from_pytorch``): a Relay loop (a private global function calling
itself), as TVM 0.19 converts such loops (a recursive ``while_loop`` function). Checked
against torch on the reference interpreter at inputs that run 0, some and all iterations;
a carried value that changes type, or a carried float, is refused.
"""
from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import relay_mlir as relay  # noqa: E402
from relay_mlir.frontend.common import UnsupportedError  # noqa: E402
from relay_mlir.frontend.torchscript import from_torchscript  # noqa: E402


class _Halve(torch.nn.Module):
    """Halves x until its sum is at most 1, counting the steps."""

    def forward(self, x):
        n = torch.zeros(1)
        while bool(x.sum() > 1.0):
            x = x * 0.5
            n = n + 1.0
        return x, n


class _Accumulate(torch.nn.Module):
    """At most 6 steps of x = tanh(lin(x)) + i, stopping once x's max passes 2."""

    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 3)

    def forward(self, x):
        for i in range(6):
            if bool(x.max() > 2.0):
                break
            x = torch.tanh(self.lin(x)) + i
        return x


class _Threshold(torch.nn.Module):
    def forward(self, x):
        t = 0.0
        while bool(x.sum() > t):
            t = t + 1.5
            x = x * 0.5
        return x


class _Grow(torch.nn.Module):
    def forward(self, x):
        while bool(x.sum() < 10.0):
            x = torch.cat([x, x])
        return x


def _import_and_run(model, shape):
    sm = torch.jit.script(model)
    mod, params = from_torchscript(sm, [("x", shape)])
    assert any(gv.name_hint.startswith("loop") for gv in mod.get_global_vars())
    run = relay.create_executor("debug", mod=mod).evaluate()
    return sm, lambda x: run(x, *params.values())


def test_while_on_a_run_time_condition_matches_torch():
    sm, run = _import_and_run(_Halve(), (4,))
    for v in ([1.0, 2.0, 3.0, 4.0], [0.1, 0.1, 0.1, 0.1], [100.0, 0.0, 0.0, 0.0]):  # 4, 0, 7 steps
        x = torch.tensor(v)
        got, want = run(x.numpy()), sm(x)
        for g, w in zip(got, want):
            np.testing.assert_allclose(np.asarray(g), w.numpy(), rtol=1e-6)


def test_for_with_a_run_time_break_matches_torch():
    # TorchScript carries its own int counter through such a loop: a 0-d int64 tensor here
    torch.manual_seed(0)
    sm, run = _import_and_run(_Accumulate().eval(), (2, 3))
    for x in (torch.zeros(2, 3), torch.full((2, 3), 5.0), torch.randn(2, 3)):  # 6 steps, 0, some
        with torch.no_grad():
            want = sm(x).numpy()
        np.testing.assert_allclose(np.asarray(run(x.numpy())), want, rtol=1e-5, atol=1e-6)


def test_a_loop_carrying_a_float_is_refused():
    with pytest.raises(UnsupportedError, match="carries value 1, a float; it can carry tensors, ints and bools"):
        from_torchscript(torch.jit.script(_Threshold()), [("x", (3,))])


def test_a_carried_value_that_changes_type_is_refused():
    with pytest.raises(UnsupportedError, match=r"loop-carried value 0 changes type in the body: \[2\] float32 -> \[4\]"):
        from_torchscript(torch.jit.script(_Grow()), [("x", (2,))])
