//===- ConvGradients.cpp - convolutions -----------------------------------===//
//
// nn.conv1d/2d/3d: the data adjoint is the output adjoint scattered back
// through the weight (`nn.conv2d_transpose` for 2-d; for 1-d and 3-d, which
// have no transposed op, the adjoint dilated by the strides, padded and
// correlated with the flipped weight, channels transposed per group); the
// weight adjoint is a convolution of the data (batch as channels, grouped
// when the forward op is) with the output adjoint (batch as channels),
// strides and dilation swapped (the building blocks: WindowAdjoints.cpp).
// nn.conv2d_transpose is conv2d's data adjoint, so its adjoints are conv2d's
// with the roles swapped.
//
//===----------------------------------------------------------------------===//
//===----------------------------------------------------------------------===//
#include "SharedRules.h"
#include "WindowAdjoints.h"
#include "relay/RelayGradient.h"
#include "relay/RelayOps.h"

#include "mlir/Interfaces/InferTypeOpInterface.h"

#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::gradient;
using namespace mlir::relay::gradient::window;

namespace {

const std::pair<StringRef, StringRef> kConv1DLayouts[] = {
    {"data_layout", "NCW"}, {"kernel_layout", "OIW"}};
const std::pair<StringRef, StringRef> kConv2DLayouts[] = {
    {"data_layout", "NCHW"}, {"kernel_layout", "OIHW"}};
const std::pair<StringRef, StringRef> kConv3DLayouts[] = {
    {"data_layout", "NCDHW"}, {"kernel_layout", "OIDHW"}};

/// conv1d, conv2d, conv3d in channel-first layouts.
template <typename ConvOp>
LogicalResult conv(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<ConvOp>(rb.op);
  Value x = op.getData(), w = op.getWeight();
  int64_t nd = tensorTypeOf(x).getRank() - 2;
  LayoutSpecs specs = nd == 1   ? LayoutSpecs(kConv1DLayouts)
                      : nd == 2 ? LayoutSpecs(kConv2DLayouts)
                                : LayoutSpecs(kConv3DLayouts);
  if (auto r = viaCanonicalLayout(rb, g, out, conv<ConvOp>, specs))
    return *r;
  if (failed(requireStatic(rb, {x, w, g})))
    return failure();
  SmallVector<int64_t> pad = paddingFull(op.getPadding(), nd);
  ArrayRef<int64_t> xs = tensorTypeOf(x).getShape();
  int64_t groups = static_cast<int64_t>(op.getGroups());
  out.push_back(scatterConv(rb, g, w, op.getStrides(), pad, op.getDilation(),
                            groups, xs.drop_front(2)));
  // dw[o, i] = Σ_n x[n, i] ⋆ g[n, o] (within o's group)
  out.push_back(
      weightGrad(rb, x, g, op.getStrides(), pad, op.getDilation(), groups, w));
  return success();
}

/// `v` [N, C, (K,) spatial...] as [N*C, K, spatial...] (K = 1 when
/// absent): one image per batch element and channel.

/// conv2d_transpose is conv2d's data adjoint, so its data adjoint is a
/// conv2d with the same weight (read as OIHW); its weight adjoint is the
/// conv2d weight adjoint with data and output adjoint swapped.
LogicalResult conv2dTranspose(RuleBuilder &rb, Value g,
                              SmallVectorImpl<Value> &out) {
  const std::pair<StringRef, StringRef> specs[] = {{"data_layout", "NCHW"},
                                                   {"kernel_layout", "IOHW"}};
  if (auto r = viaCanonicalLayout(rb, g, out, conv2dTranspose, specs))
    return *r;
  auto op = cast<Conv2DTransposeOp>(rb.op);
  Value x = op.getData(), w = op.getWeight();
  if (failed(requireStatic(rb, {x, w, g})))
    return failure();
  int64_t groups = static_cast<int64_t>(op.getGroups());
  SmallVector<int64_t> pad = paddingFull(op.getPadding(), 2);
  out.push_back(
      makeConv(rb, g, w, op.getStrides(), pad, op.getDilation(), groups));
  // dw[i, o] = Σ_n g[n, o] ⋆ x[n, i] (o within i's group)
  out.push_back(
      weightGrad(rb, g, x, op.getStrides(), pad, op.getDilation(), groups, w));
  return success();
}

} // namespace

void gradient::addConvGradients(GradientRules &rules) {
  rules["relay.nn.conv1d"] = conv<Conv1DOp>;
  rules["relay.nn.conv2d"] = conv<Conv2DOp>;
  rules["relay.nn.conv3d"] = conv<Conv3DOp>;
  rules["relay.nn.conv2d_transpose"] = conv2dTranspose;
}
