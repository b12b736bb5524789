//===- VnniEpilogue.cpp - the consumers relay-vnni-matmul's kernel absorbs ===//
//
// An elementwise `linalg.generic` can be a step of the kernel's epilogue
// when the kernel can evaluate its body on 16 results at a time:
//   * all its loops are parallel, it has one result, of a static shape with
//     the product's number of elements, of an integer or float element type
//     (i1 too: only the last step's value is stored, and it must have whole
//     bytes), and its output's value is not read;
//   * it reads the chain's values (the product, earlier steps' results, or
//     reshapes of them) with the identity map;
//   * its other inputs are static tensors read as a whole tensor of the
//     result's shape (identity map), per column (a vector of N read along
//     the last dim) or as a scalar (a rank-0 tensor; a constant one is
//     built into the kernel); a whole tensor that is the only result of
//     such a generic (not on the chain: a residual input's dequantization)
//     is computed by it in the epilogue too, from its own inputs;
//   * its body is arith and math ops on scalars whose operands are its
//     arguments, its own values or scalar constants.
// The ops reading the chain's values join it in block order (also
// expand_shape / collapse_shape ops that keep the columns as the last dim:
// row-major order is unchanged by them); wherever a single value is left
// that other ops read, the chain up to it is a candidate, and the last
// candidate is the epilogue. So a value read by several steps (GELU's x in
// x/2 * (1 + erf(x/sqrt(2))), a round-half-to-even's comparisons) is taken
// once its readers join again.
//
//===----------------------------------------------------------------------===//
#include "VnniEpilogue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpDefinition.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::relay::vnni;

namespace {

/// The longest epilogue (ops of the steps' bodies) a kernel takes. Longer
/// float epilogues ran slower in the kernel than as IREE's own elementwise
/// dispatch after it (BERT-tiny's FFN: dequantize, GELU and three
/// quantize/dequantize pairs, 79 ops: 0.107 ms in the kernel against
/// 0.071 ms apart on one thread); up to here the products' round trip
/// through memory is what the epilogue saves.
constexpr int64_t kMaxEpilogueOps = 48;

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
  /// The values the kernel has in registers (the product, the steps'
  /// results and reshapes of them): where they come from.
  DenseMap<Value, EpilogueArg> values;

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
  /// computing a static tensor of `elements` elements (its value may be
  /// of any lane type: only the chain's last value is stored).
  bool isElementwiseStep(linalg::GenericOp g, int64_t elements) {
    if (!g.hasPureTensorSemantics() || g->getNumResults() != 1 ||
        g.getNumDpsInits() != 1 || g.getNumParallelLoops() != g.getNumLoops())
      return false;
    auto result = dyn_cast<RankedTensorType>(g->getResult(0).getType());
    return result && result.hasStaticShape() &&
           result.getNumElements() == elements &&
           isLaneType(result.getElementType()) &&
           g.getMatchingBlockArgument(g.getDpsInitOperand(0)).use_empty() &&
           isVectorizableBody(g.getBody());
  }

