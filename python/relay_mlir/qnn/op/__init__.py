"""``relay.qnn.op``: the builders of the qnn operators (TVM 0.19's names and defaults)."""
from .qnn import add, batch_matmul, conv2d, dense, dequantize, mul, quantize, requantize, subtract

__all__ = ["add", "batch_matmul", "conv2d", "dense", "dequantize", "mul", "quantize", "requantize",
           "subtract"]
