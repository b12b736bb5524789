//===- AlterOpLayout.cpp - relay-alter-op-layout --------------------------===//
//
// Relay's AlterOpLayout as TVM 0.19 does it for its x86 targets, untuned
// (python/tvm/topi/x86/conv2d_alter_op.py and the `_fallback_schedule`s of
// conv2d_avx_common.py / depthwise_conv2d.py; measured in the side venv,
// test/python/test_pass_alter_op_layout_tvm019.json). An NCHW conv2d is
// blocked as nn.contrib_conv2d_NCHWc (depthwise:
// nn.contrib_depthwise_conv2d_NCHWc) with channel blocks from the target's
// 32-bit SIMD lanes, and the operators TVM runs blocked take its blocked
// value.
//
// How the patterns meet: each blocked op is replaced by a layout_transform
// of its blocked value back to NCHW, marked as such (`kEdgeAttr`, holding
// the block). A consumer that runs blocked matches an operand defined by a
// marked transform and takes its operand, the blocked value; the others keep
// the NCHW value. Patterns run top-down, so each op is rewritten after the
// ops it uses, as TVM's post-order rewrite; the marks are removed at the
// end. The layout_transforms the pass makes are shared per value and
// layouts (`kMadeAttr`, placed after the value), as TVM's are.
//
// Not done here (TVM also runs them blocked; here they take the NCHW
// value): argmax/argmin, an elementwise op after a reduction without
// keepdims, nn.bias_add (CanonicalizeOps turns it into an add first), and
// TVM's int8 OIHW{n}i{m}o4i kernels of VNNI targets (int8 convolutions with
// more than 4 lanes stay nn.conv2d). A value bound by a Relay `let` is seen
// through (MLIR has no lets), where TVM gives the users of a let-bound
// variable the NCHW value; the greedy driver also erases dead pure ops.
//
//===----------------------------------------------------------------------===//
#include "TvmOpPattern.h"
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYALTEROPLAYOUT
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// On a layout_transform the pass made (removed at its end).
constexpr StringLiteral kMadeAttr = "relay.alter_op_layout.made";
/// On the layout_transform that brings a blocked op's result back to NCHW:
/// the block of its operand (removed at the end).
constexpr StringLiteral kEdgeAttr = "relay.alter_op_layout.block";

std::string blockedLayout(int64_t block) {
  return ("NCHW" + Twine(block) + "c").str();
}

/// The largest divisor of `n` up to `limit` (`limit` for n = 0).
int64_t largestDivisor(int64_t n, int64_t limit) {
  for (int64_t b = limit; b > 1; --b)
    if (n % b == 0)
      return b;
  return 1;
}

/// A value in its blocked form if it has one: `block` 0 means `value` is in
/// its own layout.
struct Blocked {
  Value value;
  int64_t block = 0;
};

Blocked blockedForm(Value v) {
  auto lt = v.getDefiningOp<LayoutTransformOp>();
  auto block = lt ? lt->getAttrOfType<IntegerAttr>(kEdgeAttr) : IntegerAttr();
  if (!block)
    return {v, 0};
  return {lt.getData(), block.getInt()};
}

/// `v`'s type if it is a tensor of static shape, else null.
RankedTensorType staticType(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.hasStaticShape() ? type : RankedTensorType();
}

/// `layout_transform(v, src, dst)`: the one the pass made already for `v`
/// and these layouts, or a new one right after `v` (so it dominates all of
/// `v`'s uses). `edgeBlock` > 0 marks it as a blocked op's value back in its
/// own layout.
Value transform(PatternRewriter &rewriter, Value v, StringRef src,
                StringRef dst, int64_t edgeBlock = 0) {
  for (Operation *user : v.getUsers()) {
    auto lt = dyn_cast<LayoutTransformOp>(user);
    if (lt && lt->hasAttr(kMadeAttr) && lt.getSrcLayout() == src &&
        lt.getDstLayout() == dst)
      return lt;
  }
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointAfterValue(v);
  auto lt = LayoutTransformOp::create(rewriter, v.getLoc(), v, src, dst);
  lt->setAttr(kMadeAttr, rewriter.getUnitAttr());
  if (edgeBlock > 0)
    lt->setAttr(kEdgeAttr, rewriter.getI64IntegerAttr(edgeBlock));
  return lt;
}

/// `b` in blocks of `want` (`b` itself if it has them).
Value toBlock(PatternRewriter &rewriter, Blocked b, int64_t want) {
  if (b.block == want)
    return b.value;
  return transform(rewriter, b.value, b.block ? blockedLayout(b.block) : "NCHW",
                   blockedLayout(want));
}

