//===- ConvertLayout.cpp - relay-convert-layout ---------------------------===//
//
// Relay's ConvertLayout as greedy rewrite patterns:
//   1. every nn.conv2d not in the desired layout gets transposes around it
//      (data and weight into the desired layouts, the result back);
//   2. transposes sink below the ops that can work in either layout
//      (elementwise, broadcasting binary ops, axis ops, pools, reductions,
//      concatenate, nn.pad), so that the transpose back from one convolution
//      meets the transpose into the next one;
//   3. transpose∘transpose composes, identities vanish, transposes of
//      constants fold, and a transpose that only moves size-1 dims becomes a
//      reshape;
//   4. then a transpose left below a pad (it met nothing) moves above it, so
//      the pad is in the convolution's layout.
// Every new op gets its result types from its own typing rule (the typed
// builders, or relay::createInferred for an op copied onto new operands),
// never from hand-written shape arithmetic.
//
//===----------------------------------------------------------------------===//
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYCONVERTLAYOUT
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

using Perm = SmallVector<int64_t, 4>;

//===----------------------------------------------------------------------===//
// Permutations and layouts
//===----------------------------------------------------------------------===//

bool isIdentityPerm(ArrayRef<int64_t> perm) {
  for (auto [i, p] : llvm::enumerate(perm))
    if (p != (int64_t)i)
      return false;
  return true;
}

Perm inversePerm(ArrayRef<int64_t> perm) {
  Perm inv(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inv[p] = i;
  return inv;
}

/// The permutation `perm` with transpose(x in `from`, perm) in `to`:
/// perm[i] = position in `from` of the letter `to[i]`. None unless both
/// are arrangements of the same distinct letters.
std::optional<Perm> layoutPerm(StringRef from, StringRef to) {
  if (from.size() != to.size())
    return std::nullopt;
  Perm perm;
  llvm::SmallBitVector seen(from.size());
  for (char c : to) {
    size_t pos = from.find(c);
    if (pos == StringRef::npos || seen.test(pos))
      return std::nullopt;
    seen.set(pos);
    perm.push_back(pos);
  }
  return perm;
}

int64_t rankOf(Value v) {
  if (auto t = dyn_cast<RankedTensorType>(v.getType()))
    return t.getRank();
  return -1;
}

/// A value computed by `relay.transpose`: its input and normalised axes.
struct Transposed {
  Value input;
  Perm perm;
};

std::optional<Transposed> asTranspose(Value v) {
  auto t = v.getDefiningOp<TransposeOp>();
  if (!t)
    return std::nullopt;
  int64_t rank = rankOf(t.getData());
  if (rank < 0 || rankOf(t.getResult()) != rank)
    return std::nullopt;
  Perm perm;
  std::optional<ArrayRef<int64_t>> axes = t.getAxes();
  if (!axes || axes->empty()) {
    for (int64_t i = rank - 1; i >= 0; --i)
      perm.push_back(i);
  } else {
    if ((int64_t)axes->size() != rank)
      return std::nullopt;
    for (int64_t a : *axes)
      perm.push_back(a < 0 ? a + rank : a);
  }
  return Transposed{t.getData(), perm};
}

/// True if transposing a tensor of `shape` by `perm` keeps the order of
/// its non-unit dims (`?` counts as non-unit): the transpose is a reshape.
bool movesOnlyUnitDims(ArrayRef<int64_t> shape, ArrayRef<int64_t> perm) {
  int64_t last = -1;
  for (int64_t p : perm) {
    if (shape[p] == 1)
      continue;
    if (p < last)
      return false;
    last = p;
  }
  return true;
}

/// A transpose worth sinking below its user: one that moves data. A
/// transpose that keeps the order of the non-unit dims is a reshape
/// (UnitDimTransposeToReshape) and sinking it gains nothing; worse, the
/// binary-op sinking treats such transposes of other operands as free, so
/// sinking them in both directions would never terminate.
std::optional<Transposed> asSinkableTranspose(Value v) {
  std::optional<Transposed> t = asTranspose(v);
  if (!t)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(t->input.getType());
  if (!type || movesOnlyUnitDims(type.getShape(), t->perm))
    return std::nullopt;
  return t;
}

bool isConstant(Value v) {
  return matchPattern(v, m_Constant()) && isa<RankedTensorType>(v.getType());
}

//===----------------------------------------------------------------------===//
// Creating ops typed by their typing rules
//===----------------------------------------------------------------------===//

/// Creates relay op `name` at the rewriter's insertion point, typed by its
/// typing rule. Fails (creating nothing) if the rule rejects the operands.
FailureOr<Operation *> createTyped(PatternRewriter &rewriter, Location loc,
                                   StringRef name, ValueRange operands,
                                   ArrayRef<NamedAttribute> attrs,
                                   unsigned numResults = 1) {
  MLIRContext *ctx = rewriter.getContext();
  FailureOr<Operation *> op =
      createInferred(rewriter, loc, OperationName(name, ctx), operands,
                     DictionaryAttr::get(ctx, attrs));
  if (failed(op) || (*op)->getNumResults() == numResults)
    return op;
  rewriter.eraseOp(*op);
  return failure();
}

/// `op`'s kind and attributes with `operands`, attributes `changes`
/// overriding.
FailureOr<Operation *> createLike(PatternRewriter &rewriter, Operation *op,
                                  ValueRange operands,
                                  ArrayRef<NamedAttribute> changes = {}) {
  NamedAttrList attrs(op->getAttrDictionary());
  for (NamedAttribute change : changes)
    attrs.set(change.getName(), change.getValue());
  return createTyped(rewriter, op->getLoc(), op->getName().getStringRef(),
                     operands, attrs.getAttrs(), op->getNumResults());
}

FailureOr<Value> createTranspose(PatternRewriter &rewriter, Location loc,
                                 Value x, ArrayRef<int64_t> perm) {
  if (isIdentityPerm(perm))
    return x;
  // The typed builder aborts if inference fails: ask the typing rule first
  // (silently: a rejected permutation only means "no rewrite").
  ErrorSite probe(std::nullopt, TransposeOp::getOperationName());
  if (failed(inferTranspose(probe, x.getType(), perm)))
    return failure();
  return TransposeOp::create(rewriter, loc, x,
                             rewriter.getDenseI64ArrayAttr(perm))
      .getResult();
}

FailureOr<Value> createReshape(PatternRewriter &rewriter, Location loc, Value x,
                               ArrayRef<int64_t> shape) {
  if (llvm::any_of(shape, [](int64_t d) { return d < 0; }))
    return failure();
  if (cast<RankedTensorType>(x.getType()).getShape() == shape)
    return x;
  bool allowZero = llvm::is_contained(shape, 0);
  ErrorSite probe(std::nullopt, ReshapeOp::getOperationName());
  if (failed(inferReshape(probe, x.getType(), shape, allowZero)))
    return failure();
  return ReshapeOp::create(rewriter, loc, x, shape, allowZero).getResult();
}

/// Replaces `op` by `values` if their types are exactly the old ones;
/// otherwise erases the ops created for the rewrite (all ops in `created`
/// are new and unused outside it) and fails.
LogicalResult replaceIfSameTypes(PatternRewriter &rewriter, Operation *op,
                                 ArrayRef<Value> values) {
  for (auto [old, now] : llvm::zip(op->getResults(), values))
    if (old.getType() != now.getType())
      return rewriter.notifyMatchFailure(op, "rewrite changed a result type");
  rewriter.replaceOp(op, values);
  return success();
}

/// Erases `op` and its operands' defining ops that became unused (undoing
/// a partly built rewrite).
void eraseUnused(PatternRewriter &rewriter, Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || !v.use_empty() || isa<ConstantOp>(def) || !isPure(def))
    return;
  SmallVector<Value> operands(def->getOperands());
  rewriter.eraseOp(def);
  for (Value operand : operands)
    eraseUnused(rewriter, operand);
}

