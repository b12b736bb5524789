//===- Conv.cpp - typing rules of the convolutions ------------------------===//
//
// Conv (nn.conv1d, nn.conv2d, nn.conv3d), Conv2DTranspose and the blocked
// 2-D convolutions of TVM's x86 AlterOpLayout (nn.contrib_*_NCHWc), with
// Relay's semantics (src/relay/op/nn/convolution.cc): the same attributes,
// defaults and output-size formulas; `?` dims propagate.
//
//===----------------------------------------------------------------------===//
#include "NNUtils.h"

#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

/// Checks an optional `kernel_size` (n entries >= 1) against the weight's
/// spatial dims `kernel`, which it then replaces.
static LogicalResult
applyKernelSize(ErrorSite site, std::optional<ArrayRef<int64_t>> kernelSize,
                SmallVectorImpl<int64_t> &kernel, StringRef kernelLayout) {
  if (!kernelSize)
    return success();
  if (failed(checkArray(site, "kernel_size", *kernelSize, kernel.size())))
    return failure();
  for (auto [given, dim] : llvm::zip_equal(*kernelSize, kernel))
    if (failed(unifyDim(given, dim)))
      return site.emitError() << "kernel_size " << shapeStr(*kernelSize)
                              << " ≠ weight spatial dims " << shapeStr(kernel)
                              << " (layout " << kernelLayout << ")";
  kernel.assign(kernelSize->begin(), kernelSize->end());
  return success();
}

/// An error unless dilation × (kernel - 1) + 1 along each dim fits int64
/// (the fuzzer's dilation 2^62 made the lowering build a negative size).
static LogicalResult checkDilatedKernel(ErrorSite site,
                                        ArrayRef<int64_t> kernel,
                                        ArrayRef<int64_t> dilation,
                                        StringRef letters) {
  for (auto [d, k] : llvm::enumerate(kernel)) {
    if (isAny(k) || k < 1)
      continue;
    std::optional<int64_t> span = llvm::checkedMul(dilation[d], k - 1);
    if (!span || !llvm::checkedAdd(*span, int64_t(1)))
      return site.emitError()
             << "dilated kernel along " << letters.substr(d, 1) << ": dilation "
             << dilation[d] << " × (" << k << " - 1) + 1 overflows int64";
  }
  return success();
}

/// `canon` (N, C, spatial...) laid out as `outDims` says, with `dtype`.
static Type inLayout(ArrayRef<int64_t> canon, ArrayRef<int64_t> outDims,
                     Type dtype) {
  SmallVector<int64_t> shape(canon.size());
  for (auto [d, pos] : llvm::enumerate(outDims))
    shape[pos] = canon[d];
  return RankedTensorType::get(shape, dtype);
}

/// The output channels of a convolution whose data has `c` channels and
/// whose weight (in canonical order) has `o` out- and `i` in-channels,
/// checked against `groups` and the optional `channels` attribute.
static FailureOr<int64_t> convOutChannels(ErrorSite site, int64_t c, int64_t o,
                                          int64_t i, int64_t groups,
                                          std::optional<int64_t> channels,
                                          bool hasKernelSize,
                                          bool depthwiseConvention) {
  // Relay's depthwise convention: with groups = input channels = weight
  // out-channels and both `channels` and `kernel_size` given, the weight
  // (read in canonical order) is [C, channels / C, spatial...], e.g.
  // TensorFlow's depthwise kernels in HWOI.
  bool depthwise =
      depthwiseConvention && groups > 1 && c == groups && o == groups;
  if (depthwise && channels && hasKernelSize) {
    if (*channels % c != 0)
      return site.emitError()
             << "channels " << *channels
             << " must be a multiple of the input channels " << c
             << " for a depthwise convolution (groups = " << groups << ")";
    if (failed(unifyDim(i, *channels / c)))
      return site.emitError()
             << "weight in-channels " << i << " ≠ channels / input channels ("
             << *channels << " / " << c << ") for a depthwise convolution";
    return *channels;
  }
  if (!isAny(c) && !isAny(i) && c != i * groups)
    return site.emitError()
           << "input channels " << c << " ≠ weight in-channels × groups (" << i
           << " × " << groups << ")";
  if (!isAny(o) && o % groups != 0)
    return site.emitError() << "weight out-channels " << o
                            << " are not divisible by groups " << groups;
  if (!channels)
    return o;
  if (failed(unifyDim(*channels, o)))
    return site.emitError() << "channels attribute " << *channels
                            << " ≠ weight out-channels " << o;
  return *channels;
}

