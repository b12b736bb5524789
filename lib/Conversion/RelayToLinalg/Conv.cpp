//===- Conv.cpp - nn.conv2d -----------------------------------------------===//
//
// One pattern per lowering strategy (benefits in Utils.h: the specialised
// im2col and tiled forms first, then named linalg convolutions, then the
// general grouped fallback, then a report of what is not supported):
//
// nn.conv2d (NCHW/OIHW or NHWC/HWIO|HWOI):
//   Conv2DDepthwiseConventionWeight  Relay's depthwise weight [C, M, ...]
//                        rewritten (relay level) to the grouped [C*M, 1, ...]
//   Conv2DKernelLayoutNormalize  other kernel layouts (OHWI, ...): the weight
//                        layout_transformed to OIHW (NCHW) or HWIO (NHWC)
//   Conv2DWinograd       NHWC/HWIO float32 or i8 x i8 -> i32 3x3 at stride
//                        1, static sizes, a constant kernel: Winograd
//                        F(4x4, 3x3) or F(2x2, 3x3), integers exactly in
//                        F(2x2, 3x3) (ConvWinograd.cpp)
//   Conv2DIm2colMatmul   NHWC/HWIO float, static kernel, static image
//                        size, small maps, kernels over 128 KB: im2col +
//                        linalg.matmul
//   Conv2DRunTimeImage   the same with a run-time image size: per call,
//                        large maps take a direct convolution over 8x8
//                        output tiles (static tile shapes), small maps
//                        im2col + linalg.matmul
//   Conv2DNhwcHwcf       groups = 1, NHWC: linalg.conv_2d_nhwc_hwcf
//   Conv2DNchwFchw       groups = 1, NCHW: linalg.conv_2d_nchw_fchw
//   Conv2DDepthwise      groups = C, O = C: depthwise_conv_2d_{nchw_chw,
//                        nhwc_hwc}; with a channel multiplier (NHWC):
//                        depthwise_conv_2d_nhwc_hwcm
//   Conv2DGrouped        any groups: conv_2d_ngchw_gfchw / nhwgc_gfhwc
// nn.conv1d / nn.conv3d: ConvND.cpp; nn.conv2d_transpose: ConvTranspose.cpp.
//
// A convolution may ask for "winograd", "im2col" or "direct" with the
// discardable attribute `relay.conv_strategy` (kStrategyAttr): the other
// strategies decline it and the asked one skips its cost checks.
//
// Padding is an explicit tensor.pad and every input is cropped to the rows
// its windows read (Window.h).
//
//===----------------------------------------------------------------------===//
#include "DynamicUtils.h"
#include "IREEOps.h"
#include "Window.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

//===----------------------------------------------------------------------===//
// nn.conv2d: one pattern per strategy
//===----------------------------------------------------------------------===//

/// Output pixels (N*OH*OW) up to which a static NHWC/HWIO convolution is
/// lowered as im2col + linalg.matmul. IREE 3.13's llvm-cpu codegen of
/// linalg.conv_2d_nhwc_hwcf is fast on large feature maps but re-reads the
/// weights per output tile on small ones: ResNet-18's 7x7x512 3x3 conv ran
/// at ~10 GFLOP/s, 2-3x slower than the same contraction as a matmul over
/// a patch matrix (which IREE data-tiles); on 56x56x64 the direct conv was
/// 2x faster than im2col (measured 2026-11-22, bench/RESULTS.md).
constexpr int64_t kIm2colMaxPixels = 256;

/// Kernels of at most this many bytes take the direct convolution at every
/// map size: im2col's fixed costs (a copy per tap, the patch matrix's
/// packing, their dispatches) outweigh a small contraction, and a small
/// kernel stays in cache while the direct form re-reads it. Measured in
/// whole models, one thread, against im2col (2026-12-07, bench/PARTIAL.md
/// session 32): the demo ResNet's 9-18 KB kernels 0.089 -> 0.077 ms, DQN's
/// 32 and 128 KB 0.289 -> 0.284 ms; ResNet-18's 0.5-4.5 MB kernels as direct
/// convolutions 21.2 -> 22.0 ms (the 128 KB one alone: no change). Outputs
/// bit-identical in all three.
constexpr int64_t kDirectMaxKernelBytes = 128 << 10;

/// Float input channels from which im2col copies the windows as one
/// strided slice per kernel tap (each pixel's C values one contiguous run
/// per tap) instead of a window-gathering linalg.generic over W and C
/// collapsed (runs of KW*C). Below a 64-byte cache line per pixel and tap
/// (an RGB stem: 3 floats) the slices would move runs too short to pay for
/// their copies.
constexpr int64_t kSlicedPatchMinFloatChannels = 16;

/// A convolution whose image size is known only at run time: IREE 3.13
/// vectorizes linalg.conv_2d_nhwc_hwcf only along static dims, and runs it
/// 5-10x slower than at a static size. Cut into kConvTile x kConvTile
/// output tiles (the windows' input tiles gathered into a batch), the
/// convolution has static spatial dims: 56x56x64 3x3 at static speed
/// (2.35 ms single-threaded against im2col's 4.0 and 1.99 static), the
/// 224x224 stem at 2.9 ms (im2col 3.7, static 2.1). Below
/// kTiledMinPixels output pixels per image (28x28 and smaller, where a
/// tile's padding is a larger share and the direct convolution re-reads
/// the weights per tile) im2col is as fast or faster; the choice is made
/// per call (measured 2026-11-29, docs/design.md).
constexpr int64_t kConvTile = 8;
constexpr int64_t kTiledMinPixels = 1024;

/// nn.conv2d's dims by role for the layouts the lowering takes: NCHW data
/// with an OIHW kernel, or NHWC data with an HWIO or HWOI kernel.
struct Conv2DLayout {
  bool nchw, hwio;
  int64_t hDim, wDim, cDim;         // data and result
  int64_t oDim, iDim, khDim, kwDim; // kernel
};

std::optional<Conv2DLayout> getConv2DLayout(Conv2DOp op) {
  StringRef data = op.getDataLayout(), kernel = op.getKernelLayout();
  if (data == "NCHW" && kernel == "OIHW")
    return Conv2DLayout{true, false, 2, 3, 1, 0, 1, 2, 3};
  if (data == "NHWC" && kernel == "HWIO")
    return Conv2DLayout{false, true, 1, 2, 3, 3, 2, 0, 1};
  if (data == "NHWC" && kernel == "HWOI")
    return Conv2DLayout{false, false, 1, 2, 3, 2, 3, 0, 1};
  return std::nullopt;
}

/// What every conv2d strategy starts from: the padded input cropped to the
/// rows the windows read, the sizes of input, kernel and result, and the
/// named-op attributes.
struct Conv2DOperands {
  Conv2DLayout layout;
  Value padded, weight;
  RankedTensorType weightType, resultType;
  SmallVector<OpFoldResult> inSizes, kSizes, outSizes;
  SmallVector<NamedAttribute> attrs;
  Value zero; // of the result element type
  bool isUnsigned;

  /// A zero-filled accumulator of `type`.
  Value init(OpBuilder &b, Location loc, RankedTensorType type,
             ArrayRef<OpFoldResult> sizes) const {
    return filledTensor(b, loc, type, sizes, zero);
  }
  /// The result of a named convolution `conv` (unsigned operands marked).
  Value result(Operation *conv) const {
    setUnsignedCast(conv, isUnsigned);
    return conv->getResult(0);
  }
};

