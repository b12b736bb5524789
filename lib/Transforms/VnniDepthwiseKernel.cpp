//===- VnniDepthwiseKernel.cpp - an AVX-512 VNNI depthwise convolution ----===//
//
// A depthwise convolution multiplies each channel by its own taps, so a
// vpdpbusd lane (one channel, 16 per zmm) needs 4 input bytes of that
// channel: the 4 taps of a kernel row (kw <= 4, the filter packed with
// zeros beyond kw). Per output pixel, kernel row and 16 channels the kernel
//   * loads the 16 channels of each tap's input pixel (kw loads of 16
//     bytes; masked for a last group of fewer than 16 channels),
//   * interleaves them (two concatenations and one byte permutation,
//     vpermt2b where the CPU has AVX512-VBMI) into 64 bytes, channel-major,
//     and makes them u8 (xor 0x80: the accumulators start from
//     -128·Σ w per channel, as the GEMM's do),
//   * runs one vpdpbusd with the row's packed weights.
// With stride and dilation 1 and kw < 4 the 4 pixels x[ox..ox+3] serve two
// output pixels: times (w0, w1, w2, 0) for ox and (0, w0, w1, w2) for ox+1
// (the filter is packed in both forms), so one interleave feeds two
// vpdpbusd. The products then go through the epilogue as the GEMM's do.
// f32 (any kw, zero padding): per tap a load of the 16 channels' inputs and
// a vector.fma with the tap's 16 packed weights; taps on the padding are
// left out (edge pixels) or their input selected to 0 (padding rows).
// Grid: blocks of output rows x chunks of channel groups, at least
// kMinWorkgroups when the shape allows; a workgroup's loops are rows,
// channel groups (the group's weights held in registers), pixels.
//
//===----------------------------------------------------------------------===//
#include "VnniGemmKernel.h"
#include "VnniKernelBase.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/Support/FormatVariadic.h"

#include <numeric>

using namespace mlir;
using namespace mlir::relay::vnni;

namespace {

/// Workgroups the grid aims at: enough for two threads to balance.
constexpr int64_t kMinWorkgroups = 8;
/// Bytes of one kernel row's packed weights for 16 channels.
constexpr int64_t kGroupBytes = kPanelColumns * kGroupK;

/// How a depthwise convolution's work is split into workgroups.
struct DepthwiseGrid {
  int64_t rowsPerBlock, groupsPerChunk, x, y;
};

DepthwiseGrid gridOf(const DepthwiseShape &s) {
  int64_t rows = s.batch * s.oh, groups = s.channelGroups();
  DepthwiseGrid g;
  g.rowsPerBlock = llvm::divideCeil(rows, std::min(rows, kMinWorkgroups));
  g.x = llvm::divideCeil(rows, g.rowsPerBlock);
  int64_t chunks =
      std::min<int64_t>(groups, llvm::divideCeil(kMinWorkgroups, g.x));
  g.groupsPerChunk = llvm::divideCeil(groups, chunks);
  g.y = llvm::divideCeil(groups, g.groupsPerChunk);
  return g;
}

/// Builds one workgroup's code (W: the packed filter).
struct DepthwiseBuilder : KernelBase {
  DepthwiseShape s;
  DepthwiseGrid grid;

  /// Tap (r, t)'s 16 packed f32 weights for channel group `group`.
  Value floatWeights(int64_t r, int64_t t, Value group) {
    Value offset =
        add(index((r * s.kw + t) * s.channelGroups() * kPanelColumns),
            mul(group, kPanelColumns));
    return vector::LoadOp::create(b, loc, lanesOf(b.getF32Type()), w, offset);
  }

  /// Kernel row `r`'s 64 packed weight bytes for channel group `group`
  /// (`shifted`: the (0, w0, w1, w2) form).
  Value weights(bool shifted, int64_t r, Value group) {
    int64_t variantRow = (shifted ? s.kh : 0) + r;
    Value offset = add(index(variantRow * s.channelGroups() * kGroupBytes),
                       mul(group, kGroupBytes));
    return vector::LoadOp::create(
        b, loc, VectorType::get({kGroupBytes}, b.getI8Type()), w, offset);
  }