/// Replaces `op` by an op `name` of the blocked `operands` with `attrs`
/// (types inferred), seen in NCHW by its users through a marked transform.
LogicalResult replaceBlocked(PatternRewriter &rewriter, Operation *op,
                             OperationName name, ValueRange operands,
                             DictionaryAttr attrs, int64_t block) {
  FailureOr<Operation *> blocked =
      createInferred(rewriter, op->getLoc(), name, operands, attrs);
  if (failed(blocked))
    return rewriter.notifyMatchFailure(op, "typing rule refused it blocked");
  rewriter.replaceOp(op, transform(rewriter, (*blocked)->getResult(0),
                                   blockedLayout(block), "NCHW", block));
  return success();
}

/// nn.conv2d (NCHW, OIHW, static shapes, groups 1 or depthwise) as
/// nn.contrib_conv2d_NCHWc / nn.contrib_depthwise_conv2d_NCHWc with TVM's
/// fallback tiles: oc the largest divisor of the output channels up to the
/// lanes, ic the largest divisor of the input channels up to oc.
struct BlockConv2D : OpRewritePattern<Conv2DOp> {
  BlockConv2D(MLIRContext *ctx, int64_t lanes)
      : OpRewritePattern(ctx), lanes(lanes) {}

  LogicalResult matchAndRewrite(Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getDataLayout() != "NCHW" || op.getKernelLayout() != "OIHW" ||
        !(op.getOutLayout().empty() || op.getOutLayout() == "NCHW"))
      return rewriter.notifyMatchFailure(op, "not NCHW data, OIHW kernel");
    RankedTensorType data = staticType(op.getData());
    RankedTensorType weight = staticType(op.getWeight());
    if (!data || !weight || data.getRank() != 4 || weight.getRank() != 4)
      return rewriter.notifyMatchFailure(op, "shapes not static of rank 4");
    int64_t c = data.getDimSize(1), o = weight.getDimSize(0),
            i = weight.getDimSize(1);
    int64_t groups = op.getGroupsAttr().getInt();
    bool depthwise = groups > 1 && groups == c && c == o && i == 1;
    if (groups != 1 && !depthwise)
      return rewriter.notifyMatchFailure(op, "grouped, not depthwise");
    if (data.getElementType().isInteger(8) && lanes > 4)
      return rewriter.notifyMatchFailure(op, "int8 with more than 4 lanes "
                                             "(TVM's VNNI kernels)");
    int64_t oc = largestDivisor(o, lanes), ic = largestDivisor(c, oc);
    std::string kernelLayout =
        ("OIHW" + Twine(depthwise ? 1 : ic) + "i" + Twine(oc) + "o").str();
    Value x = toBlock(rewriter, blockedForm(op.getData()), ic);
    Value w = transform(rewriter, op.getWeight(), "OIHW", kernelLayout);
    NamedAttrList attrs(op->getAttrDictionary());
    attrs.set("channels", rewriter.getI64IntegerAttr(o));
    attrs.set("data_layout", rewriter.getStringAttr(blockedLayout(ic)));
    attrs.set("kernel_layout", rewriter.getStringAttr(kernelLayout));
    attrs.set("out_layout", rewriter.getStringAttr(blockedLayout(oc)));
    OperationName name(depthwise ? DepthwiseConv2DNCHWcOp::getOperationName()
                                 : Conv2DNCHWcOp::getOperationName(),
                       getContext());
    return replaceBlocked(rewriter, op, name, {x, w},
                          attrs.getDictionary(getContext()), oc);
  }

  int64_t lanes;
};

/// A one-operand elementwise op (TOpPattern kElemWise) of a blocked value
/// runs blocked.
struct BlockElementwise : RewritePattern {
  explicit BlockElementwise(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (op->getNumOperands() != 1 || !isTvmElementwise(op))
      return failure();
    Blocked x = blockedForm(op->getOperand(0));
    if (!x.block)
      return rewriter.notifyMatchFailure(op, "operand not blocked");
    return replaceBlocked(rewriter, op, op->getName(), x.value,
                          op->getAttrDictionary(), x.block);
  }
};

