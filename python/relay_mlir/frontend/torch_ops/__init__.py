"""PyTorch (ATen) operator converters of ``frontend.torch``, one module per op family.

The families are those of the lowering and the typing rules (``lib/Conversion/RelayToLinalg``,
``lib/Relations``): elementwise, nn, conv, norm, pool, index, transform, reduce, attention,
rnn. Each module registers its converters with ``_base._register`` when imported.
"""
from __future__ import annotations

from ._base import supported_ops
from . import attention, conv, elementwise, index, nn, norm, pool, reduce, rnn, transform  # noqa: F401  (registers converters)

__all__ = ["supported_ops"]
