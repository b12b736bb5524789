//===- Utils.cpp - helpers shared by the relay→linalg patterns ------------===//
#include "Utils.h"
#include "DynamicUtils.h"
#include "IREEOps.h"
#include "SymbolicSizes.h"
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

Type lowering::elementTypeOf(Type t) {
  if (auto shaped = dyn_cast<ShapedType>(t))
    return shaped.getElementType();
  return t;
}

bool lowering::isUnsignedInt(Type t) {
  auto intType = dyn_cast<IntegerType>(elementTypeOf(t));
  return intType && (intType.isUnsigned() || intType.getWidth() == 1);
}

/// Whether a relay element type is a narrow integer (int4, uint4, int2,
/// uint2).
static bool isNarrowInt(Type t) {
  auto intType = dyn_cast<IntegerType>(t);
  return intType && intType.getWidth() > 1 && intType.getWidth() < 8;
}

/// Signless storage: uint8 -> i8, ...; the narrow integers (int4, uint4,
/// int2, uint2) live in i8 (sign- or zero-extended values): IREE 3.13 has no
/// tensors of them whose byte size is not whole.
static Type signless(Type t) {
  auto intType = dyn_cast<IntegerType>(t);
  if (intType && isNarrowInt(t))
    return IntegerType::get(t.getContext(), 8);
  if (intType && !intType.isSignless())
    return IntegerType::get(t.getContext(), intType.getWidth());
  return t;
}

RankedTensorType lowering::signlessTensorType(RankedTensorType type) {
  return RankedTensorType::get(type.getShape(),
                               signless(type.getElementType()));
}

RelayToLinalgTypeConverter::RelayToLinalgTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion(
      [](RankedTensorType type) -> Type { return signlessTensorType(type); });
  addConversion(
      [this](TupleType type, SmallVectorImpl<Type> &results) -> LogicalResult {
        for (Type field : type.getTypes())
          if (failed(convertType(field, results)))
            return failure();
        return success();
      });
  addConversion([](Type type) -> std::optional<Type> {
    if (isa<ADTType, RefType>(type))
      return iree::getListType(type.getContext());
    return std::nullopt;
  });
}

//===----------------------------------------------------------------------===//
// Scalars and shapes
//===----------------------------------------------------------------------===//

Value lowering::scalarConst(OpBuilder &b, Location loc, Type type,
                            double value) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(floatType, value));
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(type, static_cast<int64_t>(value)));
}

/// A float8 value extended to f32 (the float8 types are storage: IREE 3.13
/// converts them to and from wider floats, nothing else); others unchanged.
static Value widenFloat8(OpBuilder &b, Location loc, Value x) {
  auto f = dyn_cast<FloatType>(x.getType());
  if (!f || f.getWidth() != 8)
    return x;
  Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
  if (!isa<Float8E8M0FNUType>(f))
    return wide;
  // IREE 3.13 extends the e8m0 byte 0 (2^-127, a float32 subnormal) to 0
  Value bits = arith::BitcastOp::create(b, loc, b.getI8Type(), x);
  Value isZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, bits,
                                       scalarConst(b, loc, b.getI8Type(), 0));
  return arith::SelectOp::create(
      b, loc, isZero, scalarConst(b, loc, b.getF32Type(), 0x1p-127), wide);
}

/// `x` (a number) cast to the narrow integer `toRelay` (int4, uint4, int2,
/// uint2), in its i8 storage. As ml_dtypes (and ONNX's reference Cast): a
/// float truncates towards zero and becomes 0 outside the type's range
/// (NaN too); an integer wraps to the low bits.
static Value castToNarrowInt(OpBuilder &b, Location loc, Value x,
                             bool srcUnsigned, IntegerType toRelay) {
  Type i8 = b.getI8Type();
  unsigned width = toRelay.getWidth();
  bool dstUnsigned = toRelay.isUnsigned();
  if (auto f = dyn_cast<FloatType>(x.getType())) {
    double lo = dstUnsigned ? 0.0 : -double(1 << (width - 1));
    double hi =
        dstUnsigned ? double((1 << width) - 1) : double((1 << (width - 1)) - 1);
    // (separate statements: the IR order must not depend on argument order)
    Value above = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x,
                                        scalarConst(b, loc, f, lo - 1.0));
    Value below = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                        scalarConst(b, loc, f, hi + 1.0));
    Value inRange = arith::AndIOp::create(b, loc, above, below);
    Value safe = arith::SelectOp::create(b, loc, inRange, x,
                                         scalarConst(b, loc, f, 0.0));
    return arith::FPToSIOp::create(b, loc, i8, safe);
  }
  Value wide = lowering::convertScalar(b, loc, x, i8, srcUnsigned);
  Value shift = scalarConst(b, loc, i8, 8 - width);
  Value high = arith::ShLIOp::create(b, loc, wide, shift);
  return dstUnsigned ? arith::ShRUIOp::create(b, loc, high, shift).getResult()
                     : arith::ShRSIOp::create(b, loc, high, shift).getResult();
}

