//===- VnniGemmKernel.cpp - AVX-512 GEMMs (VNNI u8 x s8, f32) for IREE ----===//
//
// The body of the executable (one workgroup); as written for 8-bit operands
// (for f32 a k group is one k: A's float broadcast, B's 16 floats per panel,
// a `vector.fma`; no xor, accumulators from 0, no k tail):
//   * A is read as signed bytes: 4 of them are made u8 (xor 0x80808080, in
//     a general register) before the broadcast; the accumulators start
//     from the row -128·Σ_k B, which takes the 128s out again;
//   * the grid is [row blocks of kBlockRows, groups of kTilePanels panels,
//     the matrices of a batch];
//   * a workgroup runs tiles of kTileRows rows x kTilePanels panels (24 zmm
//     accumulators, 4 zmm of B, 1 of A: 29 of the 32 registers), each a
//     loop over the k groups: per group 4 loads of 64 packed B bytes, per row
//     a broadcast of 4 A bytes, 24 vpdpbusd;
//   * sizes that do not divide are static tails: the last row block's last
//     rows (M % kTileRows), the last panel group's panels, a last panel with
//     fewer than 16 columns (masked stores), a last k group with fewer than 4
//     (masked loads of A; B's packing is zero there);
//   * a convolution reads its windows in place (implicit im2col); a zero
//     point padding its input is put in by the kernel: per tap and row the
//     tap's 4-byte groups are read from A, or from a row of the padding's
//     bytes on the stack when the tap is outside the input (no padded copy
//     of the input, no dispatch of its own for it);
//   * each zmm of products goes through the epilogue (its steps' scalar ops
//     applied to vectors of 16, its operands loaded beside it, masked like
//     the store) and is stored as the epilogue's element type.
// IREE 3.13 compiles it with the host's features; on this project's
// machine (AMD EPYC, AVX-512 VNNI) a 252x256x512 product runs at ~200 G
// multiply-adds/s on one thread, 3.4x IREE's own s8 x s8 data-tiled ukernel
// (bench/QUANT.md).
//
//===----------------------------------------------------------------------===//
#include "VnniGemmKernel.h"
#include "VnniKernelBase.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::relay::vnni;

namespace {

constexpr int64_t kTileRows = 6;
constexpr int64_t kTilePanels = 4;
/// Rows per workgroup at most (a multiple of kTileRows): the packed B of a
/// panel group (K x 64 bytes) stays in L2 while the block's tiles reuse it.
constexpr int64_t kBlockRows = 96;
/// Workgroups the grid aims at: enough for two threads to balance.
constexpr int64_t kMinWorkgroups = 8;
/// Epilogues of at most this many ops are applied to a tile's products
/// unrolled; longer ones in a loop over its rows.
constexpr int64_t kUnrolledEpilogueOps = 16;

/// Rows of a workgroup's block: a multiple of kTileRows, at most kBlockRows,
/// small enough that the grid has kMinWorkgroups when it can.
int64_t blockRows(const GemmShape &s) {
  int64_t panelGroups = llvm::divideCeil(s.panels(), kTilePanels);
  int64_t rowBlocks = llvm::divideCeil(kMinWorkgroups, panelGroups * s.batch);
  int64_t rows = llvm::divideCeil(s.m, rowBlocks);
  rows = llvm::divideCeil(rows, kTileRows) * kTileRows;
  return std::clamp(rows, kTileRows, kBlockRows);
}

/// Builds one workgroup's code (W: B packed).
struct GemmBuilder : KernelBase {
  GemmShape s;
  /// Where the workgroup's matrix starts in A, W, C and the initial rows
  /// (one product of a batch; 0 without one).
  Value aBase, wBase, cBase, initBase;

  /// The bases of matrix `z` of the batch.
  void setMatrix(Value z) {
    if (s.batch == 1) {
      aBase = wBase = cBase = initBase = index(0);
      return;
    }
    aBase = mul(z, s.m * s.k);
    wBase = mul(z, s.packedElements());
    cBase = mul(z, s.m * s.n);
    initBase = mul(z, s.n);
  }

  bool isFloat() const { return s.arithmetic == Arithmetic::Float32; }

