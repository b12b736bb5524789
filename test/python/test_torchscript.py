"""The TorchScript importer (``relay_mlir.frontend.torchscript``, TVM's ``from_pytorch``)
against PyTorch itself: traced and scripted CNN/MLP/transformer/LSTM modules give
PyTorch's outputs (relative error <= 1e-4 of the output's scale), compiled with IREE
(traced) or run by the reference interpreter (scripted, to keep IREE compiles few)."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

import relay_mlir as relay  # noqa: E402
from test_torchscript_models import MODELS, _script  # noqa: E402
from relay_mlir.frontend.common import UnsupportedError  # noqa: E402
from relay_mlir.frontend.torchscript import from_torchscript  # noqa: E402

RTOL = 1e-4


def _close(got, want):
    want = want.detach().numpy()
    assert got.shape == want.shape and got.dtype == want.dtype
    scale = max(float(np.abs(want).max()), 1e-6)
    err = float(np.abs(got - want).max()) / scale
    assert err <= RTOL, f"max |got - torch| / max |torch| = {err:.3g} > {RTOL}"


def _args(mod, params, x):
    names = [p.name_hint for p in mod["main"].params]
    return [x.numpy()] + [params[n] for n in names[1:]]


def _outputs(out):
    if isinstance(out, (list, tuple)):
        return [o.numpy() if hasattr(o, "numpy") else np.asarray(o) for o in out]
    return [out.numpy() if hasattr(out, "numpy") else np.asarray(out)]


def _import_and_run(name, how, run):
    """Imports model ``name`` (traced or scripted) and checks ``run(mod)(*args)`` against torch."""
    m, x, sm = _script(name, how)
    mod, params = from_torchscript(sm, [("input0", (tuple(x.shape), str(x.dtype).replace("torch.", "")))])
    got = _outputs(run(mod)(*_args(mod, params, x)))
    with torch.no_grad():
        want = m(x)
    want = list(want) if isinstance(want, tuple) else [want]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        _close(g, w)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_scripted_matches_torch(name):
    """torch.jit.script modules (if on shapes/self.training, scripted transformer code)
    through the reference interpreter."""
    _import_and_run(name, "script", lambda mod: relay.create_executor("debug", mod=mod).evaluate())


@pytest.mark.parametrize("name", sorted(MODELS))
def test_traced_compiled_matches_torch(name):
    """torch.jit.trace modules imported with their weights as parameters, compiled with IREE
    (llvm-cpu, one compile per model) and run with the imported params."""
    _import_and_run(name, "trace", lambda mod: relay.compile(mod, target="llvm-cpu"))


class _TwoMissing(torch.nn.Module):
    def forward(self, x):
        return torch.cumprod(torch.special.erfinv(torch.tanh(x)), 1) + torch.cumprod(x, 0)


class _DataBranch(torch.nn.Module):
    def forward(self, x):
        if bool(x.sum() > 0):
            return x * 2.0
        return x - 1.0


class _DataShape(torch.nn.Module):
    def forward(self, x):
        return x[: int(x.sum())]


def test_missing_operators_are_listed_together():
    """As TVM: one error listing every ATen operator without a converter (sorted)."""
    sm = torch.jit.trace(_TwoMissing(), torch.zeros(2, 3))
    with pytest.raises(UnsupportedError, match=r"not implemented: \['aten::cumprod', 'aten::erfinv'\]"):
        from_torchscript(sm, [("x", (2, 3))])


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_branch_on_run_time_value_is_a_relay_if(sign):
    """A scripted ``if bool(x.sum() > 0)`` becomes a Relay If on the run-time condition
    (TVM 0.19 does the same): both inputs' signs take their branch."""
    sm = torch.jit.script(_DataBranch())
    mod, _ = from_torchscript(sm, [("x", (2, 3))])
    assert "if (" in mod.astext()
    x = (np.abs(np.random.default_rng(0).standard_normal((2, 3))) * sign).astype("float32")
    got = relay.create_executor("debug", mod=mod).evaluate()(x)
    want = _DataBranch()(torch.from_numpy(x)).numpy()
    np.testing.assert_allclose(got.numpy() if hasattr(got, "numpy") else got, want, rtol=1e-6)


