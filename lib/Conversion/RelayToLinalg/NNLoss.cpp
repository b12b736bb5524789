//===- NNLoss.cpp - nn.dilate, nn.cross_entropy(_with_logits), nn.nll_loss ===//
//
//   nn.dilate  a tensor filled with `dilation_value` into which the data is
//              inserted with `strides` (tensor.insert_slice).
//   nn.cross_entropy(_with_logits)  relay-level: -mean over the batch of the
//              row sums of log(x) * y (x * y).
//   nn.nll_loss  one parallel linalg.generic over the targets computing
//              -predictions[n, t, d...] * weights[t] (0 for ignore_index;
//              t clamped to the classes for the reads), summed for `sum`,
//              divided by the sum of the counted weights for `mean`.
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

struct DilatePattern : OpConversionPattern<DilateOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DilateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    ArrayRef<int64_t> strides = op.getStrides();
    SmallVector<OpFoldResult> in = dimSizes(rewriter, loc, data), sizes, steps;
    for (int64_t d = 0; d < resultType.getRank(); ++d) {
      steps.push_back(rewriter.getIndexAttr(strides[d]));
      if (!resultType.isDynamicDim(d)) {
        sizes.push_back(rewriter.getIndexAttr(resultType.getDimSize(d)));
        continue;
      }
      // (n - 1) * s + 1, or 0 for an empty dim
      Value n = getValueOrCreateConstantIndexOp(rewriter, loc, in[d]);
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      Value s = arith::ConstantIndexOp::create(rewriter, loc, strides[d]);
      Value out = arith::AddIOp::create(
          rewriter, loc,
          arith::MulIOp::create(
              rewriter, loc, arith::SubIOp::create(rewriter, loc, n, one), s),
          one);
      Value empty = arith::CmpIOp::create(rewriter, loc,
                                          arith::CmpIPredicate::eq, n, zero);
      sizes.push_back(
          arith::SelectOp::create(rewriter, loc, empty, zero, out).getResult());
    }
    Value fill = scalarConst(rewriter, loc, resultType.getElementType(),
                             op.getDilationValue().convertToDouble());
    Value init = filledTensor(rewriter, loc, resultType, sizes, fill);
    SmallVector<OpFoldResult> offsets(resultType.getRank(),
                                      rewriter.getIndexAttr(0));
    rewriter.replaceOp(
        op, insertSlice(rewriter, loc, data, init, offsets, in, steps));
    return success();
  }
};

template <typename OpTy, bool withLogits>
struct CrossEntropyPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getPredictions(), y = op.getTargets();
    if (!withLogits)
      x = LogOp::create(rewriter, loc, x);
    Value rows =
        SumOp::create(rewriter, loc, MultiplyOp::create(rewriter, loc, x, y),
                      rewriter.getDenseI64ArrayAttr({1}), false, false);
    Value mean = MeanOp::create(rewriter, loc, rows,
                                rewriter.getDenseI64ArrayAttr({0}), false);
    rewriter.replaceOpWithNewOp<NegativeOp>(op, mean);
    return success();
  }
};

struct NLLLossPattern : OpConversionPattern<NLLLossOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(NLLLossOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value pred = adaptor.getPredictions(), target = adaptor.getTargets(),
          weights = adaptor.getWeights();
    auto targetType = cast<RankedTensorType>(target.getType());
    Type elt = cast<RankedTensorType>(pred.getType()).getElementType();
    auto lossType = RankedTensorType::get(targetType.getShape(), elt);
    int64_t rank = targetType.getRank();
    bool isUnsigned = isUnsignedInt(op.getTargets().getType());
    SmallVector<OpFoldResult> sizes = dimSizes(rewriter, loc, target);
    Value classes = getValueOrCreateConstantIndexOp(
        rewriter, loc, dimSizes(rewriter, loc, pred)[1]);
    Value ignore = arith::ConstantOp::create(
        rewriter, loc,
        rewriter.getIntegerAttr(targetType.getElementType(),
                                op.getIgnoreIndex()));
    Value zero = scalarConst(rewriter, loc, elt, 0.0);
    // weighted: -p * w (the loss) or w (the weight counted), 0 if ignored
    auto perElement = [&](bool loss) {
      return buildMap(
          rewriter, loc, lossType, sizes, ValueRange{target},
          {rewriter.getMultiDimIdentityMap(rank)},
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            Value t = args[0];
            Value counted = arith::CmpIOp::create(
                b, l, arith::CmpIPredicate::ne, t, ignore);
            Value ti =
                isUnsigned
                    ? arith::IndexCastUIOp::create(b, l, b.getIndexType(), t)
                          .getResult()
                    : arith::IndexCastOp::create(b, l, b.getIndexType(), t)
                          .getResult();
            Value c0 = arith::ConstantIndexOp::create(b, l, 0);
            Value last = arith::SubIOp::create(
                b, l, classes, arith::ConstantIndexOp::create(b, l, 1));
            ti = arith::MinSIOp::create(
                b, l, arith::MaxSIOp::create(b, l, ti, c0), last);
            Value w = tensor::ExtractOp::create(b, l, weights, ValueRange{ti});
            Value v = w;
            if (loss) {
              SmallVector<Value> at;
              for (int64_t d = 0; d < rank; ++d) {
                if (d == 1)
                  at.push_back(ti);
                at.push_back(linalg::IndexOp::create(b, l, d));
              }
              if (rank == 1)
                at.push_back(ti);
              Value p = tensor::ExtractOp::create(b, l, pred, at);
              v = arith::NegFOp::create(b, l,
                                        arith::MulFOp::create(b, l, p, w));
            }
            return arith::SelectOp::create(b, l, counted, v, zero);
          });
    };
    Value loss = perElement(true);
    StringRef reduction = op.getReduction();
    if (reduction == "none") {
      rewriter.replaceOp(op, loss);
      return success();
    }
    SmallVector<int64_t> all;
    for (int64_t d = 0; d < rank; ++d)
      all.push_back(d);
    Value total = buildSum(rewriter, loc, loss, all);
    if (reduction == "mean") {
      Value weightSum = buildSum(rewriter, loc, perElement(false), all);
      auto scalarType = RankedTensorType::get({}, elt);
      total =
          buildMap(rewriter, loc, scalarType, {}, ValueRange{total, weightSum},
                   {rewriter.getMultiDimIdentityMap(0),
                    rewriter.getMultiDimIdentityMap(0)},
                   [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                     return arith::DivFOp::create(b, l, args[0], args[1]);
                   });
    }
    rewriter.replaceOp(op, total);
    return success();
  }
};

} // namespace

void lowering::populateNNLossPatterns(const TypeConverter &tc,
                                      RewritePatternSet &patterns) {
  patterns
      .add<DilatePattern, CrossEntropyPattern<CrossEntropyOp, false>,
           CrossEntropyPattern<CrossEntropyWithLogitsOp, true>, NLLLossPattern>(
          tc, patterns.getContext());
}
