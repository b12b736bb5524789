//===- VnniMatmul.cpp - relay-vnni-matmul ---------------------------------===//
//
// Quantized models contract 8-bit operands into i32 (nn.dense, the patch
// matmuls of nn.conv2d: `linalg.matmul` of i8 x i8 -> i32). IREE 3.13 has
// no u8 x s8 kernel for AVX-512 VNNI's `vpdpbusd` (its s8 x s8 ukernel
// multiplies pairs of i16 with `vpdpwssd`, half the rate), so on a CPU with
// VNNI such a matmul whose right operand is a compile-time constant is
// computed by our own kernel (VnniGemmKernel.cpp), dispatched with
// `flow.dispatch`:
//
//   C = A·B = (A + 128)·B - 128·Σ_k B        (A signed i8, A + 128 as u8)
//
// The kernel makes A + 128 (`A xor 0x80`) as it reads A; B is packed into
// 16-column panels of 4-row groups and -128·Σ_k B is a constant row the
// kernel's accumulators start from (both computed here from the constant:
// VnniWeights.h). Its epilogue then adds the matmul's init when it is not zero
// and goes on with the elementwise ops after the contraction (VnniEpilogue.h):
// the dispatch's result is theirs. A depthwise convolution of the same
// kind takes the depthwise kernel (VnniDepthwiseKernel.cpp), its filter
// packed by packDepthwiseWeights, the same epilogue. With `float32`, f32
// matmuls, convolutions and depthwise convolutions with constant weights
// take the same kernels' f32 forms (vnni::Arithmetic::Float32: vfmadd, no
// shift or correction row). A batch_matmul with a constant B (Winograd's
// products) is one dispatch of the GEMM over its matrices. Also with
// `float32`: a softmax along the last axis (the lowering's max, exp, sum and
// division) is one dispatch of the softmax kernel (VnniSoftmaxKernel.cpp).
//
//===----------------------------------------------------------------------===//
#include "../Conversion/RelayToLinalg/IREEOps.h"
#include "VnniEpilogue.h"
#include "VnniGemmKernel.h"
#include "VnniWeights.h"
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

#include <array>
#include <numeric>

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYVNNIMATMUL
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// Whether `v` is computed from constants alone (IREE evaluates it at
/// compile time): a constant, or a side-effect free op of such values.
bool isConstantExpr(Value v, unsigned depth = 0) {
  Operation *def = v.getDefiningOp();
  if (!def || depth > 16)
    return false;
  if (matchPattern(v, m_Constant()))
    return true;
  if (!isMemoryEffectFree(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isConstantExpr(operand, depth + 1);
  });
}

/// The pieces of a contraction the kernel can take: A (a matrix [M, K], or
/// the padded NHWC input of a convolution), B (constant; a matrix read as
/// [K, N] or, `transposedB`, [N, K], or an HWIO filter), the init [M, N] (a
/// convolution's [batch, OH, OW, N]), all static, i8 x i8 -> i32, signed.
struct Candidate {
  Operation *op;
  Value a, b, init;
  bool transposedB;
  vnni::GemmShape shape;
  /// Channels a convolution's input and filter are padded with (to whole
  /// groups of 4; the filter's are 0, so they add nothing).
  int64_t channelPad = 0;
  /// A depthwise convolution (`shape` unused): B is its [KH, KW, C] filter.
  std::optional<vnni::DepthwiseShape> depthwise;
};

/// Whether `op` reads its operands as signed (no `cast = cast_unsigned`).
bool isSigned(Operation *op) {
  auto cast = op->getAttrOfType<linalg::TypeFnAttr>("cast");
  return !cast || cast.getValue() == linalg::TypeFn::cast_signed;
}

/// What the kernels may take: 8-bit contractions, and f32 ones when asked.
struct Kinds {
  bool int8 = true, float32 = false;
};

