//===- EliminateRecursion.cpp - relay-eliminate-recursion -----------------===//
//
// iree-compile never returns on a program whose call graph has a cycle, so
// every cycle of func.call edges is removed here:
//
//   1. the strongly connected components (SCCs) of the call graph are found
//      (Tarjan); a component is recursive if it has two functions or a
//      self call;
//   2. the functions of a recursive SCC are put in CFG form (upstream
//      scf-to-cf patterns, on host-level scf ops only: an scf op inside e.g.
//      a linalg body stays);
//   3. calls between SCC functions whose results are returned unchanged
//      (tail calls, also through the join blocks left by scf.if) become
//      branches to the callee's entry block;
//   4. an SCC whose only recursive calls are self tail calls becomes a loop:
//      its entry block turns into the loop header (no frame, no growth);
//   5. any other SCC becomes ONE private dispatcher function
//      `@<first>__recursion(%which: i32, <arg slots>) -> (<result slots>)`:
//      the functions' blocks are moved into it (all values crossing blocks
//      passed as block arguments, from Liveness), each non-tail call
//      pushes a frame [live values..., return-site tag] on a heap stack
//      (`!util.list<?>`; tensors boxed as `!hal.buffer_view`) and branches
//      to the callee's entry; each return pops the top frame and switches on
//      its tag to the continuation after the call, or leaves the dispatcher
//      when the stack is empty. The original functions keep their names and
//      signatures and call the dispatcher with their index.
//
//===----------------------------------------------------------------------===//
#include "../Conversion/RelayToLinalg/IREEOps.h"
#include "BranchEdges.h"
#include "relay/RelayPasses.h"

#include "mlir/Analysis/Liveness.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYELIMINATERECURSION
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;
namespace io = mlir::relay::iree;

