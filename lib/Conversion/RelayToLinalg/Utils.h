//===- Utils.h - helpers private to convert-relay-to-linalg -----*- C++ -*-===//
//
// IR-building helpers shared by the per-family pattern files (Utils.cpp);
// the pattern sets themselves are declared in relay/RelayToLinalg.h, the
// window/padding helpers of convolutions and pools in Window.h and the
// integer shape rules (axes, padding, windows, layouts) in
// relay/Utils/*.h. Tensors keep their shape; integer dtypes become signless
// (signedness is read from the relay op's own types); tuples are flattened
// 1:N into their tensor leaves.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_LIB_CONVERSION_RELAYTOLINALG_UTILS_H
#define RELAY_LIB_CONVERSION_RELAYTOLINALG_UTILS_H

#include "relay/RelayOps.h"
#include "relay/RelayToLinalg.h"
#include "relay/Utils/LayoutUtils.h"
#include "relay/Utils/ShapeUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"
#include <functional>

namespace mlir::relay::lowering {

//===----------------------------------------------------------------------===//
// Pattern benefits and the last-resort report
//===----------------------------------------------------------------------===//

/// Benefits of the strategy patterns of one op (relay/RelayToLinalg.h):
/// the applicable pattern with the highest benefit wins.
enum LoweringBenefit : unsigned {
  /// The last pattern of an op: reports "not supported yet: ..." and fails.
  kReportUnsupportedBenefit = 1,
  /// The general fallback: every supported form (a linalg.generic, or a
  /// grouped named op for every `groups`).
  kGeneralBenefit = 2,
  /// A named linalg op for a common form (IREE's tuned kernels).
  kNamedOpBenefit = 3,
  /// A faster rewrite of a sub-case of a named form (im2col + matmul).
  kSpecialisedBenefit = 4,
  /// A fast algorithm for a narrower sub-case, preferred to the specialised
  /// forms where it applies (Winograd for 3x3 convolutions).
  kFastAlgorithmBenefit = 5,
  /// A relay-level rewrite into the form the other strategies take, tried
  /// before them (Relay's depthwise weight convention).
  kNormalizeBenefit = 6,
};

/// The last pattern of an op with several strategies: when none applies it
/// emits "not supported yet: <reason(op)>" at the op (the conversion then
/// fails to legalize it).
template <typename OpTy> struct ReportUnsupported : OpConversionPattern<OpTy> {
  using Reason = std::function<std::string(OpTy)>;
  ReportUnsupported(const TypeConverter &tc, MLIRContext *ctx, Reason reason)
      : OpConversionPattern<OpTy>(tc, ctx, kReportUnsupportedBenefit),
        reason(std::move(reason)) {}
  LogicalResult matchAndRewrite(OpTy op,
                                typename OpConversionPattern<OpTy>::OpAdaptor,
                                ConversionPatternRewriter &) const override {
    return op.emitError() << "not supported yet: " << reason(op);
  }
  Reason reason;
};

/// The sub-families: einsum (TransformEinsum.cpp, added by
/// populateTransformToLinalgPatterns) and sort/argsort/topk/scans
/// (IndexSort.cpp, added by populateIndexToLinalgPatterns).
void populateTransformEinsumPatterns(const TypeConverter &tc,
                                     RewritePatternSet &patterns);
/// trilu, sequence_mask, reverse_sequence, meshgrid, unravel_index,
/// invert_permutation, matrix_set_diag, collapse_sum_to,
/// contrib_reverse_reshape and sliding_window (TransformMasks.cpp, added by
/// populateTransformToLinalgPatterns).
void populateTransformMaskPatterns(const TypeConverter &tc,
                                   RewritePatternSet &patterns);
void populateIndexSortPatterns(const TypeConverter &tc,
                               RewritePatternSet &patterns);
/// nn.conv1d/conv3d (ConvND.cpp) and nn.conv2d_transpose (ConvTranspose.cpp),
/// added by populateConvToLinalgPatterns (Conv.cpp: nn.conv2d).
void populateConvNDPatterns(const TypeConverter &tc,
                            RewritePatternSet &patterns);
void populateConvTransposeNDPatterns(const TypeConverter &tc,
                                     RewritePatternSet &patterns);
void populateConvTransposePatterns(const TypeConverter &tc,
                                   RewritePatternSet &patterns);
/// nn.conv2d (NHWC data `padded`, already padded and cropped to the windows;
/// a constant 3x3 HWIO `weight`; stride and dilation 1) by Winograd
/// F(m x m, 3 x 3), m = 2 or 4, as linalg (ConvWinograd.cpp): the result of
/// `resultType` (float, static H and W; or i32 of an i8 input and weight,
/// m = 2, exact when 4x the result fits in i32) whose sizes are `outSizes`.
Value winogradConv2D(OpBuilder &b, Location loc, Value padded,
                     DenseElementsAttr weight, RankedTensorType resultType,
                     ArrayRef<OpFoldResult> outSizes, int64_t m);
/// The blocked convolutions nn.contrib_*conv2d_NCHWc (BlockedConv.cpp, added
/// by populateConvToLinalgPatterns) and nn.space_to_batch_nd /
/// nn.batch_to_space_nd (NNSpaceBatch.cpp, added by
/// populateNNToLinalgPatterns): relay-level decompositions this conversion then
/// lowers.
void populateBlockedConvPatterns(const TypeConverter &tc,
                                 RewritePatternSet &patterns);
void populateSpaceBatchPatterns(const TypeConverter &tc,
                                RewritePatternSet &patterns);
/// nn.mirror_pad and nn.upsampling3d as relay ops that lower (NNComposite.cpp,
/// added by populateNNToLinalgPatterns).
void populateNNCompositePatterns(const TypeConverter &tc,
                                 RewritePatternSet &patterns);
/// nn.dilate, nn.cross_entropy(_with_logits) and nn.nll_loss (NNLoss.cpp,
/// added by populateNNToLinalgPatterns).
void populateNNLossPatterns(const TypeConverter &tc,
                            RewritePatternSet &patterns);

/// An N-d grouped convolution in channel-first layout as a linalg.generic:
/// in [N, G, C/G, S...], w [G, F/G, C/G, K...], out [N, G, F/G, O...]
/// (ConvND.cpp).
Value groupedConvGeneric(OpBuilder &b, Location loc, Value in, Value w,
                         Value out, ArrayRef<int64_t> strides,
                         ArrayRef<int64_t> dilation, bool isUnsigned);

/// True for an elementwise operator with no integer form (exp, log, ...).
bool requiresFloat(Operation *op);

/// Reports what the lowering cannot handle (closures, `grad`, types left to
/// infer, ADTs/references without a context allowing unregistered
/// dialects, ...) as located errors; failure if any.
LogicalResult checkLowerable(ModuleOp module);

//===----------------------------------------------------------------------===//
// Shared helpers (Utils.cpp)
//===----------------------------------------------------------------------===//

/// The element type of `t` (a tensor) or `t` itself.
Type elementTypeOf(Type t);

/// True for an unsigned integer element type (or i1) in relay's types.
bool isUnsignedInt(Type relayElementType);

/// `type` converted to a signless ranked tensor type.
RankedTensorType signlessTensorType(RankedTensorType type);

/// One scalar constant of `type` (float or integer); integers are
/// truncated from `value`.
Value scalarConst(OpBuilder &b, Location loc, Type type, double value);

/// `x` (of relay element type `from`, signless in `x`) converted to the
/// signless form of relay element type `toRelay` with Relay's rules: to
/// bool is `x != 0`, float to integer truncates toward zero, bool is
/// unsigned. Meant for linalg bodies: on a scalar outside any linalg op
/// IREE's VM would round float -> int casts to nearest.
Value castScalar(OpBuilder &b, Location loc, Value x, Type from, Type toRelay);

/// The most negative value of `type` (-inf for floats, 0 for unsigned).
Value lowestConst(OpBuilder &b, Location loc, Type type, bool isUnsigned);

/// Sizes of `value`'s dims as index values (constants where static).
SmallVector<OpFoldResult> dimSizes(OpBuilder &b, Location loc, Value value);

/// The `?` dims of `type` taken from `sizes` (as tensor.empty wants them).
SmallVector<Value> dynamicOf(OpBuilder &b, Location loc, RankedTensorType type,
                             ArrayRef<OpFoldResult> sizes);

/// tensor.empty of `type` whose `?` dims come from `sizes`.
Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type,
                  ArrayRef<OpFoldResult> sizes);

