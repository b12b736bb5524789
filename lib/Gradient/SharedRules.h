//===- SharedRules.h - rules one family lends another -----------*- C++ -*-===//
//
// Each family's rules live in <Family>Gradients.cpp, registered by its
// add<Family>Gradients. A few are shared across families: an op of one
// family whose gradient is another family's rule (dyn.reshape is reshape's,
// nn.upsampling is image.resize2d's) or helpers both need.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_GRADIENT_SHAREDRULES_H
#define RELAY_GRADIENT_SHAREDRULES_H

#include "relay/RelayGradient.h"

namespace mlir::relay::gradient {

// TransformGradients.cpp
/// An error naming the op unless `v` has a static shape.
LogicalResult requireStaticShape(RuleBuilder &rb, Value v);
/// Reshape-like ops: the adjoint takes the operand's shape.
LogicalResult reshapeRule(RuleBuilder &rb, Value g,
                          SmallVectorImpl<Value> &out);
/// Broadcasts: the adjoint summed back to the operand (collapse_sum_like).
LogicalResult broadcastRule(RuleBuilder &rb, Value g,
                            SmallVectorImpl<Value> &out);
/// The adjoint of a fill value broadcast everywhere: the sum of `g`.
Value fillAdjoint(RuleBuilder &rb, Value g, Value fillValue);
/// Zero-pads `g` by `before`/`after` per dim.
Value zeroPad(RuleBuilder &rb, Value g, ArrayRef<int64_t> before,
              ArrayRef<int64_t> after);

// ImageGradients.cpp
/// image.resize2d and nn.upsampling: a separable linear map's adjoint.
LogicalResult resample(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out);

// NNGradients.cpp
int64_t rankOf(Value v);
/// `x` summed over every axis but `axis`.
Value sumExcept(RuleBuilder &rb, Value x, int64_t axis);
/// A vector `v` along `axis` of a rank-`rank` tensor, broadcastable to it.
Value channelwise(RuleBuilder &rb, Value v, int64_t axis, int64_t rank);

} // namespace mlir::relay::gradient

#endif // RELAY_GRADIENT_SHAREDRULES_H