//===----------------------------------------------------------------------===//
// Constant folding (transposes and reshapes of relay.constant)
//===----------------------------------------------------------------------===//

/// `attr` transposed by `perm`; null if its storage is not dense.
DenseElementsAttr transposeElements(ElementsAttr attr, ArrayRef<int64_t> perm) {
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  auto type = dyn_cast<RankedTensorType>(attr.getType());
  if (!dense || !type || !type.hasStaticShape() ||
      (int64_t)perm.size() != type.getRank())
    return {};
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> outShape;
  for (int64_t p : perm)
    outShape.push_back(shape[p]);
  auto outType = RankedTensorType::get(outShape, type.getElementType());
  if (dense.isSplat())
    return dense.resizeSplat(outType);
  int64_t rank = type.getRank(), n = type.getNumElements();
  // Input stride of each output dim.
  SmallVector<int64_t> inStrides(rank, 1), strideOfOut(rank);
  for (int64_t d = rank - 2; d >= 0; --d)
    inStrides[d] = inStrides[d + 1] * shape[d + 1];
  for (int64_t d = 0; d < rank; ++d)
    strideOfOut[d] = inStrides[perm[d]];
  SmallVector<int64_t> index(rank, 0);
  auto forEach = [&](auto &&body) {
    int64_t offset = 0;
    for (int64_t o = 0; o < n; ++o) {
      body(o, offset);
      for (int64_t d = rank - 1; d >= 0; --d) {
        offset += strideOfOut[d];
        if (++index[d] < outShape[d])
          break;
        offset -= strideOfOut[d] * outShape[d];
        index[d] = 0;
      }
    }
  };
  Type elem = type.getElementType();
  unsigned bits = elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 0;
  if (bits >= 8 && bits % 8 == 0) {
    size_t bytes = bits / 8;
    ArrayRef<char> raw = dense.getRawData();
    if (raw.size() != (size_t)n * bytes)
      return {};
    std::vector<char> out(raw.size());
    forEach([&](int64_t o, int64_t offset) {
      std::memcpy(&out[o * bytes], &raw[offset * bytes], bytes);
    });
    return DenseElementsAttr::getFromRawBuffer(outType, out);
  }
  // i1 and other sub-byte types: element by element.
  SmallVector<Attribute> values(dense.getValues<Attribute>());
  SmallVector<Attribute> out(n);
  forEach([&](int64_t o, int64_t offset) { out[o] = values[offset]; });
  return DenseElementsAttr::get(outType, out);
}

