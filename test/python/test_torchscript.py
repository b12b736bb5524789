"""The TorchScript importer (``relay_mlir.frontend.torchscript``, TVM's ``from_pytorch``)
against PyTorch itself: traced and scripted CNN/MLP/transformer/LSTM modules give
PyTorch's outputs (relative error <= 1e-4 of the output's scale), compiled with IREE
(traced) or run by the reference interpreter (scripted, to keep IREE compiles few)."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

import relay_mlir as relay  # noqa: E402
from test_torchscript_models import MODELS, _input, _script  # noqa: E402
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


@pytest.mark.parametrize("name", sorted(MODELS))
def test_scripted_matches_torch(name):
    """torch.jit.script modules (if on shapes/self.training, scripted transformer code)
    through the reference interpreter."""
    m, x, sm = _script(name, "script")
    mod, params = from_torchscript(sm, [("input0", (tuple(x.shape), str(x.dtype).replace("torch.", "")))])
    run = relay.create_executor("debug", mod=mod).evaluate()
    got = _outputs(run(*_args(mod, params, x)))
    with torch.no_grad():
        want = m(x)
    want = list(want) if isinstance(want, tuple) else [want]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        _close(g, w)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_traced_compiled_matches_torch(name):
    """torch.jit.trace modules imported with their weights as parameters, compiled with IREE
    (llvm-cpu, one compile per model) and run with the imported params."""
    m, x, sm = _script(name, "trace")
    mod, params = from_torchscript(sm, [("input0", (tuple(x.shape), str(x.dtype).replace("torch.", "")))])
    got = _outputs(relay.compile(mod, target="llvm-cpu")(*_args(mod, params, x)))
    with torch.no_grad():
        want = m(x)
    want = list(want) if isinstance(want, tuple) else [want]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        _close(g, w)


class _TwoMissing(torch.nn.Module):
    def forward(self, x):
        return torch.cumprod(torch.special.erfinv(torch.tanh(x)), 1) + torch.cumprod(x, 0)


class _DataBranch(torch.nn.Module):
    def forward(self, x):
        if bool(x.sum() > 0):
            return x * 2.0
        return x - 1.0


def test_missing_operators_are_listed_together():
    """As TVM: one error listing every ATen operator without a converter (sorted)."""
    sm = torch.jit.trace(_TwoMissing(), torch.zeros(2, 3))
    with pytest.raises(UnsupportedError, match=r"not implemented: \['aten::cumprod', 'aten::erfinv'\]"):
        from_torchscript(sm, [("x", (2, 3))])


def test_branch_on_run_time_value_is_refused():
    sm = torch.jit.script(_DataBranch())
    with pytest.raises(UnsupportedError, match=r"aten::Bool.*known only at run time"):
        from_torchscript(sm, [("x", (2, 3))])


def test_bad_input_infos_name_what_was_expected():
    sm = torch.jit.trace(torch.nn.Linear(3, 2).eval(), torch.zeros(1, 3))
    with pytest.raises(ValueError, match=r"takes 1 input\(s\) \(.*\), input_infos gives 2"):
        from_torchscript(sm, [("a", (1, 3)), ("b", (1, 3))])
    with pytest.raises(ValueError, match=r"input 'a' has shape .*expected a sequence of ints"):
        from_torchscript(sm, [("a", (1, relay.Any()))])
    with pytest.raises(ValueError, match=r"\(name, shape\) or \(name, \(shape, dtype\)\)"):
        from_torchscript(sm, [(1, 3)])
    with pytest.raises(TypeError, match="torch.jit.trace or torch.jit.script"):
        from_torchscript(torch.nn.Linear(3, 2), [("a", (1, 3))])
    with pytest.raises(UnsupportedError, match=r"aten::linear.*PyTorch raised"):
        from_torchscript(sm, [("a", (1, 4))])  # 4 features into Linear(3, 2)
