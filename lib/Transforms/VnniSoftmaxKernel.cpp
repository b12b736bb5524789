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
//   3. the result times 1 / s, in place.
// The lowering's arithmetic but for the order of the sum and the division
// as a multiplication by the reciprocal (results within an ulp or two).
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

  /// Where one zmm of a row is: its offset, and whether it is the row's
  /// masked tail (its first `tail()` lanes).
  struct Chunk {
    Value at;
    bool tail;
  };

  /// The chunk's lanes of `mem`; a tail's others `passthru`.
  Value load(Value mem, Chunk ch, Value passthru) {
    if (!ch.tail)
      return vector::LoadOp::create(b, loc, lanes(), mem, ch.at);
    return vector::MaskedLoadOp::create(b, loc, lanes(), mem, ch.at,
                                        prefixMask(kPanelColumns, tail()),
                                        passthru);
  }
  void store(Value v, Value mem, Chunk ch) {
    if (!ch.tail)
      vector::StoreOp::create(b, loc, v, mem, ch.at);
    else
      vector::MaskedStoreOp::create(b, loc, mem, ch.at,
                                    prefixMask(kPanelColumns, tail()), v);
  }

  /// `step(chunk, acc)` over the row's whole chunks from `base`, then on its
  /// tail if it has one; the accumulator after.
  Value overRow(Value base, Value init,
                function_ref<Value(Chunk, Value)> step) {
    auto loop = scf::ForOp::create(
        b, loc, index(0), fullChunks(), index(1), ValueRange{init},
        [&](OpBuilder &, Location, Value i, ValueRange acc) {
          scf::YieldOp::create(
              b, loc, step({add(base, mul(i, kPanelColumns)), false}, acc[0]));
        });
    Value acc = loop.getResult(0);
    if (tail())
      acc = step({add(base, index(s.n - tail())), true}, acc);
    return acc;
  }

  Value reduce(vector::CombiningKind kind, Value v) {
    return vector::BroadcastOp::create(
        b, loc, lanes(), vector::ReductionOp::create(b, loc, kind, v));
  }

  void row(Value base) {
    // a tail's missing lanes read as -inf: no maximum, exp(-inf) = 0 to sum
    Value negInf = splatF32(-std::numeric_limits<float>::infinity());
    Value max = reduce(vector::CombiningKind::MAXIMUMF,
                       overRow(base, negInf, [&](Chunk ch, Value acc) -> Value {
                         return arith::MaximumFOp::create(b, loc, acc,
                                                          load(a, ch, negInf));
                       }));
    Value sum = reduce(
        vector::CombiningKind::ADD,
        overRow(base, splatF32(0.0f), [&](Chunk ch, Value acc) -> Value {
          Value e = math::ExpOp::create(
              b, loc, arith::SubFOp::create(b, loc, load(a, ch, negInf), max));
          store(e, c, ch);
          return arith::AddFOp::create(b, loc, acc, e);
        }));
    Value inverse = arith::DivFOp::create(b, loc, splatF32(1.0f), sum);
    overRow(base, inverse, [&](Chunk ch, Value acc) -> Value {
      store(arith::MulFOp::create(b, loc, load(c, ch, acc), acc), c, ch);
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
