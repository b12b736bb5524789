"""ATen operators through the TorchScript importer, one small traced module each, run by
the reference interpreter and compared with PyTorch (relative error <= 1e-4 of the
output's scale; integer outputs exactly). Covers the converters of
frontend/torchscript (_activations, _tensor) and frontend.torch's that TorchScript
graphs reach with their own spelling (aten::_convolution, in-place ops, aten::size)."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

import relay_mlir as relay  # noqa: E402
from relay_mlir.frontend.torchscript import from_torchscript  # noqa: E402

CASES = {
    "hardswish": lambda x: F.hardswish(x),
    "hardsigmoid": lambda x: F.hardsigmoid(x),
    "elu": lambda x: F.elu(x, alpha=0.7),
    "prelu_one": lambda x: F.prelu(x, torch.full((1,), 0.25)),
    "prelu_channels": lambda x: F.prelu(x, torch.tensor([0.1, 0.2, 0.3])),
    "softplus": lambda x: F.softplus(x * 10.0, beta=2.0, threshold=5.0),
    "mish": lambda x: F.mish(x),
    "silu": lambda x: F.silu(x),
    "clamp_min": lambda x: x.clamp(min=0.1),
    "clamp_max": lambda x: torch.clamp_max(x, 0.2),
    "relu_inplace": lambda x: torch.relu_(x * 1.0) + 1.0,
    "upsample_nearest": lambda x: F.interpolate(x, scale_factor=2, mode="nearest"),
    "upsample_bilinear": lambda x: F.interpolate(x, size=(6, 10), mode="bilinear", align_corners=False),
    "upsample_bilinear_corners": lambda x: F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True),
    "pixel_shuffle": lambda x: F.pixel_shuffle(torch.cat([x, x[:, :1]], 1), 2),
    "index_tensor": lambda x: x[:, torch.tensor([0, 2])],
    "topk": lambda x: x.topk(2, dim=1),
    "new_zeros": lambda x: x + x.new_zeros(x.shape) + x.new_ones(x.shape),
    "vector_norm": lambda x: F.normalize(x, dim=1),
    "norm_inf": lambda x: torch.linalg.vector_norm(x, float("inf"), dim=(2, 3)),
    "instance_norm": lambda x: F.instance_norm(x),
    "group_norm": lambda x: F.group_norm(x, 3),
    "einsum": lambda x: torch.einsum("bchw,bchw->bc", x, x),
    "log_softmax": lambda x: F.log_softmax(x, 1),
    "avg_pool2d": lambda x: F.avg_pool2d(x, 2),
    "max_pool2d_ceil": lambda x: F.max_pool2d(x, 2, ceil_mode=True),
    "adaptive_max_pool2d": lambda x: F.adaptive_max_pool2d(x, 1),
    "pad": lambda x: F.pad(x, (1, 2, 0, 1)),
    "slices": lambda x: x[:, 1:3, ::2, -2:],
    "size_view": lambda x: x.view(x.size(0), -1).unsqueeze(0).squeeze(0),
    "matmul_transpose": lambda x: x.flatten(2) @ x.flatten(2).transpose(1, 2),
    "masked_fill_where": lambda x: torch.where(x > 0, x, x * 0.1).masked_fill(x > 1, 0.0),
    "split_cat": lambda x: torch.cat(x.split(1, dim=1)[::-1], 1),
    "max_argmax": lambda x: (x.max(dim=1)[0], x.argmax(1)),
    "cumsum_std": lambda x: x.cumsum(2).std(1),
    "arange": lambda x: x + torch.arange(5).float(),
}


class _Fn(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


@pytest.mark.parametrize("name", sorted(CASES))
def test_op_matches_torch(name):
    x = torch.randn(2, 3, 4, 5, generator=torch.Generator().manual_seed(7))
    sm = torch.jit.trace(_Fn(CASES[name]), x, check_trace=False)
    mod, params = from_torchscript(sm, [("x", (2, 3, 4, 5))])
    assert params == {}
    got = relay.create_executor("debug", mod=mod).evaluate()(x.numpy())
    want = CASES[name](x)
    got = list(got) if isinstance(got, (list, tuple)) else [got]
    want = list(want) if isinstance(want, tuple) else [want]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        g, w = (g.numpy() if hasattr(g, "numpy") else np.asarray(g)), w.numpy()
        assert g.shape == w.shape and g.dtype == w.dtype
        if w.dtype.kind in "iub":
            np.testing.assert_array_equal(g, w)
        else:
            err = float(np.abs(g - w).max()) / max(float(np.abs(w).max()), 1e-6)
            assert err <= 1e-4, f"max |got - torch| / max |torch| = {err:.3g}"


def _layers():
    """(module, example inputs) per torch.nn layer, built fresh with a fixed seed."""
    nn = torch.nn
    torch.manual_seed(0)
    one = {
        "conv1d": (nn.Conv1d(3, 4, 3, padding=1), (2, 3, 8)),
        "conv_transpose2d": (nn.ConvTranspose2d(3, 4, 3, stride=2, padding=1, output_padding=1), (1, 3, 5, 5)),
        "batch_norm1d": (nn.BatchNorm1d(3), (4, 3)), "layer_norm_2d": (nn.LayerNorm([4, 5]), (2, 3, 4, 5)),
        "group_norm": (nn.GroupNorm(2, 4), (2, 4, 3, 3)), "instance_norm2d": (nn.InstanceNorm2d(3, affine=True), (2, 3, 4, 4)),
        "max_pool1d": (nn.MaxPool1d(2), (2, 3, 8)), "avg_pool2d": (nn.AvgPool2d(3, 2, 1, count_include_pad=False), (1, 2, 7, 7)),
        "adaptive_avg_pool1d": (nn.AdaptiveAvgPool1d(1), (2, 3, 8)), "adaptive_avg_pool2d": (nn.AdaptiveAvgPool2d(2), (1, 2, 6, 6)),
        "upsample": (nn.Upsample(scale_factor=2), (1, 2, 3, 3)), "pixel_shuffle": (nn.PixelShuffle(2), (1, 8, 3, 3)),
        "unflatten": (nn.Unflatten(1, (2, 3)), (4, 6)), "flatten": (nn.Flatten(), (2, 3, 4)),
        "softmax": (nn.Softmax(dim=1), (2, 5)), "log_softmax": (nn.LogSoftmax(dim=-1), (2, 5)),
        "gelu_tanh": (nn.GELU("tanh"), (2, 5)), "prelu": (nn.PReLU(3), (2, 3, 4)), "softplus": (nn.Softplus(), (2, 5)),
        "rnn": (nn.RNN(4, 5, batch_first=True), (2, 3, 4)),
        "rnn_relu_bidir": (nn.RNN(4, 5, num_layers=2, nonlinearity="relu", bidirectional=True), (3, 2, 4)),
    }
    two = {
        "decoder_layer": (nn.TransformerDecoderLayer(8, 2, 16, batch_first=True, dropout=0.0), (2, 3, 8), (2, 4, 8)),
        "bilinear": (nn.Bilinear(3, 4, 2), (5, 3), (5, 4)),
        "cosine_similarity": (nn.CosineSimilarity(), (2, 3), (2, 3)),
        "pairwise_distance": (nn.PairwiseDistance(p=3.0), (2, 3), (2, 3)),
    }
    out = {k: (m.eval(), (torch.randn(*s),)) for k, (m, s) in one.items()}
    out.update({k: (_Two(m).eval(), (torch.randn(*a), torch.randn(*b))) for k, (m, a, b) in two.items()})
    return out


class _Two(torch.nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, a, b):
        return self.m(a, b)


# every layer traced and scripted, but nn.RNN, which PyTorch itself cannot script
LAYER_RUNS = [(name, how) for name in sorted(_layers()) for how in ("trace", "script")
              if not (name.startswith("rnn") and how == "script")]


@pytest.mark.parametrize("name,how", LAYER_RUNS)
def test_nn_layer_matches_torch(name, how):
    """torch.nn layers traced and scripted vs PyTorch (1e-4 relative)."""
    m, ins = _layers()[name]
    sm = torch.jit.trace(m, ins, check_trace=False) if how == "trace" else torch.jit.script(m)
    mod, params = from_torchscript(sm, [(f"i{j}", tuple(t.shape)) for j, t in enumerate(ins)])
    names = [p.name_hint for p in mod["main"].params][len(ins):]
    got = relay.create_executor("debug", mod=mod).evaluate()(*[t.numpy() for t in ins], *[params[n] for n in names])
    with torch.no_grad():
        want = m(*ins)
    got = list(got) if isinstance(got, (list, tuple)) else [got]
    want = list(want) if isinstance(want, tuple) else [want]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        g, w = (g.numpy() if hasattr(g, "numpy") else np.asarray(g)), w.numpy()
        assert g.shape == w.shape
        err = float(np.abs(g - w).max()) / max(float(np.abs(w).max()), 1e-6)
        assert err <= 1e-4, f"max |got - torch| / max |torch| = {err:.3g}"
