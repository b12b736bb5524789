//===- Dynamic.cpp - shape_of, ndarray_size and dyn.* to tensor/linalg ----===//
//
// Shapes computed at run time: shape entries are read with tensor.extract
// and become the dynamic sizes of tensor.empty / tensor.expand_shape.
// Requests that do not fit the data (a reshape changing the element count,
// a broadcast of a dim that is neither 1 nor the target) fail at run time
// with cf.assert, never silently.
//
//===----------------------------------------------------------------------===//
#include "DynamicUtils.h"
#include "SymbolicSizes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

Value lowering::indexConst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// Entry `i` of the 1-d integer tensor `shape`, as an index.
Value lowering::shapeEntry(OpBuilder &b, Location loc, Value shape, int64_t i) {
  // a shape value built from index values (shape_of, concatenate, ...: the
  // shape-value patterns below) gives them back, so that a size copied from
  // a dim is seen to be that dim
  Value v = shape;
  int64_t at = i;
  auto constantEntry = [&](Value t, int64_t k) -> std::optional<int64_t> {
    DenseIntElementsAttr values;
    if (!matchPattern(t, m_Constant(&values)) || k >= values.getNumElements())
      return std::nullopt;
    return (*(values.value_begin<APInt>() + k)).getSExtValue();
  };
  if (std::optional<int64_t> c = constantEntry(v, at))
    return indexConst(b, loc, *c);
  while (auto elements = v.getDefiningOp<tensor::FromElementsOp>()) {
    if (at >= (int64_t)elements.getElements().size())
      break;
    Value e = elements.getElements()[at];
    APInt c;
    if (matchPattern(e, m_ConstantInt(&c)))
      return indexConst(b, loc, c.getSExtValue());
    if (auto cast = e.getDefiningOp<arith::IndexCastOp>()) {
      if (cast.getIn().getType().isIndex())
        return cast.getIn();
      break;
    }
    // an entry of another shape value: follow it
    auto extract = e.getDefiningOp<tensor::ExtractOp>();
    std::optional<int64_t> next =
        extract && extract.getIndices().size() == 1
            ? getConstantIntValue(extract.getIndices()[0])
            : std::nullopt;
    if (!next)
      break;
    v = extract.getTensor();
    at = *next;
    if (std::optional<int64_t> c = constantEntry(v, at))
      return indexConst(b, loc, *c);
  }
  Value entry = tensor::ExtractOp::create(b, loc, shape,
                                          ValueRange{indexConst(b, loc, i)});
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), entry);
}

/// All entries of a shape operand of static length `n`.
SmallVector<OpFoldResult> lowering::shapeEntries(OpBuilder &b, Location loc,
                                                 Value shape, int64_t n) {
  SmallVector<OpFoldResult> sizes;
  for (int64_t i = 0; i < n; ++i)
    sizes.push_back(shapeEntry(b, loc, shape, i));
  return sizes;
}

Value lowering::product(OpBuilder &b, Location loc,
                        ArrayRef<OpFoldResult> sizes) {
  Value p = indexConst(b, loc, 1);
  for (OpFoldResult s : sizes)
    p = arith::MulIOp::create(b, loc, p,
                              getValueOrCreateConstantIndexOp(b, loc, s));
  return p;
}

Value lowering::cmp(OpBuilder &b, Location loc, arith::CmpIPredicate pred,
                    Value x, Value y) {
  return arith::CmpIOp::create(b, loc, pred, x, y);
}

