//===- ConvND.cpp - nn.conv1d, nn.conv3d ----------------------------------===//
//
// One pattern per strategy: named linalg convolutions (groups = 1),
// depthwise, and a grouped linalg.generic over [N, G, C/G, ...]
// (channel-first only; groupedConvGeneric, shared with conv2d_transpose).
// Padding is an explicit tensor.pad and every input is cropped to the rows
// its windows read (Window.h).
//
//===----------------------------------------------------------------------===//
#include "DynamicUtils.h"
#include "Window.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

/// An N-d grouped convolution in channel-first layout as a linalg.generic:
/// in [N, G, C/G, S...], w [G, F/G, C/G, K...], out [N, G, F/G, O...].
Value lowering::groupedConvGeneric(OpBuilder &b, Location loc, Value in,
                                   Value w, Value out,
                                   ArrayRef<int64_t> strides,
                                   ArrayRef<int64_t> dilation,
                                   bool isUnsigned) {
  MLIRContext *ctx = b.getContext();
  int64_t n = strides.size();
  // Dims: n, g, f, o_0..o_{n-1} (parallel), c, k_0..k_{n-1} (reduction).
  int64_t numDims = 4 + 2 * n;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> inExprs = {d(0), d(1), d(3 + n)};
  SmallVector<AffineExpr> wExprs = {d(1), d(2), d(3 + n)};
  SmallVector<AffineExpr> outExprs = {d(0), d(1), d(2)};
  for (int64_t i = 0; i < n; ++i) {
    inExprs.push_back(d(3 + i) * strides[i] + d(4 + n + i) * dilation[i]);
    wExprs.push_back(d(4 + n + i));
    outExprs.push_back(d(3 + i));
  }
  SmallVector<utils::IteratorType> iters(3 + n, utils::IteratorType::parallel);
  iters.append(1 + n, utils::IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{out.getType()}, ValueRange{in, w}, ValueRange{out},
      ArrayRef<AffineMap>{AffineMap::get(numDims, 0, inExprs, ctx),
                          AffineMap::get(numDims, 0, wExprs, ctx),
                          AffineMap::get(numDims, 0, outExprs, ctx)},
      iters, [&](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(
            nb, l, mulAcc(nb, l, args[0], args[1], args[2], isUnsigned));
      });
  return generic.getResult(0);
}

namespace {

//===----------------------------------------------------------------------===//
// nn.conv1d / nn.conv3d: one pattern per strategy
//===----------------------------------------------------------------------===//

/// Channel-first (NCW/OIW, NCDHW/OIDHW) or channel-last (NWC/WIO,
/// NDHWC/DHWIO) layouts of an N-d convolution with the output in the data
/// layout; nullopt (not lowered) otherwise.
template <typename OpTy, int N>
std::optional<bool> getConvNDChannelFirst(OpTy op) {
  StringRef dl = op.getDataLayout(), kl = op.getKernelLayout(),
            ol = op.getOutLayout();
  if (!ol.empty() && ol != dl)
    return std::nullopt;
  if (N == 1 ? (dl == "NCW" && kl == "OIW") : (dl == "NCDHW" && kl == "OIDHW"))
    return true;
  if (N == 1 ? (dl == "NWC" && kl == "WIO") : (dl == "NDHWC" && kl == "DHWIO"))
    return false;
  return std::nullopt;
}

/// What every conv1d/conv3d strategy starts from (as Conv2DOperands).
struct ConvNDOperands {
  bool cf;
  int64_t cDim, oDim, iDim;
  SmallVector<int64_t, 3> spatial, kSpatial;
  Value padded, weight;
  RankedTensorType dataType, weightType, resultType;
  SmallVector<OpFoldResult> inSizes, kSizes, outSizes;
  SmallVector<NamedAttribute> attrs;
  Value zero;
  bool isUnsigned;