Value lowering::castScalar(OpBuilder &b, Location loc, Value x, Type from,
                           Type toRelay) {
  bool srcUnsigned = isUnsignedInt(from);
  if (isNarrowInt(toRelay))
    return castToNarrowInt(b, loc, widenFloat8(b, loc, x), srcUnsigned,
                           cast<IntegerType>(toRelay));
  Type to = signless(toRelay);
  bool dstUnsigned = isUnsignedInt(toRelay);
  if (x.getType() == to)
    return x;
  auto toFloat = dyn_cast<FloatType>(to);
  // To float8 only from f32 (IREE 3.13 has no other truncf to f8): integers
  // and f16/bf16 (exactly) or f64 (rounded twice) go through f32, behind
  // math.copysign(w, w) == w, which keeps canonicalization from folding
  // truncf(extf(x)) back into the truncf from f16 that IREE cannot lower.
  auto fromFloat = dyn_cast<FloatType>(x.getType());
  if (toFloat && toFloat.getWidth() == 8 &&
      (!fromFloat || (fromFloat.getWidth() != 8 && !fromFloat.isF32()))) {
    Value wide = castScalar(b, loc, x, from, b.getF32Type());
    wide = math::CopySignOp::create(b, loc, wide, wide);
    return arith::TruncFOp::create(b, loc, to, wide);
  }
  if (!toFloat || toFloat.getWidth() != 8)
    x = widenFloat8(b, loc, x);
  Type src = x.getType();
  if (src == to)
    return x;
  if (to.isInteger(1)) {
    if (isa<FloatType>(src))
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x,
                                   scalarConst(b, loc, src, 0.0));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x,
                                 scalarConst(b, loc, src, 0));
  }
  auto srcFloat = dyn_cast<FloatType>(src);
  auto dstFloat = dyn_cast<FloatType>(to);
  if (srcFloat && dstFloat) {
    if (srcFloat.getWidth() < dstFloat.getWidth())
      return arith::ExtFOp::create(b, loc, to, x);
    if (srcFloat.getWidth() > dstFloat.getWidth())
      return arith::TruncFOp::create(b, loc, to, x);
    // Same width, other format (f16 <-> bf16): through f32.
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
    return arith::TruncFOp::create(b, loc, to, wide);
  }
  if (dstFloat)
    return srcUnsigned ? arith::UIToFPOp::create(b, loc, to, x).getResult()
                       : arith::SIToFPOp::create(b, loc, to, x).getResult();
  if (srcFloat)
    return dstUnsigned ? arith::FPToUIOp::create(b, loc, to, x).getResult()
                       : arith::FPToSIOp::create(b, loc, to, x).getResult();
  unsigned srcWidth = src.getIntOrFloatBitWidth();
  unsigned dstWidth = to.getIntOrFloatBitWidth();
  if (srcWidth > dstWidth)
    return arith::TruncIOp::create(b, loc, to, x);
  return srcUnsigned ? arith::ExtUIOp::create(b, loc, to, x).getResult()
                     : arith::ExtSIOp::create(b, loc, to, x).getResult();
}

Value lowering::lowestConst(OpBuilder &b, Location loc, Type type,
                            bool isUnsigned) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(floatType, APFloat::getInf(floatType.getFloatSemantics(),
                                                  /*Negative=*/true)));
  unsigned width = type.getIntOrFloatBitWidth();
  APInt lowest =
      isUnsigned ? APInt::getZero(width) : APInt::getSignedMinValue(width);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, lowest));
}

SmallVector<OpFoldResult> lowering::dimSizes(OpBuilder &b, Location loc,
                                             Value value) {
  return tensor::getMixedSizes(b, loc, value);
}

SmallVector<Value> lowering::dynamicOf(OpBuilder &b, Location loc,
                                       RankedTensorType type,
                                       ArrayRef<OpFoldResult> sizes) {
  SmallVector<Value> dynamic;
  for (auto [i, dim] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(dim))
      dynamic.push_back(getValueOrCreateConstantIndexOp(b, loc, sizes[i]));
  return dynamic;
}