  /// `value` in every lane of a vector of `lanes` bytes.
  Value byteSplat(int64_t lanes, int8_t value) {
    auto type = VectorType::get({lanes}, b.getI8Type());
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, b.getI8IntegerAttr(value)));
  }

  /// vpdpbusd's u8 operand for 16 channels: per channel tap j's input byte
  /// from `tapLanes[j]` (16 channels; null past the row's taps: they
  /// multiply a zero weight), interleaved, xor 0x80.
  Value interleave(ArrayRef<Value> tapLanes) {
    SmallVector<Value> v(tapLanes);
    v.resize(kGroupK);
    for (Value &t : v)
      if (!t)
        t = byteSplat(kPanelColumns, 0);
    SmallVector<int64_t> concat(2 * kPanelColumns);
    std::iota(concat.begin(), concat.end(), 0);
    Value low = vector::ShuffleOp::create(b, loc, v[0], v[1], concat);
    Value high = vector::ShuffleOp::create(b, loc, v[2], v[3], concat);
    // byte 4c + j: tap j of channel c (tap j's channels start at 16j)
    SmallVector<int64_t> order(kGroupBytes);
    for (int64_t ch = 0; ch < kPanelColumns; ++ch)
      for (int64_t j = 0; j < kGroupK; ++j)
        order[ch * kGroupK + j] = j * kPanelColumns + ch;
    Value z = vector::ShuffleOp::create(b, loc, low, high, order);
    if (s.aUnsigned)
      return z;
    return arith::XOrIOp::create(b, loc, z, byteSplat(kGroupBytes, -128));
  }

  /// The input rows a kernel row reads for one output row: where its
  /// pixel 0 (channel c0) starts, and whether it is a padding row (null:
  /// never).
  struct InputRow {
    Value start, isPadding;
  };

  /// What one output row's pixels share: their input rows, the channel
  /// group's weights (8-bit: per kernel row, unshifted and shifted; f32: per
  /// row and tap), the accumulators' initial lanes, the row's first pixel
  /// and channel.
  struct RowContext {
    SmallVector<InputRow> rows;
    SmallVector<Value> unshifted, shifted;
    SmallVector<SmallVector<Value>> taps;
    Value init, pixel0, c0;
    int64_t lanes;
  };

  /// Output row `row`'s context for channel group `group`; `checkRows`: some
  /// kernel rows may fall on the padding (a clamped row read, then the
  /// padding's bytes selected).
  RowContext rowContext(Value row, Value group, int64_t lanes, bool checkRows) {
    RowContext ctx;
    ctx.lanes = lanes;
    ctx.c0 = mul(group, kPanelColumns);
    Value image = divui(row, s.oh), oy = remui(row, s.oh);
    Value top = arith::SubIOp::create(b, loc, mul(oy, s.sh), index(s.padTop));
    for (int64_t r = 0; r < s.kh; ++r) {
      Value iy = add(top, index(r * s.dh));
      InputRow in;
      if (checkRows) {
        Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                            iy, index(0));
        Value above = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                            iy, index(s.h));
        in.isPadding = arith::OrIOp::create(b, loc, below, above);
        iy =
            minsi(arith::MaxSIOp::create(b, loc, iy, index(0)), index(s.h - 1));
      }
      in.start = add(mul(add(mul(image, s.h), iy), s.w * s.c), ctx.c0);
      ctx.rows.push_back(in);
      if (s.isFloat()) {
        ctx.taps.emplace_back();
        for (int64_t t = 0; t < s.kw; ++t)
          ctx.taps.back().push_back(floatWeights(r, t, group));
        continue;
      }
      ctx.unshifted.push_back(weights(false, r, group));
      if (s.paired())
        ctx.shifted.push_back(weights(true, r, group));
    }
    ctx.init = initLanes(ctx.c0, lanes);
    ctx.pixel0 = mul(row, s.ow);
    return ctx;
  }

  /// f32: output pixel ox's products, stored (`fixed`: ox is that constant,
  /// a pixel near an edge whose taps on the padding add nothing; else every
  /// tap is inside the row).
  void floatPixel(const RowContext &ctx, Value ox,
                  std::optional<int64_t> fixed) {
    VectorType floats = lanesOf(b.getF32Type());
    Value zeros = arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(b.getZeroAttr(floats)));
    Value acc = ctx.init;
    for (int64_t r = 0; r < s.kh; ++r)
      for (int64_t j = 0; j < s.kw; ++j) {
        Value ix;
        if (fixed) {
          int64_t at = *fixed * s.sw + j * s.dw - s.padLeft;
          if (at < 0 || at >= s.w)
            continue;
          ix = index(at);
        } else {
          ix = add(mul(ox, s.sw), index(j * s.dw - s.padLeft));
        }
        const InputRow &in = ctx.rows[r];
        Value x = loadLanes(floats, a, add(in.start, mul(ix, s.c)), ctx.lanes);
        if (in.isPadding)
          x = arith::SelectOp::create(b, loc, in.isPadding, zeros, x);
        acc = fma(acc, x, ctx.taps[r][j]);
      }
    finish(acc, add(mul(add(ctx.pixel0, ox), s.c), ctx.c0), ctx.c0, ctx.lanes);
  }

  /// 8-bit: output pixel ox, and ox + 1 when `pair`, stored (`fixed`: ox is
  /// that constant, a pixel near an edge whose taps on the padding are the
  /// padding's bytes; else every tap is inside the row).
  void bytePixels(const RowContext &ctx, Value ox, std::optional<int64_t> fixed,
                  bool pair) {
    auto bytes = VectorType::get({kPanelColumns}, b.getI8Type());
    Value paddingRow =
        byteSplat(kGroupBytes, s.aUnsigned ? s.padValue : s.padValue ^ -128);
    int64_t count = pair ? s.kw + 1 : s.kw;
    Value acc = ctx.init, next = ctx.init;
    for (int64_t r = 0; r < s.kh; ++r) {
      const InputRow &in = ctx.rows[r];
      SmallVector<Value> tapLanes;
      for (int64_t j = 0; j < count; ++j) {
        if (fixed) {
          int64_t ix = *fixed * s.sw + j * s.dw - s.padLeft;
          tapLanes.push_back(ix < 0 || ix >= s.w
                                 ? byteSplat(kPanelColumns, s.padValue)
                                 : loadLanes(bytes, a,
                                             add(in.start, index(ix * s.c)),
                                             ctx.lanes));
          continue;
        }
        Value ix = add(mul(ox, s.sw), index(j * s.dw - s.padLeft));
        tapLanes.push_back(
            loadLanes(bytes, a, add(in.start, mul(ix, s.c)), ctx.lanes));
      }
      Value z = interleave(tapLanes);
      if (in.isPadding)
        z = arith::SelectOp::create(b, loc, in.isPadding, paddingRow, z);
      acc = vpdpbusd(acc, z, ctx.unshifted[r]);
      if (pair)
        next = vpdpbusd(next, z, ctx.shifted[r]);
    }
    Value m = add(ctx.pixel0, ox);
    finish(acc, add(mul(m, s.c), ctx.c0), ctx.c0, ctx.lanes);
    if (pair)
      finish(next, add(mul(add(m, index(1)), s.c), ctx.c0), ctx.c0, ctx.lanes);
  }

  /// Output row `row` (of batch x oh) for channel group `group` (`lanes`
  /// of its channels valid); `checkRows`: some kernel rows may fall on
  /// the padding.
  void outputRow(Value row, Value group, int64_t lanes, bool checkRows) {
    RowContext ctx = rowContext(row, group, lanes, checkRows);
    auto pixels = [&](Value ox, std::optional<int64_t> fixed, bool pair) {
      if (s.isFloat())
        floatPixel(ctx, ox, fixed);
      else
        bytePixels(ctx, ox, fixed, pair);
    };
    // The steps along the row: pairs of pixels (a last single one when ow
    // is odd) or single pixels; those whose taps are all inside the row
    // (a contiguous range) in a loop, the others unrolled.
    int64_t step = s.paired() ? 2 : 1, steps = s.ow / step;
    int64_t count = s.paired() ? s.kw + 1 : s.kw;
    auto inside = [&](int64_t k) {
      int64_t first = k * step * s.sw - s.padLeft;
      return first >= 0 && first + (count - 1) * s.dw < s.w;
    };
    int64_t begin = 0;
    while (begin < steps && !inside(begin))
      ++begin;
    int64_t end = begin;
    while (end < steps && inside(end))
      ++end;
    auto fixedStep = [&](int64_t k) {
      pixels(index(k * step), k * step, s.paired());
    };
    for (int64_t k = 0; k < begin; ++k)
      fixedStep(k);
    if (begin < end)
      forRange(index(begin), index(end), [&](Value k) {
        pixels(mul(k, step), std::nullopt, s.paired());
      });
    for (int64_t k = end; k < steps; ++k)
      fixedStep(k);
    if (s.paired() && s.ow % 2)
      pixels(index(s.ow - 1), s.ow - 1, false);
  }

  /// Output row `row` for channel group `group`: without the padding
  /// checks of kernel rows where the row's windows are inside the input.
  void outputRow(Value row, Value group, int64_t lanes) {
    // oy whose windows' rows are all inside: oy * sh - padTop >= 0 and
    // oy * sh + (kh - 1) * dh - padTop < h
    int64_t first = llvm::divideCeil(s.padTop, s.sh);
    int64_t lastRow = s.h - 1 + s.padTop - (s.kh - 1) * s.dh;
    int64_t last = lastRow < 0 ? -1 : lastRow / s.sh;
    if (first == 0 && last >= s.oh - 1) {
      outputRow(row, group, lanes, false);
      return;
    }
    Value oy = remui(row, s.oh);
    Value inside = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, oy,
                              index(first)),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, oy,
                              index(last)));
    scf::IfOp::create(
        b, loc, inside,
        [&](OpBuilder &, Location) {
          outputRow(row, group, lanes, false);
          scf::YieldOp::create(b, loc);
        },
        [&](OpBuilder &, Location) {
          outputRow(row, group, lanes, true);
          scf::YieldOp::create(b, loc);
        });
  }

  void workgroup(Value wx, Value wy) {
    int64_t fullGroups = s.c / kPanelColumns, rest = s.c % kPanelColumns;
    Value first = mul(wx, grid.rowsPerBlock);
    Value end =
        minsi(add(first, index(grid.rowsPerBlock)), index(s.batch * s.oh));
    Value group0 = mul(wy, grid.groupsPerChunk);
    Value groupEnd =
        minsi(add(group0, index(grid.groupsPerChunk)), index(fullGroups));
    forRange(first, end, [&](Value row) {
      forRange(group0, groupEnd,
               [&](Value g) { outputRow(row, g, kPanelColumns); });
      if (!rest)
        return;
      Value isLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, wy,
                                           index(grid.y - 1));
      scf::IfOp::create(b, loc, isLast, [&](OpBuilder &, Location) {
        outputRow(row, index(fullGroups), rest);
        scf::YieldOp::create(b, loc);
      });
    });
  }
};

} // namespace

