//===- RelayPasses.h - relay passes and pipelines -------------------------===//
#ifndef RELAY_RELAYPASSES_H
#define RELAY_RELAYPASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "relay/RelayOps.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::relay {

#define GEN_PASS_DECL
#include "relay/RelayPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "relay/RelayPasses.h.inc"

/// Marks the same-type `tensor.reshape`s the lowering uses to name a
/// tensor's run-time sizes (relay-drop-size-reshapes removes them).
inline constexpr llvm::StringLiteral kSizesOnlyAttr = "relay.sizes_only";

/// Runs relay-infer-type's inference on `module` (what the pass does), for
/// passes that reset some types to `!relay.incomplete` and re-infer them.
LogicalResult inferModuleTypes(ModuleOp module);

/// Registers what the lowering passes create or rely on: the dialects the
/// IREE input is written in, and the tensor ops' shape reification
/// (`resolve-ranked-shaped-type-result-dims` in `relay-to-iree-input`).
void registerLoweringDialects(DialectRegistry &registry);

/// SimplifyInference's rewrites (relay-simplify-inference): batch_norm,
/// dropout, layer/group/instance_norm and l2_normalize as elementary ops.
void populateSimplifyInferencePatterns(RewritePatternSet &patterns);

/// DivToMul's rewrite (relay-div-to-mul): division by a float constant as
/// multiplication by its reciprocal.
void populateDivToMulPatterns(RewritePatternSet &patterns);

/// CanonicalizeCast's rewrite (relay-canonicalize-cast): a widening cast
/// copied for each elementwise/broadcast use after the first.
void populateCanonicalizeCastPatterns(RewritePatternSet &patterns);

/// SimplifyExpr's rewrites (relay-simplify-expr), one pattern per TVM
/// sub-rewrite.
void populateSimplifyExprPatterns(RewritePatternSet &patterns);

/// SimplifyExprPostAlterOp's rewrites (relay-simplify-expr-post-alter-op):
/// SimplifyExpr's identity, reshape, cast and clip patterns only.
void populateSimplifyExprPostAlterOpPatterns(RewritePatternSet &patterns);

/// A clip that clips nothing, and the casts after a clip that change no
/// value (part of both patterns sets above).
void populateSimplifyClipPatterns(RewritePatternSet &patterns);

/// FoldExplicitPadding's rewrites (relay-fold-explicit-padding): an nn.pad
/// feeding a convolution or a pool folded into its `padding`.
void populateFoldExplicitPaddingPatterns(RewritePatternSet &patterns);

/// FlattenAtrousConv's rewrite (relay-flatten-atrous-conv):
/// batch_to_space_nd(conv2d(space_to_batch_nd(x))) as one dilated conv2d.
void populateFlattenAtrousConvPatterns(RewritePatternSet &patterns);

/// CanonicalizeOps's rewrite (relay-canonicalize-ops): nn.bias_add as an
/// add of the bias expanded to broadcast along its axis.
void populateCanonicalizeOpsPatterns(RewritePatternSet &patterns);

/// BackwardFoldScaleAxis's rewrite (relay-backward-fold-scale-axis): a
/// per-channel multiply after a conv2d/conv3d/dense folded into its weight.
void populateBackwardFoldScaleAxisPatterns(RewritePatternSet &patterns);

/// ForwardFoldScaleAxis's rewrite (relay-forward-fold-scale-axis): a
/// per-channel multiply before conv2d/conv3d/dense ops folded into their
/// weights.
void populateForwardFoldScaleAxisPatterns(RewritePatternSet &patterns);

/// CombineParallelConv2D's rewrite (relay-combine-parallel-conv2d): groups
/// of at least `minNumBranches` parallel nn.conv2d ops as one.
void populateCombineParallelConv2DPatterns(RewritePatternSet &patterns,
                                           uint64_t minNumBranches);

/// CombineParallelDense's rewrite (relay-combine-parallel-dense): groups of
/// at least `minNumBranches` parallel nn.dense ops as one batch_matmul
/// (`toBatch`) or one dense.
void populateCombineParallelDensePatterns(RewritePatternSet &patterns,
                                          uint64_t minNumBranches,
                                          bool toBatch);

/// CombineParallelBatchMatmul's rewrite
/// (relay-combine-parallel-batch-matmul): groups of at least
/// `minNumBranches` parallel nn.batch_matmul ops as one.
void populateCombineParallelBatchMatmulPatterns(RewritePatternSet &patterns,
                                                uint64_t minNumBranches);

/// FastMath's rewrites (relay-fast-math): exp, tanh and erf as fast_exp,
/// fast_tanh and fast_erf.
void populateFastMathPatterns(RewritePatternSet &patterns);

/// Inline's rewrite (relay-inline): each `func.call` of a function in
/// `inlinable` is replaced by a copy of its body.
void populateInlinePatterns(RewritePatternSet &patterns,
                            const llvm::DenseSet<Operation *> &inlinable);

/// EtaExpand's rewrite (relay-eta-expand{expand-global-var}): a
/// `relay.global_fn` used as a value becomes a closure calling it.
void populateEtaExpandPatterns(RewritePatternSet &patterns);

/// Legalize's rewrites (relay-legalize): float16 erf in float32,
/// nn.conv2d_transpose in NCHW / IOHW.
void populateLegalizePatterns(RewritePatternSet &patterns);

/// qnn Legalize's rewrites (relay-qnn-legalize): qnn.conv2d / qnn.dense as
/// TVM 0.19 legalizes them for x86, with (`fastInt8`, sse4.2) or without
/// fast int8 arithmetic.
void populateQnnLegalizePatterns(RewritePatternSet &patterns, bool fastInt8);

/// AlterOpLayout's rewrites (relay-alter-op-layout): NCHW convolutions
/// blocked as TVM 0.19 blocks them for an x86 target of `simdLanes` 32-bit
/// SIMD lanes, and the operators after them running blocked.
void populateAlterOpLayoutPatterns(RewritePatternSet &patterns,
                                   int64_t simdLanes);

/// Registers the named pipelines (e.g. `relay-to-iree-input`).
void registerRelayPipelines();

/// Registers every relay pass and pipeline.
inline void registerAllRelayPasses() {
  registerRelayPasses();
  registerRelayPipelines();
}

} // namespace mlir::relay

#endif // RELAY_RELAYPASSES_H
