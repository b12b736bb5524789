"""Converters this package adds to ``frontend.torch``'s, for ATen ops that TorchScript
graphs keep and torch.export graphs do not (fused kernels, ops export decomposes).
They take the same ``_Ctx`` as ``frontend.torch``'s converters; the importer looks
here first (``_importer._converter``)."""
from __future__ import annotations

from typing import Callable, Dict

CONVERTERS: Dict[str, Callable] = {}


def register(*names: str):
    """Registers a converter for ATen op packets (``"hardswish"``)."""
    def deco(fn):
        for n in names:
            CONVERTERS[n] = fn
        return fn
    return deco
