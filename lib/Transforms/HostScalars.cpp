//===- HostScalars.cpp - relay-host-scalars -------------------------------===//
//
// Relay counts with 0-d tensors: a loop's index and its bound (from
// `shape_of`), the condition of an `if`. Lowered as they are, each step of
// such arithmetic is a one-element `linalg.generic` (a dispatch of its own
// in IREE) and each branch on one is a `tensor.extract` (a read back to the
// host, waiting for the device). A loop over a run-time length pays both on
// every iteration: the LSTM's step loop computed `i + 1`, `i + 2`, ... and
// `i < n` on the device and read the condition back each time.
//
// This pass moves the 0-d integer tensors that the host can compute to the
// host. A value is computable on the host ("host-known") if it is
//   * an `arith.constant` or a `tensor.from_elements` (of host scalars);
//   * the result of a loop-free `linalg.generic` (no iterators, only 0-d
//     operands) whose body is side-effect free, speculatable `arith` and
//     whose inputs (and the init, if the body reads it) are host-known
//     (0-d constant inputs are first moved into the bodies: a division by
//     a non-zero constant is speculatable);
//   * a block argument of a function's CFG whose incoming values along every
//     edge are host-known, or an argument of a private function that every
//     call passes a host-known value;
//   * a result of `scf.if` whose two yields are host-known.
// The set is the greatest fixpoint (a loop counter feeds itself). Then each
// such generic becomes its body's arith ops on `tensor.extract`ed operands
// and a `tensor.from_elements`; such block/function arguments and `scf.if`
// results become scalars (the edges pass `tensor.extract`s, the uses see a
// `tensor.from_elements`); extract-of-from_elements folds away. Finally a
// generic reading a 0-d `tensor.from_elements` takes the scalar into its
// body instead (IREE passes it to the dispatch as a push constant).
//
// Small shape vectors move the same way: a generic over static integer
// tensors of at most `kMaxHostElements` elements (a slice's `end = begin +
// 16` as a 1-element tensor, arithmetic on a `shape_of`) whose inputs are
// host-known is unrolled over its iteration space on the host, each output
// element a scalar, the result a `tensor.from_elements`; its reads fold
// into those scalars. Only 0-d values move along edges (arguments, `scf.if`).
//
// Only integer and index element types move (the host VM's arithmetic on
// them is exact and the same as the device's); divisions move only where
// they cannot trap (`isPure`: a constant non-zero divisor).
//
//===----------------------------------------------------------------------===//
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYHOSTSCALARS
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

/// A 0-d tensor of integers or indices: what may move to the host.
bool isScalarTensor(Type type) {
  auto t = dyn_cast<RankedTensorType>(type);
  return t && t.getRank() == 0 &&
         isa<IntegerType, IndexType>(t.getElementType());
}

/// The most elements of a non-scalar tensor computed on the host (a shape
/// vector), and of a generic's iteration space unrolled there.
constexpr int64_t kMaxHostElements = 8;

/// A static integer tensor small enough for the host: a 0-d one or a
/// shape vector of at most `kMaxHostElements` elements, not of booleans (a
/// `tensor.from_elements` of i1 that reaches a dispatch, as a `where`'s
/// condition, fails iree-compile's verifier).
bool isSmallTensor(Type type) {
  if (isScalarTensor(type))
    return true;
  auto t = dyn_cast<RankedTensorType>(type);
  return t && t.hasStaticShape() && t.getNumElements() <= kMaxHostElements &&
         isa<IntegerType, IndexType>(t.getElementType()) &&
         !t.getElementType().isInteger(1);
}

/// A tensor with exactly one element, whatever its rank.
bool isOneElement(Type type) {
  auto t = dyn_cast<RankedTensorType>(type);
  return t && t.hasStaticShape() && t.getNumElements() == 1;
}

/// A `linalg.generic` of small tensors over a small static iteration space
/// whose body is pure `arith` and `linalg.index` (no reads of other
/// tensors, nothing that may trap).
bool isScalarGeneric(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() ||
      !llvm::all_of(op->getOperandTypes(), isSmallTensor))
    return false;
  int64_t points = 1;
  for (int64_t range : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range))
      return false;
    points *= range;
    if (points > kMaxHostElements)
      return false;
  }
  for (Operation &inner : op.getBody()->without_terminator())
    if (!isa<linalg::IndexOp>(inner) &&
        (!isa<arith::ArithDialect>(inner.getDialect()) || !isPure(&inner) ||
         inner.getNumRegions() != 0))
      return false;
  return true;
}

