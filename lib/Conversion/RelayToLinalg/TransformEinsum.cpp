//===- TransformEinsum.cpp - einsum ---------------------------------------===//
//
// `ij,jk->ik` becomes linalg.matmul, `bij,bjk->bik` linalg.batch_matmul;
// every other equation one linalg.generic: output labels are parallel
// loops, the others reductions; the body multiplies the operands and
// accumulates into a zero-filled result. `...` dims of size 1 broadcast.
//
//===----------------------------------------------------------------------===//
#include "../../Relations/EinsumEquation.h"
#include "DynamicUtils.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

/// True if `eq` is `[B]ij,[B]jk->[B]ik` (B present iff `batch`) with
/// distinct labels.
bool isMatmul(const einsum::Equation &eq, bool batch) {
  if (eq.inputs.size() != 2)
    return false;
  size_t n = batch ? 3 : 2;
  const auto &a = eq.inputs[0], &b = eq.inputs[1], &c = eq.output;
  if (a.size() != n || b.size() != n || c.size() != n)
    return false;
  size_t o = batch ? 1 : 0;
  int i = a[o], j = a[o + 1], k = b[o + 1];
  if (b[o] != j || c[o] != i || c[o + 1] != k || i == j || j == k || i == k)
    return false;
  if (batch &&
      (b[0] != a[0] || c[0] != a[0] || a[0] == i || a[0] == j || a[0] == k))
    return false;
  return true;
}

/// A label repeated within one operand ("ii->i") reads a diagonal: the
/// operand is replaced by the diagonal, gathered, and its labels made
/// distinct (IREE's tiling mishandles maps such as (d0, d0)).
void gatherDiagonals(OpBuilder &rewriter, Location loc, einsum::Equation &eq,
                     SmallVectorImpl<Value> &inputs) {
  for (size_t i = 0; i < eq.inputs.size(); ++i) {
    SmallVector<int> &labels = eq.inputs[i];
    SmallVector<int> unique;
    for (int l : labels)
      if (!llvm::is_contained(unique, l))
        unique.push_back(l);
    if (unique.size() == labels.size())
      continue;
    Value v = inputs[i];
    auto t = cast<RankedTensorType>(v.getType());
    SmallVector<OpFoldResult> in = dimSizes(rewriter, loc, v), sizes;
    SmallVector<int64_t> shape;
    for (int u : unique) {
      int64_t d = llvm::find(labels, u) - labels.begin();
      shape.push_back(t.getDimSize(d));
      sizes.push_back(in[d]);
    }
    SmallVector<int> old(labels);
    inputs[i] = buildMap(
        rewriter, loc, RankedTensorType::get(shape, t.getElementType()), sizes,
        {}, {}, [&](OpBuilder &b, Location l, ValueRange) -> Value {
          SmallVector<Value> at;
          for (int label : old)
            at.push_back(linalg::IndexOp::create(
                b, l, llvm::find(unique, label) - unique.begin()));
          return tensor::ExtractOp::create(b, l, v, at);
        });
    labels.assign(unique.begin(), unique.end());
  }
}

/// The loops of the contraction: output labels, then the summed ones in
/// order of appearance.
SmallVector<int> loopLabels(const einsum::Equation &eq) {
  SmallVector<int> loops(eq.output);
  for (const auto &labels : eq.inputs)
    for (int l : labels)
      if (!llvm::is_contained(loops, l))
        loops.push_back(l);
  return loops;
}

int64_t loopOf(ArrayRef<int> loops, int label) {
  return llvm::find(loops, label) - loops.begin();
}

/// The size of every loop: a dim that does not broadcast. A label's `?`
/// sizes must agree at run time: the first operand dim of each label is
/// checked against the others.
SmallVector<OpFoldResult> loopSizesOf(OpBuilder &rewriter, Location loc,
                                      EinsumOp op, const einsum::Equation &eq,
                                      ArrayRef<Value> inputs,
                                      ArrayRef<int> loops) {
  SmallVector<OpFoldResult> loopSizes(loops.size());
  SmallVector<std::pair<Value, int64_t>> firstDim(loops.size());
  for (auto [i, v] : llvm::enumerate(inputs)) {
    auto t = cast<RankedTensorType>(v.getType());
    for (auto [d, label] : llvm::enumerate(eq.inputs[i])) {
      auto &first = firstDim[loopOf(loops, label)];
      if (label < einsum::kEllipsisBase) {
        if (!first.first)
          first = {v, d};
        else
          checkSameSize(rewriter, loc, first.first, first.second, v, d,
                        op->getName().getStringRef(),
                        "the sizes of one subscript label differ");
      }
      OpFoldResult &size = loopSizes[loopOf(loops, label)];
      if (t.getDimSize(d) == 1) {
        if (!size)
          size = rewriter.getIndexAttr(1);
        continue;
      }
      if (size && getConstantIntValue(size) != 1)
        continue;
      size = t.isDynamicDim(d)
                 ? OpFoldResult(
                       tensor::DimOp::create(rewriter, loc, v, d).getResult())
                 : OpFoldResult(rewriter.getIndexAttr(t.getDimSize(d)));
    }
  }
  return loopSizes;
}

