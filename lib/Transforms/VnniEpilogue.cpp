//===- VnniEpilogue.cpp - the consumers relay-vnni-matmul's kernel absorbs ===//
//
// An elementwise `linalg.generic` can be a step of the kernel's epilogue
// when the kernel can evaluate its body on 16 results at a time:
//   * all its loops are parallel, it has one result, of a static shape, of
//     an integer (whole bytes) or float element type, and its output's
//     value is not read;
//   * it reads the previous step's value once, with the identity map;
//   * its other inputs are static tensors read as a whole tensor of the
//     result's shape (identity map), per column (a vector of N read along
//     the last dim) or as a scalar (a rank-0 tensor; a constant one is
//     built into the kernel);
//   * its body is arith and math ops on scalars whose operands are its
//     arguments, its own values or scalar constants.
// The chain follows each step's result while it is the only user's only
// use in the same block, through expand_shape / collapse_shape ops that
// keep the columns as the last dim (row-major order is unchanged by them).
//
//===----------------------------------------------------------------------===//
#include "VnniEpilogue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpDefinition.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::relay::vnni;

namespace {

/// An element type the kernel loads and stores as vectors.
bool isStorable(Type t) {
  if (auto i = dyn_cast<IntegerType>(t))
    return i.getWidth() % 8 == 0 && i.getWidth() <= 64;
  return isa<FloatType>(t);
}

/// A scalar the epilogue's vector ops can carry (i1 for comparisons).
bool isLaneType(Type t) { return isa<IntegerType, FloatType>(t); }

/// Whether `v`, used in `body`, is available to the kernel: defined in the
/// body, or a scalar constant.
bool isAvailable(Value v, Block *body) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getOwner() == body;
  if (v.getDefiningOp()->getBlock() == body)
    return true;
  return isLaneType(v.getType()) && matchPattern(v, m_Constant());
}

/// Whether the kernel can evaluate `body`'s ops on vectors.
bool isVectorizableBody(Block *body) {
  for (Operation &op : body->without_terminator()) {
    StringRef dialect = op.getDialect() ? op.getDialect()->getNamespace() : "";
    if ((dialect != "arith" && dialect != "math") || op.getNumRegions() != 0)
      return false;
    if (!isa<arith::ConstantOp>(op) &&
        !OpTrait::hasElementwiseMappableTraits(&op))
      return false;
    if (!llvm::all_of(op.getResultTypes(), isLaneType) ||
        !llvm::all_of(op.getOperands(),
                      [&](Value v) { return isAvailable(v, body); }))
      return false;
  }
  Operation *yield = body->getTerminator();
  return yield->getNumOperands() == 1 &&
         isAvailable(yield->getOperand(0), body);
}

/// Builds the chain: operands shared between steps when the same value is
/// read the same way.
struct ChainBuilder {
  int64_t columns;
  EpilogueChain chain;

  int operandIndex(Value v, EpilogueRead read) {
    for (auto [i, o] : llvm::enumerate(chain.operandValues))
      if (o == v && chain.epilogue.operands[i].read == read)
        return static_cast<int>(i);
    chain.operandValues.push_back(v);
    chain.epilogue.operands.push_back(
        {cast<ShapedType>(v.getType()).getElementType(), read});
    return static_cast<int>(chain.operandValues.size() - 1);
  }