  /// The source of input `in` of `g` (not one of the chain's values): a
  /// scalar constant, the step computing it when its producer can be one
  /// (a dequantization of a residual input: the kernel then reads the
  /// narrow tensor), or an operand.
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
        isElementwiseStep(
            producer, cast<RankedTensorType>(v.getType()).getNumElements()) &&
        addStage(producer, depth + 1))
      return EpilogueArg{EpilogueArg::Kind::Step,
                         static_cast<int>(chain.epilogue.stages.size() - 1),
                         nullptr};
    return EpilogueArg{EpilogueArg::Kind::Operand, operandIndex(v, *read),
                       nullptr};
  }

  /// Adds `g` as a step: the chain's values it reads (with the identity
  /// map) from where the kernel has them, its other inputs' sources found.
  bool addStage(linalg::GenericOp g, unsigned depth) {
    Block *body = g.getBody();
    EpilogueStage stage{body,
                        SmallVector<EpilogueArg>(body->getNumArguments())};
    auto result = cast<RankedTensorType>(g->getResult(0).getType());
    for (OpOperand *in : g.getDpsInputOperands()) {
      unsigned arg = g.getMatchingBlockArgument(in).getArgNumber();
      auto known = values.find(in->get());
      if (known != values.end()) {
        if (!g.getMatchingIndexingMap(in).isIdentity() ||
            cast<RankedTensorType>(in->get().getType()).getShape() !=
                result.getShape())
          return false;
        stage.args[arg] = known->second;
        continue;
      }
      std::optional<EpilogueArg> source = sourceOf(g, in, depth);
      if (!source)
        return false;
      stage.args[arg] = *source;
    }
    chain.epilogue.stages.push_back(stage);
    chain.ops.push_back(g);
    values[g->getResult(0)] = EpilogueArg{
        EpilogueArg::Kind::Step,
        static_cast<int>(chain.epilogue.stages.size() - 1), nullptr};
    return true;
  }

  /// Adds `g`, a reader of the chain's values, as a step if it can be one;
  /// the chain is unchanged when not.
  bool addStep(linalg::GenericOp g, int64_t elements) {
    if (!isElementwiseStep(g, elements))
      return false;
    ChainBuilder saved = *this;
    if (!addStage(g, 0)) {
      *this = std::move(saved);
      return false;
    }
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

  /// The chain's values read by an op that is not in it.
  SmallVector<Value> openValues() const {
    DenseSet<Operation *> inChain(chain.ops.begin(), chain.ops.end());
    SmallVector<Value> open;
    for (Value v : llvm::make_first_range(values))
      if (llvm::any_of(v.getUsers(),
                       [&](Operation *u) { return !inChain.contains(u); }))
        open.push_back(v);
    return open;
  }
};

} // namespace

EpilogueChain mlir::relay::vnni::collectEpilogue(Value product,
                                                 int64_t columns) {
  ChainBuilder builder{columns, {}, {}};
  auto type = cast<RankedTensorType>(product.getType());
  int64_t elements = type.getNumElements();
  builder.chain.epilogue.result = type.getElementType();
  builder.values[product] = {EpilogueArg::Kind::Product, -1, nullptr};
  Block *block = product.getDefiningOp()->getBlock();
  EpilogueChain best = builder.chain;
  while (builder.chain.epilogue.size() <= kMaxEpilogueOps) {
    DenseSet<Operation *> inChain(builder.chain.ops.begin(),
                                  builder.chain.ops.end());
    Operation *next = nullptr;
    for (Value v : builder.openValues())
      for (Operation *user : v.getUsers())
        if (!inChain.contains(user) &&
            (!next || (user->getBlock() == next->getBlock() &&
                       user->isBeforeInBlock(next))))
          next = user;
    if (!next || next->getBlock() != block)
      break;
    if (builder.isColumnReshape(next)) {
      builder.values[next->getResult(0)] =
          builder.values.lookup(next->getOperand(0));
      builder.chain.ops.push_back(next);
    } else if (auto g = dyn_cast<linalg::GenericOp>(next)) {
      if (!builder.addStep(g, elements))
        break;
    } else {
      break;
    }
    SmallVector<Value> open = builder.openValues();
    Operation *last = builder.chain.ops.back();
    if (open.size() == 1 && open[0].getDefiningOp() == last &&
        builder.chain.epilogue.size() <= kMaxEpilogueOps &&
        isa<linalg::GenericOp>(last) &&
        isStorable(getElementTypeOrSelf(open[0].getType()))) {
      best = builder.chain;
      best.epilogue.result = getElementTypeOrSelf(open[0].getType());
    }
  }
  return best;
}

int64_t Epilogue::size() const {
  int64_t ops = 0;
  for (const EpilogueStage &stage : stages)
    ops += static_cast<int64_t>(stage.body->getOperations().size()) - 1;
  return ops;
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
  // a stable hash: the executables' names are the same in every run
  return llvm::formatv("{0:x-}", llvm::xxh3_64bits(text));
}
