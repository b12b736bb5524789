"""The runnable examples in relay_mlir's docstrings (those not marked +SKIP)."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["relay_mlir", "relay_mlir.ty", "relay_mlir.expr", "relay_mlir.op.tensor", "relay_mlir.op.nn",
           "relay_mlir.op.reduce", "relay_mlir.op.index", "relay_mlir.op.image",
           "relay_mlir.op._make", "relay_mlir.op.dyn", "relay_mlir.op.transform", "relay_mlir.expr_functor", "relay_mlir.analysis",
           "relay_mlir.module", "relay_mlir.errors", "relay_mlir.emit", "relay_mlir.transform",
           "relay_mlir.compiler", "relay_mlir.runtime", "relay_mlir.adt_value", "relay_mlir.testing.numpy_ref",
           "relay_mlir.models.resnet", "relay_mlir.adt", "relay_mlir.scope_builder",
           "relay_mlir.prelude", "relay_mlir.parser", "relay_mlir.printer", "relay_mlir.mlir_import",
           "relay_mlir._tvm_ndarray", "relay_mlir.interpreter", "relay_mlir.interpreter_ops",
           "relay_mlir.executor", "relay_mlir.autodiff", "relay_mlir.visualize",
           "relay_mlir.normal_form", "relay_mlir.fuse_ops", "relay_mlir.expr_parts",
           "relay_mlir.frontend.torchscript", "relay_mlir.tvm.relay.frontend"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    mod = importlib.import_module(name)
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