Conv2DOperands buildConv2DOperands(Conv2DOp op, Conv2DOp::Adaptor adaptor,
                                   const Conv2DLayout &layout, OpBuilder &b) {
  Location loc = op.getLoc();
  Conv2DOperands c;
  c.layout = layout;
  c.weight = adaptor.getWeight();
  auto dataType = cast<RankedTensorType>(adaptor.getData().getType());
  c.weightType = cast<RankedTensorType>(c.weight.getType());
  c.resultType = resultTensorType(op);
  c.isUnsigned = isUnsignedInt(op.getData().getType());
  // Verified by the relation.
  SpatialPadding pad = *normalizePadding(op.getPadding(), 2);
  ArrayRef<int64_t> strides = op.getStrides(), dilation = op.getDilation();
  int64_t h = layout.hDim, w = layout.wDim;
  Value zeroIn = scalarConst(b, loc, dataType.getElementType(), 0.0);
  c.padded = padAndCropToWindows(b, loc, adaptor.getData(), {h, w}, pad, {},
                                 {c.weightType.getDimSize(layout.khDim),
                                  c.weightType.getDimSize(layout.kwDim)},
                                 strides, dilation, zeroIn);
  // IREE 3.13 loses the low padding of a pad fused into a convolution
  // whose window is 1x1 and shifts the result by it (padded 1x1 integer
  // convolutions, direct, depthwise and grouped: 25 of 176 cases wrong):
  // such a padding is a tensor of its own.
  if (c.weightType.getDimSize(layout.khDim) == 1 &&
      c.weightType.getDimSize(layout.kwDim) == 1)
    c.padded = paddedBehindBarrier(b, loc, c.padded);
  c.inSizes = dimSizes(b, loc, c.padded);
  c.kSizes = dimSizes(b, loc, c.weight);
  c.outSizes = resultSizes(b, c.resultType, [&](int64_t d) -> OpFoldResult {
    if (d == 0)
      return c.inSizes[0];
    if (d == layout.cDim)
      return c.kSizes[layout.oDim];
    int64_t i = d == h ? 0 : 1;
    return windowExtent(b, loc, c.inSizes[d],
                        c.kSizes[i == 0 ? layout.khDim : layout.kwDim],
                        strides[i], dilation[i], op->getName().getStringRef());
  });
  c.attrs = windowAttrs(b, strides, dilation);
  c.zero = scalarConst(b, loc, c.resultType.getElementType(), 0.0);
  return c;
}

/// The discardable attribute by which a convolution asks for a strategy
/// ("winograd", "im2col" or "direct"), whatever the cost rules below would
/// choose: how bench/strategies.py measures each strategy on a shape. A
/// strategy that cannot compute the convolution is a located error.
constexpr StringLiteral kStrategyAttr = "relay.conv_strategy";

/// The strategy `op` asks for, or "".
StringRef requestedStrategy(Conv2DOp op) {
  if (auto s = op->getAttrOfType<StringAttr>(kStrategyAttr))
    return s.getValue();
  return "";
}

/// Base of the conv2d strategies: reads the layout (rejecting others) and
/// leaves the strategy-specific checks and IR to `checkApplies`/`lower`.
struct Conv2DStrategy : OpConversionPattern<Conv2DOp> {
  using OpConversionPattern::OpConversionPattern;

  /// Why this strategy does not apply to `op` (in `layout`), or success.
  /// Checks of cost (sizes from which another strategy is faster) are
  /// skipped when `op` asks for this strategy (`requested`).
  virtual LogicalResult
  checkApplies(Conv2DOp op, OpAdaptor adaptor, const Conv2DLayout &layout,
               ConversionPatternRewriter &rewriter) const = 0;
  virtual Value lower(Conv2DOp op, const Conv2DOperands &c,
                      ConversionPatternRewriter &rewriter) const = 0;
  /// The name by which a convolution asks for this strategy
  /// (kStrategyAttr), or "" if none can.
  virtual StringRef name() const { return ""; }
  bool requested(Conv2DOp op) const {
    return !name().empty() && requestedStrategy(op) == name();
  }

  LogicalResult
  matchAndRewrite(Conv2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    std::optional<Conv2DLayout> layout = getConv2DLayout(op);
    if (!layout)
      return rewriter.notifyMatchFailure(op, "layouts not lowered");
    if (!requestedStrategy(op).empty() && !requested(op))
      return rewriter.notifyMatchFailure(op, "another strategy is asked for");
    if (failed(checkApplies(op, adaptor, *layout, rewriter)))
      return failure();
    Conv2DOperands c = buildConv2DOperands(op, adaptor, *layout, rewriter);
    rewriter.replaceOp(op, lower(op, c, rewriter));
    return success();
  }
};

/// A size as a static dim (`?` unless constant).
int64_t staticDim(OpFoldResult size) {
  return getConstantIntValue(size).value_or(ShapedType::kDynamic);
}

/// Whether the convolution is a plain matmul over the pixels (a 1x1 kernel
/// at stride 1: the patches are the input itself).
bool isPixelMatmul(Conv2DOp op) {
  auto weightType = cast<ShapedType>(op.getWeight().getType());
  ArrayRef<int64_t> strides = op.getStrides();
  return weightType.getDimSize(0) == 1 && weightType.getDimSize(1) == 1 &&
         strides[0] == 1 && strides[1] == 1;
}

