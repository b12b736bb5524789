"""``relay.qnn.op``: the builders of the qnn operators (TVM 0.19's names and defaults)."""
from .qnn import (abs, add, avg_pool2d, batch_matmul, concatenate, conv2d, conv2d_transpose, dense,
                  dequantize, erf, exp, hardswish, leaky_relu, log, mul, quantize, requantize, rsqrt,
                  sigmoid, simulated_dequantize, simulated_quantize, softmax, sqrt, subtract,
                  tanh)

__all__ = ["abs", "add", "avg_pool2d", "batch_matmul", "concatenate", "conv2d", "conv2d_transpose",
           "dense", "dequantize", "erf", "exp", "hardswish", "leaky_relu", "log", "mul", "quantize",
           "requantize", "rsqrt", "sigmoid", "simulated_dequantize", "simulated_quantize", "softmax",
           "sqrt", "subtract", "tanh"]
