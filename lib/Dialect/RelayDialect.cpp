//===- RelayDialect.cpp - the relay dialect -------------------------------===//
#include "relay/RelayDialect.h"
#include "relay/RelayOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::relay;

#include "relay/RelayDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "relay/RelayAttrs.cpp.inc"

void RelayDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "relay/RelayOps.cpp.inc"
      >();
}

void RelayDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "relay/RelayAttrs.cpp.inc"
      >();
}

Operation *RelayDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}