namespace {

//===----------------------------------------------------------------------===//
// Call graph
//===----------------------------------------------------------------------===//

/// Strongly connected components of the graph `succ` (iterative Tarjan);
/// each component lists its nodes in increasing order.
SmallVector<SmallVector<unsigned>>
stronglyConnectedComponents(ArrayRef<SmallVector<unsigned>> succ) {
  unsigned n = succ.size();
  SmallVector<int> index(n, -1), low(n, 0);
  SmallVector<bool> onStack(n, false);
  SmallVector<unsigned> stack;
  SmallVector<std::pair<unsigned, unsigned>> work; // node, next edge
  SmallVector<SmallVector<unsigned>> components;
  int counter = 0;
  auto visit = [&](unsigned v) {
    index[v] = low[v] = counter++;
    stack.push_back(v);
    onStack[v] = true;
    work.push_back({v, 0});
  };
  for (unsigned root = 0; root < n; ++root) {
    if (index[root] >= 0)
      continue;
    visit(root);
    while (!work.empty()) {
      unsigned v = work.back().first;
      unsigned edge = work.back().second;
      if (edge < succ[v].size()) {
        ++work.back().second;
        unsigned w = succ[v][edge];
        if (index[w] < 0)
          visit(w);
        else if (onStack[w])
          low[v] = std::min(low[v], index[w]);
        continue;
      }
      work.pop_back();
      if (!work.empty()) {
        unsigned parent = work.back().first;
        low[parent] = std::min(low[parent], low[v]);
      }
      if (low[v] != index[v])
        continue;
      SmallVector<unsigned> component;
      unsigned w;
      do {
        w = stack.pop_back_val();
        onStack[w] = false;
        component.push_back(w);
      } while (w != v);
      llvm::sort(component);
      components.push_back(std::move(component));
    }
  }
  return components;
}

//===----------------------------------------------------------------------===//
// CFG form
//===----------------------------------------------------------------------===//

/// The scf ops that scf-to-cf turns into blocks.
bool isStructuredControlFlow(Operation *op) {
  return isa<scf::IfOp, scf::ForOp, scf::WhileOp, scf::IndexSwitchOp,
             scf::ExecuteRegionOp>(op);
}

/// True if `op` runs in `fn`'s own control flow: directly in its body or
/// nested only in structured control flow (not in e.g. a linalg body).
bool isHostLevel(Operation *op, func::FuncOp fn) {
  for (Operation *p = op->getParentOp(); p && p != fn.getOperation();
       p = p->getParentOp())
    if (!isStructuredControlFlow(p))
      return false;
  return true;
}

/// Lowers the host-level scf ops of `fn` to cf blocks.
LogicalResult convertToCFG(func::FuncOp fn) {
  DenseSet<Operation *> hostOps;
  fn.walk([&](Operation *op) {
    if (isStructuredControlFlow(op) && isHostLevel(op, fn))
      hostOps.insert(op);
  });
  if (hostOps.empty())
    return success();
  MLIRContext *ctx = fn.getContext();
  ConversionTarget target(*ctx);
  target.addLegalDialect<cf::ControlFlowDialect>();
  target.markUnknownOpDynamicallyLegal([&](Operation *op) {
    return !(isStructuredControlFlow(op) && hostOps.contains(op));
  });
  RewritePatternSet patterns(ctx);
  populateSCFToControlFlowConversionPatterns(patterns);
  if (failed(applyPartialConversion(fn, target, std::move(patterns))))
    return fn.emitError("relay-eliminate-recursion: cannot bring the "
                        "control flow of this recursive function into CFG "
                        "form");
  return success();
}

/// True if the results of `call` are what its function returns, unchanged:
/// the call is followed by `return` of its results, or by branches through
/// blocks holding nothing but their terminator (the join blocks scf-to-cf
/// leaves after an scf.if) that pass the results on, as block arguments or by
/// dominance, to such a `return`.
bool isTailCall(func::CallOp call) {
  SmallVector<Value> current(call.getResults());
  Operation *term = call->getNextNode();
  if (!term || !term->hasTrait<mlir::OpTrait::IsTerminator>())
    return false;
  for (unsigned steps = 0; steps < 64; ++steps) {
    if (isa<func::ReturnOp>(term))
      return llvm::equal(term->getOperands(), current);
    auto br = dyn_cast<cf::BranchOp>(term);
    if (!br)
      return false;
    Block *dest = br.getDest();
    if (&dest->front() != dest->getTerminator())
      return false;
    // Along this edge, a block argument is the operand passed to it.
    for (Value &v : current)
      for (auto [operand, arg] :
           llvm::zip(br.getDestOperands(), dest->getArguments()))
        if (operand == v) {
          v = arg;
          break;
        }
    term = dest->getTerminator();
  }
  return false;
}

/// True if `v` is defined in `block` or in a region nested in it.
bool isDefinedIn(Value v, Block *block) {
  for (Block *b = v.getParentBlock(); b;) {
    if (b == block)
      return true;
    Operation *parent = b->getParentOp();
    if (!parent)
      return false;
    b = parent->getBlock();
  }
  return false;
}

bool isRematerializable(Value v) {
  Operation *def = v.getDefiningOp();
  return def && def->hasTrait<mlir::OpTrait::ConstantLike>() &&
         def->getNumOperands() == 0 && def->getNumRegions() == 0;
}

/// Replaces the uses of `v` inside `block` (nested ones too) by a clone of
/// its constant definition at the start of `block`.
void rematerializeIn(Value v, Block *block) {
  OpBuilder b = OpBuilder::atBlockBegin(block);
  Operation *clone = b.clone(*v.getDefiningOp());
  Value copy = clone->getResult(cast<OpResult>(v).getResultNumber());
  v.replaceUsesWithIf(copy, [&](OpOperand &use) {
    return block->findAncestorOpInBlock(*use.getOwner()) != nullptr;
  });
}

/// Rewrites `fn` so that no value is used outside the block defining it:
/// every value live into a block becomes an argument of that block (passed
/// by all its predecessors); constants are cloned instead. Afterwards a block
/// can be entered from anywhere that supplies its arguments, which the
/// dispatcher needs.
LogicalResult passLiveValuesAsBlockArguments(func::FuncOp fn) {
  Region &body = fn.getBody();
  if (body.hasOneBlock())
    return success();
  // A deterministic order for the new arguments.
  DenseMap<Value, unsigned> order;
  fn.walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          order.try_emplace(arg, order.size());
    for (Value result : op->getResults())
      order.try_emplace(result, order.size());
  });
  Liveness liveness(fn);
  DenseMap<Block *, SmallVector<Value>> passed;
  DenseMap<std::pair<Block *, Value>, Value> argumentFor;
  for (Block &block : llvm::drop_begin(body)) {
    const Liveness::ValueSetT &liveIn = liveness.getLiveIn(&block);
    SmallVector<Value> values(liveIn.begin(), liveIn.end());
    llvm::sort(values,
               [&](Value a, Value c) { return order.at(a) < order.at(c); });
    SmallVector<Value> &list = passed[&block];
    for (Value v : values) {
      if (isRematerializable(v)) {
        rematerializeIn(v, &block);
        continue;
      }
      BlockArgument arg = block.addArgument(v.getType(), v.getLoc());
      v.replaceUsesWithIf(arg, [&](OpOperand &use) {
        return block.findAncestorOpInBlock(*use.getOwner()) != nullptr;
      });
      argumentFor[{&block, v}] = arg;
      list.push_back(v);
    }
  }
  for (Block &pred : body) {
    Operation *term = pred.getTerminator();
    if (term->getNumSuccessors() == 0)
      continue;
    auto branch = dyn_cast<BranchOpInterface>(term);
    if (!branch)
      return term->emitError("relay-eliminate-recursion: unsupported "
                             "terminator in a recursive function");
    for (unsigned i = 0, e = term->getNumSuccessors(); i < e; ++i) {
      SmallVector<Value> operands;
      for (Value v : passed.lookup(term->getSuccessor(i))) {
        auto it = argumentFor.find({&pred, v});
        operands.push_back(it == argumentFor.end() ? v : it->second);
      }
      branch.getSuccessorOperands(i).append(operands);
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Frames: values saved across a call
//===----------------------------------------------------------------------===//

/// The type a value of type `type` is stored as in a `!util.list<?>`, or
/// null if it cannot be stored.
Type storageType(Type type) {
  MLIRContext *ctx = type.getContext();
  Builder b(ctx);
  if (isa<RankedTensorType>(type))
    return io::getBufferViewType(ctx);
  if (type.isIndex())
    return b.getI64Type();
  if (auto intType = dyn_cast<IntegerType>(type)) {
    if (!intType.isSignless())
      return {};
    unsigned width = intType.getWidth();
    return width <= 32 ? b.getI32Type()
                       : (width == 64 ? b.getI64Type() : Type());
  }
  if (type.isF32())
    return type;
  if (auto floatType = dyn_cast<FloatType>(type)) {
    unsigned width = floatType.getWidth();
    return width < 32 ? b.getI32Type()
                      : (width == 64 ? b.getI64Type() : Type());
  }
  if (isa<OpaqueType>(type))
    return type; // !util.list<?>, !hal.buffer_view, ...
  return {};
}

Value box(OpBuilder &b, Location loc, Value v) {
  Type type = v.getType();
  Type stored = storageType(type);
  if (stored == type)
    return v;
  if (isa<RankedTensorType>(type))
    return io::boxTensor(b, loc, v);
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, stored, v);
  if (auto floatType = dyn_cast<FloatType>(type)) {
    unsigned width = floatType.getWidth();
    v = arith::BitcastOp::create(b, loc, b.getIntegerType(width), v);
    if (width == stored.getIntOrFloatBitWidth())
      return v;
  }
  // i1 (and float bits) zero-extended: IREE's VM keeps i1 as 0/1. Other
  // narrow integers sign-extended: IREE's VM keeps them sign-extended in
  // i32 registers and may treat the truncation back as a no-op.
  if (isa<FloatType>(type) || type.isInteger(1))
    return arith::ExtUIOp::create(b, loc, stored, v);
  return arith::ExtSIOp::create(b, loc, stored, v);
}

Value unbox(OpBuilder &b, Location loc, Value stored, Type type) {
  if (stored.getType() == type)
    return stored;
  if (auto tensorType = dyn_cast<RankedTensorType>(type))
    return io::unboxTensor(b, loc, stored, tensorType);
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, type, stored);
  unsigned width = type.getIntOrFloatBitWidth();
  if (width != stored.getType().getIntOrFloatBitWidth())
    stored = arith::TruncIOp::create(b, loc, b.getIntegerType(width), stored);
  if (isa<FloatType>(type))
    stored = arith::BitcastOp::create(b, loc, type, stored);
  return stored;
}

