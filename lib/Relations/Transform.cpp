//===- Transform.cpp - shape transforms -----------------------------------===//
//
// Relay's semantics (src/relay/op/tensor/transform.cc); `?` dims propagate.
//
//===----------------------------------------------------------------------===//
#include "EinsumEquation.h"
#include "RelationUtils.h"

#include "TransformUtils.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"
#include <cmath>
#include <limits>

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

/// The variadic `data` operands as ranked tensors, at least one.
static FailureOr<SmallVector<RankedTensorType>>
tensorOperands(ErrorSite site, TypeRange operands) {
  if (operands.empty())
    return site.emitError() << "expects at least one operand";
  SmallVector<RankedTensorType> inputs;
  for (auto [i, type] : llvm::enumerate(operands)) {
    FailureOr<RankedTensorType> t =
        tensorType(site, type, ("data #" + Twine(i)).str());
    if (failed(t))
      return failure();
    inputs.push_back(*t);
  }
  return inputs;
}

//===----------------------------------------------------------------------===//
// Reshape
//===----------------------------------------------------------------------===//
//
// `newshape` entries, read left to right while a cursor walks the input
// dims:
//   n > 0  the dim n (the cursor advances);
//   0      copies the input dim at the cursor (with `allowzero`, a literal
//          0-sized dim instead);
//   -1     inferred from the element count (the cursor advances; at most
//          one);
//   -2     copies all remaining input dims;
//   -3     merges the next two input dims;
//   -4 a b splits the input dim at the cursor into a × b (one may be -1).
// The -1 dim is the product of the input dims not copied/merged/split by
// 0/-2/-3/-4, divided by the product of the other output dims not produced
// by them; it is `?` if that depends on a `?` dim.

namespace {
/// Reads `newshape` left to right: the output dims so far, which of them (and
/// which input dims) 0/-2/-3/-4 took, the input cursor and the -1 entry.
struct ReshapeReader {
  ErrorSite site;
  ArrayRef<int64_t> in, newshape;
  bool allowZero;
  SmallVector<int64_t> out;
  SmallVector<bool> outFromInput;
  llvm::SmallBitVector inUsed;
  size_t src = 0;
  std::optional<size_t> inferAt, inferEntry;

  ReshapeReader(ErrorSite site, ArrayRef<int64_t> in,
                ArrayRef<int64_t> newshape, bool allowZero)
      : site(site), in(in), newshape(newshape), allowZero(allowZero),
        inUsed(in.size(), false) {}

  void push(int64_t dim, bool fromInput) {
    out.push_back(dim);
    outFromInput.push_back(fromInput);
  }
  LogicalResult readEntry(size_t &i);
  LogicalResult readSplit(size_t i);
  LogicalResult inferDim();
};
} // namespace

/// Entry `i` (and, for -4, the two after it: `i` moves past them).
LogicalResult ReshapeReader::readEntry(size_t &i) {
  size_t rank = in.size();
  int64_t code = newshape[i];
  if (code > 0 || (code == 0 && allowZero)) {
    push(code, false);
    ++src;
  } else if (code == 0) {
    if (src >= rank)
      return site.emitError() << "newshape[" << i << "] = 0 copies input dim "
                              << src << ", but data has rank " << rank;
    inUsed.set(src);
    push(in[src++], true);
  } else if (code == -1) {
    if (inferEntry)
      return site.emitError() << "newshape has more than one -1 (entries "
                              << *inferEntry << " and " << i << ")";
    inferEntry = i;
    inferAt = out.size();
    push(1, false);
    ++src;
  } else if (code == -2) {
    for (; src < rank; ++src) {
      inUsed.set(src);
      push(in[src], true);
    }
  } else if (code == -3) {
    if (src + 1 >= rank)
      return site.emitError()
             << "newshape[" << i << "] = -3 merges input dims " << src
             << " and " << src + 1 << ", but data has rank " << rank;
    inUsed.set(src);
    inUsed.set(src + 1);
    FailureOr<int64_t> merged =
        mulDims(site, in[src], in[src + 1], "the merged dim");
    if (failed(merged))
      return failure();
    push(*merged, true);
    src += 2;
  } else if (code == -4) {
    if (failed(readSplit(i)))
      return failure();
    i += 2;
  } else {
    return site.emitError() << "newshape[" << i << "] = " << code
                            << " is not a valid entry (expected > 0, 0, "
                               "-1, -2, -3 or -4)";
  }
  return success();
}

