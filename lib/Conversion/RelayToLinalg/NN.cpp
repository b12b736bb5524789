//===- NN.cpp ---------------------------------------------------------===//
#include "Patterns.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

void lowering::populateNNPatterns(const TypeConverter &tc,
                                     RewritePatternSet &patterns) {}
