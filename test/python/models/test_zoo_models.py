"""The model zoo end to end, through all three ways into relay-mlir.

For each zoo model (``zoo_cases.py``: ResNet-18, ResNet-50, MobileNetV2,
VGG-16, DQN, BERT-tiny, LSTM LM at CI-small sizes) the ``torch.nn`` twin
gets the zoo model's seeded weights, and

* the builder model (``get_workload``) compiled for llvm-cpu must match
  onnxruntime running the twin's ONNX export;
* ``from_torch(twin)`` compiled must match PyTorch eager;
* ``from_onnx(export)`` compiled must match onnxruntime;
* onnxruntime must match PyTorch (a check of the reference itself).

Tolerance (every model): ``rtol=1e-4`` and ``atol=1e-4 * max|reference|``.
Measured errors (max|err| / max|ref|, llvm-cpu) are ~1e-7 .. 1e-6; see the
``-s`` output. Each model is compiled once per path per test module.
"""
from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install 'relay-mlir[torch]')")

import relay_mlir as relay  # noqa: E402
from zoo_cases import Case, assert_close, cases  # noqa: E402

CASES = cases()
NAMES = list(CASES)


class _Model:
    """One zoo model: the twin with the zoo weights, inputs, and lazily built references."""

    def __init__(self, case: Case) -> None:
        from relay_mlir.models import torch_models
        self.case = case
        self.mod, self.params = case.workload()
        self.twin = case.twin()
        torch_models.load_params(self.twin, self.params)
        self.inputs = case.inputs(np.random.default_rng(7))
        self.targs = tuple(torch.from_numpy(a) for a in self.inputs)
        self._cache: dict = {}

    def cached(self, key, fn):
        if key not in self._cache:
            self._cache[key] = fn()
        return self._cache[key]

    def torch_out(self):
        def run():
            with torch.no_grad():
                out = self.twin(*self.targs)
            outs = out if isinstance(out, tuple) else (out,)
            return [o.numpy() for o in outs]
        return self.cached("torch", run)

    def onnx_model(self):
        from relay_mlir.models import torch_models
        return self.cached("onnx", lambda: torch_models.export_onnx(
            self.twin, self.targs, self.case.input_names, self.case.output_names))

    def ort_out(self):
        ort = pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")

        def run():
            sess = ort.InferenceSession(self.onnx_model().SerializeToString(),
                                        providers=["CPUExecutionProvider"])
            names = [i.name for i in sess.get_inputs()]
            return sess.run(None, dict(zip(names, self.inputs)))
        return self.cached("ort", run)


@pytest.fixture(scope="module")
def models():
    return {}


@pytest.fixture(params=NAMES)
def model(request, models) -> _Model:
    name = request.param
    if name not in models:
        models[name] = _Model(CASES[name])
    return models[name]


def _check(model: _Model, got, want, what: str) -> None:
    c = model.case
    assert_close(got, want, c.rtol, c.atol, f"{c.name} {what}")


def test_builder_matches_onnxruntime(model):
    want = model.ort_out()
    exe = relay.compile(model.mod, target="llvm-cpu", params=model.params)
    _check(model, exe(*model.inputs), want, "builder vs onnxruntime")


def test_from_torch_matches_pytorch(model):
    from relay_mlir.frontend import from_torch
    mod = from_torch(model.twin, model.targs)
    exe = relay.compile(mod, target="llvm-cpu")
    _check(model, exe(*model.inputs), model.torch_out(), "from_torch vs PyTorch")


def test_from_onnx_matches_onnxruntime(model):
    from relay_mlir.frontend import from_onnx, supported_ops
    want = model.ort_out()
    used = {n.op_type for n in model.onnx_model().graph.node}
    missing = sorted(used - set(supported_ops()))
    assert not missing, f"the ONNX importer has no converter for {', '.join(missing)}"
    mod = from_onnx(model.onnx_model())
    exe = relay.compile(mod, target="llvm-cpu")
    _check(model, exe(*model.inputs), want, "from_onnx vs onnxruntime")


def test_onnxruntime_matches_pytorch(model):
    """The reference itself: the twin's ONNX export run by onnxruntime equals PyTorch."""
    _check(model, model.ort_out(), model.torch_out(), "onnxruntime vs PyTorch")


def test_builder_and_twin_share_weights(model):
    """Every weight of the builder model is a twin weight of the same shape, and vice versa."""
    main = model.mod["main"]
    n_in = len(model.case.input_names)
    names = [p.name_hint for p in main.params]
    assert names[:n_in] == list(model.case.input_names)
    state = {k: tuple(v.shape) for k, v in model.twin.state_dict().items()
             if not k.endswith("num_batches_tracked")}
    weights = {p.name_hint: tuple(p.type_annotation.shape) for p in main.params[n_in:]}
    assert weights == state