SymbolRefAttr mlir::relay::vnni::getOrCreateDepthwiseExecutable(
    ModuleOp module, const DepthwiseShape &s, const Epilogue &e, Location loc) {
  std::string name = llvm::formatv(
      "{0}_dwconv_{1}x{2}x{3}x{4}_{5}x{6}_s{7}x{8}_d{9}x{10}_o{11}x{12}"
      "_p{13}x{14}v{15}{16}_e{17}",
      s.isFloat() ? "relay_f32" : "relay_vnni", s.batch, s.h, s.w, s.c, s.kh,
      s.kw, s.sh, s.sw, s.dh, s.dw, s.oh, s.ow, s.padTop, s.padLeft,
      static_cast<int>(static_cast<uint8_t>(s.padValue)),
      s.aUnsigned ? "_u" : "", e.key());
  DepthwiseGrid grid = gridOf(s);
  MLIRContext *ctx = module.getContext();
  Type element = s.isFloat() ? Type(Float32Type::get(ctx))
                             : Type(IntegerType::get(ctx, 8));
  Type accumulator = s.isFloat() ? Type(Float32Type::get(ctx))
                                 : Type(IntegerType::get(ctx, 32));
  KernelSignature sig{s.batch * s.h * s.w * s.c,
                      s.packedElements(),
                      s.m(),
                      s.c,
                      grid.x,
                      grid.y,
                      element,
                      accumulator};
  return getOrCreateKernelExecutable(
      module, name, sig, e, loc, [&](KernelBase &k, ArrayRef<Value> id) {
        DepthwiseBuilder{k, s, grid}.workgroup(id[0], id[1]);
      });
}
