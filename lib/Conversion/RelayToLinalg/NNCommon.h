//===- NNCommon.h - helpers shared by the nn.* lowerings --------*- C++ -*-===//
//
// Private to convert-relay-to-linalg: window arithmetic, padding and result
// sizes used by NN.cpp, Conv.cpp, Pool.cpp, Norm.cpp and NNMisc.cpp, and
// the pattern sets of those files (added by populateNNPatterns).
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_LIB_CONVERSION_RELAYTOLINALG_NNCOMMON_H
#define RELAY_LIB_CONVERSION_RELAYTOLINALG_NNCOMMON_H

#include "Patterns.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

namespace mlir::relay::lowering::nn {

void populateConvPatterns(const TypeConverter &tc, RewritePatternSet &patterns);
void populatePoolPatterns(const TypeConverter &tc, RewritePatternSet &patterns);
void populateNormPatterns(const TypeConverter &tc, RewritePatternSet &patterns);
void populateNNMiscPatterns(const TypeConverter &tc,
                            RewritePatternSet &patterns);

/// Relay's 1-, 2- or 4-entry 2-D padding as [top, left, bottom, right].
inline SmallVector<int64_t, 4> padding4(ArrayRef<int64_t> padding) {
  if (padding.size() == 1)
    return {padding[0], padding[0], padding[0], padding[0]};
  if (padding.size() == 2)
    return {padding[0], padding[1], padding[0], padding[1]};
  if (padding.size() == 4)
    return SmallVector<int64_t, 4>(padding);
  return {0, 0, 0, 0};
}

/// Pads the spatial dims `hDim`, `wDim` of `input` with `value`.
inline Value pad2D(OpBuilder &b, Location loc, Value input, int64_t hDim,
            int64_t wDim, ArrayRef<int64_t> low, ArrayRef<int64_t> high,
            Value value) {
  if (llvm::all_of(low, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(high, [](int64_t p) { return p == 0; }))
    return input;
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<OpFoldResult> lo(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> hi(type.getRank(), b.getIndexAttr(0));
  lo[hDim] = b.getIndexAttr(low[0]);
  lo[wDim] = b.getIndexAttr(low[1]);
  hi[hDim] = b.getIndexAttr(high[0]);
  hi[wDim] = b.getIndexAttr(high[1]);
  return tensor::PadOp::create(b, loc, Type(), input, lo, hi, value);
}

/// `input` without the trailing rows no window reads: along each static
/// spatial dim `dims[i]` (extent `in`, window `kernel[i]` with `strides[i]`
/// and `dilation[i]`) only the first ((in - span) / stride) * stride + span
/// elements are used. linalg infers a convolution's input extent from its
/// output as exactly that, and IREE rejects the op once it folds unit dims
/// if the two disagree (e.g. a 3x3 stride-2 conv over a padded 4x4 map), so
/// every window op gets an input of the exact extent. Dynamic dims (and
/// dynamic windows, kernel[i] < 0) are left as they are.
inline Value cropToWindows(OpBuilder &b, Location loc, Value input,
                           ArrayRef<int64_t> dims, ArrayRef<int64_t> kernel,
                           ArrayRef<int64_t> strides,
                           ArrayRef<int64_t> dilation) {
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape(type.getShape());
  bool crop = false;
  for (auto [i, d] : llvm::enumerate(dims)) {
    int64_t in = shape[d];
    if (ShapedType::isDynamic(in) || kernel[i] < 0)
      continue;
    int64_t span = dilation[i] * (kernel[i] - 1) + 1;
    if (in < span)
      continue; // an empty output: nothing to make consistent
    int64_t used = (in - span) / strides[i] * strides[i] + span;
    crop |= used != in;
    shape[d] = used;
  }
  if (!crop)
    return input;
  SmallVector<OpFoldResult> offsets(shape.size(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes = dimSizes(b, loc, input);
  SmallVector<OpFoldResult> unit(shape.size(), b.getIndexAttr(1));
  for (int64_t d : dims)
    if (!ShapedType::isDynamic(shape[d]))
      sizes[d] = b.getIndexAttr(shape[d]);
  return tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), input,
      offsets, sizes, unit);
}

/// Output extent of a window (kernel `k`, stride, dilation) sliding over an
/// already padded extent `in`: (in - dilation*(k-1) - 1) / stride + 1.
inline OpFoldResult windowExtent(OpBuilder &b, Location loc, OpFoldResult in,
                          OpFoldResult k, int64_t stride, int64_t dilation) {
  auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Value inV = getValueOrCreateConstantIndexOp(b, loc, in);
  Value kV = getValueOrCreateConstantIndexOp(b, loc, k);
  Value span = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, arith::SubIOp::create(b, loc, kV, cst(1)), cst(dilation)),
      cst(1));
  Value q = arith::DivUIOp::create(b, loc, arith::SubIOp::create(b, loc, inV, span),
                                   cst(stride));
  return arith::AddIOp::create(b, loc, q, cst(1)).getResult();
}

/// Sizes of `resultType`: static dims as attributes, `?` dims from `fill`.
inline SmallVector<OpFoldResult>
resultSizes(OpBuilder &b, RankedTensorType resultType,
            function_ref<OpFoldResult(int64_t)> fill) {
  SmallVector<OpFoldResult> sizes;
  for (auto [d, dim] : llvm::enumerate(resultType.getShape()))
    sizes.push_back(ShapedType::isDynamic(dim) ? fill(d)
                                               : b.getIndexAttr(dim));
  return sizes;
}

inline RankedTensorType resultTensorType(Operation *op, unsigned i = 0) {
  return signlessTensorType(cast<RankedTensorType>(op->getResult(i).getType()));
}

inline NamedAttribute convAttr(OpBuilder &b, StringRef name, ArrayRef<int64_t> v) {
  return b.getNamedAttr(name, b.getI64TensorAttr(v));
}

/// `x` regrouped by `reassociation` into `type` (collapse or expand).
inline Value regroup(OpBuilder &b, Location loc, Value x, RankedTensorType type,
              ArrayRef<ReassociationIndices> reassociation,
              ArrayRef<OpFoldResult> sizes = {}) {
  if (type.getRank() < cast<RankedTensorType>(x.getType()).getRank())
    return tensor::CollapseShapeOp::create(b, loc, type, x, reassociation);
  return expandTo(b, loc, x, type, reassociation, sizes);
}

inline OpFoldResult divSize(OpBuilder &b, Location loc, OpFoldResult size,
                     int64_t by) {
  if (auto attr = getConstantIntValue(size))
    return b.getIndexAttr(*attr / by);
  return arith::DivUIOp::create(b, loc,
                                getValueOrCreateConstantIndexOp(b, loc, size),
                                arith::ConstantIndexOp::create(b, loc, by))
      .getResult();
}

inline int64_t divDim(int64_t dim, int64_t by) {
  return ShapedType::isDynamic(dim) ? dim : dim / by;
}

/// Elements of one window along one dim that Relay's average divides by
/// (topi's pool_impl_nd): the window [start, start+(k-1)d] clipped to
/// `last`, counting from the first non-padding element unless padding
/// counts.
inline Value windowCount(OpBuilder &b, Location loc, Value outIndex, int64_t k,
                  int64_t stride, int64_t dilation, int64_t padBefore,
                  Value last, bool countPad) {
  auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Value start = arith::SubIOp::create(
      b, loc, arith::MulIOp::create(b, loc, outIndex, cst(stride)),
      cst(padBefore));
  Value end = arith::MinSIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, start, cst((k - 1) * dilation)), last);
  Value first = start;
  if (!countPad) {
    // Skip the padded positions before the data: ceil(-start / d) windows.
    Value jumps = arith::MaxSIOp::create(
        b, loc,
        arith::DivSIOp::create(
            b, loc,
            arith::SubIOp::create(b, loc, cst(dilation - 1), start),
            cst(dilation)),
        cst(0));
    first = arith::AddIOp::create(
        b, loc, start, arith::MulIOp::create(b, loc, jumps, cst(dilation)));
  }
  return arith::AddIOp::create(
      b, loc,
      arith::DivSIOp::create(b, loc, arith::SubIOp::create(b, loc, end, first),
                             cst(dilation)),
      cst(1));
}


