//===- RelayRelations.h - Relay's typing rules ----------------------------===//
//
// A typing rule (Relay's "type relation") maps operand types and typed
// attribute values to the result type of an operator, or reports the rule
// that is broken at an `ErrorSite`. Rules are plain functions, named
// `infer<Rule>` after the op (or the family of ops) they type; the generated
// `inferReturnTypes` of every operator forwards to one of them (see
// `Relay_Operator` in RelayOpBase.td), so the verifier, `relay-infer-type`
// and the type-inferring builders (`AddOp::create(b, loc, x, y)`) all run the
// same code. Definitions live in lib/Relations/<family>.cpp.
//
// Rules are only called with complete operand types (no
// `!relay.incomplete` inside); an op with an incomplete operand infers an
// incomplete result.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_RELAYRELATIONS_H
#define RELAY_RELAYRELATIONS_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/TypeRange.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <variant>

namespace mlir::relay {

/// A broken typing rule being reported: stream the message into it, return
/// it as a failure. Reports when it goes out of scope, if there is a location
/// to report at (otherwise it only carries the failure).
class RuleError {
public:
  explicit RuleError(std::optional<InFlightDiagnostic> diag)
      : diag(std::move(diag)) {}

  template <typename T> RuleError &operator<<(T &&arg) {
    if (diag)
      *diag << std::forward<T>(arg);
    return *this;
  }

  operator LogicalResult() const { return failure(); }
  template <typename T> operator FailureOr<T>() const { return failure(); }

private:
  std::optional<InFlightDiagnostic> diag;
};

/// Where a typing rule reports a broken rule: the op's location (none when
/// a caller only asks whether types can be inferred, e.g. a rewrite probing
/// whether a new op would be valid) and its name, so messages read like
/// `emitOpError`'s: "'relay.nn.conv2d' op operand 'weight' must have rank 4".
class ErrorSite {
public:
  ErrorSite(std::optional<Location> loc, StringRef opName)
      : loc(loc), opName(opName) {}
  /// The site of an existing op.
  ErrorSite(Operation *op)
      : loc(op->getLoc()), opName(op->getName().getStringRef()) {}
  template <typename OpT,
            typename = std::enable_if_t<std::is_base_of_v<OpState, OpT>>>
  ErrorSite(OpT op) : ErrorSite(op.getOperation()) {}

  /// An error at the site (silent without a location).
  RuleError emitError() const {
    if (!loc)
      return RuleError(std::nullopt);
    InFlightDiagnostic diag = mlir::emitError(*loc);
    diag << "'" << opName << "' op ";
    return RuleError(std::move(diag));
  }