/// The arithmetic of a contraction of static tensors a, b -> init the
/// kernels compute: i8 x i8 -> i32 (signed), or f32 x f32 -> f32.
std::optional<vnni::Arithmetic> arithmeticOf(Value a, Value b, Value init,
                                             Kinds kinds) {
  auto is = [](Value v, function_ref<bool(Type)> element) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t && t.hasStaticShape() && t.getNumElements() > 0 &&
           element(t.getElementType());
  };
  auto i8 = [](Type t) { return t.isInteger(8); };
  auto f32 = [](Type t) { return t.isF32(); };
  if (kinds.int8 && is(a, i8) && is(b, i8) &&
      is(init, [](Type t) { return t.isInteger(32); }))
    return vnni::Arithmetic::Int8;
  if (kinds.float32 && is(a, f32) && is(b, f32) && is(init, f32))
    return vnni::Arithmetic::Float32;
  return std::nullopt;
}

/// The operands of a contraction the kernel can take (the shape left to
/// fill but for its arithmetic), from the checks every kind shares.
std::optional<Candidate> operandsOf(linalg::LinalgOp op, Kinds kinds,
                                    bool constantB = true) {
  if (!op.hasPureTensorSemantics() || !isSigned(op))
    return std::nullopt;
  Value a = op.getDpsInputs()[0], b = op.getDpsInputs()[1];
  Value init = op.getDpsInits()[0];
  std::optional<vnni::Arithmetic> arithmetic = arithmeticOf(a, b, init, kinds);
  if (!arithmetic || (constantB && !isConstantExpr(b)))
    return std::nullopt;
  Candidate c{op, a, b, init, false, {}, 0, std::nullopt};
  c.shape.arithmetic = *arithmetic;
  return c;
}

bool isFloat(const Candidate &c) {
  return c.shape.arithmetic == vnni::Arithmetic::Float32;
}

/// Whether a matmul or batch_matmul `op` reads B as [.., N, K], if its maps
/// are A [.., M, K], B [.., K, N] or [.., N, K] and C [.., M, N] (`..` a
/// batch_matmul's batch dim; its loops are (.., m, n, k)).
std::optional<bool> transposedBOf(linalg::LinalgOp op) {
  unsigned rank = op.getNumLoops();
  MLIRContext *ctx = op.getContext();
  AffineExpr m = getAffineDimExpr(rank - 3, ctx),
             n = getAffineDimExpr(rank - 2, ctx),
             k = getAffineDimExpr(rank - 1, ctx);
  auto map = [&](AffineExpr row, AffineExpr column) {
    SmallVector<AffineExpr> e;
    for (unsigned d = 0; d + 3 < rank; ++d)
      e.push_back(getAffineDimExpr(d, ctx));
    e.append({row, column});
    return AffineMap::get(rank, 0, e, ctx);
  };
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (maps[0] != map(m, k) || maps[2] != map(m, n))
    return std::nullopt;
  if (maps[1] == map(n, k))
    return true;
  if (maps[1] == map(k, n))
    return false;
  return std::nullopt;
}

std::optional<Candidate> candidateOf(linalg::MatmulOp op, Kinds kinds) {
  std::optional<Candidate> c = operandsOf(op, kinds);
  std::optional<bool> transposedB = transposedBOf(op);
  if (!c || !transposedB)
    return std::nullopt;
  c->transposedB = *transposedB;
  ArrayRef<int64_t> aShape = cast<RankedTensorType>(c->a.getType()).getShape();
  int64_t columns = cast<RankedTensorType>(c->init.getType()).getDimSize(1);
  c->shape.m = aShape[0];
  c->shape.n = columns;
  c->shape.k = aShape[1];
  return c;
}

/// linalg.batch_matmul [batch, M, K] x [batch, K, N] (or B read as [batch,
/// N, K]) of a constant B (Winograd's products: the transformed filter):
/// `batch` independent GEMMs in one dispatch. An f32 B that is not a
/// constant (attention's P.V), [batch, K, N] with N in 16s, is read in
/// place: IREE would pack it and A in dispatches of their own.
std::optional<Candidate> candidateOf(linalg::BatchMatmulOp op, Kinds kinds) {
  std::optional<Candidate> c = operandsOf(op, kinds, /*constantB=*/false);
  if (!c)
    return std::nullopt;
  // a constant's elements in the program (packGemmWeights packs them now),
  // or an f32 activation read in place (attention's P.V)
  DenseElementsAttr elements;
  c->shape.bInPlace = !matchPattern(c->b, m_Constant(&elements));
  std::optional<bool> transposedB = transposedBOf(op);
  if (!transposedB ||
      (c->shape.bInPlace && (!isFloat(*c) || isConstantExpr(c->b))))
    return std::nullopt;
  c->transposedB = *transposedB;
  ArrayRef<int64_t> aShape = cast<RankedTensorType>(c->a.getType()).getShape();
  c->shape.batch = aShape[0];
  c->shape.m = aShape[1];
  c->shape.k = aShape[2];
  c->shape.n = cast<RankedTensorType>(c->init.getType()).getDimSize(2);
  if (c->shape.bInPlace &&
      (c->transposedB || c->shape.n % vnni::kPanelColumns != 0))
    return std::nullopt;
  return c;
}