  /// How `g` reads input `v` with `map`, if the kernel can.
  std::optional<EpilogueRead> readOf(linalg::GenericOp g, Value v,
                                     AffineMap map) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    auto result = cast<RankedTensorType>(g->getResult(0).getType());
    if (!type || !type.hasStaticShape() || !isStorable(type.getElementType()))
      return std::nullopt;
    int64_t rank = result.getRank();
    if (map.isIdentity() && type.getShape() == result.getShape())
      return EpilogueRead::Full;
    if (type.getRank() == 0 && map.getNumResults() == 0)
      return EpilogueRead::Scalar;
    if (type.getRank() == 1 && type.getDimSize(0) == columns &&
        map ==
            AffineMap::get(rank, 0, getAffineDimExpr(rank - 1, g.getContext())))
      return EpilogueRead::Column;
    return std::nullopt;
  }

  /// Adds `g` (reading the previous value `prev`) as a step, if it can be.
  bool addStep(linalg::GenericOp g, Value prev) {
    if (!g.hasPureTensorSemantics() || g->getNumResults() != 1 ||
        g.getNumDpsInits() != 1 || g.getNumParallelLoops() != g.getNumLoops())
      return false;
    auto result = dyn_cast<RankedTensorType>(g->getResult(0).getType());
    if (!result || !result.hasStaticShape() ||
        result.getShape() !=
            cast<RankedTensorType>(prev.getType()).getShape() ||
        !isStorable(result.getElementType()))
      return false;
    Block *body = g.getBody();
    OpOperand *out = g.getDpsInitOperand(0);
    if (!g.getMatchingBlockArgument(out).use_empty() ||
        !isVectorizableBody(body))
      return false;
    EpilogueStage stage{body, 0, {}};
    stage.operandOfArg.assign(body->getNumArguments(), -1);
    stage.constantOfArg.assign(body->getNumArguments(), nullptr);
    int chainUses = 0;
    SmallVector<std::pair<unsigned, std::pair<Value, EpilogueRead>>> reads;
    for (OpOperand *in : g.getDpsInputOperands()) {
      unsigned arg = g.getMatchingBlockArgument(in).getArgNumber();
      AffineMap map = g.getMatchingIndexingMap(in);
      if (in->get() == prev) {
        if (!map.isIdentity())
          return false;
        ++chainUses;
        stage.chainArg = arg;
        continue;
      }
      std::optional<EpilogueRead> read = readOf(g, in->get(), map);
      if (!read)
        return false;
      DenseElementsAttr constant;
      if (*read == EpilogueRead::Scalar &&
          matchPattern(in->get(), m_Constant(&constant)) &&
          isLaneType(constant.getElementType())) {
        stage.constantOfArg[arg] = constant.getSplatValue<TypedAttr>();
        continue;
      }
      reads.push_back({arg, {in->get(), *read}});
    }
    if (chainUses != 1)
      return false;
    for (auto &[arg, vr] : reads)
      stage.operandOfArg[arg] = operandIndex(vr.first, vr.second);
    chain.epilogue.stages.push_back(stage);
    chain.epilogue.result = result.getElementType();
    chain.ops.push_back(g);
    return true;
  }

  /// Whether `op` is a reshape the chain can pass.
  bool isColumnReshape(Operation *op) {
    if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op))
      return false;
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    return type.hasStaticShape() && type.getRank() > 0 &&
           type.getShape().back() == columns;
  }
};

} // namespace

EpilogueChain mlir::relay::vnni::collectEpilogue(Value product,
                                                 int64_t columns) {
  ChainBuilder builder{columns, {}};
  builder.chain.epilogue.result =
      cast<RankedTensorType>(product.getType()).getElementType();
  Block *block = product.getDefiningOp()->getBlock();
  Value prev = product;
  SmallVector<Operation *> reshapes; // passed, kept if a step follows
  while (prev.hasOneUse()) {
    Operation *user = *prev.getUsers().begin();
    if (user->getBlock() != block)
      break;
    if (builder.isColumnReshape(user)) {
      reshapes.push_back(user);
      prev = user->getResult(0);
      continue;
    }
    auto next = dyn_cast<linalg::GenericOp>(user);
    if (!next)
      break;
    size_t before = builder.chain.ops.size();
    if (!builder.addStep(next, prev))
      break;
    builder.chain.ops.insert(builder.chain.ops.begin() + before,
                             reshapes.begin(), reshapes.end());
    reshapes.clear();
    prev = next->getResult(0);
  }
  return builder.chain;
}

std::string Epilogue::key() const {
  // What the function depends on: the operands' types and reads, each
  // step's ops (names, attributes, types) and how their operands are
  // reached (arguments, earlier values, constants' values).
  std::string text;
  llvm::raw_string_ostream os(text);
  os << result;
  for (const EpilogueOperand &o : operands)
    os << ';' << o.element << ':' << static_cast<int>(o.read);
  for (const EpilogueStage &stage : stages) {
    os << "|" << stage.chainArg;
    for (int k : stage.operandOfArg)
      os << ',' << k;
    for (TypedAttr constant : stage.constantOfArg)
      if (constant)
        os << ',' << constant;
    DenseMap<Value, unsigned> number;
    for (BlockArgument arg : stage.body->getArguments())
      number[arg] = number.size();
    for (Operation &op : *stage.body) {
      os << ' ' << op.getName() << op.getAttrDictionary() << '(';
      for (Value v : op.getOperands()) {
        auto it = number.find(v);
        Attribute constant;
        if (it != number.end())
          os << '%' << it->second << ' ';
        else if (matchPattern(v, m_Constant(&constant)))
          os << constant << ' ';
      }
      os << ')';
      for (Value r : op.getResults()) {
        os << r.getType();
        number[r] = number.size();
      }
    }
  }
  return llvm::formatv("{0:x-}", static_cast<uint64_t>(llvm::hash_value(text)));
}