  /// One k group of A's row at `offset` of `mem` (A, or the padding's
  /// row) in the 16 lanes of a zmm, as the multiply takes it: one f32; or 4
  /// bytes (the first `valid` of them, the others 0) made u8, as 64 bytes.
  Value broadcastA(Value mem, Value offset, int64_t valid) {
    if (isFloat())
      return vector::BroadcastOp::create(
          b, loc, lanesOf(b.getF32Type()),
          memref::LoadOp::create(b, loc, mem, offset));
    auto bytes = VectorType::get({kGroupK}, b.getI8Type());
    Value four = loadLanes(bytes, mem, offset, valid);
    Value word = vector::BitCastOp::create(
        b, loc, VectorType::get({1}, b.getI32Type()), four);
    Value scalar = vector::ExtractOp::create(b, loc, word, 0);
    if (!s.aUnsigned)
      scalar = arith::XOrIOp::create(
          b, loc, scalar, arith::ConstantIntOp::create(b, loc, 0x80808080, 32));
    Value lanes = vector::BroadcastOp::create(
        b, loc, VectorType::get({kPanelColumns}, b.getI32Type()), scalar);
    return vector::BitCastOp::create(
        b, loc, VectorType::get({64}, b.getI8Type()), lanes);
  }

  /// acc + a x b for one k group (`vpdpbusd` or `vfmadd`).
  Value multiplyAdd(Value acc, Value x, Value y) {
    return isFloat() ? fma(acc, x, y) : vpdpbusd(acc, x, y);
  }

  /// The element of A where GEMM row `row` starts: the row of a matrix, or the
  /// first tap of an output pixel's window in an input it does not pad.
  Value rowStart(Value row) {
    if (!s.conv)
      return add(aBase, mul(row, s.k));
    const ImplicitConv &v = *s.conv;
    OutputPixel p = pixelOf(row);
    Value y = add(mul(p.image, v.h), mul(p.oy, v.sh));
    return mul(add(mul(y, v.w), mul(p.ox, v.sw)), v.c);
  }

  /// The output pixel of a convolution's GEMM row: its image, row and
  /// column.
  struct OutputPixel {
    Value image, oy, ox;
  };
  OutputPixel pixelOf(Value row) {
    const ImplicitConv &v = *s.conv;
    Value inImage = remui(row, v.oh * v.ow);
    return {divui(row, v.oh * v.ow), divui(inImage, v.ow),
            remui(inImage, v.ow)};
  }

  /// One k group of a tile: `acc` [rows x panels] updated with the group
  /// at `aOffsets` (one per row) of A, or of `aMems` when given (one per
  /// row), and B's group `g`.
  SmallVector<Value> group(ArrayRef<Value> aOffsets, Value panel, Value g,
                           int64_t panels, int64_t validK, ValueRange acc,
                           ArrayRef<Value> aMems = {}) {
    int64_t groupElements = kPanelColumns * s.groupK();
    auto type = VectorType::get({groupElements}, s.element(b.getContext()));
    SmallVector<Value> bs;
    // packed: [panel][group][16 x groupK]; in place: [k][N]
    int64_t panelStride = s.bInPlace ? kPanelColumns : s.panelElements();
    int64_t groupStride = s.bInPlace ? s.n : groupElements;
    for (int64_t j = 0; j < panels; ++j) {
      Value offset = add(wBase, add(mul(add(panel, index(j)), panelStride),
                                    mul(g, groupStride)));
      bs.push_back(vector::LoadOp::create(b, loc, type, w, offset));
    }
    SmallVector<Value> next;
    for (auto [i, offset] : llvm::enumerate(aOffsets)) {
      Value ai = broadcastA(aMems.empty() ? a : aMems[i], offset, validK);
      for (int64_t j = 0; j < panels; ++j)
        next.push_back(multiplyAdd(acc[i * panels + j], ai, bs[j]));
    }
    return next;
  }

  /// `starts` (one per row) advanced by `bytes`.
  SmallVector<Value> offsetsAt(ArrayRef<Value> starts, Value bytes) {
    return llvm::map_to_vector(starts, [&](Value v) { return add(v, bytes); });
  }

  /// The k loop of a matrix: the whole groups, then the k left (8-bit: K %
  /// 4).
  SmallVector<Value> matrixProducts(ArrayRef<Value> starts, Value panel,
                                    int64_t panels, ValueRange init) {
    int64_t groupK = s.groupK(), fullGroups = s.k / groupK;
    auto loop = scf::ForOp::create(
        b, loc, index(0), index(fullGroups), index(1), init,
        [&](OpBuilder &, Location, Value g, ValueRange acc) {
          scf::YieldOp::create(b, loc,
                               group(offsetsAt(starts, mul(g, groupK)), panel,
                                     g, panels, groupK, acc));
        });
    SmallVector<Value> acc(loop.getResults());
    if (int64_t rest = s.k % groupK)
      acc = group(offsetsAt(starts, index(fullGroups * groupK)), panel,
                  index(fullGroups), panels, rest, acc);
    return acc;
  }

