//===- VnniGemmKernel.h - an AVX-512 VNNI u8 x s8 GEMM for IREE -*- C++ -*-===//
//
// The executable relay-vnni-matmul dispatches: C[M, N] (i32) = A[M, K] (u8)
// x B[K, N] (s8), B packed (packVnniWeight's layout), written in MLIR
// (scf + vector + the `llvm.x86.avx512.vpdpbusd.512` intrinsic) as the body
// of an IREE `stream.executable`, which IREE's llvm-cpu backend compiles
// like its own dispatches.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_TRANSFORMS_VNNIGEMMKERNEL_H
#define RELAY_TRANSFORMS_VNNIGEMMKERNEL_H

#include "mlir/IR/BuiltinOps.h"

#include <optional>

namespace mlir::relay::vnni {

/// Columns per packed panel (one zmm of i32 results) and k per group (one
/// vpdpbusd multiplies groups of four u8 x s8 pairs).
constexpr int64_t kPanelColumns = 16;
constexpr int64_t kGroupK = 4;

/// A convolution read as a GEMM without copying its patches (implicit
/// im2col): A's rows are the output pixels of a padded NHWC input, its k
/// the (kh, kw, c) taps of an HWIO filter; `c` is a multiple of kGroupK.
struct ImplicitConv {
  int64_t batch, h, w, c; // the padded input
  int64_t oh, ow;         // the output image
  int64_t kh, kw, sh, sw, dh, dw;
};

/// A static GEMM shape: A [m, k], B [k, n], C [m, n]; A is a matrix, or
/// the input of `conv` (m = batch * oh * ow, k = kh * kw * c).
struct GemmShape {
  int64_t m, n, k;
  std::optional<ImplicitConv> conv;
  int64_t aBytes() const {
    return conv ? conv->batch * conv->h * conv->w * conv->c : m * k;
  }
  int64_t panels() const { return (n + kPanelColumns - 1) / kPanelColumns; }
  int64_t groups() const { return (k + kGroupK - 1) / kGroupK; }
  /// Bytes of one packed panel: groups() x 16 columns x 4.
  int64_t panelBytes() const { return groups() * kPanelColumns * kGroupK; }
  int64_t packedBytes() const { return panels() * panelBytes(); }
};

/// The executable computing `shape` in `module` (made at its start once per
/// shape; the context must allow unregistered dialects): the reference
/// `@relay_vnni_gemm_MxNxK::@relay_vnni_gemm_MxNxK` (executable::entry) a
/// `flow.dispatch` names.
SymbolRefAttr getOrCreateGemmExecutable(ModuleOp module, const GemmShape &shape,
                                        Location loc);

} // namespace mlir::relay::vnni

#endif // RELAY_TRANSFORMS_VNNIGEMMKERNEL_H