/// A 2-D convolution's strides and dilations.
template <typename ConvOp>
std::pair<SmallVector<int64_t>, SmallVector<int64_t>> windowOf(ConvOp op) {
  return {
      SmallVector<int64_t>(op.getStrides().template getValues<int64_t>()),
      SmallVector<int64_t>(op.getDilations().template getValues<int64_t>())};
}

/// A spatial padding of a convolution's NHWC input the kernels put in
/// themselves: `top` rows and `left` columns of `value` before `source`.
struct SpatialPad {
  Value source;
  int64_t top = 0, left = 0;
  int8_t value = 0;
};

/// The tensor the kernels read for a convolution's NHWC `input` and the
/// padding they put in: through a slice of H and W from the origin (the
/// rows and columns a strided window never reaches, which
/// convert-relay-to-linalg trims: the windows do not reach them in the
/// whole tensor either, read in place instead of copied), then a
/// tensor.pad of H and W with a constant (read unpadded); `input` itself
/// without padding otherwise. A float input's padding must be 0.
SpatialPad spatialPadOf(Value input) {
  Value padded = input;
  // the lowering keeps IREE from fusing a float convolution's padding into
  // its dispatch with a barrier; the kernel reads the unpadded input anyway
  if (Operation *barrier = padded.getDefiningOp();
      barrier &&
      barrier->getName().getStringRef() == "util.optimization_barrier" &&
      barrier->getNumOperands() == 1 && barrier->getResult(0).hasOneUse())
    padded = barrier->getOperand(0);
  if (auto slice = padded.getDefiningOp<tensor::ExtractSliceOp>())
    if (slice.hasUnitStride() &&
        llvm::all_of(slice.getStaticOffsets(),
                     [](int64_t o) { return o == 0; }) &&
        slice.getSourceType().hasStaticShape() &&
        slice.getSourceType().getRank() == 4 &&
        slice.getType().getRank() == 4 &&
        slice.getSourceType().getDimSize(0) == slice.getType().getDimSize(0) &&
        slice.getSourceType().getDimSize(3) == slice.getType().getDimSize(3))
      padded = slice.getSource();
  auto pad = padded.getDefiningOp<tensor::PadOp>();
  APInt value(8, 0);
  if (!pad)
    return {padded};
  ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
  Value constant = pad.getConstantPaddingValue();
  bool known =
      constant && (isa<FloatType>(constant.getType())
                       ? matchPattern(constant, m_PosZeroFloat())
                       : matchPattern(constant, m_ConstantInt(&value)));
  if (!known || low[0] != 0 || low[3] != 0 || high[0] != 0 || high[3] != 0 ||
      llvm::any_of(llvm::concat<const int64_t>(low, high),
                   ShapedType::isDynamic))
    return {padded};
  return {pad.getSource(), low[1], low[2],
          static_cast<int8_t>(value.getSExtValue())};
}

/// Input channels from which the f32 GEMM pads a convolution itself.
constexpr int64_t kMinFloatPadChannels = 8;