Value lowering::emptyTensor(OpBuilder &b, Location loc, RankedTensorType type,
                            ArrayRef<OpFoldResult> sizes) {
  return tensor::EmptyOp::create(b, loc, type, dynamicOf(b, loc, type, sizes));
}

Value lowering::filledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                             ArrayRef<OpFoldResult> sizes, Value value) {
  Value empty = emptyTensor(b, loc, type, sizes);
  return linalg::FillOp::create(b, loc, value, empty).getResult(0);
}

Value lowering::insertSlice(OpBuilder &b, Location loc, Value source,
                            Value dest, ArrayRef<OpFoldResult> offsets,
                            ArrayRef<OpFoldResult> sizes,
                            ArrayRef<OpFoldResult> strides) {
  if (llvm::any_of(sizes, isZeroInteger))
    return dest;
  return tensor::InsertSliceOp::create(b, loc, source, dest, offsets, sizes,
                                       strides);
}

//===----------------------------------------------------------------------===//
// linalg builders
//===----------------------------------------------------------------------===//

Value lowering::buildMap(OpBuilder &b, Location loc,
                         RankedTensorType resultType,
                         ArrayRef<OpFoldResult> sizes, ValueRange inputs,
                         ArrayRef<AffineMap> inputMaps,
                         const ScalarBody &body) {
  int64_t rank = resultType.getRank();
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value init = emptyTensor(b, loc, resultType, sizes);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value result = body(nb, nloc, args.drop_back());
        linalg::YieldOp::create(nb, nloc, result);
      });
  return generic.getResult(0);
}

namespace {
/// How the operands of a broadcast meet at one result dim.
struct BroadcastDim {
  OpFoldResult size; // the result's size
  /// Whether some operand's `?` size may be 1 where the result's is not (or
  /// differ from it: a run-time error): such operands are read at
  /// `select(size == 1, 0, i)` and their sizes checked.
  bool uncertain = false;
};
} // namespace

/// The result size of dim `d` of a broadcast of `inputs` (numpy rules, also
/// for `?` sizes: a run-time size of 1 broadcasts). Sizes proven equal by
/// their product form (SymbolicSizes.h) need no run-time work; others are
/// combined and checked at run time.
static BroadcastDim broadcastDim(OpBuilder &b, Location loc, ValueRange inputs,
                                 int64_t rank, int64_t d, int64_t outStatic,
                                 StringRef opName) {
  using Pred = arith::CmpIPredicate;
  std::optional<int64_t> target; // a static size other than 1
  if (!ShapedType::isDynamic(outStatic) && outStatic != 1)
    target = outStatic;
  SmallVector<std::pair<Value, int64_t>> dynamic; // (input, its dim)
  for (Value input : inputs) {
    auto type = cast<RankedTensorType>(input.getType());
    int64_t i = d - (rank - type.getRank());
    if (i < 0)
      continue;
    int64_t size = type.getDimSize(i);
    if (ShapedType::isDynamic(size))
      dynamic.push_back({input, i});
    else if (size != 1 && !target)
      target = size;
  }
  BroadcastDim out;
  if (dynamic.empty()) {
    out.size = b.getIndexAttr(target ? *target : 1);
    return out;
  }
  // Proven: every `?` size equals the static target, or the first one.
  bool proven = true;
  for (auto [input, i] : dynamic)
    proven &= target ? provablyDimIs(input, i, *target)
                     : provablyEqualDims(input, i, dynamic.front().first,
                                         dynamic.front().second);
  SmallVector<Value> sizes;
  for (auto [input, i] : dynamic)
    sizes.push_back(tensor::DimOp::create(b, loc, input, i));
  if (proven) {
    out.size = target ? OpFoldResult(b.getIndexAttr(*target))
                      : OpFoldResult(sizes.front());
    return out;
  }
  out.uncertain = true;
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value size;
  if (target) {
    size = arith::ConstantIndexOp::create(b, loc, *target);
  } else {
    size = sizes.front();
    for (Value s : llvm::drop_begin(sizes))
      size = arith::SelectOp::create(
          b, loc, arith::CmpIOp::create(b, loc, Pred::eq, size, one), s, size);
  }
  for (Value s : sizes)
    checkOneOrSame(b, loc, s, size, opName,
                   Twine("the sizes of axis ") + Twine(d) +
                       " do not broadcast (each must be 1 or the same)");
  out.size =
      target ? OpFoldResult(b.getIndexAttr(*target)) : OpFoldResult(size);
  return out;
}