/// The block arguments of `fn`'s CFG and of `scf.if`s whose values come
/// along edges: for each, the values passed to it.
struct Edges {
  /// (block argument or scf.if result) -> incoming values; a value missing
  /// here is not an edge target.
  llvm::DenseMap<Value, SmallVector<Value, 2>> incoming;
  /// values with an incoming edge we cannot rewrite (never host-known).
  llvm::DenseSet<Value> opaque;
};

struct HostScalarsPass : relay::impl::RelayHostScalarsBase<HostScalarsPass> {
  void runOnOperation() override;

private:
  void collect(ModuleOp module);
  void readLoopEntriesOnce();
  bool depsHostKnown(Value v) const;
  void rewrite(ModuleOp module);

  llvm::SetVector<Value> host;
  Edges edges;
  /// private functions whose every use is a direct call: their calls.
  llvm::DenseMap<func::FuncOp, SmallVector<func::CallOp>> calls;
};

/// A loop (a self-recursive private function) entered with 0-d integer or
/// boolean tensors the host does not know (inputs, values read from tensors)
/// has them read on the host once, at each call from outside the loop: its
/// counters, bounds, flags and the state computed from them (the Relay
/// paper's loop over three int32 scalars) then live on the host, where each
/// iteration's arithmetic and branch cost no dispatch and no read back. A
/// state value the loop computes from device data stays on the device (the
/// fixpoint drops it); its entry value is then read once for nothing.
void HostScalarsPass::readLoopEntriesOnce() {
  for (auto &[fn, sites] : calls) {
    SmallVector<func::CallOp> inside, outside;
    for (func::CallOp call : sites)
      (call->getParentOfType<func::FuncOp>() == fn ? inside : outside)
          .push_back(call);
    if (inside.empty())
      continue;
    for (BlockArgument arg : fn.getArguments()) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!isScalarTensor(arg.getType()))
        continue;
      unsigned i = arg.getArgNumber();
      for (func::CallOp call : outside) {
        Value v = call.getOperand(i);
        if (isa_and_nonnull<arith::ConstantOp, tensor::FromElementsOp>(
                v.getDefiningOp()))
          continue;
        OpBuilder b(call);
        Value scalar =
            tensor::ExtractOp::create(b, v.getLoc(), v, ValueRange{});
        call->setOperand(
            i, tensor::FromElementsOp::create(b, v.getLoc(), type, scalar));
      }
    }
  }
}