//===----------------------------------------------------------------------===//
// Conv: N-d convolution (nn.conv1d, nn.conv2d, nn.conv3d)
//===----------------------------------------------------------------------===//

FailureOr<Type>
relay::inferConv(ErrorSite site, Type dataType, Type weightType, unsigned n,
                 bool depthwiseConvention, ArrayRef<int64_t> strides,
                 ArrayRef<int64_t> padding, ArrayRef<int64_t> dilation,
                 int64_t groups, std::optional<int64_t> channels,
                 std::optional<ArrayRef<int64_t>> kernelSize,
                 StringRef dataLayout, StringRef kernelLayout,
                 StringRef outLayout, std::optional<Type> outDtype) {
  std::string dataCanon = ("NC" + spatialLetters(n)).str();
  std::string kernelCanon = ("OI" + spatialLetters(n)).str();
  if (outLayout.empty())
    outLayout = dataLayout;
  auto dl = layoutDims(site, dataLayout, dataCanon, "data_layout");
  if (failed(dl))
    return failure();
  auto kl = layoutDims(site, kernelLayout, kernelCanon, "kernel_layout");
  if (failed(kl))
    return failure();
  auto ol = layoutDims(site, outLayout, dataCanon, "out_layout");
  if (failed(ol))
    return failure();
  FailureOr<RankedTensorType> data =
      tensorTypeOfRank(site, dataType, "data", n + 2);
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> weight =
      tensorTypeOfRank(site, weightType, "weight", n + 2);
  if (failed(weight))
    return failure();
  if (failed(checkArray(site, "strides", strides, n)) ||
      failed(checkArray(site, "dilation", dilation, n)))
    return failure();
  FailureOr<SpatialPadding> pad = spatialPadding(site, padding, n);
  if (failed(pad))
    return failure();
  if (groups < 1)
    return site.emitError() << "groups must be >= 1, got " << groups;
  if (channels && *channels < 1)
    return site.emitError() << "channels must be >= 1, got " << *channels;
  if (kernelSize && failed(checkArray(site, "kernel_size", *kernelSize, n)))
    return failure();

  // Dims in canonical order: data N, C, spatial... and weight O, I, spatial...
  auto dataDim = [&](size_t i) { return data->getDimSize((*dl)[i]); };
  auto weightDim = [&](size_t i) { return weight->getDimSize((*kl)[i]); };
  int64_t batch = dataDim(0), c = dataDim(1);
  int64_t o = weightDim(0), i = weightDim(1);
  if (!isAny(c) && c % groups != 0)
    return site.emitError() << "input channels " << c
                            << " are not divisible by groups " << groups;
  FailureOr<int64_t> outChannels =
      convOutChannels(site, c, o, i, groups, channels, kernelSize.has_value(),
                      depthwiseConvention);
  if (failed(outChannels))
    return failure();
  SmallVector<int64_t, 3> kernel;
  for (unsigned d = 0; d < n; ++d)
    kernel.push_back(weightDim(2 + d));
  if (failed(applyKernelSize(site, kernelSize, kernel, kernelLayout)))
    return failure();
  if (failed(checkDilatedKernel(site, kernel, dilation, spatialLetters(n))))
    return failure();
  SmallVector<int64_t> canon = {batch, *outChannels};
  for (unsigned d = 0; d < n; ++d) {
    int64_t in = dataDim(2 + d);
    int64_t out = windowOutputSize(in, kernel[d], strides[d], dilation[d],
                                   pad->before[d], pad->after[d]);
    if (!isAny(out) && out < 1)
      return windowDoesNotFit(site, n, d, in, out,
                              pad->before[d] + pad->after[d], "kernel",
                              dilatedWindowSize(kernel[d], dilation[d]));
    canon.push_back(out);
  }
  FailureOr<Type> dtype = resultDtype(site, outDtype, data->getElementType());
  if (failed(dtype))
    return failure();
  return inLayout(canon, *ol, *dtype);
}

//===----------------------------------------------------------------------===//
// Conv2DTranspose
//===----------------------------------------------------------------------===//