/// The patch matrix [N*OH*OW, KH*KW*C] of a convolution (NHWC/HWIO, static
/// kernel) over the windows of `padded` (c.padded, or an extension of it at
/// the bottom and right) for the output pixels [N, OH, OW] `pixelSizes`
/// (known at run time or not): one strided slice per kernel tap,
/// concatenated, or, for floats with few channels, one linalg.generic copy
/// of the windows.
Value buildPatchRows(Conv2DOp op, const Conv2DOperands &c, Value padded,
                     ArrayRef<OpFoldResult> pixelSizes, OpBuilder &b) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  ArrayRef<int64_t> strides = op.getStrides(), dilation = op.getDilation();
  ArrayRef<int64_t> k = c.weightType.getShape();
  int64_t kh = k[0], kw = k[1], ch = k[2];
  int64_t n = staticDim(pixelSizes[0]), oh = staticDim(pixelSizes[1]),
          ow = staticDim(pixelSizes[2]);
  Type inElem = cast<RankedTensorType>(padded.getType()).getElementType();
  padded = cropToOutputWindows(b, loc, padded, {1, 2},
                               {pixelSizes[1], pixelSizes[2]}, {kh, kw},
                               strides, dilation);

  Value patches = padded;
  if (!isPixelMatmul(op) &&
      (isa<IntegerType>(inElem) || ch >= kSlicedPatchMinFloatChannels)) {
    // One strided slice [N, OH, OW, C] per kernel tap, concatenated along C
    // (same patch order). IREE 3.13 does not vectorize the window copy
    // below (its input map is not a permutation): on i8 that copy, fused
    // with the data-tiling pack of the patch matrix, ran at ~1.2 GB/s and
    // took 40% of ResNet-18 int8 (12.9 of 31.9 ms, one thread); as slices
    // and a concat the model took 23.5 ms instead of 33.5 (bench/QUANT.md,
    // 2026-12-06). Floats: DQN 0.91x, ResNet-18 0.98x (bench/PARTIAL.md,
    // session 25). Each tap's copy is an executable of its own (its offsets
    // are folded in); as run-time offsets (iree::runTimeOffset) the copies
    // of one convolution were one executable (demo ResNet 54 -> 38), but
    // the host time between dispatches grew by ~3 us per such dispatch
    // (IREE cannot record the command buffer once): 0.08 -> 0.13 ms.
    SmallVector<Value> taps;
    auto index = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
    for (int64_t i = 0; i < kh; ++i)
      for (int64_t j = 0; j < kw; ++j)
        taps.push_back(tensor::ExtractSliceOp::create(
            b, loc, padded,
            {index(0), index(i * dilation[0]), index(j * dilation[1]),
             index(0)},
            {pixelSizes[0], pixelSizes[1], pixelSizes[2], index(ch)},
            {index(1), index(strides[0]), index(strides[1]), index(1)}));
    patches = tensor::ConcatOp::create(b, loc, /*dim=*/3, taps);
  } else if (!isPixelMatmul(op) && dilation[1] == 1) {
    // A window row's KW*C values are one contiguous run of the input
    // row (W and C collapsed): the copy reads and writes runs of KW*C,
    // not of C (ResNet's 7x7 stem on RGB: runs of 21 floats, not 3). Same
    // patch order (kh, kw, c).
    AffineExpr dn, doh, dow, dkh, dj;
    bindDims(ctx, dn, doh, dow, dkh, dj);
    Value rowsIn = tensor::CollapseShapeOp::create(
        b, loc, padded, ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
    auto patchType = RankedTensorType::get({n, oh, ow, kh, kw * ch}, inElem);
    SmallVector<OpFoldResult> patchSizes(pixelSizes);
    patchSizes.push_back(b.getIndexAttr(kh));
    patchSizes.push_back(b.getIndexAttr(kw * ch));
    patches = buildMap(
        b, loc, patchType, patchSizes, rowsIn,
        {AffineMap::get(5, 0,
                        {dn, doh * strides[0] + dkh * dilation[0],
                         dow * (strides[1] * ch) + dj},
                        ctx)},
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
  } else if (!isPixelMatmul(op)) {
    AffineExpr dn, doh, dow, dkh, dkw, dc;
    bindDims(ctx, dn, doh, dow, dkh, dkw, dc);
    auto patchType = RankedTensorType::get({n, oh, ow, kh, kw, ch}, inElem);
    SmallVector<OpFoldResult> patchSizes(pixelSizes);
    for (int64_t d : {kh, kw, ch})
      patchSizes.push_back(b.getIndexAttr(d));
    patches = buildMap(
        b, loc, patchType, patchSizes, padded,
        {AffineMap::get(6, 0,
                        {dn, doh * strides[0] + dkh * dilation[0],
                         dow * strides[1] + dkw * dilation[1], dc},
                        ctx)},
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
  }
  bool staticPixels = !ShapedType::isDynamic(n) && !ShapedType::isDynamic(oh) &&
                      !ShapedType::isDynamic(ow);
  int64_t m = staticPixels ? n * oh * ow : ShapedType::kDynamic,
          kk = kh * kw * ch;
  int64_t patchRank = cast<RankedTensorType>(patches.getType()).getRank();
  ReassociationIndices rows = {0, 1, 2}, cols;
  for (int64_t d = 3; d < patchRank; ++d)
    cols.push_back(d);
  return tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({m, kk}, inElem), patches,
      ArrayRef<ReassociationIndices>{rows, cols});
}

/// `rows` (a patch matrix [M, KH*KW*C]) times the weight collapsed to
/// [KH*KW*C, O]: a linalg.matmul [M, O].
Value patchMatmul(const Conv2DOperands &c, Value rows, OpBuilder &b,
                  Location loc) {
  auto rowsType = cast<RankedTensorType>(rows.getType());
  int64_t kk = rowsType.getDimSize(1), o = c.weightType.getDimSize(3);
  Value rhs = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({kk, o}, c.weightType.getElementType()),
      c.weight, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
  Type elem = c.resultType.getElementType();
  auto mmType = RankedTensorType::get({rowsType.getDimSize(0), o}, elem);
  Value init =
      filledTensor(b, loc, mmType,
                   {tensor::getMixedSize(b, loc, rows, 0), b.getIndexAttr(o)},
                   scalarConst(b, loc, elem, 0.0));
  return linalg::MatmulOp::create(b, loc, TypeRange{mmType},
                                  ValueRange{rows, rhs}, ValueRange{init})
      .getResult(0);
}

/// The convolution over tiles of kConvTile x kConvTile output pixels
/// (`tiles` = [TH, TW] per image): each tile's input window
/// ((T-1)*stride + (K-1)*dilation + 1 rows and columns) is gathered into a
/// batch [N*TH*TW, HI, WI, C] (one linalg.generic copying runs of WI*C),
/// convolved by linalg.conv_2d_nhwc_hwcf with static spatial sizes, and
/// the tiles are put back in place: [N, TH*T, TW*T, O] (the caller crops).
/// `input` (c.padded extended at the bottom and right) has every tile's
/// window in range.
Value tiledDirectConv(Conv2DOp op, const Conv2DOperands &c, Value input,
                      ArrayRef<OpFoldResult> tiles, OpBuilder &b) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  ArrayRef<int64_t> strides = op.getStrides(), dilation = op.getDilation();
  ArrayRef<int64_t> k = c.weightType.getShape();
  int64_t kh = k[0], kw = k[1], ch = k[2], o = k[3];
  const int64_t t = kConvTile;
  int64_t tileIn[2] = {(t - 1) * strides[0] + (kh - 1) * dilation[0] + 1,
                       (t - 1) * strides[1] + (kw - 1) * dilation[1] + 1};
  Type inElem = cast<RankedTensorType>(input.getType()).getElementType();
  Type elem = c.resultType.getElementType();
  OpFoldResult n = c.outSizes[0];
  auto index = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };

  // the tiles' windows [N, TH, TW, HI, WI*C] (W and C collapsed: a window
  // row is one contiguous run), as a batch [N*TH*TW, HI, WI, C]
  AffineExpr dn, dth, dtw, di, dj;
  bindDims(ctx, dn, dth, dtw, di, dj);
  Value rowsIn = tensor::CollapseShapeOp::create(
      b, loc, input, ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
  auto windowType =
      RankedTensorType::get({staticDim(n), staticDim(tiles[0]),
                             staticDim(tiles[1]), tileIn[0], tileIn[1] * ch},
                            inElem);
  Value windows = buildMap(
      b, loc, windowType,
      {n, tiles[0], tiles[1], index(tileIn[0]), index(tileIn[1] * ch)}, rowsIn,
      {AffineMap::get(
          5, 0,
          {dn, dth * (t * strides[0]) + di, dtw * (t * strides[1] * ch) + dj},
          ctx)},
      [](OpBuilder &, Location, ValueRange args) { return args[0]; });
  OpFoldResult batch = product(b, loc, {n, tiles[0], tiles[1]});
  Value flat = tensor::CollapseShapeOp::create(
      b, loc, windows, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}, {4}});
  Value batched =
      expandTo(b, loc, flat,
               RankedTensorType::get(
                   {staticDim(batch), tileIn[0], tileIn[1], ch}, inElem),
               ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}},
               {batch, index(tileIn[0]), index(tileIn[1]), index(ch)});

  // every tile's convolution (static spatial sizes)
  auto convType = RankedTensorType::get({staticDim(batch), t, t, o}, elem);
  Value init = c.init(b, loc, convType, {batch, index(t), index(t), index(o)});
  Value conv = c.result(linalg::Conv2DNhwcHwcfOp::create(
      b, loc, TypeRange{convType}, ValueRange{batched, c.weight},
      ValueRange{init}, c.attrs));

  // tiles back in place: [N, TH, TW, T, T, O] -> [N, TH, T, TW, T, O]
  Value perTile =
      expandTo(b, loc, conv,
               RankedTensorType::get({staticDim(n), staticDim(tiles[0]),
                                      staticDim(tiles[1]), t, t, o},
                                     elem),
               ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}, {4}, {5}},
               {n, tiles[0], tiles[1], index(t), index(t), index(o)});
  Value placed = transposeDims(b, loc, perTile, {0, 1, 3, 2, 4, 5});
  return tensor::CollapseShapeOp::create(
      b, loc, placed, ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3, 4}, {5}});
}