/// tensor.insert_slice of `source` into `dest`, or `dest` itself when a
/// size is 0 (nothing to write; MLIR's verifier refuses any offset into a
/// size-0 dim).
Value insertSlice(OpBuilder &b, Location loc, Value source, Value dest,
                  ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
                  ArrayRef<OpFoldResult> strides);

/// tensor.empty of `type` filled with `value`.
Value filledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                   ArrayRef<OpFoldResult> sizes, Value value);

/// `v` as `type` (a tensor.cast if the static shapes differ).
Value castTo(OpBuilder &b, Location loc, Value v, Type type);

/// " [at file:line:col]" naming the source of `loc` (for an imported ONNX
/// model, the node), or "" without a file location: appended to run-time
/// check messages so that a failure names what failed.
std::string sourceSuffix(Location loc);

/// The element of a 0-d tensor.
Value scalarOf(OpBuilder &b, Location loc, Value zeroD);

/// numpy broadcasting of `data` to `resultType` whose sizes are `sizes`
/// (size-1 dims of `data` that stretch must be static).
Value broadcastTo(OpBuilder &b, Location loc, Value data,
                  RankedTensorType resultType, ArrayRef<OpFoldResult> sizes);

/// `relayType` (sizes `sizes`) filled with the 0-d `fill` of relay element
/// type `from`, cast to the result dtype inside a linalg.generic.
Value filledFrom(OpBuilder &b, Location loc, RankedTensorType relayType,
                 ArrayRef<OpFoldResult> sizes, Value fill, Type from);