void HostScalarsPass::collect(ModuleOp module) {
  // calls of private functions used only as callees
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!fn.isPrivate() || fn.isExternal())
      continue;
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(fn, module);
    if (!uses)
      continue;
    SmallVector<func::CallOp> sites;
    bool onlyCalls = true;
    for (const SymbolTable::SymbolUse &use : *uses) {
      auto call = dyn_cast<func::CallOp>(use.getUser());
      if (!call || call.getCallee() != fn.getSymName())
        onlyCalls = false;
      else
        sites.push_back(call);
    }
    if (onlyCalls)
      calls[fn] = std::move(sites);
  }
  readLoopEntriesOnce();
  module.walk([&](Operation *op) {
    if (auto fn = dyn_cast<func::FuncOp>(op)) {
      if (fn.isExternal())
        return;
      auto it = calls.find(fn);
      for (BlockArgument arg : fn.getArguments()) {
        if (!isScalarTensor(arg.getType()) || it == calls.end())
          continue;
        for (func::CallOp call : it->second)
          edges.incoming[arg].push_back(call.getOperand(arg.getArgNumber()));
        host.insert(arg);
      }
      // the CFG's other blocks: values along branch edges
      for (Block &block : llvm::drop_begin(fn.getBody())) {
        for (BlockArgument arg : block.getArguments())
          if (isScalarTensor(arg.getType())) {
            edges.incoming[arg];
            host.insert(arg);
          }
        for (Block *pred : block.getPredecessors()) {
          auto br = dyn_cast<BranchOpInterface>(pred->getTerminator());
          for (unsigned s = 0; s < pred->getTerminator()->getNumSuccessors();
               ++s) {
            if (pred->getTerminator()->getSuccessor(s) != &block)
              continue;
            for (BlockArgument arg : block.getArguments()) {
              if (!isScalarTensor(arg.getType()))
                continue;
              std::optional<Value> passed;
              if (br) {
                SuccessorOperands ops = br.getSuccessorOperands(s);
                if (!ops.isOperandProduced(arg.getArgNumber()))
                  passed = ops[arg.getArgNumber()];
              }
              if (passed)
                edges.incoming[arg].push_back(*passed);
              else
                edges.opaque.insert(arg);
            }
          }
        }
      }
      return;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      if (ifOp.getElseRegion().empty())
        return;
      for (OpResult r : ifOp.getResults()) {
        if (!isScalarTensor(r.getType()))
          continue;
        unsigned i = r.getResultNumber();
        edges.incoming[r] = {ifOp.thenYield().getOperand(i),
                             ifOp.elseYield().getOperand(i)};
        host.insert(r);
      }
      return;
    }
    if (isa<arith::ConstantOp, tensor::FromElementsOp>(op)) {
      for (Value r : op->getResults())
        if (isSmallTensor(r.getType()))
          host.insert(r);
      return;
    }
    if (auto generic = dyn_cast<linalg::GenericOp>(op))
      if (isScalarGeneric(generic))
        for (Value r : generic.getResults())
          host.insert(r);
  });
}

bool HostScalarsPass::depsHostKnown(Value v) const {
  if (edges.opaque.contains(v))
    return false;
  auto it = edges.incoming.find(v);
  if (it != edges.incoming.end())
    return llvm::all_of(it->second,
                        [&](Value in) { return host.contains(in); });
  Operation *def = v.getDefiningOp();
  auto generic = dyn_cast_or_null<linalg::GenericOp>(def);
  if (!generic)
    return true; // a constant or from_elements
  for (OpOperand &operand : generic->getOpOperands()) {
    bool read = generic.isDpsInput(&operand) ||
                !generic.getMatchingBlockArgument(&operand).use_empty();
    if (read && !host.contains(operand.get()))
      return false;
  }
  return true;
}

void unrollOnHost(OpBuilder &b, linalg::GenericOp generic);

void HostScalarsPass::rewrite(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  auto extract = [&](Value tensor, Operation *before) -> Value {
    b.setInsertionPoint(before);
    return tensor::ExtractOp::create(b, tensor.getLoc(), tensor, ValueRange{});
  };
  // 1. arguments and scf.if results become scalars; their users see a
  //    tensor.from_elements of them
  llvm::SetVector<func::FuncOp> retyped;
  for (Value v : host) {
    if (!edges.incoming.count(v))
      continue;
    auto type = cast<RankedTensorType>(v.getType());
    v.setType(type.getElementType());
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      b.setInsertionPointToStart(arg.getOwner());
      if (auto fn = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
          fn && arg.getOwner()->isEntryBlock())
        retyped.insert(fn);
    } else {
      b.setInsertionPointAfter(v.getDefiningOp());
    }
    auto wrapped = tensor::FromElementsOp::create(b, v.getLoc(), type, v);
    v.replaceAllUsesExcept(wrapped, wrapped);
  }
  // 2. the edges pass scalars
  for (Value v : host) {
    if (!edges.incoming.count(v))
      continue;
    if (auto r = dyn_cast<OpResult>(v)) {
      auto ifOp = cast<scf::IfOp>(r.getOwner());
      for (scf::YieldOp y : {ifOp.thenYield(), ifOp.elseYield()}) {
        OpOperand &operand = y->getOpOperand(r.getResultNumber());
        operand.set(extract(operand.get(), y));
      }
      continue;
    }
    auto arg = cast<BlockArgument>(v);
    Block *block = arg.getOwner();
    if (block->isEntryBlock()) {
      auto fn = cast<func::FuncOp>(block->getParentOp());
      for (func::CallOp call : calls[fn]) {
        OpOperand &operand = call->getOpOperand(arg.getArgNumber());
        operand.set(extract(operand.get(), call));
      }
      continue;
    }
    for (Block *pred : block->getPredecessors()) {
      auto br = cast<BranchOpInterface>(pred->getTerminator());
      for (unsigned s = 0; s < br->getNumSuccessors(); ++s) {
        if (br->getSuccessor(s) != block)
          continue;
        MutableOperandRange ops =
            br.getSuccessorOperands(s).getMutableForwardedOperands();
        OpOperand &operand = ops[arg.getArgNumber()];
        if (isScalarTensor(operand.get().getType()))
          operand.set(extract(operand.get(), br));
      }
    }
  }
  for (func::FuncOp fn : retyped)
    fn.setType(FunctionType::get(ctx, fn.getBody().front().getArgumentTypes(),
                                 fn.getResultTypes()));
  // 3. generics become their bodies on the host, once per point of their
  //    iteration space (in order: a reduction accumulates along it)
  llvm::SetVector<Operation *> generics;
  for (Value v : host)
    if (auto g = v.getDefiningOp<linalg::GenericOp>())
      generics.insert(g);
  for (Operation *op : generics)
    unrollOnHost(b, cast<linalg::GenericOp>(op));
}

