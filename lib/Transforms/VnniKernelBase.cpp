//===- VnniKernelBase.cpp - what relay-vnni-matmul's kernels share --------===//
//
// The executable around a kernel (a `stream.executable` with a constant
// grid, its entry's bindings) and the end of every vector of products: the
// epilogue's steps (scalar arith/math bodies cloned on vector<16xT>, their
// operands loaded beside the products) and the store.
//
//===----------------------------------------------------------------------===//
#include "VnniKernelBase.h"
#include "../Conversion/RelayToLinalg/IREEOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::relay::vnni;
using mlir::relay::iree::createGeneric;

VectorType mlir::relay::vnni::lanesOf(Type element) {
  return VectorType::get({kPanelColumns}, element);
}

Value KernelBase::index(int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value KernelBase::add(Value x, Value y) {
  return arith::AddIOp::create(b, loc, x, y);
}

Value KernelBase::mul(Value x, int64_t y) {
  return arith::MulIOp::create(b, loc, x, index(y));
}

Value KernelBase::divui(Value x, int64_t y) {
  return arith::DivUIOp::create(b, loc, x, index(y));
}

Value KernelBase::remui(Value x, int64_t y) {
  return arith::RemUIOp::create(b, loc, x, index(y));
}

Value KernelBase::minsi(Value x, Value y) {
  return arith::MinSIOp::create(b, loc, x, y);
}

void KernelBase::forRange(Value from, Value to,
                          function_ref<void(Value)> body) {
  scf::ForOp::create(b, loc, from, to, index(1), ValueRange{},
                     [&](OpBuilder &, Location, Value i, ValueRange) {
                       body(i);
                       scf::YieldOp::create(b, loc);
                     });
}

Value KernelBase::prefixMask(int64_t lanes, int64_t n) {
  SmallVector<bool> bits(lanes, false);
  std::fill_n(bits.begin(), n, true);
  auto type = VectorType::get({lanes}, b.getI1Type());
  return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, bits));
}

Value KernelBase::loadLanes(VectorType type, Value mem, Value at,
                            int64_t lanes) {
  if (lanes == type.getNumElements())
    return vector::LoadOp::create(b, loc, type, mem, at);
  Value zero =
      arith::ConstantOp::create(b, loc, cast<TypedAttr>(b.getZeroAttr(type)));
  return vector::MaskedLoadOp::create(
      b, loc, type, mem, at, prefixMask(type.getNumElements(), lanes), zero);
}

Value KernelBase::splat(TypedAttr value) {
  return arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(lanesOf(value.getType()),
                             ArrayRef<Attribute>{value}));
}

Value KernelBase::vpdpbusd(Value acc, Value u8, Value s8) {
  return LLVM::CallIntrinsicOp::create(b, loc, acc.getType(),
                                       b.getStringAttr(kVpdpbusd),
                                       ValueRange{acc, u8, s8})
      .getResult(0);
}

Value KernelBase::fma(Value acc, Value x, Value y) {
  return vector::FMAOp::create(b, loc, x, y, acc);
}

Value KernelBase::initLanes(Value column, int64_t lanes) {
  return loadLanes(lanesOf(accumulator), initRow, column, lanes);
}

/// Epilogue operand `k` for the results at `offset` (of C) and `column`.
Value KernelBase::operandLanes(unsigned k, Value offset, Value column,
                               int64_t lanes) {
  const EpilogueOperand &o = e.operands[k];
  if (o.read == EpilogueRead::Scalar)
    return scalarLanes[k];
  Value at = o.read == EpilogueRead::Column ? column : offset;
  return loadLanes(lanesOf(o.element), operands[k], at, lanes);
}

/// `op` of an epilogue step on vectors of 16 (`map`: the body's scalars
/// to their vectors; a constant from outside the body becomes a splat).
void KernelBase::vectorize(Operation &op, IRMapping &map) {
  auto constant = [&](Value scalar) {
    TypedAttr value;
    matchPattern(scalar, m_Constant(&value));
    return splat(value);
  };
  if (isa<arith::ConstantOp>(op)) {
    map.map(op.getResult(0), constant(op.getResult(0)));
    return;
  }
  SmallVector<Value> args = llvm::map_to_vector(op.getOperands(), [&](Value v) {
    Value mapped = map.lookupOrNull(v);
    return mapped ? mapped : constant(v);
  });
  SmallVector<Type> types = llvm::map_to_vector(
      op.getResultTypes(), [](Type t) -> Type { return lanesOf(t); });
  OperationState state(loc, op.getName(), args, types, op.getAttrs());
  Operation *vectorOp = b.create(state);
  map.map(op.getResults(), vectorOp->getResults());
}