  /// Where each row of a tile reads tap `t` of its window: the byte offsets
  /// of its first channel and, when not all from A, the memrefs.
  struct TapReads {
    SmallVector<Value> starts, mems;
  };

  /// The k loops of a convolution: the taps (`readsOf` each), in each the
  /// channel groups.
  SmallVector<Value> convProducts(function_ref<TapReads(Value)> readsOf,
                                  Value panel, int64_t panels,
                                  ValueRange init) {
    const ImplicitConv &v = *s.conv;
    int64_t groupK = s.groupK(), groupsPerTap = v.c / groupK;
    auto taps = scf::ForOp::create(
        b, loc, index(0), index(v.kh * v.kw), index(1), init,
        [&](OpBuilder &, Location, Value t, ValueRange tapInit) {
          TapReads reads = readsOf(t);
          Value firstGroup = mul(t, groupsPerTap);
          auto channels = scf::ForOp::create(
              b, loc, index(0), index(groupsPerTap), index(1), tapInit,
              [&](OpBuilder &, Location, Value cg, ValueRange acc) {
                scf::YieldOp::create(
                    b, loc,
                    group(offsetsAt(reads.starts, mul(cg, groupK)), panel,
                          add(firstGroup, cg), panels, groupK, acc,
                          reads.mems));
              });
          scf::YieldOp::create(b, loc, channels.getResults());
        });
    return SmallVector<Value>(taps.getResults());
  }

  /// Tap `t` of the windows starting at `starts` in an input the kernel
  /// does not pad: at a fixed distance from the window's first byte.
  TapReads unpaddedTap(ArrayRef<Value> starts, Value t) {
    const ImplicitConv &v = *s.conv;
    Value ty = divui(t, v.kw), tx = remui(t, v.kw);
    Value tap = mul(add(mul(ty, v.dh * v.w), mul(tx, v.dw)), v.c);
    return {offsetsAt(starts, tap), {}};
  }

  /// Where the window of GEMM row `row` starts in a convolution's input
  /// the kernel pads: its image's first byte and the (signed) input row and
  /// column of its first tap, which may be on the padding.
  struct Window {
    Value image, y, x;
  };
  Window windowOf(Value row) {
    const ImplicitConv &v = *s.conv;
    OutputPixel p = pixelOf(row);
    return {mul(p.image, v.h * v.w * v.c),
            arith::SubIOp::create(b, loc, mul(p.oy, v.sh), index(v.padTop)),
            arith::SubIOp::create(b, loc, mul(p.ox, v.sw), index(v.padLeft))};
  }

  /// Tap `t` of `windows` in an input the kernel pads: a row whose tap is
  /// inside the input reads A at its pixel, else the padding's row
  /// (`padRow`: c bytes of the padding's value) from 0 — one select of
  /// each per row and tap, none in the channel loop.
  TapReads paddedTap(ArrayRef<Window> windows, Value t) {
    const ImplicitConv &v = *s.conv;
    Value ty = mul(divui(t, v.kw), v.dh), tx = mul(remui(t, v.kw), v.dw);
    auto below = [&](Value i, int64_t n) {
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, i,
                                   index(n));
    };
    TapReads reads;
    for (const Window &win : windows) {
      Value y = add(win.y, ty), x = add(win.x, tx);
      Value inside =
          arith::AndIOp::create(b, loc, below(y, v.h), below(x, v.w));
      Value pixel = add(win.image, mul(add(mul(y, v.w), x), v.c));
      reads.mems.push_back(
          arith::SelectOp::create(b, loc, inside, anyA, padRow));
      reads.starts.push_back(
          arith::SelectOp::create(b, loc, inside, pixel, index(0)));
    }
    return reads;
  }

  /// A and the padding's row as memref<?xT> (one type for the select),
  /// made at the function's start for a convolution the kernel pads.
  Value anyA, padRow;