/// Steps `index` to the next point of `shape` in row-major order; false
/// past the last.
bool advance(MutableArrayRef<int64_t> index, ArrayRef<int64_t> shape) {
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    if (++index[d] < shape[d])
      return true;
    index[d] = 0;
  }
  return false;
}

/// The row-major position of `index` in a tensor of `shape`.
int64_t linearize(ArrayRef<int64_t> index, ArrayRef<int64_t> shape) {
  int64_t at = 0;
  for (auto [i, n] : llvm::zip(index, shape))
    at = at * n + i;
  return at;
}

void unrollOnHost(OpBuilder &b, linalg::GenericOp generic) {
  Location loc = generic.getLoc();
  b.setInsertionPoint(generic);
  auto indexValues = [&](ArrayRef<int64_t> index) {
    return llvm::map_to_vector(index, [&](int64_t i) -> Value {
      return arith::ConstantIndexOp::create(b, loc, i);
    });
  };
  // each output's elements: the init's, then what the body yields there
  SmallVector<SmallVector<Value>> outs;
  for (OpOperand &init : generic.getDpsInitsMutable()) {
    auto type = cast<RankedTensorType>(init.get().getType());
    SmallVector<Value> elements(type.getNumElements());
    if (!generic.getMatchingBlockArgument(&init).use_empty()) {
      SmallVector<int64_t> index(type.getRank(), 0);
      for (Value &e : elements) {
        e = tensor::ExtractOp::create(b, loc, init.get(), indexValues(index));
        advance(index, type.getShape());
      }
    }
    outs.push_back(std::move(elements));
  }
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  SmallVector<int64_t> point(ranges.size(), 0);
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  for (bool more = !llvm::is_contained(ranges, 0); more;
       more = advance(point, ranges)) {
    IRMapping map;
    for (OpOperand &operand : generic->getOpOperands()) {
      BlockArgument arg = generic.getMatchingBlockArgument(&operand);
      if (arg.use_empty())
        continue;
      SmallVector<int64_t> at = maps[operand.getOperandNumber()].compose(point);
      if (generic.isDpsInput(&operand)) {
        map.map(arg, tensor::ExtractOp::create(b, loc, operand.get(),
                                               indexValues(at)));
        continue;
      }
      auto type = cast<RankedTensorType>(operand.get().getType());
      unsigned out = operand.getOperandNumber() - generic.getNumDpsInputs();
      map.map(arg, outs[out][linearize(at, type.getShape())]);
    }
    for (Operation &inner : generic.getBody()->without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
        map.map(index.getResult(),
                arith::ConstantIndexOp::create(b, loc, point[index.getDim()]));
        continue;
      }
      b.clone(inner, map);
    }
    for (auto [i, value] : llvm::enumerate(yield.getValues())) {
      OpOperand *init = generic.getDpsInitOperand(i);
      auto type = cast<RankedTensorType>(init->get().getType());
      SmallVector<int64_t> at = maps[init->getOperandNumber()].compose(point);
      outs[i][linearize(at, type.getShape())] = map.lookupOrDefault(value);
    }
  }
  SmallVector<Value> results;
  for (auto [elements, result] : llvm::zip(outs, generic.getResults())) {
    // an element the body never wrote (an empty iteration space) is the
    // init's
    auto type = cast<RankedTensorType>(result.getType());
    SmallVector<int64_t> index(type.getRank(), 0);
    for (Value &e : elements) {
      if (!e)
        e = tensor::ExtractOp::create(
            b, loc, generic.getDpsInitOperand(result.getResultNumber())->get(),
            indexValues(index));
      advance(index, type.getShape());
    }
    results.push_back(
        tensor::FromElementsOp::create(b, loc, result.getType(), elements));
  }
  generic->replaceAllUsesWith(results);
  generic->erase();
}

