"""``aten::embedding_bag`` through the TorchScript importer (``from_pytorch``): ``nn.EmbeddingBag``
(2-d indices: bags of one length) traced and scripted, and ``F.embedding_bag`` with ragged
offsets (an empty bag included) and ``per_sample_weights``, for modes sum, mean and max,
against torch on the reference interpreter (no compile). TVM 0.19 has no converter for it
(``the following operators are not implemented: ['aten::embedding_bag']``).
"""
from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import relay_mlir as relay  # noqa: E402
from relay_mlir.frontend.common import UnsupportedError  # noqa: E402
from relay_mlir.frontend.torchscript import from_torchscript  # noqa: E402


class _Bag(torch.nn.Module):
    def __init__(self, mode: str):
        super().__init__()
        self.bag = torch.nn.EmbeddingBag(10, 3, mode=mode)

    def forward(self, x):
        return self.bag(x)


class _Ragged(torch.nn.Module):
    def __init__(self, mode: str):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(10, 3))
        self.mode = mode

    def forward(self, x, psw):
        weights = psw if self.mode == "sum" else None
        return torch.nn.functional.embedding_bag(x, self.w, torch.tensor([0, 2, 2, 5]), mode=self.mode,
                                                 per_sample_weights=weights)


class _MaxIndices(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(10, 3))

    def forward(self, x):
        return torch.ops.aten.embedding_bag(self.w, x, torch.tensor([0, 2]), False, 2, False, None,
                                            False, None)[3]


def _run(mod, params, *args):
    return np.asarray(relay.create_executor("debug", mod=mod).evaluate()(*args, *params.values()))


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("how", ["trace", "script"])
def test_embedding_bag_module_matches_torch(mode, how):
    torch.manual_seed(0)
    m = _Bag(mode).eval()
    x = torch.tensor([[1, 2, 3], [4, 9, 0]])
    sm = torch.jit.trace(m, x) if how == "trace" else torch.jit.script(m)
    mod, params = from_torchscript(sm, [("x", ((2, 3), "int64"))])
    with torch.no_grad():
        want = m(x).numpy()
    np.testing.assert_allclose(_run(mod, params, x.numpy()), want, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_ragged_bags_with_an_empty_one_match_torch(mode):
    torch.manual_seed(1)
    m = _Ragged(mode).eval()
    x, psw = torch.tensor([1, 2, 3, 4, 9, 0, 7]), torch.rand(7)
    mod, params = from_torchscript(torch.jit.trace(m, (x, psw)), [("x", ((7,), "int64")), ("psw", (7,))])
    with torch.no_grad():
        want = m(x, psw).numpy()
    got = _run(mod, params, x.numpy(), psw.numpy())
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    assert got.shape == (4, 3) and not got[1].any()  # bag 1 is empty: zeros


def test_max_indices_are_refused():
    sm = torch.jit.trace(_MaxIndices().eval(), torch.tensor([1, 2, 3, 4]))
    with pytest.raises(UnsupportedError, match="max_indices are read"):
        from_torchscript(sm, [("x", ((4,), "int64"))])