  template <typename NamedOp>
  Value named(OpBuilder &b, Location loc, Value in, Value w, Value out) const {
    auto conv = NamedOp::create(b, loc, TypeRange{out.getType()},
                                ValueRange{in, w}, ValueRange{out}, attrs);
    setUnsignedCast(conv, isUnsigned);
    return conv->getResult(0);
  }
};

template <typename OpTy, int N>
ConvNDOperands buildConvNDOperands(OpTy op, typename OpTy::Adaptor adaptor,
                                   bool cf, OpBuilder &b) {
  Location loc = op.getLoc();
  ConvNDOperands c;
  c.cf = cf;
  c.weight = adaptor.getWeight();
  c.dataType = cast<RankedTensorType>(adaptor.getData().getType());
  c.weightType = cast<RankedTensorType>(c.weight.getType());
  c.resultType = resultTensorType(op);
  c.isUnsigned = isUnsignedInt(elementTypeOf(op.getData().getType()));
  c.cDim = cf ? 1 : N + 1;
  c.oDim = cf ? 0 : N + 1;
  c.iDim = cf ? 1 : N;
  for (int64_t i = 0; i < N; ++i) {
    c.spatial.push_back(cf ? 2 + i : 1 + i);
    c.kSpatial.push_back(cf ? 2 + i : i);
  }
  // Verified by the relation.
  SpatialPadding pad = *normalizePadding(op.getPadding(), N);
  Value zeroIn = scalarConst(b, loc, c.dataType.getElementType(), 0.0);
  ArrayRef<int64_t> strides = op.getStrides(), dilation = op.getDilation();
  SmallVector<int64_t, 3> kExtent;
  for (int64_t d : c.kSpatial)
    kExtent.push_back(c.weightType.getDimSize(d));
  c.padded = padAndCropToWindows(b, loc, adaptor.getData(), c.spatial, pad, {},
                                 kExtent, strides, dilation, zeroIn);
  c.inSizes = dimSizes(b, loc, c.padded);
  c.kSizes = dimSizes(b, loc, c.weight);
  c.outSizes = resultSizes(b, c.resultType, [&](int64_t d) -> OpFoldResult {
    if (d == 0)
      return c.inSizes[0];
    if (d == c.cDim)
      return c.kSizes[c.oDim];
    int64_t i = llvm::find(c.spatial, d) - c.spatial.begin();
    return windowExtent(b, loc, c.inSizes[d], c.kSizes[c.kSpatial[i]],
                        strides[i], dilation[i], op->getName().getStringRef());
  });
  c.attrs = windowAttrs(b, strides, dilation);
  c.zero = scalarConst(b, loc, c.resultType.getElementType(), 0.0);
  return c;
}

enum class ConvNDStrategy { Named, Depthwise, GroupedGeneric };

/// conv1d/conv3d by strategy:
/// - Named (groups = 1): linalg.conv_1d_ncw_fcw / nwc_wcf,
///   conv_3d_ncdhw_fcdhw / ndhwc_dhwcf.
/// - Depthwise (groups = C = O > 1, I = 1): the depthwise_conv_1d/3d forms
///   on the kernel without its unit I dim.
/// - GroupedGeneric (channel-first, any groups): groupedConvGeneric over
///   the input split into [N, G, C/G, ...].
template <typename OpTy, int N, ConvNDStrategy S>
struct ConvNDPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<bool> cf = getConvNDChannelFirst<OpTy, N>(op);
    if (!cf)
      return rewriter.notifyMatchFailure(op, "layouts not lowered");
    int64_t groups = op.getGroups();
    if (S == ConvNDStrategy::Named && groups != 1)
      return rewriter.notifyMatchFailure(op, "groups > 1");
    if (S == ConvNDStrategy::Depthwise) {
      auto dataType = cast<RankedTensorType>(adaptor.getData().getType());
      auto weightType = cast<RankedTensorType>(adaptor.getWeight().getType());
      int64_t cDim = *cf ? 1 : N + 1, oDim = *cf ? 0 : N + 1,
              iDim = *cf ? 1 : N;
      if (groups == 1 || groups != dataType.getDimSize(cDim) ||
          groups != weightType.getDimSize(oDim) ||
          weightType.getDimSize(iDim) != 1)
        return rewriter.notifyMatchFailure(
            op, "not depthwise (groups = C = O > 1, I = 1)");
    }
    if (S == ConvNDStrategy::GroupedGeneric && !*cf)
      return rewriter.notifyMatchFailure(op, "needs channel-first layouts");