struct FoldTransposeOfConstant : OpRewritePattern<TransposeOp> {
  FoldTransposeOfConstant(MLIRContext *ctx)
      : OpRewritePattern<TransposeOp>(ctx, /*benefit=*/10) {}
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    ElementsAttr value;
    std::optional<Transposed> t = asTranspose(op.getResult());
    if (!t || !matchPattern(op.getData(), m_Constant(&value)))
      return failure();
    DenseElementsAttr folded = transposeElements(value, t->perm);
    if (!folded || folded.getType() != op.getType())
      return failure();
    rewriter.replaceOpWithNewOp<ConstantOp>(op, op.getType(), folded);
    return success();
  }
};

struct FoldReshapeOfConstant : OpRewritePattern<ReshapeOp> {
  FoldReshapeOfConstant(MLIRContext *ctx)
      : OpRewritePattern<ReshapeOp>(ctx, /*benefit=*/10) {}
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    ElementsAttr value;
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !type.hasStaticShape() ||
        !matchPattern(op.getData(), m_Constant(&value)))
      return failure();
    auto dense = dyn_cast<DenseElementsAttr>(value);
    if (!dense || dense.getType().getElementType() != type.getElementType() ||
        dense.getNumElements() != type.getNumElements())
      return failure();
    rewriter.replaceOpWithNewOp<ConstantOp>(op, type, dense.reshape(type));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Transpose and reshape simplification
//===----------------------------------------------------------------------===//

/// transpose(transpose(x, p1), p2) = transpose(x, p1∘p2); identities vanish.
struct ComposeTransposes : OpRewritePattern<TransposeOp> {
  ComposeTransposes(MLIRContext *ctx)
      : OpRewritePattern<TransposeOp>(ctx, /*benefit=*/5) {}
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Transposed> outer = asTranspose(op.getResult());
    if (!outer)
      return failure();
    if (isIdentityPerm(outer->perm) && op.getData().getType() == op.getType()) {
      rewriter.replaceOp(op, op.getData());
      return success();
    }
    std::optional<Transposed> inner = asTranspose(op.getData());
    if (!inner)
      return failure();
    Perm composed;
    for (int64_t p : outer->perm)
      composed.push_back(inner->perm[p]);
    FailureOr<Value> t =
        createTranspose(rewriter, op.getLoc(), inner->input, composed);
    if (failed(t))
      return failure();
    return replaceIfSameTypes(rewriter, op, *t);
  }
};

/// A transpose that keeps the order of the non-unit dims is a reshape.
struct UnitDimTransposeToReshape : OpRewritePattern<TransposeOp> {
  UnitDimTransposeToReshape(MLIRContext *ctx)
      : OpRewritePattern<TransposeOp>(ctx, /*benefit=*/1) {}
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Transposed> t = asTranspose(op.getResult());
    auto inType = dyn_cast<RankedTensorType>(op.getData().getType());
    auto outType = dyn_cast<RankedTensorType>(op.getType());
    if (!t || !inType || !outType || !outType.hasStaticShape() ||
        isIdentityPerm(t->perm) ||
        !movesOnlyUnitDims(inType.getShape(), t->perm))
      return failure();
    FailureOr<Value> r =
        createReshape(rewriter, op.getLoc(), op.getData(), outType.getShape());
    if (failed(r))
      return failure();
    return replaceIfSameTypes(rewriter, op, *r);
  }
};

/// reshape(reshape(x)) = reshape(x); a reshape to the same type vanishes.
struct SimplifyReshape : OpRewritePattern<ReshapeOp> {
  SimplifyReshape(MLIRContext *ctx)
      : OpRewritePattern<ReshapeOp>(ctx, /*benefit=*/5) {}
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getData().getType() == op.getType()) {
      rewriter.replaceOp(op, op.getData());
      return success();
    }
    auto inner = op.getData().getDefiningOp<ReshapeOp>();
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!inner || !type || !type.hasStaticShape())
      return failure();
    FailureOr<Value> r =
        createReshape(rewriter, op.getLoc(), inner.getData(), type.getShape());
    if (failed(r))
      return failure();
    return replaceIfSameTypes(rewriter, op, *r);
  }
};

