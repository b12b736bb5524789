"""Model importers: ``relay_mlir.frontend.from_onnx``.

Example::

    >>> import relay_mlir as relay
    >>> from relay_mlir.frontend import from_onnx, UnsupportedError
    >>> issubclass(UnsupportedError, relay.CompileError)
    True
"""
from __future__ import annotations

from .common import ImportError_, UnsupportedError
from .onnx import from_onnx, supported_ops
from .torch import from_torch  # noqa: F401  (PyTorch importer; imports torch only when called)
from .torchscript import from_torchscript  # noqa: F401  (TorchScript, TVM's from_pytorch; likewise)
from .tflite import from_tflite  # noqa: F401  (TFLite importer; needs the tflite package when called)

OnnxImportError = ImportError_

__all__ = ["from_onnx", "supported_ops", "UnsupportedError", "OnnxImportError"]