/// A binary broadcast op (TOpPattern kBroadcast, no attributes; not
/// broadcast_to_like, nn.bias_add or nn.prelu) with a blocked operand runs
/// in its block; the other operand is blocked alike (the first operand's
/// block when both are), or is a scalar, an NCHW tensor of the same
/// channels or a [C, 1, 1] bias (expand_dims first), laid out in the block.
struct BlockBroadcast : RewritePattern {
  explicit BlockBroadcast(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  /// How an operand in its own layout joins a blocked op.
  enum class Join { Scalar, Bias, NCHW, No };

  static Join joinOf(Value v, int64_t channels) {
    RankedTensorType type = staticType(v);
    if (!type)
      return Join::No;
    ArrayRef<int64_t> shape = type.getShape();
    if (shape.empty())
      return Join::Scalar;
    if (shape == ArrayRef<int64_t>{channels, 1, 1})
      return Join::Bias;
    if (shape.size() == 4 && shape[1] == channels)
      return Join::NCHW;
    return Join::No;
  }

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    StringRef name = tvmOpName(op);
    if (op->getNumOperands() != 2 || !op->getAttrs().empty() ||
        !isTvmBroadcast(op) || name == "broadcast_to_like" ||
        name == "nn.bias_add" || name == "nn.prelu")
      return failure();
    Blocked args[2] = {blockedForm(op->getOperand(0)),
                       blockedForm(op->getOperand(1))};
    if (!args[0].block && !args[1].block)
      return rewriter.notifyMatchFailure(op, "no operand blocked");
    int64_t block = args[0].block ? args[0].block : args[1].block;
    // the channels of the (first) blocked operand, in NCHW
    int64_t channels =
        cast<ShapedType>(op->getOperand(args[0].block ? 0 : 1).getType())
            .getDimSize(1);
    if (args[0].block && args[1].block &&
        cast<ShapedType>(op->getOperand(1).getType()).getDimSize(1) != channels)
      return rewriter.notifyMatchFailure(
          op, "one broadcasts over the channels: in NCHW");
    Join joins[2];
    for (int k = 0; k < 2; ++k) {
      joins[k] = args[k].block ? Join::NCHW : joinOf(args[k].value, channels);
      if (joins[k] == Join::No)
        return rewriter.notifyMatchFailure(
            op, "operand neither a scalar, a [C, 1, 1] bias nor NCHW of "
                "the channels");
    }
    SmallVector<Value, 2> operands;
    for (int k = 0; k < 2; ++k) {
      Blocked arg = args[k];
      if (joins[k] == Join::Bias)
        arg.value = ExpandDimsOp::create(rewriter, op->getLoc(), arg.value,
                                         rewriter.getI64IntegerAttr(0),
                                         rewriter.getI64IntegerAttr(1));
      operands.push_back(
          joins[k] == Join::Scalar ? arg.value : toBlock(rewriter, arg, block));
    }
    return replaceBlocked(rewriter, op, op->getName(), operands,
                          op->getAttrDictionary(), block);
  }
};

/// concatenate on the channel axis (1 or -3) of values all blocked alike:
/// blocked, axis 1.
struct BlockConcatenate : OpRewritePattern<ConcatenateOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConcatenateOp op,
                                PatternRewriter &rewriter) const override {
    int64_t axis = op.getAxisAttr().getInt();
    if (axis != 1 && axis != -3)
      return rewriter.notifyMatchFailure(op, "not on the channels");
    SmallVector<Value> fields;
    int64_t block = 0;
    for (Value v : op.getData()) {
      Blocked b = blockedForm(v);
      if (!b.block || (block && b.block != block))
        return rewriter.notifyMatchFailure(op, "fields not blocked alike");
      block = b.block;
      fields.push_back(b.value);
    }
    if (!block)
      return rewriter.notifyMatchFailure(op, "no fields");
    NamedAttrList attrs(op->getAttrDictionary());
    attrs.set("axis", rewriter.getI64IntegerAttr(1));
    return replaceBlocked(rewriter, op, op->getName(), fields,
                          attrs.getDictionary(getContext()), block);
  }
};

/// A 2-D pool of a blocked value in NCHW runs blocked: layout (and a given
/// out_layout) NCHW{n}c.
struct BlockPool : RewritePattern {
  explicit BlockPool(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    static const llvm::StringSet<> pools = {
        "nn.max_pool2d",          "nn.avg_pool2d",
        "nn.global_avg_pool2d",   "nn.global_max_pool2d",
        "nn.adaptive_avg_pool2d", "nn.adaptive_max_pool2d"};
    if (op->getNumOperands() != 1 || !pools.contains(tvmOpName(op)))
      return failure();
    Blocked x = blockedForm(op->getOperand(0));
    auto layout = op->getAttrOfType<StringAttr>("layout");
    if (!x.block || (layout && !layout.empty() && layout != "NCHW"))
      return rewriter.notifyMatchFailure(op, "operand not blocked NCHW");
    NamedAttrList attrs(op->getAttrDictionary());
    StringAttr blocked = rewriter.getStringAttr(blockedLayout(x.block));
    attrs.set("layout", blocked);
    auto outLayout = op->getAttrOfType<StringAttr>("out_layout");
    if (outLayout && !outLayout.empty())
      attrs.set("out_layout", blocked);
    return replaceBlocked(rewriter, op, op->getName(), x.value,
                          attrs.getDictionary(getContext()), x.block);
  }
};

