//===- ToMixedPrecision.cpp - relay-to-mixed-precision --------------------===//
//
// Relay's ToMixedPrecision (TVM 0.19's pass and its default op lists, read
// from its python/tvm/relay/transform/mixed_precision.py and
// to_mixed_precision.cc, written anew): operators compute in a lower float
// type (float16 or bfloat16) where that is safe.
//
// Each operator is ALWAYS (convolutions, dense, batch_matmul: their float
// operands are cast to the low type), FOLLOW (the low type if every float
// operand already has it or is a function parameter or a constant, else
// float32) or NEVER (exp, softmax, sum, mean, ...: float16/bfloat16 operands
// cast back to float32). An operator on no list is FOLLOW and reported
// (missing-op-mode 0: an error, 1: a warning, 2: nothing). In the low type an
// op's float `out_dtype` (the accumulation type of the convolutions, dense
// and batch_matmul: TVM accumulates in the low type too) and the float
// `dtype` of zeros/ones/full become the low type; a clip whose bounds the
// low type cannot hold, and an operator whose typing rule refuses the low
// type (one_hot with a float32 dtype), stay in float32.
//
// Where TVM leaves a type error or loses precision, this pass differs:
// constants are converted at compile time (TVM keeps `cast` ops); float64
// operands of NEVER ops stay float64 (TVM casts them to float32); every
// value read by something other than an operator, a tuple or the function's
// return (an if/match, a yield, a call, a reference) is cast back to its
// type before the pass, so closures, branches and the callees keep their
// types (TVM leaves such reads as they are). Function results take the low
// type unless keep-orig-output-dtype; a call's result that took it is cast
// back for its readers.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYTOMIXEDPRECISION
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

enum class Category { Always, Follow, Never, Missing };

/// TVM 0.19's DEFAULT_ALWAYS_LIST, DEFAULT_FOLLOW_LIST and DEFAULT_NEVER_LIST
/// (operator names without the `relay.` prefix).
Category categoryOf(StringRef name) {
  static const llvm::StringSet<> always = {// convolutions and matrix products
                                           "nn.conv1d",
                                           "nn.conv2d",
                                           "nn.conv3d",
                                           "nn.conv1d_transpose",
                                           "nn.conv2d_transpose",
                                           "nn.conv3d_transpose",
                                           "nn.dense",
                                           "nn.batch_matmul"};
  static const llvm::StringSet<> follow = {
      // data movement and new data
      "nn.pad", "nn.batch_flatten", "concatenate", "zeros", "split", "squeeze",
      "transpose", "expand_dims", "reshape", "dyn.reshape", "broadcast_to_like",
      "dyn.broadcast_to", "strided_slice", "dyn.strided_slice", "take",
      "argwhere", "where", "tile", "dyn.tile", "scatter", "scatter_elements",
      "scatter_nd", "full", "dyn.full", "nn.depth_to_space",
      // comparison
      "less", "greater", "less_equal", "greater_equal",
      // copy and casts
      "copy", "cast", "cast_like",
      // simple arithmetic
      "add", "subtract", "multiply", "divide", "nn.bias_add", "nn.batch_norm",
      "sqrt", "shape_of",
      // simple activations
      "max", "min", "maximum", "minimum", "argmax", "argmin", "nn.relu",
      "nn.leaky_relu", "nn.prelu", "nn.dropout",
      // saturating activations
      "sigmoid", "tanh", "fast_tanh", "fast_exp", "fast_erf", "clip",
      // pooling
      "nn.max_pool1d", "nn.max_pool2d", "nn.max_pool3d", "nn.avg_pool1d",
      "nn.avg_pool2d", "nn.avg_pool3d", "nn.global_max_pool2d",
      "nn.adaptive_max_pool1d", "nn.adaptive_max_pool2d",
      "nn.adaptive_max_pool3d", "image.resize2d"};
  static const llvm::StringSet<> never = {
      // |f(x)| >> |x|, no fp16 erf in LLVM, large end values, large sums
      "exp",
      "power",
      "nn.cross_entropy",
      "nn.cross_entropy_with_logits",
      "nn.softmax",
      "nn.l2_normalize",
      "erf",
      "arange",
      "nn.global_avg_pool2d",
      "nn.adaptive_avg_pool1d",
      "nn.adaptive_avg_pool2d",
      "nn.adaptive_avg_pool3d",
      "sum",
      "mean",
      "variance",
      "nn.layer_norm"};
  if (always.contains(name))
    return Category::Always;
  if (follow.contains(name))
    return Category::Follow;
  if (never.contains(name))
    return Category::Never;
  return Category::Missing;
}

/// The operators whose float `out_dtype` is their accumulation type (TVM
/// sets it for the conv, dense and batch_matmul attrs).
bool hasAccumulationDtype(StringRef name) {
  return name.starts_with("nn.conv") || name == "nn.dense" ||
         name == "nn.batch_matmul";
}

