//===- VnniWeights.cpp - relay-vnni-matmul's weights, packed --------------===//
//
// Two ways to the same bytes (VnniWeights.h): evaluateBytes reads the
// weights' value from the program (a constant through reshapes,
// transposes, pads and elementwise byte maps) and the packs are computed
// here; when it cannot, the same packs are built as ops.
//
//===----------------------------------------------------------------------===//
#include "VnniWeights.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

#include <array>
#include <cstring>
#include <numeric>
#include <type_traits>
#include <vector>

using namespace mlir;
using namespace mlir::relay::vnni;

namespace {

//===----------------------------------------------------------------------===//
// The weights' bytes, when the program says what they are
//===----------------------------------------------------------------------===//

/// A tensor's value (8-bit integers or f32), row-major.
template <typename T> struct Elements {
  SmallVector<int64_t> shape;
  std::vector<T> data;
};
using Bytes = Elements<int8_t>;

/// Row-major strides of `shape`.
SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// `fn(index, offset)` for every index of `shape` in row-major order, with
/// the offset `strides` give it.
void forEachIndex(ArrayRef<int64_t> shape, ArrayRef<int64_t> strides,
                  function_ref<void(ArrayRef<int64_t>, int64_t)> fn) {
  if (llvm::is_contained(shape, 0))
    return;
  SmallVector<int64_t> index(shape.size(), 0);
  int64_t offset = 0;
  while (true) {
    fn(index, offset);
    int64_t d = static_cast<int64_t>(shape.size()) - 1;
    for (; d >= 0; --d) {
      offset += strides[d];
      if (++index[d] < shape[d])
        break;
      offset -= strides[d] * shape[d];
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

/// The function of each byte that `g` computes, if it is a one-input
/// elementwise generic of 8-bit tensors with an integer body.
std::optional<std::array<int8_t, 256>> byteMapOf(linalg::GenericOp g) {
  if (g.getNumDpsInputs() != 1 || g->getNumResults() != 1 ||
      g.getNumReductionLoops() != 0 ||
      !llvm::all_of(g.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }) ||
      !getElementTypeOrSelf(g.getDpsInputs()[0].getType()).isInteger(8))
    return std::nullopt;
  std::array<int8_t, 256> table;
  for (unsigned x = 0; x < 256; ++x) {
    std::optional<APInt> y = evaluateIntegerBody(*g.getBody(), APInt(8, x));
    if (!y || y->getBitWidth() != 8)
      return std::nullopt;
    table[x] = static_cast<int8_t>(y->getSExtValue());
  }
  return table;
}

/// Whether `t` holds elements of T.
template <typename T> bool holds(Type t) {
  if constexpr (std::is_same_v<T, float>)
    return t.isF32();
  else
    return t.isInteger(8);
}

/// A constant scalar `v` as a T.
template <typename T> std::optional<T> scalarOf(Value v) {
  if constexpr (std::is_same_v<T, float>) {
    FloatAttr value;
    if (!matchPattern(v, m_Constant(&value)) || !value.getType().isF32())
      return std::nullopt;
    return value.getValue().convertToFloat();
  } else {
    APInt value;
    if (!matchPattern(v, m_ConstantInt(&value)))
      return std::nullopt;
    return static_cast<T>(value.getSExtValue());
  }
}

/// `v`'s value when it is computed at compile time from a constant by ops
/// this knows (a bounded search; none otherwise).
template <typename T>
std::optional<Elements<T>> evaluate(Value v, unsigned depth = 0) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (depth > 16 || !type || !type.hasStaticShape() ||
      !holds<T>(type.getElementType()))
    return std::nullopt;
  Elements<T> out{SmallVector<int64_t>(type.getShape()), {}};
  DenseElementsAttr attr;
  if (matchPattern(v, m_Constant(&attr))) {
    if (attr.isSplat()) {
      out.data.assign(type.getNumElements(), attr.getSplatValue<T>());
    } else {
      ArrayRef<char> raw = attr.getRawData();
      out.data.resize(type.getNumElements());
      std::memcpy(out.data.data(), raw.data(), out.data.size() * sizeof(T));
    }
    return out;
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def)) {
    std::optional<Elements<T>> from =
        evaluate<T>(def->getOperand(0), depth + 1);
    if (!from)
      return std::nullopt;
    out.data = std::move(from->data);
    return out;
  }
  if (auto t = dyn_cast<linalg::TransposeOp>(def)) {
    std::optional<Elements<T>> from = evaluate<T>(t.getInput(), depth + 1);
    if (!from)
      return std::nullopt;
    // result dim i is the input's dim permutation[i]
    SmallVector<int64_t> inStrides = stridesOf(from->shape), strides;
    for (int64_t p : t.getPermutation())
      strides.push_back(inStrides[p]);
    out.data.reserve(type.getNumElements());
    forEachIndex(out.shape, strides, [&](ArrayRef<int64_t>, int64_t at) {
      out.data.push_back(from->data[at]);
    });
    return out;
  }
  if (auto pad = dyn_cast<tensor::PadOp>(def)) {
    Value constant = pad.getConstantPaddingValue();
    std::optional<T> value = constant ? scalarOf<T>(constant) : std::nullopt;
    if (!value || llvm::any_of(pad.getStaticLow(), ShapedType::isDynamic))
      return std::nullopt;
    std::optional<Elements<T>> from = evaluate<T>(pad.getSource(), depth + 1);
    if (!from)
      return std::nullopt;
    out.data.assign(type.getNumElements(), *value);
    SmallVector<int64_t> strides = stridesOf(out.shape);
    int64_t origin = 0;
    for (auto [low, stride] : llvm::zip(pad.getStaticLow(), strides))
      origin += low * stride;
    size_t next = 0;
    forEachIndex(from->shape, strides, [&](ArrayRef<int64_t>, int64_t at) {
      out.data[origin + at] = from->data[next++];
    });
    return out;
  }
  if constexpr (std::is_same_v<T, int8_t>) {
    if (auto g = dyn_cast<linalg::GenericOp>(def)) {
      std::optional<std::array<int8_t, 256>> table = byteMapOf(g);
      if (!table)
        return std::nullopt;
      std::optional<Bytes> from = evaluate<T>(g.getDpsInputs()[0], depth + 1);
      if (!from)
        return std::nullopt;
      out.data = std::move(from->data);
      for (int8_t &x : out.data)
        x = (*table)[static_cast<uint8_t>(x)];
      return out;
    }
  }
  return std::nullopt;
}

std::optional<Bytes> evaluateBytes(Value v) { return evaluate<int8_t>(v); }

/// -128·Σ_k w[k, n] of the [K, N] bytes `w` (row-major).
std::vector<int32_t> correctionOf(ArrayRef<int8_t> w, int64_t k, int64_t n) {
  std::vector<int32_t> sums(n, 0);
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < n; ++j)
      sums[j] += w[i * n + j];
  for (int32_t &s : sums)
    s = static_cast<int32_t>(static_cast<uint32_t>(s) * 0xFFFFFF80u);
  return sums;
}