  void makePadRow() {
    const ImplicitConv &v = *s.conv;
    Type element = s.element(b.getContext());
    auto anyRow = MemRefType::get({ShapedType::kDynamic}, element);
    int64_t lanes = 64 / (element.getIntOrFloatBitWidth() / 8);
    int64_t size = llvm::alignTo(v.c, lanes);
    Value row =
        memref::AllocaOp::create(b, loc, MemRefType::get({size}, element));
    // the padding as the kernel reads A: signed bytes made u8 by the xor
    // in broadcastA, or u8 already; floats' padding is 0
    Value value =
        isFloat() ? Value(arith::ConstantFloatOp::create(b, loc, b.getF32Type(),
                                                         APFloat(0.0f)))
                  : Value(arith::ConstantIntOp::create(b, loc, v.padValue, 8));
    Value splat = vector::BroadcastOp::create(
        b, loc, VectorType::get({lanes}, element), value);
    for (int64_t at = 0; at < size; at += lanes)
      vector::StoreOp::create(b, loc, splat, row, index(at));
    padRow = memref::CastOp::create(b, loc, anyRow, row);
    anyA = memref::CastOp::create(b, loc, anyRow, a);
  }

  /// The tile of `rows` rows from `row` and `panels` panels from `panel`;
  /// the last panel stores its first `lastColumns` columns.
  void tile(Value row, Value panel, int64_t rows, int64_t panels,
            int64_t lastColumns) {
    SmallVector<Value> rowInit;
    for (int64_t j = 0; j < panels; ++j)
      rowInit.push_back(
          initLanes(add(initBase, mul(add(panel, index(j)), kPanelColumns)),
                    j == panels - 1 ? lastColumns : kPanelColumns));
    SmallVector<Value> init;
    for (int64_t i = 0; i < rows; ++i)
      init.append(rowInit);
    SmallVector<Value> acc;
    if (s.conv && s.conv->padded()) {
      SmallVector<Window> windows;
      for (int64_t i = 0; i < rows; ++i)
        windows.push_back(windowOf(add(row, index(i))));
      acc = convProducts([&](Value t) { return paddedTap(windows, t); }, panel,
                         panels, init);
    } else {
      SmallVector<Value> starts;
      for (int64_t i = 0; i < rows; ++i)
        starts.push_back(rowStart(add(row, index(i))));
      acc = s.conv
                ? convProducts([&](Value t) { return unpaddedTap(starts, t); },
                               panel, panels, init)
                : matrixProducts(starts, panel, panels, init);
    }
    auto finishRow = [&](Value i, function_ref<Value(int64_t)> products) {
      for (int64_t j = 0; j < panels; ++j) {
        Value column = mul(add(panel, index(j)), kPanelColumns);
        Value offset = add(cBase, add(mul(add(row, i), s.n), column));
        int64_t lanes = j == panels - 1 ? lastColumns : kPanelColumns;
        finish(products(j), offset, column, lanes);
      }
    };
    if (e.size() <= kUnrolledEpilogueOps) {
      for (int64_t i = 0; i < rows; ++i)
        finishRow(index(i), [&](int64_t j) { return acc[i * panels + j]; });
      return;
    }
    // A long epilogue once per panel in a loop over the rows (the products
    // through a buffer on the stack): unrolled for every product of every
    // tile shape, its code would outgrow the instruction cache.
    VectorType accLanes = lanesOf(accumulator);
    for (auto [k, v] : llvm::enumerate(acc))
      vector::StoreOp::create(b, loc, v, scratchBuffer,
                              index(k * kPanelColumns));
    forRange(index(0), index(rows), [&](Value i) {
      Value first = mul(i, panels * kPanelColumns);
      finishRow(i, [&](int64_t j) -> Value {
        return vector::LoadOp::create(b, loc, accLanes, scratchBuffer,
                                      add(first, index(j * kPanelColumns)));
      });
    });
  }

  /// A stack buffer for one tile's products when the epilogue is applied
  /// in a loop (made at the function's start).
  Value scratchBuffer;