//===----------------------------------------------------------------------===//
// nn.conv2d into the desired layout
//===----------------------------------------------------------------------===//

struct ConvToLayout : OpRewritePattern<Conv2DOp> {
  ConvToLayout(MLIRContext *ctx, StringRef dataLayout, StringRef kernelLayout,
               bool constantWeightsOnly)
      : OpRewritePattern<Conv2DOp>(ctx, /*benefit=*/1), dataLayout(dataLayout),
        kernelLayout(kernelLayout), constantWeightsOnly(constantWeightsOnly) {}

  LogicalResult matchAndRewrite(Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    StringRef data = op.getDataLayout(), kernel = op.getKernelLayout();
    StringRef out = op.getOutLayout().empty() ? data : op.getOutLayout();
    if (data == dataLayout && out == dataLayout)
      return rewriter.notifyMatchFailure(op, "already in the desired layout");
    // A weight computed at run time would be transposed on every call, and
    // IREE (3.13, llvm-cpu) fuses such a transpose into the convolution
    // badly: bench/OPS.md measured a lone NCHW conv2d with an argument
    // weight 19x slower converted than as is.
    if (constantWeightsOnly && !isConstant(op.getWeight()))
      return rewriter.notifyMatchFailure(op, "the weight is not a constant");
    std::optional<Perm> toData = layoutPerm(data, dataLayout);
    std::optional<Perm> toKernel = layoutPerm(kernel, kernelLayout);
    std::optional<Perm> back = layoutPerm(dataLayout, out);
    if (!toData || !toKernel || !back)
      return rewriter.notifyMatchFailure(op, "layouts are not NCHW/OIHW-like");
    Location loc = op.getLoc();
    FailureOr<Value> x = createTranspose(rewriter, loc, op.getData(), *toData);
    if (failed(x))
      return failure();
    FailureOr<Value> w =
        createTranspose(rewriter, loc, op.getWeight(), *toKernel);
    if (failed(w)) {
      eraseUnused(rewriter, *x);
      return failure();
    }
    FailureOr<Operation *> conv = createLike(
        rewriter, op, {*x, *w},
        {rewriter.getNamedAttr("data_layout",
                               rewriter.getStringAttr(dataLayout)),
         rewriter.getNamedAttr("kernel_layout",
                               rewriter.getStringAttr(kernelLayout)),
         rewriter.getNamedAttr("out_layout", rewriter.getStringAttr(""))});
    FailureOr<Value> result =
        succeeded(conv)
            ? createTranspose(rewriter, loc, (*conv)->getResult(0), *back)
            : FailureOr<Value>(failure());
    if (failed(result) || failed(replaceIfSameTypes(rewriter, op, *result))) {
      if (succeeded(result))
        eraseUnused(rewriter, *result);
      eraseUnused(rewriter, *x);
      eraseUnused(rewriter, *w);
      return rewriter.notifyMatchFailure(op, "the new conv2d does not type");
    }
    return success();
  }

  std::string dataLayout, kernelLayout;
  bool constantWeightsOnly;
};

//===----------------------------------------------------------------------===//
// Sinking transposes
//===----------------------------------------------------------------------===//

/// Base of the sinking patterns: `rewriteSunk` builds the op on the
/// untransposed operands and returns its results in the old layout.
struct SinkPattern : RewritePattern {
  SinkPattern(MLIRContext *ctx, PatternBenefit benefit = 2)
      : RewritePattern(MatchAnyOpTypeTag(), benefit, ctx) {}

  /// Finishes a rewrite of `op` whose new op is `newOp` (one tensor result
  /// to transpose by `perm`).
  LogicalResult finish(PatternRewriter &rewriter, Operation *op,
                       FailureOr<Operation *> newOp, ArrayRef<int64_t> perm,
                       ArrayRef<Value> extra = {}) const {
    if (failed(newOp)) {
      for (Value v : extra)
        eraseUnused(rewriter, v);
      return rewriter.notifyMatchFailure(op, "the new op does not type");
    }
    FailureOr<Value> out =
        createTranspose(rewriter, op->getLoc(), (*newOp)->getResult(0), perm);
    if (succeeded(out) && succeeded(replaceIfSameTypes(rewriter, op, *out)))
      return success();
    if (succeeded(out))
      eraseUnused(rewriter, *out);
    else
      eraseUnused(rewriter, (*newOp)->getResult(0));
    for (Value v : extra)
      eraseUnused(rewriter, v);
    return failure();
  }
};

