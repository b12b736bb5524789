"""Generated op classes of the ``relay`` dialect (``relay_mlir.dialects.relay``).

Example::

    from relay_mlir import ir
    from relay_mlir.dialects import relay
    with ir.Context():
        m = ir.Module.parse("func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {"
                            " %y = relay.nn.relu %x : (tensor<2xf32>) -> tensor<2xf32>"
                            " return %y : tensor<2xf32> }")
"""
from ._relay_ops_gen import *  # noqa: F401,F403