/// What im2col and the tiled direct convolution need: groups = 1, NHWC
/// data, an HWIO kernel of static sizes, a float result.
LogicalResult checkStaticKernelNhwc(Conv2DOp op, Conv2DOp::Adaptor adaptor,
                                    const Conv2DLayout &l,
                                    ConversionPatternRewriter &rewriter) {
  if (op.getGroups() != 1)
    return rewriter.notifyMatchFailure(op, "groups > 1");
  if (l.nchw || !l.hwio)
    return rewriter.notifyMatchFailure(op, "needs NHWC data, HWIO kernel");
  auto dataType = cast<RankedTensorType>(adaptor.getData().getType());
  if (!cast<ShapedType>(adaptor.getWeight().getType()).hasStaticShape() ||
      dataType.isDynamicDim(l.cDim))
    return rewriter.notifyMatchFailure(op, "needs a static kernel");
  // integers as linalg.matmul/conv read them: signed (sign-extended)
  Type resultElem = resultTensorType(op).getElementType();
  bool signedIntegers = isa<IntegerType>(resultElem) &&
                        !isUnsignedInt(op.getData().getType()) &&
                        !isUnsignedInt(op.getWeight().getType());
  if (!isa<FloatType>(resultElem) && !signedIntegers)
    return rewriter.notifyMatchFailure(
        op, "needs a float result or signed integer operands");
  return success();
}

/// NHWC/HWIO float or signed integer convolutions with a static kernel: a
/// 1x1 kernel at stride 1 (a matmul over the pixels), an integer one with a
/// static image size, or a float one whose maps are small (<=
/// kIm2colMaxPixels output pixels, per image when the batch is known only
/// at run time) and whose kernel is not (> kDirectMaxKernelBytes): the
/// patch matmul.
struct Conv2DIm2colMatmul : Conv2DStrategy {
  Conv2DIm2colMatmul(const TypeConverter &tc, MLIRContext *ctx,
                     PatternBenefit benefit, const LoweringOptions &options)
      : Conv2DStrategy(tc, ctx, benefit), options(options) {}
  /// LoweringOptions::int8MatmulKernel: relay-vnni-matmul computes a direct
  /// i8 convolution without copying its patches (implicit im2col; channels
  /// padded to groups of 4); f32MatmulKernel: a direct f32 one likewise.
  LoweringOptions options;

  LogicalResult
  checkApplies(Conv2DOp op, OpAdaptor adaptor, const Conv2DLayout &l,
               ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticKernelNhwc(op, adaptor, l, rewriter)))
      return failure();
    RankedTensorType resultType = resultTensorType(op);
    auto dataType = cast<RankedTensorType>(adaptor.getData().getType());
    if (isPixelMatmul(op))
      return success();
    if (dataType.isDynamicDim(l.hDim) || dataType.isDynamicDim(l.wDim))
      return rewriter.notifyMatchFailure(
          op, "run-time image size (Conv2DRunTimeImage)");
    if (options.f32MatmulKernel && !requested(op) &&
        resultType.getElementType().isF32() &&
        dataType.getElementType().isF32() && dataType.hasStaticShape() &&
        matchPattern(adaptor.getWeight(), m_Constant()))
      return rewriter.notifyMatchFailure(
          op, "f32: the f32 kernel reads the direct convolution's windows in "
              "place");
    if (options.int8MatmulKernel && !requested(op) &&
        isa<IntegerType>(resultType.getElementType()) &&
        dataType.getElementType().isInteger(8) &&
        getElementTypeOrSelf(adaptor.getWeight().getType()).isInteger(8) &&
        dataType.hasStaticShape() &&
        matchPattern(adaptor.getWeight(), m_Constant()))
      return rewriter.notifyMatchFailure(
          op, "integer: the int8 kernel reads the direct convolution's "
              "windows in place (channels padded to groups of 4)");
    // Integer convolutions (int8 x int8 -> int32 from quantized models) take
    // the patch matmul at every size: IREE 3.13's direct integer convolution
    // runs ~2x slower than the float one, while its data-tiled i8 matmuls
    // of ResNet-18's patch shapes run 1.2-3.6x faster than f32
    // (bench/QUANT.md).
    if (isa<IntegerType>(resultType.getElementType()))
      return success();
    if (requested(op))
      return success();
    // a run-time batch: IREE's direct convolution is as fast as at a static
    // size (only the spatial dims need to be static), so the choice is made
    // on one image's pixels
    int64_t pixels =
        resultType.getDimSize(l.hDim) * resultType.getDimSize(l.wDim) *
        (resultType.isDynamicDim(0) ? 1 : resultType.getDimSize(0));
    if (pixels > kIm2colMaxPixels)
      return rewriter.notifyMatchFailure(
          op, "more output pixels than kIm2colMaxPixels (the direct "
              "convolution is faster)");
    auto weightType = cast<ShapedType>(adaptor.getWeight().getType());
    if (weightType.getNumElements() * weightType.getElementTypeBitWidth() / 8 <=
        kDirectMaxKernelBytes)
      return rewriter.notifyMatchFailure(
          op, "a kernel of at most kDirectMaxKernelBytes (the direct "
              "convolution is faster)");
    return success();
  }

  StringRef name() const override { return "im2col"; }
  Value lower(Conv2DOp op, const Conv2DOperands &c,
              ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    SmallVector<OpFoldResult> pixels(c.outSizes.begin(),
                                     c.outSizes.begin() + 3);
    Value mm =
        patchMatmul(c, buildPatchRows(op, c, c.padded, pixels, b), b, loc);
    return expandTo(b, loc, mm, c.resultType,
                    ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}}, c.outSizes);
  }
};

/// Input and output channels from which a 3x3 convolution is computed by
/// Winograd's algorithm: its transforms cost O(C + F) per tile, its
/// products save a share of O(C * F). One thread, 3x3 same-padded,
/// against the direct or im2col form: 28x28x16 -> 16 1.19x slower with
/// F(4x4), 14x14x32 -> 32 0.56x (2026-12-06).
constexpr int64_t kWinogradMinChannels = 32;

/// Multiply-adds of the direct form (output pixels x 9 x C x F) from which a
/// 3x3 convolution is computed by Winograd's algorithm: it is several
/// dispatches (input transform in groups of rows, products, output
/// transform) where the direct form is one, and on two threads each
/// hand-off between dispatches costs ~20 us, about what Winograd saves on a
/// convolution of this size. Measured in whole models (2 threads, one
/// process, interleaved; session 39): DQN with its 9x9x64 -> 64
/// convolution (1.8 M) direct 0.395 ms against 0.442 with Winograd (one
/// thread 0.462 / 0.472), resnet_demo's 8x8x32 -> 32 (0.6 M) 0.080 / 0.085
/// ms on one thread; ResNet's smallest (115 M) gain 25-55 %.
constexpr int64_t kWinogradMinMacs = 32 << 20;

/// The most bytes the transformed input and products (n*n*T*C and
/// n*n*T*F floats) of a whole convolution may take. winogradConv2D
/// computes those beyond 16 MB in chunks of about 4 MB (or the transformed
/// filter's size) whose intermediates stay in the last-level cache
/// (kWinogradChunkBytes, ConvWinograd.cpp), one unrolled copy of the
/// transforms and products each: this bounds the copies at about 32.
constexpr int64_t kWinogradMaxTransformBytes = 128 << 20;

