//===- ConvWinograd.cpp - nn.conv2d 3x3 by Winograd's minimal filtering ---===//
//
// A 3x3, stride-1 convolution as Winograd F(m x m, 3 x 3) (Lavin & Gray,
// "Fast Algorithms for Convolutional Neural Networks", 2016): every
// m x m block of output pixels is computed from an n x n input tile
// (n = m + 2) with n*n multiplications per input and output channel pair
// instead of 9*m*m. In linalg:
//
//   input transform   V[ab, t, c] = (B^T d_t B)[a, b]   one linalg.generic per
//                     group of rows a, reading the n*n strided slices of the
//                     padded input (a tile's (i, j) elements for every tile)
//   filter transform  U[ab, c, f] = (G g_cf G^T)[a, b]  folded here (the
//                     weight is a constant: as a linalg.generic IREE 3.13
//                     leaves it in every call, its result being larger than
//                     its input, and runs it slowly)
//   products          M = linalg.batch_matmul(V, U)     the n*n independent
//                     [T, C] x [C, F] matmuls that carry the FLOPs (on a CPU
//                     with AVX-512, relay-vnni-matmul's GEMM kernel computes
//                     them, U packed at compile time: VnniMatmul.cpp)
//   output transform  Y[pq, t, f] = (A^T M_t A)[p, q]   one linalg.generic,
//                     then the m x m blocks put in place and the padding to
//                     whole tiles cropped
//
// Beyond kWinogradWholeBytes of transforms, the tiles are processed in
// chunks (groups of images, or bands of tile rows) whose intermediates
// stay in the cache: each chunk's transforms and products written out
// once (unrolled), its outputs inserted into the result. The chunks have
// one shape and their offsets are run-time values, so IREE compiles one
// set of executables for all of them (VGG-16: 138 -> 63 executables,
// iree-compile 28-34 -> 21-23 s; run time unchanged: the ~3 us of host
// time such offsets add per dispatch are nothing beside a chunk's work).
//
// The transforms' matrices are sparse with small integer or power-of-two
// entries: their bodies are straight-line adds, subtractions and a few
// multiplications (zero entries skipped), not reductions.
//
// Integer convolutions (i8 x i8 -> i32, quantized models) use F(2x2, 3x3)
// exactly: B^T and A^T are 0/+-1, and 2G is integral, so the filter is
// transformed as (2G) g (2G)^T (4x the true transform, |u| <= 9 * 128,
// i16), the input tiles in i16 (|v| <= 4 * 128), the products accumulate in
// i32, the output transform adds in i32 and the result, 4x the convolution,
// is shifted right by 2. Every step after the i16 operands is a ring
// operation mod 2^32, so intermediate wrap-arounds cancel whenever the
// result fits in i32 (checked from the weights by the pattern): the same
// bits as the direct form.
//
//===----------------------------------------------------------------------===//
#include "DynamicUtils.h"
#include "IREEOps.h"
#include "Utils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

/// The three matrices of F(m x m, 3 x 3), row-major: B^T (n x n),
/// G (n x 3), A^T (m x n).
struct WinogradMatrices {
  int64_t m, n;
  ArrayRef<double> bt, g, at;
  double bT(int64_t r, int64_t c) const { return bt[r * n + c]; }
  double aT(int64_t r, int64_t c) const { return at[r * n + c]; }
};

// F(2x2, 3x3): interpolation points 0, 1, -1 (and infinity).
constexpr double kBt2[] = {1, 0, -1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1, 0, -1};
constexpr double kG2[] = {1, 0, 0, .5, .5, .5, .5, -.5, .5, 0, 0, 1};
constexpr double kAt2[] = {1, 1, 1, 0, 0, 1, -1, -1};
// F(4x4, 3x3): points 0, 1, -1, 2, -2 (and infinity).
constexpr double kBt4[] = {4, 0, -5, 0,  1, 0, 0, -4, -4, 1,  1, 0,
                           0, 4, -4, -1, 1, 0, 0, -2, -1, 2,  1, 0,
                           0, 2, -1, -2, 1, 0, 0, 4,  0,  -5, 0, 1};
constexpr double kG4[] = {1. / 4,  0,        0,       -1. / 6, -1. / 6, -1. / 6,
                          -1. / 6, 1. / 6,   -1. / 6, 1. / 24, 1. / 12, 1. / 6,
                          1. / 24, -1. / 12, 1. / 6,  0,       0,       1};
