//===- NN.cpp - typing rules of the nn.* operators ------------------------===//
//
// Dense, Matmul, BatchMatmul, BiasAdd/PRelu, BatchFlatten, Dropout, Pad,
// UpSampling, DepthToSpace and SpaceToDepth, with Relay's semantics
// (src/relay/op/nn/{nn,pad,upsampling}.cc): the same attributes, defaults
// and shape formulas; `?` dims propagate. Convolutions, pools and
// normalisations have their own files (Conv.cpp, Pool.cpp, Norm.cpp).
//
//===----------------------------------------------------------------------===//
#include "NNUtils.h"

#include "llvm/Support/CheckedArithmetic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

//===----------------------------------------------------------------------===//
// Dense / Matmul: a [d..., k] · b [k, units] -> [d..., units]
//===----------------------------------------------------------------------===//

namespace {
/// How an op names its two operands in diagnostics; nn.dense is nn.matmul
/// with transpose_b = true and its own wording.
struct MatmulNames {
  StringRef a, b;
  bool isDense;
};
} // namespace

static FailureOr<Type> matmul(ErrorSite site, Type a, Type b,
                              std::optional<int64_t> unitsAttr,
                              std::optional<Type> outDtype, bool transposeA,
                              bool transposeB, MatmulNames names) {
  FailureOr<RankedTensorType> data = tensorType(site, a, names.a);
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> weight = tensorTypeOfRank(site, b, names.b, 2);
  if (failed(weight))
    return failure();
  int64_t minRank = transposeA ? 2 : 1;
  if (data->getRank() < minRank)
    return site.emitError()
           << "operand '" << names.a << "' must have rank >= " << minRank
           << ", got " << *data;
  int64_t rank = data->getRank();
  int64_t k = data->getDimSize(transposeA ? rank - 2 : rank - 1);
  int64_t weightUnits = weight->getDimSize(transposeB ? 0 : 1);
  int64_t weightK = weight->getDimSize(transposeB ? 1 : 0);
  if (failed(unifyDim(k, weightK))) {
    if (names.isDense)
      return site.emitError()
             << "data reduction dim (last) " << k << " ≠ weight dim 1 "
             << weightK << " (weight must be [units, k])";
    return site.emitError()
           << "tensor_a reduction dim ("
           << (transposeA ? "second last" : "last") << ") " << k
           << " ≠ tensor_b dim " << (transposeB ? 1 : 0) << " " << weightK
           << " (tensor_b must be "
           << (transposeB ? "[units, k]" : "[k, units]") << ")";
  }
  int64_t units = weightUnits;
  if (unitsAttr) {
    if (*unitsAttr < 1)
      return site.emitError() << "units must be >= 1, got " << *unitsAttr;
    if (failed(unifyDim(*unitsAttr, weightUnits)))
      return site.emitError()
             << "units attribute " << *unitsAttr << " ≠ " << names.b << " dim "
             << (transposeB ? 0 : 1) << " " << weightUnits;
    units = *unitsAttr;
  }
  FailureOr<Type> dtype = resultDtype(site, outDtype, data->getElementType());
  if (failed(dtype))
    return failure();
  SmallVector<int64_t> shape(data->getShape());
  if (transposeA)
    shape[rank - 2] = data->getDimSize(rank - 1);
  shape.back() = units;
  return Type(RankedTensorType::get(shape, *dtype));
}

FailureOr<Type> relay::inferDense(ErrorSite site, Type data, Type weight,
                                  std::optional<int64_t> units,
                                  std::optional<Type> outDtype) {
  return matmul(site, data, weight, units, outDtype, /*transposeA=*/false,
                /*transposeB=*/true, {"data", "weight", /*isDense=*/true});
}

FailureOr<Type> relay::inferMatmul(ErrorSite site, Type tensorA, Type tensorB,
                                   std::optional<int64_t> units,
                                   std::optional<Type> outDtype,
                                   bool transposeA, bool transposeB) {
  return matmul(site, tensorA, tensorB, units, outDtype, transposeA, transposeB,
                {"tensor_a", "tensor_b", /*isDense=*/false});
}