/// A parallel linalg.generic over the iteration space of `resultType`
/// (whose `?` sizes are `sizes`) reading `inputs` through `inputMaps`
/// (the output map is the identity); `body` computes the result scalar
/// from the input scalars.
using ScalarBody =
    std::function<Value(OpBuilder &, Location, ValueRange /*scalars*/)>;
Value buildMap(OpBuilder &b, Location loc, RankedTensorType resultType,
               ArrayRef<OpFoldResult> sizes, ValueRange inputs,
               ArrayRef<AffineMap> inputMaps, const ScalarBody &body);

/// An scf.if on the host condition `cond` yielding `then(b)` or
/// `otherwise(b)` (of type `type`).
Value ifElse(OpBuilder &b, Location loc, Value cond, Type type,
             function_ref<Value(OpBuilder &)> then,
             function_ref<Value(OpBuilder &)> otherwise);

/// `v` whose dims are the values `sizes` (equal to its own at run time, as
/// the caller knows), so that later ops can prove their sizes equal to
/// `sizes` (SymbolicSizes.h), e.g. after an scf.if whose branches all yield
/// `sizes`. Metadata only: a `tensor.reshape` to `sizes` (rank 2 and up:
/// it stays, and `tensor.dim` of it folds to `sizes`, so that a loop's
/// branches on them can be taken out of it, relay-unswitch-loops), else a
/// unit dim added by tensor.expand_shape and collapsed again (folded away
/// by canonicalization).
Value withSizes(OpBuilder &b, Location loc, Value v,
                ArrayRef<OpFoldResult> sizes);

/// numpy broadcasting of `inputs` to `resultType` with a linalg.generic
/// (no materialised broadcasts: size-1 dims read index 0). A `?` size may
/// be 1 at run time and broadcast: unless the sizes of a dim are proven
/// equal (SymbolicSizes.h), the result size is computed, each size checked
/// to be 1 or the result's ("<opName>: the sizes of axis d do not
/// broadcast"), and such an operand read at `select(size == 1, 0, i)`.
Value buildBroadcastMap(OpBuilder &b, Location loc, RankedTensorType resultType,
                        ValueRange inputs, const ScalarBody &body,
                        StringRef opName);