/// One generic over the loops: each operand read at its labels' loops (a
/// `...` dim of size 1 that broadcasts at 0), the product accumulated into
/// `init`.
Value contract(OpBuilder &rewriter, Location loc, const einsum::Equation &eq,
               ValueRange inputs, Value init, ArrayRef<int> loops,
               ArrayRef<OpFoldResult> loopSizes) {
  int64_t numLoops = loops.size();
  SmallVector<AffineMap> maps;
  for (auto [i, v] : llvm::enumerate(inputs)) {
    auto t = cast<RankedTensorType>(v.getType());
    SmallVector<AffineExpr> exprs;
    for (auto [d, label] : llvm::enumerate(eq.inputs[i])) {
      int64_t loop = loopOf(loops, label);
      bool stretch = label >= einsum::kEllipsisBase && t.getDimSize(d) == 1 &&
                     getConstantIntValue(loopSizes[loop]) != 1;
      exprs.push_back(stretch ? rewriter.getAffineConstantExpr(0)
                              : rewriter.getAffineDimExpr(loop));
    }
    maps.push_back(AffineMap::get(numLoops, 0, exprs, rewriter.getContext()));
  }
  SmallVector<AffineExpr> outExprs;
  for (int64_t d = 0; d < static_cast<int64_t>(eq.output.size()); ++d)
    outExprs.push_back(rewriter.getAffineDimExpr(d));
  maps.push_back(AffineMap::get(numLoops, 0, outExprs, rewriter.getContext()));
  SmallVector<utils::IteratorType> iterators(numLoops,
                                             utils::IteratorType::reduction);
  for (size_t d = 0; d < eq.output.size(); ++d)
    iterators[d] = utils::IteratorType::parallel;
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(init.getType()));
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, maps,
      iterators, [&](OpBuilder &b, Location l, ValueRange args) {
        Value product = args[0];
        for (Value x : args.drop_front().drop_back())
          product = isFloat
                        ? arith::MulFOp::create(b, l, product, x).getResult()
                        : arith::MulIOp::create(b, l, product, x).getResult();
        Value acc = args.back();
        Value sum = isFloat
                        ? arith::AddFOp::create(b, l, acc, product).getResult()
                        : arith::AddIOp::create(b, l, acc, product).getResult();
        linalg::YieldOp::create(b, l, sum);
      });
  return generic.getResult(0);
}

/// Strategies in one pattern, most specific first: linalg.matmul /
/// linalg.batch_matmul for those equations (same element types, signed),
/// else the generic contraction.
struct EinsumPattern : OpConversionPattern<EinsumOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(EinsumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> inputs(adaptor.getData().begin(),
                              adaptor.getData().end());
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    Type elt = resultType.getElementType();
    SmallVector<int64_t> ranks;
    for (Value v : inputs)
      ranks.push_back(cast<RankedTensorType>(v.getType()).getRank());
    einsum::Equation eq;
    std::string error;
    if (!einsum::parse(op.getEquation(), ranks, eq, error))
      return op.emitOpError() << error;

    gatherDiagonals(rewriter, loc, eq, inputs);
    SmallVector<int> loops = loopLabels(eq);
    SmallVector<OpFoldResult> loopSizes =
        loopSizesOf(rewriter, loc, op, eq, inputs, loops);
    SmallVector<OpFoldResult> outSizes;
    for (int64_t d = 0; d < resultType.getRank(); ++d)
      outSizes.push_back(
          resultType.isDynamicDim(d)
              ? loopSizes[d]
              : OpFoldResult(rewriter.getIndexAttr(resultType.getDimSize(d))));
    Value zero = scalarConst(rewriter, loc, elt, 0.0);
    Value init = filledTensor(rewriter, loc, resultType, outSizes, zero);

    bool isUnsigned = isUnsignedInt(op.getType());
    bool sameTypes = llvm::all_of(inputs, [&](Value v) {
      return cast<RankedTensorType>(v.getType()).getElementType() == elt;
    });
    if (sameTypes && !isUnsigned && isMatmul(eq, false)) {
      rewriter.replaceOp(
          op, linalg::MatmulOp::create(rewriter, loc, inputs, ValueRange{init})
                  .getResult(0));
      return success();
    }
    if (sameTypes && !isUnsigned && isMatmul(eq, true)) {
      rewriter.replaceOp(op, linalg::BatchMatmulOp::create(
                                 rewriter, loc, inputs, ValueRange{init})
                                 .getResult(0));
      return success();
    }
    rewriter.replaceOp(
        op, contract(rewriter, loc, eq, inputs, init, loops, loopSizes));
    return success();
  }
};
} // namespace

void lowering::populateTransformEinsumPatterns(const TypeConverter &tc,
                                               RewritePatternSet &patterns) {
  patterns.add<EinsumPattern>(tc, patterns.getContext());
}