  /// The workgroup's rows (block `wx` of `rowsPerBlock`) for the panels
  /// from `panel`: full tiles, then on the last block the M % kTileRows
  /// rows left.
  void rowsOfBlock(Value wx, int64_t rowsPerBlock, Value panel, int64_t panels,
                   int64_t lastColumns) {
    Value first = mul(wx, rowsPerBlock);
    Value left = arith::SubIOp::create(b, loc, index(s.m), first);
    Value here = minsi(left, index(rowsPerBlock));
    forRange(index(0), divui(here, kTileRows), [&](Value t) {
      tile(add(first, mul(t, kTileRows)), panel, kTileRows, panels,
           lastColumns);
    });
    int64_t rest = s.m % kTileRows;
    if (rest == 0)
      return;
    int64_t lastBlock = llvm::divideCeil(s.m, rowsPerBlock) - 1;
    Value isLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, wx,
                                         index(lastBlock));
    scf::IfOp::create(b, loc, isLast, [&](OpBuilder &, Location) {
      tile(index(s.m - rest), panel, rest, panels, lastColumns);
      scf::YieldOp::create(b, loc);
    });
  }

  /// The whole workgroup: its panel group, the last one possibly partial,
  /// of matrix `wz` of the batch.
  void workgroup(Value wx, Value wy, Value wz, int64_t rowsPerBlock) {
    setMatrix(wz);
    if (s.conv && s.conv->padded())
      makePadRow();
    if (e.size() > kUnrolledEpilogueOps)
      scratchBuffer = memref::AllocaOp::create(
          b, loc,
          MemRefType::get({kTileRows * kTilePanels * kPanelColumns},
                          accumulator));
    int64_t groups = llvm::divideCeil(s.panels(), kTilePanels);
    int64_t lastPanels = s.panels() - (groups - 1) * kTilePanels;
    int64_t lastColumns = s.n - (s.panels() - 1) * kPanelColumns;
    Value panel = mul(wy, kTilePanels);
    if (lastPanels == kTilePanels && lastColumns == kPanelColumns) {
      rowsOfBlock(wx, rowsPerBlock, panel, kTilePanels, kPanelColumns);
      return;
    }
    Value isLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, wy,
                                         index(groups - 1));
    scf::IfOp::create(
        b, loc, isLast,
        [&](OpBuilder &, Location) {
          rowsOfBlock(wx, rowsPerBlock, panel, lastPanels, lastColumns);
          scf::YieldOp::create(b, loc);
        },
        [&](OpBuilder &, Location) {
          rowsOfBlock(wx, rowsPerBlock, panel, kTilePanels, kPanelColumns);
          scf::YieldOp::create(b, loc);
        });
  }
};

} // namespace

Type GemmShape::element(MLIRContext *ctx) const {
  if (arithmetic == Arithmetic::Float32)
    return Float32Type::get(ctx);
  return IntegerType::get(ctx, 8);
}

Type GemmShape::accumulator(MLIRContext *ctx) const {
  if (arithmetic == Arithmetic::Float32)
    return Float32Type::get(ctx);
  return IntegerType::get(ctx, 32);
}

SymbolRefAttr mlir::relay::vnni::getOrCreateGemmExecutable(ModuleOp module,
                                                           const GemmShape &s,
                                                           const Epilogue &e,
                                                           Location loc) {
  StringRef kind =
      s.arithmetic == Arithmetic::Float32 ? "relay_f32" : "relay_vnni";
  std::string name = llvm::formatv("{0}_gemm_{1}x{2}x{3}", kind, s.m, s.n, s.k);
  if (s.batch > 1)
    name = llvm::formatv("{0}_batch_gemm_{1}x{2}x{3}x{4}", kind, s.batch, s.m,
                         s.n, s.k);
  if (const std::optional<ImplicitConv> &v = s.conv)
    name = llvm::formatv("{0}_conv_{1}x{2}x{3}x{4}_{5}x{6}_s{7}x{8}_d{9}"
                         "x{10}_{11}",
                         kind, v->batch, v->h, v->w, v->c, v->kh, v->kw, v->sh,
                         v->sw, v->dh, v->dw, s.n);
  if (s.bInPlace)
    name += "_b";
  if (const std::optional<ImplicitConv> &v = s.conv; v && v->padded())
    name += llvm::formatv("_p{0}x{1}v{2}", v->padTop, v->padLeft,
                          static_cast<int>(static_cast<uint8_t>(v->padValue)));
  name += (s.aUnsigned ? "_u_e" : "_e") + e.key();
  int64_t rowsPerBlock = blockRows(s);
  MLIRContext *ctx = module.getContext();
  KernelSignature sig{s.aElements(),
                      s.batch * s.packedElements(),
                      s.m,
                      s.n,
                      llvm::divideCeil(s.m, rowsPerBlock),
                      llvm::divideCeil(s.panels(), kTilePanels),
                      s.element(ctx),
                      s.accumulator(ctx),
                      s.batch};
  return getOrCreateKernelExecutable(
      module, name, sig, e, loc, [&](KernelBase &k, ArrayRef<Value> id) {
        GemmBuilder{k, s}.workgroup(id[0], id[1], id[2], rowsPerBlock);
      });
}