/// linalg.conv_2d_nhwc_hwcf of int8 (its channels padded to groups of 4: a
/// k group never straddles two taps) or f32 (k groups of 1). A spatial
/// tensor.pad of its input with a constant is done by the kernel when the
/// channels need none (a materialized pad is a copy and a dispatch of its own
/// per layer).
std::optional<Candidate> candidateOf(linalg::Conv2DNhwcHwcfOp op, Kinds kinds) {
  std::optional<Candidate> c = operandsOf(op, kinds);
  if (!c)
    return std::nullopt;
  int64_t inputChannels = cast<RankedTensorType>(c->a.getType()).getDimSize(3);
  int64_t channels = llvm::alignTo(inputChannels, c->shape.groupK());
  c->channelPad = channels - inputChannels;
  SpatialPad pad{c->a};
  // f32 inputs of few channels keep their padding a copy: the per-tap
  // selects are not amortized over one or two k steps (MobileNetV2's
  // 3-channel stem, one thread: 0.27 ms padded by the kernel against 0.18
  // ms for IREE's convolution + 0.03 ms for the copy, two profiles of
  // different runs, the kernel's under load: to be measured side by side)
  if (!c->channelPad && (!isFloat(*c) || channels >= kMinFloatPadChannels)) {
    pad = spatialPadOf(c->a);
    c->a = pad.source;
  }
  ArrayRef<int64_t> in = cast<RankedTensorType>(c->a.getType()).getShape();
  ArrayRef<int64_t> f = cast<RankedTensorType>(c->b.getType()).getShape();
  ArrayRef<int64_t> out = cast<RankedTensorType>(c->init.getType()).getShape();
  auto [strides, dilations] = windowOf(op);
  vnni::ImplicitConv conv{in[0],      in[1],      in[2],        channels,
                          out[1],     out[2],     f[0],         f[1],
                          strides[0], strides[1], dilations[0], dilations[1],
                          pad.top,    pad.left,   pad.value};
  c->shape.m = out[0] * out[1] * out[2];
  c->shape.n = out[3];
  c->shape.k = f[0] * f[1] * channels;
  c->shape.conv = conv;
  return c;
}

/// linalg.depthwise_conv_2d_nhwc_hwc of int8 whose kernel rows fit one
/// group of 4 taps. A spatial tensor.pad of its input with a constant is
/// done by the kernel (IREE fused it into its own depthwise dispatch;
/// materialized, it would be one more dispatch and a copy per layer).
std::optional<Candidate> candidateOf(linalg::DepthwiseConv2DNhwcHwcOp op,
                                     Kinds kinds) {
  std::optional<Candidate> c = operandsOf(op, kinds);
  if (!c)
    return std::nullopt;
  ArrayRef<int64_t> f = cast<RankedTensorType>(c->b.getType()).getShape();
  ArrayRef<int64_t> out = cast<RankedTensorType>(c->init.getType()).getShape();
  if (!isFloat(*c) && f[1] > vnni::kGroupK)
    return std::nullopt;
  SpatialPad pad = spatialPadOf(c->a);
  c->a = pad.source;
  ArrayRef<int64_t> in = cast<RankedTensorType>(c->a.getType()).getShape();
  auto [strides, dilations] = windowOf(op);
  c->depthwise = vnni::DepthwiseShape{
      in[0],        in[1],        in[2],   in[3],      out[1],
      out[2],       f[0],         f[1],    strides[0], strides[1],
      dilations[0], dilations[1], pad.top, pad.left,   pad.value};
  c->depthwise->arithmetic = c->shape.arithmetic;
  return c;
}

/// The one-input elementwise linalg.generic computing `v`, if any.
linalg::GenericOp elementwiseProducer(Value v) {
  auto g = v.getDefiningOp<linalg::GenericOp>();
  if (!g || g.getNumDpsInputs() != 1 || g->getNumResults() != 1 ||
      g.getNumReductionLoops() != 0 ||
      !llvm::all_of(g.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }))
    return {};
  return g;
}

/// U, when `a` (through reshapes) is U - 128 of a uint8 tensor U (held as
/// i8: a chain of elementwise generics whose composition maps each byte x
/// to x xor 0x80, e.g. the importers' extui / subi 128 / trunci): the
/// kernel reads U's bytes as they are, since it would make A + 128 = U of
/// them anyway; null otherwise.
Value unsignedSource(Value a) {
  Value v = a;
  while (true) {
    if (auto c = v.getDefiningOp<tensor::CollapseShapeOp>())
      v = c.getSrc();
    else if (auto e = v.getDefiningOp<tensor::ExpandShapeOp>())
      v = e.getSrc();
    else
      break;
  }
  if (!getElementTypeOrSelf(v.getType()).isInteger(8))
    return {};
  SmallVector<linalg::GenericOp> chain;
  for (int depth = 0; depth < 4; ++depth) {
    linalg::GenericOp g = elementwiseProducer(v);
    if (!g)
      return {};
    chain.insert(chain.begin(), g);
    v = g.getDpsInputs()[0];
    if (!getElementTypeOrSelf(v.getType()).isInteger(8))
      continue;
    bool shift = true;
    for (unsigned x = 0; x < 256 && shift; ++x) {
      std::optional<APInt> y = APInt(8, x);
      for (linalg::GenericOp step : chain)
        if (y)
          y = vnni::evaluateIntegerBody(*step.getBody(), *y);
      shift = y && y->getBitWidth() == 8 && y->getZExtValue() == (x ^ 0x80);
    }
    if (shift)
      return v;
  }
  return {};
}