template <typename T>
Value constantOf(OpBuilder &b, Location loc, ArrayRef<T> values) {
  Type element = std::is_same_v<T, float>
                     ? Type(b.getF32Type())
                     : Type(b.getIntegerType(sizeof(T) * 8));
  auto type =
      RankedTensorType::get({static_cast<int64_t>(values.size())}, element);
  return arith::ConstantOp::create(b, loc,
                                   DenseElementsAttr::get(type, values));
}

/// B [K, N] (`w`, row-major) as the GEMM kernel reads it:
/// [panels][groups][16 columns][groupK rows], zero beyond K and N.
template <typename T>
std::vector<T> packPanels(ArrayRef<T> w, const GemmShape &s) {
  int64_t groupK = s.groupK(), groups = s.groups();
  std::vector<T> packed(s.packedElements(), T(0));
  for (int64_t k = 0; k < s.k; ++k)
    for (int64_t n = 0; n < s.n; ++n)
      packed[(((n / kPanelColumns) * groups + k / groupK) * kPanelColumns +
              n % kPanelColumns) *
                 groupK +
             k % groupK] = w[k * s.n + n];
  return packed;
}

/// `packPanels` of each [K, N] matrix of `w` ([batch, K, N]), one after
/// the other.
template <typename T>
std::vector<T> packBatch(ArrayRef<T> w, const GemmShape &s) {
  std::vector<T> packed;
  packed.reserve(s.batch * s.packedElements());
  for (int64_t i = 0; i < s.batch; ++i)
    llvm::append_range(packed,
                       packPanels<T>(w.slice(i * s.k * s.n, s.k * s.n), s));
  return packed;
}

//===----------------------------------------------------------------------===//
// The same packs as ops (IREE folds them or runs them once)
//===----------------------------------------------------------------------===//

/// `v` (any rank) as the flat tensor of its elements.
Value flatten(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getRank() == 1)
    return v;
  ReassociationIndices all(type.getRank());
  std::iota(all.begin(), all.end(), 0);
  return tensor::CollapseShapeOp::create(
      b, loc,
      RankedTensorType::get({type.getNumElements()}, type.getElementType()), v,
      ArrayRef<ReassociationIndices>{all});
}

