"""Test helpers: numpy references (``numpy_ref``), language programs (``programs``).

The project's own model zoo moved to ``relay_mlir.models``.
"""
from . import numpy_ref  # noqa: F401

__all__ = ["numpy_ref"]
