"""``relay.frontend.from_pytorch`` with ``relay.Any()`` input dims, through the VM at two sizes.

TVM 0.19 refuses them (side venv, a traced and a scripted ``nn.Linear`` with
``[("x", [relay.Any(), 4])]``: ``RuntimeError: Shape for Tensors must be lists of ints``);
relay-mlir imports the graph twice with different example sizes and keeps the program only
if both are the same, so no example size is baked in. References: torch and numpy. One
IREE compile (module fixture); the rest runs on the reference interpreter.
"""
from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import relay_mlir.tvm as tvm  # noqa: E402
from relay_mlir.frontend.common import UnsupportedError  # noqa: E402
from relay_mlir.tvm import relay  # noqa: E402
from relay_mlir.tvm.runtime import vm as vm_rt  # noqa: E402


def _net():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3, padding=1), torch.nn.ReLU(),
                               torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(4, 5),
                               torch.nn.Softmax(dim=1)).eval()


@pytest.fixture(scope="module")
def dynamic_batch_vm():
    torch.manual_seed(1)
    net = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(48, 5), torch.nn.ReLU()).eval()
    traced = torch.jit.trace(net, torch.randn(2, 3, 4, 4))
    mod, params = relay.frontend.from_pytorch(traced, [("input0", (relay.Any(), 3, 4, 4))])
    with tvm.transform.PassContext(opt_level=3):
        exe = relay.vm.compile(mod, target="llvm", params=params)
    return net, mod, vm_rt.VirtualMachine(exe, tvm.cpu())


def test_any_batch_runs_in_the_vm_at_two_sizes(dynamic_batch_vm):
    net, mod, vm = dynamic_batch_vm
    assert [str(d) for d in mod["main"].params[0].type_annotation.shape] == ["?", "3", "4", "4"]
    for batch in (1, 5):  # neither is an example size the importer used (2, 3)
        x = torch.randn(batch, 3, 4, 4)
        with torch.no_grad():
            want = net(x).numpy()
        got = vm.run(x.numpy()).numpy()
        assert got.shape == (batch, 5)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


class _ViewBySize(torch.nn.Module):
    def forward(self, x):
        return x.view(x.size(0), -1) * 2.0


class _ViewByNumber(torch.nn.Module):
    def forward(self, x):
        return x.view(2, -1)


def test_view_by_the_inputs_own_size_keeps_the_dim_dynamic():
    traced = torch.jit.trace(_ViewBySize(), torch.randn(2, 3, 4))
    mod, _ = relay.frontend.from_pytorch(traced, [("x", (relay.Any(), 3, 4))])
    run = relay.create_executor("debug", mod=mod).evaluate()
    for batch in (1, 6):
        x = np.arange(batch * 12, dtype="float32").reshape(batch, 3, 4)
        np.testing.assert_array_equal(run(x).numpy(), x.reshape(batch, 12) * 2)


def test_a_size_baked_into_the_program_is_refused():
    traced = torch.jit.trace(_ViewByNumber(), torch.randn(2, 3, 4))
    with pytest.raises(UnsupportedError, match=r"size of a relay.Any\(\) dim of input\(s\) x as a number"):
        relay.frontend.from_pytorch(traced, [("x", (relay.Any(), 3, 4))])


def test_spatial_any_dims_run_at_other_sizes():
    net = _net()
    traced = torch.jit.trace(net, torch.randn(1, 3, 8, 8))
    mod, params = relay.frontend.from_pytorch(traced, [("input0", [1, 3, relay.Any(), relay.Any()])])
    run = relay.create_executor("debug", mod=mod, params=params).evaluate()
    x = torch.randn(1, 3, 5, 7)
    with torch.no_grad():
        want = net(x).numpy()
    np.testing.assert_allclose(run(x.numpy()).numpy(), want, rtol=1e-5, atol=1e-6)
