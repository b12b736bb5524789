//===- DynamicOps.cpp - dyn.strided_slice/tile/pad/one_hot/... to linalg --===//
//
// The dyn forms of slicing, tiling, padding and index operators. Their
// run-time operands are read on the host (tensor.extract of small integer
// tensors), turned into the sizes of the result and checked (a stride of 0,
// a negative size, more than 2^40 elements, an axis out of range are
// cf.assert failures naming the op's source); the data movement is the
// static op's (nn.pad, one_hot and topk share their builders with the
// static patterns) or one gather over the result (strided_slice, tile).
//
//===----------------------------------------------------------------------===//
#include "DynamicUtils.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

using Pred = arith::CmpIPredicate;

Value select(OpBuilder &b, Location loc, Value c, Value x, Value y) {
  return arith::SelectOp::create(b, loc, c, x, y);
}
Value add(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::AddIOp::create(b, loc, x, y);
}
Value sub(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::SubIOp::create(b, loc, x, y);
}
Value mul(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::MulIOp::create(b, loc, x, y);
}
Value maxi(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::MaxSIOp::create(b, loc, x, y);
}
Value mini(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::MinSIOp::create(b, loc, x, y);
}
Value andi(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::AndIOp::create(b, loc, x, y);
}
Value trueValue(OpBuilder &b, Location loc) {
  return b.createOrFold<arith::ConstantOp>(loc, b.getBoolAttr(true));
}
/// A run-time axis `a` of `bound` positions with Python's negative
/// indexing resolved, and whether it is in [0, bound).
std::pair<Value, Value> normalizedAxis(OpBuilder &b, Location loc, Value a,
                                       int64_t bound) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value n = arith::ConstantIndexOp::create(b, loc, bound);
  a = select(b, loc, arith::CmpIOp::create(b, loc, Pred::slt, a, zero),
             add(b, loc, a, n), a);
  Value inRange =
      andi(b, loc, arith::CmpIOp::create(b, loc, Pred::sge, a, zero),
           arith::CmpIOp::create(b, loc, Pred::slt, a, n));
  return {a, inRange};
}

Value sizeValue(OpBuilder &b, Location loc, OpFoldResult s) {
  return getValueOrCreateConstantIndexOp(b, loc, s);
}

/// One gather over the result (sizes `sizes`): each element reads `data` at
/// `indexOf(dataDim)` for every dim of `data` (built inside the
/// linalg.generic, where linalg.index gives the result position).
Value gather(OpBuilder &b, Location loc, Value data,
             RankedTensorType resultType, ArrayRef<OpFoldResult> sizes,
             function_ref<Value(OpBuilder &, Location, int64_t)> indexOf) {
  int64_t dataRank = cast<RankedTensorType>(data.getType()).getRank();
  return buildMap(b, loc, resultType, sizes, {}, {},
                  [&](OpBuilder &nb, Location l, ValueRange) -> Value {
                    SmallVector<Value> idx;
                    for (int64_t d = 0; d < dataRank; ++d)
                      idx.push_back(indexOf(nb, l, d));
                    return tensor::ExtractOp::create(nb, l, data, idx);
                  });
}

//===----------------------------------------------------------------------===//
// dyn.strided_slice
//===----------------------------------------------------------------------===//

/// The slice [begin:end:strides] of `data` in each dim (strided_slice's
/// clamping computed on the host: negative indices count from the end,
/// then clamp to [0, d] (stride > 0) or [-1, d - 1] (stride < 0)): dim a
/// takes `sizes[a]` indices `starts[a] + i * steps[a]`. `begin`/`end`
/// have k entries, `strides` k or one (for all k dims if
/// `oneStrideForAll`, else for the first: the others take 1); dims k.. are
/// whole.
struct SliceBounds {
  SmallVector<Value> starts, steps;
  SmallVector<OpFoldResult> sizes;
};

