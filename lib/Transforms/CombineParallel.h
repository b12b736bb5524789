//===- CombineParallel.h - shared part of the CombineParallel* passes -*- C++
//-*-===//
//
// Relay's CombineParallelConv2D/Dense/BatchMatmul share one procedure (TVM
// 0.19's ParallelOpCombiner): the ops of one kind reading the same value
// are grouped (an op joins the first group whose first op it is compatible
// with); each op starts a branch that follows its result while exactly one
// operator reads it and that operator is elementwise or broadcast. A group
// of at least `minNumBranches` branches becomes one combined op, then, level
// by level while the branches agree (same operator and attributes, the
// chain in the same operand, compatible other operands), one combined
// follower; the branches' last combined results are read back from the
// combined value (slices, or split + squeeze). A `Combiner` says what
// compatible means and how the combined ops are built.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_LIB_TRANSFORMS_COMBINEPARALLEL_H
#define RELAY_LIB_TRANSFORMS_COMBINEPARALLEL_H

#include "relay/RelayOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::relay::combine {

/// A root op and the elementwise/broadcast ops that follow it.
using Branch = SmallVector<Operation *>;
using Group = SmallVector<Branch>;

class Combiner {
public:
  virtual ~Combiner() = default;
  /// Called with a group before it is checked level by level and combined.
  virtual void begin(const Group &group) {}
  /// The root op kind (e.g. "relay.nn.conv2d").
  virtual bool isRoot(Operation *op) const = 0;
  /// A root op this pass can combine at all.
  virtual bool isSupported(Operation *op) const { return true; }
  /// Two roots reading the same value can be combined.
  virtual bool compatible(Operation *a, Operation *b) const = 0;
  /// Operand `index` of the followers `a` and `b` (same level) can be
  /// combined.
  virtual bool argCompatible(Operation *a, Operation *b,
                             unsigned index) const = 0;
  /// The combined root.
  virtual Value combineRoots(PatternRewriter &rewriter, Location loc,
                             const Group &group) = 0;
  /// The combined follower at `depth` reading `data` as operand `parent`.
  virtual Value combineFollowers(PatternRewriter &rewriter, Location loc,
                                 Value data, const Group &group, unsigned depth,
                                 unsigned parent) = 0;
  /// Each branch's result at `depth`, read from the combined `data`.
  virtual SmallVector<Value> outputs(PatternRewriter &rewriter, Location loc,
                                     Value data, const Group &group,
                                     unsigned depth) = 0;
};

/// `op` with `operands` and the same attributes, its result type inferred.
Value cloneWith(PatternRewriter &rewriter, Operation *op, ValueRange operands,
                ArrayRef<NamedAttribute> changed = {});

/// Combines the group of `root` if `root` is its first op and it has at
/// least `minNumBranches` branches.
LogicalResult combineGroupOf(Operation *root, Combiner &combiner,
                             uint64_t minNumBranches,
                             PatternRewriter &rewriter);

/// A rewrite pattern running `combineGroupOf` on each root `C` accepts.
template <typename C> struct CombineParallelPattern : RewritePattern {
  template <typename... Args>
  CombineParallelPattern(MLIRContext *ctx, uint64_t minNumBranches,
                         Args &&...args)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx),
        minNumBranches(minNumBranches), combiner(std::forward<Args>(args)...) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!combiner.isRoot(op))
      return failure();
    return combineGroupOf(op, combiner, minNumBranches, rewriter);
  }
  uint64_t minNumBranches;
  mutable C combiner;
};

/// Static sizes of a ranked tensor, or none.
std::optional<SmallVector<int64_t>> staticShape(Type type);

/// The element type of a ranked tensor value.
Type elementType(Value v);

/// The static shapes of operand `index` of two followers and of their
/// results.
struct ArgShapes {
  SmallVector<int64_t> a, b, outA, outB;
};

/// The shapes of operand `index` of `a` and `b` and of their results, if all
/// are static and the operands have one element type and one rank, at most
/// that of the results; none otherwise.
std::optional<ArgShapes> argShapes(Operation *a, Operation *b, unsigned index);

/// The followers of `group` at `depth` as one op (`cloneWith` the first)
/// reading `data` as operand `parent` and, as each other operand `index`,
/// `combine(index, parts)` of the branches' operands `index` in branch
/// order.
Value combineFollowerOperands(
    PatternRewriter &rewriter, Value data, const Group &group, unsigned depth,
    unsigned parent,
    function_ref<Value(unsigned index, ArrayRef<Value> parts)> combine);

/// strided_slice (size mode) of `data` with `entries` begin/end/stride
/// entries: `size` elements from `begin` along `axis`, all of the other
/// axes.
Value sliceSize(PatternRewriter &rewriter, Location loc, Value data,
                size_t entries, int64_t axis, int64_t begin, int64_t size);

} // namespace mlir::relay::combine

#endif // RELAY_LIB_TRANSFORMS_COMBINEPARALLEL_H