/// F(4x4, 3x3) takes 36 multiplications per 16 outputs, F(2x2, 3x3) 16 per
/// 4, but its transformed filter is 36/16 larger. With fewer tiles than
/// kWinogradMinTiles (rows of the products) and a transformed filter
/// larger than kWinogradCachedFilterBytes, the products stream the filter
/// from memory for few rows and F(2x2) is the faster: 7x7x512 -> 512
/// F(2x2) 1.55 ms, F(4x4) 1.73, direct 2.83; 7x7x64 -> 64 (a filter in the
/// 2 MB L2) F(4x4) 0.026, F(2x2) 0.035 (one thread, 2026-12-06).
constexpr int64_t kWinogradMinTiles = 16;
constexpr int64_t kWinogradCachedFilterBytes = 2 << 20;

/// The Winograd output tile m (4 or 2) for a 3x3 convolution of `batch`
/// images of `oh` x `ow` outputs with `ch` input and `f` output channels
/// (floats of `bytes`), or 0 when its transforms exceed
/// kWinogradMaxTransformBytes.
int64_t winogradTile(int64_t batch, int64_t oh, int64_t ow, int64_t ch,
                     int64_t f, int64_t bytes) {
  auto tiles = [&](int64_t m) {
    return batch * llvm::divideCeil(oh, m) * llvm::divideCeil(ow, m);
  };
  // F(4x4) has the smaller transformed input and products of the two
  if (36 * tiles(4) * (ch + f) * bytes > kWinogradMaxTransformBytes)
    return 0;
  if (tiles(4) < kWinogradMinTiles &&
      36 * ch * f * bytes > kWinogradCachedFilterBytes)
    return 2;
  return 4;
}

/// Whether an i8 x i8 -> i32 convolution with the constant HWIO `weight`
/// has results 4x whose magnitude fits in i32 whatever its input: the
/// integer F(2x2, 3x3) computes 4x the convolution mod 2^32
/// (ConvWinograd.cpp). Per output channel, |result| <= 128 * sum |w|.
bool integerWinogradFits(DenseElementsAttr weight) {
  auto type = cast<RankedTensorType>(weight.getType());
  int64_t f = type.getDimSize(3);
  SmallVector<int64_t> sums(f, 0);
  int64_t k = 0;
  for (APInt w : weight.getValues<APInt>())
    sums[k++ % f] += std::abs(w.getSExtValue());
  int64_t most = *llvm::max_element(sums);
  return 4 * 128 * most < (int64_t(1) << 31);
}

/// NHWC/HWIO 3x3 convolutions at stride 1 without dilation, with a constant
/// kernel, a static image size and batch, at least kWinogradMinChannels in
/// and out, kWinogradMinMacs of work and transforms within
/// kWinogradMaxTransformBytes: Winograd
/// (winogradConv2D). Float32: F(4x4, 3x3) or F(2x2, 3x3) (winogradTile);
/// results differ from the direct form's by rounding: measured max error /
/// max |result| 5.7e-7 with F(2x2), 3e-6 to 5e-6 with F(4x4) (entries up to
/// 8 and fractions of 24), the direct form 5e-7 to 1.2e-6
/// (test_conv_winograd.py). i8 x i8 -> i32 (quantized models): F(2x2, 3x3)
/// in i16/i32, the direct form's exact result (integerWinogradFits).
struct Conv2DWinograd : Conv2DStrategy {
  Conv2DWinograd(const TypeConverter &tc, MLIRContext *ctx,
                 PatternBenefit benefit, bool int8MatmulKernel)
      : Conv2DStrategy(tc, ctx, benefit), int8MatmulKernel(int8MatmulKernel) {}
  /// LoweringOptions::int8MatmulKernel: our VNNI kernel computes the integer
  /// patch matmul faster than integer Winograd's i16 products (quantized
  /// ResNet-18 one thread: 11.1 ms against 13.5 with Winograd, session 33).
  bool int8MatmulKernel;

  LogicalResult
  checkApplies(Conv2DOp op, OpAdaptor adaptor, const Conv2DLayout &l,
               ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticKernelNhwc(op, adaptor, l, rewriter)))
      return failure();
    if (int8MatmulKernel && !requested(op) &&
        isInteger(op, resultTensorType(op)))
      return rewriter.notifyMatchFailure(
          op, "integer: the patch matmul runs on the int8 matmul kernel");
    auto weightType = cast<RankedTensorType>(adaptor.getWeight().getType());
    RankedTensorType resultType = resultTensorType(op);
    if (weightType.getDimSize(0) != 3 || weightType.getDimSize(1) != 3 ||
        llvm::any_of(op.getStrides(), [](int64_t s) { return s != 1; }) ||
        llvm::any_of(op.getDilation(), [](int64_t d) { return d != 1; }))
      return rewriter.notifyMatchFailure(op, "not 3x3 at stride 1");
    if (!resultType.getElementType().isF32() && !isInteger(op, resultType))
      return rewriter.notifyMatchFailure(op, "not float32 or i8 x i8 -> i32");
    if (!resultType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "run-time image size or batch");
    DenseElementsAttr weight;
    if (!matchPattern(adaptor.getWeight(), m_Constant(&weight)))
      return rewriter.notifyMatchFailure(
          op, "weight not a constant (its transform is folded)");
    if (!requested(op) && (weightType.getDimSize(2) < kWinogradMinChannels ||
                           weightType.getDimSize(3) < kWinogradMinChannels))
      return rewriter.notifyMatchFailure(op, "fewer channels than "
                                             "kWinogradMinChannels");
    if (!requested(op) &&
        resultType.getNumElements() * 9 * weightType.getDimSize(2) <
            kWinogradMinMacs)
      return rewriter.notifyMatchFailure(
          op, "fewer multiply-adds than kWinogradMinMacs");
    if (isInteger(op, resultType) && !integerWinogradFits(weight))
      return rewriter.notifyMatchFailure(
          op, "integer weights whose results could overflow i32 times 4");
    if (!tile(resultType, weightType))
      return rewriter.notifyMatchFailure(
          op, "transforms larger than kWinogradMaxTransformBytes");
    return success();
  }
  Value lower(Conv2DOp op, const Conv2DOperands &c,
              ConversionPatternRewriter &b) const override {
    DenseElementsAttr weight;
    matchPattern(c.weight, m_Constant(&weight)); // checked by checkApplies
    return winogradConv2D(b, op.getLoc(), c.padded, weight, c.resultType,
                          c.outSizes, tile(c.resultType, c.weightType));
  }
  StringRef name() const override { return "winograd"; }
  static bool isInteger(Conv2DOp op, RankedTensorType result) {
    return result.getElementType().isInteger(32) &&
           cast<ShapedType>(op.getData().getType())
               .getElementType()
               .isInteger(8) &&
           cast<ShapedType>(op.getWeight().getType())
               .getElementType()
               .isInteger(8);
  }
  static int64_t tile(RankedTensorType result, RankedTensorType weight) {
    ArrayRef<int64_t> r = result.getShape();
    int64_t ch = weight.getDimSize(2);
    if (isa<IntegerType>(result.getElementType())) // F(2x2) only, i16/i32
      return 16 * r[0] * llvm::divideCeil(r[1], 2) * llvm::divideCeil(r[2], 2) *
                         (ch + r[3]) * 4 >
                     kWinogradMaxTransformBytes
                 ? 0
                 : 2;
    return winogradTile(r[0], r[1], r[2], ch, r[3],
                        result.getElementTypeBitWidth() / 8);
  }
};