//===----------------------------------------------------------------------===//
// BatchMatmul: x [b, m, k] · y [b, n, k]ᵀ -> [b, m, n] (transposes by attrs;
// a batch of 1 broadcasts)
//===----------------------------------------------------------------------===//

FailureOr<Type> relay::inferBatchMatmul(ErrorSite site, Type xType, Type yType,
                                        std::optional<Type> outDtype, bool ta,
                                        bool tb) {
  FailureOr<RankedTensorType> x = tensorTypeOfRank(site, xType, "x", 3);
  if (failed(x))
    return failure();
  FailureOr<RankedTensorType> y = tensorTypeOfRank(site, yType, "y", 3);
  if (failed(y))
    return failure();
  int64_t xb = x->getDimSize(0), yb = y->getDimSize(0);
  int64_t m = x->getDimSize(ta ? 2 : 1), xk = x->getDimSize(ta ? 1 : 2);
  int64_t n = y->getDimSize(tb ? 1 : 2), yk = y->getDimSize(tb ? 2 : 1);
  int64_t batch;
  if (xb == 1)
    batch = yb;
  else if (yb == 1)
    batch = xb;
  else if (FailureOr<int64_t> b = unifyDim(xb, yb); succeeded(b))
    batch = *b;
  else
    return site.emitError() << "batch dims " << xb << " (x) and " << yb
                            << " (y) differ and neither is 1";
  if (failed(unifyDim(xk, yk)))
    return site.emitError()
           << "reduction dims differ: x dim " << (ta ? 1 : 2) << " " << xk
           << " ≠ y dim " << (tb ? 2 : 1) << " " << yk << " (x is "
           << (ta ? "[b, k, m]" : "[b, m, k]") << ", y is "
           << (tb ? "[b, n, k]" : "[b, k, n]") << ")";
  if (x->getElementType() != y->getElementType())
    return site.emitError() << "y dtype " << y->getElementType()
                            << " ≠ x dtype " << x->getElementType();
  FailureOr<Type> dtype = resultDtype(site, outDtype, x->getElementType());
  if (failed(dtype))
    return failure();
  return Type(RankedTensorType::get({batch, m, n}, *dtype));
}

//===----------------------------------------------------------------------===//
// BiasAdd / PRelu: data with a vector along `axis`
//===----------------------------------------------------------------------===//

/// `data`, with the 1-D operand `vector` (named `what`) of size
/// data.shape[axis] and the data dtype.
static FailureOr<Type> vectorAlongAxis(ErrorSite site, Type dataType,
                                       Type vectorType, int64_t axis,
                                       StringRef what) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> vector =
      tensorTypeOfRank(site, vectorType, what, 1);
  if (failed(vector))
    return failure();
  FailureOr<int64_t> dim = normalizeAxis(site, axis, data->getRank());
  if (failed(dim))
    return failure();
  if (failed(unifyDim(vector->getDimSize(0), data->getDimSize(*dim))))
    return site.emitError()
           << what << " size " << vector->getDimSize(0) << " ≠ data dim "
           << *dim << " (axis) " << data->getDimSize(*dim);
  if (vector->getElementType() != data->getElementType())
    return site.emitError() << what << " dtype " << vector->getElementType()
                            << " ≠ data dtype " << data->getElementType();
  return Type(*data);
}

FailureOr<Type> relay::inferBiasAdd(ErrorSite site, Type data, Type bias,
                                    int64_t axis) {
  return vectorAlongAxis(site, data, bias, axis, "bias");
}

FailureOr<Type> relay::inferPRelu(ErrorSite site, Type data, Type alpha,
                                  int64_t axis) {
  return vectorAlongAxis(site, data, alpha, axis, "alpha");
}

//===----------------------------------------------------------------------===//
// BatchFlatten: [n, a, b, ...] -> [n, a * b * ...]
//===----------------------------------------------------------------------===//