/// -4 a b at entry `i`: the input dim at the cursor split into a × b.
LogicalResult ReshapeReader::readSplit(size_t i) {
  if (i + 2 >= newshape.size())
    return site.emitError()
           << "newshape[" << i << "] = -4 must be followed by two values";
  if (src >= in.size())
    return site.emitError() << "newshape[" << i << "] = -4 splits input dim "
                            << src << ", but data has rank " << in.size();
  int64_t whole = in[src];
  int64_t a = newshape[i + 1], b = newshape[i + 2];
  if (a == 0 || a < -1 || b == 0 || b < -1)
    return site.emitError()
           << "the two values after newshape[" << i
           << "] = -4 must be positive or -1, got " << a << ", " << b;
  if (a == -1 && b == -1)
    return site.emitError() << "the two values after newshape[" << i
                            << "] = -4 cannot both be -1";
  int64_t known = a == -1 ? b : a;
  if (a == -1 || b == -1) {
    if (!isAny(whole) && whole % known != 0)
      return site.emitError()
             << "newshape[" << i << "] = -4 cannot split input dim " << src
             << " of size " << whole << " by " << known;
    int64_t rest = isAny(whole) ? kAny : whole / known;
    (a == -1 ? a : b) = rest;
  } else if (!isAny(whole) && a * b != whole) {
    return site.emitError()
           << "newshape[" << i << "] = -4 splits input dim " << src
           << " of size " << whole << " into " << a << " × " << b;
  }
  inUsed.set(src++);
  push(a, true);
  push(b, true);
  return success();
}

/// The -1 dim: the input dims not taken by 0/-2/-3/-4 over the other output
/// dims not produced by them (products of attribute values: checked).
LogicalResult ReshapeReader::inferDim() {
  auto product = [&](ArrayRef<int64_t> dims, function_ref<bool(size_t)> skip,
                     StringRef what) -> FailureOr<int64_t> {
    int64_t result = 1;
    for (size_t d = 0; d < dims.size(); ++d) {
      if (skip(d))
        continue;
      FailureOr<int64_t> next = mulDims(site, result, dims[d], what);
      if (failed(next))
        return failure();
      result = *next;
    }
    return result;
  };
  FailureOr<int64_t> elementsOr = product(
      in, [&](size_t d) { return inUsed.test(d); }, "the element count");
  if (failed(elementsOr))
    return failure();
  FailureOr<int64_t> othersOr = product(
      out, [&](size_t d) { return outFromInput[d]; }, "the new dims' product");
  if (failed(othersOr))
    return failure();
  int64_t elements = *elementsOr, others = *othersOr;
  int64_t inferred = kAny;
  if (!isAny(elements)) {
    if (others == 0)
      return site.emitError()
             << "cannot infer the -1 dim (newshape[" << *inferEntry
             << "]): the other new dims have 0 elements";
    if (elements % others != 0)
      return site.emitError() << "cannot infer the -1 dim (newshape["
                              << *inferEntry << "]): " << elements
                              << " elements are not divisible by " << others;
    inferred = elements / others;
  }
  out[*inferAt] = inferred;
  return success();
}

FailureOr<Type> relay::inferReshape(ErrorSite site, Type dataType,
                                    ArrayRef<int64_t> newshape,
                                    bool allowZero) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  ArrayRef<int64_t> in = data->getShape();
  ReshapeReader reader(site, in, newshape, allowZero);
  for (size_t i = 0; i < newshape.size(); ++i)
    if (failed(reader.readEntry(i)))
      return failure();
  if (reader.inferAt && failed(reader.inferDim()))
    return failure();
  ArrayRef<int64_t> out = reader.out;

  // The static dims alone may overflow when the input's count is unknown
  // (a `?` input reshaped to a constant shape).
  int64_t staticCount = 1;
  for (int64_t dim : out) {
    FailureOr<int64_t> product = mulDims(
        site, staticCount, isAny(dim) ? 1 : dim, "the result's element count");
    if (failed(product))
      return failure();
    staticCount = *product;
  }
  int64_t inCount = productOfDims(in), outCount = productOfDims(out);
  if (!isAny(inCount) && !isAny(outCount) && inCount != outCount)
    return site.emitError()
           << "newshape " << shapeStr(newshape) << " gives " << shapeStr(out)
           << " with " << outCount << " elements, but data has " << inCount
           << " elements";
  return Type(RankedTensorType::get(out, data->getElementType()));
}

//===----------------------------------------------------------------------===//
// Transpose
//===----------------------------------------------------------------------===//

FailureOr<Type> relay::inferTranspose(ErrorSite site, Type dataType,
                                      std::optional<ArrayRef<int64_t>> axes) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  int64_t rank = data->getRank();
  SmallVector<int64_t> shape;
  if (!axes || axes->empty()) {
    shape.assign(data->getShape().rbegin(), data->getShape().rend());
  } else {
    if ((int64_t)axes->size() != rank)
      return site.emitError() << "axes has " << axes->size()
                              << " entries, but data has rank " << rank;
    llvm::SmallBitVector seen(rank, false);
    for (int64_t axis : *axes) {
      FailureOr<int64_t> normalized =
          normalizeAxis(site, axis, rank, "axes entry");
      if (failed(normalized))
        return failure();
      if (seen.test(*normalized))
        return site.emitError()
               << "axes " << shapeStr(*axes) << " is not a permutation: dim "
               << *normalized << " appears twice";
      seen.set(*normalized);
      shape.push_back(data->getDimSize(*normalized));
    }
  }
  return Type(RankedTensorType::get(shape, data->getElementType()));
}

//===----------------------------------------------------------------------===//
// Concatenate
//===----------------------------------------------------------------------===//