/// The operators creating tensors of their `dtype` (TVM's InitOpAttrs).
bool isInitOp(StringRef name) {
  return name == "zeros" || name == "ones" || name == "full" ||
         name == "dyn.zeros" || name == "dyn.ones" || name == "dyn.full";
}

/// A relay operator call: not a language construct (constant, tuple,
/// closure, call, reference, constructor, ...).
bool isOperator(Operation *op) {
  return isa_and_nonnull<RelayDialect>(op->getDialect()) &&
         op->getNumRegions() == 0 && op->getNumResults() == 1 &&
         isa<InferTypeOpInterface>(op) &&
         !isa<ConstantOp, TupleOp, TupleGetItemOp, GradOp, GlobalFnOp,
              ClosureOp, CallOp, RefNewOp, RefReadOp, RefWriteOp, ConstructOp>(
             op);
}

bool isFloat(Type type) { return isa<FloatType>(type); }

/// `type` with every float tensor element type mapped by `map`.
Type mapFloats(Type type, function_ref<Type(FloatType)> map) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    auto element = dyn_cast<FloatType>(tensor.getElementType());
    return element ? tensor.clone(map(element)) : type;
  }
  if (auto tuple = dyn_cast<TupleType>(type)) {
    SmallVector<Type> fields;
    for (Type field : tuple.getTypes())
      fields.push_back(mapFloats(field, map));
    return TupleType::get(type.getContext(), fields);
  }
  return type;
}

/// Every float tensor in `type` has element type `low` (TVM's
/// IsMixedPrecisionType with ignore_non_float).
bool allFloatsAre(Type type, Type low) {
  bool all = true;
  mapFloats(type, [&](FloatType element) -> Type {
    all &= element == low;
    return element;
  });
  return all;
}

struct Converter {
  FloatType low;
  int missingOpMode;
  bool keepOutputDtype;
  OpBuilder builder;
  /// A value whose type the pass changed -> its type before.
  DenseMap<Value, Type> original;
  /// (value, type) -> the value converted to that type.
  DenseMap<std::pair<Value, Type>, Value> converted;
  /// A block -> the last conversion of one of its arguments.
  DenseMap<Block *, Operation *> atStart;
  /// Operators on no list -> their first occurrence and count.
  llvm::MapVector<StringRef, std::pair<Operation *, unsigned>> missing;

  Converter(FloatType low, int missingOpMode, bool keepOutputDtype)
      : low(low), missingOpMode(missingOpMode),
        keepOutputDtype(keepOutputDtype), builder(low.getContext()) {}