  std::optional<Location> getLoc() const { return loc; }
  StringRef getOpName() const { return opName; }

private:
  std::optional<Location> loc;
  StringRef opName;
};

/// `adaptor` with the op's default-valued attributes filled in where absent:
/// an op being built by a caller that passes only some attributes (the C
/// API's type inference, used by the Python builders) has no defaults yet,
/// and typing rules read attributes through the generated accessors.
template <typename OpT>
typename OpT::Adaptor withDefaultAttributes(MLIRContext *context,
                                            typename OpT::Adaptor adaptor) {
  if constexpr (std::is_same_v<typename OpT::Properties, EmptyProperties>) {
    return adaptor;
  } else {
    typename OpT::Properties properties = adaptor.getProperties();
    OpT::populateDefaultProperties(
        OperationName(OpT::getOperationName(), context), properties);
    return typename OpT::Adaptor(adaptor.getOperands(), adaptor.getAttributes(),
                                 properties);
  }
}

/// True if some type in `types` is or contains `!relay.incomplete`.
bool anyIncomplete(TypeRange types);

/// Appends the result of a single-result rule; failure if it failed.
LogicalResult addResult(SmallVectorImpl<Type> &results, FailureOr<Type> result);

/// The shared verifier of every relay operator: its tensor operands and
/// results must have Relay dtypes (bool, int8-64, uint8-64, float16,
/// bfloat16, float32, float64), its typing rule must accept the operands,
/// and the declared result types must be compatible with the inferred ones
/// (equal up to `?` dims and `!relay.incomplete`).
LogicalResult verifyInferredResultTypes(Operation *op);

/// Tensors among `types` (the operands or results of `op`, `what`) must
/// have Relay dtypes.
LogicalResult verifyRelayDtypes(Operation *op, TypeRange types, StringRef what);

/// The verifier of tuple, call and the ref ops: Relay dtypes, and their type
/// equations (checkTypeEquations) hold.
LogicalResult verifyTypeEquationsOp(Operation *op);

//===----------------------------------------------------------------------===//
// Elementwise (lib/Relations/Elementwise.cpp)
//===----------------------------------------------------------------------===//

/// The result is the operand (unary elementwise ops).
FailureOr<Type> inferIdentity(ErrorSite site, Type data);
/// The operand's shape with a bool dtype (isnan, isinf, isfinite).
FailureOr<Type> inferIdentityBool(ErrorSite site, Type data);
/// The operand, after checking that `axis` is one of its dims.
FailureOr<Type> inferAxisIdentity(ErrorSite site, Type data, int64_t axis);
/// numpy broadcasting of two operands of one dtype.
FailureOr<Type> inferBroadcast(ErrorSite site, Type lhs, Type rhs);
/// Broadcasting with a bool result (comparisons).
FailureOr<Type> inferBroadcastBool(ErrorSite site, Type lhs, Type rhs);
/// Three-way broadcast of condition, x and y; x's dtype.
FailureOr<Type> inferWhere(ErrorSite site, Type condition, Type x, Type y);
/// `data`'s shape with dtype `dtype`.
FailureOr<Type> inferCast(ErrorSite site, Type data, Type dtype);
/// `data`'s shape with the dtype of `dtypeLike`.
FailureOr<Type> inferCastLike(ErrorSite site, Type data, Type dtypeLike);
/// reinterpret: `data`'s shape with `dtype`, of the same bit width.
FailureOr<Type> inferReinterpret(ErrorSite site, Type data, Type dtype);

//===----------------------------------------------------------------------===//
// Reductions (lib/Relations/Reduce.cpp)
//===----------------------------------------------------------------------===//

/// sum, mean, max, min, prod: `data`'s dtype.
FailureOr<Type> inferReduce(ErrorSite site, Type data,
                            std::optional<ArrayRef<int64_t>> axis,
                            bool keepdims, bool exclude);
/// all, any: `data` must be bool.
FailureOr<Type> inferLogicalReduce(ErrorSite site, Type data,
                                   std::optional<ArrayRef<int64_t>> axis,
                                   bool keepdims, bool exclude);
/// argmax, argmin: int32 indices; `data` must have rank >= 1.
FailureOr<Type> inferArgReduce(ErrorSite site, Type data,
                               std::optional<ArrayRef<int64_t>> axis,
                               bool keepdims, bool exclude);
/// variance(data, mean): `mean` has `data`'s rank and dtype.
FailureOr<Type> inferVariance(ErrorSite site, Type data, Type mean,
                              std::optional<ArrayRef<int64_t>> axis,
                              bool keepdims, bool exclude);

//===----------------------------------------------------------------------===//
// NN: dense, matmuls, bias_add, activations, dropout, pad, upsampling,
// depth/space moves, batch_flatten (lib/Relations/NN.cpp)
//===----------------------------------------------------------------------===//

/// nn.dense: data [d..., k] · weight [units, k]ᵀ -> [d..., units].
FailureOr<Type> inferDense(ErrorSite site, Type data, Type weight,
                           std::optional<int64_t> units,
                           std::optional<Type> outDtype);
/// nn.matmul: tensor_a [d..., k] (or [d..., k, m]) · tensor_b [k, units] (or
/// [units, k]) -> [d..., units] (or [d..., m, units]).
FailureOr<Type> inferMatmul(ErrorSite site, Type tensorA, Type tensorB,
                            std::optional<int64_t> units,
                            std::optional<Type> outDtype, bool transposeA,
                            bool transposeB);
/// nn.batch_matmul: x [b, m, k] · y [b, n, k]ᵀ -> [b, m, n] (transposes as
/// given; a batch of 1 broadcasts).
FailureOr<Type> inferBatchMatmul(ErrorSite site, Type x, Type y,
                                 std::optional<Type> outDtype, bool transposeA,
                                 bool transposeB);
/// nn.bias_add: `data`, with a 1-D `bias` of size data.shape[axis].
FailureOr<Type> inferBiasAdd(ErrorSite site, Type data, Type bias,
                             int64_t axis);
/// nn.prelu: `data`, with a 1-D `alpha` of size data.shape[axis].
FailureOr<Type> inferPRelu(ErrorSite site, Type data, Type alpha, int64_t axis);
/// nn.batch_flatten: [n, a, b, ...] -> [n, a * b * ...].
FailureOr<Type> inferBatchFlatten(ErrorSite site, Type data);
/// nn.dropout: (data, mask of the data type); `rate` in [0, 1).
FailureOr<Type> inferDropout(ErrorSite site, Type data, double rate);
/// nn.pad: each dim grows by its (before, after) entries of `padWidth`.
FailureOr<Type> inferPad(ErrorSite site, Type data, Type padValue,
                         ArrayRef<int64_t> padWidth, StringRef padMode);
/// nn.upsampling / nn.upsampling3d: the spatial dims (H, W or D, H, W of
/// the 4-/5-D `layout`) scaled by `scales` and rounded.
FailureOr<Type> inferUpSampling(ErrorSite site, Type data,
                                ArrayRef<double> scales, StringRef layout);
/// nn.dilate: dim d becomes (d - 1) * stride + 1.
FailureOr<Type> inferDilate(ErrorSite site, Type data,
                            ArrayRef<int64_t> strides);
/// nn.cross_entropy(_with_logits): 2-D predictions and targets of one
/// float type and shape; a 0-d result.
FailureOr<Type> inferCrossEntropy(ErrorSite site, Type predictions,
                                  Type targets);
/// nn.nll_loss: [N, C, d...] predictions, [N, d...] integer targets, [C]
/// weights; [N, d...] for "none", else 0-d.
FailureOr<Type> inferNLLLoss(ErrorSite site, Type predictions, Type targets,
                             Type weights, StringRef reduction);
/// nn.mirror_pad: nn.pad's widths without a pad value; REFLECT pads < the
/// dim, SYMMETRIC pads <= the dim.
FailureOr<Type> inferMirrorPad(ErrorSite site, Type data,
                               ArrayRef<int64_t> padWidth, StringRef mode);
/// nn.depth_to_space: C / b², H * b, W * b in the 4-D `layout`.
FailureOr<Type> inferDepthToSpace(ErrorSite site, Type data, int64_t blockSize,
                                  StringRef layout);
/// nn.space_to_depth: C * b², H / b, W / b in the 4-D `layout`.
FailureOr<Type> inferSpaceToDepth(ErrorSite site, Type data, int64_t blockSize,
                                  StringRef layout);

/// nn.space_to_batch_nd: [N, S.., rest..] -> [N * prod(b), (Si + pads) / bi,
/// rest..]; `paddings` flattened (before, after) pairs, >= 0.
FailureOr<Type> inferSpaceToBatchND(ErrorSite site, Type data,
                                    ArrayRef<int64_t> blockShape,
                                    ArrayRef<int64_t> paddings);
/// nn.batch_to_space_nd: [B, S.., rest..] -> [B / prod(b), Si * bi - crops,
/// rest..]; `crops` flattened (begin, end) pairs, >= 0.
FailureOr<Type> inferBatchToSpaceND(ErrorSite site, Type data,
                                    ArrayRef<int64_t> blockShape,
                                    ArrayRef<int64_t> crops);

//===----------------------------------------------------------------------===//
// Conv: N-d and transposed convolutions (lib/Relations/Conv.cpp)
//===----------------------------------------------------------------------===//

/// nn.conv1d/2d/3d over `spatialRank` spatial dims. `depthwise`: Relay's
/// depthwise convention applies (nn.conv2d): with groups = input channels =
/// weight out-channels and both `channels` and `kernelSize` given, the
/// weight is [C, channels / C, spatial...] in canonical order.
FailureOr<Type> inferConv(ErrorSite site, Type data, Type weight,
                          unsigned spatialRank, bool depthwise,
                          ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
                          ArrayRef<int64_t> dilation, int64_t groups,
                          std::optional<int64_t> channels,
                          std::optional<ArrayRef<int64_t>> kernelSize,
                          StringRef dataLayout, StringRef kernelLayout,
                          StringRef outLayout, std::optional<Type> outDtype);
/// nn.contrib_conv2d_NCHWc / nn.contrib_depthwise_conv2d_NCHWc: data
/// `NCHW{n}c`, kernel `OIHW{n}i{m}o`, result `out_layout` (`NCHW{k}c`, empty:
/// `dataLayout`); nn.conv2d's rule on the unblocked operands.
FailureOr<Type> inferBlockedConv2D(
    ErrorSite site, Type data, Type weight, ArrayRef<int64_t> strides,
    ArrayRef<int64_t> padding, ArrayRef<int64_t> dilation, int64_t groups,
    std::optional<int64_t> channels,
    std::optional<ArrayRef<int64_t>> kernelSize, StringRef dataLayout,
    StringRef kernelLayout, StringRef outLayout, std::optional<Type> outDtype);
/// nn.conv{1,2,3}d_transpose over `n` spatial dims (weight canonically
/// IOW / IOHW / IODHW).
FailureOr<Type> inferConvTranspose(
    ErrorSite site, unsigned n, Type data, Type weight,
    ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
    ArrayRef<int64_t> dilation, int64_t groups, std::optional<int64_t> channels,
    std::optional<ArrayRef<int64_t>> kernelSize, StringRef dataLayout,
    StringRef kernelLayout, StringRef outLayout,
    ArrayRef<int64_t> outputPadding, std::optional<Type> outDtype);

//===----------------------------------------------------------------------===//
// Pool: windowed, global and adaptive pooling (lib/Relations/Pool.cpp)
//===----------------------------------------------------------------------===//

/// nn.{max,avg}_pool{1,2,3}d over `spatialRank` spatial dims.
FailureOr<Type> inferPool(ErrorSite site, Type data, unsigned spatialRank,
                          ArrayRef<int64_t> poolSize, ArrayRef<int64_t> strides,
                          ArrayRef<int64_t> dilation, ArrayRef<int64_t> padding,
                          StringRef layout, StringRef outLayout, bool ceilMode);
/// nn.global_{avg,max}_pool2d: H and W become 1.
FailureOr<Type> inferGlobalPool2D(ErrorSite site, Type data, StringRef layout,
                                  StringRef outLayout);
/// nn.adaptive_{avg,max}_pool{1,2,3}d: the `n` spatial dims become
/// `outputSize` (0 entries: unchanged, 1: the same size for all, n: one
/// each).
FailureOr<Type> inferAdaptivePool(ErrorSite site, Type data, unsigned n,
                                  ArrayRef<int64_t> outputSize,
                                  StringRef layout, StringRef outLayout);

//===----------------------------------------------------------------------===//
// Norm: normalisations (lib/Relations/Norm.cpp; softmax, log_softmax and
// lrn use inferAxisIdentity)
//===----------------------------------------------------------------------===//

/// nn.batch_norm: (data, [C], [C]), C = data.shape[axis], axis >= -1.
FailureOr<Type> inferBatchNorm(ErrorSite site, Type data, Type gamma, Type beta,
                               Type movingMean, Type movingVar, int64_t axis);
/// nn.layer_norm, nn.instance_norm: float `data`; gamma and beta 1-D of size
/// data.shape[axis].
FailureOr<Type> inferNorm(ErrorSite site, Type data, Type gamma, Type beta,
                          int64_t axis);
/// nn.group_norm: inferNorm, and data.shape[axis] divisible by numGroups.
FailureOr<Type> inferGroupNorm(ErrorSite site, Type data, Type gamma, Type beta,
                               int64_t numGroups, int64_t axis);
/// nn.l2_normalize: `data`, with distinct in-range axes.
FailureOr<Type> inferL2Normalize(ErrorSite site, Type data,
                                 ArrayRef<int64_t> axis);

//===----------------------------------------------------------------------===//
// Language constructs (lib/Relations/Language.cpp). The other constructs
// are typed by equations (relay/RelayTypeEquations.h). These accept partly
// known operands: an unknown part gives an unknown part of the result.
//===----------------------------------------------------------------------===//

/// Field `index` of a tuple.
FailureOr<Type> inferTupleGetItem(ErrorSite site, Type tuple, int64_t index);
/// fn(T...) -> R becomes fn(T...) -> (R, (T...)); `wrt` selects the
/// parameters (by position) that get gradients, `keeping = false` drops R,
/// `seedable` adds R's adjoint as a last parameter.
FailureOr<Type> inferGrad(ErrorSite site, Type fn,
                          std::optional<ArrayRef<int64_t>> wrt = std::nullopt,
                          bool keeping = true, bool seedable = false);

//===----------------------------------------------------------------------===//
// Transforms: shape transforms, tensor creation, einsum
// (lib/Relations/Transform.cpp; reverse is inferAxisIdentity)
//===----------------------------------------------------------------------===//

/// reshape with Relay's `newshape` codes (0, -1, -2, -3, -4).
FailureOr<Type> inferReshape(ErrorSite site, Type data,
                             ArrayRef<int64_t> newshape, bool allowzero);
/// transpose: `axes` absent or empty reverses the dims.
FailureOr<Type> inferTranspose(ErrorSite site, Type data,
                               std::optional<ArrayRef<int64_t>> axes);
/// concatenate: the operands agree except along `axis`.
FailureOr<Type> inferConcatenate(ErrorSite site, TypeRange data, int64_t axis);
/// reshape_like: dims [lhsBegin, lhsEnd) of `data` become dims
/// [rhsBegin, rhsEnd) of `shapeLike` (ends absent = the rank).
FailureOr<Type> inferReshapeLike(ErrorSite site, Type data, Type shapeLike,
                                 int64_t lhsBegin,
                                 std::optional<int64_t> lhsEnd,
                                 int64_t rhsBegin,
                                 std::optional<int64_t> rhsEnd);
/// squeeze: `axis` absent drops every (static) 1.
FailureOr<Type> inferSqueeze(ErrorSite site, Type data,
                             std::optional<ArrayRef<int64_t>> axis);
/// expand_dims: `numNewaxis` unit dims at `axis` (in [-rank-1, rank]).
FailureOr<Type> inferExpandDims(ErrorSite site, Type data, int64_t axis,
                                int64_t numNewaxis);
/// stack: same-shaped operands joined along a new `axis`.
FailureOr<Type> inferStack(ErrorSite site, TypeRange data, int64_t axis);
/// split's `indices_or_sections`: a number of equal sections or ascending
/// split indices.
using SplitIndicesOrSections = std::variant<int64_t, ArrayRef<int64_t>>;
/// The value of split's `indices_or_sections` attribute (an I64Attr or a
/// DenseI64ArrayAttr; anything else reads as no split indices).
SplitIndicesOrSections splitIndicesOrSections(Attribute attr);
/// split: a tuple of the pieces along `axis`.
FailureOr<Type> inferSplit(ErrorSite site, Type data,
                           SplitIndicesOrSections indicesOrSections,
                           int64_t axis);
/// strided_slice with Relay's padding and clamping; `sliceMode` "end" or
/// "size".
FailureOr<Type> inferStridedSlice(ErrorSite site, Type data,
                                  ArrayRef<int64_t> begin,
                                  ArrayRef<int64_t> end,
                                  std::optional<ArrayRef<int64_t>> strides,
                                  std::optional<ArrayRef<int64_t>> axes,
                                  StringRef sliceMode);
/// tile (numpy.tile).
FailureOr<Type> inferTile(ErrorSite site, Type data, ArrayRef<int64_t> reps);
/// repeat: dim `axis` times `repeats`.
FailureOr<Type> inferRepeat(ErrorSite site, Type data, int64_t repeats,
                            int64_t axis);
/// broadcast_to: `data` numpy-broadcast to `shape`.
FailureOr<Type> inferBroadcastTo(ErrorSite site, Type data,
                                 ArrayRef<int64_t> shape);
/// broadcast_to_like: `data` broadcast to the shape of `broadcastType`.
FailureOr<Type> inferBroadcastToLike(ErrorSite site, Type data,
                                     Type broadcastType);
/// collapse_sum_like: the type of `collapseType`, which must broadcast to
/// `data`.
FailureOr<Type> inferCollapseSumLike(ErrorSite site, Type data,
                                     Type collapseType);
/// zeros, ones: `shape` of `dtype`.
FailureOr<Type> inferZeros(ErrorSite site, ArrayRef<int64_t> shape, Type dtype);
/// full: `shape` of `dtype`, or of the dtype of the 0-d `fillValue`.
FailureOr<Type> inferFull(ErrorSite site, Type fillValue,
                          ArrayRef<int64_t> shape, std::optional<Type> dtype);
/// full_like: the type of `data`; `fillValue` is 0-d.
FailureOr<Type> inferFullLike(ErrorSite site, Type data, Type fillValue);
//===----------------------------------------------------------------------===//
// Dynamic: shapes as values and the dyn.* operators (lib/Relations/Dynamic.cpp)
//===----------------------------------------------------------------------===//

/// shape_of: a 1-d tensor of `dtype` (default int32) with one entry per dim.
FailureOr<Type> inferShapeOf(ErrorSite site, Type data,
                             std::optional<Type> dtype);
/// ndarray_size: a 0-d tensor of `dtype` (default int32).
FailureOr<Type> inferNdarraySize(ErrorSite site, Type data,
                                 std::optional<Type> dtype);
/// The entries of a small 0-d/1-d integer tensor of static shape that are
/// known from the ops computing it (`relay.constant`, the static dims of a
/// `shape_of`, and through concatenate, take at constant indices, reshape,
/// expand_dims, squeeze, integer casts and add/subtract/multiply), `?`
/// (ShapedType::kDynamic) for the others; nothing if `v` is not such a
/// tensor. Shape arithmetic that is only partly static keeps its static part.
std::optional<SmallVector<int64_t>> knownShapeEntries(Value v);
/// dyn.reshape: rank = the static length of the 1-d integer `newshape`;
/// a dim is static where `entries` (knownShapeEntries of newshape) says so
/// (0 copies the data dim unless `allowzero`, one -1 takes the rest), else `?`.
FailureOr<Type> inferDynReshape(ErrorSite site, Type data, Type newshape,
                                bool allowzero,
                                std::optional<SmallVector<int64_t>> entries);
/// dyn.broadcast_to: rank = the length of `shape` (>= the rank of `data`);
/// a dim is the known entry, else the data dim when that is static and not
/// 1 (the only value the run-time check accepts), else `?`.
FailureOr<Type>
inferDynBroadcastTo(ErrorSite site, Type data, Type shape,
                    std::optional<SmallVector<int64_t>> entries);
/// dyn.zeros / dyn.ones (no `fillValue`) and dyn.full: rank = the length of
/// `shape`, dims the known entries else `?`, of `dtype` (for full: default
/// the fill value's).
FailureOr<Type> inferDynFull(ErrorSite site, std::optional<Type> fillValue,
                             Type shape, std::optional<Type> dtype,
                             std::optional<SmallVector<int64_t>> entries);

/// dyn.strided_slice: the data type with its first k dims `?` (k = the
/// static length of the 1-d integer `begin` and `end`, <= the rank;
/// `strides` has k entries or one).
FailureOr<Type> inferDynStridedSlice(ErrorSite site, Type data, Type begin,
                                     Type end, Type strides);
/// strided_set: the data type; `v` has data's element type and rank,
/// `begin`/`end`/`strides` as dyn.strided_slice's.
FailureOr<Type> inferStridedSet(ErrorSite site, Type data, Type v, Type begin,
                                Type end, Type strides);
/// dyn.tile: rank max(rank, k) for `reps` of static length k; a dim is
/// static where the data dim and the repeat (knownShapeEntries) are known.
FailureOr<Type> inferDynTile(ErrorSite site, Type data, Type reps,
                             std::optional<SmallVector<int64_t>> entries);
/// dyn.nn.pad: nn.pad's rule for the operands and mode; `padWidth` is a
/// (rank, 2) integer tensor; every result dim `?`.
FailureOr<Type> inferDynPad(ErrorSite site, Type data, Type padWidth,
                            Type padValue, StringRef padMode);
/// dyn.one_hot: one_hot's rule with the new dim the known `depth` (a
/// one-element integer tensor) or `?`.
FailureOr<Type> inferDynOneHot(ErrorSite site, Type indices, Type onValue,
                               Type offValue, Type depth, int64_t axis,
                               Type dtype,
                               std::optional<SmallVector<int64_t>> entries);
/// dyn.squeeze: rank - k `?` dims for `axis` of static length k <= rank.
FailureOr<Type> inferDynSqueeze(ErrorSite site, Type data, Type axis);
/// dyn.expand_dims: rank + `numNewaxis` `?` dims; `axis` is a one-element
/// integer tensor.
FailureOr<Type> inferDynExpandDims(ErrorSite site, Type data, Type axis,
                                   int64_t numNewaxis);
/// dyn.topk: topk's rule (whole axis) with the dim at `axis` `?`; `k` is a
/// one-element integer tensor.
FailureOr<Type> inferDynTopK(ErrorSite site, Type data, Type k, int64_t axis,
                             StringRef retType, std::optional<Type> dtype);

/// arange's start, stop and step when all three are known constants.
struct ArangeBounds {
  double start, stop, step;
};
/// The bounds of an arange whose operands are 0-d `relay.constant`s.
std::optional<ArangeBounds> constantArangeBounds(Value start, Value stop,
                                                 Value step);
/// arange: 1-d of `dtype`, its length static when `bounds` are known.
FailureOr<Type> inferArange(ErrorSite site, Type start, Type stop, Type step,
                            Type dtype, std::optional<ArangeBounds> bounds);
/// layout_transform between (blocked) layouts such as NCHW and NCHW4c.
FailureOr<Type> inferLayoutTransform(ErrorSite site, Type data,
                                     StringRef srcLayout, StringRef dstLayout);
/// einsum (numpy equations, with `...`).
FailureOr<Type> inferEinsum(ErrorSite site, TypeRange data, StringRef equation);
/// contrib_reverse_reshape: reshape with `newshape` read from the right.
FailureOr<Type> inferReverseReshape(ErrorSite site, Type data,
                                    ArrayRef<int64_t> newshape);
/// sliding_window: data.shape[:axis] + window counts + window_shape.
FailureOr<Type> inferSlidingWindow(ErrorSite site, Type data, int64_t axis,
                                   ArrayRef<int64_t> windowShape,
                                   ArrayRef<int64_t> strides);
/// trilu: `data` (rank >= 2) with a 0-d integer `k`.
FailureOr<Type> inferTrilu(ErrorSite site, Type data, Type k);
/// sequence_mask: `data` (rank >= 2); `validLength` 1-D integer, one per
/// entry of the batch dim (1 - axis); `axis` 0 or 1.
FailureOr<Type> inferSequenceMask(ErrorSite site, Type data, Type validLength,
                                  int64_t axis);
/// reverse_sequence: `data`; `seqLengths` 1-D integer of the size of
/// `batchAxis`; the two axes distinct.
FailureOr<Type> inferReverseSequence(ErrorSite site, Type data, Type seqLengths,
                                     int64_t seqAxis, int64_t batchAxis);
/// meshgrid: 0-d / 1-D inputs of one dtype; a tuple of as many grids of
/// their lengths ("xy": the first two swapped).
FailureOr<Type> inferMeshgrid(ErrorSite site, TypeRange data,
                              StringRef indexing);
/// unravel_index: [len(shape)] (0-d indices) or [len(shape), len(indices)].
FailureOr<Type> inferUnravelIndex(ErrorSite site, Type indices, Type shape);
/// invert_permutation: a 1-D integer `data`'s type.
FailureOr<Type> inferInvertPermutation(ErrorSite site, Type data);
/// matrix_set_diag: `data` (rank >= 2) with `diagonal` holding diagonals
/// `k1 .. k2` (batch + [len] or batch + [k2 - k1 + 1, max_len]).
FailureOr<Type> inferMatrixSetDiag(ErrorSite site, Type data, Type diagonal,
                                   int64_t k1, int64_t k2);
/// collapse_sum_to: `shape` of `data`'s dtype; `shape` must broadcast to
/// `data`.
FailureOr<Type> inferCollapseSumTo(ErrorSite site, Type data,
                                   ArrayRef<int64_t> shape);

//===----------------------------------------------------------------------===//
// Index: gathers, scatters, one_hot, scans, sorting
// (lib/Relations/Index.cpp). Index operands must be integer tensors.
//===----------------------------------------------------------------------===//

/// take: `data[:axis] + indices[batchDims:] + data[axis+1:]`; without
/// `axis` the shape of `indices`.
FailureOr<Type> inferTake(ErrorSite site, Type data, Type indices,
                          std::optional<int64_t> axis, int64_t batchDims);
/// gather: `indices` has the rank of `data`; the shape of `indices`.
FailureOr<Type> inferGather(ErrorSite site, Type data, Type indices,
                            int64_t axis);
/// gather_nd: `indices` is `[M, Y...]`; `Y... + data[batchDims + M:]`.
FailureOr<Type> inferGatherND(ErrorSite site, Type data, Type indices,
                              int64_t batchDims,
                              std::optional<int64_t> indexRank);
/// scatter_elements: the type of `data`.
FailureOr<Type> inferScatterElements(ErrorSite site, Type data, Type indices,
                                     Type updates, int64_t axis);
/// scatter_nd: the type of `data`; `updates` is
/// `indices[1:] + data[M:]`.
FailureOr<Type> inferScatterND(ErrorSite site, Type data, Type indices,
                               Type updates);
/// one_hot: `indices` with `depth` inserted at `axis`, of `dtype`.
FailureOr<Type> inferOneHot(ErrorSite site, Type indices, Type onValue,
                            Type offValue, int64_t depth, int64_t axis,
                            Type dtype);
/// cumsum, cumprod: the shape of `data` (flattened without `axis`), of
/// `dtype` or the dtype of `data`.
FailureOr<Type> inferScan(ErrorSite site, Type data,
                          std::optional<int64_t> axis,
                          std::optional<Type> dtype);
/// sort: the type of `data`.
FailureOr<Type> inferSort(ErrorSite site, Type data, int64_t axis);
/// argsort: the shape of `data`, of `dtype` (default int32).
FailureOr<Type> inferArgsort(ErrorSite site, Type data, int64_t axis,
                             std::optional<Type> dtype);
/// sparse_to_dense: `outputShape` of the values' dtype.
FailureOr<Type> inferSparseToDense(ErrorSite site, Type indices, Type values,
                                   Type defaultValue,
                                   ArrayRef<int64_t> outputShape);
/// searchsorted: the shape of `values`, of integer `dtype` (default int32);
/// `sortedSequence` 1-D or with the leading dims of `values`.
FailureOr<Type> inferSearchSorted(ErrorSite site, Type sortedSequence,
                                  Type values, std::optional<Type> dtype);
/// topk: dim `axis` becomes `k` (`k < 1`: all); `retType` "both" gives the
/// tuple (values, indices), "values"/"indices" one of them.
FailureOr<Type> inferTopK(ErrorSite site, Type data, int64_t k, int64_t axis,
                          StringRef retType, std::optional<Type> dtype);

//===----------------------------------------------------------------------===//
// Image (lib/Relations/Image.cpp)
//===----------------------------------------------------------------------===//

/// image.resize2d: H and W of the NCHW/NHWC `data` become `size`; dtype
/// `outDtype` or that of `data`.
FailureOr<Type> inferResize2D(ErrorSite site, Type data, ArrayRef<int64_t> size,
                              std::optional<ArrayRef<double>> roi,
                              StringRef layout, std::optional<Type> outDtype);

} // namespace mlir::relay

#include "relay/RelayQnnRelations.h"

#endif // RELAY_RELAYRELATIONS_H