FailureOr<Type> relay::inferConcatenate(ErrorSite site, TypeRange operands,
                                        int64_t axisAttr) {
  FailureOr<SmallVector<RankedTensorType>> tensors =
      tensorOperands(site, operands);
  if (failed(tensors))
    return failure();
  ArrayRef<RankedTensorType> inputs = *tensors;
  RankedTensorType first = inputs.front();
  int64_t rank = first.getRank();
  FailureOr<int64_t> axis = normalizeAxis(site, axisAttr, rank);
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(first.getShape());
  for (auto [i, t] : llvm::enumerate(inputs.drop_front())) {
    unsigned index = i + 1;
    if (t.getRank() != rank)
      return site.emitError()
             << "operand #" << index << " has rank " << t.getRank()
             << ", but operand #0 has rank " << rank;
    if (t.getElementType() != first.getElementType())
      return site.emitError()
             << "operand #" << index << " has dtype " << t.getElementType()
             << ", but operand #0 has dtype " << first.getElementType();
    for (int64_t d = 0; d < rank; ++d) {
      if (d == *axis) {
        int64_t sum = kAny;
        if (!isAny(shape[d]) && !isAny(t.getDimSize(d)) &&
            llvm::AddOverflow(shape[d], t.getDimSize(d), sum))
          return site.emitError()
                 << "the concatenated axis " << *axis
                 << " dim overflows int64 at operand #" << index;
        shape[d] = sum;
        continue;
      }
      FailureOr<int64_t> unified = unifyDim(shape[d], t.getDimSize(d));
      if (failed(unified))
        return site.emitError()
               << "operand #" << index << " dim " << d << " is "
               << t.getDimSize(d) << ", but earlier operands have " << shape[d]
               << " (only the axis " << *axis << " dim may differ)";
      shape[d] = *unified;
    }
  }
  return Type(RankedTensorType::get(shape, first.getElementType()));
}

//===----------------------------------------------------------------------===//
// ReshapeLike
//===----------------------------------------------------------------------===//
//
// Dims [lhs_begin, lhs_end) of data are replaced by dims [rhs_begin,
// rhs_end) of shape_like; the element counts must agree when both are
// static.

/// The [begin, end) dim range given by attributes `beginName`/`endName`
/// (end absent = rank; negative values count from the end).
static FailureOr<std::pair<int64_t, int64_t>>
dimRange(ErrorSite site, int64_t begin, std::optional<int64_t> endAttr,
         StringRef beginName, StringRef endName, int64_t rank, StringRef what) {
  int64_t end = endAttr.value_or(rank);
  int64_t b = begin < 0 ? begin + rank : begin;
  int64_t e = end < 0 ? end + rank : end;
  if (b < 0 || b > rank || e < 0 || e > rank || b > e)
    return site.emitError() << beginName << " = " << begin << " and " << endName
                            << " = " << end << " do not give a dim range of "
                            << what << " (rank " << rank << ")";
  return std::make_pair(b, e);
}

FailureOr<Type> relay::inferReshapeLike(ErrorSite site, Type dataType,
                                        Type shapeLike, int64_t lhsBegin,
                                        std::optional<int64_t> lhsEnd,
                                        int64_t rhsBegin,
                                        std::optional<int64_t> rhsEnd) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> like = tensorType(site, shapeLike, "shape_like");
  if (failed(like))
    return failure();
  auto lhs = dimRange(site, lhsBegin, lhsEnd, "lhs_begin", "lhs_end",
                      data->getRank(), "data");
  if (failed(lhs))
    return failure();
  auto rhs = dimRange(site, rhsBegin, rhsEnd, "rhs_begin", "rhs_end",
                      like->getRank(), "shape_like");
  if (failed(rhs))
    return failure();
  ArrayRef<int64_t> in = data->getShape(), ref = like->getShape();
  SmallVector<int64_t> shape(in.begin(), in.begin() + lhs->first);
  shape.append(ref.begin() + rhs->first, ref.begin() + rhs->second);
  shape.append(in.begin() + lhs->second, in.end());
  int64_t inCount = productOfDims(in), outCount = productOfDims(shape);
  if (!isAny(inCount) && !isAny(outCount) && inCount != outCount)
    return site.emitError()
           << "reshape_like gives " << shapeStr(shape) << " with " << outCount
           << " elements, but data has " << inCount << " elements";
  return Type(RankedTensorType::get(shape, data->getElementType()));
}

//===----------------------------------------------------------------------===//
// Squeeze
//===----------------------------------------------------------------------===//

FailureOr<Type> relay::inferSqueeze(ErrorSite site, Type dataType,
                                    std::optional<ArrayRef<int64_t>> axes) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  int64_t rank = data->getRank();
  ArrayRef<int64_t> in = data->getShape();
  SmallVector<int64_t> shape;
  if (!axes) {
    for (int64_t d = 0; d < rank; ++d) {
      if (isAny(in[d]))
        return site.emitError()
               << "squeeze without axis needs static dims, but dim " << d
               << " is ?";
      if (in[d] != 1)
        shape.push_back(in[d]);
    }
  } else {
    llvm::SmallBitVector drop(rank, false);
    for (int64_t axis : *axes) {
      FailureOr<int64_t> a = normalizeAxis(site, axis, rank);
      if (failed(a))
        return failure();
      if (!isAny(in[*a]) && in[*a] != 1)
        return site.emitError() << "cannot squeeze axis " << axis
                                << ": its dim is " << in[*a] << ", not 1";
      drop.set(*a);
    }
    for (int64_t d = 0; d < rank; ++d)
      if (!drop.test(d))
        shape.push_back(in[d]);
  }
  return Type(RankedTensorType::get(shape, data->getElementType()));
}

