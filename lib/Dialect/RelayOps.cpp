//===- RelayOps.cpp - op definitions and the typing-rule verifier ---------===//
#include "relay/RelayOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

using namespace mlir;
using namespace mlir::relay;

#define GET_OP_CLASSES
#include "relay/RelayOps.cpp.inc"

bool mlir::relay::anyIncomplete(TypeRange types) {
  return !llvm::all_of(types, isComplete);
}

LogicalResult mlir::relay::addResult(SmallVectorImpl<Type> &results,
                                     FailureOr<Type> result) {
  if (failed(result))
    return failure();
  results.push_back(*result);
  return success();
}

/// Relay's dtypes: bool (i1), int8-64 (i8-i64), uint8-64 (ui8-ui64), float16,
/// bfloat16, float32, float64. Other element types (index, si32, i3,
/// complex, ...) have no Relay meaning and no lowering.
static bool isRelayDtype(Type element) {
  if (auto integer = dyn_cast<IntegerType>(element)) {
    unsigned width = integer.getWidth();
    if (width == 1)
      return integer.isSignless();
    return !integer.isSigned() &&
           (width == 8 || width == 16 || width == 32 || width == 64);
  }
  return element.isF16() || element.isBF16() || element.isF32() ||
         element.isF64();
}

/// The narrow dtypes beyond TVM 0.19 (int4/uint4/int2/uint2, i4/ui4/i2/ui2,
/// and the float8 family): storage types that only the ops of
/// `kNarrowDtypeOps` take or give; arithmetic casts them to a wider dtype.
static bool isNarrowDtype(Type element) {
  if (auto integer = dyn_cast<IntegerType>(element))
    return !integer.isSigned() &&
           (integer.getWidth() == 2 || integer.getWidth() == 4);
  return isa<Float8E4M3FNType, Float8E4M3FNUZType, Float8E5M2Type,
             Float8E5M2FNUZType, Float8E8M0FNUType>(element);
}

/// The operators that take narrow dtypes, beside the language constructs.
static constexpr StringLiteral kNarrowDtypeOps[] = {
    "relay.cast",    "relay.cast_like",   "relay.reshape", "relay.transpose",
    "relay.squeeze", "relay.expand_dims", "relay.copy"};

/// The language constructs (RelayLanguageOps.td, RelayADTOps.td) carry values
/// of any dtype; `relay.grad` differentiates, so it is not one of them here.
static constexpr StringLiteral kLanguageOps[] = {
    "relay.constant",  "relay.tuple",    "relay.tuple_get_item",
    "relay.yield",     "relay.if",       "relay.fn",
    "relay.global_fn", "relay.closure",  "relay.call",
    "relay.ref_new",   "relay.ref_read", "relay.ref_write",
    "relay.construct", "relay.match",    "relay.constructor"};

static bool takesNarrowDtypes(Operation *op) {
  StringRef name = op->getName().getStringRef();
  return llvm::is_contained(kNarrowDtypeOps, name) ||
         llvm::is_contained(kLanguageOps, name);
}

/// Whether the static dims of `shape` multiply past int64: such a type
/// asserts wherever its element count is asked for (a typing rule can make
/// one from an attribute, e.g. nn.matmul's `units`, when it types an
/// operand it infers).
static bool elementCountOverflows(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape)
    if (!ShapedType::isDynamic(dim) && llvm::MulOverflow(count, dim, count))
      return true;
  return false;
}

LogicalResult mlir::relay::verifyRelayDtypes(Operation *op, TypeRange types,
                                             StringRef what) {
  for (auto [i, type] : llvm::enumerate(types)) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (tensor && elementCountOverflows(tensor.getShape()))
      return op->emitOpError() << what << " #" << i << " has type " << tensor
                               << ", whose element count overflows int64";
    if (!tensor || isRelayDtype(tensor.getElementType()))
      continue;
    if (isNarrowDtype(tensor.getElementType())) {
      if (takesNarrowDtypes(op))
        continue;
      return op->emitOpError()
             << what << " #" << i << " has the narrow element type "
             << tensor.getElementType()
             << ", which only cast, cast_like, reshape, transpose, squeeze, "
                "expand_dims and copy take (cast it to a wider dtype first)";
    }
    return op->emitOpError()
           << what << " #" << i << " has element type "
           << tensor.getElementType()
           << ", which is not a relay dtype (bool, int8-64, uint8-64, "
              "float16, bfloat16, float32, float64)";
  }
  return success();
}

LogicalResult mlir::relay::verifyInferredResultTypes(Operation *op) {
  // operands before the rule (rules assume Relay dtypes), results after it
  // (a rule rejecting an attribute, e.g. cast's dtype, says more)
  if (failed(verifyRelayDtypes(op, op->getOperandTypes(), "operand")))
    return failure();
  auto iface = cast<InferTypeOpInterface>(op);
  SmallVector<Type> inferred;
  if (failed(iface.inferReturnTypes(
          op->getContext(), op->getLoc(), op->getOperands(),
          op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
          op->getRegions(), inferred)))
    return failure();
  if (inferred.size() != op->getNumResults())
    return op->emitOpError()
           << "its typing rule gives " << inferred.size()
           << " result types for " << op->getNumResults() << " results";
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(inferred, op->getResultTypes()))) {
    auto [expected, declared] = pair;
    if (!areCompatible(expected, declared))
      return op->emitOpError() << "result #" << i << " has type " << declared
                               << " but its typing rule gives " << expected;
  }
  return verifyRelayDtypes(op, op->getResultTypes(), "result");
}

LogicalResult mlir::relay::verifyTypeEquationsOp(Operation *op) {
  if (failed(verifyRelayDtypes(op, op->getOperandTypes(), "operand")) ||
      failed(checkTypeEquations(op)))
    return failure();
  return verifyRelayDtypes(op, op->getResultTypes(), "result");
}

FailureOr<Operation *> mlir::relay::createInferred(OpBuilder &builder,
                                                   Location loc,
                                                   OperationName name,
                                                   ValueRange operands,
                                                   DictionaryAttr attrs) {
  std::optional<RegisteredOperationName> info = name.getRegisteredInfo();
  auto *iface = info ? info->getInterface<InferTypeOpInterface>() : nullptr;
  if (!iface)
    return failure();
  // The rule reads attributes through the op's properties (if it has any):
  // build them from `attrs` as Operation::create would.
  SmallVector<uint64_t> storage(
      llvm::divideCeil(info->getOpPropertyByteSize(), sizeof(uint64_t)));
  OpaqueProperties properties(storage.empty() ? nullptr : storage.data());
  SmallVector<Type> types;
  LogicalResult inferred = success();
  if (properties) {
    info->initOpProperties(properties, nullptr);
    // Attributes that do not fit the op are the caller's bug: reported.
    inferred = info->setOpPropertiesFromAttribute(
        name, properties, attrs, [&] { return mlir::emitError(loc); });
    info->populateDefaultProperties(properties);
  }
  if (succeeded(inferred))
    inferred = iface->inferReturnTypes(loc.getContext(), std::nullopt, operands,
                                       attrs, properties, {}, types);
  if (properties)
    info->destroyOpProperties(properties);
  if (failed(inferred))
    return failure();
  OperationState state(loc, name, operands, types, attrs.getValue());
  return builder.create(state);
}