constexpr double kAt4[] = {1, 1, 1, 1, 1, 0, 0, 1, -1, 2, -2, 0,
                           0, 1, 1, 4, 4, 0, 0, 1, -1, 8, -8, 1};

WinogradMatrices winogradMatrices(int64_t m) {
  if (m == 4)
    return {4, 6, kBt4, kG4, kAt4};
  assert(m == 2 && "F(2x2,3x3) or F(4x4,3x3)");
  return {2, 4, kBt2, kG2, kAt2};
}

/// Outputs one multi-result linalg.generic computes at most: IREE 3.13
/// refuses dispatches with more than 32 buffer bindings.
constexpr int64_t kMaxTransformResults = 16;

/// sum_k coefs[k] * xs[k] (zero coefficients skipped, +-1 as an add or a
/// subtraction); integer `xs` take integral coefficients.
Value linearCombination(OpBuilder &b, Location loc, ArrayRef<double> coefs,
                        ArrayRef<Value> xs) {
  Type type = xs.front().getType();
  bool isFloat = isa<FloatType>(type);
  auto add = [&](Value x, Value y) -> Value {
    return isFloat ? arith::AddFOp::create(b, loc, x, y).getResult()
                   : arith::AddIOp::create(b, loc, x, y).getResult();
  };
  auto sub = [&](Value x, Value y) -> Value {
    return isFloat ? arith::SubFOp::create(b, loc, x, y).getResult()
                   : arith::SubIOp::create(b, loc, x, y).getResult();
  };
  Value sum;
  for (auto [coef, x] : llvm::zip_equal(coefs, xs)) {
    if (coef == 0)
      continue;
    if (coef == 1 || coef == -1) {
      if (!sum)
        sum = coef == 1 ? x
              : isFloat ? arith::NegFOp::create(b, loc, x).getResult()
                        : sub(scalarConst(b, loc, type, 0.0), x);
      else
        sum = coef == 1 ? add(sum, x) : sub(sum, x);
      continue;
    }
    Value c = scalarConst(b, loc, type, coef);
    Value term = isFloat ? arith::MulFOp::create(b, loc, x, c).getResult()
                         : arith::MulIOp::create(b, loc, x, c).getResult();
    sum = sum ? add(sum, term) : term;
  }
  return sum ? sum : scalarConst(b, loc, type, 0.0);
}

/// A parallel linalg.generic over `type`'s iteration space (all maps the
/// identity) reading `inputs` and computing one result per `body` value.
SmallVector<Value> multiResultMap(
    OpBuilder &b, Location loc, RankedTensorType type,
    ArrayRef<OpFoldResult> sizes, ValueRange inputs, int64_t results,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<Value> inits;
  for (int64_t k = 0; k < results; ++k)
    inits.push_back(
        tensor::EmptyOp::create(b, loc, sizes, type.getElementType()));
  SmallVector<AffineMap> maps(inputs.size() + results,
                              b.getMultiDimIdentityMap(type.getRank()));
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  SmallVector<Type> types(results, type);
  auto generic = linalg::GenericOp::create(
      b, loc, types, inputs, inits, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc,
                                body(nb, nloc, args.take_front(inputs.size())));
      });
  return llvm::to_vector_of<Value>(generic.getResults());
}

/// `parts` (each of `type`) stacked along a new leading dim of size
/// parts.size().
Value stackParts(OpBuilder &b, Location loc, ArrayRef<Value> parts,
                 RankedTensorType type, ArrayRef<OpFoldResult> sizes) {
  SmallVector<int64_t> shape = {1};
  llvm::append_range(shape, type.getShape());
  SmallVector<OpFoldResult> unitSizes = {b.getIndexAttr(1)};
  llvm::append_range(unitSizes, sizes);
  auto unitType = RankedTensorType::get(shape, type.getElementType());
  SmallVector<Value> units;
  for (Value part : parts)
    units.push_back(expandTo(b, loc, part, unitType,
                             unitDimReassociation(shape.size(), {0}),
                             unitSizes));
  return tensor::ConcatOp::create(b, loc, /*dim=*/0, units);
}

