//===- ContiguousSlices.cpp - relay-contiguous-slices ---------------------===//
//
// A static tensor read only by many equal slices along one dim k, whole
// along the others, is transposed once so that each slice is contiguous:
//
//   %s [8, 16384] sliced at [0, 512 t] [8, 512] for t = 0..31
//   -> %e = expand %s to [8, 32, 512]; %t = transpose %e to [32, 8, 512]
//      slice t = reshape(%t[t, 0, 0] [1, 8, 512]) to [8, 512]
//
// (an unrolled RNN's per-step input projections at batch > 1). IREE 3.13
// reads a contiguous slice of a dispatch operand through the binding's
// offset, so the steps' dispatches are one executable; a strided slice is
// read inside the dispatch at static offsets, one executable per step
// (the batch-8 LSTM LM: 32 executables, iree-compile 36 s instead of 3 s).
// The transpose is an elementwise consumer of the tensor's producer and
// fuses into its dispatch.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallSet.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYCONTIGUOUSSLICES
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {
/// Fewer slices than this are left strided: each is at most one more
/// executable, and the splits of a gate or attention projection (3-4
/// slices, read in one fused dispatch) gain nothing from a transpose.
constexpr size_t kMinSlices = 8;

/// The slices of `source` along one dim, if every use of `source` is a
/// static unit-stride slice of the same size along `dim`, whole along the
/// other dims, at an offset that is a multiple of that size.
struct SlicePlan {
  int64_t dim = -1, size = 0;
  SmallVector<tensor::ExtractSliceOp> slices;
};

std::optional<SlicePlan> planFor(Value source) {
  auto type = dyn_cast<RankedTensorType>(source.getType());
  if (!type || !type.hasStaticShape() || type.getRank() < 2)
    return std::nullopt;
  SlicePlan plan;
  llvm::SmallSet<int64_t, 16> offsets;
  for (Operation *user : source.getUsers()) {
    auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
    if (!slice || slice.getSource() != source ||
        !slice.getType().hasStaticShape() ||
        ShapedType::isDynamicShape(slice.getStaticOffsets()) ||
        ShapedType::isDynamicShape(slice.getStaticSizes()) ||
        llvm::any_of(slice.getStaticStrides(),
                     [](int64_t s) { return s != 1; }))
      return std::nullopt;
    ArrayRef<int64_t> off = slice.getStaticOffsets();
    ArrayRef<int64_t> size = slice.getStaticSizes();
    int64_t dim = -1;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (off[d] == 0 && size[d] == type.getDimSize(d))
        continue;
      if (dim != -1)
        return std::nullopt; // sliced along two dims
      dim = d;
    }
    if (dim == -1 || (plan.dim != -1 && dim != plan.dim) ||
        (plan.size != 0 && size[dim] != plan.size) || off[dim] % size[dim] != 0)
      return std::nullopt;
    plan.dim = dim;
    plan.size = size[dim];
    plan.slices.push_back(slice);
    offsets.insert(off[dim]);
  }
  if (offsets.size() < kMinSlices || type.getDimSize(plan.dim) % plan.size != 0)
    return std::nullopt;
  // Already contiguous when every dim before `dim` has size 1.
  if (llvm::all_of(type.getShape().take_front(plan.dim),
                   [](int64_t n) { return n == 1; }))
    return std::nullopt;
  return plan;
}