/// The sizes of a result of type `type` from the run-time `sizes`: a static
/// dim of the type (known at compile time from the shape's constant part)
/// is used as a constant, after checking at run time that the entry holds
/// it; dynamic dims keep the run-time value.
SmallVector<OpFoldResult> lowering::checkedSizes(OpBuilder &b, Location loc,
                                                 RankedTensorType type,
                                                 ArrayRef<OpFoldResult> sizes,
                                                 StringRef opName) {
  SmallVector<OpFoldResult> out;
  for (auto [i, s] : llvm::enumerate(sizes)) {
    if (type.isDynamicDim(i)) {
      out.push_back(s);
      continue;
    }
    int64_t want = type.getDimSize(i);
    std::optional<int64_t> known = getConstantIntValue(s);
    if (!known || *known != want) {
      Value v = getValueOrCreateConstantIndexOp(b, loc, s);
      cf::AssertOp::create(
          b, loc,
          cmp(b, loc, arith::CmpIPredicate::eq, v, indexConst(b, loc, want)),
          (Twine(opName) + ": shape entry " + Twine(i) + " is not " +
           Twine(want) + ", the size its type was given at compile time" +
           sourceSuffix(loc))
              .str());
    }
    out.push_back(b.getIndexAttr(want));
  }
  return out;
}

/// Run-time checks of a requested shape: no entry is negative and the
/// element count stays at most 2^40 (an absurd request is an error, never
/// a huge allocation).
void lowering::checkRequestedShape(OpBuilder &b, Location loc,
                                   ArrayRef<OpFoldResult> sizes,
                                   StringRef opName) {
  constexpr int64_t kMaxElements = int64_t(1) << 40;
  Value ok = b.createOrFold<arith::ConstantOp>(loc, b.getBoolAttr(true));
  Value count = indexConst(b, loc, 1), zero = indexConst(b, loc, 0);
  bool anyDynamic = false;
  for (OpFoldResult s : sizes) {
    if (getConstantIntValue(s))
      continue;
    anyDynamic = true;
    Value v = getValueOrCreateConstantIndexOp(b, loc, s);
    ok = arith::AndIOp::create(b, loc, ok,
                               cmp(b, loc, arith::CmpIPredicate::sge, v, zero));
  }
  if (!anyDynamic)
    return;
  // count * v <= max  <=>  v == 0 || count <= max / v (count stays <= max)
  for (OpFoldResult s : sizes) {
    Value v = getValueOrCreateConstantIndexOp(b, loc, s);
    Value safe = arith::SelectOp::create(
        b, loc, cmp(b, loc, arith::CmpIPredicate::sle, v, zero),
        indexConst(b, loc, 1), v);
    Value fits = cmp(
        b, loc, arith::CmpIPredicate::sle, count,
        arith::DivSIOp::create(b, loc, indexConst(b, loc, kMaxElements), safe));
    ok = arith::AndIOp::create(b, loc, ok, fits);
    count = arith::MulIOp::create(
        b, loc,
        arith::MinSIOp::create(b, loc, count, indexConst(b, loc, kMaxElements)),
        arith::MaxSIOp::create(b, loc, v, zero));
    count =
        arith::MinSIOp::create(b, loc, count, indexConst(b, loc, kMaxElements));
  }
  cf::AssertOp::create(
      b, loc, ok,
      (Twine(opName) +
       ": a shape entry is negative or the shape has more than 2^40 "
       "elements" +
       sourceSuffix(loc))
          .str());
}

Value lowering::onlyEntry(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<Value> idx(type.getRank(), indexConst(b, loc, 0));
  Value e = tensor::ExtractOp::create(b, loc, v, idx);
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), e);
}

void lowering::runtimeCheck(OpBuilder &b, Location loc, Value ok,
                            StringRef opName, StringRef what) {
  cf::AssertOp::create(b, loc, ok,
                       (Twine(opName) + ": " + what + sourceSuffix(loc)).str());
}

void lowering::checkSameSize(OpBuilder &b, Location loc, Value x, int64_t i,
                             Value y, int64_t j, StringRef opName,
                             StringRef what) {
  auto xt = cast<RankedTensorType>(x.getType()),
       yt = cast<RankedTensorType>(y.getType());
  if ((!xt.isDynamicDim(i) && !yt.isDynamicDim(j)) ||
      provablyEqualDims(x, i, y, j))
    return;
  Value eq =
      cmp(b, loc, arith::CmpIPredicate::eq, tensor::DimOp::create(b, loc, x, i),
          tensor::DimOp::create(b, loc, y, j));
  runtimeCheck(b, loc, eq, opName, what);
}