/// The constant filter transform U [n*n, C, F] of a 3x3 HWIO `weight`,
/// computed in double with G scaled by `gScale`: a float rounded once to
/// `elem`, or an integer one (exact: the caller checked the range) as
/// `elem`.
DenseElementsAttr transformedFilter(DenseElementsAttr weight,
                                    const WinogradMatrices &w, Type elem,
                                    double gScale) {
  auto type = cast<RankedTensorType>(weight.getType());
  int64_t n = w.n, cf = type.getDimSize(2) * type.getDimSize(3);
  SmallVector<double> g; // g[(i*3 + j)*cf + k]
  g.reserve(9 * cf);
  // f32 (nearly every model) read as floats: through APFloat, VGG-16's
  // 14.7M weights took seconds of the lowering
  if (auto f32 = weight.tryGetValues<float>(); succeeded(f32))
    g.append(f32->begin(), f32->end());
  else if (isa<FloatType>(type.getElementType()))
    for (APFloat x : weight.getValues<APFloat>())
      g.push_back(x.convertToDouble());
  else
    for (APInt x : weight.getValues<APInt>())
      g.push_back(static_cast<double>(x.getSExtValue()));
  // rows: r[(a*3 + j)*cf + k] = sum_i G[a][i] g[i][j][k]
  SmallVector<double> r(n * 3 * cf, 0.0), u(n * n * cf, 0.0);
  for (int64_t a = 0; a < n; ++a)
    for (int64_t i = 0; i < 3; ++i)
      if (double c = gScale * w.g[a * 3 + i])
        for (int64_t j = 0; j < 3; ++j)
          for (int64_t k = 0; k < cf; ++k)
            r[(a * 3 + j) * cf + k] += c * g[(i * 3 + j) * cf + k];
  for (int64_t a = 0; a < n; ++a)
    for (int64_t bb = 0; bb < n; ++bb)
      for (int64_t j = 0; j < 3; ++j)
        if (double c = gScale * w.g[bb * 3 + j])
          for (int64_t k = 0; k < cf; ++k)
            u[(a * n + bb) * cf + k] += c * r[(a * 3 + j) * cf + k];
  auto uType = RankedTensorType::get(
      {n * n, type.getDimSize(2), type.getDimSize(3)}, elem);
  if (auto intType = dyn_cast<IntegerType>(elem)) {
    SmallVector<APInt> values;
    values.reserve(u.size());
    for (double x : u)
      values.push_back(APInt(intType.getWidth(), static_cast<int64_t>(x),
                             /*isSigned=*/true));
    return DenseElementsAttr::get(uType, values);
  }
  if (elem.isF32()) {
    SmallVector<float> values(u.begin(), u.end()); // rounded to nearest
    return DenseElementsAttr::get(uType, ArrayRef<float>(values));
  }
  SmallVector<APFloat> values;
  values.reserve(u.size());
  for (double x : u) {
    APFloat v(x);
    bool lost;
    v.convert(cast<FloatType>(elem).getFloatSemantics(),
              APFloat::rmNearestTiesToEven, &lost);
    values.push_back(v);
  }
  return DenseElementsAttr::get(uType, values);
}

/// The input transform: V[a][b] = (B^T d B)[a][b] for every tile (row-major
/// in (a, b), each [N, TH, TW, C] of `tileType`), where d[i][j] is the
/// strided slice of `input` holding every tile's (i, j) element.
SmallVector<Value> inputTransform(OpBuilder &b, Location loc, Value input,
                                  const WinogradMatrices &w,
                                  RankedTensorType tileType,
                                  RankedTensorType vType,
                                  ArrayRef<OpFoldResult> tileSizes) {
  const int64_t m = w.m, n = w.n;
  auto index = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
  SmallVector<Value> d;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      d.push_back(tensor::ExtractSliceOp::create(
          b, loc, tileType, input, {index(0), index(i), index(j), index(0)},
          tileSizes, {index(1), index(m), index(m), index(1)}));
  SmallVector<Value> v; // V[a][b] in row-major order
  int64_t rowsPerGeneric = std::max<int64_t>(1, kMaxTransformResults / n);
  for (int64_t a0 = 0; a0 < n; a0 += rowsPerGeneric) {
    int64_t rows = std::min(rowsPerGeneric, n - a0);
    llvm::append_range(
        v, multiResultMap(
               b, loc, vType, tileSizes, d, rows * n,
               [&](OpBuilder &nb, Location nl, ValueRange in) {
                 // integers widened (i8 -> i16) before adding
                 SmallVector<Value> x(in);
                 if (vType.getElementType() != tileType.getElementType())
                   for (Value &xi : x)
                     xi = arith::ExtSIOp::create(nb, nl, vType.getElementType(),
                                                 xi);
                 SmallVector<Value> out;
                 for (int64_t a = a0; a < a0 + rows; ++a) {
                   // E[a][j] = sum_i B^T[a][i] d[i][j]
                   SmallVector<Value> e;
                   for (int64_t j = 0; j < n; ++j) {
                     SmallVector<Value> column;
                     for (int64_t i = 0; i < n; ++i)
                       column.push_back(x[i * n + j]);
                     e.push_back(linearCombination(nb, nl, w.bt.slice(a * n, n),
                                                   column));
                   }
                   // V[a][c] = sum_j B^T[c][j] E[a][j]
                   for (int64_t c = 0; c < n; ++c)
                     out.push_back(
                         linearCombination(nb, nl, w.bt.slice(c * n, n), e));
                 }
                 return out;
               }));
  }
  return v;
}

