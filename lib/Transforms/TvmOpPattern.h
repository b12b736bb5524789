//===- TvmOpPattern.h - TVM's operator patterns of relay ops ----*- C++ -*-===//
//
// Which relay operators TVM 0.19 registers as elementwise or broadcast
// (TOpPattern kElemWise / kBroadcast), as its passes ask (CanonicalizeCast,
// the CombineParallel* passes).
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_LIB_TRANSFORMS_TVMOPPATTERN_H
#define RELAY_LIB_TRANSFORMS_TVMOPPATTERN_H

#include "relay/RelayOps.h"

#include "llvm/ADT/StringSet.h"

namespace mlir::relay {

/// The operators TVM 0.19 registers with TOpPattern kElemWise or kBroadcast
/// (those relay-mlir has; as listed by TVM's op registry).
inline bool isElementwiseOrBroadcast(Operation *op) {
  static const llvm::StringSet<> names = {
      // kElemWise
      "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "bitwise_not",
      "cast", "cast_like", "ceil", "clip", "copy", "cos", "cosh", "erf", "exp",
      "fast_erf", "fast_exp", "fast_tanh", "fixed_point_multiply", "floor",
      "full", "full_like", "isfinite", "isinf", "isnan", "log", "log10", "log2",
      "logical_not", "negative", "nn.leaky_relu", "nn.relu", "ones",
      "ones_like", "qnn.dequantize", "qnn.quantize", "qnn.requantize",
      "reinterpret", "round", "rsqrt", "sigmoid", "sign", "sin", "sinh", "sqrt",
      "tan", "tanh", "trilu", "trunc", "zeros", "zeros_like", "dyn.full",
      "dyn.ones", "dyn.zeros",
      // kBroadcast
      "add", "bitwise_and", "bitwise_or", "bitwise_xor", "broadcast_to",
      "broadcast_to_like", "divide", "dyn.broadcast_to", "equal", "expand_dims",
      "fixed_point_multiply_per_axis", "floor_divide", "floor_mod", "greater",
      "greater_equal", "left_shift", "less", "less_equal", "logical_and",
      "logical_or", "logical_xor", "maximum", "minimum", "mod", "multiply",
      "nn.bias_add", "nn.prelu", "not_equal", "power", "qnn.add", "qnn.mul",
      "qnn.subtract", "repeat", "right_shift", "subtract", "tile",
      "trunc_divide", "trunc_mod", "where"};
  if (!isa_and_nonnull<RelayDialect>(op->getDialect()))
    return false;
  StringRef name = op->getName().getStringRef();
  return name.consume_front("relay.") && names.contains(name);
}

} // namespace mlir::relay

#endif // RELAY_LIB_TRANSFORMS_TVMOPPATTERN_H