FailureOr<Type> relay::inferBatchFlatten(ErrorSite site, Type dataType) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  if (data->getRank() < 1)
    return site.emitError()
           << "operand 'data' must have rank >= 1, got " << *data;
  ArrayRef<int64_t> shape = data->getShape();
  return Type(RankedTensorType::get(
      {shape[0], productOfDims(shape.drop_front())}, data->getElementType()));
}

//===----------------------------------------------------------------------===//
// Dropout: data -> (data, mask of the data type)
//===----------------------------------------------------------------------===//

FailureOr<Type> relay::inferDropout(ErrorSite site, Type dataType,
                                    double rate) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  if (!(rate >= 0.0 && rate < 1.0))
    return site.emitError() << "rate must be in [0, 1), got " << rate;
  return Type(TupleType::get(dataType.getContext(), {*data, *data}));
}

//===----------------------------------------------------------------------===//
// Pad: data [d...] -> [d + before + after ...]
//===----------------------------------------------------------------------===//

/// `data` padded by `width` (before, after per dim, >= 0); "reflect" /
/// "REFLECT" pads must be smaller than their dim, "SYMMETRIC" ones at most
/// the dim.
static FailureOr<Type> paddedType(ErrorSite site, RankedTensorType data,
                                  ArrayRef<int64_t> width, StringRef mode) {
  int64_t rank = data.getRank();
  if (static_cast<int64_t>(width.size()) != 2 * rank)
    return site.emitError() << "pad_width must have 2 entries (before, "
                               "after) per data dim: "
                            << 2 * rank << ", got " << width.size();
  bool reflect = mode.equals_insensitive("reflect");
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t before = width[2 * d], after = width[2 * d + 1];
    if (before < 0 || after < 0)
      return site.emitError() << "pad_width entries must be >= 0, got "
                              << std::min(before, after) << " for dim " << d;
    int64_t in = data.getDimSize(d);
    if (reflect && !isAny(in) && (before >= in || after >= in))
      return site.emitError() << "reflect padding of dim " << d << " (size "
                              << in << ") must be smaller than the dim, got ("
                              << before << ", " << after << ")";
    if (mode == "SYMMETRIC" && !isAny(in) && (before > in || after > in))
      return site.emitError() << "symmetric padding of dim " << d << " (size "
                              << in << ") must be at most the dim, got ("
                              << before << ", " << after << ")";
    std::optional<int64_t> out = kAny;
    if (!isAny(in)) {
      out = llvm::checkedAdd(in, before);
      if (out)
        out = llvm::checkedAdd(*out, after);
    }
    if (!out)
      return site.emitError()
             << "padding dim " << d << " (size " << in << ") by (" << before
             << ", " << after << ") overflows int64";
    shape.push_back(*out);
  }
  return Type(RankedTensorType::get(shape, data.getElementType()));
}

FailureOr<Type> relay::inferPad(ErrorSite site, Type dataType, Type padValue,
                                ArrayRef<int64_t> width, StringRef mode) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> value =
      tensorTypeOfRank(site, padValue, "pad_value", 0);
  if (failed(value))
    return failure();
  if (value->getElementType() != data->getElementType())
    return site.emitError() << "pad_value dtype " << value->getElementType()
                            << " ≠ data dtype " << data->getElementType();
  return paddedType(site, *data, width, mode);
}

FailureOr<Type> relay::inferMirrorPad(ErrorSite site, Type dataType,
                                      ArrayRef<int64_t> width, StringRef mode) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  return paddedType(site, *data, width, mode);
}

//===----------------------------------------------------------------------===//
// UpSampling: h, w -> round(h * scale_h), round(w * scale_w)
//===----------------------------------------------------------------------===//