Value lowering::ifElse(OpBuilder &b, Location loc, Value cond, Type type,
                       function_ref<Value(OpBuilder &)> then,
                       function_ref<Value(OpBuilder &)> otherwise) {
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{type}, cond,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  scf::YieldOp::create(b, loc, then(b));
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  scf::YieldOp::create(b, loc, otherwise(b));
  return ifOp.getResult(0);
}

Value lowering::withSizes(OpBuilder &b, Location loc, Value v,
                          ArrayRef<OpFoldResult> sizes) {
  auto type = cast<RankedTensorType>(v.getType());
  int64_t r = type.getRank();
  if (r == 0)
    return v;
  if (r > 1) {
    // a tensor.reshape to `sizes`: it stays (unlike the pair below, which
    // canonicalization folds) and `tensor.dim` of it folds to `sizes`
    SmallVector<Value> entries;
    for (OpFoldResult s : sizes)
      entries.push_back(getValueOrCreateConstantIndexOp(b, loc, s));
    Value shape = tensor::FromElementsOp::create(b, loc, entries);
    auto reshape = tensor::ReshapeOp::create(b, loc, type, v, shape);
    reshape->setAttr(relay::kSizesOnlyAttr, b.getUnitAttr());
    return reshape;
  }
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < r; ++d)
    groups.push_back({d});
  groups.back().push_back(r);
  SmallVector<int64_t> shape(type.getShape());
  shape.push_back(1);
  SmallVector<OpFoldResult> unitSizes(sizes);
  unitSizes.push_back(b.getIndexAttr(1));
  Value unit =
      expandTo(b, loc, v, RankedTensorType::get(shape, type.getElementType()),
               groups, unitSizes);
  return tensor::CollapseShapeOp::create(b, loc, type, unit, groups);
}

/// `input` (static where it broadcasts) read at the result's dims `offset`...
/// as a projected permutation: if it broadcasts, its size-1 dims are
/// collapsed away (a map reading index 0 is not a projected permutation, and
/// IREE fuses and vectorizes those worse: a folded `expand_dims` of a bias
/// constant made DQN's convolution epilogues 2 % slower than the plain bias).
static std::pair<Value, AffineMap>
dropBroadcastUnitDims(OpBuilder &b, Location loc, Value input, int64_t offset,
                      ArrayRef<int64_t> outShape) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = outShape.size();
  // Once it broadcasts, every size-1 dim goes (also those of a size-1 result
  // dim): the bias of a conv reads as (d3), as the plain bias_add's does.
  bool broadcasts = false;
  for (auto [i, dim] : llvm::enumerate(type.getShape()))
    broadcasts |= dim == 1 && outShape[offset + i] != 1;
  SmallVector<AffineExpr> exprs;
  SmallVector<int64_t> shape;
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending; // dropped dims before the first kept one
  for (auto [i, dim] : llvm::enumerate(type.getShape())) {
    int64_t d = offset + i;
    if (dim == 1 && broadcasts) {
      if (groups.empty())
        pending.push_back(i);
      else
        groups.back().push_back(i);
      continue;
    }
    exprs.push_back(b.getAffineDimExpr(d));
    shape.push_back(dim);
    groups.push_back(pending);
    groups.back().push_back(i);
    pending.clear();
  }
  AffineMap map = AffineMap::get(rank, 0, exprs, b.getContext());
  if (static_cast<int64_t>(shape.size()) == type.getRank())
    return {input, map};
  // every dim broadcasts: `groups` is empty, a collapse to rank 0
  auto collapsed =
      RankedTensorType::get(shape, type.getElementType(), type.getEncoding());
  return {tensor::CollapseShapeOp::create(b, loc, collapsed, input, groups),
          map};
}

