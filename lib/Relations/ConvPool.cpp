//===- ConvPool.cpp - relations of N-d windowed nn.* operators ------------===//
//
// Conv (nn.conv1d, nn.conv2d, nn.conv3d), Conv2DTranspose, Pool
// (nn.{max,avg}_pool1d, nn.{max,avg}_pool3d) and AdaptivePool2D, with Relay's
// semantics (src/relay/op/nn/{convolution,pooling}.cc): the same attributes,
// defaults and output-size formulas; `?` dims propagate.
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

namespace {

/// Relay's N-d padding: 1 entry (all sides), N (symmetric per dim) or 2N
/// (all befores, then all afters). Entries must be >= 0.
FailureOr<std::pair<SmallVector<int64_t, 3>, SmallVector<int64_t, 3>>>
paddingND(Operation *op, ArrayRef<int64_t> padding, size_t n) {
  for (int64_t pad : padding)
    if (pad < 0)
      return op->emitOpError() << "padding entries must be >= 0, got " << pad;
  SmallVector<int64_t, 3> before(n), after(n);
  if (padding.size() == 1) {
    before.assign(n, padding[0]);
    after.assign(n, padding[0]);
  } else if (padding.size() == n) {
    before.assign(padding.begin(), padding.end());
    after.assign(padding.begin(), padding.end());
  } else if (padding.size() == 2 * n) {
    before.assign(padding.begin(), padding.begin() + n);
    after.assign(padding.begin() + n, padding.end());
  } else {
    return op->emitOpError() << "padding must have 1, " << n << " or "
                             << 2 * n << " entries, got " << padding.size();
  }
  return std::make_pair(before, after);
}

/// Letters of the spatial dims of an N-d layout (N = 1, 2 or 3).
StringRef spatialLetters(size_t n) {
  return n == 1 ? "W" : n == 2 ? "HW" : "DHW";
}

/// Number of spatial dims of an N-d conv or pool op.
size_t spatialRank(Operation *op) {
  if (isa<Conv1DOp, MaxPool1DOp, AvgPool1DOp>(op))
    return 1;
  if (isa<Conv2DOp, Conv2DTransposeOp>(op))
    return 2;
  return 3;
}

} // namespace

//===----------------------------------------------------------------------===//
// Conv: N-d convolution (nn.conv1d, nn.conv2d, nn.conv3d)
//===----------------------------------------------------------------------===//