/// The output transform: Y[p][q] = (A^T M A)[p][q] for every tile (row-major
/// in (p, q), each of `blockType`), from the products `perTile`
/// [n*n, N, TH, TW, F].
SmallVector<Value> outputTransform(OpBuilder &b, Location loc, Value perTile,
                                   const WinogradMatrices &w,
                                   RankedTensorType blockType,
                                   ArrayRef<OpFoldResult> blockSizes,
                                   int64_t shift) {
  const int64_t m = w.m, n = w.n;
  auto index = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
  SmallVector<Value> mParts;
  for (int64_t k = 0; k < n * n; ++k)
    mParts.push_back(tensor::ExtractSliceOp::create(
        b, loc, blockType, perTile,
        {index(k), index(0), index(0), index(0), index(0)},
        {index(1), blockSizes[0], blockSizes[1], blockSizes[2], blockSizes[3]},
        {index(1), index(1), index(1), index(1), index(1)}));
  return multiResultMap(
      b, loc, blockType, blockSizes, mParts, m * m,
      [&](OpBuilder &nb, Location nl, ValueRange x) {
        SmallVector<Value> out;
        for (int64_t p = 0; p < m; ++p) {
          // Z[p][c] = sum_a A^T[p][a] M[a][c]
          SmallVector<Value> z;
          for (int64_t c = 0; c < n; ++c) {
            SmallVector<Value> column;
            for (int64_t a = 0; a < n; ++a)
              column.push_back(x[a * n + c]);
            z.push_back(
                linearCombination(nb, nl, w.at.slice(p * n, n), column));
          }
          for (int64_t q = 0; q < m; ++q) {
            Value y = linearCombination(nb, nl, w.at.slice(q * n, n), z);
            if (shift)
              y = arith::ShRSIOp::create(
                  nb, nl, y, scalarConst(nb, nl, y.getType(), shift));
            out.push_back(y);
          }
        }
        return out;
      });
}

/// How the values of one Winograd convolution are typed: the input
/// transform and the filter transform in `transformed` (the input's type
/// for floats, i16 for i8 inputs), the products and outputs in `result`
/// (i32 for integers), which are shifted right by `shift` at the end (the
/// integer filter transform is 2^shift times the true one).
struct WinogradTypes {
  Type transformed, result;
  int64_t shift;
};

