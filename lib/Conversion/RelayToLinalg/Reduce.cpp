//===- Reduce.cpp ---------------------------------------------------------===//
#include "Patterns.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

void lowering::populateReducePatterns(const TypeConverter &tc,
                                     RewritePatternSet &patterns) {}
