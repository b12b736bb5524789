//===- PadsForIREE.cpp - pads IREE 3.13 can compile -----------------------===//
#include "PadsForIREE.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

using namespace mlir;

namespace {

/// Whether `user` reads `value` as an elementwise-like linalg op does (see
/// decomposePadsFedToElementwise), or a reshape of it reaches one.
bool readElementwise(Value value, Operation *user) {
  if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(user))
    return llvm::any_of(user->getResult(0).getUsers(), [&](Operation *next) {
      return readElementwise(user->getResult(0), next);
    });
  auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
  if (!linalgOp || isa<linalg::ConvolutionOpInterface>(user) ||
      linalgOp.getNumParallelLoops() != linalgOp.getNumLoops())
    return false;
  return llvm::any_of(linalgOp.getDpsInputOperands(), [&](OpOperand *in) {
    return in->get() == value &&
           linalgOp.getMatchingIndexingMap(in).isProjectedPermutation();
  });
}

} // namespace

void relay::lowering::decomposePadsFedToElementwise(Operation *root) {
  SmallVector<tensor::PadOp> pads;
  root->walk([&](tensor::PadOp pad) {
    if (pad.getConstantPaddingValue() &&
        llvm::any_of(pad->getUsers(), [&](Operation *user) {
          return readElementwise(pad.getResult(), user);
        }))
      pads.push_back(pad);
  });
  for (tensor::PadOp pad : pads) {
    OpBuilder b(pad);
    Location loc = pad.getLoc();
    ReifiedRankedShapedTypeDims sizes;
    if (failed(reifyResultShapes(b, pad, sizes)))
      continue;
    RankedTensorType type = pad.getResultType();
    Value empty =
        tensor::EmptyOp::create(b, loc, sizes[0], type.getElementType());
    Value filled =
        linalg::FillOp::create(b, loc, pad.getConstantPaddingValue(), empty)
            .getResult(0);
    SmallVector<OpFoldResult> sourceSizes =
        tensor::getMixedSizes(b, loc, pad.getSource());
    SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
    Value inserted = tensor::InsertSliceOp::create(b, loc, pad.getSource(),
                                                   filled, pad.getMixedLowPad(),
                                                   sourceSizes, strides);
    if (inserted.getType() != type)
      inserted = tensor::CastOp::create(b, loc, type, inserted);
    pad.replaceAllUsesWith(inserted);
    pad.erase();
  }
}