Value lowering::buildBroadcastMap(OpBuilder &b, Location loc,
                                  RankedTensorType resultType,
                                  ValueRange inputs, const ScalarBody &body,
                                  StringRef opName) {
  int64_t rank = resultType.getRank();
  ArrayRef<int64_t> outShape = resultType.getShape();
  SmallVector<OpFoldResult> sizes;
  SmallVector<bool> uncertain;
  for (int64_t d = 0; d < rank; ++d) {
    BroadcastDim dim =
        broadcastDim(b, loc, inputs, rank, d, outShape[d], opName);
    sizes.push_back(dim.size);
    uncertain.push_back(dim.uncertain);
  }
  // Operands read through indexing maps (size-1 dims at index 0), and those
  // with a `?` size that may broadcast at run time, read in the body.
  SmallVector<Value> mapped;
  SmallVector<AffineMap> maps;
  struct Gathered {
    Value input;
    SmallVector<Value> isOne; // per dim: i1 "size is 1", or null
  };
  SmallVector<std::optional<Gathered>> gathered;
  for (Value input : inputs) {
    auto type = cast<RankedTensorType>(input.getType());
    int64_t offset = rank - type.getRank();
    bool inBody = false;
    for (auto [i, dim] : llvm::enumerate(type.getShape()))
      inBody |= ShapedType::isDynamic(dim) && uncertain[offset + i];
    if (inBody) {
      Gathered g{input, {}};
      for (auto [i, dim] : llvm::enumerate(type.getShape())) {
        Value isOne;
        if (ShapedType::isDynamic(dim) && uncertain[offset + i])
          isOne =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                    tensor::DimOp::create(b, loc, input, i),
                                    arith::ConstantIndexOp::create(b, loc, 1));
        g.isOne.push_back(isOne);
      }
      gathered.push_back(std::move(g));
      continue;
    }
    gathered.push_back(std::nullopt);
    auto [operand, map] =
        dropBroadcastUnitDims(b, loc, input, offset, outShape);
    mapped.push_back(operand);
    maps.push_back(map);
  }
  return buildMap(b, loc, resultType, sizes, mapped, maps,
                  [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
                    SmallVector<Value> scalars;
                    auto arg = args.begin();
                    for (auto &g : gathered) {
                      if (!g) {
                        scalars.push_back(*arg++);
                        continue;
                      }
                      scalars.push_back(extractBroadcast(nb, nloc, g->input,
                                                         g->isOne, outShape));
                    }
                    return body(nb, nloc, scalars);
                  });
}

static Value addScalars(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::AddFOp::create(b, loc, x, y);
  return arith::AddIOp::create(b, loc, x, y);
}

Value lowering::reduceFill(OpBuilder &b, Location loc, Value input,
                           ArrayRef<int64_t> dims, FillReduction kind,
                           RankedTensorType resultType,
                           ArrayRef<OpFoldResult> sizes, bool isUnsigned) {
  auto fill = input.getDefiningOp<linalg::FillOp>();
  if (!fill)
    return {};
  Value value = fill.getInputs()[0];
  Type type = value.getType();
  if (kind != FillReduction::Idempotent) {
    Value count =
        indexToScalar(b, loc, countOf(b, loc, input, dims), type, isUnsigned);
    bool isFloat = isa<FloatType>(type);
    if (kind == FillReduction::Sum)
      value = isFloat ? arith::MulFOp::create(b, loc, value, count).getResult()
                      : arith::MulIOp::create(b, loc, value, count).getResult();
    else if (isFloat)
      value = math::PowFOp::create(b, loc, value, count).getResult();
    else // (math.ipowi does not lower in IREE): multiply `count` times
      value =
          scf::ForOp::create(
              b, loc, arith::ConstantIndexOp::create(b, loc, 0),
              countOf(b, loc, input, dims),
              arith::ConstantIndexOp::create(b, loc, 1),
              ValueRange{scalarConst(b, loc, type, 1.0)},
              [&](OpBuilder &nb, Location nloc, Value, ValueRange acc) {
                scf::YieldOp::create(
                    nb, nloc,
                    ValueRange{arith::MulIOp::create(nb, nloc, acc[0], value)
                                   .getResult()});
              })
              .getResult(0);
  }
  return filledTensor(b, loc, resultType, sizes, value);
}

