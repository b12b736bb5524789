"""One compiled relay-mlir module and one onnxruntime session for an ONNX model, compared
output by output (shape, dtype, values within the caller's tolerances)."""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.frontend import from_onnx


class OrtRunner:
    """One compiled module and one onnxruntime session for a model."""

    def __init__(self, model):
        self.names = [i.name for i in model.graph.input if i.name not in {t.name for t in model.graph.initializer}]
        import onnxruntime as ort
        self.sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        self.mod = from_onnx(model)
        self.exe = relay.compile(self.mod, target="llvm-cpu")

    def check(self, *inputs, rtol=0.0, atol=0.0):
        feeds = dict(zip(self.names, inputs))
        want = self.sess.run(None, feeds)
        got = self.exe(*inputs)
        got = list(got) if isinstance(got, (list, tuple)) else [got]
        assert len(got) == len(want)
        for g, w in zip(got, want):
            g = np.asarray(g)
            assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)

    def fails(self, *inputs, ort_fails=True):
        if ort_fails:
            with pytest.raises(Exception):
                self.sess.run(None, dict(zip(self.names, inputs)))
        with pytest.raises(relay.RelayRuntimeError):
            self.exe(*inputs)