/// Erases the terminator after a tail call and the call, and branches to
/// `dest` with the call's operands instead. The results can still be used by
/// the (now unreachable) blocks of the return chain that saw them by
/// dominance; those uses get placeholders from the function's `entry`.
LogicalResult replaceTailCallByBranch(func::CallOp call, Block *dest,
                                      Block *entry) {
  OpBuilder b(call);
  cf::BranchOp::create(b, call.getLoc(), dest, call.getOperands());
  call->getNextNode()->erase();
  OpBuilder eb = OpBuilder::atBlockBegin(entry);
  for (Value result : call.getResults()) {
    if (result.use_empty())
      continue;
    FailureOr<Value> p = io::placeholder(eb, call.getLoc(), result.getType());
    if (failed(p))
      return call.emitError("relay-eliminate-recursion: unsupported result "
                            "type ")
             << result.getType();
    result.replaceAllUsesWith(*p);
  }
  call.erase();
  return success();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// A call from one function of an SCC to another (or itself).
struct Site {
  func::CallOp call;
  unsigned caller, callee; // positions in the SCC
  bool tail;
  // Non-tail calls only, set when the block is split after the call:
  Block *continuation = nullptr; // arguments: results, then `saved`
  SmallVector<Value> saved;      // live across the call (in the caller)
  unsigned tag = 0;
  Location loc = call.getLoc(); // kept: the call is erased
};

/// Argument or result type lists of the SCC's functions, one slot group per
/// distinct list.
struct SlotGroups {
  SmallVector<SmallVector<Type>> groups;
  SmallVector<unsigned> offsets;
  unsigned total = 0;
  unsigned add(TypeRange types) {
    for (auto [i, g] : llvm::enumerate(groups))
      if (llvm::equal(g, types))
        return i;
    groups.emplace_back(types.begin(), types.end());
    offsets.push_back(total);
    total += types.size();
    return groups.size() - 1;
  }
  SmallVector<Type> allTypes() const {
    SmallVector<Type> all;
    for (auto &g : groups)
      all.append(g);
    return all;
  }
};

struct EliminateRecursionPass
    : relay::impl::RelayEliminateRecursionBase<EliminateRecursionPass> {
  void runOnOperation() override;

  LogicalResult eliminate(ArrayRef<func::FuncOp> scc, SymbolTable &symbols);
  LogicalResult buildLoop(func::FuncOp fn, ArrayRef<Site> sites);
  LogicalResult buildDispatcher(ArrayRef<func::FuncOp> scc,
                                MutableArrayRef<Site> sites,
                                SymbolTable &symbols);
};

/// The module's functions and their recursive call-graph components (two or
/// more functions, or one calling itself), each in module order.
struct RecursiveComponents {
  SmallVector<func::FuncOp> functions;
  SmallVector<SmallVector<func::FuncOp>> components;
};

RecursiveComponents findRecursiveComponents(ModuleOp module) {
  RecursiveComponents result;
  DenseMap<StringAttr, unsigned> position;
  for (auto fn : module.getOps<func::FuncOp>()) {
    position[fn.getSymNameAttr()] = result.functions.size();
    result.functions.push_back(fn);
  }
  SmallVector<SmallVector<unsigned>> succ(result.functions.size());
  SmallVector<bool> selfCall(result.functions.size(), false);
  for (auto [i, fn] : llvm::enumerate(result.functions)) {
    fn.walk([&](func::CallOp call) {
      auto it = position.find(call.getCalleeAttr().getAttr());
      if (it == position.end())
        return;
      succ[i].push_back(it->second);
      if (it->second == i)
        selfCall[i] = true;
    });
  }
  for (ArrayRef<unsigned> component : stronglyConnectedComponents(succ)) {
    if (component.size() == 1 && !selfCall[component.front()])
      continue;
    SmallVector<func::FuncOp> &scc = result.components.emplace_back();
    for (unsigned i : component)
      scc.push_back(result.functions[i]);
  }
  return result;
}

void EliminateRecursionPass::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTable symbols(module);
  auto components = findRecursiveComponents(module).components;
  if (!components.empty() && !getContext().allowsUnregisteredDialects()) {
    // frame stacks are IREE util/hal ops, built unregistered
    func::FuncOp(components.front().front())
        .emitError("relay-eliminate-recursion builds IREE's util/hal ops for "
                   "this recursion, which needs a context allowing "
                   "unregistered dialects (relay-mlir-opt "
                   "--allow-unregistered-dialect)");
    return signalPassFailure();
  }
  for (ArrayRef<func::FuncOp> scc : components)
    if (failed(eliminate(scc, symbols)))
      return signalPassFailure();
  // Nothing above may leave a cycle; say so rather than let iree-compile hang.
  for (ArrayRef<func::FuncOp> scc :
       findRecursiveComponents(module).components) {
    func::FuncOp(scc.front())
        .emitError("relay-eliminate-recursion: a call-graph cycle is left "
                   "through this "
                   "function");
    return signalPassFailure();
  }
}