/// `v` with `amount` more elements of `value` at the end of dim `dim`.
Value padEnd(OpBuilder &b, Location loc, Value v, int64_t dim, int64_t amount,
             Value value) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] += amount;
  SmallVector<OpFoldResult> low(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> high(low);
  high[dim] = b.getIndexAttr(amount);
  return tensor::PadOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), v, low, high,
      value);
}

/// The convolution's input and filter with `c.channelPad` more channels:
/// the input's with its spatial padding's value when it has one (IREE folds
/// the two pads into one), the filter's with 0.
void padChannels(OpBuilder &b, Location loc, Candidate &c) {
  Value zero = arith::ConstantIntOp::create(b, loc, 0, 8);
  Value value = zero;
  if (auto spatial = c.a.getDefiningOp<tensor::PadOp>())
    if (Value constant = spatial.getConstantPaddingValue())
      value = constant;
  c.a = padEnd(b, loc, c.a, 3, c.channelPad, value);
  c.b = padEnd(b, loc, c.b, 2, c.channelPad, zero);
}

/// An elementwise linalg.generic over `inputs` (all of `type`'s shape, or
/// broadcast by `maps`) into a new tensor of `type`.
Value elementwise(OpBuilder &b, Location loc, RankedTensorType type,
                  ValueRange inputs, ArrayRef<AffineMap> inputMaps,
                  function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return linalg::GenericOp::create(
             b, loc, type, inputs, init, maps, iters,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, body(nb, l, args));
             })
      .getResult(0);
}

/// The `flow.dispatch` of the kernel (generic form, as iree-opt prints it).
Value dispatch(OpBuilder &b, Location loc, SymbolRefAttr entry,
               ValueRange operands, RankedTensorType resultType) {
  int32_t count = static_cast<int32_t>(operands.size());
  return iree::createGeneric(
             b, loc, "flow.dispatch", operands, resultType,
             {b.getNamedAttr("entry_points", b.getArrayAttr({entry})),
              b.getNamedAttr("operandSegmentSizes",
                             b.getDenseI32ArrayAttr({0, count, 0, 0})),
              b.getNamedAttr("tied_operands",
                             b.getArrayAttr({b.getIndexAttr(-1)}))})
      ->getResult(0);
}

/// Whether `init` is a tensor filled with 0.
bool isZeroFill(Value init) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  return fill && (matchPattern(fill.getInputs()[0], m_Zero()) ||
                  matchPattern(fill.getInputs()[0], m_AnyZeroFloat()));
}

/// B as [K, N] (a batch's as [batch, K, N]): a matrix (transposed if read
/// so) or a collapsed filter.
Value rightMatrix(OpBuilder &b, Location loc, const Candidate &c) {
  const vnni::GemmShape &s = c.shape;
  Type element = s.element(b.getContext());
  if (s.conv)
    return tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({s.k, s.n}, element), c.b,
        ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
  if (!c.transposedB)
    return c.b;
  SmallVector<int64_t> shape = {s.k, s.n}, permutation = {1, 0};
  if (cast<RankedTensorType>(c.b.getType()).getRank() == 3) {
    shape.insert(shape.begin(), s.batch);
    permutation = {0, 2, 1};
  }
  Value empty = tensor::EmptyOp::create(b, loc, shape, element);
  return linalg::TransposeOp::create(b, loc, c.b, empty, permutation)
      .getResult()[0];
}