SliceBounds sliceBounds(OpBuilder &b, Location loc, Value data, Value beginT,
                        Value endT, Value stridesT, bool sizeMode,
                        bool oneStrideForAll, StringRef name) {
  int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
  int64_t k = cast<RankedTensorType>(beginT.getType()).getDimSize(0);
  int64_t ks = cast<RankedTensorType>(stridesT.getType()).getDimSize(0);
  SmallVector<OpFoldResult> inSizes = dimSizes(b, loc, data);
  Value zero = indexConst(b, loc, 0), one = indexConst(b, loc, 1),
        minusOne = indexConst(b, loc, -1),
        maxRange = indexConst(b, loc, std::numeric_limits<int64_t>::max());
  SliceBounds s;
  for (int64_t a = 0; a < rank; ++a) {
    if (a >= k) {
      s.starts.push_back(zero);
      s.steps.push_back(one);
      s.sizes.push_back(inSizes[a]);
      continue;
    }
    Value d = sizeValue(b, loc, inSizes[a]);
    Value begin = shapeEntry(b, loc, beginT, a);
    Value end = shapeEntry(b, loc, endT, a);
    Value stride = one;
    if (sizeMode)
      end = select(b, loc, cmp(b, loc, Pred::slt, end, zero), maxRange,
                   add(b, loc, begin, end));
    else if (a < ks || oneStrideForAll)
      stride = shapeEntry(b, loc, stridesT, ks == 1 ? 0 : a);
    runtimeCheck(b, loc, cmp(b, loc, Pred::ne, stride, zero), name,
                 "a stride is 0");
    Value negative = cmp(b, loc, Pred::slt, stride, zero);
    Value lo = select(b, loc, negative, minusOne, zero);
    Value hi = select(b, loc, negative, sub(b, loc, d, one), d);
    auto canonical = [&](Value i) {
      i = select(b, loc, cmp(b, loc, Pred::slt, i, zero), add(b, loc, i, d), i);
      return mini(b, loc, maxi(b, loc, i, lo), hi);
    };
    Value first = canonical(begin), last = canonical(end);
    // ceil((last - first) / stride), at least 0
    Value n =
        arith::CeilDivSIOp::create(b, loc, sub(b, loc, last, first), stride);
    s.starts.push_back(first);
    s.steps.push_back(stride);
    s.sizes.push_back(maxi(b, loc, n, zero));
  }
  return s;
}

