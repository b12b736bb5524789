//===- RelayToLinalg.h - relay → linalg pattern sets ------------*- C++ -*-===//
//
// The patterns of convert-relay-to-linalg, one set per op family, for
// passes that want a family without the whole conversion (torch-mlir's
// populateXPatterns style). Every set works with any TypeConverter that
// maps ranked tensors to signless ranked tensors and tuples to their
// flattened leaves, such as RelayToLinalgTypeConverter.
//
// An op with several lowering strategies has one pattern per strategy; the
// PatternBenefit orders them (most specialised and fastest first, general
// fallback last) and a pattern that does not apply says why through
// notifyMatchFailure. Where no strategy applies, a last pattern of benefit
// 1 reports "not supported yet: ..." at the op.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_RELAYTOLINALG_H
#define RELAY_RELAYTOLINALG_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::relay {

/// Tensors → signless tensors (signedness is read from the relay op's own
/// types), tuple<...> → its flattened leaves (1:N), `!relay.adt<...>` and
/// `!relay.ref<...>` → IREE's `!util.list<?>` (an OpaqueType), anything
/// else unchanged.
class RelayToLinalgTypeConverter : public TypeConverter {
public:
  RelayToLinalgTypeConverter();
};

/// What the target does better than IREE's defaults, which changes the
/// strategies the lowering picks (convert-relay-to-linalg's options).
struct LoweringOptions {
  /// i8 x i8 matmuls with constant weights run on a kernel of our own
  /// (relay-vnni-matmul): integer convolutions take the patch matmul
  /// rather than integer Winograd.
  bool int8MatmulKernel = false;
  /// f32 matmuls and convolutions with constant weights run on our f32
  /// kernels: float convolutions are direct rather than patch matmuls (the
  /// kernel reads their windows in place; im2col would copy them).
  bool f32MatmulKernel = false;
};

/// Unary/binary elementwise operators (a table of scalar bodies), with the
/// float64 expansions IREE needs (ElementwiseF64Math).
void populateElementwiseToLinalgPatterns(const TypeConverter &typeConverter,
                                         RewritePatternSet &patterns);
/// dense, bias_add, matmul, batch_matmul, activations, dropout, pad,
/// upsampling, depth_to_space/space_to_depth, space_to_batch_nd/
/// batch_to_space_nd, batch_flatten.
void populateNNToLinalgPatterns(const TypeConverter &typeConverter,
                                RewritePatternSet &patterns);
/// conv1d/2d/3d, conv2d_transpose, the blocked contrib_*conv2d_NCHWc.
void populateConvToLinalgPatterns(const TypeConverter &typeConverter,
                                  RewritePatternSet &patterns,
                                  const LoweringOptions &options = {});
/// Every pool: max/avg 1-D/2-D/3-D, global and adaptive.
void populatePoolToLinalgPatterns(const TypeConverter &typeConverter,
                                  RewritePatternSet &patterns);
/// batch/layer/group/instance norm, l2_normalize, lrn, softmax,
/// log_softmax.
void populateNormToLinalgPatterns(const TypeConverter &typeConverter,
                                  RewritePatternSet &patterns);
/// The qnn.* operators (quantize, dequantize, requantize, dense,
/// batch_matmul, conv2d, add, subtract, mul): integer arithmetic, bit-exact
/// with TVM 0.19's canonical forms.
void populateQnnToLinalgPatterns(const TypeConverter &typeConverter,
                                 RewritePatternSet &patterns);
/// Reductions (sum, max, mean, variance, argmax, ...).
void populateReduceToLinalgPatterns(const TypeConverter &typeConverter,
                                    RewritePatternSet &patterns);
/// Shape transforms and tensor creation, with einsum (TransformEinsum).
void populateTransformToLinalgPatterns(const TypeConverter &typeConverter,
                                       RewritePatternSet &patterns);
/// Gathers, scatters, with sort/argsort/topk and scans (IndexSort).
void populateIndexToLinalgPatterns(const TypeConverter &typeConverter,
                                   RewritePatternSet &patterns);
/// image.* (resize, crop_and_resize, ...).
/// shape_of, ndarray_size and the dyn.* operators (run-time shapes).
void populateDynamicToLinalgPatterns(const TypeConverter &typeConverter,
                                     RewritePatternSet &patterns);
void populateImageToLinalgPatterns(const TypeConverter &typeConverter,
                                   RewritePatternSet &patterns);
/// Constants, tuples, relay.if, and func signatures/calls/returns under
/// the type converter.
void populateLanguageToLinalgPatterns(const TypeConverter &typeConverter,
                                      RewritePatternSet &patterns);

/// relay.construct and relay.match on IREE run-time lists (`!util.list<?>`,
/// see ADT.cpp for the layout); needs a TypeConverter mapping `!relay.adt`
/// to that list type, and a context that allows unregistered dialects (the
/// IREE ops are built in generic form).
void populateADTToLinalgPatterns(const TypeConverter &typeConverter,
                                 RewritePatternSet &patterns);

/// References (ref_new/read/write) as one-slot run-time lists
/// (LanguageRef.cpp); the same needs as populateADTToLinalgPatterns, with
/// `!relay.ref` mapped to the list type.
void populateRefToLinalgPatterns(const TypeConverter &typeConverter,
                                 RewritePatternSet &patterns);

/// All of the above.
void populateRelayToLinalgPatterns(const TypeConverter &typeConverter,
                                   RewritePatternSet &patterns,
                                   const LoweringOptions &options = {});

/// The target of convert-relay-to-linalg: the relay dialect illegal except
/// the ADT definitions (relay.adt/relay.constructor, which the ADT patterns
/// look up; the pass erases them afterwards); linalg, tensor, arith, math
/// and scf legal; func ops legal once their types are converted by
/// `typeConverter`; anything else (the IREE ops) left alone.
void configureRelayToLinalgTarget(ConversionTarget &target,
                                  const TypeConverter &typeConverter);

} // namespace mlir::relay

#endif // RELAY_RELAYTOLINALG_H