Value lowering::checkOneOrSame(OpBuilder &b, Location loc, Value size,
                               Value target, StringRef opName,
                               const Twine &what) {
  Value isOne =
      cmp(b, loc, arith::CmpIPredicate::eq, size, indexConst(b, loc, 1));
  runtimeCheck(
      b, loc,
      arith::OrIOp::create(b, loc, isOne,
                           cmp(b, loc, arith::CmpIPredicate::eq, size, target)),
      opName, what.str());
  return isOne;
}

Value lowering::extractBroadcast(OpBuilder &b, Location loc, Value v,
                                 ArrayRef<Value> isOne,
                                 ArrayRef<int64_t> outShape) {
  auto type = cast<RankedTensorType>(v.getType());
  int64_t offset = outShape.size() - type.getRank();
  Value zero = indexConst(b, loc, 0);
  SmallVector<Value> at;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    int64_t d = offset + i;
    Value idx = linalg::IndexOp::create(b, loc, d);
    if (i < (int64_t)isOne.size() && isOne[i])
      idx = arith::SelectOp::create(b, loc, isOne[i], zero, idx);
    else if (type.getDimSize(i) == 1 && outShape[d] != 1)
      idx = zero;
    at.push_back(idx);
  }
  return tensor::ExtractOp::create(b, loc, v, at);
}

Value lowering::reshapeToSizes(OpBuilder &b, Location loc, Value data,
                               RankedTensorType resultType,
                               ArrayRef<OpFoldResult> outSizes) {
  if (std::optional<Value> regrouped =
          symbolicRegroup(b, loc, data, resultType, outSizes))
    return *regrouped;
  // the same shape but for one dynamic dim at the same place (and no zero
  // dim): the element counts agree (checked by the caller), so that dim
  // does too and nothing moves. The result's dims are `outSizes` (a unit
  // dim added by expand_shape and collapsed again: metadata only), so that
  // they are provably the sizes asked for (SymbolicSizes.h; e.g. an ONNX
  // input given another input's size of the same dim name).
  auto srcType = cast<RankedTensorType>(data.getType());
  if (srcType.getRank() == resultType.getRank() &&
      llvm::count_if(srcType.getShape(), ShapedType::isDynamic) == 1 &&
      llvm::all_of(
          llvm::zip(srcType.getShape(), resultType.getShape()), [](auto dims) {
            auto [s, d] = dims;
            return (ShapedType::isDynamic(s) && ShapedType::isDynamic(d)) ||
                   (s == d && s != 0);
          }))
    return withSizes(b, loc, castTo(b, loc, data, resultType), outSizes);
  auto inType = cast<RankedTensorType>(data.getType());
  int64_t inRank = inType.getRank(), rank = resultType.getRank();
  Type elt = resultType.getElementType();
  // to 1-d
  Value flat = data;
  if (inRank == 0) {
    flat =
        tensor::ExpandShapeOp::create(b, loc, RankedTensorType::get({1}, elt),
                                      data, ArrayRef<ReassociationIndices>{});
  } else if (inRank > 1) {
    ReassociationIndices all;
    for (int64_t d = 0; d < inRank; ++d)
      all.push_back(d);
    int64_t n = inType.hasStaticShape() ? inType.getNumElements()
                                        : ShapedType::kDynamic;
    flat = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({n}, elt), data,
        ArrayRef<ReassociationIndices>{all});
  }
  Value result;
  if (rank == 0) {
    flat = castTo(b, loc, flat, RankedTensorType::get({1}, elt));
    result = tensor::CollapseShapeOp::create(b, loc, resultType, flat,
                                             ArrayRef<ReassociationIndices>{});
  } else if (rank == 1) {
    result = castTo(b, loc, flat, resultType);
  } else {
    ReassociationIndices all;
    for (int64_t d = 0; d < rank; ++d)
      all.push_back(d);
    flat = castTo(b, loc, flat,
                  RankedTensorType::get({ShapedType::kDynamic}, elt));
    // (a result whose dims are all known casts the input to its count)
    result = expandTo(b, loc, flat, resultType,
                      ArrayRef<ReassociationIndices>{all}, outSizes);
  }
  return result;
}

