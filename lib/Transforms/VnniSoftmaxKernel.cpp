//===- VnniSoftmaxKernel.cpp - softmax over rows, AVX-512, for IREE -------===//
//
// nn.softmax along the last axis of a static f32 tensor as one dispatch of
// our own (relay-vnni-matmul with `float32`), instead of the two reduction
// dispatches IREE 3.13 makes of the lowering's max / exp / sum / divide
// (ViT-Tiny's 3x197x197 attention: ~115 us per layer on one thread, and
// hardly faster on two). Per row, in zmm's of 16 floats (the last one
// masked, its lanes read as -inf so that they add exp(-inf) = 0):
//   1. m = max x;
//   2. e = exp(x - m), stored as the result, s = sum e;
//   3. the result divided by s in place (a division, as the lowering's).
// The same arithmetic as the lowering's ops but for the order of the sum.
// Grid: blocks of rows, kMinWorkgroups of them when there are enough rows.
//
//===----------------------------------------------------------------------===//
#include "VnniGemmKernel.h"
#include "VnniKernelBase.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::relay::vnni;

namespace {

/// Workgroups the grid aims at: enough for two threads to balance.
constexpr int64_t kMinWorkgroups = 16;

struct SoftmaxBuilder : KernelBase {
  SoftmaxShape s;
  int64_t rowsPerBlock;

  VectorType lanes() { return lanesOf(b.getF32Type()); }
  Value splatF32(float v) { return splat(b.getF32FloatAttr(v)); }
  Value fullChunks() { return index(s.n / kPanelColumns); }
  int64_t tail() const { return s.n % kPanelColumns; }

  /// The last chunk's lanes of `mem` at `at`, the others `passthru`.
  Value tailLoad(Value mem, Value at, Value passthru) {
    return vector::MaskedLoadOp::create(
        b, loc, lanes(), mem, at, prefixMask(kPanelColumns, tail()), passthru);
  }
  void tailStore(Value v, Value mem, Value at) {
    vector::MaskedStoreOp::create(b, loc, mem, at,
                                  prefixMask(kPanelColumns, tail()), v);
  }

  /// `step(offset, acc)` over the row's whole chunks from `base`, then
  /// `last(offset, acc)` on its tail if it has one; the accumulator after.
  Value overRow(Value base, Value init, function_ref<Value(Value, Value)> step,
                function_ref<Value(Value, Value)> last) {
    auto loop = scf::ForOp::create(
        b, loc, index(0), fullChunks(), index(1), ValueRange{init},
        [&](OpBuilder &, Location, Value i, ValueRange acc) {
          scf::YieldOp::create(b, loc,
                               step(add(base, mul(i, kPanelColumns)), acc[0]));
        });
    Value acc = loop.getResult(0);
    if (tail())
      acc = last(add(base, index(s.n - tail())), acc);
    return acc;
  }

  Value reduce(vector::CombiningKind kind, Value v) {
    return vector::BroadcastOp::create(
        b, loc, lanes(), vector::ReductionOp::create(b, loc, kind, v));
  }

  void row(Value base) {
    Value negInf = splatF32(-std::numeric_limits<float>::infinity());
    auto load = [&](Value mem, Value at) {
      return vector::LoadOp::create(b, loc, lanes(), mem, at).getResult();
    };
    Value max =
        reduce(vector::CombiningKind::MAXIMUMF,
               overRow(
                   base, negInf,
                   [&](Value at, Value acc) -> Value {
                     return arith::MaximumFOp::create(b, loc, acc, load(a, at));
                   },
                   [&](Value at, Value acc) -> Value {
                     return arith::MaximumFOp::create(b, loc, acc,
                                                      tailLoad(a, at, negInf));
                   }));
    auto shiftedExp = [&](Value x) -> Value {
      return math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, x, max));
    };
    Value sum = reduce(vector::CombiningKind::ADD,
                       overRow(
                           base, splatF32(0.0f),
                           [&](Value at, Value acc) -> Value {
                             Value e = shiftedExp(load(a, at));
                             vector::StoreOp::create(b, loc, e, c, at);
                             return arith::AddFOp::create(b, loc, acc, e);
                           },
                           [&](Value at, Value acc) -> Value {
                             Value e = shiftedExp(tailLoad(a, at, negInf));
                             tailStore(e, c, at);
                             return arith::AddFOp::create(b, loc, acc, e);
                           }));
    Value inverse = arith::DivFOp::create(b, loc, splatF32(1.0f), sum);
    overRow(
        base, inverse,
        [&](Value at, Value acc) -> Value {
          vector::StoreOp::create(
              b, loc, arith::MulFOp::create(b, loc, load(c, at), acc), c, at);
          return acc;
        },
        [&](Value at, Value acc) -> Value {
          tailStore(arith::MulFOp::create(b, loc, tailLoad(c, at, acc), acc), c,
                    at);
          return acc;
        });
  }

  void workgroup(Value wx) {
    Value first = mul(wx, rowsPerBlock);
    Value last = minsi(add(first, index(rowsPerBlock)), index(s.rows));
    forRange(first, last, [&](Value r) { row(mul(r, s.n)); });
  }
};

} // namespace

SymbolRefAttr mlir::relay::vnni::getOrCreateSoftmaxExecutable(
    ModuleOp module, const SoftmaxShape &s, Location loc) {
  std::string name = llvm::formatv("relay_f32_softmax_{0}x{1}", s.rows, s.n);
  int64_t rowsPerBlock =
      llvm::divideCeil(s.rows, std::min(s.rows, kMinWorkgroups));
  MLIRContext *ctx = module.getContext();
  Type f32 = Float32Type::get(ctx);
  Epilogue none;
  none.result = f32;
  const Epilogue &e = none;
  KernelSignature sig{
      s.rows * s.n, 0,  s.rows, s.n, llvm::divideCeil(s.rows, rowsPerBlock), 1,
      f32,          f32};
  return getOrCreateKernelExecutable(
      module, name, sig, e, loc, [&](KernelBase &k, ArrayRef<Value> id) {
        SoftmaxBuilder{k, s, rowsPerBlock}.workgroup(id[0]);
      });
}