/// The epilogue applied to the products `acc` at `offset` of C (column
/// `column`, `lanes` of them valid).
Value KernelBase::epilogue(Value acc, Value offset, Value column,
                           int64_t lanes) {
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

void KernelBase::finish(Value acc, Value offset, Value column, int64_t lanes) {
  Value v = epilogue(acc, offset, column, lanes);
  if (lanes < kPanelColumns)
    vector::MaskedStoreOp::create(b, loc, c, offset,
                                  prefixMask(kPanelColumns, lanes), v);
  else
    vector::StoreOp::create(b, loc, v, c, offset);
}

namespace {

/// The export `name`: its workgroup count (a constant grid).
void buildExport(OpBuilder &b, Location loc, StringRef name, int64_t x,
                 int64_t y, int64_t z) {
  MLIRContext *ctx = b.getContext();
  Operation *exportOp = createGeneric(
      b, loc, "stream.executable.export", {}, {},
      {b.getNamedAttr("function_ref", FlatSymbolRefAttr::get(ctx, name)),
       b.getNamedAttr("sym_name", b.getStringAttr(name)),
       b.getNamedAttr("sym_visibility", b.getStringAttr("public"))},
      1);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&exportOp->getRegion(0).emplaceBlock());
  createGeneric(b, loc, "stream.return",
                {arith::ConstantIndexOp::create(b, loc, x),
                 arith::ConstantIndexOp::create(b, loc, y),
                 arith::ConstantIndexOp::create(b, loc, z)},
                {});
}

/// The entry function `name` reading its bindings (A, W, the initial row,
/// the epilogue's operands, C; no W and row when `s.wElements` is 0) and
/// running `body`.
void buildEntry(OpBuilder &b, Location loc, StringRef name,
                const KernelSignature &s, const Epilogue &e,
                WorkgroupBody body) {
  MLIRContext *ctx = b.getContext();
  Type binding = OpaqueType::get(StringAttr::get(ctx, "stream"), "binding");
  // A, W and the initial rows (none for a kernel without weights), the
  // epilogue's operands, C
  unsigned weights = s.wElements > 0 ? 2 : 0;
  SmallVector<Type> bindings(2 + weights + e.operands.size(), binding);
  auto func =
      func::FuncOp::create(b, loc, name, FunctionType::get(ctx, bindings, {}));
  OpBuilder::InsertionGuard guard(b);
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  auto subspan = [&](unsigned i, int64_t size, Type elem) {
    return createGeneric(b, loc, "stream.binding.subspan",
                         {entry->getArgument(i), zero},
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
  KernelBase k{b,
               loc,
               e,
               s.n,
               s.accumulator,
               subspan(0, s.aElements, s.element),
               weights ? subspan(1, s.wElements, s.element) : Value(),
               weights ? subspan(2, s.batch * s.n, s.accumulator) : Value(),
               subspan(last, s.batch * s.m * s.n, e.result),
               {},
               {}};
  for (auto [i, o] : llvm::enumerate(e.operands)) {
    int64_t size = o.read == EpilogueRead::Full     ? s.batch * s.m * s.n
                   : o.read == EpilogueRead::Column ? s.n
                                                    : 1;
    k.operands.push_back(subspan(1 + weights + i, size, o.element));
    k.scalarLanes.push_back(
        o.read != EpilogueRead::Scalar
            ? Value()
            : vector::BroadcastOp::create(
                  b, loc, lanesOf(o.element),
                  memref::LoadOp::create(b, loc, k.operands.back(), zero)));
  }
  body(k, {id(0), id(1), id(2)});
  func::ReturnOp::create(b, loc);
}

} // namespace

SymbolRefAttr mlir::relay::vnni::getOrCreateKernelExecutable(
    ModuleOp module, StringRef name, const KernelSignature &sig,
    const Epilogue &epilogue, Location loc, WorkgroupBody body) {
  MLIRContext *ctx = module.getContext();
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
  buildExport(b, loc, name, sig.gridX, sig.gridY, sig.batch);
  auto inner = ModuleOp::create(b, loc);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(inner.getBody());
    buildEntry(b, loc, name, sig, epilogue, body);
  }
  createGeneric(b, loc, "stream.executable.end", {}, {});
  return ref;
}