namespace {

/// A 1-d (or 0-d if `values` is empty) tensor of `type` holding `values`
/// (index values cast to its element type).
Value fromIndices(OpBuilder &b, Location loc, RankedTensorType type,
                  ArrayRef<Value> values) {
  // `type` may say `?` where the values fix the length (a declared
  // `tensor<?xi64>` shape_of): build the exact type, then cast.
  auto exact = RankedTensorType::get(
      type.getRank() == 0 ? ArrayRef<int64_t>{}
                          : ArrayRef<int64_t>{(int64_t)values.size()},
      type.getElementType());
  Value result;
  if (exact.getNumElements() == 0) {
    result = tensor::EmptyOp::create(b, loc, exact.getShape(),
                                     exact.getElementType());
  } else {
    SmallVector<Value> elements;
    for (Value v : values)
      elements.push_back(
          arith::IndexCastOp::create(b, loc, exact.getElementType(), v));
    result = tensor::FromElementsOp::create(b, loc, exact, elements);
  }
  return exact == type ? result : tensor::CastOp::create(b, loc, type, result);
}

struct ShapeOfPattern : OpConversionPattern<ShapeOfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ShapeOfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> dims;
    for (OpFoldResult s : dimSizes(rewriter, loc, adaptor.getData()))
      dims.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, s));
    rewriter.replaceOp(
        op,
        fromIndices(rewriter, loc,
                    signlessTensorType(cast<RankedTensorType>(op.getType())),
                    dims));
    return success();
  }
};

struct NdarraySizePattern : OpConversionPattern<NdarraySizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(NdarraySizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value n =
        product(rewriter, loc, dimSizes(rewriter, loc, adaptor.getData()));
    rewriter.replaceOp(
        op, fromIndices(
                rewriter, loc,
                signlessTensorType(cast<RankedTensorType>(op.getType())), {n}));
    return success();
  }
};

/// Whether `v` is a product of dims and positive constants (so never -1).
static bool isProductOfDims(Value v) {
  std::optional<SymbolicSize> sym = symbolicSize(v);
  return sym &&
         llvm::all_of(sym->dims, [](const auto &d) { return d.second >= 0; });
}

/// dyn.reshape: the requested dims (0 copies the input dim unless
/// `allowzero`, one -1 takes the remaining elements), checked to hold the
/// input's element count, then collapse to 1-d and expand to the result.
/// dyn.reshape's newshape read entry by entry: the requested sizes (a `0`
/// entry replaced by the input's dim unless allowzero), and the facts the
/// checks need: the product of the non-(-1) entries, how many are -1,
/// whether one is negative otherwise; and the one entry that is -1 at
/// compile time when every other entry is a size (a constant or a product
/// of dims, never -1): its size is then `total / known`, which the
/// reshape's symbolic regrouping can read.
struct NewShape {
  Value zero, one, minusOne; // index constants
  SmallVector<Value> req;
  Value known, wildcards, negative;
  int64_t wildAt = -1;
  bool othersAreSizes = true;
};

