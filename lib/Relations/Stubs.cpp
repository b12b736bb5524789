// Temporary: relations still to be written (being replaced file by file).
#include "RelationUtils.h"
using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;
#define STUB(NAME) LogicalResult rel::NAME##Rel(Operation *op, TypeRange, SmallVectorImpl<Type> &) { return op->emitOpError() << "relation " #NAME " is not implemented yet"; }
STUB(Dense)
STUB(BiasAdd)
STUB(Conv2D)
STUB(Pool2D)
STUB(GlobalPool2D)
STUB(BatchFlatten)
STUB(BatchNorm)
STUB(Reduce)
STUB(Reshape)
STUB(Transpose)
STUB(Concatenate)