/// The convolution of the tiles of `input` (NHWC, extended with zeros to
/// whole tiles: [N, m*TH + 2, m*TW + 2, C]) with the filter whose
/// transform is `uMatrix` [n*n, C, F]: the whole-tile image
/// [N, m*TH, m*TW, F].
Value winogradTiles(OpBuilder &b, Location loc, Value input, Value uMatrix,
                    const WinogradMatrices &w, const WinogradTypes &types,
                    int64_t batch, OpFoldResult batchSize, int64_t th,
                    int64_t tw) {
  const int64_t m = w.m, n = w.n;
  auto uType = cast<RankedTensorType>(uMatrix.getType());
  Type vElem = types.transformed, elem = types.result;
  Type inElem = cast<RankedTensorType>(input.getType()).getElementType();
  int64_t ch = uType.getDimSize(1), f = uType.getDimSize(2);
  auto index = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };

  // input transform, [n*n, N*TH*TW, C]
  auto tileType = RankedTensorType::get({batch, th, tw, ch}, inElem);
  auto vType = RankedTensorType::get({batch, th, tw, ch}, vElem);
  SmallVector<OpFoldResult> tileSizes = {batchSize, index(th), index(tw),
                                         index(ch)};
  SmallVector<Value> v =
      inputTransform(b, loc, input, w, tileType, vType, tileSizes);
  int64_t tileCount =
      ShapedType::isDynamic(batch) ? ShapedType::kDynamic : batch * th * tw;
  OpFoldResult tiles =
      ShapedType::isDynamic(batch)
          ? OpFoldResult(product(b, loc, {batchSize, index(th), index(tw)}))
          : index(tileCount);
  Value vStacked = stackParts(b, loc, v, vType, tileSizes);
  Value vMatrix = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({n * n, tileCount, ch}, vElem), vStacked,
      ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}, {4}});

  // the n*n products [T, C] x [C, F]
  auto productType = RankedTensorType::get({n * n, tileCount, f}, elem);
  Value productInit =
      filledTensor(b, loc, productType, {index(n * n), tiles, index(f)},
                   scalarConst(b, loc, elem, 0.0));
  Value products = linalg::BatchMatmulOp::create(b, loc, TypeRange{productType},
                                                 ValueRange{vMatrix, uMatrix},
                                                 ValueRange{productInit})
                       .getResult(0);

  // output transform: Y[p][q] = sum_ab A^T[p][a] A^T[q][b] M[a][b]
  auto blockType = RankedTensorType::get({batch, th, tw, f}, elem);
  SmallVector<OpFoldResult> blockSizes = {batchSize, index(th), index(tw),
                                          index(f)};
  auto perTileType = RankedTensorType::get({n * n, batch, th, tw, f}, elem);
  Value perTile =
      expandTo(b, loc, products, perTileType,
               ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}, {4}},
               {index(n * n), batchSize, index(th), index(tw), index(f)});
  SmallVector<Value> y =
      outputTransform(b, loc, perTile, w, blockType, blockSizes, types.shift);

  // the m x m blocks in place: [m, m, N, TH, TW, F] -> [N, TH, m, TW, m, F]
  Value yStacked = stackParts(b, loc, y, blockType, blockSizes);
  Value blocks = expandTo(
      b, loc, yStacked, RankedTensorType::get({m, m, batch, th, tw, f}, elem),
      ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3}, {4}, {5}},
      {index(m), index(m), batchSize, index(th), index(tw), index(f)});
  Value placed = transposeDims(b, loc, blocks, {2, 3, 0, 4, 1, 5});
  return tensor::CollapseShapeOp::create(
      b, loc, placed, ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3, 4}, {5}});
}

/// Transformed inputs and products (n*n*T*C and n*n*T*F floats) of more
/// than kWinogradWholeBytes leave the last-level cache between the
/// transforms and the products, which then run at memory speed: such
/// convolutions are computed in chunks (groups of whole images, else bands
/// of tile rows of one image) of at most kWinogradChunkBytes, or the
/// transformed filter's size when larger (every chunk reads all of it),
/// each running its transforms and products and inserting its outputs
/// into the result. One thread, F(4x4), against the direct form's time (32
/// MB L3, 2026-12-06), by the bytes of one chunk:
///   (all transforms)          8 MB    4 MB        2 MB    1 MB
///   56x56x64 b8 (29 MB)       0.62x   0.53-0.54   0.59    0.61
///   112x112x128 (29 MB)       0.51x   0.43-0.47   0.48    0.48
///   224x224x64 (58 MB)        1.02x   0.57        0.53
/// while whole transforms of 7.2-14.4 MB ran 0.43-0.66x (56x56x256 -> 256:
/// 13.0 ms whole, 14.2 in 2 bands). Each chunk puts its blocks in place
/// and is inserted into the result, so an elementwise consumer cannot
/// fuse with it: in a pre-activation ResNet block the residual add then
/// fuses into the 1x1 shortcut's data-tiled matmul, which IREE 3.13 fails
/// to compile ("large vector sizes"), and relay.compile retries with
/// global data tiling (ResNet-18 batch 8: compile 19 -> 59 s, one thread
/// 208 -> 193 ms). Joining all chunks' blocks by tensor.concat before one
/// transpose (which the add fuses into) compiles, but ran 224x224x64 at
/// 1.14x the direct form's time (2026-12-06).
constexpr int64_t kWinogradWholeBytes = 16 << 20;
constexpr int64_t kWinogradChunkBytes = 4 << 20;