/// Sum of `input` over `dims` (sorted) with linalg.reduce; the result drops
/// those dims.
Value buildSum(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> dims);

/// How a reduction combines a fill's value `count` times.
enum class FillReduction { Sum, Prod, Idempotent };

/// The reduction over `dims` of `input` when it is a `linalg.fill`, computed
/// from the fill's value (`value * count`, `value ^ count`, or `value` for
/// max/min/and/or), as a fill of `resultType` (sizes `sizes`); null if
/// `input` is no fill. IREE 3.13 miscompiles a linalg.reduce of a
/// linalg.fill: it returns the fill's value as the sum.
/// The reduction over `dims` of `input` when it is a `linalg.broadcast`:
/// the broadcast's source reduced over the dims it has (by `reduce`), times
/// the size of the reduced broadcast dims for a sum, broadcast over the
/// kept broadcast dims; null if `input` is no broadcast (or `kind` is
/// Prod). IREE 3.13 fails on some reductions of broadcasts ("vector.contract
/// op invalid accumulator/result vector shape"), and this is less work.
Value reduceBroadcast(
    OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> dims,
    FillReduction kind, bool isUnsigned,
    llvm::function_ref<Value(Value, ArrayRef<int64_t>)> reduce);

Value reduceFill(OpBuilder &b, Location loc, Value input,
                 ArrayRef<int64_t> dims, FillReduction kind,
                 RankedTensorType resultType, ArrayRef<OpFoldResult> sizes,
                 bool isUnsigned);

/// Number of elements in `dims` of `input`, as an index value.
Value countOf(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> dims);

/// `index` converted to a scalar of element type `type` (float or int).
Value indexToScalar(OpBuilder &b, Location loc, Value index, Type type,
                    bool isUnsigned);

/// Divides every element of `input` by the scalar `divisor` (an integer
/// divisor of 0, the count of an empty axis, divides as 1).
Value divideByScalar(OpBuilder &b, Location loc, Value input, Value divisor,
                     bool isUnsigned);

/// tensor.expand_shape of `input` into `resultType` (`?` output sizes
/// `sizes`), regrouping with `reassociation`.
Value expandTo(OpBuilder &b, Location loc, Value input,
               RankedTensorType resultType,
               ArrayRef<ReassociationIndices> reassociation,
               ArrayRef<OpFoldResult> sizes);

/// Reassociation that inserts unit dims at `unitDims` of a rank
/// `resultRank` shape (each unit dim joins a neighbouring group).
SmallVector<ReassociationIndices>
unitDimReassociation(int64_t resultRank, ArrayRef<int64_t> unitDims);

/// Sizes of `resultType`: static dims as attributes, `?` dims from `fill`.
SmallVector<OpFoldResult> resultSizes(OpBuilder &b, RankedTensorType resultType,
                                      function_ref<OpFoldResult(int64_t)> fill);

/// Result `i` of `op` as a signless ranked tensor type.
RankedTensorType resultTensorType(Operation *op, unsigned i = 0);

/// `x` regrouped by `reassociation` into `type` (collapse or expand).
Value regroup(OpBuilder &b, Location loc, Value x, RankedTensorType type,
              ArrayRef<ReassociationIndices> reassociation,
              ArrayRef<OpFoldResult> sizes = {});

/// `size` / `by` (an attribute when `size` is constant).
OpFoldResult divSize(OpBuilder &b, Location loc, OpFoldResult size, int64_t by);

/// `dim` / `by`, `?` for `?`.
inline int64_t divDim(int64_t dim, int64_t by) {
  return ShapedType::isDynamic(dim) ? dim : dim / by;
}

/// The comparisons behind sorts and arg-reductions of scalars `a` and `b`
/// (float, or integer signed unless `isUnsigned`): `before` is a > b when
/// `greater`, else a < b (ordered, so NaN is never before anything); `equal`
/// is a == b.
struct ScalarOrder {
  Value before, equal;
};
ScalarOrder compareScalars(OpBuilder &b, Location loc, Value a, Value bValue,
                           bool greater, bool isUnsigned);