LogicalResult EliminateRecursionPass::eliminate(ArrayRef<func::FuncOp> scc,
                                                SymbolTable &symbols) {
  DenseMap<StringAttr, unsigned> member;
  for (auto [i, fnRef] : llvm::enumerate(scc))
    member[func::FuncOp(fnRef).getSymNameAttr()] = i;
  auto sccCalls = [&](func::FuncOp fn) {
    SmallVector<func::CallOp> calls;
    fn.walk([&](func::CallOp call) {
      if (member.contains(call.getCalleeAttr().getAttr()))
        calls.push_back(call);
    });
    return calls;
  };
  for (func::FuncOp fn : scc) {
    if (fn.isExternal())
      return fn.emitError("relay-eliminate-recursion: recursive function "
                          "without a body");
    for (func::CallOp call : sccCalls(fn))
      if (!isHostLevel(call, fn))
        return call.emitError("relay-eliminate-recursion: a recursive call "
                              "inside '")
               << call->getParentOp()->getName()
               << "' cannot be eliminated (only calls in the function's own "
                  "control flow can)";
    if (failed(convertToCFG(fn)))
      return failure();
  }
  SmallVector<Site> sites;
  for (auto [i, fnRef] : llvm::enumerate(scc)) {
    func::FuncOp fn = fnRef;
    for (func::CallOp call : sccCalls(fn)) {
      unsigned callee = member.at(call.getCalleeAttr().getAttr());
      bool tail = isTailCall(call) &&
                  llvm::equal(call.getResultTypes(), fn.getResultTypes());
      sites.push_back({call, (unsigned)i, callee, tail});
    }
  }
  bool onlySelfTailCalls =
      scc.size() == 1 &&
      llvm::all_of(sites, [](const Site &s) { return s.tail; });
  if (onlySelfTailCalls)
    return buildLoop(scc.front(), sites);
  return buildDispatcher(scc, sites, symbols);
}