//===----------------------------------------------------------------------===//
// ExpandDims
//===----------------------------------------------------------------------===//

FailureOr<Type> relay::inferExpandDims(ErrorSite site, Type dataType,
                                       int64_t axis, int64_t count) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  int64_t rank = data->getRank();
  if (count < 0)
    return site.emitError() << "num_newaxis must be >= 0, got " << count;
  // (the shape is built dim by dim: a huge count would exhaust the memory)
  if (count > kMaxRank - rank)
    return site.emitError()
           << "num_newaxis " << count << " would give rank " << rank << " + "
           << count << ", more than the " << kMaxRank << " dims supported";
  if (axis < -rank - 1 || axis > rank)
    return site.emitError()
           << "axis " << axis << " is out of range [-rank - 1, rank] for rank "
           << rank;
  int64_t pivot = axis < 0 ? axis + rank + 1 : axis;
  SmallVector<int64_t> shape(data->getShape().take_front(pivot));
  shape.append(count, 1);
  llvm::append_range(shape, data->getShape().drop_front(pivot));
  return Type(RankedTensorType::get(shape, data->getElementType()));
}

//===----------------------------------------------------------------------===//
// Stack
//===----------------------------------------------------------------------===//

/// All operands as ranked tensors of the same rank and dtype; the shape they
/// agree on (`?` unifies with a static dim) in `shape`.
static FailureOr<SmallVector<RankedTensorType>>
sameShapedOperands(ErrorSite site, TypeRange operands,
                   SmallVectorImpl<int64_t> &shape) {
  FailureOr<SmallVector<RankedTensorType>> tensors =
      tensorOperands(site, operands);
  if (failed(tensors))
    return failure();
  SmallVector<RankedTensorType> inputs = std::move(*tensors);
  RankedTensorType first = inputs.front();
  shape.assign(first.getShape().begin(), first.getShape().end());
  for (auto [i, t] : llvm::enumerate(inputs)) {
    if (t.getRank() != first.getRank())
      return site.emitError()
             << "operand #" << i << " has rank " << t.getRank()
             << ", but operand #0 has rank " << first.getRank();
    if (t.getElementType() != first.getElementType())
      return site.emitError()
             << "operand #" << i << " has dtype " << t.getElementType()
             << ", but operand #0 has dtype " << first.getElementType();
    for (int64_t d = 0; d < t.getRank(); ++d) {
      FailureOr<int64_t> u = unifyDim(shape[d], t.getDimSize(d));
      if (failed(u))
        return site.emitError()
               << "operand #" << i << " has shape " << shapeStr(t.getShape())
               << ", but operand #0 has shape " << shapeStr(first.getShape())
               << " (stacked tensors must have the same shape)";
      shape[d] = *u;
    }
  }
  return inputs;
}

FailureOr<Type> relay::inferStack(ErrorSite site, TypeRange operands,
                                  int64_t axis) {
  SmallVector<int64_t> shape;
  auto inputs = sameShapedOperands(site, operands, shape);
  if (failed(inputs))
    return failure();
  int64_t rank = shape.size();
  if (axis < -rank - 1 || axis > rank)
    return site.emitError()
           << "axis " << axis << " is out of range [-rank - 1, rank] for rank "
           << rank;
  int64_t pivot = axis < 0 ? axis + rank + 1 : axis;
  shape.insert(shape.begin() + pivot, static_cast<int64_t>(inputs->size()));
  return Type(RankedTensorType::get(shape, inputs->front().getElementType()));
}

//===----------------------------------------------------------------------===//
// Split
//===----------------------------------------------------------------------===//

SplitIndicesOrSections relay::splitIndicesOrSections(Attribute attr) {
  if (auto sections = dyn_cast_or_null<IntegerAttr>(attr))
    return sections.getInt();
  if (auto indices = dyn_cast_or_null<DenseI64ArrayAttr>(attr))
    return indices.asArrayRef();
  return ArrayRef<int64_t>();
}