/// One relation for every N-d convolution; nn.conv2d adds Relay's depthwise
/// convention and names its output dims "height"/"width" in diagnostics.
LogicalResult rel::ConvRel(Operation *op, TypeRange operands,
                           SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 2)))
    return failure();
  bool is2D = isa<Conv2DOp>(op);
  size_t n = spatialRank(op);
  std::string dataCanon = ("NC" + spatialLetters(n)).str();
  std::string kernelCanon = ("OI" + spatialLetters(n)).str();
  StringRef dataLayout = attrStr(op, "data_layout");
  StringRef kernelLayout = attrStr(op, "kernel_layout");
  StringRef outLayout = attrStr(op, "out_layout");
  if (outLayout.empty())
    outLayout = dataLayout;
  auto dl = parseLayout(op, dataLayout, dataCanon, "data_layout");
  if (failed(dl))
    return failure();
  auto kl = parseLayout(op, kernelLayout, kernelCanon, "kernel_layout");
  if (failed(kl))
    return failure();
  auto ol = parseLayout(op, outLayout, dataCanon, "out_layout");
  if (failed(ol))
    return failure();
  FailureOr<RankedTensorType> data =
      tensorOperandOfRank(op, operands, 0, "data", n + 2);
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> weight =
      tensorOperandOfRank(op, operands, 1, "weight", n + 2);
  if (failed(weight))
    return failure();
  FailureOr<ArrayRef<int64_t>> strides = attrI64ArrayOfSize(op, "strides", n);
  if (failed(strides))
    return failure();
  FailureOr<ArrayRef<int64_t>> dilation = attrI64ArrayOfSize(op, "dilation", n);
  if (failed(dilation))
    return failure();
  auto pad = paddingND(op, *attrI64Array(op, "padding"), n);
  if (failed(pad))
    return failure();
  int64_t groups = *attrI64(op, "groups");
  if (groups < 1)
    return op->emitOpError() << "groups must be >= 1, got " << groups;
  std::optional<int64_t> channels = attrI64(op, "channels");
  if (channels && *channels < 1)
    return op->emitOpError() << "channels must be >= 1, got " << *channels;
  std::optional<ArrayRef<int64_t>> kernelSize;
  if (attrI64Array(op, "kernel_size")) {
    FailureOr<ArrayRef<int64_t>> ks = attrI64ArrayOfSize(op, "kernel_size", n);
    if (failed(ks))
      return failure();
    kernelSize = *ks;
  }

  // Dims in canonical order: data N, C, spatial... and weight O, I, spatial...
  auto dataDim = [&](size_t i) { return data->getDimSize((*dl)[i]); };
  auto weightDim = [&](size_t i) { return weight->getDimSize((*kl)[i]); };
  int64_t batch = dataDim(0), c = dataDim(1);
  int64_t o = weightDim(0), i = weightDim(1);
  if (!isAny(c) && c % groups != 0)
    return op->emitOpError() << "input channels " << c
                             << " are not divisible by groups " << groups;
  int64_t outChannels;
  // Relay's depthwise convention (nn.conv2d only): with groups = input
  // channels = weight out-channels and both `channels` and `kernel_size`
  // given, the weight (read in OIHW order) is [C, channels / C, KH, KW],
  // e.g. TensorFlow's depthwise kernels in HWOI.
  bool depthwise = is2D && groups > 1 && c == groups && o == groups;
  if (depthwise && channels && kernelSize) {
    if (*channels % c != 0)
      return op->emitOpError()
             << "channels " << *channels
             << " must be a multiple of the input channels " << c
             << " for a depthwise convolution (groups = " << groups << ")";
    if (failed(unifyDim(i, *channels / c)))
      return op->emitOpError()
             << "weight in-channels " << i << " ≠ channels / input channels ("
             << *channels << " / " << c << ") for a depthwise convolution";
    outChannels = *channels;
  } else {
    if (!isAny(c) && !isAny(i) && c != i * groups)
      return op->emitOpError() << "input channels " << c
                               << " ≠ weight in-channels × groups (" << i
                               << " × " << groups << ")";
    if (!isAny(o) && o % groups != 0)
      return op->emitOpError() << "weight out-channels " << o
                               << " are not divisible by groups " << groups;
    outChannels = o;
    if (channels) {
      if (failed(unifyDim(*channels, o)))
        return op->emitOpError() << "channels attribute " << *channels
                                 << " ≠ weight out-channels " << o;
      outChannels = *channels;
    }
  }
  SmallVector<int64_t, 3> kernel;
  for (size_t d = 0; d < n; ++d)
    kernel.push_back(weightDim(2 + d));
  if (kernelSize) {
    for (size_t d = 0; d < n; ++d)
      if (failed(unifyDim((*kernelSize)[d], kernel[d])))
        return op->emitOpError()
               << "kernel_size " << shapeStr(*kernelSize)
               << " ≠ weight spatial dims " << shapeStr(kernel) << " (layout "
               << kernelLayout << ")";
    kernel.assign(kernelSize->begin(), kernelSize->end());
  }
  SmallVector<int64_t> canon = {batch, outChannels};
  for (size_t d = 0; d < n; ++d) {
    int64_t in = dataDim(2 + d);
    int64_t out = windowOutput(in, kernel[d], (*strides)[d], (*dilation)[d],
                               pad->first[d], pad->second[d]);
    if (!isAny(out) && out < 1) {
      // nn.conv2d says "height"/"width"; the others "size (along D)".
      std::string dim = is2D ? (d == 0 ? "height" : "width") : "size";
      std::string along =
          is2D ? "" : (" along " + spatialLetters(n).substr(d, 1)).str();
      return op->emitOpError()
             << "output " << dim << along << " would be " << out << ": input "
             << dim << " " << in << " + padding "
             << pad->first[d] + pad->second[d]
             << " is smaller than the dilated kernel " << dim << " "
             << (kernel[d] - 1) * (*dilation)[d] + 1;
    }
    canon.push_back(out);
  }
  FailureOr<Type> dtype = outDtype(op, data->getElementType());
  if (failed(dtype))
    return failure();
  SmallVector<int64_t> shape(n + 2);
  for (size_t d = 0; d < n + 2; ++d)
    shape[(*ol)[d]] = canon[d];
  results.push_back(RankedTensorType::get(shape, *dtype));
  return success();
}

LogicalResult rel::Conv2DRel(Operation *op, TypeRange operands,
                             SmallVectorImpl<Type> &results) {
  return ConvRel(op, operands, results);
}

//===----------------------------------------------------------------------===//
// Conv2DTranspose
//===----------------------------------------------------------------------===//