  /// `value` as type `want` (same shapes): casts placed just after its
  /// definition (so they serve every later reader), constants converted,
  /// tuples taken apart and built again. Cached.
  Value convert(Value value, Type want) {
    if (value.getType() == want)
      return value;
    auto key = std::make_pair(value, want);
    if (Value done = converted.lookup(key))
      return done;
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointAfterValue(value);
    // Conversions of block arguments go at the block's start, in the order
    // they are made.
    auto argument = dyn_cast<BlockArgument>(value);
    Operation *lastAtStart =
        argument ? atStart.lookup(argument.getOwner()) : nullptr;
    if (lastAtStart)
      builder.setInsertionPointAfter(lastAtStart);
    Location loc = value.getLoc();
    Value result;
    if (auto tensor = dyn_cast<RankedTensorType>(want)) {
      auto element = cast<FloatType>(tensor.getElementType());
      auto constant = value.getDefiningOp<ConstantOp>();
      auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue())
                            : DenseElementsAttr();
      if (dense && isFloat(dense.getElementType())) {
        auto values = dense.mapValues(element, [&](const APFloat &v) {
          APFloat c = v;
          bool lost;
          c.convert(element.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &lost);
          return c.bitcastToAPInt();
        });
        result = ConstantOp::create(builder, loc, cast<ElementsAttr>(values));
      } else {
        result = CastOp::create(builder, loc, value, TypeAttr::get(element));
      }
    } else {
      auto tuple = cast<TupleType>(want);
      SmallVector<Value> fields;
      auto literal = value.getDefiningOp<TupleOp>();
      for (auto [i, field] : llvm::enumerate(tuple.getTypes())) {
        Value part =
            literal
                ? literal->getOperand(i)
                : TupleGetItemOp::create(builder, loc, value, i).getResult();
        fields.push_back(convert(part, field));
      }
      // After the tuple and every field made here.
      builder.setInsertionPointAfterValue(value);
      for (Value field : fields) {
        Operation *def = field.getDefiningOp();
        Block *block = builder.getInsertionBlock();
        if (def && def->getBlock() == block &&
            (builder.getInsertionPoint() == block->end() ||
             !def->isBeforeInBlock(&*builder.getInsertionPoint())))
          builder.setInsertionPointAfter(def);
      }
      result = TupleOp::create(builder, loc, fields);
    }
    if (argument)
      atStart[argument.getOwner()] = result.getDefiningOp();
    converted[key] = result;
    converted[{result, value.getType()}] = value;
    return result;
  }

  /// Back to the type `value` had before the pass.
  Value restore(Value value) {
    auto it = original.find(value);
    return it == original.end() ? value : convert(value, it->second);
  }

  /// `op`'s result types on its current operands and attributes; failure
  /// without diagnostics when its typing rule refuses them.
  FailureOr<SmallVector<Type>> inferTypes(Operation *op, bool quiet) {
    SmallVector<Type> types;
    std::optional<Location> loc;
    if (!quiet)
      loc = op->getLoc();
    if (failed(cast<InferTypeOpInterface>(op).inferReturnTypes(
            op->getContext(), loc, op->getOperands(),
            op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
            op->getRegions(), types)) ||
        types.size() != op->getNumResults())
      return failure();
    return types;
  }

  /// Gives `op` the result `types`, remembering the ones it had.
  void setTypes(Operation *op, ArrayRef<Type> types) {
    for (auto [result, type] : llvm::zip(op->getResults(), types)) {
      if (result.getType() == type)
        continue;
      original.try_emplace(result, result.getType());
      result.setType(type);
    }
  }

  /// Re-infers `op`'s result types, remembering the ones it had.
  LogicalResult reinfer(Operation *op) {
    FailureOr<SmallVector<Type>> types = inferTypes(op, /*quiet=*/false);
    if (failed(types))
      return op->emitError("relay-to-mixed-precision: cannot type ")
             << op->getName() << " on the converted operands";
    setTypes(op, *types);
    return success();
  }

  /// Erases a conversion made for nothing (its reader went back).
  void forget(Value value) {
    Operation *def = value.getDefiningOp();
    if (!def || !value.use_empty() || !isa<CastOp, ConstantOp, TupleOp>(def))
      return;
    for (auto it = converted.begin(); it != converted.end();) {
      auto next = std::next(it);
      if (it->first.first == value || it->second == value)
        converted.erase(it);
      it = next;
    }
    for (auto &[block, last] : atStart)
      if (last == def)
        last = def->getPrevNode();
    def->erase();
  }

  /// The bounds of a clip fit in the low type (TVM's
  /// IsMixedPrecisionApplicableToAttrs).
  bool attrsFit(Operation *op) {
    auto clip = dyn_cast<ClipOp>(op);
    if (!clip)
      return true;
    APFloat largest = APFloat::getLargest(low.getFloatSemantics());
    double bound = largest.convertToDouble();
    return clip.getAMin().convertToDouble() >= -bound &&
           clip.getAMax().convertToDouble() <= bound;
  }

  LogicalResult convertOperator(Operation *op) {
    StringRef name = op->getName().getStringRef();
    if (llvm::any_of(op->getOperandTypes(),
                     [](Type t) { return isa<IncompleteType>(t); }))
      return op->emitError("relay-to-mixed-precision: operands of '")
             << name << "' are not typed; run relay-infer-type first";
    name.consume_front("relay.");
    Category category = categoryOf(name);
    if (category == Category::Missing) {
      auto &entry = missing[name];
      if (!entry.first)
        entry.first = op;
      ++entry.second;
      category = Category::Follow;
    }
    if (category == Category::Follow) {
      bool lowInputs = llvm::all_of(op->getOperands(), [&](Value v) {
        return allFloatsAre(v.getType(), low) || isa<BlockArgument>(v) ||
               v.getDefiningOp<ConstantOp>();
      });
      category = lowInputs ? Category::Always : Category::Never;
    }
    bool inLow = category == Category::Always && attrsFit(op);
    if (inLow) {
      // In the low type if the operator's typing rule takes it (one_hot
      // with a float32 dtype does not: it then computes in float32).
      SmallVector<Value> before(op->getOperands());
      StringRef dtypeAttr = hasAccumulationDtype(name) ? "out_dtype"
                            : isInitOp(name)           ? "dtype"
                                                       : "";
      Attribute attrBefore =
          dtypeAttr.empty() ? Attribute() : op->getAttr(dtypeAttr);
      castOperands(op, [&](FloatType) -> Type { return low; });
      if (!dtypeAttr.empty()) {
        auto type = dyn_cast_or_null<TypeAttr>(attrBefore);
        if (!type || isFloat(type.getValue()))
          op->setAttr(dtypeAttr, TypeAttr::get(low));
      }
      FailureOr<SmallVector<Type>> types = inferTypes(op, /*quiet=*/true);
      if (succeeded(types)) {
        setTypes(op, *types);
        return success();
      }
      SmallVector<Value> tried(op->getOperands());
      op->setOperands(before);
      if (!dtypeAttr.empty()) {
        if (attrBefore)
          op->setAttr(dtypeAttr, attrBefore);
        else
          op->removeAttr(dtypeAttr);
      }
      for (Value value : tried)
        forget(value);
    }
    castOperands(op, [&](FloatType element) -> Type {
      return element.getWidth() < 32 ? builder.getF32Type() : element;
    });
    return reinfer(op);
  }

  /// Converts `op`'s operands, float element types mapped by `map`.
  void castOperands(Operation *op, function_ref<Type(FloatType)> map) {
    for (OpOperand &operand : op->getOpOperands()) {
      Value value = operand.get();
      Type want = mapFloats(value.getType(), map);
      if (want != value.getType())
        operand.set(convert(value, want));
    }
  }

  /// Converts the operators of `func`; `keepResults`: its results keep
  /// their types (it is also used as a value: relay.global_fn/closure).
  LogicalResult convertFunction(func::FuncOp func, bool keepResults) {
    SmallVector<Operation *> ops;
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op != func)
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (isOperator(op)) {
        if (failed(convertOperator(op)))
          return failure();
      } else if (isa<TupleOp, TupleGetItemOp>(op)) {
        if (failed(reinfer(op)))
          return failure();
      } else if (isa<func::ReturnOp>(op) && op->getParentOp() == func) {
        if (keepOutputDtype || keepResults)
          for (OpOperand &operand : op->getOpOperands())
            operand.set(restore(operand.get()));
      } else {
        for (OpOperand &operand : op->getOpOperands())
          operand.set(restore(operand.get()));
      }
    }
    return success();
  }
};