/// -128·Σ_k B[k, n] as i32 [N] of B [K, N].
Value correctionOps(OpBuilder &b, Location loc, Value bKN) {
  Type i32 = b.getI32Type();
  int64_t columns = cast<RankedTensorType>(bKN.getType()).getDimSize(1);
  auto type = RankedTensorType::get({columns}, i32);
  Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(), i32);
  Value init = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  MLIRContext *ctx = b.getContext();
  AffineExpr k, n;
  bindDims(ctx, k, n);
  return linalg::GenericOp::create(
             b, loc, type, bKN, init,
             ArrayRef<AffineMap>{AffineMap::get(2, 0, {k, n}, ctx),
                                 AffineMap::get(2, 0, {n}, ctx)},
             ArrayRef<utils::IteratorType>{utils::IteratorType::reduction,
                                           utils::IteratorType::parallel},
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value w = arith::ExtSIOp::create(nb, l, i32, args[0]);
               Value c = arith::ConstantIntOp::create(nb, l, -128, 32);
               Value term = arith::MulIOp::create(nb, l, w, c);
               linalg::YieldOp::create(
                   nb, l,
                   arith::AddIOp::create(nb, l, args[1], term).getResult());
             })
      .getResult(0);
}

/// `v` padded with zeros to `shape`, at `low` before each dim.
Value padZeros(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> shape,
               ArrayRef<int64_t> low) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<OpFoldResult> lo, hi;
  for (auto [d, size] : llvm::enumerate(shape)) {
    lo.push_back(b.getIndexAttr(low[d]));
    hi.push_back(b.getIndexAttr(size - low[d] - type.getDimSize(d)));
  }
  Value zero = arith::ConstantOp::create(
      b, loc, cast<TypedAttr>(b.getZeroAttr(type.getElementType())));
  return tensor::PadOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), v, lo, hi,
      zero);
}

/// `v` [d0, d1, d2 * 16] as [d0, d1, d2, 16], transposed by `permutation`
/// and flattened.
Value splitAndTranspose(OpBuilder &b, Location loc, Value v,
                        ArrayRef<int64_t> splitShape,
                        ArrayRef<ReassociationIndices> split,
                        ArrayRef<int64_t> permutation) {
  Type element = cast<RankedTensorType>(v.getType()).getElementType();
  Value grouped = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(splitShape, element), v, split);
  SmallVector<int64_t> shape;
  for (int64_t p : permutation)
    shape.push_back(splitShape[p]);
  Value empty = tensor::EmptyOp::create(b, loc, shape, element);
  return flatten(
      b, loc,
      linalg::TransposeOp::create(b, loc, grouped, empty, permutation)
          .getResult()[0]);
}

} // namespace

PackedWeights mlir::relay::vnni::packGemmWeights(OpBuilder &b, Location loc,
                                                 Value bKN,
                                                 const GemmShape &s) {
  int64_t groupK = s.groupK(), groups = s.groups(), rows = groups * groupK,
          cols = s.panels() * kPanelColumns;
  bool isFloat = s.arithmetic == Arithmetic::Float32;
  // f32 products start from 0 (a bias is the epilogue's)
  auto zeroRow = [&] {
    return constantOf<float>(b, loc, std::vector<float>(s.batch * s.n, 0.0f));
  };
  if (isFloat) {
    if (std::optional<Elements<float>> w = evaluate<float>(bKN))
      return {constantOf<float>(b, loc, packBatch<float>(w->data, s)),
              zeroRow()};
  } else if (std::optional<Bytes> w = evaluateBytes(bKN)) {
    std::vector<int32_t> rows;
    for (int64_t i = 0; i < s.batch; ++i)
      llvm::append_range(
          rows, correctionOf(ArrayRef(w->data).slice(i * s.k * s.n, s.k * s.n),
                             s.k, s.n));
    return {constantOf<int8_t>(b, loc, packBatch<int8_t>(w->data, s)),
            constantOf<int32_t>(b, loc, rows)};
  }
  assert(s.batch == 1 && "a batch's weights are constants");
  Value padded = padZeros(b, loc, bKN, {rows, cols}, {0, 0});
  Value packed = splitAndTranspose(b, loc, padded,
                                   {groups, groupK, s.panels(), kPanelColumns},
                                   {{0, 1}, {2, 3}}, {2, 0, 3, 1});
  return {packed, isFloat ? zeroRow() : correctionOps(b, loc, bKN)};
}

PackedWeights mlir::relay::vnni::unpackedGemmWeights(OpBuilder &b, Location loc,
                                                     Value flat,
                                                     const GemmShape &s) {
  return {flat,
          constantOf<float>(b, loc, std::vector<float>(s.batch * s.n, 0.0f))};
}

