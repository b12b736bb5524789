//===- SymbolicSizes.cpp - sizes as products of run-time dims -------------===//
#include "SymbolicSizes.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

/// How far `tensor.dim` and size arithmetic are followed back (the sizes of
/// a deep network's activations are dims of the layer before, back to the
/// arguments; past this a size is taken as it is).
constexpr int kDepth = 512;

using Sym = std::optional<SymbolicSize>;

Sym constant(int64_t v) {
  if (v <= 0)
    return std::nullopt; // (zero dims: the static paths handle them)
  SymbolicSize s;
  s.factor = v;
  return s;
}

Sym leaf(Value v, int64_t dim) {
  SymbolicSize s;
  s.dims.push_back({v, dim});
  return s;
}

bool lessDim(const std::pair<Value, int64_t> &a,
             const std::pair<Value, int64_t> &b) {
  if (a.first != b.first)
    return a.first.getAsOpaquePointer() < b.first.getAsOpaquePointer();
  return a.second < b.second;
}

Sym multiply(const Sym &a, const Sym &b) {
  if (!a || !b)
    return std::nullopt;
  SymbolicSize s;
  if (llvm::MulOverflow(a->factor, b->factor, s.factor))
    return std::nullopt;
  s.dims = a->dims;
  s.dims.append(b->dims.begin(), b->dims.end());
  llvm::sort(s.dims, lessDim);
  return s;
}

/// `a / b` when `b` divides `a` as a product (then the division is exact
/// for every run-time value, b being nonzero wherever it is computed).
Sym divide(const Sym &a, const Sym &b) {
  if (!a || !b || a->factor % b->factor != 0)
    return std::nullopt;
  SymbolicSize s;
  s.factor = a->factor / b->factor;
  s.dims = a->dims;
  for (const auto &d : b->dims) {
    auto *it = llvm::find(s.dims, d);
    if (it == s.dims.end())
      return std::nullopt;
    s.dims.erase(it);
  }
  return s;
}

/// The product forms of sizes, each computed once (a select's two branches
/// often lead back to the same dims: without the memo, a chain of such
/// reshapes took time exponential in its length).
struct Chase {
  static constexpr int64_t kValue = std::numeric_limits<int64_t>::min();
  DenseMap<std::pair<void *, int64_t>, Sym> memo;

  Sym sizeOf(Value v, int depth);
  Sym sizeOf(OpFoldResult ofr, int depth);
  Sym dimOf(Value tensor, int64_t i, int depth);

private:
  Sym computeSize(Value v, int depth);
  Sym computeDim(Value tensor, int64_t i, int depth);
  Sym affineProduct(AffineExpr e, unsigned numDims, ValueRange operands,
                    int depth);
};

Sym Chase::sizeOf(OpFoldResult ofr, int depth) {
  if (std::optional<int64_t> c = getConstantIntValue(ofr))
    return constant(*c);
  if (auto v = dyn_cast<Value>(ofr))
    return sizeOf(v, depth);
  return std::nullopt;
}

/// A product in an affine expression over `operands`.
Sym Chase::affineProduct(AffineExpr e, unsigned numDims, ValueRange operands,
                         int depth) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return constant(c.getValue());
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return sizeOf(operands[d.getPosition()], depth);
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return sizeOf(operands[numDims + s.getPosition()], depth);
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin || bin.getKind() != AffineExprKind::Mul)
    return std::nullopt;
  return multiply(affineProduct(bin.getLHS(), numDims, operands, depth),
                  affineProduct(bin.getRHS(), numDims, operands, depth));
}

Sym Chase::sizeOf(Value v, int depth) {
  if (!v)
    return std::nullopt;
  if (depth <= 0)
    return leaf(v, -1);
  auto key = std::make_pair(v.getAsOpaquePointer(), kValue);
  if (auto it = memo.find(key); it != memo.end())
    return it->second;
  Sym s = computeSize(v, depth);
  memo[key] = s;
  return s;
}