Value lowering::reduceBroadcast(
    OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> dims,
    FillReduction kind, bool isUnsigned,
    llvm::function_ref<Value(Value, ArrayRef<int64_t>)> reduce) {
  auto bcast = input.getDefiningOp<linalg::BroadcastOp>();
  if (!bcast || kind == FillReduction::Prod)
    return {};
  ArrayRef<int64_t> added = bcast.getDimensions();
  auto type = cast<RankedTensorType>(input.getType());
  Value source = bcast.getInput();
  SmallVector<int64_t> sourceDims;
  SmallVector<int64_t> reducedAdded;
  for (int64_t d : dims) {
    if (llvm::is_contained(added, d)) {
      reducedAdded.push_back(d);
      continue;
    }
    sourceDims.push_back(
        d - llvm::count_if(added, [&](int64_t a) { return a < d; }));
  }
  Value reduced = sourceDims.empty() ? source : reduce(source, sourceDims);
  if (kind == FillReduction::Sum && !reducedAdded.empty()) {
    Type elt = type.getElementType();
    Value count = indexToScalar(b, loc, countOf(b, loc, input, reducedAdded),
                                elt, isUnsigned);
    auto rtype = cast<RankedTensorType>(reduced.getType());
    reduced =
        buildMap(b, loc, rtype, dimSizes(b, loc, reduced), ValueRange{reduced},
                 {b.getMultiDimIdentityMap(rtype.getRank())},
                 [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
                   if (isa<FloatType>(elt))
                     return arith::MulFOp::create(nb, nloc, args[0], count);
                   return arith::MulIOp::create(nb, nloc, args[0], count);
                 });
  }
  // the broadcast dims not reduced, as positions of the result
  SmallVector<int64_t> keptAdded;
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> sizes;
  SmallVector<OpFoldResult> inSizes = dimSizes(b, loc, input);
  for (int64_t d = 0, pos = 0; d < type.getRank(); ++d) {
    if (llvm::is_contained(dims, d))
      continue;
    if (llvm::is_contained(added, d))
      keptAdded.push_back(pos);
    shape.push_back(type.getDimSize(d));
    sizes.push_back(inSizes[d]);
    ++pos;
  }
  if (keptAdded.empty())
    return reduced;
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  Value init = emptyTensor(b, loc, resultType, sizes);
  return linalg::BroadcastOp::create(b, loc, reduced, init, keptAdded)
      ->getResult(0);
}

Value lowering::buildSum(OpBuilder &b, Location loc, Value input,
                         ArrayRef<int64_t> dims) {
  auto type = cast<RankedTensorType>(input.getType());
  // A sum over every dim of a rank >= 2 input runs in two steps, as in
  // Reduce.cpp's buildReduce (IREE 3.13's llvm-cpu vectorizer rejects the
  // contraction with a rank-0 accumulator it makes of a one-step one).
  if (type.getRank() >= 2 &&
      static_cast<int64_t>(dims.size()) == type.getRank())
    return buildSum(b, loc, buildSum(b, loc, input, {type.getRank() - 1}),
                    dims.drop_back());
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> sizes;
  SmallVector<OpFoldResult> inSizes = dimSizes(b, loc, input);
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (llvm::is_contained(dims, d))
      continue;
    shape.push_back(type.getDimSize(d));
    sizes.push_back(inSizes[d]);
  }
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  if (Value folded = reduceFill(b, loc, input, dims, FillReduction::Sum,
                                resultType, sizes, /*isUnsigned=*/false))
    return folded;
  if (Value folded = reduceBroadcast(b, loc, input, dims, FillReduction::Sum,
                                     /*isUnsigned=*/false,
                                     [&](Value v, ArrayRef<int64_t> ds) {
                                       return buildSum(b, loc, v, ds);
                                     }))
    return folded;
  Value zero = scalarConst(b, loc, type.getElementType(), 0.0);
  Value init = filledTensor(b, loc, resultType, sizes, zero);
  auto reduce = linalg::ReduceOp::create(
      b, loc, ValueRange{input}, ValueRange{init}, dims,
      [](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc,
                                addScalars(nb, nloc, args[0], args[1]));
      });
  return reduce.getResult(0);
}

Value lowering::countOf(OpBuilder &b, Location loc, Value input,
                        ArrayRef<int64_t> dims) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t staticCount = 1;
  Value count;
  for (int64_t d : dims) {
    if (!type.isDynamicDim(d)) {
      staticCount *= type.getDimSize(d);
      continue;
    }
    Value size = tensor::DimOp::create(b, loc, input, d);
    count =
        count ? arith::MulIOp::create(b, loc, count, size).getResult() : size;
  }
  Value constant = arith::ConstantIndexOp::create(b, loc, staticCount);
  if (!count)
    return constant;
  return staticCount == 1
             ? count
             : arith::MulIOp::create(b, loc, count, constant).getResult();
}

Value lowering::indexToScalar(OpBuilder &b, Location loc, Value index,
                              Type type, bool isUnsigned) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    Value i64 = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), index);
    return isUnsigned
               ? arith::UIToFPOp::create(b, loc, floatType, i64).getResult()
               : arith::SIToFPOp::create(b, loc, floatType, i64).getResult();
  }
  return arith::IndexCastUIOp::create(b, loc, type, index);
}