/// `v` converted to the scalar type `to` (float extension/truncation,
/// integer extension/truncation, int<->float) for accumulation.
Value convertScalar(OpBuilder &b, Location loc, Value v, Type to,
                    bool isUnsigned);

/// acc + a * w in the type of `acc`.
Value mulAcc(OpBuilder &b, Location loc, Value a, Value w, Value acc,
             bool isUnsigned);

/// Sets `cast = #linalg.type_fn<cast_unsigned>` on a named linalg op whose
/// operands are unsigned integers.
void setUnsignedCast(Operation *op, bool isUnsigned);

/// `x` with its dims permuted by `perm` (result dim i is dim perm[i] of
/// `x`) as a linalg.transpose; `x` itself for the identity.
Value transposeDims(OpBuilder &b, Location loc, Value x,
                    ArrayRef<int64_t> perm);

//===----------------------------------------------------------------------===//
// Relay-level rewrites (ops that lower as other relay ops)
//===----------------------------------------------------------------------===//

/// relay.transpose of `x` by `perm`; `x` itself for the identity.
Value relayTranspose(OpBuilder &b, Location loc, Value x,
                     ArrayRef<int64_t> perm);

/// A 3-D window op over the static D, H, W of `data` (NCDHW, or NDHWC when
/// `ncdhw` is false) as two runs of the NCHW 2-D op `op2D(x, {h, w})`
/// whose cells are separable per dim: [N, C*D, H, W] to [h, w], then
/// [N, C, D, h*w] to [d, h*w] (an identity on the merged dim), then
/// [N, C, d, h, w]; NDHWC between relay.transposes. d, h, w are the
/// spatial sizes of `resultType` (Pool.cpp's adaptive 3-D pools,
/// NNComposite.cpp's upsampling3d).
Value separable3DAs2D(OpBuilder &b, Location loc, Value data, bool ncdhw,
                      RankedTensorType resultType,
                      function_ref<Value(Value, ArrayRef<int64_t>)> op2D);

//===----------------------------------------------------------------------===//
// Builders shared by a static op and its dyn form
//===----------------------------------------------------------------------===//

/// nn.pad of `data` by `before`/`after` per dim (constants, or index values
/// known at run time: a negative one crops) in `mode` (constant: the 0-d
/// `padValue`; edge; reflect, repeated as the width needs) to `resultType`
/// of sizes `outSizes` (NN.cpp).
Value buildPadded(OpBuilder &b, Location loc, Value data, Value padValue,
                  ArrayRef<OpFoldResult> before, ArrayRef<OpFoldResult> after,
                  StringRef mode, RankedTensorType resultType,
                  ArrayRef<OpFoldResult> outSizes, StringRef opName);

/// one_hot of `indices` with the new dim at `axis` (Index.cpp).
Value buildOneHot(OpBuilder &b, Location loc, Value indices, bool isUnsigned,
                  Value onValue, Value offValue, int64_t axis,
                  RankedTensorType resultType, ArrayRef<OpFoldResult> sizes);

/// topk's results (converted from `relayType` and `retType`): the elements
/// of stable rank 0..K-1 along `axis`, K = sizes[axis] (IndexSort.cpp).
FailureOr<SmallVector<Value>>
buildTopKResults(OpBuilder &b, Location loc, const TypeConverter &typeConverter,
                 Type relayType, StringRef retType, Value data, bool isUnsigned,
                 int64_t axis, bool ascending, ArrayRef<OpFoldResult> sizes);

/// The dyn.* forms of slicing, tiling, padding and index ops
/// (DynamicOps.cpp, added by populateDynamicToLinalgPatterns).
void populateDynamicOpsPatterns(const TypeConverter &tc,
                                RewritePatternSet &patterns);

} // namespace mlir::relay::lowering

#endif // RELAY_LIB_CONVERSION_RELAYTOLINALG_UTILS_H
