//===- ByteTables.cpp - relay-byte-tables ---------------------------------===//
//
// A quantized model computes float functions between two quantizations:
// ONNX's QDQ GELU is `q(x) -> dq -> /sqrt(2) -> q -> dq -> erf -> q -> dq
// -> +1 -> q -> dq -> * dq(x) -> * 0.5 -> q`, tens of float ops per element
// (79 in BERT-tiny's FFN, 17 % of its int8 time on one thread). Whatever
// they compute, it is a function of one byte: the region of elementwise
// ops whose only non-constant leaf is an 8-bit tensor X takes 256 values.
// This pass evaluates such a region at compile time for every byte (each
// body op folded on constants: the arith and math dialects' folders, IEEE
// arithmetic in the ops' own types) and replaces it by one elementwise op
// reading X and a 256-entry table:
//
//   %t = arith.constant dense<[...]> : tensor<256xT>
//   %y = linalg.generic ins(%x : tensor<...xi8>) { tensor.extract %t[x as
//   index] }
//
// A region is grown like relay-vnni-matmul's epilogue: the readers of its
// values join it in block order (elementwise generics reading its values
// with the identity map and otherwise only scalar constants); whenever one
// value is left that other ops read, the ops up to it are a candidate, and
// the last candidate with at least kMinOps body ops is replaced. Values
// that fold to nothing (a conversion out of range, say) leave the region
// as it is.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYBYTETABLES
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

/// Regions of fewer body ops stay as they are: a lookup costs about what a
/// few arithmetic ops do.
constexpr int64_t kMinOps = 8;
/// Regions grow to at most this many generics.
constexpr size_t kMaxGenerics = 128;

/// The scalar constant `v` holds, if it is a rank-0 tensor or splat of
/// one.
Attribute scalarConstant(Value v) {
  DenseElementsAttr dense;
  if (matchPattern(v, m_Constant(&dense)) && dense.isSplat())
    return dense.getSplatValue<Attribute>();
  return {};
}

/// Whether `body` is arith / math ops on scalars (constants included).
bool isScalarBody(Block *body) {
  for (Operation &op : body->without_terminator()) {
    StringRef dialect = op.getDialect() ? op.getDialect()->getNamespace() : "";
    if ((dialect != "arith" && dialect != "math") || op.getNumRegions() != 0 ||
        op.getNumResults() != 1 ||
        !isa<IntegerType, FloatType>(op.getResult(0).getType()))
      return false;
    for (Value operand : op.getOperands())
      if (auto arg = dyn_cast<BlockArgument>(operand)) {
        if (arg.getOwner() != body)
          return false;
      } else if (operand.getDefiningOp()->getBlock() != body &&
                 !matchPattern(operand, m_Constant())) {
        return false;
      }
  }
  return body->getTerminator()->getNumOperands() == 1;
}

/// A region of elementwise generics computing a function of the bytes of
/// `root`.
struct Region {
  Value root;
  Block *block;
  int64_t elements;
  llvm::SetVector<Operation *> ops;
  DenseSet<Value> values; // the region's results and the root

  /// Whether `g` can join: elementwise over the root's elements, a scalar
  /// body, each input one of the region's values (identity map) or a
  /// scalar constant.
  bool canJoin(linalg::GenericOp g) const {
    if (!g.hasPureTensorSemantics() || g->getNumResults() != 1 ||
        g.getNumDpsInits() != 1 || g.getNumParallelLoops() != g.getNumLoops() ||
        g->getBlock() != block)
      return false;
    auto result = dyn_cast<RankedTensorType>(g->getResult(0).getType());
    if (!result || !result.hasStaticShape() ||
        result.getNumElements() != elements ||
        !g.getMatchingBlockArgument(g.getDpsInitOperand(0)).use_empty() ||
        !isScalarBody(g.getBody()))
      return false;
    bool readsRegion = false;
    for (OpOperand *in : g.getDpsInputOperands()) {
      if (values.contains(in->get())) {
        auto type = cast<RankedTensorType>(in->get().getType());
        if (!g.getMatchingIndexingMap(in).isIdentity() ||
            type.getShape() != result.getShape())
          return false;
        readsRegion = true;
      } else if (!scalarConstant(in->get())) {
        return false;
      }
    }
    return readsRegion;
  }

  /// The region's values that ops outside it read (the root excluded).
  SmallVector<Value> openValues() const {
    SmallVector<Value> open;
    for (Operation *op : ops)
      if (llvm::any_of(op->getResult(0).getUsers(),
                       [&](Operation *u) { return !ops.contains(u); }))
        open.push_back(op->getResult(0));
    return open;
  }

  int64_t bodyOps() const {
    int64_t n = 0;
    for (Operation *op : ops)
      n += static_cast<int64_t>(
               cast<linalg::GenericOp>(op).getBody()->getOperations().size()) -
           1;
    return n;
  }
};

/// The largest region from `root` whose only value read outside it is
/// its last op's result, if it has at least kMinOps body ops.
std::optional<Region> regionFrom(Value root) {
  auto type = cast<RankedTensorType>(root.getType());
  Region region{root, nullptr, type.getNumElements(), {}, {root}};
  if (Operation *def = root.getDefiningOp())
    region.block = def->getBlock();
  else
    region.block = cast<BlockArgument>(root).getOwner();
  std::optional<Region> best;
  DenseSet<Operation *> skipped; // the root's readers that cannot join
  while (region.ops.size() < kMaxGenerics) {
    Operation *next = nullptr;
    auto consider = [&](Value v) {
      for (Operation *user : v.getUsers())
        if (!region.ops.contains(user) && !skipped.contains(user) &&
            user->getBlock() == region.block &&
            (!next || user->isBeforeInBlock(next)))
          next = user;
    };
    consider(root);
    for (Operation *op : region.ops)
      consider(op->getResult(0));
    if (!next)
      break;
    auto g = dyn_cast<linalg::GenericOp>(next);
    if (!g || !region.canJoin(g)) {
      // a reader of the root alone may be anything; a reader of the
      // region's values that cannot join keeps them open for good
      bool readsRegion = llvm::any_of(next->getOperands(), [&](Value v) {
        return v != root && region.values.contains(v);
      });
      if (readsRegion)
        break;
      skipped.insert(next);
      continue;
    }
    region.ops.insert(g);
    region.values.insert(g->getResult(0));
    SmallVector<Value> open = region.openValues();
    if (open.size() == 1 && open[0] == g->getResult(0) &&
        region.bodyOps() >= kMinOps)
      best = region;
  }
  return best;
}