/// A loop's loop-invariant arguments (passed back unchanged by every back
/// edge) are replaced by the value the entry block passes.
void forwardLoopInvariants(Block *header) {
  Block *entry = &header->getParent()->front();
  auto edges = enteringEdges(header);
  if (failed(edges))
    return; // (not a branch we can rewrite: leave the loop as it is)
  for (int i = header->getNumArguments() - 1; i >= 0; --i) {
    BlockArgument arg = header->getArgument(i);
    Value initial;
    bool invariant = true;
    for (auto [br, s] : *edges) {
      Value passed = br.getSuccessorOperands(s).getForwardedOperands()[i];
      if (br->getBlock() == entry)
        initial = passed;
      else if (passed != arg)
        invariant = false;
    }
    if (!invariant || !initial)
      continue;
    arg.replaceAllUsesWith(initial);
    for (auto [br, s] : *edges)
      br.getSuccessorOperands(s).erase(i);
    header->eraseArgument(i);
  }
}

/// Self tail calls only: the entry block becomes a loop header entered from
/// a new entry block, and each tail call branches back to it.
LogicalResult EliminateRecursionPass::buildLoop(func::FuncOp fn,
                                                ArrayRef<Site> sites) {
  Block *header = &fn.getBody().front();
  auto *entry = new Block();
  fn.getBody().push_front(entry);
  for (BlockArgument arg : header->getArguments())
    entry->addArgument(arg.getType(), arg.getLoc());
  OpBuilder b = OpBuilder::atBlockEnd(entry);
  cf::BranchOp::create(b, fn.getLoc(), header, entry->getArguments());
  for (const Site &site : sites)
    if (failed(replaceTailCallByBranch(site.call, header, entry)))
      return failure();
  forwardLoopInvariants(header);
  return success();
}

/// Builds the dispatcher of one recursive component, phase by phase (each
/// method one numbered step of docs/design.md's "Recursion" section):
/// `<first>__recursion(%which, slots...)` holding every function's blocks,
/// with an explicit stack of frames for the non-tail calls.
struct DispatcherBuilder {
  MLIRContext *ctx;
  ArrayRef<func::FuncOp> scc;
  MutableArrayRef<Site> sites;
  Location loc;
  Type i32;
  unsigned numTags = 0;
  SlotGroups args, results;
  SmallVector<unsigned> argGroup, resultGroup;
  func::FuncOp dispatcher;
  Block *entry = nullptr;
  Value stack;
  SmallVector<Block *> entries, returnBlocks;