Value lowering::divideByScalar(OpBuilder &b, Location loc, Value input,
                               Value divisor, bool isUnsigned) {
  auto type = cast<RankedTensorType>(input.getType());
  if (auto intType = dyn_cast<IntegerType>(divisor.getType())) {
    // an integer mean of nothing is 0 (its sum) as in the interpreter, not
    // a division by zero (SIGFPE on x86)
    Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(intType, 1));
    divisor = isUnsigned
                  ? arith::MaxUIOp::create(b, loc, divisor, one).getResult()
                  : arith::MaxSIOp::create(b, loc, divisor, one).getResult();
  }
  return buildMap(b, loc, type, dimSizes(b, loc, input), ValueRange{input},
                  {b.getMultiDimIdentityMap(type.getRank())},
                  [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
                    if (isa<FloatType>(args[0].getType()))
                      return arith::DivFOp::create(nb, nloc, args[0], divisor);
                    if (isUnsigned)
                      return arith::DivUIOp::create(nb, nloc, args[0], divisor);
                    return arith::DivSIOp::create(nb, nloc, args[0], divisor);
                  });
}

Value lowering::expandTo(OpBuilder &b, Location loc, Value input,
                         RankedTensorType resultType,
                         ArrayRef<ReassociationIndices> reassociation,
                         ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> shape;
  for (auto [i, dim] : llvm::enumerate(resultType.getShape()))
    shape.push_back(
        ShapedType::isDynamic(dim)
            ? OpFoldResult(getValueOrCreateConstantIndexOp(b, loc, sizes[i]))
            : OpFoldResult(b.getIndexAttr(dim)));
  // A run-time input dim that expands into static dims only is that
  // static size (tensor.expand_shape needs it so).
  auto inputType = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> inputShape(inputType.getShape());
  for (auto [i, group] : llvm::enumerate(reassociation)) {
    if (!ShapedType::isDynamic(inputShape[i]))
      continue;
    int64_t product = 1;
    for (int64_t d : group)
      product = ShapedType::isDynamic(resultType.getDimSize(d))
                    ? ShapedType::kDynamic
                    : (ShapedType::isDynamic(product)
                           ? product
                           : product * resultType.getDimSize(d));
    inputShape[i] = product;
  }
  if (inputShape != inputType.getShape())
    input = tensor::CastOp::create(b, loc, inputType.clone(inputShape), input);
  return tensor::ExpandShapeOp::create(b, loc, resultType, input, reassociation,
                                       shape);
}

SmallVector<ReassociationIndices>
lowering::unitDimReassociation(int64_t resultRank, ArrayRef<int64_t> unitDims) {
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  for (int64_t d = 0; d < resultRank; ++d) {
    pending.push_back(d);
    if (llvm::is_contained(unitDims, d))
      continue;
    groups.push_back(pending);
    pending.clear();
  }
  if (!pending.empty() && !groups.empty())
    groups.back().append(pending.begin(), pending.end());
  return groups;
}

//===----------------------------------------------------------------------===//
// Shapes, casts and named-op details shared by the nn families
//===----------------------------------------------------------------------===//

SmallVector<OpFoldResult>
lowering::resultSizes(OpBuilder &b, RankedTensorType resultType,
                      function_ref<OpFoldResult(int64_t)> fill) {
  SmallVector<OpFoldResult> sizes;
  for (auto [d, dim] : llvm::enumerate(resultType.getShape()))
    sizes.push_back(ShapedType::isDynamic(dim) ? fill(d) : b.getIndexAttr(dim));
  return sizes;
}

RankedTensorType lowering::resultTensorType(Operation *op, unsigned i) {
  return signlessTensorType(cast<RankedTensorType>(op->getResult(i).getType()));
}

Value lowering::regroup(OpBuilder &b, Location loc, Value x,
                        RankedTensorType type,
                        ArrayRef<ReassociationIndices> reassociation,
                        ArrayRef<OpFoldResult> sizes) {
  if (type.getRank() < cast<RankedTensorType>(x.getType()).getRank())
    return tensor::CollapseShapeOp::create(b, loc, type, x, reassociation);
  return expandTo(b, loc, x, type, reassociation, sizes);
}