/// sum / mean / max / min / prod with an axis of a blocked value, as TVM's
/// ReduceInferCorrectLayout: N, H, W keep their positions and reducing C
/// reduces its block too (axis 4). With keepdims the result stays blocked
/// (by 1 once C is reduced); without, it goes back to its primal layout at
/// once (NC{n}c -> NC; nothing to do once C is reduced).
struct BlockReduction : RewritePattern {
  explicit BlockReduction(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    static const llvm::StringSet<> reductions = {"sum", "mean", "max", "min",
                                                 "prod"};
    if (op->getNumOperands() != 1 || !reductions.contains(tvmOpName(op)))
      return failure();
    Blocked x = blockedForm(op->getOperand(0));
    auto axis = op->getAttrOfType<DenseI64ArrayAttr>("axis");
    if (!x.block || !axis || axis.empty())
      return rewriter.notifyMatchFailure(op, "not blocked, or no axis");
    std::set<int64_t> given;
    for (int64_t a : axis.asArrayRef())
      given.insert(((a % 4) + 4) % 4);
    auto flag = [&](StringRef key) {
      auto attr = op->getAttrOfType<BoolAttr>(key);
      return attr && attr.getValue();
    };
    std::set<int64_t> reduced = given;
    if (flag("exclude")) {
      reduced.clear();
      for (int64_t a = 0; a < 4; ++a)
        if (!given.count(a))
          reduced.insert(a);
    }
    SmallVector<int64_t> newAxis(given.begin(), given.end());
    if (given.count(1))
      newAxis.push_back(4);
    NamedAttrList attrs(op->getAttrDictionary());
    attrs.set("axis", rewriter.getDenseI64ArrayAttr(newAxis));
    DictionaryAttr dict = attrs.getDictionary(getContext());
    bool channelsReduced = reduced.count(1);
    if (flag("keepdims"))
      return replaceBlocked(rewriter, op, op->getName(), x.value, dict,
                            channelsReduced ? 1 : x.block);
    FailureOr<Operation *> out =
        createInferred(rewriter, op->getLoc(), op->getName(), x.value, dict);
    if (failed(out))
      return rewriter.notifyMatchFailure(op, "typing rule refused it blocked");
    Value result = (*out)->getResult(0);
    if (!channelsReduced) {
      std::string primal;
      for (int64_t a = 0; a < 4; ++a)
        if (!reduced.count(a))
          primal.push_back("NCHW"[a]);
      result = transform(rewriter, result,
                         primal + std::to_string(x.block) + "c", primal);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// TVM skips external functions (a `Compiler` attribute) and
/// `SkipOptimization` ones.
bool skipped(func::FuncOp fn) {
  auto attrs = fn->getAttrOfType<DictionaryAttr>("relay.attrs");
  if (!attrs)
    return false;
  auto skip = dyn_cast_or_null<IntegerAttr>(attrs.get("SkipOptimization"));
  return attrs.get("Compiler") || (skip && !skip.getValue().isZero());
}

struct AlterOpLayoutPass
    : relay::impl::RelayAlterOpLayoutBase<AlterOpLayoutPass> {
  using Base::Base;

  void runOnOperation() override {
    if (simdLanes < 1) {
      getOperation().emitError()
          << "relay-alter-op-layout: simd-lanes must be at least 1, got "
          << simdLanes.getValue();
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    populateAlterOpLayoutPatterns(patterns, simdLanes);
    FrozenRewritePatternSet frozen(std::move(patterns));
    // top-down: each op after the ops it uses; nothing folded (the rewrite
    // changes layouts only)
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true).enableFolding(false).enableConstantCSE(
        false);
    for (auto fn : getOperation().getOps<func::FuncOp>())
      if (!fn.isExternal() && !skipped(fn) &&
          failed(applyPatternsGreedily(fn, frozen, config)))
        return signalPassFailure();
    getOperation().walk([](LayoutTransformOp lt) {
      lt->removeAttr(kMadeAttr);
      lt->removeAttr(kEdgeAttr);
    });
  }
};

} // namespace

void mlir::relay::populateAlterOpLayoutPatterns(RewritePatternSet &patterns,
                                                int64_t simdLanes) {
  patterns.add<BlockConv2D>(patterns.getContext(), simdLanes);
  patterns.add<BlockElementwise, BlockBroadcast, BlockConcatenate, BlockPool,
               BlockReduction>(patterns.getContext());
}
