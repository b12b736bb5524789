//===- CombineParallel.cpp - shared part of the CombineParallel* passes ---===//
//
// Branch finding, grouping, level checks and the rewrite of a group, as
// described in CombineParallel.h.
//
//===----------------------------------------------------------------------===//
#include "CombineParallel.h"
#include "TvmOpPattern.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::combine;

std::optional<SmallVector<int64_t>> combine::staticShape(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return std::nullopt;
  return SmallVector<int64_t>(tensor.getShape());
}

Type combine::elementType(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

std::optional<ArgShapes> combine::argShapes(Operation *a, Operation *b,
                                            unsigned index) {
  auto ta = staticShape(a->getOperand(index).getType());
  auto tb = staticShape(b->getOperand(index).getType());
  auto oa = staticShape(a->getResult(0).getType());
  auto ob = staticShape(b->getResult(0).getType());
  if (!ta || !tb || !oa || !ob || ta->size() != tb->size() ||
      ta->size() > oa->size() ||
      elementType(a->getOperand(index)) != elementType(b->getOperand(index)))
    return std::nullopt;
  return ArgShapes{*ta, *tb, *oa, *ob};
}

Value combine::combineFollowerOperands(
    PatternRewriter &rewriter, Value data, const Group &group, unsigned depth,
    unsigned parent,
    function_ref<Value(unsigned index, ArrayRef<Value> parts)> combine) {
  Operation *first = group[0][depth];
  SmallVector<Value> operands;
  for (unsigned i = 0; i < first->getNumOperands(); ++i) {
    if (i == parent) {
      operands.push_back(data);
      continue;
    }
    SmallVector<Value> parts;
    for (const Branch &branch : group)
      parts.push_back(branch[depth]->getOperand(i));
    operands.push_back(combine(i, parts));
  }
  return cloneWith(rewriter, first, operands);
}

Value combine::sliceSize(PatternRewriter &rewriter, Location loc, Value data,
                         size_t entries, int64_t axis, int64_t begin,
                         int64_t size) {
  SmallVector<int64_t> begins(entries, 0), ends(entries, -1);
  begins[axis] = begin;
  ends[axis] = size;
  return StridedSliceOp::create(
      rewriter, loc, data, begins, ends,
      rewriter.getDenseI64ArrayAttr(SmallVector<int64_t>(entries, 1)),
      DenseI64ArrayAttr(), "size");
}

Value combine::cloneWith(PatternRewriter &rewriter, Operation *op,
                         ValueRange operands,
                         ArrayRef<NamedAttribute> changed) {
  Operation *copy = rewriter.clone(*op);
  copy->setOperands(operands);
  for (NamedAttribute attr : changed)
    copy->setAttr(attr.getName(), attr.getValue());
  SmallVector<Type> types;
  auto infer = cast<InferTypeOpInterface>(copy);
  if (failed(infer.inferReturnTypes(
          copy->getContext(), copy->getLoc(), copy->getOperands(),
          copy->getRawDictionaryAttrs(), copy->getPropertiesStorage(),
          copy->getRegions(), types)) ||
      types.size() != 1)
    return {};
  copy->getResult(0).setType(types[0]);
  return copy->getResult(0);
}

namespace {

/// A relay operator (not a language op such as tuple or call).
bool isOperatorCall(Operation *op) {
  return isa_and_nonnull<RelayDialect>(op->getDialect()) &&
         op->getNumRegions() == 0 && isa<InferTypeOpInterface>(op);
}

/// The calls (of operators or functions, as TVM's Call nodes) reading
/// `value`, once per operand that reads it; a supported root counts as a
/// reader of its data operand only.
SmallVector<Operation *> readers(Value value, const Combiner &combiner) {
  SmallVector<Operation *> result;
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (!isOperatorCall(user) && !isa<CallOp, func::CallOp>(user))
      continue;
    if (combiner.isRoot(user) && combiner.isSupported(user) &&
        use.getOperandNumber() != 0)
      continue;
    result.push_back(user);
  }
  return result;
}

Branch branchOf(Operation *root, const Combiner &combiner) {
  Branch branch{root};
  while (true) {
    SmallVector<Operation *> next =
        readers(branch.back()->getResult(0), combiner);
    if (next.size() != 1 || !isElementwiseOrBroadcast(next[0]) ||
        next[0]->getBlock() != root->getBlock() ||
        next[0]->getNumResults() != 1)
      break;
    branch.push_back(next[0]);
  }
  return branch;
}

/// The branches of the group of `root` (the roots reading its data in its
/// block, grouped by compatibility with each group's first root).
Group groupOf(Operation *root, const Combiner &combiner) {
  Value data = root->getOperand(0);
  SmallVector<Operation *> roots;
  for (OpOperand &use : data.getUses()) {
    Operation *user = use.getOwner();
    if (use.getOperandNumber() == 0 && user->getBlock() == root->getBlock() &&
        combiner.isRoot(user) && combiner.isSupported(user) &&
        !llvm::is_contained(roots, user))
      roots.push_back(user);
  }
  llvm::sort(roots,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  SmallVector<SmallVector<Operation *>> groups;
  for (Operation *r : roots) {
    auto it = llvm::find_if(groups, [&](const SmallVector<Operation *> &g) {
      return combiner.compatible(r, g[0]);
    });
    if (it != groups.end())
      it->push_back(r);
    else
      groups.push_back({r});
  }
  for (const SmallVector<Operation *> &g : groups) {
    if (!llvm::is_contained(g, root))
      continue;
    Group group;
    for (Operation *r : g)
      group.push_back(branchOf(r, combiner));
    return group;
  }
  return {};
}

/// The operand of `op` that reads `parent`'s result (the first), if any.
std::optional<unsigned> parentIndex(Operation *op, Operation *parent) {
  for (OpOperand &operand : op->getOpOperands())
    if (operand.get() == parent->getResult(0))
      return operand.getOperandNumber();
  return std::nullopt;
}

/// All branches agree at `depth`: the same operator and attributes, the
/// chain in operand `parent`, compatible other operands.
bool levelAgrees(const Group &group, unsigned depth, unsigned parent,
                 const Combiner &combiner) {
  Operation *first = group[0][depth];
  for (const Branch &branch : llvm::drop_begin(group)) {
    Operation *op = branch[depth];
    if (op->getName() != first->getName() ||
        op->getAttrDictionary() != first->getAttrDictionary() ||
        op->getNumOperands() != first->getNumOperands() ||
        op->getOperand(parent) != branch[depth - 1]->getResult(0))
      return false;
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      if (i != parent && !combiner.argCompatible(first, op, i))
        return false;
  }
  return true;
}

} // namespace

LogicalResult combine::combineGroupOf(Operation *root, Combiner &combiner,
                                      uint64_t minNumBranches,
                                      PatternRewriter &rewriter) {
  if (!combiner.isSupported(root))
    return rewriter.notifyMatchFailure(root, "not combinable");
  Group group = groupOf(root, combiner);
  // A group of one is left alone: combining it again and again would never
  // end (TVM rewrites it once with min_num_branches = 1).
  if (group.size() < 2 || group.size() < minNumBranches || group[0][0] != root)
    return rewriter.notifyMatchFailure(root, "not the first of a group with "
                                             "enough branches");
  combiner.begin(group);
  size_t depth = group[0].size();
  for (const Branch &branch : group)
    depth = std::min(depth, branch.size());
  unsigned levels = 1;
  SmallVector<unsigned> parents{0};
  for (; levels < depth; ++levels) {
    std::optional<unsigned> parent =
        parentIndex(group[0][levels], group[0][levels - 1]);
    if (!parent || !levelAgrees(group, levels, *parent, combiner))
      break;
    parents.push_back(*parent);
  }

  // The combined ops go after the last op combined; ops between the first
  // and it that read a branch's last result move after them.
  llvm::SmallPtrSet<Operation *, 16> combined;
  Operation *last = root;
  for (const Branch &branch : group)
    for (unsigned d = 0; d < levels; ++d) {
      combined.insert(branch[d]);
      if (last->isBeforeInBlock(branch[d]))
        last = branch[d];
    }
  llvm::SmallPtrSet<Value, 16> moved;
  for (const Branch &branch : group)
    moved.insert(branch[levels - 1]->getResult(0));
  SmallVector<Operation *> toMove;
  for (Operation *op = root->getNextNode(); op && op != last->getNextNode();
       op = op->getNextNode()) {
    bool reads = false;
    op->walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        reads |= moved.contains(v);
    });
    if (!reads)
      continue;
    if (combined.contains(op))
      return rewriter.notifyMatchFailure(root, "a branch reads another");
    toMove.push_back(op);
    for (Value v : op->getResults())
      moved.insert(v);
  }

  rewriter.setInsertionPointAfter(last);
  Location loc = root->getLoc();
  Value value = combiner.combineRoots(rewriter, loc, group);
  for (unsigned d = 1; value && d < levels; ++d)
    value =
        combiner.combineFollowers(rewriter, loc, value, group, d, parents[d]);
  SmallVector<Value> outs;
  if (value)
    outs = combiner.outputs(rewriter, loc, value, group, levels - 1);
  if (outs.size() != group.size())
    return root->emitError("combining parallel ")
           << root->getName() << " ops built an ill-typed op";
  Operation *after = &*std::prev(rewriter.getInsertionPoint());
  for (Operation *op : toMove) {
    rewriter.moveOpAfter(op, after);
    after = op;
  }
  for (auto [branch, out] : llvm::zip(group, outs))
    rewriter.replaceAllUsesWith(branch[levels - 1]->getResult(0), out);
  return success();
}