PackedWeights mlir::relay::vnni::packDepthwiseWeights(OpBuilder &b,
                                                      Location loc,
                                                      Value filter,
                                                      const DepthwiseShape &s) {
  int64_t groups = s.channelGroups(), channels = groups * kPanelColumns;
  int64_t variants = s.paired() ? 2 : 1;
  if (s.isFloat()) {
    // per tap, per channel group: 16 channels, zero beyond C
    auto zeroRow = constantOf<float>(b, loc, std::vector<float>(s.c, 0.0f));
    if (std::optional<Elements<float>> f = evaluate<float>(filter)) {
      std::vector<float> packed(s.packedElements(), 0.0f);
      for (int64_t t = 0; t < s.kh * s.kw; ++t)
        for (int64_t c = 0; c < s.c; ++c)
          packed[t * channels + c] = f->data[t * s.c + c];
      return {constantOf<float>(b, loc, packed), zeroRow};
    }
    return {
        flatten(b, loc,
                padZeros(b, loc, filter, {s.kh, s.kw, channels}, {0, 0, 0})),
        zeroRow};
  }
  if (std::optional<Bytes> f = evaluateBytes(filter)) {
    // per variant (taps at 0..KW-1 of a group of 4, then at 1..KW), per
    // kernel row, per channel group: [16 channels][4 taps], zero beyond KW
    // and C
    std::vector<int8_t> packed(s.packedElements(), 0);
    for (int64_t v = 0; v < variants; ++v)
      for (int64_t r = 0; r < s.kh; ++r)
        for (int64_t t = 0; t < s.kw; ++t)
          for (int64_t c = 0; c < s.c; ++c)
            packed[((((v * s.kh + r) * groups + c / kPanelColumns) *
                         kPanelColumns +
                     c % kPanelColumns) *
                    kGroupK) +
                   t + v] = f->data[(r * s.kw + t) * s.c + c];
    return {
        constantOf<int8_t>(b, loc, packed),
        constantOf<int32_t>(b, loc, correctionOf(f->data, s.kh * s.kw, s.c))};
  }
  SmallVector<Value> packs;
  for (int64_t shift = 0; shift < variants; ++shift) {
    Value padded =
        padZeros(b, loc, filter, {s.kh, kGroupK, channels}, {0, shift, 0});
    packs.push_back(splitAndTranspose(b, loc, padded,
                                      {s.kh, kGroupK, groups, kPanelColumns},
                                      {{0}, {1}, {2, 3}}, {0, 2, 3, 1}));
  }
  Value packed =
      packs.size() == 1 ? packs[0] : tensor::ConcatOp::create(b, loc, 0, packs);
  Value taps = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({s.kh * s.kw, s.c}, b.getI8Type()), filter,
      ArrayRef<ReassociationIndices>{{0, 1}, {2}});
  return {packed, correctionOps(b, loc, taps)};
}

std::optional<APInt> mlir::relay::vnni::evaluateIntegerBody(Block &body,
                                                            APInt x) {
  DenseMap<Value, APInt> values;
  values[body.getArgument(0)] = x;
  auto valueOf = [&](Value v) -> std::optional<APInt> {
    auto it = values.find(v);
    if (it != values.end())
      return it->second;
    APInt c;
    if (matchPattern(v, m_ConstantInt(&c)))
      return c;
    return std::nullopt;
  };
  for (Operation &op : body) {
    if (auto yield = dyn_cast<linalg::YieldOp>(op))
      return valueOf(yield.getOperand(0));
    if (isa<arith::ConstantOp>(op))
      continue;
    if (op.getNumResults() != 1)
      return std::nullopt;
    auto type = dyn_cast<IntegerType>(op.getResult(0).getType());
    SmallVector<APInt> args;
    for (Value operand : op.getOperands()) {
      std::optional<APInt> v = valueOf(operand);
      if (!v)
        return std::nullopt;
      args.push_back(*v);
    }
    if (!type)
      return std::nullopt;
    unsigned w = type.getWidth();
    std::optional<APInt> r;
    if (isa<arith::ExtUIOp>(op))
      r = args[0].zext(w);
    else if (isa<arith::ExtSIOp>(op))
      r = args[0].sext(w);
    else if (isa<arith::TruncIOp>(op))
      r = args[0].trunc(w);
    else if (isa<arith::AddIOp>(op))
      r = args[0] + args[1];
    else if (isa<arith::SubIOp>(op))
      r = args[0] - args[1];
    else if (isa<arith::XOrIOp>(op))
      r = args[0] ^ args[1];
    if (!r)
      return std::nullopt;
    values[op.getResult(0)] = *r;
  }
  return std::nullopt;
}
