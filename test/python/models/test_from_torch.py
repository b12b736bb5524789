"""``relay_mlir.frontend.from_torch``: ATen op coverage, errors and locations.

Four small modules cover the converters by family (elementwise, shapes, nn,
recurrent); each is imported, compiled once for llvm-cpu and compared with
PyTorch eager at ``rtol=1e-4``, ``atol=1e-5 * max|reference|`` (measured
errors ~1e-7). One is also imported after ``run_decompositions()`` (core
ATen). The error tests need no compile.
"""
from __future__ import annotations

import inspect

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install 'relay-mlir[torch]')")
from torch import nn  # noqa: E402
from torch.nn import functional as F  # noqa: E402

import relay_mlir as relay  # noqa: E402
from relay_mlir.frontend import UnsupportedError, from_torch  # noqa: E402
from relay_mlir.frontend.torch import supported_ops  # noqa: E402
from zoo_cases import assert_close  # noqa: E402

RTOL, ATOL = 1e-4, 1e-5


class Elementwise(nn.Module):
    def forward(self, x, y):
        a = torch.add(x, y, alpha=2.0) - 1.5 * y
        b = 1.0 - torch.sigmoid(x) * torch.tanh(y) / (y.abs() + 1.0)
        c = torch.sqrt(x.abs() + 0.5) + torch.rsqrt(y * y + 1.0) + torch.exp(-x.abs()) + torch.log1p(y.abs())
        d = F.gelu(x) + F.gelu(y, approximate="tanh") + F.silu(x) + F.leaky_relu(y, 0.1) + F.relu6(3 * x)
        e = torch.clamp(x, -0.5, 0.7) + F.hardtanh(y) + torch.erf(x) + torch.pow(x.abs(), 1.5)
        f = torch.where(x > y, x, y) + torch.maximum(x, y) - torch.minimum(x, -y)
        g = x.masked_fill(y < 0, 0.25) + torch.div(x, 0.3, rounding_mode="floor") + torch.relu(-x)
        h = (x >= 0).to(x.dtype) + (x.to(torch.int64) == 0).float()
        return torch.stack([a, b, c, d, e, f, g, h], dim=0)


class Shapes(nn.Module):
    def forward(self, x):  # x: [2, 3, 4, 6]
        a = x.view(2, 3, 24).permute(2, 0, 1).reshape(24, 6).t()          # [6, 24]
        b = torch.cat([x, x * 2], dim=-1).transpose(1, 3).flatten(1)        # [2, 144]
        p, q = torch.split(x, [1, 3], dim=2)
        r = torch.chunk(x, 2, dim=-1)[1]
        s = torch.unbind(x, dim=1)[2]                                       # [2, 4, 6]
        t = x[:, 1:3, ::2, -4:] + x[:, :2, 1::2, 2:]                        # slices with steps
        u = x[1].unsqueeze(0).squeeze(0)[..., 0].expand(5, 3, 4)            # select, unsqueeze
        v = x.sum(dim=1, keepdim=True).repeat(1, 2, 1, 1).flip(-1)
        w = torch.index_select(x, 3, torch.tensor([5, 0, 2]))
        z = torch.cumsum(x, dim=2)
        return (a, b, p * 3 + q[:, :, :1], r, s, t, u, v, w, z)