/// `v` as `type` (the same elements in the same order): a collapse to fewer
/// dims, an expand to more (all into or from one group).
Value reshapeTo(OpBuilder &b, Location loc, Value v, RankedTensorType type) {
  auto from = cast<RankedTensorType>(v.getType());
  if (from == type)
    return v;
  int64_t rank = std::max(from.getRank(), type.getRank());
  SmallVector<ReassociationIndices> groups(1, ReassociationIndices(rank));
  std::iota(groups[0].begin(), groups[0].end(), 0);
  if (std::min(from.getRank(), type.getRank()) == 0)
    groups.clear();
  if (type.getRank() > from.getRank())
    return tensor::ExpandShapeOp::create(b, loc, type, v, groups);
  return tensor::CollapseShapeOp::create(b, loc, type, v, groups);
}

/// `v` (any rank) as the flat tensor of its elements.
Value flatten(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  return reshapeTo(
      b, loc, v,
      RankedTensorType::get({type.getNumElements()}, type.getElementType()));
}

/// The contraction's init added to `product` when it is not zero (the
/// first step of the epilogue then), else `product`.
Value withInit(OpBuilder &b, Location loc, const Candidate &c, Value product) {
  if (isZeroFill(c.init))
    return product;
  auto type = cast<RankedTensorType>(product.getType());
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  return elementwise(b, loc, type, {product, c.init}, {id, id},
                     [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
                       if (isa<FloatType>(args[0].getType()))
                         return arith::AddFOp::create(nb, l, args[0], args[1]);
                       return arith::AddIOp::create(nb, l, args[0], args[1]);
                     });
}

/// The kernel's weights (packed), the accumulators' initial row and the
/// result's [M, N] for candidate `c` (a batch's M: its rows together).
struct KernelOperands {
  vnni::PackedWeights weights;
  int64_t m, n;
};

KernelOperands kernelOperands(OpBuilder &b, Location loc, const Candidate &c) {
  if (const std::optional<vnni::DepthwiseShape> &d = c.depthwise)
    return {vnni::packDepthwiseWeights(b, loc, c.b, *d), d->m(), d->c};
  const vnni::GemmShape &s = c.shape;
  if (s.bInPlace)
    return {vnni::unpackedGemmWeights(b, loc, flatten(b, loc, c.b), s),
            s.batch * s.m, s.n};
  return {vnni::packGemmWeights(b, loc, rightMatrix(b, loc, c), s),
          s.batch * s.m, s.n};
}

void rewrite(ModuleOp module, Candidate c) {
  OpBuilder b(c.op);
  Location loc = c.op->getLoc();
  if (c.channelPad)
    padChannels(b, loc, c);
  else if (Value u = isFloat(c) ? Value() : unsignedSource(c.a)) {
    c.a = u;
    if (c.depthwise) {
      c.depthwise->aUnsigned = true;
      c.depthwise->padValue ^= static_cast<int8_t>(0x80);
    } else {
      c.shape.aUnsigned = true;
      if (c.shape.conv)
        c.shape.conv->padValue ^= static_cast<int8_t>(0x80);
    }
  }
  Value aBytes = flatten(b, loc, c.a);
  KernelOperands k = kernelOperands(b, loc, c);
  // `product` stands for the kernel's products until the dispatch replaces
  // it and the epilogue's ops.
  auto productType = cast<RankedTensorType>(c.op->getResult(0).getType());
  Value product = tensor::EmptyOp::create(b, loc, productType.getShape(),
                                          productType.getElementType());
  c.op->getResult(0).replaceAllUsesWith(withInit(b, loc, c, product));
  c.op->erase();
  vnni::EpilogueChain chain = vnni::collectEpilogue(product, k.n);

  // The dispatch replaces the chain's last value (the product itself
  // when the chain is empty) where that is computed.
  Operation *last =
      chain.ops.empty() ? product.getDefiningOp() : chain.ops.back();
  b.setInsertionPoint(last);
  SmallVector<Value> operands = {aBytes, k.weights.packed,
                                 k.weights.correction};
  for (Value v : chain.operandValues)
    operands.push_back(flatten(b, loc, v));
  auto resultType = cast<RankedTensorType>(last->getResult(0).getType());
  auto flatType =
      RankedTensorType::get({k.m * k.n}, resultType.getElementType());
  SymbolRefAttr entry =
      c.depthwise ? vnni::getOrCreateDepthwiseExecutable(module, *c.depthwise,
                                                         chain.epilogue, loc)
                  : vnni::getOrCreateGemmExecutable(module, c.shape,
                                                    chain.epilogue, loc);
  Value result = dispatch(b, loc, entry, operands, flatType);
  last->getResult(0).replaceAllUsesWith(reshapeTo(b, loc, result, resultType));
  for (Operation *op : llvm::reverse(chain.ops))
    op->erase();
  if (product.use_empty())
    product.getDefiningOp()->erase();
}