FailureOr<Type> relay::inferSplit(ErrorSite site, Type dataType,
                                  SplitIndicesOrSections spec,
                                  int64_t axisAttr) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  int64_t rank = data->getRank();
  if (rank == 0)
    return site.emitError() << "cannot split a 0-d tensor";
  FailureOr<int64_t> axis = normalizeAxis(site, axisAttr, rank);
  if (failed(axis))
    return failure();
  int64_t whole = data->getDimSize(*axis);
  SmallVector<int64_t> pieces;
  if (const int64_t *sections = std::get_if<int64_t>(&spec)) {
    int64_t n = *sections;
    // a result type per section: a count past any real split is refused
    // before it is allocated (2^31 sections of a `?` dim ran out of memory)
    constexpr int64_t kMaxSections = int64_t(1) << 16;
    if (n < 1 || n > kMaxSections)
      return site.emitError()
             << "indices_or_sections = " << n
             << " sections must be >= 1 and <= " << kMaxSections;
    if (!isAny(whole) && whole % n != 0)
      return site.emitError() << n << " sections do not divide the axis "
                              << *axis << " dim " << whole;
    pieces.assign(n, isAny(whole) ? kAny : whole / n);
  } else {
    ArrayRef<int64_t> indices = std::get<ArrayRef<int64_t>>(spec);
    int64_t begin = 0;
    for (int64_t index : indices) {
      if (index <= begin && !(begin == 0 && index == 0 && pieces.empty()))
        return site.emitError() << "indices_or_sections " << shapeStr(indices)
                                << " must be ascending and > 0";
      pieces.push_back(index - begin);
      begin = index;
    }
    if (!isAny(whole) && begin > whole)
      return site.emitError() << "split index " << begin << " is past the axis "
                              << *axis << " dim " << whole;
    pieces.push_back(isAny(whole) ? kAny : whole - begin);
  }
  SmallVector<Type> fields;
  for (int64_t size : pieces) {
    SmallVector<int64_t> shape(data->getShape());
    shape[*axis] = size;
    fields.push_back(RankedTensorType::get(shape, data->getElementType()));
  }
  return Type(TupleType::get(dataType.getContext(), fields));
}

//===----------------------------------------------------------------------===//
// StridedSlice
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<rel::SliceDim>> rel::stridedSliceDims(
    ErrorSite site, ArrayRef<int64_t> shape, ArrayRef<int64_t> beginAttr,
    ArrayRef<int64_t> endAttr, std::optional<ArrayRef<int64_t>> stridesAttr,
    std::optional<ArrayRef<int64_t>> axesAttr, StringRef mode) {
  int64_t rank = shape.size();
  SmallVector<int64_t> begin(beginAttr), end(endAttr);
  SmallVector<int64_t> strides;
  if (stridesAttr)
    strides.assign(stridesAttr->begin(), stridesAttr->end());
  // `mode` is "end" or "size" (an ODS constraint).
  const int64_t maxRange = std::numeric_limits<int64_t>::max();
  SmallVector<int64_t> axes;
  if (std::optional<ArrayRef<int64_t>> a = axesAttr) {
    if (begin.size() != a->size() || end.size() != a->size() ||
        (strides.size() != a->size() && strides.size() > 1))
      return site.emitError()
             << "with axes, begin, end and strides must have one entry per "
                "axis (axes has "
             << a->size() << ", begin " << begin.size() << ", end "
             << end.size() << ", strides " << strides.size() << ")";
    // Relay's default strides=[1] stands for all ones.
    if (strides.size() <= 1)
      strides.assign(a->size(), strides.empty() ? 1 : strides[0]);
    llvm::SmallBitVector seen(rank, false);
    for (int64_t axis : *a) {
      FailureOr<int64_t> n = normalizeAxis(site, axis, rank, "axes entry");
      if (failed(n))
        return failure();
      if (seen.test(*n))
        return site.emitError() << "axes lists dim " << *n << " twice";
      seen.set(*n);
      axes.push_back(*n);
    }
  } else {
    if (begin.size() > static_cast<size_t>(rank) ||
        end.size() > static_cast<size_t>(rank) ||
        strides.size() > static_cast<size_t>(rank))
      return site.emitError()
             << "begin, end and strides may have at most rank = " << rank
             << " entries (begin has " << begin.size() << ", end " << end.size()
             << ", strides " << strides.size() << ")";
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
    strides.resize(rank, 1);
    for (size_t i = begin.size(); i < static_cast<size_t>(rank); ++i)
      begin.push_back(strides[i] > 0 ? 0 : maxRange);
    for (size_t i = end.size(); i < static_cast<size_t>(rank); ++i)
      end.push_back(strides[i] < 0 ? 0 : maxRange);
  }
  SmallVector<SliceDim> dims;
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t stride = mode == "size" ? 1 : strides[i];
    if (stride == 0)
      return site.emitError() << "strides entry " << i << " is 0";
    int64_t e = end[i];
    if (mode == "size")
      e = end[i] < 0 ? maxRange : begin[i] + end[i];
    SliceDim dim{axes[i], begin[i], e, stride, kAny};
    int64_t extent = shape[axes[i]];
    if (!isAny(extent)) {
      int64_t b = canonicalSliceIndex(begin[i], extent, stride);
      int64_t c = canonicalSliceIndex(e, extent, stride);
      if (stride > 0 ? c < b : c > b)
        return site.emitError()
               << "begin " << begin[i] << " and end " << end[i]
               << " select nothing on dim " << axes[i] << " (size " << extent
               << ") with stride " << stride;
      int64_t interval = stride > 0 ? c - b : b - c;
      int64_t step = stride > 0 ? stride : -stride;
      dim.size = (interval + step - 1) / step;
    }
    dims.push_back(dim);
  }
  return dims;
}