struct ToMixedPrecisionPass
    : relay::impl::RelayToMixedPrecisionBase<ToMixedPrecisionPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    FloatType low;
    if (mixedPrecisionType == "float16")
      low = Float16Type::get(ctx);
    else if (mixedPrecisionType == "bfloat16")
      low = BFloat16Type::get(ctx);
    else if (mixedPrecisionType == "float32")
      low = Float32Type::get(ctx);
    else if (mixedPrecisionType == "float64")
      low = Float64Type::get(ctx);
    if (!low) {
      module.emitError("relay-to-mixed-precision: mixed-precision-type is "
                       "float16, bfloat16, float32 or float64, not '")
          << mixedPrecisionType << "'";
      return signalPassFailure();
    }
    if (missingOpMode < 0 || missingOpMode > 2) {
      module.emitError("relay-to-mixed-precision: missing-op-mode is 0, 1 "
                       "or 2, not ")
          << static_cast<int>(missingOpMode);
      return signalPassFailure();
    }
    Converter converter(low, missingOpMode, keepOrigOutputDtype);
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    llvm::StringSet<> values;
    module.walk([&](Operation *op) {
      if (auto fn = dyn_cast<GlobalFnOp>(op))
        values.insert(fn.getCallee());
      else if (auto closure = dyn_cast<ClosureOp>(op))
        values.insert(closure.getCallee());
    });
    for (func::FuncOp func : funcs)
      if (!func.isExternal() && failed(converter.convertFunction(
                                    func, values.contains(func.getSymName()))))
        return signalPassFailure();

    // The functions' result types, and the calls of those that changed.
    DenseMap<StringRef, func::FuncOp> changed;
    for (func::FuncOp func : funcs) {
      if (func.isExternal())
        continue;
      auto ret = cast<func::ReturnOp>(func.getBody().back().getTerminator());
      auto type = FunctionType::get(ctx, func.getArgumentTypes(),
                                    ret.getOperandTypes());
      if (type != func.getFunctionType()) {
        func.setFunctionType(type);
        changed[func.getSymName()] = func;
      }
    }
    module.walk([&](func::CallOp call) {
      func::FuncOp callee = changed.lookup(call.getCallee());
      if (!callee)
        return;
      for (auto [result, type] :
           llvm::zip(call.getResults(), callee.getResultTypes())) {
        Type before = result.getType();
        if (before == type)
          continue;
        result.setType(type);
        Value back = converter.convert(result, before);
        result.replaceAllUsesExcept(back, back.getDefiningOp());
      }
    });

    bool error = missingOpMode == 0;
    for (auto &[name, entry] : converter.missing) {
      if (missingOpMode == 2)
        break;
      auto diag = error ? entry.first->emitError() : entry.first->emitWarning();
      diag << "relay-to-mixed-precision: operator '" << name
           << "' is on no mixed precision list (" << entry.second
           << (entry.second == 1 ? " use" : " uses")
           << "); it follows its inputs";
    }
    if (error && !converter.missing.empty())
      return signalPassFailure();
  }
};

} // namespace