/// `y`, an operand broadcast against a value v = transpose(x, perm) of rank
/// `rank`, brought into x's layout: a transpose with the same `perm` is
/// dropped, a constant folds, a lower-rank operand is first expanded to
/// rank `rank`; only operands whose conversion is free (constants,
/// transposed values, reshapes of unit dims) qualify. `created` collects
/// new values for undoing.
FailureOr<Value> intoLayout(PatternRewriter &rewriter, Location loc, Value y,
                            ArrayRef<int64_t> perm, int64_t rank,
                            SmallVectorImpl<Value> &created) {
  auto type = dyn_cast<RankedTensorType>(y.getType());
  if (!type || type.getRank() > rank)
    return failure();
  if (type.getRank() == 0)
    return y;
  if (std::optional<Transposed> t = asTranspose(y))
    if (type.getRank() == rank && ArrayRef<int64_t>(t->perm) == perm)
      return t->input;
  SmallVector<int64_t> expanded(rank - type.getRank(), 1);
  llvm::append_range(expanded, type.getShape());
  Perm inv = inversePerm(perm);
  bool free = isConstant(y) ||
              (type.hasStaticShape() && movesOnlyUnitDims(expanded, inv));
  if (!free)
    return failure();
  Value v = y;
  if (type.getRank() < rank) {
    FailureOr<Value> r = createReshape(rewriter, loc, y, expanded);
    if (failed(r))
      return failure();
    v = *r;
    created.push_back(v);
  }
  FailureOr<Value> t = createTranspose(rewriter, loc, v, inv);
  if (failed(t))
    return failure();
  created.push_back(*t);
  return *t;
}

/// Unary elementwise ops.
struct SinkThroughUnary : SinkPattern {
  using SinkPattern::SinkPattern;
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!op->hasTrait<relay::OpTrait::ElementwiseUnary>() ||
        op->getNumOperands() != 1 || op->getNumResults() != 1 ||
        op->hasAttr("axis") || op->hasAttr("axes"))
      return failure();
    std::optional<Transposed> t = asSinkableTranspose(op->getOperand(0));
    if (!t)
      return failure();
    return finish(rewriter, op, createLike(rewriter, op, t->input), t->perm);
  }
};

/// Broadcasting binary ops: both operands into the new layout.
struct SinkThroughBinary : SinkPattern {
  using SinkPattern::SinkPattern;
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!op->hasTrait<relay::OpTrait::ElementwiseBroadcast>() ||
        op->getNumResults() != 1 || op->getNumOperands() != 2)
      return failure();
    int64_t rank = rankOf(op->getResult(0));
    for (Value anchor : op->getOperands()) {
      std::optional<Transposed> t = asSinkableTranspose(anchor);
      if (!t || rankOf(anchor) != rank)
        continue;
      SmallVector<Value> operands, created;
      bool ok = true;
      for (Value y : op->getOperands()) {
        FailureOr<Value> v =
            intoLayout(rewriter, op->getLoc(), y, t->perm, rank, created);
        if (failed(v)) {
          ok = false;
          break;
        }
        operands.push_back(*v);
      }
      if (!ok) {
        for (Value v : llvm::reverse(created))
          eraseUnused(rewriter, v);
        continue;
      }
      return finish(rewriter, op, createLike(rewriter, op, operands), t->perm,
                    created);
    }
    return failure();
  }
};

/// Ops whose `axis` (or `axes`) names dims of their first operand
/// (AxisOfData: nn.bias_add, nn.prelu, nn.softmax, nn.batch_norm, ...).
struct SinkThroughAxisOp : SinkPattern {
  using SinkPattern::SinkPattern;
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!op->hasTrait<relay::OpTrait::AxisOfData>() ||
        op->getNumOperands() < 1 || op->getNumResults() != 1)
      return failure();
    std::optional<Transposed> t = asSinkableTranspose(op->getOperand(0));
    if (!t)
      return failure();
    int64_t rank = t->perm.size();
    auto mapAxis = [&](int64_t a) -> std::optional<int64_t> {
      if (a < -rank || a >= rank)
        return std::nullopt;
      return t->perm[a < 0 ? a + rank : a];
    };
    SmallVector<NamedAttribute, 1> change;
    if (auto axis = op->getAttrOfType<IntegerAttr>("axis")) {
      std::optional<int64_t> mapped = mapAxis(axis.getInt());
      if (!mapped)
        return failure();
      change.push_back(
          rewriter.getNamedAttr("axis", rewriter.getI64IntegerAttr(*mapped)));
    } else {
      auto axes = op->getAttrOfType<DenseI64ArrayAttr>("axes");
      if (!axes)
        return failure();
      SmallVector<int64_t> mapped;
      for (int64_t a : axes.asArrayRef()) {
        std::optional<int64_t> m = mapAxis(a);
        if (!m)
          return failure();
        mapped.push_back(*m);
      }
      change.push_back(
          rewriter.getNamedAttr("axes", rewriter.getDenseI64ArrayAttr(mapped)));
    }
    SmallVector<Value> operands(op->getOperands());
    operands[0] = t->input;
    FailureOr<Operation *> newOp = createLike(rewriter, op, operands, change);
    if (!isa<BatchNormOp>(op))
      return finish(rewriter, op, newOp, t->perm);

    // nn.batch_norm: a tuple (normalized, mean, var); field 0 goes back to
    // the old layout.
    if (failed(newOp))
      return failure();
    Value tuple = (*newOp)->getResult(0);
    auto tupleType = dyn_cast<TupleType>(tuple.getType());
    if (!tupleType) {
      rewriter.eraseOp(*newOp);
      return failure();
    }
    SmallVector<Value> fields;
    for (unsigned i = 0; i < tupleType.size(); ++i) {
      Value field = TupleGetItemOp::create(rewriter, op->getLoc(), tuple, i);
      if (i == 0) {
        FailureOr<Value> back =
            createTranspose(rewriter, op->getLoc(), field, t->perm);
        if (failed(back))
          return failure();
        field = *back;
      }
      fields.push_back(field);
    }
    Value rebuilt = TupleOp::create(rewriter, op->getLoc(), fields);
    return replaceIfSameTypes(rewriter, op, rebuilt);
  }
};

