//===- RelayGradient.h - reverse-mode AD: rules and the sweep ---*- C++ -*-===//
//
// Relay's gradient rules (TVM's `FPrimalGradient`) in one table keyed by op
// name, and the reverse sweep `relay-gradient` runs over a function body.
//
// A rule receives the adjoint of its op's (one) result and returns one
// adjoint per operand (null: the operand gets nothing, e.g. an index
// operand, or the derivative is zero). Rules build ops with the ops'
// type-inferring builders; broadcast operands get `unbroadcast`ed adjoints.
// Rules live by op family in lib/Gradient/*Gradients.cpp; docs/autodiff.md
// lists them.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_RELAYGRADIENT_H
#define RELAY_RELAYGRADIENT_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringMap.h"

#include <vector>

namespace mlir::relay::gradient {

/// `v`'s ranked tensor type.
inline RankedTensorType tensorTypeOf(Value v) {
  return llvm::cast<RankedTensorType>(v.getType());
}

/// A possibly negative axis of a rank-`rank` tensor, made non-negative.
inline int64_t normalizeAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

/// What a rule builds with: a builder placed in the backward code, the
/// location of the op being differentiated, and helpers shared by rules.
class RuleBuilder {
public:
  RuleBuilder(OpBuilder &builder, Operation *op)
      : b(builder), loc(op->getLoc()), op(op) {}

  OpBuilder &b;
  Location loc;
  Operation *op;

  /// `grad` (the adjoint of a value broadcast from `like`) summed back to
  /// `like`'s shape; `grad` itself when the shapes agree.
  Value unbroadcast(Value grad, Value like);
  /// A rank-0 constant of `like`'s element type.
  Value scalar(double value, Value like);
  Value zerosLike(Value like);
  Value onesLike(Value like);
  Value add(Value a, Value c);
  Value sub(Value a, Value c);
  Value mul(Value a, Value c);
  Value div(Value a, Value c);
  Value neg(Value a);
  /// `where(cond, a, 0)`.
  Value select(Value cond, Value a);
  /// Sums `x` over `axes` (keepdims when asked).
  Value sum(Value x, ArrayRef<int64_t> axes, bool keepdims);
  /// Reinserts the reduced `axes` (sorted, non-negative) of a reduction
  /// without keepdims as size-1 dims.
  Value unsqueezeAxes(Value x, ArrayRef<int64_t> axes);
  /// `x` broadcast to `like`'s shape.
  Value broadcastLike(Value x, Value like);
  /// `x` with the shape of `like` (same element count).
  Value reshapeLike(Value x, Value like);
  Value transpose(Value x, ArrayRef<int64_t> perm);
  /// The adjoint of a separable linear map of the two trailing (spatial)
  /// dims of an [N, C, h, w] tensor, y = A_h x A_wᵀ: `g` [N, C, oh, ow]
  /// mapped back by `rowsT` = A_hᵀ [h, oh] and `colsT` = A_wᵀ [w, ow] to
  /// `like`'s shape (A_hᵀ g A_w).
  Value separableAdjoint(Value g, Value rowsT, Value colsT, Value like);
  /// An error at the op being differentiated.
  InFlightDiagnostic emitError();
};

/// A gradient rule: fills `operandGrads` (one entry per operand, null for
/// none) from `grad`, the adjoint of the op's result (of the result's type;
/// for a tuple result, every field present).
using GradientRule = LogicalResult (*)(RuleBuilder &rb, Value grad,
                                       SmallVectorImpl<Value> &operandGrads);
using GradientRules = llvm::StringMap<GradientRule>;

/// The rule of the operator named `opName` ("relay.nn.dense"), or null.
GradientRule lookupGradientRule(StringRef opName);
/// The names of all operators with a rule, sorted.
std::vector<std::string> gradientRuleNames();

// The rules, by family (lib/Gradient/<Family>Gradients.cpp).
void addElementwiseGradients(GradientRules &rules);
void addReduceGradients(GradientRules &rules);
void addNNGradients(GradientRules &rules);
void addConvGradients(GradientRules &rules);
void addPoolGradients(GradientRules &rules);
void addNormGradients(GradientRules &rules);
void addTransformGradients(GradientRules &rules);
void addIndexGradients(GradientRules &rules);
void addImageGradients(GradientRules &rules);
void addDynamicGradients(GradientRules &rules);

/// What one `relay.grad` asks for (DLVM-style declarations).
struct GradSpec {
  /// Parameters (block arguments of the body) to differentiate, in order.
  SmallVector<Value> wrt;
  /// The adjoint of the result; null to seed with ones.
  Value seed;
  /// Return `(result, grads)` rather than `grads`.
  bool keeping = true;
};

/// Inlines, in `region`, every call of a non-recursive module function
/// (`func.call`, `relay.call` of a `relay.global_fn`) and of a non-recursive
/// `relay.fn` defined in scope, so the reverse sweep sees straight-line
/// code. Calls of recursive functions stay.
LogicalResult inlineCalls(Region &region);

/// Appends the reverse sweep to `body` (a block ending in `func.return` or
/// `relay.yield` of one value) and makes it return what `spec` asks for.
/// Errors (an op without a rule on a differentiated path, an unsupported
/// construct) are reported at the op.
LogicalResult differentiateBody(Block &body, const GradSpec &spec);

} // namespace mlir::relay::gradient

#endif // RELAY_RELAYGRADIENT_H