Sym Chase::computeSize(Value v, int depth) {
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)))
    return constant(c.getSExtValue());
  Operation *def = v.getDefiningOp();
  if (!def)
    return leaf(v, -1);
  if (auto dim = dyn_cast<tensor::DimOp>(def)) {
    if (std::optional<int64_t> i = dim.getConstantIndex())
      return dimOf(dim.getSource(), *i, depth - 1);
    return leaf(v, -1);
  }
  if (auto mul = dyn_cast<arith::MulIOp>(def))
    return multiply(sizeOf(mul.getLhs(), depth - 1),
                    sizeOf(mul.getRhs(), depth - 1));
  if (isa<arith::DivSIOp, arith::DivUIOp, arith::CeilDivSIOp,
          arith::CeilDivUIOp, arith::FloorDivSIOp>(def)) {
    Sym q = divide(sizeOf(def->getOperand(0), depth - 1),
                   sizeOf(def->getOperand(1), depth - 1));
    return q ? q : leaf(v, -1);
  }
  // (either way the same size: ONNX's `0 copies the input dim` when the
  // entry is that dim anyway)
  if (auto select = dyn_cast<arith::SelectOp>(def)) {
    Sym a = sizeOf(select.getTrueValue(), depth - 1);
    if (a && a == sizeOf(select.getFalseValue(), depth - 1))
      return a;
    return leaf(v, -1);
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def)) {
    Type in = def->getOperand(0).getType();
    if (in.isIndex() || in.getIntOrFloatBitWidth() >= 64)
      return sizeOf(def->getOperand(0), depth - 1);
    return leaf(v, -1);
  }
  // affine.apply (generic: the conversion does not load the affine dialect)
  if (def->getName().getStringRef() == "affine.apply") {
    auto map = def->getAttrOfType<AffineMapAttr>("map");
    if (map && map.getValue().getNumResults() == 1) {
      AffineMap m = map.getValue();
      if (Sym s = affineProduct(m.getResult(0), m.getNumDims(),
                                def->getOperands(), depth - 1))
        return s;
    }
  }
  return leaf(v, -1);
}

Sym Chase::dimOf(Value tensor, int64_t i, int depth) {
  auto type = dyn_cast<RankedTensorType>(tensor.getType());
  if (!type || i < 0 || i >= type.getRank())
    return std::nullopt;
  if (!type.isDynamicDim(i))
    return constant(type.getDimSize(i));
  auto key = std::make_pair(tensor.getAsOpaquePointer(), i);
  if (auto it = memo.find(key); it != memo.end())
    return it->second;
  Sym s = computeDim(tensor, i, depth);
  memo[key] = s;
  return s;
}

Sym Chase::computeDim(Value tensor, int64_t i, int depth) {
  Operation *def = tensor.getDefiningOp();
  if (!def || depth <= 0)
    return leaf(tensor, i);
  if (auto empty = dyn_cast<tensor::EmptyOp>(def))
    return sizeOf(empty.getDynamicSize(i), depth - 1);
  if (auto cast = dyn_cast<tensor::CastOp>(def))
    return dimOf(cast.getSource(), i, depth - 1);
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def))
    return sizeOf(expand.getMixedOutputShape()[i], depth - 1);
  if (auto reshape = dyn_cast<tensor::ReshapeOp>(def)) {
    if (auto shape = reshape.getShape().getDefiningOp<tensor::FromElementsOp>())
      return sizeOf(shape.getElements()[i], depth - 1);
    return leaf(tensor, i);
  }
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(def)) {
    Sym p = constant(1);
    for (int64_t k : collapse.getReassociationIndices()[i])
      p = multiply(p, dimOf(collapse.getSrc(), k, depth - 1));
    return p;
  }
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def)) {
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
    for (int64_t k = 0, kept = 0; k < (int64_t)sizes.size(); ++k) {
      if (dropped.test(k))
        continue;
      if (kept++ == i)
        return sizeOf(sizes[k], depth - 1);
    }
    return leaf(tensor, i);
  }
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(def)) {
    auto result = cast<OpResult>(tensor);
    if (OpOperand *init = dps.getTiedOpOperand(result))
      return dimOf(init->get(), i, depth - 1);
  }
  return leaf(tensor, i);
}

/// Consecutive runs of `src` and `dst` sizes with equal products, if the
/// shapes cut that way (unit dims left over at an end join the last run).
std::optional<
    SmallVector<std::pair<ReassociationIndices, ReassociationIndices>>>
equalRuns(ArrayRef<SymbolicSize> src, ArrayRef<SymbolicSize> dst) {
  SmallVector<std::pair<ReassociationIndices, ReassociationIndices>> runs;
  size_t i = 0, j = 0, n = src.size(), m = dst.size();
  auto isOne = [](const SymbolicSize &s) {
    return s.factor == 1 && s.dims.empty();
  };
  while (i < n && j < m) {
    ReassociationIndices gs{(int64_t)i}, gd{(int64_t)j};
    Sym ps = src[i++], pd = dst[j++];
    while (!(*ps == *pd)) {
      if (divide(ps, pd) && j < m) { // the result run is behind: extend it
        pd = multiply(pd, dst[j]);
        gd.push_back(j++);
      } else if (divide(pd, ps) && i < n) {
        ps = multiply(ps, src[i]);
        gs.push_back(i++);
      } else {
        return std::nullopt;
      }
      if (!ps || !pd)
        return std::nullopt;
    }
    runs.push_back({gs, gd});
  }
  for (; i < n; ++i) {
    if (runs.empty() || !isOne(src[i]))
      return std::nullopt;
    runs.back().first.push_back(i);
  }
  for (; j < m; ++j) {
    if (runs.empty() || !isOne(dst[j]))
      return std::nullopt;
    runs.back().second.push_back(j);
  }
  return runs;
}

} // namespace