def test_run_time_number_is_refused():
    sm = torch.jit.script(_DataShape())
    with pytest.raises(UnsupportedError, match=r"aten::Int.*known only at run time"):
        from_torchscript(sm, [("x", (2, 3))])


def test_bad_input_infos_name_what_was_expected():
    sm = torch.jit.trace(torch.nn.Linear(3, 2).eval(), torch.zeros(1, 3))
    with pytest.raises(ValueError, match=r"takes 1 input\(s\) \(.*\), input_infos gives 2"):
        from_torchscript(sm, [("a", (1, 3)), ("b", (1, 3))])
    with pytest.raises(ValueError, match=r"input 'a' has shape .*expected a sequence of ints"):
        from_torchscript(sm, [("a", (1, "n"))])  # relay.Any() dims: test_tvm_frontend_dynamic
    with pytest.raises(ValueError, match=r"\(name, shape\) or \(name, \(shape, dtype\)\)"):
        from_torchscript(sm, [(1, 3)])
    with pytest.raises(TypeError, match="torch.jit.trace or torch.jit.script"):
        from_torchscript(torch.nn.Linear(3, 2), [("a", (1, 3))])
    with pytest.raises(UnsupportedError, match=r"aten::linear.*PyTorch raised"):
        from_torchscript(sm, [("a", (1, 4))])  # 4 features into Linear(3, 2)