    Location loc = op.getLoc();
    ConvNDOperands c = buildConvNDOperands<OpTy, N>(op, adaptor, *cf, rewriter);
    Value result;
    if constexpr (S == ConvNDStrategy::Named) {
      Value out = filledTensor(rewriter, loc, c.resultType, c.outSizes, c.zero);
      if constexpr (N == 1)
        result = *cf ? c.named<linalg::Conv1DNcwFcwOp>(rewriter, loc, c.padded,
                                                       c.weight, out)
                     : c.named<linalg::Conv1DNwcWcfOp>(rewriter, loc, c.padded,
                                                       c.weight, out);
      else
        result = *cf ? c.named<linalg::Conv3DNcdhwFcdhwOp>(
                           rewriter, loc, c.padded, c.weight, out)
                     : c.named<linalg::Conv3DNdhwcDhwcfOp>(
                           rewriter, loc, c.padded, c.weight, out);
    } else if constexpr (S == ConvNDStrategy::Depthwise) {
      result = depthwise(rewriter, loc, c);
    } else {
      result =
          grouped(rewriter, loc, c, groups, op.getStrides(), op.getDilation());
    }
    rewriter.replaceOp(op, result);
    return success();
  }

  static Value depthwise(OpBuilder &b, Location loc, const ConvNDOperands &c) {
    // Drop the unit I dim of the kernel; it joins its neighbour: O for
    // OI.. (channel-first), O for ..IO (channel-last).
    SmallVector<ReassociationIndices> dropI;
    SmallVector<int64_t> wShape;
    for (int64_t d = 0; d < N + 2; ++d) {
      if (d == c.iDim)
        continue;
      wShape.push_back(c.weightType.getDimSize(d));
      dropI.push_back({d});
    }
    if (c.cf)
      dropI[0] = {0, 1};
    else
      dropI.back() = {N, N + 1};
    auto wType = RankedTensorType::get(wShape, c.weightType.getElementType());
    Value w = tensor::CollapseShapeOp::create(b, loc, wType, c.weight, dropI);
    Value out = filledTensor(b, loc, c.resultType, c.outSizes, c.zero);
    if constexpr (N == 1)
      return c.cf ? c.named<linalg::DepthwiseConv1DNcwCwOp>(b, loc, c.padded, w,
                                                            out)
                  : c.named<linalg::DepthwiseConv1DNwcWcOp>(b, loc, c.padded, w,
                                                            out);
    else
      return c.cf
                 ? c.named<linalg::DepthwiseConv3DNcdhwCdhwOp>(b, loc, c.padded,
                                                               w, out)
                 : c.named<linalg::DepthwiseConv3DNdhwcDhwcOp>(b, loc, c.padded,
                                                               w, out);
  }

  static Value grouped(OpBuilder &b, Location loc, const ConvNDOperands &c,
                       int64_t groups, ArrayRef<int64_t> strides,
                       ArrayRef<int64_t> dilation) {
    // C → [G, C/G], O → [G, O/G].
    ArrayRef<int64_t> pShape =
        cast<RankedTensorType>(c.padded.getType()).getShape();
    RankedTensorType rt = c.resultType, wt = c.weightType;
    OpFoldResult g = b.getIndexAttr(groups);
    int64_t outChannels = wt.getDimSize(c.oDim);
    SmallVector<int64_t> inShape = {pShape[0], groups,
                                    divDim(pShape[1], groups)};
    SmallVector<OpFoldResult> inS = {c.inSizes[0], g,
                                     divSize(b, loc, c.inSizes[1], groups)};
    SmallVector<int64_t> wShape = {groups, divDim(outChannels, groups),
                                   wt.getDimSize(1)};
    SmallVector<OpFoldResult> wS = {g, divSize(b, loc, c.kSizes[0], groups),
                                    c.kSizes[1]};
    SmallVector<int64_t> oShape = {rt.getDimSize(0), groups,
                                   divDim(rt.getDimSize(1), groups)};
    SmallVector<OpFoldResult> oS = {c.outSizes[0], g,
                                    divSize(b, loc, c.outSizes[1], groups)};
    SmallVector<ReassociationIndices> inRe = {{0}, {1, 2}}, wRe = {{0, 1}, {2}};
    for (int64_t i = 0; i < N; ++i) {
      inShape.push_back(pShape[2 + i]);
      inS.push_back(c.inSizes[2 + i]);
      wShape.push_back(wt.getDimSize(2 + i));
      wS.push_back(c.kSizes[2 + i]);
      oShape.push_back(rt.getDimSize(2 + i));
      oS.push_back(c.outSizes[2 + i]);
      inRe.push_back({3 + i});
      wRe.push_back({3 + i});
    }
    Value in = expandTo(
        b, loc, c.padded,
        RankedTensorType::get(inShape, c.dataType.getElementType()), inRe, inS);
    Value w =
        expandTo(b, loc, c.weight,
                 RankedTensorType::get(wShape, wt.getElementType()), wRe, wS);
    auto outType = RankedTensorType::get(oShape, rt.getElementType());
    Value out = filledTensor(b, loc, outType, oS, c.zero);
    Value conv =
        groupedConvGeneric(b, loc, in, w, out, strides, dilation, c.isUnsigned);
    return tensor::CollapseShapeOp::create(b, loc, rt, conv, inRe);
  }
};

template <typename OpTy, int N> std::string convNDUnsupported(OpTy op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  StringRef dl = op.getDataLayout();
  if (getConvNDChannelFirst<OpTy, N>(op))
    os << "grouped " << op->getName() << " in layout " << dl
       << " (groups > 1 needs the channel-first layout unless depthwise)";
  else
    os << op->getName() << " with layouts " << dl << "/" << op.getKernelLayout()
       << (N == 1 ? " (NCW/OIW and NWC/WIO are)"
                  : " (NCDHW/OIDHW and NDHWC/DHWIO are)");
  return s;
}

} // namespace

void lowering::populateConvNDPatterns(const TypeConverter &tc,
                                      RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  using S = ConvNDStrategy;
  patterns.add<ConvNDPattern<Conv1DOp, 1, S::Named>,
               ConvNDPattern<Conv1DOp, 1, S::Depthwise>,
               ConvNDPattern<Conv3DOp, 3, S::Named>,
               ConvNDPattern<Conv3DOp, 3, S::Depthwise>>(tc, ctx,
                                                         kNamedOpBenefit);
  patterns.add<ConvNDPattern<Conv1DOp, 1, S::GroupedGeneric>,
               ConvNDPattern<Conv3DOp, 3, S::GroupedGeneric>>(tc, ctx,
                                                              kGeneralBenefit);
  patterns.add<ReportUnsupported<Conv1DOp>>(tc, ctx,
                                            convNDUnsupported<Conv1DOp, 1>);
  patterns.add<ReportUnsupported<Conv3DOp>>(tc, ctx,
                                            convNDUnsupported<Conv3DOp, 3>);
}