/// The value of `op`'s result for constant operands, if its folder gives
/// one.
Attribute foldScalar(Operation *op, ArrayRef<Attribute> operands) {
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return constant.getValue();
  SmallVector<OpFoldResult> results;
  if (failed(op->fold(operands, results)) || results.size() != 1)
    return {};
  if (auto attr = dyn_cast<Attribute>(results[0]))
    return attr;
  // folded to one of its operands
  Value same = cast<Value>(results[0]);
  for (auto [operand, attr] : llvm::zip(op->getOperands(), operands))
    if (operand == same)
      return attr;
  return {};
}

/// The region's exit value for each of the 256 bytes of its root, if every
/// op folds.
std::optional<SmallVector<Attribute>> tabulate(const Region &region) {
  auto byteType = cast<IntegerType>(getElementTypeOrSelf(region.root));
  SmallVector<Attribute> table;
  for (unsigned byte = 0; byte < 256; ++byte) {
    DenseMap<Value, Attribute> tensors;
    tensors[region.root] = IntegerAttr::get(byteType, APInt(8, byte));
    for (Operation *op : region.ops) {
      auto g = cast<linalg::GenericOp>(op);
      Block *body = g.getBody();
      DenseMap<Value, Attribute> scalars;
      for (OpOperand *in : g.getDpsInputOperands()) {
        Attribute a = tensors.lookup(in->get());
        scalars[g.getMatchingBlockArgument(in)] =
            a ? a : scalarConstant(in->get());
      }
      for (Operation &bodyOp : body->without_terminator()) {
        SmallVector<Attribute> operands;
        for (Value v : bodyOp.getOperands()) {
          Attribute a = scalars.lookup(v);
          if (!a)
            matchPattern(v, m_Constant(&a));
          operands.push_back(a);
        }
        Attribute r = foldScalar(&bodyOp, operands);
        if (!r || !isa<IntegerAttr, FloatAttr>(r))
          return std::nullopt;
        scalars[bodyOp.getResult(0)] = r;
      }
      Value yielded = body->getTerminator()->getOperand(0);
      Attribute out = scalars.lookup(yielded);
      if (!out)
        matchPattern(yielded, m_Constant(&out));
      if (!out)
        return std::nullopt;
      tensors[g->getResult(0)] = out;
    }
    table.push_back(tensors.lookup(region.ops.back()->getResult(0)));
  }
  return table;
}

/// Replaces the region by a lookup of its root's bytes in `table`.
void replaceByLookup(Region &region, ArrayRef<Attribute> table) {
  auto last = cast<linalg::GenericOp>(region.ops.back());
  auto resultType = cast<RankedTensorType>(last->getResult(0).getType());
  Type element = resultType.getElementType();
  OpBuilder b(last);
  Location loc = last->getLoc();
  Value tableValue = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(RankedTensorType::get({256}, element), table));
  Value init = tensor::EmptyOp::create(b, loc, resultType.getShape(), element);
  AffineMap id = b.getMultiDimIdentityMap(resultType.getRank());
  SmallVector<utils::IteratorType> parallel(resultType.getRank(),
                                            utils::IteratorType::parallel);
  auto lookup = linalg::GenericOp::create(
      b, loc, resultType, region.root, init, ArrayRef<AffineMap>{id, id},
      parallel, [&](OpBuilder &nb, Location l, ValueRange args) {
        Value index =
            arith::IndexCastUIOp::create(nb, l, nb.getIndexType(), args[0]);
        Value v = tensor::ExtractOp::create(nb, l, tableValue, index);
        linalg::YieldOp::create(nb, l, v);
      });
  last->getResult(0).replaceAllUsesWith(lookup.getResult(0));
  for (Operation *op : llvm::reverse(region.ops))
    op->erase();
}

struct ByteTablesPass : relay::impl::RelayByteTablesBase<ByteTablesPass> {
  void runOnOperation() override {
    // Roots: the 8-bit static tensors read by an elementwise generic,
    // first to last (a replaced region's lookup reads its root again).
    SmallVector<Value> roots;
    DenseSet<Value> seen;
    getOperation()->walk([&](linalg::GenericOp g) {
      for (Value in : g.getDpsInputs()) {
        auto type = dyn_cast<RankedTensorType>(in.getType());
        if (type && type.hasStaticShape() && type.getNumElements() > 0 &&
            type.getElementType().isInteger(8) && seen.insert(in).second)
          roots.push_back(in);
      }
    });
    DenseSet<Value> erased; // results of the regions replaced so far
    for (Value root : roots) {
      if (erased.contains(root))
        continue;
      std::optional<Region> region = regionFrom(root);
      if (!region)
        continue;
      std::optional<SmallVector<Attribute>> table = tabulate(*region);
      if (!table)
        continue;
      for (Operation *op : region->ops)
        erased.insert(op->getResult(0));
      replaceByLookup(*region, *table);
    }
  }
};

} // namespace
