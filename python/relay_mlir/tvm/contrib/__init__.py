"""``tvm.contrib``: ``graph_executor`` and ``utils`` (``tempdir``); other contrib modules are
refused (``relay_mlir.tvm._modules``)."""
from __future__ import annotations

from .._modules import refusal as _refusal

__all__ = ["graph_executor", "utils"]


def __getattr__(name: str):
    if name in __all__:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    why = _refusal(f"contrib.{name}")
    raise AttributeError(why or f"module '{__name__}' has no attribute '{name}'")
