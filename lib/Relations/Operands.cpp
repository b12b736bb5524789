//===- Operands.cpp - operand types implied by operators ------------------===//
//
// TVM's type relations type operands as well as results: a weight created
// without a type (`relay.var("weight")`) gets the type its operator implies
// from the data operand's type and the attributes (Conv2DRel, DenseRel,
// BiasAddRel, BatchNormRel, ... in src/relay/op/nn/*.cc, "assign" branch).
// These rules do the same for relay-infer-type (inferOperandTypes,
// relay/RelayImpliedOperands.h); the typing rules then check the completed
// operands as usual. Shapes measured with TVM 0.19 (InferType of untyped
// operands) are recorded in test/python/test_infer_untyped_operands.py.
//
//===----------------------------------------------------------------------===//
#include "NNUtils.h"
#include "relay/RelayImpliedOperands.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

namespace {

/// The implied operand type `shape` x `elem`, or an error at `site` when an
/// attribute gave a negative size (`units = -1`: fuzz_mlir mutant 14:43
/// aborted in RankedTensorType::get).
static FailureOr<Type> impliedTensor(ErrorSite site, StringRef what,
                                     ArrayRef<int64_t> shape, Type elem) {
  for (int64_t d : shape)
    if (d < 0 && !ShapedType::isDynamic(d))
      return site.emitError()
             << "cannot infer the type of the untyped operand '" << what
             << "': its size " << d << " from the attributes is negative";
  return Type(RankedTensorType::get(shape, elem));
}

/// A convolution's attributes that decide its weight's type.
struct ConvWeightAttrs {
  unsigned spatialRank;
  bool transposed;       // nn.conv2d_transpose: canonical IOHW
  bool groupsNeedWeight; // nn.conv2d/conv3d: groups > 1 needs a typed weight
  int64_t groups;
  std::optional<int64_t> channels;
  std::optional<ArrayRef<int64_t>> kernelSize;
  StringRef dataLayout, kernelLayout;
};

template <typename ConvOp>
ConvWeightAttrs convAttrs(ConvOp op, unsigned spatialRank, bool transposed,
                          bool groupsNeedWeight) {
  // I64 attributes read back as uint64_t; negative values come back intact.
  return {spatialRank,        transposed,
          groupsNeedWeight,   static_cast<int64_t>(op.getGroups()),
          op.getChannels(),   op.getKernelSize(),
          op.getDataLayout(), op.getKernelLayout()};
}

} // namespace

/// The weight of a convolution over `data`: canonically
/// [channels, C / groups, kernel_size...] (OIHW; TVM's Conv1D/2D/3DRel) or,
/// transposed, [C, channels / groups, kernel_size...] (IOHW;
/// Conv2DTransposeRel), laid out as `kernel_layout` says, of data's dtype.
/// TVM 0.19 needs both `channels` and `kernel_size`, and nn.conv2d/conv3d
/// also groups = 1 ("Weight shape must be specified when groups is greater
/// than 1").
static FailureOr<Type> convWeight(ErrorSite site, RankedTensorType data,
                                  const ConvWeightAttrs &a) {
  if (!a.channels || !a.kernelSize)
    return site.emitError()
           << "cannot infer the type of the untyped operand 'weight': give "
              "the attributes `channels` and `kernel_size` (TVM infers a "
              "weight from both) or a typed weight";
  if (a.groupsNeedWeight && a.groups > 1)
    return site.emitError()
           << "cannot infer the type of the untyped operand 'weight' with "
              "groups = "
           << a.groups
           << " (TVM: weight shape must be specified when groups is greater "
              "than 1); give a typed weight";
  unsigned n = a.spatialRank;
  std::string spatial = spatialLetters(n).str();
  auto dl = layoutDims(site, a.dataLayout, "NC" + spatial, "data_layout");
  if (failed(dl))
    return failure();
  auto kl = layoutDims(site, a.kernelLayout,
                       (a.transposed ? "IO" : "OI") + spatial, "kernel_layout");
  if (failed(kl))
    return failure();
  if (data.getRank() != n + 2)
    return site.emitError()
           << "operand 'data' must have rank " << n + 2 << ", got " << data;
  if (failed(checkArray(site, "kernel_size", *a.kernelSize, n)))
    return failure();
  if (a.groups < 1 || *a.channels < 1)
    return site.emitError() << "groups and channels must be >= 1, got "
                            << a.groups << " and " << *a.channels;
  int64_t c = data.getDimSize((*dl)[1]);
  int64_t grouped = a.transposed ? *a.channels : c;
  if (!isAny(grouped) && grouped % a.groups != 0)
    return site.emitError()
           << (a.transposed ? "channels " : "input channels ") << grouped
           << " are not divisible by groups " << a.groups;
  int64_t perGroup = isAny(grouped) ? kAny : grouped / a.groups;
  // Canonical order: O, I, spatial... (or I, O, spatial... transposed).
  SmallVector<int64_t> canon = {a.transposed ? c : *a.channels, perGroup};
  llvm::append_range(canon, *a.kernelSize);
  SmallVector<int64_t> shape(canon.size());
  for (auto [d, pos] : llvm::enumerate(*kl))
    shape[pos] = canon[d];
  return impliedTensor(site, "weight", shape, data.getElementType());
}