NewShape readNewShape(OpBuilder &rewriter, Location loc, DynReshapeOp op,
                      Value data, Value newshape,
                      ArrayRef<OpFoldResult> inSizes, int64_t rank) {
  int64_t inRank = cast<RankedTensorType>(data.getType()).getRank();
  NewShape s;
  s.zero = indexConst(rewriter, loc, 0);
  s.one = indexConst(rewriter, loc, 1);
  s.minusOne = indexConst(rewriter, loc, -1);
  Value zero = s.zero, one = s.one, minusOne = s.minusOne;
  s.known = one;
  s.wildcards = zero;
  s.negative = rewriter.createOrFold<arith::ConstantOp>(
      loc, rewriter.getBoolAttr(false));
  for (int64_t i = 0; i < rank; ++i) {
    Value v = shapeEntry(rewriter, loc, newshape, i);
    std::optional<int64_t> c = getConstantIntValue(v);
    if (c && *c == -1) {
      s.othersAreSizes &= s.wildAt < 0;
      s.wildAt = i;
    } else if (c) {
      s.othersAreSizes &= *c >= 0;
    } else {
      s.othersAreSizes &= isProductOfDims(v);
    }
    // (an entry that is this very dim of the input needs no `0` check)
    auto dim = v.getDefiningOp<tensor::DimOp>();
    bool sameDim = dim && dim.getSource() == data &&
                   dim.getConstantIndex() == std::optional<int64_t>(i);
    if (!op.getAllowzero() && i < inRank && !sameDim)
      v = arith::SelectOp::create(
          rewriter, loc, cmp(rewriter, loc, arith::CmpIPredicate::eq, v, zero),
          getValueOrCreateConstantIndexOp(rewriter, loc, inSizes[i]), v);
    Value isWild = cmp(rewriter, loc, arith::CmpIPredicate::eq, v, minusOne);
    s.wildcards = arith::AddIOp::create(
        rewriter, loc, s.wildcards,
        arith::SelectOp::create(rewriter, loc, isWild, one, zero));
    s.negative = arith::OrIOp::create(
        rewriter, loc, s.negative,
        arith::AndIOp::create(
            rewriter, loc,
            cmp(rewriter, loc, arith::CmpIPredicate::slt, v, zero),
            arith::XOrIOp::create(rewriter, loc, isWild,
                                  rewriter.createOrFold<arith::ConstantOp>(
                                      loc, rewriter.getBoolAttr(true)))));
    s.known = arith::MulIOp::create(
        rewriter, loc, s.known,
        arith::SelectOp::create(rewriter, loc, isWild, one, v));
    s.req.push_back(v);
  }
  return s;
}

/// The requested sizes with the -1 entry resolved: the elements left (0
/// when nothing else is known); for a -1 known at compile time beside
/// sizes, `total / (product of the others)`, asserting that product is not
/// 0 (with a 0 entry beside it, -1 could be any size: an error, as in numpy
/// and onnxruntime).
SmallVector<OpFoldResult> resolveNewShape(OpBuilder &rewriter, Location loc,
                                          const NewShape &s, Value total) {
  Value zero = s.zero, one = s.one, minusOne = s.minusOne;
  Value safeKnown = arith::SelectOp::create(
      rewriter, loc,
      cmp(rewriter, loc, arith::CmpIPredicate::eq, s.known, zero), one,
      s.known);
  Value inferred = arith::DivSIOp::create(rewriter, loc, total, safeKnown);
  SmallVector<OpFoldResult> outSizes;
  for (Value v : s.req)
    outSizes.push_back(
        isProductOfDims(v) // (never -1)
            ? v
            : arith::SelectOp::create(
                  rewriter, loc,
                  cmp(rewriter, loc, arith::CmpIPredicate::eq, v, minusOne),
                  inferred, v)
                  .getResult());
  if (s.wildAt >= 0 && s.othersAreSizes) {
    SmallVector<OpFoldResult> others(s.req.begin(), s.req.end());
    others.erase(others.begin() + s.wildAt);
    Value knownSizes = product(rewriter, loc, others);
    cf::AssertOp::create(
        rewriter, loc,
        cmp(rewriter, loc, arith::CmpIPredicate::ne, knownSizes, zero),
        ("relay.dyn.reshape: newshape has -1 beside a 0 entry (the -1 is "
         "ambiguous)" +
         sourceSuffix(loc)));
    outSizes[s.wildAt] =
        arith::DivSIOp::create(rewriter, loc, total, knownSizes).getResult();
  }
  return outSizes;
}

