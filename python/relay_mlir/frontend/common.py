"""Errors and small helpers shared by the importers."""
from __future__ import annotations

from typing import Optional

from ..errors import CompileError, Diagnostic

__all__ = ["ImportError_", "UnsupportedError"]


class ImportError_(CompileError):
    """A model could not be imported (malformed or inconsistent model)."""

    def __init__(self, message: str, op_type: Optional[str] = None, node_name: Optional[str] = None,
                 opset: Optional[int] = None, location: Optional[str] = None) -> None:
        self.op_type, self.node_name, self.opset = op_type, node_name, opset
        diags = []
        if location is not None:
            diags.append(Diagnostic("error", message, location, 0, 0))
        super().__init__(message, diags)

    def __str__(self) -> str:  # the message already names the node
        return self.message


class UnsupportedError(ImportError_):
    """The model uses an operator, attribute or input form the importer does not support.

    ``op_type``, ``node_name`` and ``opset`` name the offending ONNX node;
    the message names all three.
    """