  DispatcherBuilder(MLIRContext *ctx, ArrayRef<func::FuncOp> scc,
                    MutableArrayRef<Site> sites)
      : ctx(ctx), scc(scc), sites(sites),
        loc(func::FuncOp(scc.front()).getLoc()),
        i32(IntegerType::get(ctx, 32)) {}

  Region &body() { return dispatcher.getBody(); }

  /// 1. Every block of every function gets its live values as arguments,
  ///    then blocks are split after each non-tail call.
  LogicalResult splitAtCalls() {
    for (func::FuncOp fn : scc)
      if (failed(passLiveValuesAsBlockArguments(fn)))
        return failure();
    for (Site &site : sites)
      if (!site.tail && failed(splitAfter(site)))
        return failure();
    return success();
  }

  /// The block after a non-tail call becomes its continuation: the call's
  /// results and the values live across it (saved in the frame) as
  /// arguments.
  LogicalResult splitAfter(Site &site) {
    func::CallOp call = site.call;
    Block *block = call->getBlock();
    Block *cont = block->splitBlock(call->getNextNode());
    llvm::SetVector<Value> used;
    cont->walk([&](Operation *op) {
      for (Value operand : op->getOperands())
        if (!isDefinedIn(operand, cont))
          used.insert(operand);
    });
    for (Value result : call.getResults()) {
      BlockArgument arg = cont->addArgument(result.getType(), result.getLoc());
      result.replaceAllUsesWith(arg);
    }
    for (Value v : used) {
      if (v.getDefiningOp() == call.getOperation())
        continue;
      if (isRematerializable(v)) {
        rematerializeIn(v, cont);
        continue;
      }
      if (!storageType(v.getType()))
        return call.emitError("relay-eliminate-recursion: cannot keep a "
                              "value of type ")
               << v.getType() << " live across this recursive call";
      BlockArgument arg = cont->addArgument(v.getType(), v.getLoc());
      v.replaceUsesWithIf(arg, [&](OpOperand &use) {
        return cont->findAncestorOpInBlock(*use.getOwner()) != nullptr;
      });
      site.saved.push_back(v);
    }
    site.continuation = cont;
    site.tag = numTags++;
    return success();
  }

  /// 2. The dispatcher's signature: %which, then one slot group per
  ///    distinct argument list; one result slot group per distinct result
  ///    list. Its entry block creates the frame stack (none when only tail
  ///    calls link the functions).
  void createDispatcher(SymbolTable &symbols) {
    for (func::FuncOp fn : scc) {
      argGroup.push_back(args.add(fn.getArgumentTypes()));
      resultGroup.push_back(results.add(fn.getResultTypes()));
    }
    SmallVector<Type> inputs{i32};
    inputs.append(args.allTypes());
    dispatcher = func::FuncOp::create(
        loc, (func::FuncOp(scc.front()).getName() + "__recursion").str(),
        FunctionType::get(ctx, inputs, results.allTypes()));
    dispatcher.setPrivate();
    symbols.insert(dispatcher, std::next(scc.back()->getIterator()));
    entry = dispatcher.addEntryBlock();
    OpBuilder b = OpBuilder::atBlockEnd(entry);
    if (numTags > 0)
      stack = io::createEmptyList(b, loc,
                                  arith::ConstantIndexOp::create(b, loc, 64));
  }

  ValueRange argSlots(unsigned fn) {
    unsigned g = argGroup[fn];
    return entry->getArguments().slice(1 + args.offsets[g],
                                       args.groups[g].size());
  }