FailureOr<Type> relay::inferConvTranspose(
    ErrorSite site, unsigned n, Type dataType, Type weightType,
    ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
    ArrayRef<int64_t> dilation, int64_t groups, std::optional<int64_t> channels,
    std::optional<ArrayRef<int64_t>> kernelSize, StringRef dataLayout,
    StringRef kernelLayout, StringRef outLayout, ArrayRef<int64_t> outPad,
    std::optional<Type> outDtype) {
  StringRef sp = spatialLetters(n);
  std::string dataCanon = ("NC" + sp).str(), kernelCanon = ("IO" + sp).str();
  if (outLayout.empty())
    outLayout = dataLayout;
  auto dl = layoutDims(site, dataLayout, dataCanon, "data_layout");
  if (failed(dl))
    return failure();
  // Canonical order I, O, spatial (Relay's default kernel layout IOHW).
  auto kl = layoutDims(site, kernelLayout, kernelCanon, "kernel_layout");
  if (failed(kl))
    return failure();
  auto ol = layoutDims(site, outLayout, dataCanon, "out_layout");
  if (failed(ol))
    return failure();
  FailureOr<RankedTensorType> data =
      tensorTypeOfRank(site, dataType, "data", n + 2);
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> weight =
      tensorTypeOfRank(site, weightType, "weight", n + 2);
  if (failed(weight))
    return failure();
  if (failed(checkArray(site, "strides", strides, n)) ||
      failed(checkArray(site, "dilation", dilation, n)) ||
      failed(checkArray(site, "output_padding", outPad, n, 0)))
    return failure();
  FailureOr<SpatialPadding> pad = spatialPadding(site, padding, n);
  if (failed(pad))
    return failure();
  if (groups < 1)
    return site.emitError() << "groups must be >= 1, got " << groups;
  for (unsigned d = 0; d < n; ++d)
    if (outPad[d] >= std::max(strides[d], dilation[d]))
      return site.emitError()
             << "output_padding " << shapeStr(outPad)
             << " must be smaller than the strides or the dilation";

  auto dataDim = [&](int i) { return data->getDimSize((*dl)[i]); };
  auto weightDim = [&](int i) { return weight->getDimSize((*kl)[i]); };
  int64_t batch = dataDim(0), c = dataDim(1);
  int64_t wi = weightDim(0), wo = weightDim(1);
  if (!isAny(c) && c % groups != 0)
    return site.emitError() << "input channels " << c
                            << " are not divisible by groups " << groups;
  if (failed(unifyDim(c, wi))) {
    std::string kernelDims;
    for (char l : sp)
      kernelDims += (kernelDims.empty() ? "K" : ", K") + std::string(1, l);
    return site.emitError()
           << "input channels " << c << " ≠ weight in-channels " << wi
           << " (weight is [in, out / groups, " << kernelDims << "] in "
           << kernelLayout << ")";
  }
  FailureOr<int64_t> outChannelsOr =
      mulDims(site, wo, groups, "weight out-channels × groups:");
  if (failed(outChannelsOr))
    return failure();
  int64_t outChannels = *outChannelsOr;
  if (channels) {
    if (*channels < 1)
      return site.emitError() << "channels must be >= 1, got " << *channels;
    if (failed(unifyDim(*channels, outChannels)))
      return site.emitError() << "channels attribute " << *channels
                              << " ≠ weight out-channels × groups ("
                              << dimStr(wo) << " × " << groups << ")";
    outChannels = *channels;
  }
  SmallVector<int64_t, 3> kernel;
  for (unsigned d = 0; d < n; ++d)
    kernel.push_back(weightDim(2 + d));
  if (failed(applyKernelSize(site, kernelSize, kernel, kernelLayout)))
    return failure();
  if (failed(checkDilatedKernel(site, kernel, dilation, sp)))
    return failure();
  SmallVector<int64_t> canon = {batch, outChannels};
  for (unsigned d = 0; d < n; ++d) {
    int64_t in = dataDim(2 + d);
    int64_t out = kAny;
    if (!isAny(in) && !isAny(kernel[d]))
      out = (in - 1) * strides[d] - pad->before[d] - pad->after[d] +
            dilation[d] * (kernel[d] - 1) + outPad[d] + 1;
    if (!isAny(out) && out < 1)
      return site.emitError()
             << "output size along " << sp.substr(d, 1) << " would be " << out
             << ": the padding exceeds the transposed window";
    canon.push_back(out);
  }
  FailureOr<Type> dtype = resultDtype(site, outDtype, data->getElementType());
  if (failed(dtype))
    return failure();
  return inLayout(canon, *ol, *dtype);
}

//===----------------------------------------------------------------------===//
// BlockedConv2D: nn.contrib_conv2d_NCHWc, nn.contrib_depthwise_conv2d_NCHWc
//===----------------------------------------------------------------------===//

/// The block factor `n` of a data layout `NCHW{n}c` (`what` names the
/// attribute).
static FailureOr<int64_t> channelBlock(ErrorSite site, StringRef layout,
                                       StringRef what) {
  StringRef digits = layout;
  int64_t n = 0;
  if (!digits.consume_front("NCHW") || !digits.consume_back("c") ||
      digits.getAsInteger(10, n) || n < 1)
    return site.emitError() << what << " \"" << layout
                            << "\" is not supported (expected NCHW<n>c with "
                               "n >= 1, e.g. NCHW8c)";
  return n;
}