/// NHWC/HWIO float convolutions with a static kernel whose image size is
/// known only at run time (not 1x1 at stride 1): tiledDirectConv when an
/// image has at least kTiledMinPixels output pixels, else the patch matmul
/// (chosen per call).
struct Conv2DRunTimeImage : Conv2DStrategy {
  using Conv2DStrategy::Conv2DStrategy;
  LogicalResult
  checkApplies(Conv2DOp op, OpAdaptor adaptor, const Conv2DLayout &l,
               ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticKernelNhwc(op, adaptor, l, rewriter)))
      return failure();
    auto dataType = cast<RankedTensorType>(adaptor.getData().getType());
    if (!dataType.isDynamicDim(l.hDim) && !dataType.isDynamicDim(l.wDim))
      return rewriter.notifyMatchFailure(op, "static image size");
    if (isPixelMatmul(op))
      return rewriter.notifyMatchFailure(op, "a matmul over the pixels");
    return success();
  }

  Value lower(Conv2DOp op, const Conv2DOperands &c,
              ConversionPatternRewriter &b) const override {
    // Both forms, the one not taken sized to nothing (no control flow:
    // IREE 3.13 waits on the host at every scf.if, and packs a constant
    // weight at every call for a matmul inside one). Each writes a whole
    // canvas from its origin: [N, TH*T, TW*T] tiles or [N, OH, OW] patch
    // rows; the result is the canvas cropped to [N, OH, OW].
    Location loc = op.getLoc();
    MLIRContext *ctx = b.getContext();
    ArrayRef<int64_t> strides = op.getStrides();
    const int64_t t = kConvTile;
    OpFoldResult n = c.outSizes[0], oh = c.outSizes[1], ow = c.outSizes[2],
                 o = c.outSizes[3];
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value large = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::sge, product(b, loc, {oh, ow}),
        arith::ConstantIndexOp::create(b, loc, kTiledMinPixels));
    auto pick = [&](Value ifLarge, Value otherwise) -> OpFoldResult {
      return arith::SelectOp::create(b, loc, large, ifLarge, otherwise)
          .getResult();
    };
    AffineExpr s0;
    bindSymbols(ctx, s0);
    auto apply = [&](AffineExpr e, OpFoldResult v) {
      return getValueOrCreateConstantIndexOp(
          b, loc, affine::makeComposedFoldedAffineApply(b, loc, e, {v}));
    };
    // tiles per image and the rows/columns their windows read beyond
    // c.padded (all none for small maps)
    SmallVector<OpFoldResult> tiles, low(4, b.getIndexAttr(0)),
        high = low, canvas = {n, oh, ow, o};
    for (int64_t i : {0, 1}) {
      OpFoldResult extent = c.outSizes[1 + i];
      tiles.push_back(pick(apply(s0.ceilDiv(t), extent), zero));
      high[1 + i] =
          pick(apply((s0.ceilDiv(t) * t - s0) * strides[i], extent), zero);
      canvas[1 + i] = pick(apply(s0.ceilDiv(t) * t, extent),
                           getValueOrCreateConstantIndexOp(b, loc, extent));
    }
    Type inElem = cast<RankedTensorType>(c.padded.getType()).getElementType();
    Value input = tensor::PadOp::create(b, loc, Type(), c.padded, low, high,
                                        scalarConst(b, loc, inElem, 0.0));
    Value tiled = tiledDirectConv(op, c, input, tiles, b);

    // the patch rows of small maps
    OpFoldResult rows = pick(zero, getValueOrCreateConstantIndexOp(b, loc, oh));
    Value mm =
        patchMatmul(c, buildPatchRows(op, c, input, {n, rows, ow}, b), b, loc);
    Type elem = c.resultType.getElementType();
    auto typeOf = [&](ArrayRef<OpFoldResult> sizes) {
      return RankedTensorType::get(llvm::map_to_vector(sizes, staticDim), elem);
    };
    Value fromMatmul = expandTo(b, loc, mm, typeOf({n, rows, ow, o}),
                                ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}},
                                {n, rows, ow, o});

    SmallVector<OpFoldResult> origin(4, b.getIndexAttr(0)),
        ones(4, b.getIndexAttr(1));
    Value image = emptyTensor(b, loc, typeOf(canvas), canvas);
    image = insertSlice(b, loc, tiled, image, origin, dimSizes(b, loc, tiled),
                        ones);
    image =
        insertSlice(b, loc, fromMatmul, image, origin, {n, rows, ow, o}, ones);
    return tensor::ExtractSliceOp::create(b, loc, c.resultType, image, origin,
                                          c.outSizes, ones);
  }
};

/// The input of a direct (non-depthwise) float convolution. relay-mlir's
/// llvm-cpu flags let IREE fuse a tensor.pad into its consumer, which pays
/// for depthwise convolutions (they read their windows from the unpadded
/// input: MobileNetV2's padded copies go) but makes IREE 3.13's
/// conv_2d_nhwc_hwcf 1.14x slower on ResNet-18 (bench/PARTIAL.md, session
/// 23); behind a barrier the padded input is a tensor of its own, as
/// without the flag.
Value directConvInput(const Conv2DOperands &c, OpBuilder &b, Location loc) {
  if (!isa<FloatType>(
          cast<RankedTensorType>(c.padded.getType()).getElementType()))
    return c.padded;
  return paddedBehindBarrier(b, loc, c.padded);
}

/// groups = 1, NHWC: linalg.conv_2d_nhwc_hwcf (an HWOI kernel is
/// transposed to HWIO first; a padded float input behind a barrier,
/// directConvInput).
struct Conv2DNhwcHwcf : Conv2DStrategy {
  using Conv2DStrategy::Conv2DStrategy;
  LogicalResult
  checkApplies(Conv2DOp op, OpAdaptor, const Conv2DLayout &l,
               ConversionPatternRewriter &rewriter) const override {
    if (op.getGroups() != 1)
      return rewriter.notifyMatchFailure(op, "groups > 1");
    if (l.nchw)
      return rewriter.notifyMatchFailure(op, "needs NHWC data");
    return success();
  }
  StringRef name() const override { return "direct"; }
  Value lower(Conv2DOp op, const Conv2DOperands &c,
              ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    Value out = c.init(b, loc, c.resultType, c.outSizes);
    Value w = c.layout.hwio ? c.weight
                            : transposeDims(b, loc, c.weight, {0, 1, 3, 2});
    return c.result(linalg::Conv2DNhwcHwcfOp::create(
        b, loc, TypeRange{c.resultType},
        ValueRange{directConvInput(c, b, loc), w}, ValueRange{out}, c.attrs));
  }
};

/// groups = 1, NCHW: linalg.conv_2d_nchw_fchw (a padded float input behind
/// a barrier, directConvInput).
struct Conv2DNchwFchw : Conv2DStrategy {
  using Conv2DStrategy::Conv2DStrategy;
  LogicalResult
  checkApplies(Conv2DOp op, OpAdaptor, const Conv2DLayout &l,
               ConversionPatternRewriter &rewriter) const override {
    if (op.getGroups() != 1)
      return rewriter.notifyMatchFailure(op, "groups > 1");
    if (!l.nchw)
      return rewriter.notifyMatchFailure(op, "needs NCHW data");
    return success();
  }
  StringRef name() const override { return "direct"; }
  Value lower(Conv2DOp op, const Conv2DOperands &c,
              ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    Value out = c.init(b, loc, c.resultType, c.outSizes);
    return c.result(linalg::Conv2DNchwFchwOp::create(
        b, loc, TypeRange{c.resultType},
        ValueRange{directConvInput(c, b, loc), c.weight}, ValueRange{out},
        c.attrs));
  }
};