class _SelfAttention(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.mha = torch.nn.MultiheadAttention(16, 4, batch_first=True)

    def forward(self, q):
        return self.mha(q, q, q)


@pytest.mark.parametrize("how", ["trace", "script"])
@pytest.mark.parametrize("norm_first,activation", [(False, "relu"), (True, "gelu")])
def test_fused_encoder_layer_matches_torch(how, norm_first, activation):
    """Under torch.no_grad() an eval TransformerEncoderLayer takes PyTorch's fast path: one
    aten::_transformer_encoder_layer_fwd node (traced, and at run time in scripted code)."""
    torch.manual_seed(0)
    m = torch.nn.TransformerEncoderLayer(16, 2, 32, batch_first=True, norm_first=norm_first,
                                         activation=activation).eval()
    x = torch.randn(2, 5, 16)
    with torch.no_grad():
        sm = torch.jit.trace(m, x, check_trace=False) if how == "trace" else torch.jit.script(m)
        if how == "trace":
            assert "aten::_transformer_encoder_layer_fwd" in str(sm.inlined_graph)
        mod, params = from_torchscript(sm, [("src", (2, 5, 16))])
        want = m(x)
    got = relay.create_executor("debug", mod=mod).evaluate()(*_args(mod, params, x))
    _close(_outputs(got)[0], want)


def test_fused_multi_head_attention_matches_torch():
    """Self-attention through aten::_native_multi_head_attention: the output and the
    head-averaged attention weights."""
    torch.manual_seed(0)
    m = _SelfAttention().eval()
    q = torch.randn(2, 3, 16)
    with torch.no_grad():
        sm = torch.jit.trace(m, q, check_trace=False)
        assert "aten::_native_multi_head_attention" in str(sm.inlined_graph)
        mod, params = from_torchscript(sm, [("q", (2, 3, 16))])
        want = m(q)
    got = _outputs(relay.create_executor("debug", mod=mod).evaluate()(*_args(mod, params, q)))
    assert len(got) == 2
    for g, w in zip(got, want):
        _close(g, w)


def test_weights_tvm_would_merge_stay_apart():
    """TVM 0.19 names a weight after its first user and attribute: the fused encoder layer
    reads linear1.weight, linear2.weight, norm1.weight, ... all as
    'aten::_transformer_encoder_layer_fwd_0.weight', one parameter (wrong results). Here
    the first TVM visits (linear2's) keeps that name and the others their attribute path."""
    torch.manual_seed(0)
    m = torch.nn.TransformerEncoderLayer(16, 2, 32, batch_first=True).eval()
    with torch.no_grad():
        sm = torch.jit.trace(m, torch.zeros(1, 4, 16), check_trace=False)
    _, params = from_torchscript(sm, [("src", (1, 4, 16))])
    src = "aten::_transformer_encoder_layer_fwd_0"
    want = {f"{src}.weight": "linear2.weight", f"{src}.bias": "linear2.bias",
            f"{src}.in_proj_weight": "self_attn.in_proj_weight", f"{src}.in_proj_bias": "self_attn.in_proj_bias"}
    for key in ("linear1", "norm1", "norm2", "self_attn.out_proj"):
        for attr in ("weight", "bias"):
            want[f"{src}.{key}.{attr}"] = f"{key}.{attr}"
    assert sorted(params) == sorted(want)
    state = m.state_dict()
    for name, key in want.items():
        np.testing.assert_array_equal(params[name], state[key].numpy())


class _ErfInv(torch.nn.Module):
    def forward(self, x):
        return torch.special.erfinv(torch.tanh(x)) * 2.0


def test_custom_convert_map_is_called_as_tvm_calls_it():
    """custom_convert_map[op](inputs, input_types) -> Relay expr replaces the op (here
    aten::erfinv, which has no converter, by sqrt(|x|)); the result is numpy's."""
    seen = []

    def sqrt_abs(inputs, input_types):
        seen.append(list(input_types))
        return relay.sqrt(relay.abs(inputs[0]))

    sm = torch.jit.trace(_ErfInv(), torch.zeros(2, 3))
    mod, _ = from_torchscript(sm, [("x", (2, 3))], custom_convert_map={"aten::erfinv": sqrt_abs})
    assert seen == [["float32"]]
    x = np.random.default_rng(0).standard_normal((2, 3)).astype("float32")
    got = relay.create_executor("debug", mod=mod).evaluate()(x)
    np.testing.assert_allclose(got.numpy() if hasattr(got, "numpy") else got,
                               np.sqrt(np.abs(np.tanh(x))) * 2.0, rtol=1e-5)


def test_input_dtypes_follow_tvm():
    """The traced graph's dtype wins (as TVM); a scripted graph takes the given dtype,
    in TVM's or PyTorch's spelling; an unknown name is refused naming the known ones."""
    sm = torch.jit.script(torch.nn.Embedding(5, 2))
    mod, _ = from_torchscript(sm, [("i", ((3,), "long"))])
    assert mod["main"].params[0].type_annotation.dtype == "int64"
    traced = torch.jit.trace(torch.nn.Embedding(5, 2), torch.zeros(3, dtype=torch.int64))
    mod, _ = from_torchscript(traced, [("i", ((3,), "int32"))])
    assert mod["main"].params[0].type_annotation.dtype == "int64"
    with pytest.raises(ValueError, match=r"dtype 'int65'; expected one of \[.*'int64'"):
        from_torchscript(sm, [("i", ((3,), "int65"))])


def _scripted_fn(a, b):
    return torch.relu(a @ b.t()) + b.sum()


def test_script_function():
    """A torch.jit.script function (no module, no weights): main takes its two inputs."""
    fn = torch.jit.script(_scripted_fn)
    mod, params = from_torchscript(fn, [("a", (2, 3)), ("b", (4, 3))])
    assert params == {} and [p.name_hint for p in mod["main"].params] == ["a", "b"]
    a, b = torch.randn(2, 3), torch.randn(4, 3)
    got = relay.create_executor("debug", mod=mod).evaluate()(a.numpy(), b.numpy())
    _close(got.numpy() if hasattr(got, "numpy") else got, _scripted_fn(a, b))


class _Loops(torch.nn.Module):
    """Scripted control flow the importer unrolls: a ModuleList loop with list appends, a
    range over a size, a while loop; and element writes (acc[i] = ...)."""

    def __init__(self):
        super().__init__()
        self.layers = torch.nn.ModuleList([torch.nn.Linear(4, 4) for _ in range(3)])

    def forward(self, x):
        outs = []
        for layer in self.layers:
            x = torch.relu(layer(x))
            outs.append(x)
        acc = torch.zeros_like(x)
        for i in range(x.size(0)):
            acc[i] = x[i] * 2.0
        k = 0
        while k < 2:
            acc = acc + 1.0
            k += 1
        return torch.cat(outs, 1), acc


class _ViewWrites(torch.nn.Module):
    def forward(self, x):
        y = x.clone()
        y[:, 1:3] = 0.0                      # fill_ of a slice
        y.transpose(0, 1)[0].mul_(3.0)        # in place through a view of a view
        z = x * 1.0
        z[0, ::2] += 10.0                     # add_ into a strided slice
        return y, z


def test_scripted_loops_and_element_writes():
    torch.manual_seed(0)
    m = _Loops().eval()
    sm = torch.jit.script(m)
    mod, params = from_torchscript(sm, [("x", (2, 4))])
    x = torch.randn(2, 4)
    got = _outputs(relay.create_executor("debug", mod=mod).evaluate()(*_args(mod, params, x)))
    with torch.no_grad():
        want = m(x)
    for g, w in zip(got, want):
        _close(g, w)


@pytest.mark.parametrize("how", ["trace", "script"])
def test_writes_through_views(how):
    """In-place ops on views change the tensor viewed (TorchScript's aliasing)."""
    m, x = _ViewWrites(), torch.randn(3, 5)
    sm = torch.jit.trace(m, x) if how == "trace" else torch.jit.script(m)
    mod, _ = from_torchscript(sm, [("x", (3, 5))])
    got = _outputs(relay.create_executor("debug", mod=mod).evaluate()(x.numpy()))
    for g, w in zip(got, m(x)):
        _close(g, w)


class _SplitWrite(torch.nn.Module):
    def forward(self, x):
        a, b = x.split(2, dim=1)
        a.mul_(2.0)
        return x


def test_write_into_split_piece_is_refused():
    sm = torch.jit.script(_SplitWrite())
    with pytest.raises(UnsupportedError, match=r"aten::mul_.*view made by aten::split"):
        from_torchscript(sm, [("x", (2, 4))])


class _GRU(torch.nn.Module):
    def __init__(self, **kw):
        super().__init__()
        self.gru = torch.nn.GRU(5, 6, **kw)

    def forward(self, x):
        return self.gru(x)


@pytest.mark.parametrize("kw", [{}, {"num_layers": 2, "bidirectional": True, "batch_first": True},
                                {"bias": False}], ids=["plain", "2layer_bidir_batchfirst", "nobias"])
def test_gru_matches_torch(kw):
    """aten::gru unrolled (output sequence and final states)."""
    torch.manual_seed(0)
    m, x = _GRU(**kw).eval(), torch.randn(3, 4, 5)
    mod, params = from_torchscript(torch.jit.trace(m, x), [("x", (3, 4, 5))])
    got = _outputs(relay.create_executor("debug", mod=mod).evaluate()(*_args(mod, params, x)))
    with torch.no_grad():
        want = m(x)
    assert len(got) == 2
    for g, w in zip(got, want):
        _close(g, w)


def test_scripted_lstm_weights_are_parameters():
    """A scripted nn.LSTM reads its weights through the list attribute _flat_weights: they
    are parameters of main too, named by their state-dict keys."""
    m, x, sm = _script("lstm", "script")
    mod, params = from_torchscript(sm, [("input0", tuple(x.shape))])
    lstm_keys = [k for k in m.state_dict() if k.startswith("lstm.")]
    assert sorted(k for k in params if k.startswith("lstm.")) == sorted(lstm_keys)
    for k in lstm_keys:
        np.testing.assert_array_equal(params[k], m.state_dict()[k].numpy())
    assert "lstm.weight_ih_l0" in [p.name_hint for p in mod["main"].params]


class _MaskedMHA(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.mha = torch.nn.MultiheadAttention(16, 4, batch_first=True)

    def forward(self, q, key_padding_mask, attn_mask):
        return self.mha(q, q, q, key_padding_mask=key_padding_mask, attn_mask=attn_mask)


@pytest.mark.parametrize("masks", ["key_padding", "attn", "both"])
def test_fused_attention_masks(masks):
    """Masks through aten::_native_multi_head_attention (mask_type 1, 0, 2): True entries
    are left out of the softmax."""
    torch.manual_seed(0)
    m = _MaskedMHA().eval()
    q = torch.randn(2, 5, 16)
    kpm = torch.tensor([[False] * 5, [False] * 3 + [True] * 2]) if masks != "attn" else None
    am = torch.triu(torch.ones(5, 5, dtype=torch.bool), 1) if masks != "key_padding" else None

    class Bound(torch.nn.Module):  # the masks as constants, q the input
        def __init__(self):
            super().__init__()
            self.m = m

        def forward(self, q):
            return self.m(q, kpm, am)

    with torch.no_grad():
        b = Bound().eval()
        sm = torch.jit.trace(b, q, check_trace=False)
        assert "aten::_native_multi_head_attention" in str(sm.inlined_graph)
        mod, params = from_torchscript(sm, [("q", (2, 5, 16))])
        want = b(q)
    got = _outputs(relay.create_executor("debug", mod=mod).evaluate()(*_args(mod, params, q)))
    for g, w in zip(got, want):
        _close(g, w)


class _Aliases(torch.nn.Module):
    def forward(self, x):
        acc = torch.zeros(3, 4)               # known at import time, written with run-time rows
        for i in range(3):
            acc[i] = x[i] * float(i + 1)
        row = acc[1]                          # a view read after its base is written again
        acc.add_(1.0)
        first = x[0]
        x.mul_(2.0)                           # an input written in place: its views follow
        return acc, row + 0.0, first + 0.0


@pytest.mark.parametrize("how", ["trace", "script"])
def test_aliases_follow_writes(how):
    m = _Aliases()
    x = torch.randn(3, 4)
    sm = torch.jit.trace(m, x.clone()) if how == "trace" else torch.jit.script(m)
    mod, _ = from_torchscript(sm, [("x", (3, 4))])
    got = _outputs(relay.create_executor("debug", mod=mod).evaluate()(x.numpy()))
    want = m(x.clone())
    assert len(got) == 3
    for g, w in zip(got, want):
        _close(g, w)


class _Forever(torch.nn.Module):
    def forward(self, x):
        k = 0
        while k >= 0:
            x = x + 1.0
            k += 1
        return x


def test_endless_loop_is_refused():
    sm = torch.jit.script(_Forever())
    with pytest.raises(UnsupportedError, match=r"prim::Loop.*more than 10000 iterations"):
        from_torchscript(sm, [("x", (2,))])


class _Functional(torch.nn.Module):
    """torch.nn.functional code that scripting keeps as TorchScript (list slicing and shape
    arithmetic in interpolate, layer_norm's x.shape[-1:], pad's lists)."""

    def forward(self, x):
        f = torch.nn.functional
        a = f.interpolate(x, scale_factor=2.0, mode="nearest")
        b = f.interpolate(x, size=(5, 7), mode="bilinear", align_corners=False)
        c = f.hardswish(f.layer_norm(x, x.shape[-1:]))
        return a, b, c, f.pad(x, [1, 1]), torch.flatten(x, 1).softmax(-1), x.view(-1, x.size(-1)).t()


@pytest.mark.parametrize("how", ["trace", "script"])
def test_functional_code_matches_torch(how):
    m, x = _Functional(), torch.randn(2, 3, 4, 6)
    sm = torch.jit.trace(m, x) if how == "trace" else torch.jit.script(m)
    mod, _ = from_torchscript(sm, [("x", (2, 3, 4, 6))])
    got = _outputs(relay.create_executor("debug", mod=mod).evaluate()(x.numpy()))
    want = m(x)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        _close(g, w)
