//===- Pool.cpp - typing rules of the pools -------------------------------===//
//
// Pool (nn.{max,avg}_pool{1,2,3}d), GlobalPool2D and AdaptivePool (1-3d), with
// Relay's semantics (src/relay/op/nn/pooling.cc): the same attributes,
// defaults and output-size formulas; `?` dims propagate. Layouts may block
// the channels (NCHW8c: what AlterOpLayout leaves after a blocked conv).
//
//===----------------------------------------------------------------------===//
#include "NNUtils.h"
#include "TransformUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

/// The data of a pool over `n` spatial dims in `layout` and the position of
/// each canonical dim (N, C, then the spatial ones) in it. `layout` is an
/// arrangement of NC + spatial letters, possibly with the channels blocked
/// (TVM's NCHW8c: one `{k}c` sub-axis, of extent k, that the pool keeps).
static FailureOr<std::pair<RankedTensorType, SmallVector<int64_t>>>
poolData(ErrorSite site, Type dataType, unsigned n, StringRef layout,
         StringRef outLayout) {
  std::string canonical = ("NC" + spatialLetters(n)).str();
  if (failed(checkPoolOutLayout(site, layout, outLayout)))
    return failure();
  if (llvm::all_of(layout, llvm::isUpper)) { // no sub-axis
    FailureOr<SmallVector<int64_t>> l =
        layoutDims(site, layout, canonical, "layout");
    if (failed(l))
      return failure();
    FailureOr<RankedTensorType> data =
        tensorTypeOfRank(site, dataType, "data", n + 2);
    if (failed(data))
      return failure();
    return std::make_pair(*data, *l);
  }
  FailureOr<SmallVector<LayoutAxis>> axes =
      parseBlockedLayout(site, layout, "layout");
  if (failed(axes))
    return failure();
  std::string primal;
  std::optional<int64_t> subPos;
  for (auto [i, a] : llvm::enumerate(*axes)) {
    if (!a.isSub()) {
      primal += a.primal;
      continue;
    }
    if (a.primal != 'C')
      return site.emitError()
             << "layout \"" << layout << "\": only the channels may be "
             << "blocked in a pool (" << a.factor
             << static_cast<char>(a.primal - 'A' + 'a') << " splits "
             << a.primal << ")";
    subPos = i;
  }
  FailureOr<SmallVector<int64_t>> l =
      layoutDims(site, primal, canonical, "layout");
  if (failed(l))
    return failure();
  // positions in the primal letters -> positions in the whole layout
  SmallVector<int64_t> positions;
  for (auto [i, a] : llvm::enumerate(*axes))
    if (!a.isSub())
      positions.push_back(i);
  for (int64_t &p : *l)
    p = positions[p];
  FailureOr<RankedTensorType> data =
      tensorTypeOfRank(site, dataType, "data", axes->size());
  if (failed(data))
    return failure();
  if (subPos) {
    int64_t factor = (*axes)[*subPos].factor;
    int64_t got = data->getDimSize(*subPos);
    if (!isAny(got) && got != factor)
      return site.emitError()
             << "data dim " << *subPos << " is " << got << ", but layout \""
             << layout << "\" blocks the channels by " << factor;
  }
  return std::make_pair(*data, *l);
}

//===----------------------------------------------------------------------===//
// Pool: N-d max/avg pooling
//===----------------------------------------------------------------------===//

FailureOr<Type> relay::inferPool(ErrorSite site, Type dataType, unsigned n,
                                 ArrayRef<int64_t> poolSize,
                                 ArrayRef<int64_t> strides,
                                 ArrayRef<int64_t> dilation,
                                 ArrayRef<int64_t> padding, StringRef layout,
                                 StringRef outLayout, bool ceilMode) {
  auto dataAndLayout = poolData(site, dataType, n, layout, outLayout);
  if (failed(dataAndLayout))
    return failure();
  auto &[data, l] = *dataAndLayout;
  if (failed(checkArray(site, "pool_size", poolSize, n)) ||
      failed(checkArray(site, "strides", strides, n)) ||
      failed(checkArray(site, "dilation", dilation, n)))
    return failure();
  FailureOr<SpatialPadding> pad = spatialPadding(site, padding, n);
  if (failed(pad))
    return failure();
  SmallVector<int64_t> shape(data.getShape());
  for (unsigned d = 0; d < n; ++d) {
    int64_t pos = l[2 + d];
    int64_t in = shape[pos];
    int64_t out = windowOutputSize(in, poolSize[d], strides[d], dilation[d],
                                   pad->before[d], pad->after[d], ceilMode);
    if (!isAny(out) && out < 1)
      return windowDoesNotFit(site, n, d, in, out,
                              pad->before[d] + pad->after[d], "pool",
                              dilatedWindowSize(poolSize[d], dilation[d]));
    shape[pos] = out;
  }
  return Type(RankedTensorType::get(shape, data.getElementType()));
}

//===----------------------------------------------------------------------===//
// GlobalPool2D: the spatial dims become 1
//===----------------------------------------------------------------------===//

FailureOr<Type> relay::inferGlobalPool2D(ErrorSite site, Type dataType,
                                         StringRef layout,
                                         StringRef outLayout) {
  auto dataAndLayout = poolData(site, dataType, 2, layout, outLayout);
  if (failed(dataAndLayout))
    return failure();
  auto &[data, l] = *dataAndLayout;
  SmallVector<int64_t> shape(data.getShape());
  shape[l[2]] = 1;
  shape[l[3]] = 1;
  return Type(RankedTensorType::get(shape, data.getElementType()));
}

//===----------------------------------------------------------------------===//
// AdaptivePool: the spatial dims become output_size
//===----------------------------------------------------------------------===//

FailureOr<Type> relay::inferAdaptivePool(ErrorSite site, Type dataType,
                                         unsigned n, ArrayRef<int64_t> size,
                                         StringRef layout,
                                         StringRef outLayout) {
  auto dataAndLayout = poolData(site, dataType, n, layout, outLayout);
  if (failed(dataAndLayout))
    return failure();
  auto &[data, l] = *dataAndLayout;
  if (size.size() > 1 && size.size() != n) {
    std::string counts = n > 1 ? "0, 1 or " + std::to_string(n) : "0 or 1";
    return site.emitError() << "output_size must have " << counts
                            << " entries, got " << size.size();
  }
  for (int64_t s : size)
    if (s < 1)
      return site.emitError() << "output_size entries must be >= 1, got " << s;
  SmallVector<int64_t> shape(data.getShape());
  if (!size.empty())
    for (unsigned d = 0; d < n; ++d)
      shape[l[2 + d]] = size.size() == 1 ? size[0] : size[d];
  return Type(RankedTensorType::get(shape, data.getElementType()));
}