FailureOr<Type> relay::inferUpSampling(ErrorSite site, Type dataType,
                                       ArrayRef<double> scales,
                                       StringRef layout) {
  unsigned n = scales.size();
  StringRef sp = spatialLetters(n);
  FailureOr<SmallVector<int64_t>> l =
      layoutDims(site, layout, ("NC" + sp).str(), "layout");
  if (failed(l))
    return failure();
  FailureOr<RankedTensorType> data =
      tensorTypeOfRank(site, dataType, "data", n + 2);
  if (failed(data))
    return failure();
  SmallVector<int64_t> shape(data->getShape());
  for (unsigned i = 0; i < n; ++i) {
    double scale = scales[i];
    std::string name = ("scale_" + sp.substr(i, 1).lower());
    if (!(scale > 0.0))
      return site.emitError() << name << " must be > 0, got " << scale;
    int64_t pos = (*l)[2 + i];
    int64_t in = shape[pos];
    if (isAny(in))
      continue;
    // TVM rounds the scaled size half to even (tir round, nearbyint).
    int64_t out = static_cast<int64_t>(std::nearbyint(in * scale));
    if (out < 1)
      return site.emitError()
             << "output size along " << sp.substr(i, 1) << " would be " << out
             << " (" << in << " × " << scale << ")";
    shape[pos] = out;
  }
  return Type(RankedTensorType::get(shape, data->getElementType()));
}

//===----------------------------------------------------------------------===//
// DepthToSpace / SpaceToDepth
//===----------------------------------------------------------------------===//

/// The 4-D data of a block move in `layout` (positions of N, C, H, W), with
/// block_size >= 1.
static FailureOr<std::pair<RankedTensorType, SmallVector<int64_t>>>
blockData(ErrorSite site, Type dataType, int64_t blockSize, StringRef layout) {
  FailureOr<SmallVector<int64_t>> l =
      layoutDims(site, layout, "NCHW", "layout");
  if (failed(l))
    return failure();
  FailureOr<RankedTensorType> data =
      tensorTypeOfRank(site, dataType, "data", 4);
  if (failed(data))
    return failure();
  if (blockSize < 1)
    return site.emitError() << "block_size must be >= 1, got " << blockSize;
  return std::make_pair(*data, *l);
}

FailureOr<Type> relay::inferDepthToSpace(ErrorSite site, Type dataType,
                                         int64_t b, StringRef layout) {
  auto dataAndLayout = blockData(site, dataType, b, layout);
  if (failed(dataAndLayout))
    return failure();
  auto [data, l] = *dataAndLayout;
  SmallVector<int64_t> shape(data.getShape());
  int64_t c = shape[l[1]];
  FailureOr<int64_t> bb = mulDims(site, b, b, "block_size²");
  if (failed(bb))
    return failure();
  if (!isAny(c) && c % *bb != 0)
    return site.emitError()
           << "channels " << c << " are not divisible by block_size² " << *bb;
  shape[l[1]] = isAny(c) ? kAny : c / *bb;
  for (int64_t pos : {l[2], l[3]}) {
    FailureOr<int64_t> out = mulDims(site, shape[pos], b, "the output dim");
    if (failed(out))
      return failure();
    shape[pos] = *out;
  }
  return Type(RankedTensorType::get(shape, data.getElementType()));
}

FailureOr<Type> relay::inferSpaceToDepth(ErrorSite site, Type dataType,
                                         int64_t b, StringRef layout) {
  auto dataAndLayout = blockData(site, dataType, b, layout);
  if (failed(dataAndLayout))
    return failure();
  auto [data, l] = *dataAndLayout;
  SmallVector<int64_t> shape(data.getShape());
  for (auto [pos, name] :
       {std::make_pair(l[2], "height"), std::make_pair(l[3], "width")}) {
    int64_t in = shape[pos];
    if (!isAny(in) && in % b != 0)
      return site.emitError()
             << name << " " << in << " is not divisible by block_size " << b;
    shape[pos] = isAny(in) ? kAny : in / b;
  }
  FailureOr<int64_t> bb = mulDims(site, b, b, "block_size²");
  if (failed(bb))
    return failure();
  FailureOr<int64_t> channels =
      mulDims(site, shape[l[1]], *bb, "the output channels");
  if (failed(channels))
    return failure();
  shape[l[1]] = *channels;
  return Type(RankedTensorType::get(shape, data.getElementType()));
}

