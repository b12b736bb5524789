//===- VnniGemmKernel.h - AVX-512 GEMMs (VNNI u8 x s8, f32) for IREE -*- C++
//-*-===//
//
// The executable relay-vnni-matmul dispatches: C[M, N] = f(A[M, K] x B[K, N] +
// row[N]) for A and B signed i8 (the product in i32, by `vpdpbusd`) or f32
// (by `vfmadd`), B packed (VnniWeights.h) and f an elementwise epilogue (the
// matmul's consumers: bias, requantization, activation) applied to each
// vector of results before it is stored; written in MLIR (scf + vector +
// the `llvm.x86.avx512.vpdpbusd.512` intrinsic) as the body of an IREE
// `stream.executable`, which IREE's llvm-cpu backend compiles like its own
// dispatches.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_TRANSFORMS_VNNIGEMMKERNEL_H
#define RELAY_TRANSFORMS_VNNIGEMMKERNEL_H

#include "mlir/IR/BuiltinOps.h"

#include <string>

#include <optional>

namespace mlir::relay::vnni {

/// Columns per packed panel (one zmm of i32 or f32 results) and k per group
/// of the 8-bit kernel (one vpdpbusd multiplies groups of four u8 x s8
/// pairs).
constexpr int64_t kPanelColumns = 16;
constexpr int64_t kGroupK = 4;

/// What a GEMM kernel multiplies: signed 8-bit operands into i32 (A made u8
/// for `vpdpbusd`, k in groups of kGroupK), or f32 into f32 (one k per
/// `vfmadd`).
enum class Arithmetic { Int8, Float32 };

/// A convolution read as a GEMM without copying its patches (implicit
/// im2col): A's rows are the output pixels of an NHWC input, its k the
/// (kh, kw, c) taps of an HWIO filter; `c` is a multiple of the k group. The
/// kernel pads the input itself: `padTop` rows and `padLeft` columns of
/// `padValue` before it, as many as the windows need after it (a tap on
/// the padding reads a row of `padValue` bytes instead of the input).
struct ImplicitConv {
  int64_t batch, h, w, c; // the input as the kernel reads it
  int64_t oh, ow;         // the output image
  int64_t kh, kw, sh, sw, dh, dw;
  int64_t padTop = 0, padLeft = 0;
  /// The padding's byte, as the input's bytes are read (0 for f32: only a
  /// zero padding is read in place there).
  int8_t padValue = 0;
  /// Whether some window reaches outside the input.
  bool padded() const {
    return padTop > 0 || padLeft > 0 ||
           (oh - 1) * sh + (kh - 1) * dh - padTop >= h ||
           (ow - 1) * sw + (kw - 1) * dw - padLeft >= w;
  }
};

/// A static GEMM shape: A [m, k], B [k, n], C [m, n]; A is a matrix, or
/// the input of `conv` (m = batch * oh * ow, k = kh * kw * c). Matrices may
/// come in a `batch` of independent products (A [batch, m, k], B packed per
/// matrix, C [batch, m, n], an initial row per matrix).
struct GemmShape {
  int64_t m, n, k;
  std::optional<ImplicitConv> conv;
  int64_t batch = 1;
  /// A's bytes are already u8 (A + 128: read from the tensor that a u8 ->
  /// s8 shift made A of), not signed.
  bool aUnsigned = false;
  Arithmetic arithmetic = Arithmetic::Int8;
  /// B is read where it is, a row-major [batch, K, N] tensor (an
  /// activation, f32, N a multiple of 16: a panel's 16 floats of a k are
  /// contiguous), instead of packed.
  bool bInPlace = false;
  /// k per group: what one multiply instruction reduces per lane.
  int64_t groupK() const {
    return arithmetic == Arithmetic::Int8 ? kGroupK : 1;
  }
  /// A's and B's element type, and the products'.
  Type element(MLIRContext *ctx) const;
  Type accumulator(MLIRContext *ctx) const;
  /// A's elements (the convolution's whole input, or every matrix).
  int64_t aElements() const {
    return conv ? conv->batch * conv->h * conv->w * conv->c : batch * m * k;
  }
  int64_t panels() const { return (n + kPanelColumns - 1) / kPanelColumns; }
  int64_t groups() const { return (k + groupK() - 1) / groupK(); }
  /// Elements of one packed panel: groups() x 16 columns x groupK().
  int64_t panelElements() const { return groups() * kPanelColumns * groupK(); }
  /// Elements of one matrix's packed B (its K x N when read in place).
  int64_t packedElements() const {
    return bInPlace ? k * n : panels() * panelElements();
  }
};

/// A static depthwise convolution (linalg.depthwise_conv_2d_nhwc_hwc): the
/// NHWC input [batch, h, w, c], padded by the kernel itself (`padTop`,
/// `padLeft` rows and columns of `padValue` before it, as many as the
/// windows need after it), the filter [kh, kw, c], the result [batch, oh,
/// ow, c] (as C: M = batch * oh * ow rows of N = c columns). 8-bit: kw at
/// most kGroupK (a kernel row is one group of 4 taps); f32: any kw, a zero
/// padding.
struct DepthwiseShape {
  int64_t batch, h, w, c;
  int64_t oh, ow;
  int64_t kh, kw, sh, sw, dh, dw;
  int64_t padTop = 0, padLeft = 0;
  /// The padding's byte, as the input's bytes are read.
  int8_t padValue = 0;
  /// The input's bytes are already u8 (GemmShape::aUnsigned).
  bool aUnsigned = false;
  Arithmetic arithmetic = Arithmetic::Int8;
  /// B is read where it is, a row-major [batch, K, N] tensor (an
  /// activation, f32, N a multiple of 16: a panel's 16 floats of a k are
  /// contiguous), instead of packed.
  bool bInPlace = false;
  bool isFloat() const { return arithmetic == Arithmetic::Float32; }
  int64_t m() const { return batch * oh * ow; }
  int64_t channelGroups() const {
    return (c + kPanelColumns - 1) / kPanelColumns;
  }
  /// Whether one group of 4 input pixels serves two neighbouring output
  /// pixels: x[ox..ox+3] times (w0, w1, w2, 0) and (0, w0, w1, w2) (8-bit).
  bool paired() const {
    return !isFloat() && sw == 1 && dw == 1 && kw < kGroupK;
  }
  /// The packed filter's elements: 8-bit, per variant (unshifted, then
  /// shifted when paired), per kernel row, per channel group, 16 channels
  /// x 4 taps; f32, per tap (row-major), per channel group, 16 channels.
  int64_t packedElements() const {
    if (isFloat())
      return kh * kw * channelGroups() * kPanelColumns;
    return (paired() ? 2 : 1) * kh * channelGroups() * kPanelColumns * kGroupK;
  }
};

/// How the epilogue reads one of its operands (a binding of the executable
/// after A and B) at result [m, n]: `column[n]` (a vector of N, one value
/// per column), `full[m * N + n]` (a tensor of the result's layout) or
/// `scalar[0]`.
enum class EpilogueRead { Column, Full, Scalar };

struct EpilogueOperand {
  Type element;
  EpilogueRead read;
};

/// Where an argument of an epilogue step's body comes from: the i32
/// product, an earlier step's value, an epilogue operand, a scalar constant
/// (splat), or nowhere (the unused output).
struct EpilogueArg {
  enum class Kind { Unused, Product, Step, Operand, Constant };
  Kind kind = Kind::Unused;
  int index = -1; // Step: the step; Operand: the operand
  TypedAttr constant;
};

/// One step of the epilogue: the scalar body of an elementwise
/// `linalg.generic` (ops of the arith and math dialects, constants) and its
/// arguments' sources.
struct EpilogueStage {
  Block *body;
  SmallVector<EpilogueArg> args;
};

/// The elementwise function of the i32 products that the kernel stores
/// (element type `result`): its steps in order, each reading the product,
/// earlier steps, operands and constants, the last one's value stored (the
/// products when there is none); borrowed from the program's ops while the
/// executable is built.
struct Epilogue {
  SmallVector<EpilogueOperand> operands;
  SmallVector<EpilogueStage> stages;
  Type result;
  /// Equal for epilogues that compute the same function of their operands
  /// (executables are shared between them).
  std::string key() const;
  /// The ops its steps run per vector of products.
  int64_t size() const;
};

/// The executable computing `shape` followed by `epilogue` in `module` (made
/// at its start once per shape and epilogue; the context must allow
/// unregistered dialects): the reference `@name::@name` (executable::entry)
/// a `flow.dispatch` names, whose operands are A (flat), B (packed), the
/// accumulators' initial rows ([batch * N] of the accumulator type) and the
/// epilogue's operands, its result the flat [batch * M * N] of
/// `epilogue.result`.
SymbolRefAttr getOrCreateGemmExecutable(ModuleOp module, const GemmShape &shape,
                                        const Epilogue &epilogue, Location loc);

/// The executable computing the depthwise convolution `shape` followed by
/// `epilogue` (bindings: the unpadded input (flat), the filter packed as
/// DepthwiseShape::packedBytes says, the accumulators' initial row (i32
/// [c]), the epilogue's operands; result: the flat [M * c]).
SymbolRefAttr getOrCreateDepthwiseExecutable(ModuleOp module,
                                             const DepthwiseShape &shape,
                                             const Epilogue &epilogue,
                                             Location loc);

/// A static f32 softmax along the last axis: `rows` rows of `n`.
struct SoftmaxShape {
  int64_t rows, n;
};

/// The executable computing softmax `shape` (VnniSoftmaxKernel.cpp;
/// bindings: the input (flat) and the result, [rows * n] f32).
SymbolRefAttr getOrCreateSoftmaxExecutable(ModuleOp module,
                                           const SoftmaxShape &shape,
                                           Location loc);

} // namespace mlir::relay::vnni

#endif // RELAY_TRANSFORMS_VNNIGEMMKERNEL_H