/// Reductions whose result does not depend on the order of the reduced dims
/// (`axis`, `keepdims`, `exclude`).
struct SinkThroughReduce : SinkPattern {
  using SinkPattern::SinkPattern;
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!op->hasTrait<relay::OpTrait::OrderFreeReduction>() ||
        op->getNumOperands() != 1 || op->getNumResults() != 1)
      return failure();
    std::optional<Transposed> t = asSinkableTranspose(op->getOperand(0));
    if (!t)
      return failure();
    int64_t rank = t->perm.size();
    // The reduced dims of v = transpose(x).
    llvm::SmallBitVector reduced(rank, false);
    auto axis = op->getAttrOfType<DenseI64ArrayAttr>("axis");
    if (!axis) {
      reduced.set();
    } else {
      for (int64_t a : axis.asArrayRef()) {
        if (a < -rank || a >= rank)
          return failure();
        reduced.set(a < 0 ? a + rank : a);
      }
    }
    auto exclude = op->getAttrOfType<BoolAttr>("exclude");
    if (exclude && exclude.getValue())
      reduced.flip();
    auto keep = op->getAttrOfType<BoolAttr>("keepdims");
    bool keepdims = keep && keep.getValue();
    // The same dims of x, sorted.
    SmallVector<int64_t> newAxes;
    for (int64_t d = 0; d < rank; ++d)
      if (reduced.test(inversePerm(t->perm)[d]))
        newAxes.push_back(d);
    // Result layout: with keepdims the same permutation; otherwise the
    // surviving dims of v, in x's order.
    Perm perm;
    if (keepdims) {
      perm = t->perm;
    } else {
      SmallVector<int64_t> keptX;
      for (int64_t d = 0; d < rank; ++d)
        if (!reduced.test(inversePerm(t->perm)[d]))
          keptX.push_back(d);
      for (int64_t d = 0; d < rank; ++d)
        if (!reduced.test(d))
          perm.push_back(llvm::find(keptX, t->perm[d]) - keptX.begin());
    }
    if (newAxes.empty())
      return failure(); // nothing reduced: an empty axis list means "all"
    FailureOr<Operation *> newOp = createLike(
        rewriter, op, t->input,
        {rewriter.getNamedAttr("axis", rewriter.getDenseI64ArrayAttr(newAxes)),
         rewriter.getNamedAttr("exclude", rewriter.getBoolAttr(false))});
    return finish(rewriter, op, newOp, perm);
  }
};

/// 2-D pools: the `layout` attribute follows the data.
struct SinkThroughPool : SinkPattern {
  using SinkPattern::SinkPattern;
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    static const llvm::StringSet<> pools = {
        "relay.nn.max_pool2d", "relay.nn.avg_pool2d",
        "relay.nn.global_avg_pool2d", "relay.nn.global_max_pool2d"};
    if (!pools.contains(op->getName().getStringRef()) ||
        op->getNumOperands() != 1 || op->getNumResults() != 1)
      return failure();
    auto layout = op->getAttrOfType<StringAttr>("layout");
    auto outLayout = op->getAttrOfType<StringAttr>("out_layout");
    std::optional<Transposed> t = asSinkableTranspose(op->getOperand(0));
    if (!layout || !t || layout.size() != t->perm.size() ||
        (outLayout && !outLayout.getValue().empty() && outLayout != layout))
      return failure();
    // x's layout: its dim perm[d] is the old layout's letter d.
    std::string newLayout(layout.size(), '?');
    for (auto [d, p] : llvm::enumerate(t->perm))
      newLayout[p] = layout.getValue()[d];
    if (newLayout != "NCHW" && newLayout != "NHWC")
      return failure();
    FailureOr<Operation *> newOp = createLike(
        rewriter, op, t->input,
        {rewriter.getNamedAttr("layout", rewriter.getStringAttr(newLayout)),
         rewriter.getNamedAttr("out_layout", rewriter.getStringAttr(""))});
    return finish(rewriter, op, newOp, t->perm);
  }
};