/// The block factors (in, out) of a kernel layout `OIHW{n}i{m}o`.
static FailureOr<std::pair<int64_t, int64_t>> kernelBlocks(ErrorSite site,
                                                           StringRef layout) {
  StringRef rest = layout;
  int64_t in = 0, out = 0;
  bool ok = rest.consume_front("OIHW") && rest.consume_back("o");
  auto [inDigits, outDigits] = rest.split('i');
  if (!ok || inDigits.getAsInteger(10, in) || outDigits.getAsInteger(10, out) ||
      in < 1 || out < 1)
    return site.emitError() << "kernel_layout \"" << layout
                            << "\" is not supported (expected OIHW<n>i<m>o "
                               "with n, m >= 1, e.g. OIHW8i8o)";
  return std::make_pair(in, out);
}

/// Checks that the inner block dims (the last `blocks.size()`) of `type` are
/// `blocks`, as `layout` (of the operand `what`) says.
static LogicalResult checkInnerBlocks(ErrorSite site, RankedTensorType type,
                                      ArrayRef<int64_t> blocks, StringRef what,
                                      StringRef layout) {
  int64_t first = type.getRank() - static_cast<int64_t>(blocks.size());
  for (auto [k, block] : llvm::enumerate(blocks)) {
    int64_t dim = type.getDimSize(first + k);
    if (!isAny(dim) && dim != block)
      return site.emitError()
             << what << " dim " << first + k << " is " << dim
             << ", but its layout " << layout << " says " << block;
  }
  return success();
}

FailureOr<Type> relay::inferBlockedConv2D(
    ErrorSite site, Type dataType, Type weightType, ArrayRef<int64_t> strides,
    ArrayRef<int64_t> padding, ArrayRef<int64_t> dilation, int64_t groups,
    std::optional<int64_t> channels,
    std::optional<ArrayRef<int64_t>> kernelSize, StringRef dataLayout,
    StringRef kernelLayout, StringRef outLayout, std::optional<Type> outDtype) {
  if (outLayout.empty())
    outLayout = dataLayout;
  FailureOr<int64_t> c = channelBlock(site, dataLayout, "data_layout");
  if (failed(c))
    return failure();
  FailureOr<std::pair<int64_t, int64_t>> io = kernelBlocks(site, kernelLayout);
  if (failed(io))
    return failure();
  FailureOr<int64_t> oc = channelBlock(site, outLayout, "out_layout");
  if (failed(oc))
    return failure();
  FailureOr<RankedTensorType> data =
      tensorTypeOfRank(site, dataType, "data", 5);
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> weight =
      tensorTypeOfRank(site, weightType, "weight", 6);
  if (failed(weight))
    return failure();
  if (failed(checkInnerBlocks(site, *data, {*c}, "data", dataLayout)) ||
      failed(checkInnerBlocks(site, *weight, {io->first, io->second}, "weight",
                              kernelLayout)))
    return failure();
  // nn.conv2d's rule on the unblocked operands (NCHW, OIHW).
  ArrayRef<int64_t> d = data->getShape(), w = weight->getShape();
  FailureOr<int64_t> inChannels = mulDims(site, d[1], *c, "data channels");
  FailureOr<int64_t> outs = mulDims(site, w[0], io->second, "weight O");
  FailureOr<int64_t> ins = mulDims(site, w[1], io->first, "weight I");
  if (failed(inChannels) || failed(outs) || failed(ins))
    return failure();
  auto plainData = RankedTensorType::get({d[0], *inChannels, d[2], d[3]},
                                         data->getElementType());
  auto plainWeight = RankedTensorType::get({*outs, *ins, w[2], w[3]},
                                           weight->getElementType());
  FailureOr<Type> plain = inferConv(
      site, plainData, plainWeight, 2, /*depthwise=*/true, strides, padding,
      dilation, groups, channels, kernelSize, "NCHW", "OIHW", "NCHW", outDtype);
  if (failed(plain))
    return failure();
  auto result = cast<RankedTensorType>(*plain);
  ArrayRef<int64_t> r = result.getShape();
  if (!isAny(r[1]) && r[1] % *oc != 0)
    return site.emitError()
           << "output channels " << r[1] << " do not split into blocks of "
           << *oc << " (out_layout " << outLayout << ")";
  int64_t blocks = isAny(r[1]) ? kAny : r[1] / *oc;
  return Type(RankedTensorType::get({r[0], blocks, r[2], r[3], *oc},
                                    result.getElementType()));
}