/// Every dim a gathers index `start[a] + i * step[a]` (sliceBounds).
struct DynStridedSlicePattern : OpConversionPattern<DynStridedSliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynStridedSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    int64_t k =
        cast<RankedTensorType>(adaptor.getBegin().getType()).getDimSize(0);
    StringRef name = "relay.dyn.strided_slice";
    SliceBounds s = sliceBounds(b, loc, adaptor.getData(), adaptor.getBegin(),
                                adaptor.getEnd(), adaptor.getStrides(),
                                op.getSliceMode() == "size",
                                /*oneStrideForAll=*/true, name);
    SmallVector<OpFoldResult> sizes =
        checkedSizes(b, loc, resultType, s.sizes, name);
    Value result = gather(
        b, loc, adaptor.getData(), resultType, sizes,
        [&](OpBuilder &nb, Location l, int64_t a) -> Value {
          Value i = linalg::IndexOp::create(nb, l, a);
          return a < k ? add(nb, l, s.starts[a], mul(nb, l, i, s.steps[a])) : i;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// strided_set
//===----------------------------------------------------------------------===//

/// `v` (checked to have the slice's sizes, sliceBounds) written over the
/// slice of `data`: a tensor.insert_slice when the strides are constant and
/// positive (IREE updates in place where `data` dies; a loop-carried tensor
/// that IREE 3.13 packs into one buffer with other loop results is copied
/// per iteration all the same), else a linalg.generic over the result that
/// reads `v` where the index is in the slice (an index i of dim a is in it
/// if (i - start) is a multiple of the step in [0, size * step)).
struct StridedSetPattern : OpConversionPattern<StridedSetOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StridedSetOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Value data = adaptor.getData(), v = adaptor.getV();
    auto type = cast<RankedTensorType>(data.getType());
    int64_t rank = type.getRank();
    StringRef name = "relay.strided_set";
    SliceBounds s = sliceBounds(b, loc, data, adaptor.getBegin(),
                                adaptor.getEnd(), adaptor.getStrides(),
                                /*sizeMode=*/false,
                                /*oneStrideForAll=*/false, name);
    auto vType = cast<RankedTensorType>(v.getType());
    int64_t k =
        cast<RankedTensorType>(adaptor.getBegin().getType()).getDimSize(0);
    for (int64_t a = 0; a < rank; ++a)
      if (a < k || vType.isDynamicDim(a) || type.isDynamicDim(a))
        runtimeCheck(
            b, loc,
            cmp(b, loc, Pred::eq,
                tensor::DimOp::create(b, loc, v, a).getResult(),
                sizeValue(b, loc, s.sizes[a])),
            name,
            (Twine("v's dim ") + Twine(a) + " is not the size of the slice")
                .str());
    // constant positive strides: insert_slice
    DenseIntElementsAttr strides;
    if (matchPattern(adaptor.getStrides(), m_Constant(&strides)) &&
        llvm::all_of(strides.getValues<APInt>(),
                     [](const APInt &x) { return x.isStrictlyPositive(); })) {
      SmallVector<OpFoldResult> offsets, sizes, steps;
      SmallVector<int64_t> constStrides;
      for (const APInt &x : strides.getValues<APInt>())
        constStrides.push_back(x.getSExtValue());
      for (int64_t a = 0; a < rank; ++a) {
        offsets.push_back(a < k ? OpFoldResult(s.starts[a])
                                : OpFoldResult(b.getIndexAttr(0)));
        sizes.push_back(
            vType.isDynamicDim(a)
                ? OpFoldResult(tensor::DimOp::create(b, loc, v, a).getResult())
                : OpFoldResult(b.getIndexAttr(vType.getDimSize(a))));
        int64_t step = a < (int64_t)constStrides.size() ? constStrides[a] : 1;
        steps.push_back(b.getIndexAttr(step));
      }
      rewriter.replaceOp(op,
                         insertSlice(b, loc, v, data, offsets, sizes, steps));
      return success();
    }
    Value result = buildMap(
        b, loc, type, dimSizes(b, loc, data), {data},
        {b.getMultiDimIdentityMap(rank)},
        [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
          Value zero = indexConst(nb, l, 0);
          Value inside = trueValue(nb, l);
          SmallVector<Value> at;
          for (int64_t a = 0; a < rank; ++a) {
            Value i = linalg::IndexOp::create(nb, l, a);
            Value off = sub(nb, l, i, s.starts[a]);
            Value q = arith::DivSIOp::create(nb, l, off, s.steps[a]);
            Value exact = cmp(nb, l, Pred::eq, mul(nb, l, q, s.steps[a]), off);
            Value inRange =
                andi(nb, l, cmp(nb, l, Pred::sge, q, zero),
                     cmp(nb, l, Pred::slt, q, sizeValue(nb, l, s.sizes[a])));
            inside = andi(nb, l, inside, andi(nb, l, exact, inRange));
            at.push_back(q);
          }
          // (read v at a clamped index: q is out of range outside the slice)
          SmallVector<Value> safe;
          for (int64_t a = 0; a < rank; ++a) {
            Value hi =
                sub(nb, l, tensor::DimOp::create(nb, l, v, a).getResult(),
                    indexConst(nb, l, 1));
            safe.push_back(
                mini(nb, l, maxi(nb, l, at[a], zero), maxi(nb, l, hi, zero)));
          }
          Value fromV = tensor::ExtractOp::create(nb, l, v, safe);
          return arith::SelectOp::create(nb, l, inside, fromV, args[0]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// dyn.tile
//===----------------------------------------------------------------------===//

/// Result dim a is data dim a' (aligned right) times its repeat; the gather
/// reads index i mod the data dim.
struct DynTilePattern : OpConversionPattern<DynTileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynTileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Value data = adaptor.getData();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    int64_t rank = resultType.getRank();
    int64_t inRank = cast<RankedTensorType>(data.getType()).getRank();
    int64_t k =
        cast<RankedTensorType>(adaptor.getReps().getType()).getDimSize(0);
    StringRef name = "relay.dyn.tile";
    SmallVector<OpFoldResult> reps = shapeEntries(b, loc, adaptor.getReps(), k);
    checkRequestedShape(b, loc, reps, name);
    SmallVector<OpFoldResult> inSizes = dimSizes(b, loc, data);
    SmallVector<OpFoldResult> sizes;
    for (int64_t a = 0; a < rank; ++a) {
      int64_t di = a - (rank - inRank), ri = a - (rank - k);
      Value in =
          di < 0 ? indexConst(b, loc, 1) : sizeValue(b, loc, inSizes[di]);
      Value r = ri < 0 ? indexConst(b, loc, 1) : sizeValue(b, loc, reps[ri]);
      sizes.push_back(mul(b, loc, in, r));
    }
    checkRequestedShape(b, loc, sizes, name);
    sizes = checkedSizes(b, loc, resultType, sizes, name);
    Value result =
        gather(b, loc, data, resultType, sizes,
               [&](OpBuilder &nb, Location l, int64_t di) -> Value {
                 Value i = linalg::IndexOp::create(nb, l, di + (rank - inRank));
                 return arith::RemUIOp::create(nb, l, i,
                                               sizeValue(nb, l, inSizes[di]));
               });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// dyn.squeeze, dyn.expand_dims: a shape computed on the host, then a reshape
//===----------------------------------------------------------------------===//

struct DynSqueezePattern : OpConversionPattern<DynSqueezeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynSqueezeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Value data = adaptor.getData();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
    int64_t k =
        cast<RankedTensorType>(adaptor.getAxis().getType()).getDimSize(0);
    StringRef name = "relay.dyn.squeeze";
    Value zero = indexConst(b, loc, 0), one = indexConst(b, loc, 1);
    SmallVector<Value> axes;
    Value inRange = trueValue(b, loc);
    for (int64_t j = 0; j < k; ++j) {
      auto [a, ok] = normalizedAxis(
          b, loc, shapeEntry(b, loc, adaptor.getAxis(), j), rank);
      inRange = andi(b, loc, inRange, ok);
      axes.push_back(a);
    }
    runtimeCheck(b, loc, inRange, name, "an axis is out of range");
    SmallVector<OpFoldResult> inSizes = dimSizes(b, loc, data);
    // hits[d]: how often dim d is named; kept[d]: its position in the result
    SmallVector<Value> squeezed, position;
    Value ok = trueValue(b, loc), kept = zero;
    for (int64_t d = 0; d < rank; ++d) {
      Value hits = zero, dd = indexConst(b, loc, d);
      for (Value a : axes)
        hits = add(b, loc, hits,
                   select(b, loc, cmp(b, loc, Pred::eq, a, dd), one, zero));
      Value isSqueezed = cmp(b, loc, Pred::ne, hits, zero);
      ok = andi(b, loc, ok, cmp(b, loc, Pred::sle, hits, one));
      ok =
          andi(b, loc, ok,
               arith::OrIOp::create(
                   b, loc,
                   arith::XOrIOp::create(b, loc, isSqueezed, trueValue(b, loc)),
                   cmp(b, loc, Pred::eq, sizeValue(b, loc, inSizes[d]), one)));
      squeezed.push_back(isSqueezed);
      position.push_back(kept);
      kept = add(b, loc, kept, select(b, loc, isSqueezed, zero, one));
    }
    runtimeCheck(b, loc, ok, name,
                 "an axis is given twice or a squeezed dim is not 1");
    SmallVector<OpFoldResult> sizes;
    for (int64_t j = 0; j < rank - k; ++j) {
      Value size = zero, jj = indexConst(b, loc, j);
      for (int64_t d = 0; d < rank; ++d) {
        Value here =
            andi(b, loc,
                 arith::XOrIOp::create(b, loc, squeezed[d], trueValue(b, loc)),
                 cmp(b, loc, Pred::eq, position[d], jj));
        size = select(b, loc, here, sizeValue(b, loc, inSizes[d]), size);
      }
      sizes.push_back(size);
    }
    sizes = checkedSizes(b, loc, resultType, sizes, name);
    rewriter.replaceOp(op, reshapeToSizes(b, loc, data, resultType, sizes));
    return success();
  }
};

struct DynExpandDimsPattern : OpConversionPattern<DynExpandDimsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Value data = adaptor.getData();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
    int64_t n = op.getNumNewaxis();
    StringRef name = "relay.dyn.expand_dims";
    Value one = indexConst(b, loc, 1);
    auto [a, inRange] =
        normalizedAxis(b, loc, onlyEntry(b, loc, adaptor.getAxis()), rank + 1);
    runtimeCheck(b, loc, inRange, name, "axis is out of range");
    SmallVector<OpFoldResult> inSizes = dimSizes(b, loc, data);
    SmallVector<OpFoldResult> sizes;
    for (int64_t j = 0; j < rank + n; ++j) {
      // j < a: data dim j; a <= j < a + n: 1; else data dim j - n
      Value jj = indexConst(b, loc, j);
      Value before = j < rank ? sizeValue(b, loc, inSizes[j]) : one;
      Value after = j >= n ? sizeValue(b, loc, inSizes[j - n]) : one;
      Value size = select(b, loc, cmp(b, loc, Pred::slt, jj, a), before,
                          select(b, loc,
                                 cmp(b, loc, Pred::slt, jj,
                                     add(b, loc, a, indexConst(b, loc, n))),
                                 one, after));
      sizes.push_back(size);
    }
    sizes = checkedSizes(b, loc, resultType, sizes, name);
    rewriter.replaceOp(op, reshapeToSizes(b, loc, data, resultType, sizes));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// dyn.nn.pad, dyn.one_hot, dyn.topk: the static op's builder at run-time sizes
//===----------------------------------------------------------------------===//

struct DynPadPattern : OpConversionPattern<DynPadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynPadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Value data = adaptor.getData();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    int64_t rank = resultType.getRank();
    StringRef name = "relay.dyn.nn.pad";
    SmallVector<OpFoldResult> inSizes = dimSizes(b, loc, data);
    SmallVector<OpFoldResult> before, after, sizes;
    Value zero = indexConst(b, loc, 0);
    Value edgesOk = trueValue(b, loc);
    for (int64_t a = 0; a < rank; ++a) {
      auto width = [&](int64_t side) -> Value {
        Value v = tensor::ExtractOp::create(
            b, loc, adaptor.getPadWidth(),
            ValueRange{indexConst(b, loc, a), indexConst(b, loc, side)});
        return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
      };
      Value lo = width(0), hi = width(1), d = sizeValue(b, loc, inSizes[a]);
      before.push_back(lo);
      after.push_back(hi);
      sizes.push_back(add(b, loc, add(b, loc, d, lo), hi));
      // edge/reflect read the data: a padded dim must not be empty
      edgesOk = andi(
          b, loc, edgesOk,
          arith::OrIOp::create(b, loc, cmp(b, loc, Pred::sgt, d, zero),
                               andi(b, loc, cmp(b, loc, Pred::eq, lo, zero),
                                    cmp(b, loc, Pred::eq, hi, zero))));
    }
    checkRequestedShape(b, loc, sizes, name);
    if (op.getPadMode() != "constant")
      runtimeCheck(b, loc, edgesOk, name,
                   "edge or reflect padding of an empty dim");
    sizes = checkedSizes(b, loc, resultType, sizes, name);
    FailureOr<Value> result =
        buildPadded(b, loc, data, adaptor.getPadValue(), before, after,
                    op.getPadMode(), resultType, sizes, name);
    if (failed(result))
      return failure();
    rewriter.replaceOp(op, *result);
    return success();
  }
};

struct DynOneHotPattern : OpConversionPattern<DynOneHotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynOneHotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    int64_t axis = op.getAxis(); // (I64Attr getters return uint64_t)
    if (axis < 0)
      axis += resultType.getRank();
    StringRef name = "relay.dyn.one_hot";
    SmallVector<OpFoldResult> sizes =
        dimSizes(rewriter, loc, adaptor.getIndices());
    sizes.insert(sizes.begin() + axis,
                 onlyEntry(rewriter, loc, adaptor.getDepth()));
    checkRequestedShape(rewriter, loc, sizes, name);
    sizes = checkedSizes(rewriter, loc, resultType, sizes, name);
    rewriter.replaceOp(op,
                       buildOneHot(rewriter, loc, adaptor.getIndices(),
                                   isUnsignedInt(op.getIndices().getType()),
                                   adaptor.getOnValue(), adaptor.getOffValue(),
                                   axis, resultType, sizes));
    return success();
  }
};