/// How the tiles are split: chunks of `images` images (a divisor of the
/// batch) by `tileRows` tile rows, the image's tile rows extended to
/// `paddedRows` (a multiple of tileRows) so that every chunk has the same
/// shape: IREE compiles the dispatches of all chunks once.
struct ChunkPlan {
  int64_t images, tileRows, paddedRows;
  int64_t chunks(int64_t batch) const {
    return batch / images * (paddedRows / tileRows);
  }
};

/// The largest divisor of `count` that is at most `most` (at least 1).
int64_t largestDivisor(int64_t count, int64_t most) {
  for (int64_t d = std::min(count, most); d > 1; --d)
    if (count % d == 0)
      return d;
  return 1;
}

/// The chunks of `batch` images of `th` x `tw` tiles of F(m x m, 3 x 3)
/// (n = m + 2) from `ch` to `f` channels of floats of `bytes`: one when the
/// transforms take at most kWinogradWholeBytes (or the batch is dynamic).
ChunkPlan chunkPlan(int64_t batch, int64_t th, int64_t tw, int64_t n,
                    int64_t ch, int64_t f, int64_t bytes) {
  int64_t rowBytes = n * n * tw * (ch + f) * bytes;
  if (ShapedType::isDynamic(batch) ||
      batch * th * rowBytes <= kWinogradWholeBytes)
    return {batch, th, th};
  int64_t budget = std::max(kWinogradChunkBytes, n * n * ch * f * bytes);
  if (th * rowBytes <= budget)
    return {largestDivisor(batch, budget / (th * rowBytes)), th, th};
  // bands of the most rows that fit, or fewer (down to half) when that
  // extends the image by fewer rows of tiles computed for nothing
  int64_t most = std::max<int64_t>(1, budget / rowBytes), rows = most;
  for (int64_t r = most - 1; 2 * r >= most && r > 0; --r)
    if (llvm::alignTo(th, r) < llvm::alignTo(th, rows))
      rows = r;
  return {1, rows, llvm::alignTo(th, rows)};
}

/// The whole-tile image [N, m*TH, m*TW, F] (TH = plan.paddedRows) of
/// `input` (extended to whole tiles) in `plan`'s chunks of one shape,
/// unrolled: the offsets that differ between chunks are run-time values
/// (not folded into the dispatches), so that each of a chunk's dispatches
/// is one executable for all chunks, compiled once; each chunk's outputs
/// are inserted into the image.
Value winogradChunks(OpBuilder &b, Location loc, Value input, Value uMatrix,
                     const WinogradMatrices &w, const WinogradTypes &types,
                     const ChunkPlan &plan, int64_t batch, int64_t tw) {
  const int64_t m = w.m, rows = plan.tileRows, bands = plan.paddedRows / rows;
  auto inType = cast<RankedTensorType>(input.getType());
  int64_t ch = inType.getDimSize(3),
          f = cast<RankedTensorType>(uMatrix.getType()).getDimSize(2);
  auto index = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
  auto offset = [&](int64_t v, bool varies) -> OpFoldResult {
    return varies ? iree::runTimeOffset(b, loc, v) : index(v);
  };
  SmallVector<OpFoldResult> ones(4, index(1));
  Value image = tensor::EmptyOp::create(
      b, loc, ArrayRef<int64_t>{batch, m * plan.paddedRows, m * tw, f},
      types.result);
  auto chunkType = RankedTensorType::get(
      {plan.images, m * rows + 2, m * tw + 2, ch}, inType.getElementType());
  for (int64_t k = 0; k < plan.chunks(batch); ++k) {
    OpFoldResult i0 = offset(k / bands * plan.images, plan.images < batch),
                 y0 = offset(k % bands * m * rows, bands > 1);
    Value chunk = tensor::ExtractSliceOp::create(
        b, loc, chunkType, input, {i0, y0, index(0), index(0)},
        {index(plan.images), index(m * rows + 2), index(m * tw + 2), index(ch)},
        ones);
    Value out = winogradTiles(b, loc, chunk, uMatrix, w, types, plan.images,
                              index(plan.images), rows, tw);
    image = tensor::InsertSliceOp::create(
        b, loc, out, image, {i0, y0, index(0), index(0)},
        {index(plan.images), index(m * rows), index(m * tw), index(f)}, ones);
  }
  return image;
}

} // namespace