//===----------------------------------------------------------------------===//
// nn.softmax along the last axis (f32): the lowering's max, shifted exp, sum
// and division as one dispatch of the softmax kernel
//===----------------------------------------------------------------------===//

/// Whether `region`'s block is one `OpTy` of its arguments, yielded.
template <typename OpTy> bool isSingleOpBody(Region &region) {
  Block &body = region.front();
  if (body.getOperations().size() != 2)
    return false;
  auto op = dyn_cast<OpTy>(&body.front());
  return op && op->getOperand(0) == body.getArgument(0) &&
         op->getOperand(1) == body.getArgument(1) &&
         body.getTerminator()->getOperand(0) == op->getResult(0);
}

/// Whether `g` is an elementwise generic of two inputs, the first read
/// whole, the second through the map that drops the last dim (a row's
/// reduction, broadcast along the row).
bool readsRowAndItsReduction(linalg::GenericOp g) {
  if (!g.hasPureTensorSemantics() || g.getNumDpsInputs() != 2 ||
      g.getNumDpsInits() != 1 || g->getNumResults() != 1 ||
      g.getNumReductionLoops() != 0 || g.getNumLoops() == 0)
    return false;
  unsigned rank = g.getNumLoops();
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, g.getContext());
  SmallVector<AffineMap> maps = g.getIndexingMapsArray();
  return maps[0] == id && maps[1] == id.dropResult(rank - 1) && maps[2] == id;
}

/// Whether `r` reduces the last dim of its one static f32 input with
/// `OpTy` from a fill with `init`.
template <typename OpTy>
bool reducesRows(linalg::ReduceOp r, function_ref<bool(Value)> init) {
  auto type = dyn_cast<RankedTensorType>(r.getInputs()[0].getType());
  if (r.getInputs().size() != 1 || !type || !type.hasStaticShape() ||
      !type.getElementType().isF32() ||
      r.getDimensions() != ArrayRef<int64_t>{type.getRank() - 1} ||
      !isSingleOpBody<OpTy>(r.getCombiner()))
    return false;
  auto fill = r.getInits()[0].getDefiningOp<linalg::FillOp>();
  return fill && init(fill.getInputs()[0]);
}

/// The softmax whose division is `div`: its input X and shape, if `div`
/// divides exp(X - max X) by its sum along the last axis and nothing else
/// reads the steps.
struct SoftmaxCandidate {
  /// The steps, last first: division, sum, exp(x - max), max.
  std::array<Operation *, 4> steps;
  Value x;
  vnni::SoftmaxShape shape;
};

std::optional<SoftmaxCandidate> softmaxOf(linalg::GenericOp div) {
  if (!readsRowAndItsReduction(div) ||
      !isSingleOpBody<arith::DivFOp>(div.getRegion()))
    return std::nullopt;
  auto exp = div.getDpsInputs()[0].getDefiningOp<linalg::GenericOp>();
  auto sum = div.getDpsInputs()[1].getDefiningOp<linalg::ReduceOp>();
  if (!exp || !sum || !readsRowAndItsReduction(exp) ||
      sum.getInputs()[0] != exp->getResult(0) ||
      !reducesRows<arith::AddFOp>(
          sum, [](Value v) { return matchPattern(v, m_PosZeroFloat()); }))
    return std::nullopt;
  // exp(x - m)
  Block &body = exp.getRegion().front();
  auto sub = dyn_cast<arith::SubFOp>(&body.front());
  auto e = sub ? dyn_cast_or_null<math::ExpOp>(sub->getNextNode()) : nullptr;
  if (body.getOperations().size() != 3 || !sub || !e ||
      sub.getLhs() != body.getArgument(0) ||
      sub.getRhs() != body.getArgument(1) || e.getOperand() != sub ||
      body.getTerminator()->getOperand(0) != e)
    return std::nullopt;
  Value x = exp.getDpsInputs()[0];
  auto max = exp.getDpsInputs()[1].getDefiningOp<linalg::ReduceOp>();
  if (!max || max.getInputs()[0] != x ||
      !reducesRows<arith::MaximumFOp>(
          max, [](Value v) { return matchPattern(v, m_NegInfFloat()); }))
    return std::nullopt;
  if (!max->getResult(0).hasOneUse() || !sum->getResult(0).hasOneUse() ||
      !llvm::all_of(exp->getResult(0).getUsers(), [&](Operation *u) {
        return u == sum.getOperation() || u == div.getOperation();
      }))
    return std::nullopt;
  auto type = cast<RankedTensorType>(x.getType());
  int64_t n = type.getShape().back();
  return SoftmaxCandidate{
      {div, sum, exp, max}, x, {type.getNumElements() / n, n}};
}