struct DynReshapePattern : OpConversionPattern<DynReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    SmallVector<OpFoldResult> inSizes = dimSizes(rewriter, loc, data);
    Value total = product(rewriter, loc, inSizes);
    NewShape s = readNewShape(rewriter, loc, op, data, adaptor.getNewshape(),
                              inSizes, resultType.getRank());
    SmallVector<OpFoldResult> requested =
        resolveNewShape(rewriter, loc, s, total);
    // (first: the element count's product may not overflow, e.g. [2^62, 4]
    // for an empty input)
    checkRequestedShape(rewriter, loc, requested, "relay.dyn.reshape");
    Value ok = arith::AndIOp::create(
        rewriter, loc,
        cmp(rewriter, loc, arith::CmpIPredicate::eq,
            product(rewriter, loc, requested), total),
        arith::AndIOp::create(
            rewriter, loc,
            cmp(rewriter, loc, arith::CmpIPredicate::ule, s.wildcards, s.one),
            arith::XOrIOp::create(rewriter, loc, s.negative,
                                  rewriter.createOrFold<arith::ConstantOp>(
                                      loc, rewriter.getBoolAttr(true)))));
    cf::AssertOp::create(
        rewriter, loc, ok,
        ("relay.dyn.reshape: newshape does not fit the input's element count "
         "(or has more than one -1 or a negative entry)" +
         sourceSuffix(loc)));
    SmallVector<OpFoldResult> outSizes =
        checkedSizes(rewriter, loc, resultType, requested, "relay.dyn.reshape");
    rewriter.replaceOp(
        op, reshapeToSizes(rewriter, loc, data, resultType, outSizes));
    return success();
  }
};

/// dyn.broadcast_to: a gather over the result (a data dim of size 1, known
/// only at run time, reads index 0), with each data dim checked to be 1 or
/// the target size.
struct DynBroadcastToPattern : OpConversionPattern<DynBroadcastToOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynBroadcastToOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    auto inType = cast<RankedTensorType>(data.getType());
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    int64_t rank = resultType.getRank(), offset = rank - inType.getRank();
    SmallVector<OpFoldResult> sizes =
        shapeEntries(rewriter, loc, adaptor.getShape(), rank);
    checkRequestedShape(rewriter, loc, sizes, "relay.dyn.broadcast_to");
    SmallVector<OpFoldResult> inSizes = dimSizes(rewriter, loc, data);
    Value one = indexConst(rewriter, loc, 1);
    for (int64_t i = 0; i < inType.getRank(); ++i) {
      if (inType.getDimSize(i) == 1)
        continue;
      Value in = getValueOrCreateConstantIndexOp(rewriter, loc, inSizes[i]);
      Value target =
          getValueOrCreateConstantIndexOp(rewriter, loc, sizes[offset + i]);
      cf::AssertOp::create(
          rewriter, loc,
          arith::OrIOp::create(
              rewriter, loc,
              cmp(rewriter, loc, arith::CmpIPredicate::eq, in, one),
              cmp(rewriter, loc, arith::CmpIPredicate::eq, in, target)),
          ("relay.dyn.broadcast_to: a dim of data is neither 1 nor the "
           "target size" +
           sourceSuffix(loc)));
    }
    sizes = checkedSizes(rewriter, loc, resultType, sizes,
                         "relay.dyn.broadcast_to");
    Value result = buildMap(
        rewriter, loc, resultType, sizes, {}, {},
        [&](OpBuilder &b, Location l, ValueRange) -> Value {
          SmallVector<Value> idx;
          Value zero = indexConst(b, l, 0);
          for (int64_t i = 0; i < inType.getRank(); ++i) {
            if (inType.getDimSize(i) == 1) {
              idx.push_back(zero);
              continue;
            }
            Value j = linalg::IndexOp::create(b, l, offset + i);
            if (!inType.isDynamicDim(i)) {
              idx.push_back(j);
              continue;
            }
            Value dim = tensor::DimOp::create(b, l, data, i);
            idx.push_back(arith::SelectOp::create(
                b, l,
                cmp(b, l, arith::CmpIPredicate::eq, dim, indexConst(b, l, 1)),
                zero, j));
          }
          return tensor::ExtractOp::create(b, l, data, idx);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// dyn.zeros / dyn.ones: a fill of the run-time shape.
template <typename OpT, int Value_>
struct DynConstantFillPattern : OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    SmallVector<OpFoldResult> sizes =
        shapeEntries(rewriter, loc, adaptor.getShape(), resultType.getRank());
    checkRequestedShape(rewriter, loc, sizes, op->getName().getStringRef());
    sizes = checkedSizes(rewriter, loc, resultType, sizes,
                         op->getName().getStringRef());
    rewriter.replaceOp(
        op, filledTensor(rewriter, loc, resultType, sizes,
                         scalarConst(rewriter, loc, resultType.getElementType(),
                                     Value_)));
    return success();
  }
};