/// concatenate: every operand into the new layout, `axis` remapped.
struct SinkThroughConcatenate : SinkPattern {
  using SinkPattern::SinkPattern;
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    auto concat = dyn_cast<ConcatenateOp>(op);
    if (!concat)
      return failure();
    int64_t rank = rankOf(concat.getResult());
    for (Value anchor : op->getOperands()) {
      std::optional<Transposed> t = asSinkableTranspose(anchor);
      if (!t || rankOf(anchor) != rank)
        continue;
      int64_t axis = concat.getAxis();
      if (axis < -rank || axis >= rank)
        return failure();
      axis = t->perm[axis < 0 ? axis + rank : axis];
      SmallVector<Value> operands, created;
      bool ok = true;
      for (Value y : op->getOperands()) {
        FailureOr<Value> v =
            rankOf(y) == rank
                ? intoLayout(rewriter, op->getLoc(), y, t->perm, rank, created)
                : FailureOr<Value>(failure());
        if (failed(v)) {
          ok = false;
          break;
        }
        operands.push_back(*v);
      }
      if (!ok) {
        for (Value v : llvm::reverse(created))
          eraseUnused(rewriter, v);
        return failure();
      }
      return finish(rewriter, op,
                    createLike(rewriter, op, operands,
                               rewriter.getNamedAttr(
                                   "axis", rewriter.getI64IntegerAttr(axis))),
                    t->perm, created);
    }
    return failure();
  }
};

/// nn.pad (any mode): the (before, after) widths move with their dims. The
/// quantized importers pad with the input zero point before a convolution
/// that then has no padding: without this the pad stayed in the model's
/// NCHW between two transposes (MobileNetV2 int8: 17 of them).
struct SinkThroughPad : SinkPattern {
  using SinkPattern::SinkPattern;
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    auto pad = dyn_cast<PadOp>(op);
    if (!pad)
      return failure();
    std::optional<Transposed> t = asSinkableTranspose(pad.getData());
    if (!t)
      return failure();
    ArrayRef<int64_t> widths = pad.getPadWidth();
    int64_t rank = t->perm.size();
    if (static_cast<int64_t>(widths.size()) != 2 * rank)
      return failure();
    // result dim i is input dim perm[i]
    SmallVector<int64_t> moved(2 * rank);
    for (int64_t i = 0; i < rank; ++i) {
      moved[2 * t->perm[i]] = widths[2 * i];
      moved[2 * t->perm[i] + 1] = widths[2 * i + 1];
    }
    return finish(
        rewriter, op,
        createLike(rewriter, op, {t->input, pad.getPadValue()},
                   rewriter.getNamedAttr("pad_width",
                                         rewriter.getDenseI64ArrayAttr(moved))),
        t->perm);
  }
};

/// The transpose into a convolution's layout of a pad whose data no
/// transpose computes (the sinking left it there: it met nothing below)
/// moves above the pad, the widths
/// with their dims: transpose(pad(x)) -> pad(transpose(x)). A model's own
/// NCHW input padded with the zero point before the first convolution
/// (quantized importers) is then transposed unpadded and padded in NHWC,
/// where the convolution's kernel can put the padding in itself, as TVM's
/// ConvertLayout also pads in the new layout. Run after the sinking
/// patterns (it is their inverse).
struct HoistAbovePad : OpRewritePattern<TransposeOp> {
  HoistAbovePad(MLIRContext *ctx, StringAttr ownMark)
      : OpRewritePattern(ctx), ownMark(ownMark) {}
  StringAttr ownMark;

