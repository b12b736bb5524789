"""Console-script wrappers for the C++ tools shipped inside the package.

``relay-mlir-opt`` is installed as ``relay_mlir/_bin/relay-mlir-opt`` (its
RPATH reaches ``site-packages/llvm/lib``); this wrapper replaces the Python
process with it, so exit codes and diagnostics are the tool's own.

Example::

    $ relay-mlir-opt --relay-infer-type model.mlir
"""
from __future__ import annotations

import os
import sys
from pathlib import Path


def tool_path(name: str) -> Path:
    """Absolute path of a bundled tool, e.g. ``tool_path("relay-mlir-opt")``
    (in a development build, which bundles none: ``$RELAY_MLIR_BIN_DIR/name``)."""
    bundled = Path(__file__).resolve().parent / "_bin" / name
    if not bundled.exists() and os.environ.get("RELAY_MLIR_BIN_DIR"):
        return Path(os.environ["RELAY_MLIR_BIN_DIR"]) / name
    return bundled


def relay_mlir_opt() -> None:
    """Entry point of the ``relay-mlir-opt`` console script."""
    exe = tool_path("relay-mlir-opt")
    os.execv(str(exe), [str(exe), *sys.argv[1:]])