class NNOps(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(4, 8, 3, padding=2, dilation=2, groups=2)
        self.bn = nn.BatchNorm2d(8)
        self.conv1d = nn.Conv1d(8, 4, 3, stride=2, padding=1)
        self.ln = nn.LayerNorm([5, 5])
        self.gn = nn.GroupNorm(2, 8)
        self.lin = nn.Linear(5, 7)
        with torch.no_grad():
            self.bn.running_mean.uniform_(-0.5, 0.5)
            self.bn.running_var.uniform_(0.5, 1.5)

    def forward(self, x, q, k):  # x [2, 4, 9, 10]; q, k [2, 2, 5, 8]
        y = self.bn(self.conv(x))                                           # [2, 8, 9, 10]
        m = F.max_pool2d(y, 3, 2, ceil_mode=True)                           # [2, 8, 4, 5]
        a = F.avg_pool2d(y, 3, 2, padding=1, count_include_pad=False)       # [2, 8, 5, 5]
        g = self.gn(F.adaptive_avg_pool2d(y, (4, 5)))                       # [2, 8, 4, 5]
        z = F.adaptive_max_pool2d(y, 1).flatten(1)
        c = self.conv1d(y.mean(dim=2))                                      # [2, 4, 5]
        n = self.ln(F.pad(a[:, :4, :4, :], (0, 0, 1, 0)))                   # [2, 4, 5, 5]
        s = torch.cat([F.softmax(m, dim=1), F.log_softmax(a[:, :, :4], dim=-1)], dim=1)
        att = F.scaled_dot_product_attention(q, k, k, is_causal=True)
        mm = torch.matmul(q, k.transpose(-1, -2)) + torch.bmm(q[0], k[1].transpose(1, 2))
        lin = self.lin(c)
        stats = torch.stack([y.var(dim=(2, 3)), y.std(dim=(2, 3), unbiased=False),
                             y.amax(dim=(2, 3)), y.amin(dim=(2, 3))])
        return s, g, z, n, att, mm, lin, stats, torch.argmax(y.flatten(2), dim=-1)


class Recurrent(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lstm = nn.LSTM(6, 5, num_layers=2, bidirectional=True)
        self.emb = nn.Embedding(11, 6)

    def forward(self, ids, h0, c0):  # ids [4, 3] (seq, batch); h0, c0 [4, 3, 5]
        out, (h, c) = self.lstm(self.emb(ids), (h0, c0))
        return out, h, c


def _inputs_for(name: str):
    g = torch.Generator().manual_seed(3)
    if name == "elementwise":
        return (torch.randn(3, 4, generator=g), torch.randn(3, 4, generator=g))
    if name == "shapes":
        return (torch.randn(2, 3, 4, 6, generator=g),)
    if name == "nn":
        return (torch.randn(2, 4, 9, 10, generator=g), torch.randn(2, 2, 5, 8, generator=g),
                torch.randn(2, 2, 5, 8, generator=g))
    return (torch.randint(0, 11, (4, 3), generator=g), torch.randn(4, 3, 5, generator=g),
            torch.randn(4, 3, 5, generator=g))


MODULES = {"elementwise": Elementwise, "shapes": Shapes, "nn": NNOps, "recurrent": Recurrent}


@pytest.mark.parametrize("name,decompose", [
    ("elementwise", False), ("shapes", False), ("nn", False), ("recurrent", False), ("nn", True)])
def test_module_matches_pytorch(name, decompose):
    torch.manual_seed(0)
    net = MODULES[name]().eval()
    args = _inputs_for(name)
    with torch.no_grad():
        want = net(*args)
    want = [w.numpy() for w in (want if isinstance(want, tuple) else (want,))]
    mod = from_torch(net, args, decompose=decompose)
    exe = relay.compile(mod, target="llvm-cpu")
    got = exe(*[a.numpy() for a in args])
    assert_close(got, want, RTOL, ATOL, f"from_torch {name}{' (core ATen)' if decompose else ''}")
    if name == "recurrent":   # a token id past the embedding's 11 rows: PyTorch's IndexError
        bad = [a.numpy().copy() for a in args]
        bad[0][1, 2] = 11
        with pytest.raises(IndexError):
            net(*[torch.from_numpy(b) for b in bad])
        with pytest.raises(relay.RelayRuntimeError, match="index is out of range"):
            exe(*bad)


# -- errors and metadata (no compile) -------------------------------------------------------
class GridSample(nn.Module):
    def forward(self, x, grid):
        y = torch.relu(x)
        return F.grid_sample(y, grid, align_corners=False)


def test_unsupported_op_names_op_node_and_source_line():
    x, grid = torch.randn(1, 2, 4, 4), torch.rand(1, 3, 3, 2) * 2 - 1
    with pytest.raises(UnsupportedError) as info:
        from_torch(GridSample(), (x, grid))
    msg = str(info.value)
    assert "aten.grid_sampler" in msg and "no converter" in msg
    assert info.value.op_type.startswith("aten.grid_sampler")
    assert info.value.node_name in msg
    line = inspect.getsourcelines(GridSample.forward)[1] + 2  # the grid_sample line
    assert f"test_from_torch.py:{line}" in msg


def test_locations_point_at_forward_source():
    class Tiny(nn.Module):
        def forward(self, x):
            return torch.tanh(x) * 2.0

    mod = from_torch(Tiny(), (torch.randn(3),))
    body = mod["main"].body
    line = inspect.getsourcelines(Tiny.forward)[1] + 1
    assert body.span.filename.endswith("test_from_torch.py") and body.span.line == line
    assert [p.name_hint for p in mod["main"].params] == ["x"]


def test_weights_are_constants_and_training_flag_restored():
    net = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3), nn.Dropout(0.5))
    net.train()
    mod = from_torch(net, (torch.randn(2, 4),))
    assert net.training  # restored
    assert [p.name_hint for p in mod["main"].params] == ["input"]
    relay.transform.InferType()(mod)
    assert mod["main"].body.checked_type == relay.TensorType((2, 3))


def test_dynamic_shapes_are_rejected():
    net = nn.Linear(4, 3)
    batch = torch.export.Dim("batch", min=2, max=64)
    ep = torch.export.export(net, (torch.randn(2, 4),), dynamic_shapes=({0: batch},))
    with pytest.raises(UnsupportedError, match="dynamic"):
        from_torch(ep, ())


def test_supported_ops_lists_core_converters():
    ops = set(supported_ops())
    for name in ("conv2d", "convolution", "linear", "addmm", "bmm", "matmul", "batch_norm",
                 "layer_norm", "max_pool2d", "adaptive_avg_pool2d", "softmax", "embedding",
                 "lstm.input", "view", "permute", "cat", "split", "slice", "select", "mean"):
        assert name in ops, name
