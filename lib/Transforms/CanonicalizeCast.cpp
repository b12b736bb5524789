//===- CanonicalizeCast.cpp - relay-canonicalize-cast ---------------------===//
//
// Relay's CanonicalizeCast: a widening `cast` (fewer bits to more) read by
// several elementwise or broadcast operators gets one copy per such use, so
// that each consumer can be fused with its own cast and the wide tensor is
// never stored (TVM 0.19's CastCanonicalizer). The first use in evaluation
// order keeps the original, which other consumers (reshape, dense, tuples,
// ...) keep sharing. Elementwise and broadcast are TVM 0.19's TOpPattern
// kElemWise and kBroadcast.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYCANONICALIZECAST
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// The operators TVM 0.19 registers with TOpPattern kElemWise or kBroadcast
/// (those relay-mlir has; as listed by TVM's op registry).
bool isElementwiseOrBroadcast(Operation *op) {
  static const llvm::StringSet<> names = {
      // kElemWise
      "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "bitwise_not",
      "cast", "cast_like", "ceil", "clip", "copy", "cos", "cosh", "erf", "exp",
      "fast_erf", "fast_exp", "fast_tanh", "fixed_point_multiply", "floor",
      "full", "full_like", "isfinite", "isinf", "isnan", "log", "log10", "log2",
      "logical_not", "negative", "nn.leaky_relu", "nn.relu", "ones",
      "ones_like", "qnn.dequantize", "qnn.quantize", "qnn.requantize",
      "reinterpret", "round", "rsqrt", "sigmoid", "sign", "sin", "sinh", "sqrt",
      "tan", "tanh", "trilu", "trunc", "zeros", "zeros_like", "dyn.full",
      "dyn.ones", "dyn.zeros",
      // kBroadcast
      "add", "bitwise_and", "bitwise_or", "bitwise_xor", "broadcast_to",
      "broadcast_to_like", "divide", "dyn.broadcast_to", "equal", "expand_dims",
      "fixed_point_multiply_per_axis", "floor_divide", "floor_mod", "greater",
      "greater_equal", "left_shift", "less", "less_equal", "logical_and",
      "logical_or", "logical_xor", "maximum", "minimum", "mod", "multiply",
      "nn.bias_add", "nn.prelu", "not_equal", "power", "qnn.add", "qnn.mul",
      "qnn.subtract", "repeat", "right_shift", "subtract", "tile",
      "trunc_divide", "trunc_mod", "where"};
  if (!isa_and_nonnull<RelayDialect>(op->getDialect()))
    return false;
  StringRef name = op->getName().getStringRef();
  return name.consume_front("relay.") && names.contains(name);
}

unsigned bitWidth(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor ? tensor.getElementType().getIntOrFloatBitWidth() : 0;
}

/// The uses of `value` by elementwise/broadcast operators, in evaluation
/// order (an op before the ops of its regions; operands left to right).
SmallVector<OpOperand *> elementwiseUses(Value value) {
  SmallVector<OpOperand *> uses;
  bool sameBlock = true;
  Block *block = value.getParentBlock();
  for (OpOperand &use : value.getUses()) {
    if (!isElementwiseOrBroadcast(use.getOwner()))
      continue;
    uses.push_back(&use);
    sameBlock &= use.getOwner()->getBlock() == block;
  }
  DenseMap<Operation *, unsigned> rank;
  if (!sameBlock) {
    Operation *scope = block->getParentOp();
    unsigned i = 0;
    scope->walk<WalkOrder::PreOrder>([&](Operation *op) { rank[op] = i++; });
  }
  llvm::stable_sort(uses, [&](OpOperand *a, OpOperand *b) {
    Operation *x = a->getOwner(), *y = b->getOwner();
    if (x == y)
      return a->getOperandNumber() < b->getOperandNumber();
    return sameBlock ? x->isBeforeInBlock(y) : rank[x] < rank[y];
  });
  return uses;
}

/// A widening cast read by several elementwise/broadcast ops: every such use
/// after the first reads its own copy, made just before it.
struct DuplicateWideningCast : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    unsigned from = bitWidth(op.getData().getType());
    unsigned to = bitWidth(op.getType());
    if (!from || !to || from >= to)
      return rewriter.notifyMatchFailure(op, "not a widening cast");
    SmallVector<OpOperand *> uses = elementwiseUses(op.getResult());
    if (uses.size() < 2)
      return rewriter.notifyMatchFailure(op, "fewer than two elementwise uses");
    for (OpOperand *use : llvm::drop_begin(uses)) {
      Operation *user = use->getOwner();
      rewriter.setInsertionPoint(user);
      Operation *copy = rewriter.clone(*op);
      rewriter.modifyOpInPlace(user, [&] { use->set(copy->getResult(0)); });
    }
    return success();
  }
};

struct CanonicalizeCastPass
    : relay::impl::RelayCanonicalizeCastBase<CanonicalizeCastPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateCanonicalizeCastPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

void mlir::relay::populateCanonicalizeCastPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DuplicateWideningCast>(patterns.getContext());
}
