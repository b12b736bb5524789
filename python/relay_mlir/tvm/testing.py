"""``tvm.testing.assert_allclose``: the one part of ``tvm.testing`` that model scripts use.

TVM 0.19: ``assert_allclose(actual, desired, rtol=1e-7, atol=1e-7)`` first requires equal
shapes (no broadcasting), then ``|actual - desired| <= atol + rtol * |desired|`` elementwise;
NDArrays are compared by value. The rest of ``tvm.testing`` (pytest fixtures and target
parametrization for TVM's own test suite) is not part of relay-mlir.

    >>> import numpy as np, relay_mlir.tvm as tvm
    >>> tvm.testing.assert_allclose(tvm.nd.array(np.ones(2)), [1.0, 1.0 + 1e-9])
"""
from __future__ import annotations

import numpy as np

__all__ = ["assert_allclose"]


def assert_allclose(actual: object, desired: object, rtol: float = 1e-7, atol: float = 1e-7) -> None:
    actual, desired = np.asanyarray(actual), np.asanyarray(desired)
    if actual.shape != desired.shape:
        raise AssertionError(f"shapes differ: actual {actual.shape}, desired {desired.shape}")
    np.testing.assert_allclose(actual, desired, rtol=rtol, atol=atol, verbose=True)


def __getattr__(name: str):
    raise AttributeError(f"tvm.testing.{name} is not part of relay-mlir: only assert_allclose is "
                         "(TVM's test-suite helpers are not needed to run models; use pytest)")