/// `c`'s softmax as one dispatch of the kernel; its steps erased (their
/// fills are dead then).
void rewriteSoftmax(ModuleOp module, const SoftmaxCandidate &c) {
  Operation *div = c.steps[0];
  OpBuilder b(div);
  Location loc = div->getLoc();
  auto type = cast<RankedTensorType>(div->getResult(0).getType());
  Value result = dispatch(
      b, loc, vnni::getOrCreateSoftmaxExecutable(module, c.shape, loc),
      {flatten(b, loc, c.x)},
      RankedTensorType::get({type.getNumElements()}, type.getElementType()));
  div->getResult(0).replaceAllUsesWith(reshapeTo(b, loc, result, type));
  for (Operation *op : c.steps)
    op->erase();
}

/// The candidate `op` is, if any.
std::optional<Candidate> candidateOf(Operation *op, Kinds kinds) {
  if (auto mm = dyn_cast<linalg::MatmulOp>(op))
    return candidateOf(mm, kinds);
  if (auto bmm = dyn_cast<linalg::BatchMatmulOp>(op))
    return candidateOf(bmm, kinds);
  if (auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op))
    return candidateOf(conv, kinds);
  if (auto conv = dyn_cast<linalg::DepthwiseConv2DNhwcHwcOp>(op))
    return candidateOf(conv, kinds);
  return std::nullopt;
}

struct VnniMatmulPass : relay::impl::RelayVnniMatmulBase<VnniMatmulPass> {
  using RelayVnniMatmulBase::RelayVnniMatmulBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Kinds kinds{int8, float32};
    SmallVector<Operation *> found;
    module.walk([&](Operation *op) {
      if (candidateOf(op, kinds) ||
          (kinds.float32 && isa<linalg::GenericOp>(op) &&
           softmaxOf(cast<linalg::GenericOp>(op))))
        found.push_back(op);
    });
    if (found.empty())
      return;
    if (!iree::canBuildOps(&getContext(), module.getLoc(), "relay-vnni-matmul",
                           "dispatches its kernel")) {
      signalPassFailure();
      return;
    }
    // One at a time, its operands read now: an earlier rewrite may have
    // replaced the epilogue that computes this one's A.
    for (Operation *op : found)
      if (std::optional<Candidate> c = candidateOf(op, kinds))
        rewrite(module, *c);
    if (kinds.float32) {
      SmallVector<SoftmaxCandidate> softmaxes;
      module.walk([&](linalg::GenericOp g) {
        if (std::optional<SoftmaxCandidate> c = softmaxOf(g))
          softmaxes.push_back(*c);
      });
      for (const SoftmaxCandidate &c : softmaxes)
        rewriteSoftmax(module, c);
    }
    // What only the contractions read (their weights once packed here,
    // operands the kernels read in place) goes; a barrier that kept a
    // padding out of IREE's convolution dispatch is unread now.
    module.walk([](Operation *op) {
      if (op->getName().getStringRef() == "util.optimization_barrier" &&
          op->use_empty())
        op->erase();
    });
    IRRewriter rewriter(&getContext());
    for (auto func : module.getOps<func::FuncOp>())
      (void)runRegionDCE(rewriter, func.getBody());
  }
};

} // namespace
