//===- Legalize.cpp - relay-legalize --------------------------------------===//
//
// Relay's Legalize as TVM 0.19 applies it for the llvm target (measured in
// the side venv; its other legalizations need a target feature or are not
// for operators relay-mlir has):
//   * `erf` of float16 is computed in float32 (x86's legalization):
//     cast to float32, erf, cast back;
//   * `nn.conv2d_transpose` takes NCHW data and an IOHW kernel (the generic
//     legalization): other kernel layouts are transposed to IOHW, NHWC data
//     is transposed to NCHW and the result back to NHWC.
// The int8 nn.dense / nn.conv2d / nn.batch_matmul rewrites TVM applies for
// VNNI/AVX-512 targets are not done (relay-mlir compiles for generic CPUs).
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYLEGALIZE
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// `erf(x)` of float16 -> `cast(erf(cast(x, float32)), float16)`.
struct ErfFloat16InFloat32 : OpRewritePattern<ErfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ErfOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !type.getElementType().isF16())
      return rewriter.notifyMatchFailure(op, "not a float16 tensor");
    Location loc = op.getLoc();
    Value wide = CastOp::create(rewriter, loc, op->getOperand(0),
                                TypeAttr::get(rewriter.getF32Type()));
    Value erf = ErfOp::create(rewriter, loc, wide);
    rewriter.replaceOpWithNewOp<CastOp>(op, erf,
                                        TypeAttr::get(rewriter.getF16Type()));
    return success();
  }
};

/// The permutation taking `layout` (a permutation of `target`'s letters) to
/// `target`, or nothing.
std::optional<SmallVector<int64_t>> permutationTo(StringRef layout,
                                                  StringRef target) {
  if (layout.size() != target.size())
    return std::nullopt;
  SmallVector<int64_t> perm;
  for (char c : target) {
    size_t at = layout.find(c);
    if (at == StringRef::npos || layout.count(c) != 1)
      return std::nullopt;
    perm.push_back(static_cast<int64_t>(at));
  }
  return perm;
}

Value transposed(PatternRewriter &rewriter, Location loc, Value x,
                 ArrayRef<int64_t> perm) {
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return x;
  return TransposeOp::create(rewriter, loc, x,
                             rewriter.getDenseI64ArrayAttr(perm));
}

/// `nn.conv2d_transpose` in other layouts -> NCHW data, IOHW kernel.
struct ConvTransposeToNCHW : OpRewritePattern<Conv2DTransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Conv2DTransposeOp op,
                                PatternRewriter &rewriter) const override {
    StringRef data = op.getDataLayout(), kernel = op.getKernelLayout();
    if (data == "NCHW" && kernel == "IOHW")
      return rewriter.notifyMatchFailure(op, "already NCHW / IOHW");
    if ((data != "NCHW" && data != "NHWC") ||
        (!op.getOutLayout().empty() && op.getOutLayout() != data))
      return rewriter.notifyMatchFailure(op, "data layout not NCHW or NHWC");
    std::optional<SmallVector<int64_t>> kernelPerm =
        permutationTo(kernel, "IOHW");
    if (!kernelPerm)
      return rewriter.notifyMatchFailure(op, "kernel layout not of I, O, H, W");
    Location loc = op.getLoc();
    bool nhwc = data == "NHWC";
    Value x = transposed(rewriter, loc, op->getOperand(0),
                         nhwc ? ArrayRef<int64_t>{0, 3, 1, 2}
                              : ArrayRef<int64_t>{0, 1, 2, 3});
    Value w = transposed(rewriter, loc, op->getOperand(1), *kernelPerm);
    NamedAttrList attrs(op->getAttrDictionary());
    attrs.set("data_layout", rewriter.getStringAttr("NCHW"));
    attrs.set("kernel_layout", rewriter.getStringAttr("IOHW"));
    attrs.set("out_layout", rewriter.getStringAttr(""));
    FailureOr<Operation *> conv =
        createInferred(rewriter, loc, op->getName(), ValueRange{x, w},
                       attrs.getDictionary(rewriter.getContext()));
    if (failed(conv))
      return rewriter.notifyMatchFailure(op, "typing rule refused NCHW");
    Value y = (*conv)->getResult(0);
    rewriter.replaceOp(op,
                       nhwc ? transposed(rewriter, loc, y, {0, 2, 3, 1}) : y);
    return success();
  }
};

struct LegalizePass : relay::impl::RelayLegalizeBase<LegalizePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateLegalizePatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::relay::populateLegalizePatterns(RewritePatternSet &patterns) {
  patterns.add<ErfFloat16InFloat32, ConvTransposeToNCHW>(patterns.getContext());
}