  /// 3. Move the functions' blocks in; returns go to their result group's
  ///    return block; the entry switches on %which.
  void moveBodies() {
    for (auto [g, types] : llvm::enumerate(results.groups)) {
      Block *ret = new Block();
      body().push_back(ret);
      for (Type t : types)
        ret->addArgument(t, loc);
      returnBlocks.push_back(ret);
    }
    for (auto [i, fnRef] : llvm::enumerate(scc)) {
      func::FuncOp fn = fnRef;
      entries.push_back(&fn.getBody().front());
      SmallVector<func::ReturnOp> returns;
      fn.walk([&](func::ReturnOp ret) { returns.push_back(ret); });
      for (func::ReturnOp ret : returns) {
        OpBuilder rb(ret);
        cf::BranchOp::create(rb, ret.getLoc(), returnBlocks[resultGroup[i]],
                             ret.getOperands());
        ret.erase();
      }
      body().getBlocks().splice(body().end(), fn.getBody().getBlocks());
    }
    OpBuilder b = OpBuilder::atBlockEnd(entry);
    if (scc.size() == 1) {
      cf::BranchOp::create(b, loc, entries[0], argSlots(0));
      return;
    }
    SmallVector<int32_t> caseValues;
    SmallVector<Block *> caseDests;
    SmallVector<ValueRange> caseOperands;
    for (unsigned i = 1; i < scc.size(); ++i) {
      caseValues.push_back(i);
      caseDests.push_back(entries[i]);
      caseOperands.push_back(argSlots(i));
    }
    cf::SwitchOp::create(b, loc, entry->getArgument(0), entries[0], argSlots(0),
                         caseValues, caseDests, caseOperands);
  }

  /// 4. Calls: tail calls jump, the others push a frame (the saved values,
  ///    then the site's tag) and jump.
  LogicalResult rewriteCalls() {
    for (Site &site : sites) {
      if (site.tail) {
        if (failed(replaceTailCallByBranch(site.call, entries[site.callee],
                                           entry)))
          return failure();
        continue;
      }
      func::CallOp call = site.call;
      Location cl = call.getLoc();
      OpBuilder cb(call);
      Value size = io::getListSize(cb, cl, stack);
      unsigned frame = site.saved.size() + 1;
      Value newSize = arith::AddIOp::create(
          cb, cl, size, arith::ConstantIndexOp::create(cb, cl, frame));
      io::resizeList(cb, cl, stack, newSize);
      for (auto [i, v] : llvm::enumerate(site.saved)) {
        Value at = arith::AddIOp::create(
            cb, cl, size, arith::ConstantIndexOp::create(cb, cl, i));
        io::setListItem(cb, cl, stack, at, box(cb, cl, v));
      }
      Value tagAt = arith::AddIOp::create(
          cb, cl, size, arith::ConstantIndexOp::create(cb, cl, frame - 1));
      io::setListItem(cb, cl, stack, tagAt,
                      arith::ConstantIntOp::create(cb, cl, site.tag, 32));
      cf::BranchOp::create(cb, cl, entries[site.callee], call.getOperands());
      call.erase();
    }
    return success();
  }

  /// 5. Returns: leave when the stack is empty, else pop the top frame and
  ///    continue after the call that pushed it.
  LogicalResult buildReturns() {
    for (auto [g, types] : llvm::enumerate(results.groups)) {
      FailureOr<Block *> exit = exitBlock(g, types);
      if (failed(exit))
        return failure();
      SmallVector<Site *> returning;
      for (Site &site : sites)
        if (!site.tail && resultGroup[site.callee] == g)
          returning.push_back(&site);
      Block *ret = returnBlocks[g];
      OpBuilder rb = OpBuilder::atBlockEnd(ret);
      if (returning.empty()) {
        cf::BranchOp::create(rb, loc, *exit, ret->getArguments());
        continue;
      }
      Block *pop = newBlock(types);
      Value size = io::getListSize(rb, loc, stack);
      Value empty =
          arith::CmpIOp::create(rb, loc, arith::CmpIPredicate::eq, size,
                                arith::ConstantIndexOp::create(rb, loc, 0));
      cf::CondBranchOp::create(rb, loc, empty, *exit, ret->getArguments(), pop,
                               ret->getArguments());
      popFrame(pop, types, returning);
    }
    return success();
  }

  Block *newBlock(ArrayRef<Type> types) {
    auto *block = new Block();
    body().push_back(block);
    for (Type t : types)
      block->addArgument(t, loc);
    return block;
  }

