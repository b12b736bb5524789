//===- Elementwise.cpp - unary and broadcasting binary operators ----------===//
//
// Each operator is one row of a table: its scalar body for float, signed
// and unsigned element types. Binary operators broadcast (numpy) through
// the indexing maps of one linalg.generic.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {
using UnaryFn = Value (*)(OpBuilder &, Location, Value);
using BinaryFn = Value (*)(OpBuilder &, Location, Value, Value);

template <typename OpTy>
Value un(OpBuilder &b, Location loc, Value x) {
  return OpTy::create(b, loc, x);
}
template <typename OpTy>
Value bin(OpBuilder &b, Location loc, Value x, Value y) {
  return OpTy::create(b, loc, x, y);
}

Value negInt(OpBuilder &b, Location loc, Value x) {
  return arith::SubIOp::create(b, loc, scalarConst(b, loc, x.getType(), 0), x);
}
Value sigmoid(OpBuilder &b, Location loc, Value x) {
  Value one = scalarConst(b, loc, x.getType(), 1.0);
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
  return arith::DivFOp::create(b, loc, one,
                               arith::AddFOp::create(b, loc, one, e));
}
template <typename MaxOp>
Value relu(OpBuilder &b, Location loc, Value x) {
  return MaxOp::create(b, loc, x, scalarConst(b, loc, x.getType(), 0.0));
}

/// One operator: its name and scalar bodies for float, signed int and
/// unsigned int element types (null: no such form).
template <typename Fn>
struct Row {
  StringLiteral name;
  Fn floatFn, signedFn, unsignedFn;

  Fn pick(Type element, bool isUnsigned) const {
    if (isa<FloatType>(element))
      return floatFn;
    return isUnsigned ? unsignedFn : signedFn;
  }
};

const Row<UnaryFn> kUnary[] = {
    {NegativeOp::getOperationName(), un<arith::NegFOp>, negInt, negInt},
    {ExpOp::getOperationName(), un<math::ExpOp>, nullptr, nullptr},
    {LogOp::getOperationName(), un<math::LogOp>, nullptr, nullptr},
    {SqrtOp::getOperationName(), un<math::SqrtOp>, nullptr, nullptr},
    {TanhOp::getOperationName(), un<math::TanhOp>, nullptr, nullptr},
    {SigmoidOp::getOperationName(), sigmoid, nullptr, nullptr},
    {ReluOp::getOperationName(), relu<arith::MaximumFOp>,
     relu<arith::MaxSIOp>, relu<arith::MaxUIOp>},
};

// Relay's integer `divide` truncates (C semantics), as arith.divsi does.
const Row<BinaryFn> kBinary[] = {
    {AddOp::getOperationName(), bin<arith::AddFOp>, bin<arith::AddIOp>,
     bin<arith::AddIOp>},
    {SubtractOp::getOperationName(), bin<arith::SubFOp>, bin<arith::SubIOp>,
     bin<arith::SubIOp>},
    {MultiplyOp::getOperationName(), bin<arith::MulFOp>, bin<arith::MulIOp>,
     bin<arith::MulIOp>},
    {DivideOp::getOperationName(), bin<arith::DivFOp>, bin<arith::DivSIOp>,
     bin<arith::DivUIOp>},
    {MaximumOp::getOperationName(), bin<arith::MaximumFOp>,
     bin<arith::MaxSIOp>, bin<arith::MaxUIOp>},
    {MinimumOp::getOperationName(), bin<arith::MinimumFOp>,
     bin<arith::MinSIOp>, bin<arith::MinUIOp>},
};

/// Lowers the operator of one table row to a (broadcasting) linalg.generic.
template <typename Fn>
struct ElementwisePattern : ConversionPattern {
  ElementwisePattern(const TypeConverter &tc, MLIRContext *ctx,
                     const Row<Fn> &row)
      : ConversionPattern(tc, row.name, /*benefit=*/1, ctx), row(row) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    auto relayType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!relayType)
      return rewriter.notifyMatchFailure(op, "result is not a ranked tensor");
    Fn fn = row.pick(relayType.getElementType(),
                     isUnsignedInt(op->getOperand(0).getType()));
    if (!fn)
      return rewriter.notifyMatchFailure(op, "no form for this dtype");
    Value result = buildBroadcastMap(
        rewriter, op->getLoc(), signlessTensorType(relayType), operands,
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          if constexpr (std::is_same_v<Fn, UnaryFn>)
            return fn(b, loc, args[0]);
          else
            return fn(b, loc, args[0], args[1]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }

  Row<Fn> row;
};
} // namespace

bool lowering::requiresFloat(Operation *op) {
  if (isa<SoftmaxOp>(op))
    return true;
  for (const Row<UnaryFn> &row : kUnary)
    if (op->getName().getStringRef() == row.name)
      return !row.signedFn;
  return false;
}

void lowering::populateElementwisePatterns(const TypeConverter &tc,
                                           RewritePatternSet &patterns) {
  for (const Row<UnaryFn> &row : kUnary)
    patterns.add<ElementwisePattern<UnaryFn>>(tc, patterns.getContext(), row);
  for (const Row<BinaryFn> &row : kBinary)
    patterns.add<ElementwisePattern<BinaryFn>>(tc, patterns.getContext(), row);
}
