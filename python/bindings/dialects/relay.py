"""The ``relay`` dialect in Python (``relay_mlir.dialects.relay``).

Op classes generated from the dialect's ODS (``AddOp``, ``add``, ...) and
the relay types as ``relay_mlir.ir.Type`` subclasses (``FuncType``,
``RefType``, ``IncompleteType``, ``TypeVarType``, ``ADTType``; C API in
``relay-c/Relay.h``).

Example::

    from relay_mlir import ir
    from relay_mlir.dialects import relay
    with ir.Context():
        m = ir.Module.parse("func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {"
                            " %y = relay.nn.relu %x : (tensor<2xf32>) -> tensor<2xf32>"
                            " return %y : tensor<2xf32> }")
        fn = relay.FuncType.get([ir.F32Type.get()], ir.F32Type.get())
        assert fn.result == ir.F32Type.get()
"""
from ._relay_ops_gen import *  # noqa: F401,F403
from .._mlir_libs._relayTypes import (ADTType, FuncType, IncompleteType, RefType,  # noqa: F401
                                       TypeVarType)