/// Depthwise (groups = C > 1, one input channel per group, static output
/// channels). `multiplier` false: O = C, linalg.depthwise_conv_2d_nchw_chw /
/// nhwc_hwc. `multiplier` true (NHWC only): O = C*M,
/// linalg.depthwise_conv_2d_nhwc_hwcm on [KH, KW, C, M].
template <bool multiplier> struct Conv2DDepthwise : Conv2DStrategy {
  using Conv2DStrategy::Conv2DStrategy;
  LogicalResult
  checkApplies(Conv2DOp op, OpAdaptor adaptor, const Conv2DLayout &l,
               ConversionPatternRewriter &rewriter) const override {
    auto dataType = cast<RankedTensorType>(adaptor.getData().getType());
    auto weightType = cast<RankedTensorType>(adaptor.getWeight().getType());
    int64_t groups = op.getGroups();
    int64_t channels = dataType.getDimSize(l.cDim);
    int64_t outChannels = weightType.getDimSize(l.oDim);
    if (groups == 1 || groups != channels)
      return rewriter.notifyMatchFailure(op, "groups is not C > 1");
    if (weightType.getDimSize(l.iDim) != 1)
      return rewriter.notifyMatchFailure(op, "kernel has I != 1");
    if (ShapedType::isDynamic(outChannels))
      return rewriter.notifyMatchFailure(op, "`?` output channels");
    if (!multiplier && outChannels != channels)
      return rewriter.notifyMatchFailure(op, "O != C (a multiplier)");
    if (multiplier && (l.nchw || outChannels == channels))
      return rewriter.notifyMatchFailure(op, "needs NHWC data and O != C");
    return success();
  }

  StringRef name() const override { return "direct"; }
  Value lower(Conv2DOp op, const Conv2DOperands &c,
              ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    const Conv2DLayout &l = c.layout;
    RankedTensorType wt = c.weightType, rt = c.resultType;
    int64_t outChannels = wt.getDimSize(l.oDim);
    int64_t kh = wt.getDimSize(l.khDim), kw = wt.getDimSize(l.kwDim);
    // Drop the unit I dim of the kernel.
    SmallVector<ReassociationIndices> dropI =
        l.nchw ? SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}}
               : SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}};
    auto wType =
        l.nchw
            ? RankedTensorType::get({outChannels, kh, kw}, wt.getElementType())
            : RankedTensorType::get({kh, kw, outChannels}, wt.getElementType());
    Value w = tensor::CollapseShapeOp::create(b, loc, wType, c.weight, dropI);
    if constexpr (!multiplier) {
      Value out = c.init(b, loc, rt, c.outSizes);
      if (l.nchw)
        return c.result(linalg::DepthwiseConv2DNchwChwOp::create(
            b, loc, TypeRange{rt}, ValueRange{c.padded, w}, ValueRange{out},
            c.attrs));
      return c.result(linalg::DepthwiseConv2DNhwcHwcOp::create(
          b, loc, TypeRange{rt}, ValueRange{c.padded, w}, ValueRange{out},
          c.attrs));
    } else {
      // [KH, KW, C*M] → [KH, KW, C, M]; the result [N, OH, OW, C, M].
      int64_t channels = op.getGroups(), mult = outChannels / channels;
      auto wmType =
          RankedTensorType::get({kh, kw, channels, mult}, wt.getElementType());
      Value wm = expandTo(b, loc, w, wmType, {{0}, {1}, {2, 3}},
                          {c.kSizes[l.khDim], c.kSizes[l.kwDim],
                           b.getIndexAttr(channels), b.getIndexAttr(mult)});
      auto outType = RankedTensorType::get({rt.getDimSize(0), rt.getDimSize(1),
                                            rt.getDimSize(2), channels, mult},
                                           rt.getElementType());
      Value out = c.init(b, loc, outType,
                         {c.outSizes[0], c.outSizes[1], c.outSizes[2],
                          b.getIndexAttr(channels), b.getIndexAttr(mult)});
      Value conv = c.result(linalg::DepthwiseConv2DNhwcHwcmOp::create(
          b, loc, TypeRange{outType}, ValueRange{c.padded, wm}, ValueRange{out},
          c.attrs));
      return tensor::CollapseShapeOp::create(
          b, loc, rt, conv,
          ArrayRef<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
    }
  }
};

/// The general fallback, any `groups`: C split into [G, C/G] and O into
/// [G, O/G], linalg.conv_2d_ngchw_gfchw (NCHW) or conv_2d_nhwgc_gfhwc
/// (NHWC; the kernel transposed to [G, O/G, KH, KW, I]).
struct Conv2DGrouped : Conv2DStrategy {
  using Conv2DStrategy::Conv2DStrategy;
  LogicalResult checkApplies(Conv2DOp, OpAdaptor, const Conv2DLayout &,
                             ConversionPatternRewriter &) const override {
    return success();
  }

