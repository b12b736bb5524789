//===- Transform.cpp ---------------------------------------------------------===//
#include "Patterns.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

void lowering::populateTransformPatterns(const TypeConverter &tc,
                                     RewritePatternSet &patterns) {}
