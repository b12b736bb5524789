//===- Inline.cpp - relay-inline ------------------------------------------===//
//
// Relay's Inline: module functions marked `Inline=1` (a non-zero `Inline` in
// the function's `relay.attrs` dictionary, where the Python builder puts
// `Function.with_attr("Inline", 1)`) are inlined at their calls. Recursive
// functions (in a cycle of the call graph) and functions with a `Compiler`
// attribute (external code generators' functions) are not. Afterwards the
// inlined functions nothing refers to are erased, except the module's
// entries (functions nothing referred to before, such as main).
//
//===----------------------------------------------------------------------===//
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYINLINE
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

/// The TVM attribute `key` of a module function (its `relay.attrs` entry).
Attribute tvmAttr(func::FuncOp fn, StringRef key) {
  auto attrs = fn->getAttrOfType<DictionaryAttr>("relay.attrs");
  return attrs ? attrs.get(key) : Attribute();
}

bool markedInline(func::FuncOp fn) {
  auto flag = dyn_cast_or_null<IntegerAttr>(tvmAttr(fn, "Inline"));
  return flag && !flag.getValue().isZero();
}

/// `call @f(args)` -> the body of `@f` on `args`.
struct InlineCall : OpRewritePattern<func::CallOp> {
  InlineCall(MLIRContext *ctx, const llvm::DenseSet<Operation *> &inlinable)
      : OpRewritePattern(ctx), inlinable(inlinable) {}

  LogicalResult matchAndRewrite(func::CallOp call,
                                PatternRewriter &rewriter) const override {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!callee || !inlinable.contains(callee))
      return rewriter.notifyMatchFailure(call, "callee not inlined");
    Block &body = callee.getBody().front();
    IRMapping map;
    map.map(body.getArguments(), call.getOperands());
    for (Operation &op : body.without_terminator())
      rewriter.clone(op, map);
    SmallVector<Value> results;
    for (Value v : body.getTerminator()->getOperands())
      results.push_back(map.lookupOrDefault(v));
    rewriter.replaceOp(call, results);
    return success();
  }

  const llvm::DenseSet<Operation *> &inlinable;
};

/// The module functions each function refers to (calls, values, closures).
using CallGraph = llvm::DenseMap<Operation *, llvm::SetVector<Operation *>>;

CallGraph callGraph(ModuleOp module, SymbolTable &symbols) {
  CallGraph graph;
  for (auto fn : module.getOps<func::FuncOp>()) {
    auto &callees = graph[fn];
    if (auto uses = SymbolTable::getSymbolUses(fn))
      for (const SymbolTable::SymbolUse &use : *uses)
        if (auto callee = symbols.lookup<func::FuncOp>(
                use.getSymbolRef().getRootReference()))
          callees.insert(callee);
  }
  return graph;
}

/// Whether `fn` reaches itself in `graph`.
bool isRecursive(Operation *fn, CallGraph &graph) {
  llvm::SetVector<Operation *> seen(graph[fn].begin(), graph[fn].end());
  for (size_t i = 0; i < seen.size(); ++i)
    for (Operation *next : graph[seen[i]])
      seen.insert(next);
  return seen.contains(fn);
}

struct InlinePass : relay::impl::RelayInlineBase<InlinePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    CallGraph graph = callGraph(module, symbols);
    llvm::DenseSet<Operation *> referenced, inlinable;
    for (auto &[fn, callees] : graph)
      referenced.insert(callees.begin(), callees.end());
    for (auto fn : module.getOps<func::FuncOp>())
      if (markedInline(fn) && !tvmAttr(fn, "Compiler") && !fn.isExternal() &&
          fn.getBody().hasOneBlock() && !isRecursive(fn, graph))
        inlinable.insert(fn);
    if (inlinable.empty())
      return;
    RewritePatternSet patterns(&getContext());
    relay::populateInlinePatterns(patterns, inlinable);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();
    // erase what was inlined everywhere (entries stay)
    for (auto fn : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (inlinable.contains(fn) && referenced.contains(fn) &&
          SymbolTable::symbolKnownUseEmpty(fn, module))
        fn.erase();
  }
};

} // namespace

void mlir::relay::populateInlinePatterns(
    RewritePatternSet &patterns, const llvm::DenseSet<Operation *> &inlinable) {
  patterns.add<InlineCall>(patterns.getContext(), inlinable);
}