struct DynTopKPattern : OpConversionPattern<DynTopKOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynTopKOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange dataLeaves = adaptor.getData(), kLeaves = adaptor.getK();
    if (dataLeaves.size() != 1 || kLeaves.size() != 1)
      return rewriter.notifyMatchFailure(op, "data or k is not one tensor");
    Value data = dataLeaves.front();
    int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
    int64_t axis = op.getAxis(); // (I64Attr getters return uint64_t)
    if (axis < 0)
      axis += rank;
    SmallVector<OpFoldResult> sizes = dimSizes(rewriter, loc, data);
    Value k = onlyEntry(rewriter, loc, kLeaves.front());
    runtimeCheck(
        rewriter, loc,
        andi(rewriter, loc,
             cmp(rewriter, loc, Pred::sge, k, indexConst(rewriter, loc, 0)),
             cmp(rewriter, loc, Pred::sle, k,
                 sizeValue(rewriter, loc, sizes[axis]))),
        "relay.dyn.topk", "k is not in [0, the axis size]");
    sizes[axis] = k;
    FailureOr<SmallVector<Value>> results = buildTopKResults(
        rewriter, loc, *getTypeConverter(), op.getType(), op.getRetType(), data,
        isUnsignedInt(op.getData().getType()), axis, op.getIsAscend(), sizes);
    if (failed(results))
      return failure();
    rewriter.replaceOpWithMultiple(op, {*results});
    return success();
  }
};

} // namespace

void lowering::populateDynamicOpsPatterns(const TypeConverter &tc,
                                          RewritePatternSet &patterns) {
  patterns.add<DynStridedSlicePattern, StridedSetPattern, DynTilePattern,
               DynSqueezePattern, DynExpandDimsPattern, DynPadPattern,
               DynOneHotPattern, DynTopKPattern>(tc, patterns.getContext());
}