OpFoldResult lowering::divSize(OpBuilder &b, Location loc, OpFoldResult size,
                               int64_t by) {
  if (auto attr = getConstantIntValue(size))
    return b.getIndexAttr(*attr / by);
  return arith::DivUIOp::create(b, loc,
                                getValueOrCreateConstantIndexOp(b, loc, size),
                                arith::ConstantIndexOp::create(b, loc, by))
      .getResult();
}

Value lowering::convertScalar(OpBuilder &b, Location loc, Value v, Type to,
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

Value lowering::mulAcc(OpBuilder &b, Location loc, Value a, Value w, Value acc,
                       bool isUnsigned) {
  Type t = acc.getType();
  a = convertScalar(b, loc, a, t, isUnsigned);
  w = convertScalar(b, loc, w, t, isUnsigned);
  if (isa<FloatType>(t))
    return arith::AddFOp::create(b, loc, acc,
                                 arith::MulFOp::create(b, loc, a, w));
  return arith::AddIOp::create(b, loc, acc,
                               arith::MulIOp::create(b, loc, a, w));
}

void lowering::setUnsignedCast(Operation *op, bool isUnsigned) {
  if (isUnsigned)
    op->setAttr("cast", linalg::TypeFnAttr::get(op->getContext(),
                                                linalg::TypeFn::cast_unsigned));
}

Value lowering::transposeDims(OpBuilder &b, Location loc, Value x,
                              ArrayRef<int64_t> perm) {
  if (isIdentityPermutation(perm))
    return x;
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<OpFoldResult> sizes = applyPermutation(dimSizes(b, loc, x), perm);
  SmallVector<int64_t> shape = applyPermutation(type.getShape(), perm);
  Value init = emptyTensor(
      b, loc, RankedTensorType::get(shape, type.getElementType()), sizes);
  return linalg::TransposeOp::create(b, loc, x, init, perm).getResult()[0];
}

ScalarOrder lowering::compareScalars(OpBuilder &b, Location loc, Value a,
                                     Value bValue, bool greater,
                                     bool isUnsigned) {
  if (isa<FloatType>(a.getType()))
    return {
        arith::CmpFOp::create(b, loc,
                              greater ? arith::CmpFPredicate::OGT
                                      : arith::CmpFPredicate::OLT,
                              a, bValue),
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, a, bValue)};
  arith::CmpIPredicate pred =
      greater
          ? (isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt)
          : (isUnsigned ? arith::CmpIPredicate::ult
                        : arith::CmpIPredicate::slt);
  return {arith::CmpIOp::create(b, loc, pred, a, bValue),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, a, bValue)};
}

std::string lowering::sourceSuffix(Location loc) {
  std::string out;
  loc->walk([&](Location l) {
    auto file = dyn_cast<FileLineColLoc>(l);
    if (!file)
      return WalkResult::advance();
    out = (" [at " + file.getFilename().strref() + ":" + Twine(file.getLine()) +
           ":" + Twine(file.getColumn()) + "]")
              .str();
    return WalkResult::interrupt();
  });
  return out;
}

Value lowering::relayTranspose(OpBuilder &b, Location loc, Value x,
                               ArrayRef<int64_t> perm) {
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return x;
  return TransposeOp::create(b, loc, x, b.getDenseI64ArrayAttr(perm));
}

Value lowering::separable3DAs2D(
    OpBuilder &b, Location loc, Value data, bool ncdhw,
    RankedTensorType resultType,
    function_ref<Value(Value, ArrayRef<int64_t>)> op2D) {
  auto dataType = cast<RankedTensorType>(data.getType());
  int64_t first = ncdhw ? 2 : 1;
  int64_t inD = dataType.getDimSize(first);
  int64_t d = resultType.getDimSize(first),
          h = resultType.getDimSize(first + 1),
          w = resultType.getDimSize(first + 2);
  auto reshape = [&](Value v, ArrayRef<int64_t> codes) -> Value {
    return ReshapeOp::create(b, loc, v, b.getDenseI64ArrayAttr(codes),
                             b.getBoolAttr(false));
  };
  Value x = ncdhw ? data : relayTranspose(b, loc, data, {0, 4, 1, 2, 3});
  x = reshape(x, {0, -3, 0, 0}); // [N, C*D, H, W]
  x = op2D(x, {h, w});
  x = reshape(x, {0, -4, -1, inD, -3}); // [N, C, D, h*w]
  x = op2D(x, {d, h * w});
  x = reshape(x, {0, 0, 0, -4, h, w}); // [N, C, d, h, w]
  return ncdhw ? x : relayTranspose(b, loc, x, {0, 2, 3, 4, 1});
}