std::optional<SymbolicSize> lowering::symbolicSize(OpFoldResult size) {
  return Chase().sizeOf(size, kDepth);
}

std::optional<SymbolicSize> lowering::symbolicDim(Value tensor, int64_t i) {
  return Chase().dimOf(tensor, i, kDepth);
}

bool lowering::provablyEqualDims(Value x, int64_t i, Value y, int64_t j) {
  auto xt = cast<RankedTensorType>(x.getType()),
       yt = cast<RankedTensorType>(y.getType());
  if (!xt.isDynamicDim(i) && !yt.isDynamicDim(j))
    return xt.getDimSize(i) == yt.getDimSize(j);
  Sym sx = symbolicDim(x, i), sy = symbolicDim(y, j);
  if (sx && sy && *sx == *sy)
    return true;
  FailureOr<bool> eq = ValueBoundsConstraintSet::areEqual({x, i}, {y, j});
  return succeeded(eq) && *eq;
}

bool lowering::provablyDimIs(Value x, int64_t i, int64_t c) {
  auto xt = cast<RankedTensorType>(x.getType());
  if (!xt.isDynamicDim(i))
    return xt.getDimSize(i) == c;
  Sym sx = symbolicDim(x, i);
  if (sx && sx->dims.empty())
    return sx->factor == c;
  FailureOr<int64_t> v = ValueBoundsConstraintSet::computeConstantBound(
      presburger::BoundType::EQ, {x, i});
  return succeeded(v) && *v == c;
}

std::optional<Value> lowering::symbolicRegroup(OpBuilder &b, Location loc,
                                               Value data,
                                               RankedTensorType dstType,
                                               ArrayRef<OpFoldResult> sizes) {
  auto srcType = cast<RankedTensorType>(data.getType());
  if ((srcType.hasStaticShape() && dstType.hasStaticShape()) ||
      srcType.getRank() == 0 || dstType.getRank() == 0)
    return std::nullopt;
  Chase chase; // (one memo for both shapes)
  SmallVector<SymbolicSize> src, dst;
  for (int64_t i = 0; i < srcType.getRank(); ++i) {
    Sym s = chase.dimOf(data, i, kDepth);
    if (!s)
      return std::nullopt;
    src.push_back(*s);
  }
  for (int64_t j = 0; j < dstType.getRank(); ++j) {
    Sym s = dstType.isDynamicDim(j) ? chase.sizeOf(sizes[j], kDepth)
                                    : constant(dstType.getDimSize(j));
    if (!s)
      return std::nullopt;
    dst.push_back(*s);
  }
  auto runs = equalRuns(src, dst);
  if (!runs)
    return std::nullopt;
  SmallVector<ReassociationIndices> srcGroups, dstGroups;
  for (auto &[gs, gd] : *runs) {
    srcGroups.push_back(gs);
    dstGroups.push_back(gd);
  }
  Type elt = srcType.getElementType();
  // the one dim per run: static where the result's run is all static
  SmallVector<int64_t> collapsed, mid;
  for (auto [gs, gd] : llvm::zip(srcGroups, dstGroups)) {
    auto product = [](RankedTensorType t, ArrayRef<int64_t> group) {
      int64_t p = 1;
      for (int64_t d : group) {
        if (t.isDynamicDim(d))
          return ShapedType::kDynamic;
        p *= t.getDimSize(d);
      }
      return p;
    };
    collapsed.push_back(product(srcType, gs));
    mid.push_back(product(dstType, gd));
  }
  Value v = data;
  if (srcGroups.size() != (size_t)srcType.getRank())
    v = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get(collapsed, elt), v, srcGroups);
  v = castTo(b, loc, v, RankedTensorType::get(mid, elt));
  if (dstGroups.size() == (size_t)dstType.getRank())
    return castTo(b, loc, v, dstType);
  return expandTo(b, loc, v, dstType, dstGroups, sizes);
}
