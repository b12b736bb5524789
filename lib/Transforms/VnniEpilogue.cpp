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
//     built into the kernel); a whole tensor that is the only result of
//     such a generic (not on the chain: a residual input's dequantization)
//     is computed by it in the epilogue too, from its own inputs;
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
  /// Producers of inputs absorbed at most this deep.
  static constexpr unsigned kMaxDepth = 8;
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

  /// Whether `g` is an elementwise generic whose body the kernel can run,
  /// computing a value of the `shape` of the chain's values.
  bool isElementwiseStep(linalg::GenericOp g, ArrayRef<int64_t> shape) {
    if (!g.hasPureTensorSemantics() || g->getNumResults() != 1 ||
        g.getNumDpsInits() != 1 || g.getNumParallelLoops() != g.getNumLoops())
      return false;
    auto result = dyn_cast<RankedTensorType>(g->getResult(0).getType());
    return result && result.hasStaticShape() && result.getShape() == shape &&
           isStorable(result.getElementType()) &&
           g.getMatchingBlockArgument(g.getDpsInitOperand(0)).use_empty() &&
           isVectorizableBody(g.getBody());
  }

  /// The source of input `in` of `g` (not the chain's value): a scalar
  /// constant, the step computing it when its producer can be one (a
  /// dequantization of a residual input: the kernel then reads the narrow
  /// tensor), or an operand.
  std::optional<EpilogueArg> sourceOf(linalg::GenericOp g, OpOperand *in,
                                      unsigned depth) {
    Value v = in->get();
    AffineMap map = g.getMatchingIndexingMap(in);
    std::optional<EpilogueRead> read = readOf(g, v, map);
    if (!read)
      return std::nullopt;
    DenseElementsAttr constant;
    if (*read == EpilogueRead::Scalar &&
        matchPattern(v, m_Constant(&constant)) &&
        isLaneType(constant.getElementType()))
      return EpilogueArg{EpilogueArg::Kind::Constant, -1,
                         constant.getSplatValue<TypedAttr>()};
    auto producer = v.getDefiningOp<linalg::GenericOp>();
    if (*read == EpilogueRead::Full && producer && v.hasOneUse() &&
        depth < kMaxDepth && producer->getBlock() == g->getBlock() &&
        isElementwiseStep(producer,
                          cast<RankedTensorType>(v.getType()).getShape()) &&
        addProducer(producer, depth + 1))
      return EpilogueArg{EpilogueArg::Kind::Step,
                         static_cast<int>(chain.epilogue.stages.size() - 1),
                         nullptr};
    return EpilogueArg{EpilogueArg::Kind::Operand, operandIndex(v, *read),
                       nullptr};
  }

  /// The step of `g`, its inputs' sources found, `chainArg` reading `from`
  /// (none for a producer of an input).
  bool addStage(linalg::GenericOp g, std::optional<unsigned> chainArg,
                EpilogueArg from, unsigned depth) {
    Block *body = g.getBody();
    EpilogueStage stage{body,
                        SmallVector<EpilogueArg>(body->getNumArguments())};
    for (OpOperand *in : g.getDpsInputOperands()) {
      unsigned arg = g.getMatchingBlockArgument(in).getArgNumber();
      if (chainArg && arg == *chainArg) {
        stage.args[arg] = from;
        continue;
      }
      std::optional<EpilogueArg> source = sourceOf(g, in, depth);
      if (!source)
        return false;
      stage.args[arg] = *source;
    }
    chain.epilogue.stages.push_back(stage);
    chain.ops.push_back(g);
    return true;
  }

  bool addProducer(linalg::GenericOp g, unsigned depth) {
    return addStage(g, std::nullopt, {}, depth);
  }

  /// Adds `g` (reading the chain's value `prev` once, with the identity
  /// map) as a step, if it can be; the chain is unchanged when not.
  bool addStep(linalg::GenericOp g, Value prev) {
    if (!isElementwiseStep(g,
                           cast<RankedTensorType>(prev.getType()).getShape()))
      return false;
    SmallVector<OpOperand *> uses;
    for (OpOperand *in : g.getDpsInputOperands())
      if (in->get() == prev)
        uses.push_back(in);
    if (uses.size() != 1 || !g.getMatchingIndexingMap(uses[0]).isIdentity())
      return false;
    EpilogueArg from =
        chain.epilogue.stages.empty()
            ? EpilogueArg{EpilogueArg::Kind::Product, -1, nullptr}
            : EpilogueArg{EpilogueArg::Kind::Step,
                          static_cast<int>(chain.epilogue.stages.size() - 1),
                          nullptr};
    EpilogueChain saved = chain;
    if (!addStage(g, g.getMatchingBlockArgument(uses[0]).getArgNumber(), from,
                  0)) {
      chain = std::move(saved);
      return false;
    }
    chain.epilogue.result =
        cast<RankedTensorType>(g->getResult(0).getType()).getElementType();
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
    os << '|';
    for (const EpilogueArg &arg : stage.args) {
      os << static_cast<int>(arg.kind) << ':' << arg.index;
      if (arg.constant)
        os << '=' << arg.constant;
      os << ',';
    }
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