struct DynFullPattern : OpConversionPattern<DynFullOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynFullOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto relayType = cast<RankedTensorType>(op.getType());
    SmallVector<OpFoldResult> sizes =
        shapeEntries(rewriter, loc, adaptor.getShape(), relayType.getRank());
    checkRequestedShape(rewriter, loc, sizes, "relay.dyn.full");
    sizes = checkedSizes(rewriter, loc, relayType, sizes, "relay.dyn.full");
    rewriter.replaceOp(
        op, filledFrom(rewriter, loc, relayType, sizes, adaptor.getFillValue(),
                       elementTypeOf(op.getFillValue().getType())));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Shape values: small integer vectors stay scalars on the host
//===----------------------------------------------------------------------===//
//
// take (at constant indices), concatenate, reshape/expand_dims/squeeze and
// integer casts of small (<= 64 entries) static 1-d/0-d integer tensors
// become tensor.extract + tensor.from_elements, so that shape arithmetic
// (shape_of -> take -> concatenate -> dyn.reshape) folds to the tensor.dim
// values it came from instead of running as device dispatches.

constexpr int64_t kMaxShapeValue = 64;

/// Whether `t` is a small static integer tensor of rank <= 1 (not bool:
/// IREE 3.13 stores i1 tensors as i8 and then rejects a
/// `tensor.from_elements` of i1 scalars into one).
bool isShapeValue(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  return rt && rt.getRank() <= 1 && rt.hasStaticShape() &&
         rt.getNumElements() <= kMaxShapeValue &&
         rt.getElementType().isInteger() &&
         rt.getElementType().getIntOrFloatBitWidth() > 1;
}

/// The elements of a small static tensor (any rank <= 1), as scalars.
SmallVector<Value> elementsOf(OpBuilder &b, Location loc, Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  SmallVector<Value> out;
  if (t.getRank() == 0) {
    out.push_back(tensor::ExtractOp::create(b, loc, v, ValueRange{}));
    return out;
  }
  for (int64_t i = 0; i < t.getDimSize(0); ++i)
    out.push_back(tensor::ExtractOp::create(b, loc, v,
                                            ValueRange{indexConst(b, loc, i)}));
  return out;
}

Value fromScalars(OpBuilder &b, Location loc, RankedTensorType type,
                  ArrayRef<Value> values) {
  if (type.getNumElements() == 0)
    return tensor::EmptyOp::create(b, loc, type.getShape(),
                                   type.getElementType());
  return tensor::FromElementsOp::create(b, loc, type, values);
}

