"""ONNX operator converters, one module per op family.

Each converter is registered for an ONNX ``op_type`` and the opset version
it supports *from* (``@register("Reshape", since=5)``); the importer picks
the registration with the largest ``since`` not above the model's opset.
A converter takes a ``Node`` (``_base.Node``: inputs, attributes, static
shapes) and returns one value per ONNX output: a Relay expression or a numpy
array (a value known at import time, e.g. a folded shape).
"""
from __future__ import annotations

from ._base import Node, lookup, register, registry  # noqa: F401
from . import elementwise, nn, reduce, tensor, image, loss, quant, attention, rnn, vision  # noqa: F401  (registers converters)
from . import quant_linear, quant_msft  # noqa: F401,E402  (ONNX's integer/QLinear ops)

__all__ = ["Node", "lookup", "register", "registry"]
