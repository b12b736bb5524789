//===- VnniKernelBase.h - what relay-vnni-matmul's kernels share -*- C++
//-*-===//
//
// relay-vnni-matmul's executables (the GEMM of VnniGemmKernel.cpp, the
// depthwise convolution of VnniDepthwiseKernel.cpp) have one interface:
// bindings A (the 8-bit input, flat), W (the weights packed for the kernel),
// the accumulators' initial row (i32 [N]), the epilogue's operands and C
// (the flat [M, N] result), and one way of finishing a vector of 16 i32
// products: the epilogue's steps applied in registers, then a (masked)
// store. KernelBase holds that part; each kernel adds its loops.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_TRANSFORMS_VNNIKERNELBASE_H
#define RELAY_TRANSFORMS_VNNIKERNELBASE_H

#include "VnniGemmKernel.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::relay::vnni {

/// A zmm of `element`s (16 lanes: 16 result columns).
VectorType lanesOf(Type element);

/// The `llvm.x86.avx512.vpdpbusd.512` intrinsic's name.
constexpr StringLiteral kVpdpbusd = "llvm.x86.avx512.vpdpbusd.512";

/// The code of one workgroup, and the helpers kernels share.
struct KernelBase {
  OpBuilder &b;
  Location loc;
  const Epilogue &e;
  /// Columns of C (N: its row length).
  int64_t columns;
  /// The products' element type (i32, f32).
  Type accumulator;
  // memref<? x T> (A), memref<? x T> (W), memref<batch*N x accumulator>,
  // memref<batch*M*N x result> (C)
  Value a, w, initRow, c;
  // the epilogue's operands: memref<N>, memref<M*N> or memref<1>; the
  // scalars loaded once, broadcast to 16 lanes
  SmallVector<Value> operands, scalarLanes;

  Value index(int64_t v);
  Value add(Value x, Value y);
  Value mul(Value x, int64_t y);
  Value divui(Value x, int64_t y);
  Value remui(Value x, int64_t y);
  Value minsi(Value x, Value y);
  /// `body(i)` for i from `from` to `to` (an scf.for without results).
  void forRange(Value from, Value to, function_ref<void(Value)> body);
  /// The constant mask of the first `n` of `lanes` lanes.
  Value prefixMask(int64_t lanes, int64_t n);
  /// 16 lanes of `type` from `mem` at `at`, the first `lanes` of them (the
  /// others 0).
  Value loadLanes(VectorType type, Value mem, Value at, int64_t lanes);
  /// The scalar constant `value` in 16 lanes.
  Value splat(TypedAttr value);
  /// acc + the products of groups of 4 u8 x s8 pairs (`u8`, `s8`: 64
  /// bytes each) per lane.
  Value vpdpbusd(Value acc, Value u8, Value s8);
  /// acc + a * b per lane (f32).
  Value fma(Value acc, Value a, Value b);
  /// The accumulators' initial 16 lanes at `column`.
  Value initLanes(Value column, int64_t lanes);
  /// The products `acc` at `offset` of C (column `column`, `lanes` of them
  /// valid) through the epilogue, stored.
  void finish(Value acc, Value offset, Value column, int64_t lanes);

private:
  Value operandLanes(unsigned k, Value offset, Value column, int64_t lanes);
  void vectorize(Operation &op, IRMapping &map);
  Value epilogue(Value acc, Value offset, Value column, int64_t lanes);
};

/// The bindings' sizes and element types and the grid of a kernel's
/// executable: C is `batch` results of [m, n], the initial row `batch` of
/// [n]; the grid's z is the batch. A kernel without weights (`wElements`
/// 0) has neither W nor the initial rows.
struct KernelSignature {
  int64_t aElements, wElements, m, n;
  int64_t gridX, gridY;
  Type element, accumulator;
  int64_t batch = 1;
};

/// The executable `name` in `module` (made at its start once: the context
/// must allow unregistered dialects), its entry reading `sig`'s bindings
/// and running `body(kernel, workgroup id)` (x, y, z); the reference
/// `@name::@name` a `flow.dispatch` names.
using WorkgroupBody = function_ref<void(KernelBase &, ArrayRef<Value>)>;
SymbolRefAttr getOrCreateKernelExecutable(ModuleOp module, StringRef name,
                                          const KernelSignature &sig,
                                          const Epilogue &epilogue,
                                          Location loc, WorkgroupBody body);

} // namespace mlir::relay::vnni

#endif // RELAY_TRANSFORMS_VNNIKERNELBASE_H