struct ShapeValueTakePattern : OpConversionPattern<TakeOp> {
  ShapeValueTakePattern(const TypeConverter &tc, MLIRContext *ctx)
      : OpConversionPattern<TakeOp>(tc, ctx, kSpecialisedBenefit) {}
  LogicalResult
  matchAndRewrite(TakeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value data = adaptor.getData();
    auto dataType = dyn_cast<RankedTensorType>(data.getType());
    if (!isShapeValue(op.getType()) || !dataType || dataType.getRank() != 1 ||
        !isShapeValue(dataType) || op.getBatchDims() != 0)
      return failure();
    DenseIntElementsAttr idx;
    if (!matchPattern(adaptor.getIndices(), m_Constant(&idx)))
      if (auto cst = op.getIndices().template getDefiningOp<ConstantOp>())
        idx = dyn_cast<DenseIntElementsAttr>(cst.getValue());
    if (!idx)
      return failure();
    int64_t n = dataType.getDimSize(0);
    if (n == 0)
      return failure();
    StringRef mode = op.getMode();
    Location loc = op.getLoc();
    SmallVector<Value> values;
    for (const APInt &v : idx.getValues<APInt>()) {
      int64_t i = v.getSExtValue();
      if (mode == "wrap")
        i = ((i % n) + n) % n;
      else if (mode == "clip")
        i = std::clamp<int64_t>(i, 0, n - 1);
      else if (i < 0 || i >= n)
        return failure();
      values.push_back(tensor::ExtractOp::create(
          rewriter, loc, data, ValueRange{indexConst(rewriter, loc, i)}));
    }
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    rewriter.replaceOp(op, fromScalars(rewriter, loc, resultType, values));
    return success();
  }
};

struct ShapeValueConcatenatePattern : OpConversionPattern<ConcatenateOp> {
  ShapeValueConcatenatePattern(const TypeConverter &tc, MLIRContext *ctx)
      : OpConversionPattern<ConcatenateOp>(tc, ctx, kSpecialisedBenefit) {}
  LogicalResult
  matchAndRewrite(ConcatenateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isShapeValue(op.getType()) ||
        cast<RankedTensorType>(op.getType()).getRank() != 1)
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> values;
    for (Value in : adaptor.getData()) {
      if (!isShapeValue(in.getType()))
        return failure();
      values.append(elementsOf(rewriter, loc, in));
    }
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    if ((int64_t)values.size() != resultType.getNumElements())
      return failure();
    rewriter.replaceOp(op, fromScalars(rewriter, loc, resultType, values));
    return success();
  }
};

/// reshape / expand_dims / squeeze of a shape value: the same elements.
template <typename OpT>
struct ShapeValueRelayoutPattern : OpConversionPattern<OpT> {
  ShapeValueRelayoutPattern(const TypeConverter &tc, MLIRContext *ctx)
      : OpConversionPattern<OpT>(tc, ctx, kSpecialisedBenefit) {}
  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value data = adaptor.getOperands()[0];
    if (!isShapeValue(op.getType()) || !isShapeValue(data.getType()))
      return failure();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    SmallVector<Value> values = elementsOf(rewriter, op.getLoc(), data);
    if ((int64_t)values.size() != resultType.getNumElements())
      return failure();
    rewriter.replaceOp(op,
                       fromScalars(rewriter, op.getLoc(), resultType, values));
    return success();
  }
};

} // namespace

void relay::populateDynamicToLinalgPatterns(const TypeConverter &typeConverter,
                                            RewritePatternSet &patterns) {
  patterns.add<ShapeOfPattern, NdarraySizePattern, DynReshapePattern,
               DynBroadcastToPattern, DynConstantFillPattern<DynZerosOp, 0>,
               DynConstantFillPattern<DynOnesOp, 1>, DynFullPattern,
               ShapeValueTakePattern, ShapeValueConcatenatePattern,
               ShapeValueRelayoutPattern<ReshapeOp>,
               ShapeValueRelayoutPattern<ExpandDimsOp>,
               ShapeValueRelayoutPattern<SqueezeOp>>(typeConverter,
                                                     patterns.getContext());
  populateDynamicOpsPatterns(typeConverter, patterns);
}