/// nn.dense's weight [units, k] (DenseRel), nn.matmul's tensor_b [k, units]
/// or, with transpose_b, [units, k] (MatmulRel); k is data's last dim, or
/// its second-to-last with transpose_a. TVM 0.19 needs `units`.
static FailureOr<Type> matmulWeight(ErrorSite site, RankedTensorType data,
                                    std::optional<int64_t> units,
                                    bool transposeA, bool transposeB,
                                    StringRef what) {
  if (!units)
    return site.emitError()
           << "cannot infer the type of the untyped operand '" << what
           << "': give the attribute `units` (TVM infers "
              "the weight from it) or a typed "
           << what;
  int64_t minRank = transposeA ? 2 : 1;
  if (data.getRank() < minRank)
    return site.emitError() << "operand 'data' must have rank >= " << minRank
                            << ", got " << data;
  int64_t k = data.getDimSize(data.getRank() - (transposeA ? 2 : 1));
  SmallVector<int64_t> shape = transposeB ? SmallVector<int64_t>{*units, k}
                                          : SmallVector<int64_t>{k, *units};
  return impliedTensor(site, what, shape, data.getElementType());
}

/// A 1-D vector of data's size on `axis`, of data's dtype: nn.bias_add's
/// bias, nn.prelu's alpha, the norms' gamma/beta and nn.batch_norm's moving
/// statistics (BiasAddRel, PReluRel, BatchNormRel, LayerNormRel, ...).
static FailureOr<Type> axisVector(ErrorSite site, RankedTensorType data,
                                  int64_t axis) {
  FailureOr<int64_t> dim = normalizeAxis(site, axis, data.getRank());
  if (failed(dim))
    return failure();
  return Type(
      RankedTensorType::get({data.getDimSize(*dim)}, data.getElementType()));
}

FailureOr<SmallVector<Type>>
relay::inferOperandTypes(ErrorSite site, Operation *op,
                         ArrayRef<Type> operandTypes) {
  SmallVector<Type> implied(operandTypes.size());
  // Every operator here implies its other operands from its first, `data`.
  auto data = operandTypes.empty()
                  ? RankedTensorType()
                  : dyn_cast<RankedTensorType>(operandTypes.front());
  if (!data)
    return implied;
  bool broken = false;
  // Sets implied[i] from `rule` when operand `i` is unknown.
  auto imply = [&](unsigned i, llvm::function_ref<FailureOr<Type>()> rule) {
    if (broken || i >= operandTypes.size() ||
        !isa<IncompleteType>(operandTypes[i]))
      return;
    FailureOr<Type> type = rule();
    if (failed(type))
      broken = true;
    else
      implied[i] = *type;
  };
  auto vectors = [&](ArrayRef<unsigned> operands, int64_t axis) {
    for (unsigned i : operands)
      imply(i, [&] { return axisVector(site, data, axis); });
  };
  auto conv = [&](const ConvWeightAttrs &attrs) {
    imply(1, [&] { return convWeight(site, data, attrs); });
  };
  TypeSwitch<Operation *>(op)
      .Case([&](Conv1DOp o) { conv(convAttrs(o, 1, false, false)); })
      .Case([&](Conv2DOp o) { conv(convAttrs(o, 2, false, true)); })
      .Case([&](Conv3DOp o) { conv(convAttrs(o, 3, false, true)); })
      .Case([&](Conv2DTransposeOp o) { conv(convAttrs(o, 2, true, false)); })
      .Case([&](DenseOp o) {
        imply(1, [&] {
          return matmulWeight(site, data, o.getUnits(), false, true, "weight");
        });
      })
      .Case([&](MatmulOp o) {
        imply(1, [&] {
          return matmulWeight(site, data, o.getUnits(), o.getTransposeA(),
                              o.getTransposeB(), "tensor_b");
        });
      })
      .Case([&](BiasAddOp o) { vectors({1}, o.getAxis()); })
      .Case([&](PReluOp o) { vectors({1}, o.getAxis()); })
      .Case([&](BatchNormOp o) { vectors({1, 2, 3, 4}, o.getAxis()); })
      .Case<LayerNormOp, InstanceNormOp, GroupNormOp>(
          [&](auto o) { vectors({1, 2}, o.getAxis()); });
  if (broken)
    return failure();
  return implied;
}