FailureOr<Type> relay::inferStridedSlice(
    ErrorSite site, Type dataType, ArrayRef<int64_t> begin,
    ArrayRef<int64_t> end, std::optional<ArrayRef<int64_t>> strides,
    std::optional<ArrayRef<int64_t>> axes, StringRef sliceMode) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  auto dims = stridedSliceDims(site, data->getShape(), begin, end, strides,
                               axes, sliceMode);
  if (failed(dims))
    return failure();
  SmallVector<int64_t> shape(data->getShape());
  for (const SliceDim &d : *dims)
    shape[d.axis] = d.size;
  return Type(RankedTensorType::get(shape, data->getElementType()));
}

//===----------------------------------------------------------------------===//
// Tile and Repeat
//===----------------------------------------------------------------------===//

FailureOr<Type> relay::inferTile(ErrorSite site, Type dataType,
                                 ArrayRef<int64_t> reps) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  for (int64_t r : reps)
    if (r < 1)
      return site.emitError() << "reps entries must be >= 1, got " << r;
  int64_t rank = std::max<int64_t>(data->getRank(), reps.size());
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t di = d - (rank - data->getRank());
    int64_t ri = d - (rank - static_cast<int64_t>(reps.size()));
    int64_t in = di < 0 ? 1 : data->getDimSize(di);
    int64_t r = ri < 0 ? 1 : reps[ri];
    FailureOr<int64_t> out = mulDims(site, in, r, "output dim");
    if (failed(out))
      return failure();
    shape.push_back(*out);
  }
  return Type(RankedTensorType::get(shape, data->getElementType()));
}

FailureOr<Type> relay::inferRepeat(ErrorSite site, Type dataType,
                                   int64_t repeats, int64_t axisAttr) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  if (repeats < 1)
    return site.emitError() << "repeats must be >= 1, got " << repeats;
  FailureOr<int64_t> axis = normalizeAxis(site, axisAttr, data->getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(data->getShape());
  FailureOr<int64_t> out = mulDims(site, shape[*axis], repeats, "output dim");
  if (failed(out))
    return failure();
  shape[*axis] = *out;
  return Type(RankedTensorType::get(shape, data->getElementType()));
}

//===----------------------------------------------------------------------===//
// BroadcastTo (broadcast_to, broadcast_to_like) and CollapseSumLike
//===----------------------------------------------------------------------===//

/// Checks that `from` numpy-broadcasts to exactly `to` (`?` is assumed to
/// fit); `fromName`/`toName` name them in the error.
static LogicalResult checkBroadcastsTo(ErrorSite site, ArrayRef<int64_t> from,
                                       ArrayRef<int64_t> to, StringRef fromName,
                                       StringRef toName) {
  int64_t offset = static_cast<int64_t>(to.size()) - from.size();
  bool ok = offset >= 0;
  for (int64_t i = 0; ok && i < static_cast<int64_t>(from.size()); ++i) {
    int64_t f = from[i], t = to[offset + i];
    ok = f == 1 || isAny(f) || isAny(t) || f == t;
  }
  if (!ok)
    return site.emitError()
           << fromName << " shape " << shapeStr(from)
           << " does not broadcast to " << toName << " shape " << shapeStr(to);
  return success();
}

/// `data` broadcast to `shape`.
static FailureOr<Type> broadcastTo(ErrorSite site, RankedTensorType data,
                                   ArrayRef<int64_t> shape) {
  if (failed(checkBroadcastsTo(site, data.getShape(), shape, "data", "target")))
    return failure();
  return Type(RankedTensorType::get(shape, data.getElementType()));
}

FailureOr<Type> relay::inferBroadcastTo(ErrorSite site, Type dataType,
                                        ArrayRef<int64_t> shape) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  for (int64_t d : shape)
    if (d < 0)
      return site.emitError() << "shape entries must be >= 0, got " << d;
  return broadcastTo(site, *data, shape);
}

FailureOr<Type> relay::inferBroadcastToLike(ErrorSite site, Type dataType,
                                            Type broadcastType) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> like =
      tensorType(site, broadcastType, "broadcast_type");
  if (failed(like))
    return failure();
  return broadcastTo(site, *data, like->getShape());
}

FailureOr<Type> relay::inferCollapseSumLike(ErrorSite site, Type dataType,
                                            Type collapseType) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> like =
      tensorType(site, collapseType, "collapse_type");
  if (failed(like))
    return failure();
  if (data->getElementType() != like->getElementType())
    return site.emitError()
           << "collapse_type dtype " << like->getElementType()
           << " differs from data dtype " << data->getElementType();
  if (failed(checkBroadcastsTo(site, like->getShape(), data->getShape(),
                               "collapse_type", "data")))
    return failure();
  return Type(*like);
}

//===----------------------------------------------------------------------===//
// Full (zeros, ones, full), FullLike and Arange
//===----------------------------------------------------------------------===//