  /// The dispatcher's return of result group `g`: its values in their
  /// slots, placeholders in the other groups'.
  FailureOr<Block *> exitBlock(unsigned g, ArrayRef<Type> types) {
    Block *exit = newBlock(types);
    OpBuilder eb = OpBuilder::atBlockEnd(exit);
    SmallVector<Value> resultValues;
    for (auto [h, other] : llvm::enumerate(results.groups)) {
      if (h == g) {
        resultValues.append(exit->args_begin(), exit->args_end());
        continue;
      }
      for (Type t : other) {
        FailureOr<Value> p = io::placeholder(eb, loc, t);
        if (failed(p))
          return func::FuncOp(scc.front())
                     .emitError("relay-eliminate-recursion: "
                                "unsupported result type ")
                 << t;
        resultValues.push_back(*p);
      }
    }
    func::ReturnOp::create(eb, loc, resultValues);
    return exit;
  }

  /// `pop` switches on the top frame's tag to one restore block per
  /// returning site: it reloads the saved values, drops the frame and
  /// continues after the call.
  void popFrame(Block *pop, ArrayRef<Type> types, ArrayRef<Site *> returning) {
    OpBuilder pb = OpBuilder::atBlockEnd(pop);
    Value popSize = io::getListSize(pb, loc, stack);
    Value top = arith::SubIOp::create(
        pb, loc, popSize, arith::ConstantIndexOp::create(pb, loc, 1));
    Value tag = io::getListItem(pb, loc, stack, top, i32);
    SmallVector<Block *> restores;
    for (Site *site : returning) {
      Block *restore = newBlock(types);
      restores.push_back(restore);
      Location sl = site->loc;
      OpBuilder sb = OpBuilder::atBlockEnd(restore);
      Value n = io::getListSize(sb, sl, stack);
      Value base = arith::SubIOp::create(
          sb, sl, n,
          arith::ConstantIndexOp::create(sb, sl, site->saved.size() + 1));
      SmallVector<Value> operands(restore->getArguments());
      for (auto [i, v] : llvm::enumerate(site->saved)) {
        Value at = arith::AddIOp::create(
            sb, sl, base, arith::ConstantIndexOp::create(sb, sl, i));
        Value stored =
            io::getListItem(sb, sl, stack, at, storageType(v.getType()));
        operands.push_back(unbox(sb, sl, stored, v.getType()));
      }
      io::resizeList(sb, sl, stack, base);
      cf::BranchOp::create(sb, sl, site->continuation, operands);
    }
    SmallVector<int32_t> caseValues;
    SmallVector<Block *> caseDests;
    SmallVector<ValueRange> caseOperands;
    for (unsigned i = 1; i < returning.size(); ++i) {
      caseValues.push_back(returning[i]->tag);
      caseDests.push_back(restores[i]);
      caseOperands.push_back(pop->getArguments());
    }
    cf::SwitchOp::create(pb, loc, tag, restores[0], pop->getArguments(),
                         caseValues, caseDests, caseOperands);
  }

  /// 6. The original functions call the dispatcher (placeholders in the
  ///    other functions' argument slots).
  LogicalResult callDispatcher() {
    for (auto [i, fnRef] : llvm::enumerate(scc)) {
      func::FuncOp fn = fnRef;
      Block *wrapper = fn.addEntryBlock();
      OpBuilder wb = OpBuilder::atBlockEnd(wrapper);
      Location fl = fn.getLoc();
      SmallVector<Value> operands{
          arith::ConstantIntOp::create(wb, fl, i, 32).getResult()};
      for (auto [g, types] : llvm::enumerate(args.groups)) {
        if (g == argGroup[i]) {
          operands.append(wrapper->args_begin(), wrapper->args_end());
          continue;
        }
        for (Type t : types) {
          FailureOr<Value> p = io::placeholder(wb, fl, t);
          if (failed(p))
            return fn.emitError("relay-eliminate-recursion: unsupported "
                                "argument type ")
                   << t;
          operands.push_back(*p);
        }
      }
      auto call = func::CallOp::create(wb, fl, dispatcher, operands);
      unsigned g = resultGroup[i];
      func::ReturnOp::create(wb, fl,
                             call.getResults().slice(results.offsets[g],
                                                     results.groups[g].size()));
    }
    return success();
  }
};

LogicalResult
EliminateRecursionPass::buildDispatcher(ArrayRef<func::FuncOp> scc,
                                        MutableArrayRef<Site> sites,
                                        SymbolTable &symbols) {
  DispatcherBuilder d(&getContext(), scc, sites);
  if (failed(d.splitAtCalls()))
    return failure();
  d.createDispatcher(symbols);
  d.moveBodies();
  if (failed(d.rewriteCalls()) || failed(d.buildReturns()))
    return failure();
  return d.callDispatcher();
}

} // namespace
