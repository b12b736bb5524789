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