/// `source` reshaped so that slice `k` along `plan.dim` is the k-th element
/// of a new outermost dim: expand `dim` into [n / size, size], then move
/// the n / size dim to the front.
Value slicesOutermost(OpBuilder &b, Location loc, Value source,
                      const SlicePlan &plan) {
  auto type = cast<RankedTensorType>(source.getType());
  int64_t rank = type.getRank(), dim = plan.dim;
  SmallVector<int64_t> expanded;
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == dim) {
      groups.push_back(
          {int64_t(expanded.size()), int64_t(expanded.size()) + 1});
      expanded.push_back(type.getDimSize(d) / plan.size);
      expanded.push_back(plan.size);
    } else {
      groups.push_back({int64_t(expanded.size())});
      expanded.push_back(type.getDimSize(d));
    }
  }
  auto expandedType = RankedTensorType::get(expanded, type.getElementType());
  Value e = tensor::ExpandShapeOp::create(b, loc, expandedType, source, groups);
  SmallVector<int64_t> perm = {dim};
  for (int64_t d = 0; d <= rank; ++d)
    if (d != dim)
      perm.push_back(d);
  SmallVector<int64_t> permuted;
  for (int64_t p : perm)
    permuted.push_back(expanded[p]);
  Value init = tensor::EmptyOp::create(b, loc, permuted, type.getElementType());
  return linalg::TransposeOp::create(b, loc, e, init, perm)->getResult(0);
}

/// `value` (all of a tensor's elements in order) as `type`: two reshapes
/// through one dim, which IREE folds into the slice's addressing.
Value reshapeTo(OpBuilder &b, Location loc, Value value,
                RankedTensorType type) {
  auto from = cast<RankedTensorType>(value.getType());
  if (from == type)
    return value;
  ReassociationIndices all =
      llvm::to_vector(llvm::seq<int64_t>(0, from.getRank()));
  auto flat =
      RankedTensorType::get({from.getNumElements()}, from.getElementType());
  Value collapsed = tensor::CollapseShapeOp::create(
      b, loc, flat, value, SmallVector<ReassociationIndices>{all});
  if (type.getRank() == 0)
    return tensor::CollapseShapeOp::create(b, loc, type, collapsed,
                                           SmallVector<ReassociationIndices>{});
  ReassociationIndices to =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  return tensor::ExpandShapeOp::create(b, loc, type, collapsed,
                                       SmallVector<ReassociationIndices>{to});
}

void makeContiguous(Value source, const SlicePlan &plan) {
  OpBuilder b(source.getContext());
  b.setInsertionPointAfterValue(source);
  Location loc = source.getLoc();
  Value outer = slicesOutermost(b, loc, source, plan);
  auto outerType = cast<RankedTensorType>(outer.getType());
  for (tensor::ExtractSliceOp slice : plan.slices) {
    b.setInsertionPoint(slice);
    int64_t k = slice.getStaticOffsets()[plan.dim] / plan.size;
    SmallVector<int64_t> offsets(outerType.getRank(), 0),
        strides(outerType.getRank(), 1);
    SmallVector<int64_t> sizes = llvm::to_vector(outerType.getShape());
    offsets[0] = k;
    sizes[0] = 1;
    auto sliceType = RankedTensorType::get(sizes, outerType.getElementType());
    Value one = tensor::ExtractSliceOp::create(
        b, slice.getLoc(), sliceType, outer, ValueRange{}, ValueRange{},
        ValueRange{}, b.getDenseI64ArrayAttr(offsets),
        b.getDenseI64ArrayAttr(sizes), b.getDenseI64ArrayAttr(strides));
    slice.replaceAllUsesWith(
        reshapeTo(b, slice.getLoc(), one, slice.getType()));
    slice.erase();
  }
}

struct ContiguousSlicesPass
    : relay::impl::RelayContiguousSlicesBase<ContiguousSlicesPass> {
  void runOnOperation() override {
    SmallVector<std::pair<Value, SlicePlan>> work;
    getOperation()->walk([&](Operation *op) {
      for (Value v : op->getResults())
        if (std::optional<SlicePlan> plan = planFor(v))
          work.emplace_back(v, std::move(*plan));
      for (Region &r : op->getRegions())
        for (Block &block : r)
          for (Value arg : block.getArguments())
            if (std::optional<SlicePlan> plan = planFor(arg))
              work.emplace_back(arg, std::move(*plan));
    });
    for (auto &[source, plan] : work)
      makeContiguous(source, plan);
  }
};
} // namespace
