//===- WindowAdjoints.h - shared by conv, pool, image rules -----*- C++ -*-===//
//
// The building blocks the gradient rules of the window ops (conv, pool,
// image) share; defined in WindowAdjoints.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_GRADIENT_WINDOWADJOINTS_H
#define RELAY_GRADIENT_WINDOWADJOINTS_H

#include "relay/RelayGradient.h"

#include <optional>

namespace mlir::relay::gradient::window {

/// Relay's padding of an `nd`-d op (1, nd or 2*nd entries) as 2*nd
/// entries: [before..., after...].
SmallVector<int64_t> paddingFull(ArrayRef<int64_t> p, int64_t nd);
SmallVector<int64_t> iota(int64_t from, int64_t to);
/// An error naming the op unless every value has a static shape.
LogicalResult requireStatic(RuleBuilder &rb, ValueRange values);
/// The op being differentiated rebuilt on `operands` with some attributes
/// replaced, its result type inferred again; null when that fails.
Operation *rebuild(RuleBuilder &rb, ValueRange operands,
                   ArrayRef<NamedAttribute> overrides);

/// (attribute name, canonical layout) of each leading operand.
using LayoutSpecs = ArrayRef<std::pair<StringRef, StringRef>>;
/// The pools' and resize's single NCHW `layout`.
extern const std::pair<StringRef, StringRef> kNCHW[1];
/// When the op's layouts are not the canonical ones, `rule` applied to the
/// op rebuilt in them (operands and adjoints transposed); none when they
/// are canonical already.
std::optional<LogicalResult> viaCanonicalLayout(RuleBuilder &rb, Value g,
                                                SmallVectorImpl<Value> &out,
                                                GradientRule rule,
                                                LayoutSpecs specs);

/// A channel-first convolution; `pad` as [before..., after...].
Value makeConv(RuleBuilder &rb, Value data, Value weight,
               ArrayRef<int64_t> strides, ArrayRef<int64_t> pad,
               ArrayRef<int64_t> dilation, int64_t groups);
Value reshapeTo(RuleBuilder &rb, Value v, ArrayRef<int64_t> shape);
/// `v`'s spatial dimensions (from 2) sliced to [begin, end).
Value sliceSpatial(RuleBuilder &rb, Value v, ArrayRef<int64_t> begin,
                   ArrayRef<int64_t> end, ArrayRef<int64_t> strides = {});
/// The adjoint of a channel-first convolution's data, of spatial `size`.
Value scatterConv(RuleBuilder &rb, Value g, Value weight,
                  ArrayRef<int64_t> strides, ArrayRef<int64_t> pad,
                  ArrayRef<int64_t> dilation, int64_t groups,
                  ArrayRef<int64_t> size);
/// The adjoint of a channel-first convolution's weight `kernel`.
Value weightGrad(RuleBuilder &rb, Value data, Value adjoint,
                 ArrayRef<int64_t> strides, ArrayRef<int64_t> pad,
                 ArrayRef<int64_t> dilation, int64_t groups, Value kernel);
/// `v` [N, C, (K,) spatial...] as [N*C, K, spatial...] (K = 1 when absent).
Value perImage(RuleBuilder &rb, Value v, bool hasK);
Value constantOf(RuleBuilder &rb, ArrayRef<int64_t> shape,
                 ArrayRef<double> values, Type element);
/// NCW, NCHW or NCDHW.
StringRef channelFirst(int64_t nd);

} // namespace mlir::relay::gradient::window

#endif // RELAY_GRADIENT_WINDOWADJOINTS_H