  StringRef name() const override { return "direct"; }
  Value lower(Conv2DOp op, const Conv2DOperands &c,
              ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    const Conv2DLayout &l = c.layout;
    RankedTensorType wt = c.weightType, rt = c.resultType;
    int64_t groups = op.getGroups();
    Type inElem = cast<RankedTensorType>(c.padded.getType()).getElementType();
    Type wElem = wt.getElementType(), outElem = rt.getElementType();
    ArrayRef<int64_t> pShape =
        cast<RankedTensorType>(c.padded.getType()).getShape();
    int64_t fPerG = divDim(wt.getDimSize(l.oDim), groups);
    OpFoldResult fPerGSize = divSize(b, loc, c.kSizes[l.oDim], groups);
    OpFoldResult cPerGSize = divSize(b, loc, c.inSizes[l.cDim], groups);
    int64_t cPerG = divDim(pShape[l.cDim], groups);
    OpFoldResult g = b.getIndexAttr(groups);
    const SmallVector<OpFoldResult> &in = c.inSizes, &k = c.kSizes,
                                    &o = c.outSizes;
    if (l.nchw) {
      auto inType = RankedTensorType::get(
          {pShape[0], groups, cPerG, pShape[2], pShape[3]}, inElem);
      Value x = expandTo(b, loc, c.padded, inType, {{0}, {1, 2}, {3}, {4}},
                         {in[0], g, cPerGSize, in[2], in[3]});
      auto wType = RankedTensorType::get(
          {groups, fPerG, wt.getDimSize(1), wt.getDimSize(2), wt.getDimSize(3)},
          wElem);
      Value w = expandTo(b, loc, c.weight, wType, {{0, 1}, {2}, {3}, {4}},
                         {g, fPerGSize, k[1], k[2], k[3]});
      auto outType = RankedTensorType::get(
          {rt.getDimSize(0), groups, fPerG, rt.getDimSize(2), rt.getDimSize(3)},
          outElem);
      Value out = c.init(b, loc, outType, {o[0], g, fPerGSize, o[2], o[3]});
      Value conv = c.result(linalg::Conv2DNgchwGfchwOp::create(
          b, loc, TypeRange{outType}, ValueRange{x, w}, ValueRange{out},
          c.attrs));
      return tensor::CollapseShapeOp::create(
          b, loc, rt, conv,
          ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
    }
    auto inType = RankedTensorType::get(
        {pShape[0], pShape[1], pShape[2], groups, cPerG}, inElem);
    Value x = expandTo(b, loc, c.padded, inType, {{0}, {1}, {2}, {3, 4}},
                       {in[0], in[1], in[2], g, cPerGSize});
    // Kernel [KH, KW, I, O] (or [KH, KW, O, I]) → [G, F, KH, KW, I].
    int64_t kh = wt.getDimSize(0), kw = wt.getDimSize(1),
            ci = wt.getDimSize(l.iDim);
    auto splitType =
        l.hwio ? RankedTensorType::get({kh, kw, ci, groups, fPerG}, wElem)
               : RankedTensorType::get({kh, kw, groups, fPerG, ci}, wElem);
    Value split =
        l.hwio ? expandTo(b, loc, c.weight, splitType, {{0}, {1}, {2}, {3, 4}},
                          {k[0], k[1], k[2], g, fPerGSize})
               : expandTo(b, loc, c.weight, splitType, {{0}, {1}, {2, 3}, {4}},
                          {k[0], k[1], g, fPerGSize, k[3]});
    SmallVector<int64_t> perm = l.hwio ? SmallVector<int64_t>{3, 4, 0, 1, 2}
                                       : SmallVector<int64_t>{2, 3, 0, 1, 4};
    auto wType = RankedTensorType::get({groups, fPerG, kh, kw, ci}, wElem);
    Value w =
        linalg::TransposeOp::create(
            b, loc, split,
            emptyTensor(b, loc, wType, {g, fPerGSize, k[0], k[1], k[l.iDim]}),
            perm)
            .getResult()[0];
    auto outType = RankedTensorType::get(
        {rt.getDimSize(0), rt.getDimSize(1), rt.getDimSize(2), groups, fPerG},
        outElem);
    Value out = c.init(b, loc, outType, {o[0], o[1], o[2], g, fPerGSize});
    Value conv = c.result(linalg::Conv2DNhwgcGfhwcOp::create(
        b, loc, TypeRange{outType}, ValueRange{x, w}, ValueRange{out},
        c.attrs));
    return tensor::CollapseShapeOp::create(
        b, loc, rt, conv,
        ArrayRef<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
  }
};

std::string conv2DUnsupported(Conv2DOp op) {
  StringRef asked = requestedStrategy(op);
  if (!asked.empty())
    return ("nn.conv2d asks for " + kStrategyAttr + " \"" + asked +
            "\", which does not compute it (winograd: NHWC/HWIO 3x3 at "
            "stride 1 without dilation, a constant float32 or int8 kernel, "
            "static sizes; im2col: NHWC/HWIO, groups 1, a static kernel and "
            "image size; direct: NCHW/OIHW or NHWC/HWIO)")
        .str();
  return ("nn.conv2d with layouts " + op.getDataLayout() + "/" +
          op.getKernelLayout() +
          " (NCHW or NHWC data with a kernel layout of O, I, H, W are)")
      .str();
}

/// `op` with `weight` (laid out as `kernelLayout`) in place of its own, every
/// other attribute kept: what the relay-level weight rewrites below build.
Value withWeight(OpBuilder &b, Conv2DOp op, Value weight,
                 StringAttr kernelLayout) {
  auto conv = Conv2DOp::create(
      b, op.getLoc(), op.getData(), weight, op.getStridesAttr(),
      op.getPaddingAttr(), op.getDilationAttr(), op.getGroupsAttr(),
      op.getChannelsAttr(), op.getKernelSizeAttr(), op.getDataLayoutAttr(),
      kernelLayout, op.getOutLayoutAttr(), op.getOutDtypeAttr());
  if (Attribute asked = op->getAttr(kStrategyAttr))
    conv->setAttr(kStrategyAttr, asked);
  return conv;
}

/// Relay's depthwise weight convention (inferConv): with groups = input
/// channels C = weight out-channels and `channels` = C*M, M > 1, the weight
/// is [C, M, KH, KW] in OIHW order (TVM's TFLite importer writes HWOI
/// [KH, KW, C, M]). Output channel c*M + m reads weight[c, m]: the weight
/// is rewritten at the relay level into the grouped form [C*M, 1, KH, KW]
/// (a reshape in OIHW order, layout_transforms around it, folded for a
/// constant weight), which the strategies above lower.
struct Conv2DDepthwiseConventionWeight : OpConversionPattern<Conv2DOp> {
  using OpConversionPattern<Conv2DOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Conv2DOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<Conv2DLayout> l = getConv2DLayout(op);
    auto data = dyn_cast<RankedTensorType>(op.getData().getType());
    auto weight = dyn_cast<RankedTensorType>(op.getWeight().getType());
    if (!l || !data || !weight || !weight.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs a static weight");
    int64_t groups = op.getGroups(), c = data.getDimSize(l->cDim);
    int64_t o = weight.getDimSize(l->oDim), m = weight.getDimSize(l->iDim);
    if (groups == 1 || c != groups || o != groups || m == 1 ||
        op.getChannels() != std::optional<uint64_t>(c * m))
      return rewriter.notifyMatchFailure(op, "not the depthwise convention");
    Location loc = op.getLoc();
    auto str = [&](StringRef s) { return rewriter.getStringAttr(s); };
    Value w = LayoutTransformOp::create(rewriter, loc, op.getWeight(),
                                        op.getKernelLayoutAttr(), str("OIHW"));
    w = ReshapeOp::create(
        rewriter, loc, w,
        rewriter.getDenseI64ArrayAttr({c * m, 1, weight.getDimSize(l->khDim),
                                       weight.getDimSize(l->kwDim)}));
    w = LayoutTransformOp::create(rewriter, loc, w, str("OIHW"),
                                  op.getKernelLayoutAttr());
    rewriter.replaceOp(op,
                       withWeight(rewriter, op, w, op.getKernelLayoutAttr()));
    return success();
  }
};

/// A kernel layout the strategies do not take (OHWI, TFLite's; IHWO, ...;
/// any order of O, I, H, W): the weight is layout_transformed at the relay
/// level to the data layout's kernel (NCHW: OIHW, NHWC: HWIO; folded for a
/// constant weight).
struct Conv2DKernelLayoutNormalize : OpConversionPattern<Conv2DOp> {
  using OpConversionPattern<Conv2DOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Conv2DOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef data = op.getDataLayout(), kernel = op.getKernelLayout();
    if ((data != "NCHW" && data != "NHWC") || getConv2DLayout(op))
      return rewriter.notifyMatchFailure(op, "lowered as it is");
    StringRef target = data == "NCHW" ? "OIHW" : "HWIO";
    if (kernel.size() != 4 ||
        !llvm::all_of(target, [&](char c) { return kernel.count(c) == 1; }))
      return rewriter.notifyMatchFailure(op, "kernel layout not of O, I, H, W");
    Location loc = op.getLoc();
    auto str = [&](StringRef s) { return rewriter.getStringAttr(s); };
    Value w = LayoutTransformOp::create(rewriter, loc, op.getWeight(),
                                        op.getKernelLayoutAttr(), str(target));
    rewriter.replaceOp(op, withWeight(rewriter, op, w, str(target)));
    return success();
  }
};

} // namespace

void relay::populateConvToLinalgPatterns(const TypeConverter &tc,
                                         RewritePatternSet &patterns,
                                         const LoweringOptions &options) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<Conv2DDepthwiseConventionWeight, Conv2DKernelLayoutNormalize>(
      tc, ctx, kNormalizeBenefit);
  patterns.add<Conv2DWinograd>(tc, ctx, kFastAlgorithmBenefit,
                               options.int8MatmulKernel);
  patterns.add<Conv2DIm2colMatmul>(tc, ctx, kSpecialisedBenefit, options);
  patterns.add<Conv2DRunTimeImage>(tc, ctx, kSpecialisedBenefit);
  patterns.add<Conv2DNhwcHwcf, Conv2DNchwFchw, Conv2DDepthwise<false>,
               Conv2DDepthwise<true>>(tc, ctx, kNamedOpBenefit);
  patterns.add<Conv2DGrouped>(tc, ctx, kGeneralBenefit);
  patterns.add<ReportUnsupported<Conv2DOp>>(tc, ctx, conv2DUnsupported);
  populateConvNDPatterns(tc, patterns);
  populateConvTransposePatterns(tc, patterns);
  populateConvTransposeNDPatterns(tc, patterns);
  populateBlockedConvPatterns(tc, patterns);
}
