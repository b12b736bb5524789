//===- TvmOpPattern.h - TVM's operator patterns of relay ops ----*- C++ -*-===//
//
// Which relay operators TVM 0.19 registers as elementwise or broadcast
// (TOpPattern kElemWise / kBroadcast), as its passes ask (CanonicalizeCast,
// the CombineParallel* passes, AlterOpLayout).
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_LIB_TRANSFORMS_TVMOPPATTERN_H
#define RELAY_LIB_TRANSFORMS_TVMOPPATTERN_H

#include "relay/RelayOps.h"

#include "llvm/ADT/StringSet.h"

namespace mlir::relay {

/// `op`'s name without the `relay.` prefix, or "" for an op of another
/// dialect.
inline StringRef tvmOpName(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (!isa_and_nonnull<RelayDialect>(op->getDialect()) ||
      !name.consume_front("relay."))
    return "";
  return name;
}

// clang-format off
/// The operators TVM 0.19 registers with TOpPattern kElemWise (those
/// relay-mlir has; as listed by TVM's op registry).
inline bool isTvmElementwise(Operation *op) {
  static const llvm::StringSet<> names = {
      "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "bitwise_not",
      "cast", "cast_like", "ceil", "clip", "copy", "cos", "cosh", "erf", "exp",
      "fast_erf", "fast_exp", "fast_tanh", "fixed_point_multiply", "floor",
      "full", "full_like", "isfinite", "isinf", "isnan", "log", "log10", "log2",
      "logical_not", "negative", "nn.leaky_relu", "nn.relu", "ones",
      "ones_like", "qnn.dequantize", "qnn.quantize", "qnn.requantize",
      "reinterpret", "round", "rsqrt", "sigmoid", "sign", "sin", "sinh", "sqrt",
      "tan", "tanh", "trilu", "trunc", "zeros", "zeros_like", "dyn.full",
      "dyn.ones", "dyn.zeros"};
  return names.contains(tvmOpName(op));
}

/// The operators TVM 0.19 registers with TOpPattern kBroadcast.
inline bool isTvmBroadcast(Operation *op) {
  static const llvm::StringSet<> names = {
      "add", "bitwise_and", "bitwise_or", "bitwise_xor", "broadcast_to",
      "broadcast_to_like", "divide", "dyn.broadcast_to", "equal", "expand_dims",
      "fixed_point_multiply_per_axis", "floor_divide", "floor_mod", "greater",
      "greater_equal", "left_shift", "less", "less_equal", "logical_and",
      "logical_or", "logical_xor", "maximum", "minimum", "mod", "multiply",
      "nn.bias_add", "nn.prelu", "not_equal", "power", "qnn.add", "qnn.mul",
      "qnn.subtract", "repeat", "right_shift", "subtract", "tile",
      "trunc_divide", "trunc_mod", "where"};
  return names.contains(tvmOpName(op));
}
// clang-format on

/// kElemWise or kBroadcast (what TVM's CanonicalizeCast and CombineParallel*
/// passes ask).
inline bool isElementwiseOrBroadcast(Operation *op) {
  return isTvmElementwise(op) || isTvmBroadcast(op);
}

} // namespace mlir::relay

#endif // RELAY_LIB_TRANSFORMS_TVMOPPATTERN_H