/// Relay's N-d padding (1, N or 2N entries) as (before, after) per spatial
/// dim.
inline std::pair<SmallVector<int64_t, 3>, SmallVector<int64_t, 3>>
paddingND(ArrayRef<int64_t> padding, size_t n) {
  SmallVector<int64_t, 3> lo(n, 0), hi(n, 0);
  if (padding.size() == 1) {
    lo.assign(n, padding[0]);
    hi.assign(n, padding[0]);
  } else if (padding.size() == n) {
    lo.assign(padding.begin(), padding.end());
    hi.assign(padding.begin(), padding.end());
  } else if (padding.size() == 2 * n) {
    lo.assign(padding.begin(), padding.begin() + n);
    hi.assign(padding.begin() + n, padding.end());
  }
  return {lo, hi};
}

/// Pads the dims `dims` of `input` by `low`/`high` with `value`
/// (tensor.pad; `input` itself when there is nothing to pad).
inline Value padDims(OpBuilder &b, Location loc, Value input,
                     ArrayRef<int64_t> dims, ArrayRef<int64_t> low,
                     ArrayRef<int64_t> high, Value value) {
  if (llvm::all_of(low, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(high, [](int64_t p) { return p == 0; }))
    return input;
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<OpFoldResult> lo(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> hi(type.getRank(), b.getIndexAttr(0));
  for (auto [i, d] : llvm::enumerate(dims)) {
    lo[d] = b.getIndexAttr(low[i]);
    hi[d] = b.getIndexAttr(high[i]);
  }
  return tensor::PadOp::create(b, loc, Type(), input, lo, hi, value);
}

/// `v` converted to the scalar type `to` (float extension/truncation,
/// integer extension/truncation, int<->float) for accumulation.
inline Value convertScalar(OpBuilder &b, Location loc, Value v, Type to,
                           bool isUnsigned) {
  Type from = v.getType();
  if (from == to)
    return v;
  if (isa<FloatType>(from) && isa<FloatType>(to))
    return from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth()
               ? arith::ExtFOp::create(b, loc, to, v).getResult()
               : arith::TruncFOp::create(b, loc, to, v).getResult();
  if (isa<IntegerType>(from) && isa<IntegerType>(to)) {
    if (from.getIntOrFloatBitWidth() > to.getIntOrFloatBitWidth())
      return arith::TruncIOp::create(b, loc, to, v);
    return isUnsigned ? arith::ExtUIOp::create(b, loc, to, v).getResult()
                      : arith::ExtSIOp::create(b, loc, to, v).getResult();
  }
  if (isa<IntegerType>(from))
    return isUnsigned ? arith::UIToFPOp::create(b, loc, to, v).getResult()
                      : arith::SIToFPOp::create(b, loc, to, v).getResult();
  return isUnsigned ? arith::FPToUIOp::create(b, loc, to, v).getResult()
                    : arith::FPToSIOp::create(b, loc, to, v).getResult();
}

/// acc + a * w in the type of `acc`.
inline Value mulAcc(OpBuilder &b, Location loc, Value a, Value w, Value acc,
                    bool isUnsigned) {
  Type t = acc.getType();
  a = convertScalar(b, loc, a, t, isUnsigned);
  w = convertScalar(b, loc, w, t, isUnsigned);
  if (isa<FloatType>(t))
    return arith::AddFOp::create(b, loc, acc,
                                 arith::MulFOp::create(b, loc, a, w));
  return arith::AddIOp::create(b, loc, acc, arith::MulIOp::create(b, loc, a, w));
}

} // namespace mlir::relay::lowering::nn

#endif // RELAY_LIB_CONVERSION_RELAYTOLINALG_NNCOMMON_H