//===----------------------------------------------------------------------===//
// Dilate, CrossEntropy, NLLLoss (TVM 0.19's)
//===----------------------------------------------------------------------===//

FailureOr<Type> relay::inferDilate(ErrorSite site, Type dataType,
                                   ArrayRef<int64_t> strides) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data) ||
      failed(checkArray(site, "strides", strides, data->getRank(), 1)))
    return failure();
  SmallVector<int64_t> shape;
  for (auto [d, s] : llvm::zip(data->getShape(), strides)) {
    if (isAny(d) || d == 0) {
      shape.push_back(d);
      continue;
    }
    FailureOr<int64_t> out = mulDims(site, d - 1, s, "the dilated size");
    if (failed(out))
      return failure();
    shape.push_back(*out + 1);
  }
  return Type(RankedTensorType::get(shape, data->getElementType()));
}

FailureOr<Type> relay::inferCrossEntropy(ErrorSite site, Type xType,
                                         Type yType) {
  FailureOr<RankedTensorType> x =
      tensorTypeOfRank(site, xType, "predictions", 2);
  FailureOr<RankedTensorType> y = tensorTypeOfRank(site, yType, "targets", 2);
  if (failed(x) || failed(y))
    return failure();
  if (!isa<FloatType>(x->getElementType()) ||
      x->getElementType() != y->getElementType())
    return site.emitError()
           << "predictions and targets must be of one float dtype, got "
           << x->getElementType() << " and " << y->getElementType();
  for (int64_t d = 0; d < 2; ++d)
    if (failed(unifyDim(x->getDimSize(d), y->getDimSize(d))))
      return site.emitError() << "predictions shape " << shapeStr(x->getShape())
                              << " ≠ targets shape " << shapeStr(y->getShape());
  return Type(RankedTensorType::get({}, x->getElementType()));
}

FailureOr<Type> relay::inferNLLLoss(ErrorSite site, Type predType,
                                    Type targetType, Type weightType,
                                    StringRef reduction) {
  FailureOr<RankedTensorType> pred = tensorType(site, predType, "predictions");
  FailureOr<RankedTensorType> target = tensorType(site, targetType, "targets");
  FailureOr<RankedTensorType> weights =
      tensorTypeOfRank(site, weightType, "weights", 1);
  if (failed(pred) || failed(target) || failed(weights))
    return failure();
  Type elt = pred->getElementType();
  if (!isa<FloatType>(elt) || weights->getElementType() != elt)
    return site.emitError()
           << "predictions and weights must be of one float dtype, got " << elt
           << " and " << weights->getElementType();
  auto intType = dyn_cast<IntegerType>(target->getElementType());
  if (!intType || intType.getWidth() == 1)
    return site.emitError()
           << "operand 'targets' must be an integer tensor, got " << *target;
  int64_t rank = pred->getRank();
  if (rank < 2 || target->getRank() != rank - 1)
    return site.emitError()
           << "predictions must be [N, C, d...] and targets [N, d...], got "
           << shapeStr(pred->getShape()) << " and "
           << shapeStr(target->getShape());
  if (failed(unifyDim(pred->getDimSize(1), weights->getDimSize(0))))
    return site.emitError()
           << "weights length " << weights->getDimSize(0)
           << " ≠ the classes (dim 1) of predictions " << pred->getDimSize(1);
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank - 1; ++d) {
    FailureOr<int64_t> dim =
        unifyDim(pred->getDimSize(d ? d + 1 : 0), target->getDimSize(d));
    if (failed(dim))
      return site.emitError()
             << "targets shape " << shapeStr(target->getShape())
             << " ≠ predictions shape without dim 1 ("
             << shapeStr(pred->getShape()) << ")";
    shape.push_back(*dim);
  }
  if (reduction != "none")
    shape.clear();
  return Type(RankedTensorType::get(shape, elt));
}