/// A tensor of `shape` and of `dtype` (or `fallback`).
static FailureOr<Type> filled(ErrorSite site, ArrayRef<int64_t> shape,
                              std::optional<Type> dtype, Type fallback) {
  for (int64_t d : shape)
    if (d < 0)
      return site.emitError() << "shape entries must be >= 0, got " << d;
  FailureOr<Type> element = dtypeOr(site, dtype, fallback);
  if (failed(element))
    return failure();
  if (!*element)
    return site.emitError() << "requires attribute 'dtype'";
  return Type(RankedTensorType::get(shape, *element));
}

FailureOr<Type> relay::inferZeros(ErrorSite site, ArrayRef<int64_t> shape,
                                  Type dtype) {
  return filled(site, shape, dtype, Type());
}

FailureOr<Type> relay::inferFull(ErrorSite site, Type fillValue,
                                 ArrayRef<int64_t> shape,
                                 std::optional<Type> dtype) {
  FailureOr<RankedTensorType> fill =
      scalarTensor(site, fillValue, "fill_value");
  if (failed(fill))
    return failure();
  return filled(site, shape, dtype, fill->getElementType());
}

FailureOr<Type> relay::inferFullLike(ErrorSite site, Type dataType,
                                     Type fillValue) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data) || failed(scalarTensor(site, fillValue, "fill_value")))
    return failure();
  return Type(*data);
}

/// The value of a 0-d `relay.constant` operand, or nothing.
static std::optional<double> constantScalar(Value v) {
  auto cst = v.getDefiningOp<ConstantOp>();
  if (!cst)
    return std::nullopt;
  auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
  if (!dense || dense.getNumElements() != 1)
    return std::nullopt;
  Type t = dense.getElementType();
  if (isa<FloatType>(t))
    return (*dense.getValues<APFloat>().begin()).convertToDouble();
  if (auto it = dyn_cast<IntegerType>(t)) {
    APInt v = *dense.getValues<APInt>().begin();
    return it.isUnsigned() || it.getWidth() == 1
               ? static_cast<double>(v.getZExtValue())
               : static_cast<double>(v.getSExtValue());
  }
  return std::nullopt;
}

std::optional<ArangeBounds> relay::constantArangeBounds(Value start, Value stop,
                                                        Value step) {
  std::optional<double> values[3] = {
      constantScalar(start), constantScalar(stop), constantScalar(step)};
  if (!values[0] || !values[1] || !values[2])
    return std::nullopt;
  return ArangeBounds{*values[0], *values[1], *values[2]};
}

FailureOr<Type> relay::inferArange(ErrorSite site, Type start, Type stop,
                                   Type step, Type dtypeAttr,
                                   std::optional<ArangeBounds> bounds) {
  FailureOr<Type> dtype = dtypeOr(site, dtypeAttr, Type());
  if (failed(dtype))
    return failure();
  std::pair<Type, StringRef> operands[] = {
      {start, "start"}, {stop, "stop"}, {step, "step"}};
  for (auto [type, what] : operands) {
    FailureOr<RankedTensorType> t = scalarTensor(site, type, what);
    if (failed(t))
      return failure();
    if (t->getElementType() != *dtype)
      return site.emitError() << what << " has dtype " << t->getElementType()
                              << ", but dtype is " << *dtype;
  }
  int64_t size = kAny;
  if (bounds) {
    if (bounds->step == 0)
      return site.emitError() << "step is 0";
    double n = std::ceil((bounds->stop - bounds->start) / bounds->step);
    if (n <= 0) {
      auto str = [](double v) {
        return v == std::floor(v) && std::abs(v) < 1e15
                   ? std::to_string(static_cast<int64_t>(v))
                   : std::to_string(v);
      };
      return site.emitError()
             << "arange(start = " << str(bounds->start)
             << ", stop = " << str(bounds->stop)
             << ", step = " << str(bounds->step) << ") has no elements";
    }
    size = static_cast<int64_t>(n);
  }
  return Type(RankedTensorType::get({size}, *dtype));
}

//===----------------------------------------------------------------------===//
// LayoutTransform
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<rel::LayoutAxis>>
rel::parseBlockedLayout(ErrorSite site, StringRef layout, StringRef what) {
  SmallVector<LayoutAxis> axes;
  auto fail = [&](const Twine &why) -> LogicalResult {
    return site.emitError() << what << " \"" << layout << "\" " << why;
  };
  if (layout.empty())
    return fail("is empty");
  for (size_t i = 0; i < layout.size();) {
    int64_t factor = 0;
    size_t start = i;
    while (i < layout.size() && llvm::isDigit(layout[i]))
      factor = factor * 10 + (layout[i++] - '0');
    if (i == layout.size())
      return fail("ends in a number");
    char c = layout[i++];
    bool upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
    if (!upper && !lower)
      return fail("has '" + Twine(c) + "', which is not a letter");
    if (upper && i - 1 != start)
      return fail("gives a factor to the primal axis " + Twine(c));
    if (lower && factor < 1)
      return fail("needs a factor > 0 before the sub-axis " + Twine(c));
    char primal = upper ? c : static_cast<char>(c - 'a' + 'A');
    for (const LayoutAxis &a : axes)
      if (a.primal == primal && a.isSub() == lower)
        return fail("has axis " + Twine(c) + " twice");
    axes.push_back({primal, lower ? factor : 0});
  }
  for (const LayoutAxis &a : axes)
    if (a.isSub() && !llvm::any_of(axes, [&](const LayoutAxis &b) {
          return b.primal == a.primal && !b.isSub();
        }))
      return fail("has sub-axis " +
                  Twine(static_cast<char>(a.primal - 'A' + 'a')) +
                  " without its primal axis " + Twine(a.primal));
  return axes;
}