/// Drops `input` of `op`, its block argument replaced by `value`.
void replaceInput(PatternRewriter &rewriter, linalg::GenericOp op,
                  OpOperand *input, Value value) {
  unsigned i = input->getOperandNumber();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  maps.erase(maps.begin() + i);
  rewriter.modifyOpInPlace(op, [&] {
    BlockArgument arg = op.getMatchingBlockArgument(input);
    arg.replaceAllUsesWith(value);
    op.getBody()->eraseArgument(arg.getArgNumber());
    op.getInputsMutable().erase(i);
    op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
}

/// A generic reading a one-element `tensor.from_elements`: the scalar is used
/// in its body directly (IREE passes it to the dispatch as a push constant).
struct CaptureScalarInput : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto from = input->get().getDefiningOp<tensor::FromElementsOp>();
      if (!from || !isOneElement(from.getType()))
        continue;
      replaceInput(rewriter, op, input, from.getElements().front());
      return success();
    }
    return failure();
  }
};

/// A generic reading a 0-d integer constant: the constant is in its body,
/// so that a division by it is speculatable (`i / 16` is host-known).
struct CaptureConstantInput : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    for (OpOperand *input : op.getDpsInputOperands()) {
      DenseElementsAttr value;
      if (!isScalarTensor(input->get().getType()) ||
          !matchPattern(input->get(), m_Constant(&value)))
        continue;
      rewriter.setInsertionPointToStart(op.getBody());
      Value scalar = arith::ConstantOp::create(
          rewriter, op.getLoc(), value.getSplatValue<TypedAttr>());
      replaceInput(rewriter, op, input, scalar);
      return success();
    }
    return failure();
  }
};

/// A host boolean a device op still needs as a tensor (a loop argument, an
/// `if` result, a return value) becomes a `linalg.fill` of it: iree-compile
/// 3.13 fails on a `tensor.from_elements` of i1 that reaches a dispatch
/// ("operand types match result element type": its i1 storage is i8).
void fillBooleanTensorsFromScalars(ModuleOp module) {
  SmallVector<tensor::FromElementsOp> booleans;
  module.walk([&](tensor::FromElementsOp op) {
    if (isOneElement(op.getType()) &&
        op.getType().getElementType().isInteger(1))
      booleans.push_back(op);
  });
  for (tensor::FromElementsOp op : booleans) {
    OpBuilder b(op);
    Value empty =
        tensor::EmptyOp::create(b, op.getLoc(), op.getType(), ValueRange{});
    op.replaceAllUsesWith(
        linalg::FillOp::create(b, op.getLoc(), op.getElements().front(), empty)
            .getResult(0));
    op.erase();
  }
}

void HostScalarsPass::runOnOperation() {
  ModuleOp module = getOperation();
  {
    RewritePatternSet patterns(&getContext());
    patterns.add<CaptureConstantInput>(&getContext());
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();
  }
  collect(module);
  for (bool changed = true; changed;) {
    changed = false;
    for (Value v : llvm::to_vector(host))
      if (!depsHostKnown(v)) {
        host.remove(v);
        changed = true;
      }
  }
  if (!host.empty()) {
    rewrite(module);
    RewritePatternSet patterns(&getContext());
    patterns.add<CaptureScalarInput>(&getContext());
    tensor::ExtractOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();
  }
  fillBooleanTensorsFromScalars(module);
}

} // namespace