Value lowering::winogradConv2D(OpBuilder &b, Location loc, Value padded,
                               DenseElementsAttr weight,
                               RankedTensorType resultType,
                               ArrayRef<OpFoldResult> outSizes, int64_t m) {
  WinogradMatrices w = winogradMatrices(m);
  auto weightType = cast<RankedTensorType>(weight.getType());
  Type elem = resultType.getElementType();
  bool integer = isa<IntegerType>(elem);
  assert((!integer || m == 2) && "integers take F(2x2, 3x3)");
  WinogradTypes types = {integer ? b.getIntegerType(16) : elem, elem,
                         integer ? 2 : 0};
  int64_t ch = weightType.getDimSize(2), f = weightType.getDimSize(3);
  int64_t oh = resultType.getDimSize(1), ow = resultType.getDimSize(2);
  int64_t tw = llvm::divideCeil(ow, m);
  int64_t batch = resultType.getDimSize(0);
  ChunkPlan plan = chunkPlan(batch, llvm::divideCeil(oh, m), tw, w.n, ch, f,
                             elem.getIntOrFloatBitWidth() / 8);
  int64_t th = plan.paddedRows;
  auto index = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
  SmallVector<OpFoldResult> zeros(4, index(0)), ones(4, index(1));

  // the input extended to whole tiles: [N, m*TH + 2, m*TW + 2, C]. Only
  // outputs that are cropped read the extension, so its value is free: an
  // input that is itself a constant pad (a quantized input padded with its
  // zero point) is extended by that pad, one tensor.pad. Two nested pads
  // made IREE 3.13 store the producer's epilogue into the inner pad's
  // window of the outer buffer in one dispatch, which it then refused
  // ("write affecting operations on global resources are restricted to
  // workgroup distributed contexts": ResNet-18 int8 compiled only without
  // pad fusion).
  auto paddedType = cast<RankedTensorType>(padded.getType());
  int64_t extraH = m * th + 2 - paddedType.getDimSize(1),
          extraW = m * tw + 2 - paddedType.getDimSize(2);
  Value input = padded;
  if (extraH || extraW) {
    auto extendedType = RankedTensorType::get(
        {batch, m * th + 2, m * tw + 2, ch}, paddedType.getElementType());
    Value source = padded;
    Value value = scalarConst(b, loc, paddedType.getElementType(), 0.0);
    SmallVector<int64_t> low(4, 0), high = {0, extraH, extraW, 0};
    auto inner = padded.getDefiningOp<tensor::PadOp>();
    if (inner && inner.getConstantPaddingValue() &&
        !ShapedType::isDynamicShape(inner.getStaticLow()) &&
        !ShapedType::isDynamicShape(inner.getStaticHigh())) {
      source = inner.getSource();
      value = inner.getConstantPaddingValue();
      low = llvm::to_vector(inner.getStaticLow());
      for (auto [h, extra] : llvm::zip(high, inner.getStaticHigh()))
        h += extra;
    }
    auto asIndex = [&](ArrayRef<int64_t> v) {
      return llvm::map_to_vector(v, [&](int64_t x) { return index(x); });
    };
    input = tensor::PadOp::create(b, loc, extendedType, source, asIndex(low),
                                  asIndex(high), value);
  }

  // filter transform, folded: U[a][b] = sum_ij G[a][i] G[b][j] g[i][j]
  Value uMatrix = arith::ConstantOp::create(
      b, loc,
      transformedFilter(weight, w, types.transformed, 1 << (types.shift / 2)));

  Value image =
      plan.chunks(batch) == 1
          ? winogradTiles(b, loc, input, uMatrix, w, types, batch, outSizes[0],
                          th, tw)
          : winogradChunks(b, loc, input, uMatrix, w, types, plan, batch, tw);
  if (m * th == oh && m * tw == ow)
    return image;
  return tensor::ExtractSliceOp::create(b, loc, resultType, image, zeros,
                                        outSizes, ones);
}