FailureOr<Type> relay::inferLayoutTransform(ErrorSite site, Type dataType,
                                            StringRef srcLayout,
                                            StringRef dstLayout) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  auto src = parseBlockedLayout(site, srcLayout, "src_layout");
  if (failed(src))
    return failure();
  auto dst = parseBlockedLayout(site, dstLayout, "dst_layout");
  if (failed(dst))
    return failure();
  if (static_cast<int64_t>(src->size()) != data->getRank())
    return site.emitError()
           << "src_layout \"" << srcLayout << "\" has " << src->size()
           << " axes, but data has rank " << data->getRank();
  auto primals = [](ArrayRef<LayoutAxis> axes) {
    std::string s;
    for (const LayoutAxis &a : axes)
      if (!a.isSub())
        s.push_back(a.primal);
    llvm::sort(s);
    return s;
  };
  if (primals(*src) != primals(*dst))
    return site.emitError()
           << "src_layout \"" << srcLayout << "\" and dst_layout \""
           << dstLayout << "\" must have the same primal (upper-case) axes";
  // Whole size of each primal axis.
  llvm::StringMap<int64_t> whole;
  for (auto [i, a] : llvm::enumerate(*src)) {
    int64_t dim = data->getDimSize(i);
    if (a.isSub()) {
      if (!isAny(dim) && dim != a.factor)
        return site.emitError() << "data dim " << i << " is " << dim
                                << ", but src_layout says " << a.factor;
      continue;
    }
    int64_t factor = 1;
    for (const LayoutAxis &b : *src)
      if (b.primal == a.primal && b.isSub())
        factor = b.factor;
    whole[StringRef(&a.primal, 1)] = mulDims(dim, factor);
  }
  SmallVector<int64_t> shape;
  for (const LayoutAxis &a : *dst) {
    if (a.isSub()) {
      shape.push_back(a.factor);
      continue;
    }
    int64_t total = whole[StringRef(&a.primal, 1)];
    int64_t factor = 1;
    for (const LayoutAxis &b : *dst)
      if (b.primal == a.primal && b.isSub())
        factor = b.factor;
    if (!isAny(total) && total % factor != 0)
      return site.emitError() << "axis " << a.primal << " of size " << total
                              << " does not split into blocks of " << factor;
    shape.push_back(isAny(total) ? kAny : total / factor);
  }
  return Type(RankedTensorType::get(shape, data->getElementType()));
}

//===----------------------------------------------------------------------===//
// Einsum
//===----------------------------------------------------------------------===//

FailureOr<Type> relay::inferEinsum(ErrorSite site, TypeRange operands,
                                   StringRef equation) {
  if (operands.empty())
    return site.emitError() << "expects at least one operand";
  SmallVector<RankedTensorType> inputs;
  SmallVector<int64_t> ranks;
  for (unsigned i = 0; i < operands.size(); ++i) {
    FailureOr<RankedTensorType> t =
        tensorType(site, operands[i], ("data #" + Twine(i)).str());
    if (failed(t))
      return failure();
    if (!inputs.empty() && t->getElementType() != inputs[0].getElementType())
      return site.emitError()
             << "operand #" << i << " has dtype " << t->getElementType()
             << ", but operand #0 has dtype " << inputs[0].getElementType();
    inputs.push_back(*t);
    ranks.push_back(t->getRank());
  }
  einsum::Equation eq;
  std::string error;
  if (!einsum::parse(equation, ranks, eq, error))
    return site.emitError() << error;
  // Size of every label; `...` dims broadcast (1 stretches).
  llvm::DenseMap<int, int64_t> sizes;
  for (auto [i, t] : llvm::enumerate(inputs)) {
    for (auto [d, label] : llvm::enumerate(eq.inputs[i])) {
      int64_t dim = t.getDimSize(d);
      auto it = sizes.find(label);
      if (it == sizes.end()) {
        sizes[label] = dim;
        continue;
      }
      int64_t &known = it->second;
      bool ellipsis = label >= einsum::kEllipsisBase;
      if (ellipsis && dim == 1)
        continue;
      if (ellipsis && known == 1) {
        known = dim;
        continue;
      }
      FailureOr<int64_t> u = unifyDim(known, dim);
      if (failed(u))
        return site.emitError()
               << "label " << einsum::labelName(label) << " has size " << known
               << " and " << dim << " (operand #" << i << " dim " << d << ")";
      known = *u;
    }
  }
  SmallVector<int64_t> shape;
  for (int label : eq.output)
    shape.push_back(sizes.lookup(label));
  return Type(RankedTensorType::get(shape, inputs[0].getElementType()));
}