LogicalResult rel::Conv2DTransposeRel(Operation *op, TypeRange operands,
                                      SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 2)))
    return failure();
  StringRef dataLayout = attrStr(op, "data_layout");
  StringRef kernelLayout = attrStr(op, "kernel_layout");
  StringRef outLayout = attrStr(op, "out_layout");
  if (outLayout.empty())
    outLayout = dataLayout;
  auto dl = parseLayout(op, dataLayout, "NCHW", "data_layout");
  if (failed(dl))
    return failure();
  // Canonical order I, O, H, W (Relay's default kernel layout IOHW).
  auto kl = parseLayout(op, kernelLayout, "IOHW", "kernel_layout");
  if (failed(kl))
    return failure();
  auto ol = parseLayout(op, outLayout, "NCHW", "out_layout");
  if (failed(ol))
    return failure();
  FailureOr<RankedTensorType> data =
      tensorOperandOfRank(op, operands, 0, "data", 4);
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> weight =
      tensorOperandOfRank(op, operands, 1, "weight", 4);
  if (failed(weight))
    return failure();
  FailureOr<ArrayRef<int64_t>> strides = attrI64ArrayOfSize(op, "strides", 2);
  if (failed(strides))
    return failure();
  FailureOr<ArrayRef<int64_t>> dilation = attrI64ArrayOfSize(op, "dilation", 2);
  if (failed(dilation))
    return failure();
  FailureOr<ArrayRef<int64_t>> outPad =
      attrI64ArrayOfSize(op, "output_padding", 2, 0);
  if (failed(outPad))
    return failure();
  FailureOr<SmallVector<int64_t, 4>> pad =
      padding2D(op, *attrI64Array(op, "padding"));
  if (failed(pad))
    return failure();
  int64_t groups = *attrI64(op, "groups");
  if (groups < 1)
    return op->emitOpError() << "groups must be >= 1, got " << groups;
  for (int d = 0; d < 2; ++d)
    if ((*outPad)[d] >= std::max((*strides)[d], (*dilation)[d]))
      return op->emitOpError()
             << "output_padding " << shapeStr(*outPad)
             << " must be smaller than the strides or the dilation";

  auto dataDim = [&](int i) { return data->getDimSize((*dl)[i]); };
  auto weightDim = [&](int i) { return weight->getDimSize((*kl)[i]); };
  int64_t batch = dataDim(0), c = dataDim(1);
  int64_t wi = weightDim(0), wo = weightDim(1);
  if (!isAny(c) && c % groups != 0)
    return op->emitOpError() << "input channels " << c
                             << " are not divisible by groups " << groups;
  if (failed(unifyDim(c, wi)))
    return op->emitOpError() << "input channels " << c
                             << " ≠ weight in-channels " << wi
                             << " (weight is [in, out / groups, KH, KW] in "
                             << kernelLayout << ")";
  int64_t outChannels = mulDims(wo, groups);
  if (std::optional<int64_t> channels = attrI64(op, "channels")) {
    if (*channels < 1)
      return op->emitOpError() << "channels must be >= 1, got " << *channels;
    if (failed(unifyDim(*channels, outChannels)))
      return op->emitOpError()
             << "channels attribute " << *channels
             << " ≠ weight out-channels × groups (" << dimStr(wo) << " × "
             << groups << ")";
    outChannels = *channels;
  }
  int64_t kernel[2] = {weightDim(2), weightDim(3)};
  if (attrI64Array(op, "kernel_size")) {
    FailureOr<ArrayRef<int64_t>> ks = attrI64ArrayOfSize(op, "kernel_size", 2);
    if (failed(ks))
      return failure();
    if (failed(unifyDim((*ks)[0], kernel[0])) ||
        failed(unifyDim((*ks)[1], kernel[1])))
      return op->emitOpError()
             << "kernel_size " << shapeStr(*ks) << " ≠ weight spatial dims "
             << shapeStr(kernel) << " (layout " << kernelLayout << ")";
    kernel[0] = (*ks)[0];
    kernel[1] = (*ks)[1];
  }
  SmallVector<int64_t> canon = {batch, outChannels};
  for (int d = 0; d < 2; ++d) {
    int64_t in = dataDim(2 + d);
    int64_t out = kAny;
    if (!isAny(in) && !isAny(kernel[d]))
      out = (in - 1) * (*strides)[d] - (*pad)[d] - (*pad)[d + 2] +
            (*dilation)[d] * (kernel[d] - 1) + (*outPad)[d] + 1;
    if (!isAny(out) && out < 1)
      return op->emitOpError() << "output size along "
                               << StringRef("HW").substr(d, 1)
                               << " would be " << out
                               << ": the padding exceeds the transposed "
                                  "window";
    canon.push_back(out);
  }
  FailureOr<Type> dtype = outDtype(op, data->getElementType());
  if (failed(dtype))
    return failure();
  SmallVector<int64_t> shape(4);
  for (int d = 0; d < 4; ++d)
    shape[(*ol)[d]] = canon[d];
  results.push_back(RankedTensorType::get(shape, *dtype));
  return success();
}

