//===- VnniGemmKernel.cpp - an AVX-512 VNNI u8 x s8 GEMM for IREE ---------===//
//
// The body of the executable (one workgroup):
//   * A is read as signed bytes: 4 of them are made u8 (xor 0x80808080, in
//     a general register) before the broadcast; the accumulators start
//     from the row -128·Σ_k B, which takes the 128s out again;
//   * the grid is [row blocks of kBlockRows, groups of kTilePanels panels];
//   * a workgroup runs tiles of kTileRows rows x kTilePanels panels (24 zmm
//     accumulators, 4 zmm of B, 1 of A: 29 of the 32 registers), each a
//     loop over the k groups: per group 4 loads of 64 packed B bytes, per row
//     a broadcast of 4 A bytes, 24 vpdpbusd;
//   * sizes that do not divide are static tails: the last row block's last
//     rows (M % kTileRows), the last panel group's panels, a last panel with
//     fewer than 16 columns (masked stores), a last k group with fewer than 4
//     (masked loads of A; B's packing is zero there);
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
#include "../Conversion/RelayToLinalg/IREEOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::relay::vnni;
using mlir::relay::iree::createGeneric;

namespace {

constexpr int64_t kTileRows = 6;
constexpr int64_t kTilePanels = 4;
/// Rows per workgroup at most (a multiple of kTileRows): the packed B of a
/// panel group (K x 64 bytes) stays in L2 while the block's tiles reuse it.
constexpr int64_t kBlockRows = 96;
/// Workgroups the grid aims at: enough for two threads to balance.
constexpr int64_t kMinWorkgroups = 8;
constexpr StringLiteral kVpdpbusd = "llvm.x86.avx512.vpdpbusd.512";

/// Rows of a workgroup's block: a multiple of kTileRows, at most kBlockRows,
/// small enough that the grid has kMinWorkgroups when it can.
int64_t blockRows(const GemmShape &s) {
  int64_t panelGroups = llvm::divideCeil(s.panels(), kTilePanels);
  int64_t rowBlocks = llvm::divideCeil(kMinWorkgroups, panelGroups);
  int64_t rows = llvm::divideCeil(s.m, rowBlocks);
  rows = llvm::divideCeil(rows, kTileRows) * kTileRows;
  return std::clamp(rows, kTileRows, kBlockRows);
}

/// A zmm of `element`s (16 lanes of the results' columns).
VectorType lanesOf(Type element) {
  return VectorType::get({kPanelColumns}, element);
}

/// Builds one workgroup's code.
struct KernelBuilder {
  OpBuilder &b;
  Location loc;
  GemmShape s;
  const Epilogue &e;
  // memref<aBytes x i8>, memref<packedBytes x i8>, memref<N x i32> (the
  // accumulators' initial row), memref<M*N x result>
  Value a, bp, initRow, c;
  // the epilogue's operands: memref<N>, memref<M*N> or memref<1>; the
  // scalars loaded once, broadcast to 16 lanes
  SmallVector<Value> operands, scalarLanes;

  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t y) {
    return arith::MulIOp::create(b, loc, x, index(y));
  }
  /// The constant mask of the first `n` of `lanes` lanes.
  Value prefixMask(int64_t lanes, int64_t n) {
    SmallVector<bool> bits(lanes, false);
    std::fill_n(bits.begin(), n, true);
    auto type = VectorType::get({lanes}, b.getI1Type());
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(type, bits));
  }

  /// The 4 bytes of A at byte `offset` (the first `valid` of them; the
  /// others are 0) broadcast to the 16 lanes of a zmm, as 64 bytes.
  Value broadcastA(Value offset, int64_t valid) {
    auto bytes = VectorType::get({kGroupK}, b.getI8Type());
    Value four =
        valid == kGroupK
            ? vector::LoadOp::create(b, loc, bytes, a, offset).getResult()
            : vector::MaskedLoadOp::create(
                  b, loc, bytes, a, offset, prefixMask(kGroupK, valid),
                  arith::ConstantOp::create(
                      b, loc,
                      DenseElementsAttr::get(bytes, b.getI8IntegerAttr(0))))
                  .getResult();
    Value word = vector::BitCastOp::create(
        b, loc, VectorType::get({1}, b.getI32Type()), four);
    Value bias = arith::ConstantIntOp::create(b, loc, 0x80808080, 32);
    Value scalar = arith::XOrIOp::create(
        b, loc, vector::ExtractOp::create(b, loc, word, 0), bias);
    Value lanes = vector::BroadcastOp::create(
        b, loc, VectorType::get({kPanelColumns}, b.getI32Type()), scalar);
    return vector::BitCastOp::create(
        b, loc, VectorType::get({64}, b.getI8Type()), lanes);
  }

  /// The byte of A where GEMM row `row` starts: the row of a matrix, or the
  /// first tap of an output pixel's window in the padded input.
  Value rowStart(Value row) {
    if (!s.conv)
      return mul(row, s.k);
    const ImplicitConv &v = *s.conv;
    Value pixels = index(v.oh * v.ow);
    Value image = arith::DivUIOp::create(b, loc, row, pixels);
    Value inImage = arith::RemUIOp::create(b, loc, row, pixels);
    Value oy = arith::DivUIOp::create(b, loc, inImage, index(v.ow));
    Value ox = arith::RemUIOp::create(b, loc, inImage, index(v.ow));
    Value y = add(mul(image, v.h), mul(oy, v.sh));
    return mul(add(mul(y, v.w), mul(ox, v.sw)), v.c);
  }

  /// One k group of a tile: `acc` [rows x panels] updated with A's 4 bytes
  /// at `aOffsets` (one per row) and B's group `g`.
  SmallVector<Value> group(ArrayRef<Value> aOffsets, Value panel, Value g,
                           int64_t panels, int64_t validK, ValueRange acc) {
    auto bytes = VectorType::get({64}, b.getI8Type());
    SmallVector<Value> bs;
    for (int64_t j = 0; j < panels; ++j) {
      Value offset = add(mul(add(panel, index(j)), s.panelBytes()), mul(g, 64));
      bs.push_back(vector::LoadOp::create(b, loc, bytes, bp, offset));
    }
    auto i32x16 = VectorType::get({kPanelColumns}, b.getI32Type());
    StringAttr intrinsic = b.getStringAttr(kVpdpbusd);
    SmallVector<Value> next;
    for (auto [i, offset] : llvm::enumerate(aOffsets)) {
      Value ai = broadcastA(offset, validK);
      for (int64_t j = 0; j < panels; ++j)
        next.push_back(LLVM::CallIntrinsicOp::create(
                           b, loc, i32x16, intrinsic,
                           ValueRange{acc[i * panels + j], ai, bs[j]})
                           .getResult(0));
    }
    return next;
  }

  /// `starts` (one per row) advanced by `bytes`.
  SmallVector<Value> offsetsAt(ArrayRef<Value> starts, Value bytes) {
    return llvm::map_to_vector(starts, [&](Value v) { return add(v, bytes); });
  }

  /// The k loop of a matrix: K / 4 whole groups, then the K % 4 left.
  SmallVector<Value> matrixProducts(ArrayRef<Value> starts, Value panel,
                                    int64_t panels, ValueRange init) {
    int64_t fullGroups = s.k / kGroupK;
    auto loop = scf::ForOp::create(
        b, loc, index(0), index(fullGroups), index(1), init,
        [&](OpBuilder &, Location, Value g, ValueRange acc) {
          scf::YieldOp::create(b, loc,
                               group(offsetsAt(starts, mul(g, kGroupK)), panel,
                                     g, panels, kGroupK, acc));
        });
    SmallVector<Value> acc(loop.getResults());
    if (int64_t rest = s.k % kGroupK)
      acc = group(offsetsAt(starts, index(fullGroups * kGroupK)), panel,
                  index(fullGroups), panels, rest, acc);
    return acc;
  }

  /// The k loops of a convolution: the taps, in each the channel groups.
  SmallVector<Value> convProducts(ArrayRef<Value> starts, Value panel,
                                  int64_t panels, ValueRange init) {
    const ImplicitConv &v = *s.conv;
    int64_t groupsPerTap = v.c / kGroupK;
    auto taps = scf::ForOp::create(
        b, loc, index(0), index(v.kh * v.kw), index(1), init,
        [&](OpBuilder &, Location, Value t, ValueRange tapInit) {
          Value ty = arith::DivUIOp::create(b, loc, t, index(v.kw));
          Value tx = arith::RemUIOp::create(b, loc, t, index(v.kw));
          Value tap = mul(add(mul(ty, v.dh * v.w), mul(tx, v.dw)), v.c);
          SmallVector<Value> tapStarts = offsetsAt(starts, tap);
          Value firstGroup = mul(t, groupsPerTap);
          auto channels = scf::ForOp::create(
              b, loc, index(0), index(groupsPerTap), index(1), tapInit,
              [&](OpBuilder &, Location, Value cg, ValueRange acc) {
                scf::YieldOp::create(
                    b, loc,
                    group(offsetsAt(tapStarts, mul(cg, kGroupK)), panel,
                          add(firstGroup, cg), panels, kGroupK, acc));
              });
          scf::YieldOp::create(b, loc, channels.getResults());
        });
    return SmallVector<Value>(taps.getResults());
  }

  /// 16 lanes of `type` from `mem` at `at`, the first `lanes` of them.
  Value loadLanes(VectorType type, Value mem, Value at, int64_t lanes) {
    if (lanes == kPanelColumns)
      return vector::LoadOp::create(b, loc, type, mem, at);
    Value zero =
        arith::ConstantOp::create(b, loc, cast<TypedAttr>(b.getZeroAttr(type)));
    return vector::MaskedLoadOp::create(b, loc, type, mem, at,
                                        prefixMask(kPanelColumns, lanes), zero);
  }

  /// Epilogue operand `k` for the results at `offset` (of C) and `column`.
  Value operandLanes(unsigned k, Value offset, Value column, int64_t lanes) {
    const EpilogueOperand &o = e.operands[k];
    if (o.read == EpilogueRead::Scalar)
      return scalarLanes[k];
    Value at = o.read == EpilogueRead::Column ? column : offset;
    return loadLanes(lanesOf(o.element), operands[k], at, lanes);
  }

  /// The scalar constant `value` in 16 lanes.
  Value splat(TypedAttr value) {
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(lanesOf(value.getType()),
                               ArrayRef<Attribute>{value}));
  }

  /// `op` of an epilogue step on vectors of 16 (`map`: the body's scalars
  /// to their vectors; a constant from outside the body becomes a splat).
  void vectorize(Operation &op, IRMapping &map) {
    auto constant = [&](Value scalar) {
      TypedAttr value;
      matchPattern(scalar, m_Constant(&value));
      return splat(value);
    };
    if (isa<arith::ConstantOp>(op)) {
      map.map(op.getResult(0), constant(op.getResult(0)));
      return;
    }
    SmallVector<Value> args =
        llvm::map_to_vector(op.getOperands(), [&](Value v) {
          Value mapped = map.lookupOrNull(v);
          return mapped ? mapped : constant(v);
        });
    SmallVector<Type> types = llvm::map_to_vector(
        op.getResultTypes(), [](Type t) -> Type { return lanesOf(t); });
    OperationState state(loc, op.getName(), args, types, op.getAttrs());
    Operation *vectorOp = b.create(state);
    map.map(op.getResults(), vectorOp->getResults());
  }

  /// The epilogue applied to the products `acc` stored at `offset` of C
  /// (column `column`, `lanes` of them valid).
  Value epilogue(Value acc, Value offset, Value column, int64_t lanes) {
    SmallVector<Value> steps;
    for (const EpilogueStage &stage : e.stages) {
      IRMapping map;
      for (auto [arg, from] : llvm::zip(stage.body->getArguments(), stage.args))
        switch (from.kind) {
        case EpilogueArg::Kind::Unused:
          break;
        case EpilogueArg::Kind::Product:
          map.map(arg, acc);
          break;
        case EpilogueArg::Kind::Step:
          map.map(arg, steps[from.index]);
          break;
        case EpilogueArg::Kind::Operand:
          map.map(arg, operandLanes(from.index, offset, column, lanes));
          break;
        case EpilogueArg::Kind::Constant:
          map.map(arg, splat(from.constant));
          break;
        }
      for (Operation &op : stage.body->without_terminator())
        vectorize(op, map);
      steps.push_back(map.lookup(stage.body->getTerminator()->getOperand(0)));
    }
    return steps.empty() ? acc : steps.back();
  }

  /// The tile of `rows` rows from `row` and `panels` panels from `panel`;
  /// the last panel stores its first `lastColumns` columns.
  void tile(Value row, Value panel, int64_t rows, int64_t panels,
            int64_t lastColumns) {
    auto i32x16 = VectorType::get({kPanelColumns}, b.getI32Type());
    SmallVector<Value> rowInit;
    for (int64_t j = 0; j < panels; ++j)
      rowInit.push_back(
          loadLanes(i32x16, initRow, mul(add(panel, index(j)), kPanelColumns),
                    j == panels - 1 ? lastColumns : kPanelColumns));
    SmallVector<Value> init;
    for (int64_t i = 0; i < rows; ++i)
      init.append(rowInit);
    SmallVector<Value> starts;
    for (int64_t i = 0; i < rows; ++i)
      starts.push_back(rowStart(add(row, index(i))));
    SmallVector<Value> acc = s.conv
                                 ? convProducts(starts, panel, panels, init)
                                 : matrixProducts(starts, panel, panels, init);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < panels; ++j) {
        Value column = mul(add(panel, index(j)), kPanelColumns);
        Value offset = add(mul(add(row, index(i)), s.n), column);
        int64_t lanes = j == panels - 1 ? lastColumns : kPanelColumns;
        Value v = epilogue(acc[i * panels + j], offset, column, lanes);
        if (lanes < kPanelColumns)
          vector::MaskedStoreOp::create(b, loc, c, offset,
                                        prefixMask(kPanelColumns, lanes), v);
        else
          vector::StoreOp::create(b, loc, v, c, offset);
      }
  }

  /// The workgroup's rows (block `wx` of `rowsPerBlock`) for the panels
  /// from `panel`: full tiles, then on the last block the M % kTileRows
  /// rows left.
  void rowsOfBlock(Value wx, int64_t rowsPerBlock, Value panel, int64_t panels,
                   int64_t lastColumns) {
    Value first = mul(wx, rowsPerBlock);
    Value left = arith::SubIOp::create(b, loc, index(s.m), first);
    Value here = arith::MinSIOp::create(b, loc, left, index(rowsPerBlock));
    Value tiles = arith::DivUIOp::create(b, loc, here, index(kTileRows));
    scf::ForOp::create(b, loc, index(0), tiles, index(1), ValueRange{},
                       [&](OpBuilder &, Location, Value t, ValueRange) {
                         tile(add(first, mul(t, kTileRows)), panel, kTileRows,
                              panels, lastColumns);
                         scf::YieldOp::create(b, loc);
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

  /// The whole workgroup: its panel group, the last one possibly partial.
  void workgroup(Value wx, Value wy, int64_t rowsPerBlock) {
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

/// The export `name`: its workgroup count (a constant grid).
void buildExport(OpBuilder &b, Location loc, StringRef name, int64_t x,
                 int64_t y) {
  MLIRContext *ctx = b.getContext();
  Operation *exportOp = createGeneric(
      b, loc, "stream.executable.export", {}, {},
      {b.getNamedAttr("function_ref", FlatSymbolRefAttr::get(ctx, name)),
       b.getNamedAttr("sym_name", b.getStringAttr(name)),
       b.getNamedAttr("sym_visibility", b.getStringAttr("public"))},
      1);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&exportOp->getRegion(0).emplaceBlock());
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  createGeneric(b, loc, "stream.return",
                {arith::ConstantIndexOp::create(b, loc, x),
                 arith::ConstantIndexOp::create(b, loc, y), one},
                {});
}

/// The entry function `name` reading its bindings: A, B, the initial row,
/// the epilogue's operands, C.
void buildEntry(OpBuilder &b, Location loc, StringRef name, const GemmShape &s,
                const Epilogue &e, int64_t rowsPerBlock) {
  MLIRContext *ctx = b.getContext();
  Type binding = OpaqueType::get(StringAttr::get(ctx, "stream"), "binding");
  SmallVector<Type> bindings(4 + e.operands.size(), binding);
  auto func =
      func::FuncOp::create(b, loc, name, FunctionType::get(ctx, bindings, {}));
  OpBuilder::InsertionGuard guard(b);
  Block *body = func.addEntryBlock();
  b.setInsertionPointToStart(body);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  auto subspan = [&](unsigned i, int64_t size, Type elem) {
    return createGeneric(b, loc, "stream.binding.subspan",
                         {body->getArgument(i), zero},
                         MemRefType::get({size}, elem))
        ->getResult(0);
  };
  auto id = [&](int64_t dim) {
    return createGeneric(b, loc, "stream.dispatch.workgroup.id", {},
                         b.getIndexType(),
                         {b.getNamedAttr("dimension", b.getIndexAttr(dim))})
        ->getResult(0);
  };
  unsigned last = bindings.size() - 1;
  KernelBuilder k{b,
                  loc,
                  s,
                  e,
                  subspan(0, s.aBytes(), b.getI8Type()),
                  subspan(1, s.packedBytes(), b.getI8Type()),
                  subspan(2, s.n, b.getI32Type()),
                  subspan(last, s.m * s.n, e.result),
                  {},
                  {}};
  for (auto [i, o] : llvm::enumerate(e.operands)) {
    int64_t size = o.read == EpilogueRead::Full     ? s.m * s.n
                   : o.read == EpilogueRead::Column ? s.n
                                                    : 1;
    k.operands.push_back(subspan(3 + i, size, o.element));
    k.scalarLanes.push_back(
        o.read != EpilogueRead::Scalar
            ? Value()
            : vector::BroadcastOp::create(
                  b, loc, lanesOf(o.element),
                  memref::LoadOp::create(b, loc, k.operands.back(), zero)));
  }
  Value wx = id(0), wy = id(1);
  k.workgroup(wx, wy, rowsPerBlock);
  func::ReturnOp::create(b, loc);
}

} // namespace

SymbolRefAttr mlir::relay::vnni::getOrCreateGemmExecutable(ModuleOp module,
                                                           const GemmShape &s,
                                                           const Epilogue &e,
                                                           Location loc) {
  MLIRContext *ctx = module.getContext();
  std::string name =
      llvm::formatv("relay_vnni_gemm_{0}x{1}x{2}", s.m, s.n, s.k);
  if (const std::optional<ImplicitConv> &v = s.conv)
    name = llvm::formatv("relay_vnni_conv_{0}x{1}x{2}x{3}_{4}x{5}_s{6}x{7}_d{8}"
                         "x{9}_{10}",
                         v->batch, v->h, v->w, v->c, v->kh, v->kw, v->sh, v->sw,
                         v->dh, v->dw, s.n);
  name += "_e" + e.key();
  // IREE links all executables into one: the entry's name is unique too
  auto ref = SymbolRefAttr::get(ctx, name, FlatSymbolRefAttr::get(ctx, name));
  for (Operation &op : module.getBody()->getOperations())
    if (auto sym = op.getAttrOfType<StringAttr>("sym_name"))
      if (op.getName().getStringRef() == "stream.executable" && sym == name)
        return ref;
  OpBuilder b(ctx);
  b.setInsertionPointToStart(module.getBody());
  Operation *exe = createGeneric(
      b, loc, "stream.executable", {}, {},
      {b.getNamedAttr("sym_name", b.getStringAttr(name)),
       b.getNamedAttr("sym_visibility", b.getStringAttr("private"))},
      1);
  b.setInsertionPointToStart(&exe->getRegion(0).emplaceBlock());
  int64_t rowsPerBlock = blockRows(s);
  buildExport(b, loc, name, llvm::divideCeil(s.m, rowsPerBlock),
              llvm::divideCeil(s.panels(), kTilePanels));
  auto inner = ModuleOp::create(b, loc);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(inner.getBody());
    buildEntry(b, loc, name, s, e, rowsPerBlock);
  }
  createGeneric(b, loc, "stream.executable.end", {}, {});
  return ref;
}
