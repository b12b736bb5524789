"""Test helpers, like ``tvm.relay.testing``: model builders and numpy references.

* ``relay_mlir.testing.resnet.get_workload()`` - a small ResNet-style CNN.
* ``relay_mlir.testing.numpy_ref`` - independent numpy implementations of the
  operators and of that network, to check compiled results against.
"""
from . import numpy_ref, resnet  # noqa: F401

__all__ = ["numpy_ref", "resnet"]
