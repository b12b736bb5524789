//===- NNSpaceBatch.cpp - typing rules of the space/batch block moves -----===//
//
// nn.space_to_batch_nd and nn.batch_to_space_nd with TVM 0.19's semantics
// (src/relay/op/nn/nn.cc, topi/nn/space_to_batch_nd.h): data [N, S1..SM,
// rest...], `block_shape` [b1..bM], (before, after) pairs per spatial dim
// flattened as nn.pad's `pad_width`; `?` dims propagate.
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"

#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

namespace {
/// The operand of a block move and the product of its `block_shape`.
struct BlockMove {
  RankedTensorType data;
  int64_t count;
};
} // namespace

/// The data (rank >= M + 1) of a block move with `blockShape` (M entries >= 1)
/// and `pairs` (`what`: paddings or crops; 2M entries >= 0), and the product
/// of `blockShape` (an overflow is an error).
static FailureOr<BlockMove> blockMove(ErrorSite site, Type dataType,
                                      ArrayRef<int64_t> blockShape,
                                      ArrayRef<int64_t> pairs, StringRef what) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  int64_t m = static_cast<int64_t>(blockShape.size());
  if (m == 0)
    return site.emitError() << "block_shape must not be empty";
  for (int64_t b : blockShape)
    if (b < 1)
      return site.emitError() << "block_shape entries must be >= 1, got " << b;
  if (static_cast<int64_t>(pairs.size()) != 2 * m)
    return site.emitError()
           << what
           << " must have 2 entries (a pair) per block_shape entry: " << 2 * m
           << ", got " << pairs.size();
  for (int64_t p : pairs)
    if (p < 0)
      return site.emitError() << what << " entries must be >= 0, got " << p;
  if (data->getRank() < m + 1)
    return site.emitError() << "data of rank " << data->getRank() << " has no "
                            << m << " spatial dims after the batch";
  int64_t count = 1;
  for (int64_t b : blockShape) {
    FailureOr<int64_t> next = mulDims(site, count, b, "block_shape product");
    if (failed(next))
      return failure();
    count = *next;
  }
  return BlockMove{*data, count};
}

FailureOr<Type> relay::inferSpaceToBatchND(ErrorSite site, Type dataType,
                                           ArrayRef<int64_t> blockShape,
                                           ArrayRef<int64_t> paddings) {
  FailureOr<BlockMove> move =
      blockMove(site, dataType, blockShape, paddings, "paddings");
  if (failed(move))
    return failure();
  SmallVector<int64_t> shape(move->data.getShape());
  FailureOr<int64_t> batch = mulDims(site, shape[0], move->count, "the batch");
  if (failed(batch))
    return failure();
  shape[0] = *batch;
  for (auto [i, b] : llvm::enumerate(blockShape)) {
    int64_t in = shape[1 + i];
    if (isAny(in))
      continue;
    std::optional<int64_t> padded = llvm::checkedAdd(in, paddings[2 * i]);
    if (padded)
      padded = llvm::checkedAdd(*padded, paddings[2 * i + 1]);
    if (!padded)
      return site.emitError() << "padding spatial dim " << i << " overflows";
    if (*padded % b != 0)
      return site.emitError()
             << "padded spatial dim " << i << " (" << *padded
             << ") is not a multiple of block_shape[" << i << "] = " << b;
    shape[1 + i] = *padded / b;
  }
  return Type(RankedTensorType::get(shape, move->data.getElementType()));
}

FailureOr<Type> relay::inferBatchToSpaceND(ErrorSite site, Type dataType,
                                           ArrayRef<int64_t> blockShape,
                                           ArrayRef<int64_t> crops) {
  FailureOr<BlockMove> move =
      blockMove(site, dataType, blockShape, crops, "crops");
  if (failed(move))
    return failure();
  SmallVector<int64_t> shape(move->data.getShape());
  if (!isAny(shape[0])) {
    if (shape[0] % move->count != 0)
      return site.emitError()
             << "batch " << shape[0] << " is not a multiple of the block size "
             << move->count << " (the product of block_shape)";
    shape[0] /= move->count;
  }
  for (auto [i, b] : llvm::enumerate(blockShape)) {
    FailureOr<int64_t> full =
        mulDims(site, shape[1 + i], b, "the uncropped spatial dim");
    if (failed(full))
      return failure();
    if (isAny(*full)) {
      shape[1 + i] = kAny;
      continue;
    }
    int64_t begin = crops[2 * i], end = crops[2 * i + 1];
    if (begin > *full || end > *full - begin)
      return site.emitError()
             << "crops (" << begin << ", " << end << ") of spatial dim " << i
             << " exceed its uncropped size " << *full;
    shape[1 + i] = *full - begin - end;
  }
  return Type(RankedTensorType::get(shape, move->data.getElementType()));
}