  LogicalResult matchAndRewrite(TransposeOp t,
                                PatternRewriter &rewriter) const override {
    auto pad = t.getData().getDefiningOp<PadOp>();
    if (!pad || !pad->hasOneUse() ||
        pad.getData().getDefiningOp<TransposeOp>() ||
        !llvm::any_of(t->getUses(), [](OpOperand &use) {
          return use.getOperandNumber() == 0 && isa<Conv2DOp>(use.getOwner());
        }))
      return failure();
    std::optional<ArrayRef<int64_t>> axes = t.getAxes();
    ArrayRef<int64_t> widths = pad.getPadWidth();
    if (!axes || 2 * axes->size() != widths.size())
      return failure();
    Perm perm(*axes);
    // result dim i of the transpose is dim perm[i] of the pad
    SmallVector<int64_t> moved(widths.size());
    for (auto [i, p] : llvm::enumerate(perm)) {
      moved[2 * i] = widths[2 * p];
      moved[2 * i + 1] = widths[2 * p + 1];
    }
    rewriter.setInsertionPoint(t);
    FailureOr<Value> data =
        createTranspose(rewriter, t.getLoc(), pad.getData(), perm);
    if (failed(data))
      return failure();
    if (t->hasAttr(ownMark))
      data->getDefiningOp()->setAttr(ownMark, rewriter.getUnitAttr());
    FailureOr<Operation *> padded =
        createLike(rewriter, pad, {*data, pad.getPadValue()},
                   rewriter.getNamedAttr("pad_width",
                                         rewriter.getDenseI64ArrayAttr(moved)));
    if (failed(padded) ||
        failed(replaceIfSameTypes(rewriter, t, (*padded)->getResult(0)))) {
      if (succeeded(padded))
        eraseUnused(rewriter, (*padded)->getResult(0));
      eraseUnused(rewriter, *data);
      return failure();
    }
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct ConvertLayoutPass
    : relay::impl::RelayConvertLayoutBase<ConvertLayoutPass> {
  using RelayConvertLayoutBase::RelayConvertLayoutBase;

  void runOnOperation() override {
    StringRef kernel;
    if (desiredLayout == "NHWC")
      kernel = "HWIO";
    else if (desiredLayout == "NCHW")
      kernel = "OIHW";
    else {
      getOperation().emitError()
          << "relay-convert-layout: desired-layout must be NHWC or NCHW, got '"
          << desiredLayout << "'";
      return signalPassFailure();
    }
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<ConvToLayout>(ctx, desiredLayout, kernel, constantWeightsOnly);
    patterns.add<FoldTransposeOfConstant, FoldReshapeOfConstant,
                 ComposeTransposes, UnitDimTransposeToReshape, SimplifyReshape>(
        ctx);
    patterns.add<SinkThroughUnary, SinkThroughBinary, SinkThroughAxisOp,
                 SinkThroughReduce, SinkThroughPool, SinkThroughConcatenate,
                 SinkThroughPad>(ctx);
    // A guard, not a tuning knob: the patterns shrink a cost (data-moving
    // transposes above convolutions), so a run that exceeds this many
    // rewrites per op is a bug that must not hang the compiler.
    int64_t numOps = 0;
    getOperation()->walk([&](Operation *) { ++numOps; });
    GreedyRewriteConfig config;
    config.setMaxIterations(64);
    config.setMaxNumRewrites(64 * numOps + 1024);
    // The program's own transposes stay transposes (marked while rewriting).
    auto ownMark = StringAttr::get(ctx, "relay.convert_layout.own");
    if (layoutTransforms)
      getOperation()->walk(
          [&](TransposeOp t) { t->setAttr(ownMark, UnitAttr::get(ctx)); });
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      getOperation().emitWarning()
          << "relay-convert-layout: rewriting did not converge";
    RewritePatternSet hoist(ctx);
    hoist.add<HoistAbovePad>(ctx, ownMark);
    if (failed(applyPatternsGreedily(getOperation(), std::move(hoist), config)))
      getOperation().emitWarning()
          << "relay-convert-layout: hoisting did not converge";
    if (layoutTransforms)
      writeLayoutTransforms(ownMark);
  }

  /// The pass's NCHW<->NHWC transposes of data (OIHW<->HWIO of run-time
  /// weights) as TVM spells them.
  void writeLayoutTransforms(StringAttr ownMark) {
    SmallVector<TransposeOp> transposes;
    getOperation()->walk([&](TransposeOp t) { transposes.push_back(t); });
    for (TransposeOp t : transposes) {
      if (t->removeAttr(ownMark))
        continue;
      std::optional<ArrayRef<int64_t>> axes = t.getAxes();
      if (!axes)
        continue;
      ArrayRef<int64_t> perm = *axes;
      StringRef src, dst;
      if (perm == ArrayRef<int64_t>{0, 2, 3, 1})
        std::tie(src, dst) = std::make_pair("NCHW", "NHWC");
      else if (perm == ArrayRef<int64_t>{0, 3, 1, 2})
        std::tie(src, dst) = std::make_pair("NHWC", "NCHW");
      else if (perm == ArrayRef<int64_t>{2, 3, 1, 0}) // a run-time weight
        std::tie(src, dst) = std::make_pair("OIHW", "HWIO");
      else if (perm == ArrayRef<int64_t>{3, 2, 0, 1})
        std::tie(src, dst) = std::make_pair("HWIO", "OIHW");
      else
        continue;
      OpBuilder b(t);
      auto lt = LayoutTransformOp::create(b, t.getLoc(), t.getData(), src, dst);
      t.getResult().replaceAllUsesWith(lt.getResult());
      t.erase();
    }
  }
};

} // namespace