//===----------------------------------------------------------------------===//
// Pool: N-d max/avg pooling (N = 1, 3)
//===----------------------------------------------------------------------===//

LogicalResult rel::PoolRel(Operation *op, TypeRange operands,
                           SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 1)))
    return failure();
  size_t n = spatialRank(op);
  std::string canonical = ("NC" + spatialLetters(n)).str();
  StringRef layout = attrStr(op, "layout");
  auto l = parseLayout(op, layout, canonical, "layout");
  if (failed(l))
    return failure();
  StringRef outLayout = attrStr(op, "out_layout");
  if (!outLayout.empty() && outLayout != layout)
    return op->emitOpError() << "out_layout \"" << outLayout
                             << "\" must be empty or equal to layout \""
                             << layout << "\"";
  FailureOr<RankedTensorType> data =
      tensorOperandOfRank(op, operands, 0, "data", n + 2);
  if (failed(data))
    return failure();
  FailureOr<ArrayRef<int64_t>> poolSize =
      attrI64ArrayOfSize(op, "pool_size", n);
  if (failed(poolSize))
    return failure();
  FailureOr<ArrayRef<int64_t>> strides = attrI64ArrayOfSize(op, "strides", n);
  if (failed(strides))
    return failure();
  FailureOr<ArrayRef<int64_t>> dilation = attrI64ArrayOfSize(op, "dilation", n);
  if (failed(dilation))
    return failure();
  auto pad = paddingND(op, *attrI64Array(op, "padding"), n);
  if (failed(pad))
    return failure();
  bool ceilMode = attrBool(op, "ceil_mode");
  SmallVector<int64_t> shape(data->getShape());
  for (size_t d = 0; d < n; ++d) {
    int64_t pos = (*l)[2 + d];
    int64_t in = shape[pos];
    int64_t out = windowOutput(in, (*poolSize)[d], (*strides)[d],
                               (*dilation)[d], pad->first[d], pad->second[d],
                               ceilMode);
    if (!isAny(out) && out < 1)
      return op->emitOpError()
             << "output size along " << spatialLetters(n).substr(d, 1) << " would be "
             << out << ": input size " << in << " + padding "
             << pad->first[d] + pad->second[d]
             << " is smaller than the dilated pool size "
             << ((*poolSize)[d] - 1) * (*dilation)[d] + 1;
    shape[pos] = out;
  }
  results.push_back(RankedTensorType::get(shape, data->getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// AdaptivePool2D: the spatial dims become output_size
//===----------------------------------------------------------------------===//

LogicalResult rel::AdaptivePool2DRel(Operation *op, TypeRange operands,
                                     SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 1)))
    return failure();
  StringRef layout = attrStr(op, "layout");
  FailureOr<Layout2D> l = parseLayout2D(op, layout, "layout");
  if (failed(l))
    return failure();
  StringRef outLayout = attrStr(op, "out_layout");
  if (!outLayout.empty() && outLayout != layout)
    return op->emitOpError() << "out_layout \"" << outLayout
                             << "\" must be empty or equal to layout \""
                             << layout << "\"";
  FailureOr<RankedTensorType> data =
      tensorOperandOfRank(op, operands, 0, "data", 4);
  if (failed(data))
    return failure();
  ArrayRef<int64_t> size = *attrI64Array(op, "output_size");
  if (size.size() > 2)
    return op->emitOpError() << "output_size must have 0, 1 or 2 entries, got "
                             << size.size();
  for (int64_t s : size)
    if (s < 1)
      return op->emitOpError() << "output_size entries must be >= 1, got "
                               << s;
  SmallVector<int64_t> shape(data->getShape());
  if (size.size() == 1) {
    shape[l->h] = size[0];
    shape[l->w] = size[0];
  } else if (size.size() == 2) {
    shape[l->h] = size[0];
    shape[l->w] = size[1];
  }
  results.push_back(RankedTensorType::get(shape, data->getElementType()));
  return success();
}
