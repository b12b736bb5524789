//===- Window.h - padding and windows of convolutions and pools -*- C++ -*-===//
//
// Private to convert-relay-to-linalg: the IR-building side of sliding
// windows shared by Conv*.cpp and Pool.cpp (explicit padding, the crop to
// the rows windows read, dynamic output extents, average-pool divisors).
// The integer rules behind them (Relay's padding forms, output sizes) are
// relay/Utils/ShapeUtils.h.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_LIB_CONVERSION_RELAYTOLINALG_WINDOW_H
#define RELAY_LIB_CONVERSION_RELAYTOLINALG_WINDOW_H

#include "Utils.h"

namespace mlir::relay::lowering {

/// Pads the dims `dims` of `input` by `low`/`high` with `value`
/// (tensor.pad; `input` itself when there is nothing to pad).
Value padDims(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> dims,
              ArrayRef<int64_t> low, ArrayRef<int64_t> high, Value value);

/// `input` without the trailing rows no window reads: along each static
/// spatial dim `dims[i]` (window `kernel[i]` with `strides[i]` and
/// `dilation[i]`) only windowInputExtent elements are used. linalg infers a
/// convolution's input extent from its output as exactly that, and IREE
/// rejects the op once it folds unit dims if the two disagree (e.g. a 3x3
/// stride-2 conv over a padded 4x4 map), so every window op gets an input
/// of the exact extent. Dynamic dims (and dynamic windows, kernel[i] < 0)
/// are left as they are.
Value cropToWindows(OpBuilder &b, Location loc, Value input,
                    ArrayRef<int64_t> dims, ArrayRef<int64_t> kernel,
                    ArrayRef<int64_t> strides, ArrayRef<int64_t> dilation);

/// `input` cut to the rows and columns the windows of `outSizes` outputs
/// read along `dims` (kernel `kernel[i]`, static, with `strides[i]` and
/// `dilation[i]`): max(0, (out-1)*stride + (kernel-1)*dilation + 1), sizes
/// known at run time included. A window gather over a larger input is
/// wrong once IREE folds a unit kernel dim: `oh + kh` becomes `oh`, and the
/// loop's extent is then taken from the input instead of the output (a 1x3
/// kernel over an input padded for the tiled form, with no rows left for
/// im2col, wrote 80 rows into a zero-row buffer: heap corruption).
Value cropToOutputWindows(OpBuilder &b, Location loc, Value input,
                          ArrayRef<int64_t> dims,
                          ArrayRef<OpFoldResult> outSizes,
                          ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                          ArrayRef<int64_t> dilation);

/// `input` padded along `dims` by `padding` (and `extraAfter` more after
/// each dim, e.g. ceil_mode's overhang) with `value`, then cropped to the
/// rows the windows read: the input every window op is built on.
Value padAndCropToWindows(OpBuilder &b, Location loc, Value input,
                          ArrayRef<int64_t> dims, const SpatialPadding &padding,
                          ArrayRef<int64_t> extraAfter,
                          ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                          ArrayRef<int64_t> dilation, Value value);

/// `padded` (a window op's input from padAndCropToWindows) behind a
/// util.optimization_barrier when it is a padding (static shapes, and only
/// where the context allows IREE's ops, built unregistered): a tensor of
/// its own instead of a padding IREE fuses into the window op's dispatch
/// under relay-mlir's llvm-cpu flags.
Value paddedBehindBarrier(OpBuilder &b, Location loc, Value padded);

/// The pad under `padded` (itself, or the source of a crop of it), if any.
tensor::PadOp padUnder(Value padded);

/// Output extent of a window (kernel `k`, stride, dilation) sliding over an
/// already padded extent `in`: (in - dilation*(k-1) - 1) floordiv stride +
/// 1, as an affine.apply (for `?` dims; equal extents are then provably
/// equal, SymbolicSizes.h). A run-time `in` shorter than the window is a
/// run-time error ("<opName>: the input (with its padding) is smaller than
/// the window").
OpFoldResult windowExtent(OpBuilder &b, Location loc, OpFoldResult in,
                          OpFoldResult k, int64_t stride, int64_t dilation,
                          StringRef opName);

/// Elements of one window along one dim that Relay's average divides by
/// (topi's pool_impl_nd): the window [start, start+(k-1)d] clipped to
/// `last`, counting from the first non-padding element unless padding
/// counts.
Value windowCount(OpBuilder &b, Location loc, Value outIndex, int64_t k,
                  int64_t stride, int64_t dilation, int64_t padBefore,
                  Value last, bool countPad);

/// The `strides`/`dilations` attributes of a named linalg convolution or
/// pooling op.
SmallVector<NamedAttribute> windowAttrs(OpBuilder &b, ArrayRef<int64_t> strides,
                                        ArrayRef<int64_t> dilation);

} // namespace mlir::relay::lowering

#endif // RELAY_LIB_CONVERSION_RELAYTOLINALG_WINDOW_H
