//===- Transform.cpp - Reshape, Transpose and Concatenate -----------------===//
//
// Relay's semantics (src/relay/op/tensor/transform.cc); `?` dims propagate.
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

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

LogicalResult rel::ReshapeRel(Operation *op, TypeRange operands,
                              SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 1)))
    return failure();
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  std::optional<ArrayRef<int64_t>> newshape = attrI64Array(op, "newshape");
  if (!newshape)
    return op->emitOpError() << "requires attribute 'newshape'";
  bool allowZero = attrBool(op, "allowzero");
  ArrayRef<int64_t> in = data->getShape();
  size_t rank = in.size();

  SmallVector<int64_t> out;
  // Output dims taken from input dims (0, -2, -3, -4), and the input dims
  // they took: both are left out of the -1 inference.
  SmallVector<bool> outFromInput;
  llvm::SmallBitVector inUsed(rank, false);
  size_t src = 0;
  std::optional<size_t> inferAt, inferEntry;
  auto push = [&](int64_t dim, bool fromInput) {
    out.push_back(dim);
    outFromInput.push_back(fromInput);
  };

  for (size_t i = 0; i < newshape->size(); ++i) {
    int64_t code = (*newshape)[i];
    if (code > 0 || (code == 0 && allowZero)) {
      push(code, false);
      ++src;
    } else if (code == 0) {
      if (src >= rank)
        return op->emitOpError()
               << "newshape[" << i << "] = 0 copies input dim " << src
               << ", but data has rank " << rank;
      inUsed.set(src);
      push(in[src++], true);
    } else if (code == -1) {
      if (inferEntry)
        return op->emitOpError()
               << "newshape has more than one -1 (entries " << *inferEntry
               << " and " << i << ")";
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
        return op->emitOpError()
               << "newshape[" << i << "] = -3 merges input dims " << src
               << " and " << src + 1 << ", but data has rank " << rank;
      inUsed.set(src);
      inUsed.set(src + 1);
      push(mulDims(in[src], in[src + 1]), true);
      src += 2;
    } else if (code == -4) {
      if (i + 2 >= newshape->size())
        return op->emitOpError() << "newshape[" << i
                                 << "] = -4 must be followed by two values";
      if (src >= rank)
        return op->emitOpError()
               << "newshape[" << i << "] = -4 splits input dim " << src
               << ", but data has rank " << rank;
      int64_t whole = in[src];
      int64_t a = (*newshape)[i + 1], b = (*newshape)[i + 2];
      if (a == 0 || a < -1 || b == 0 || b < -1)
        return op->emitOpError()
               << "the two values after newshape[" << i
               << "] = -4 must be positive or -1, got " << a << ", " << b;
      if (a == -1 && b == -1)
        return op->emitOpError() << "the two values after newshape[" << i
                                 << "] = -4 cannot both be -1";
      int64_t known = a == -1 ? b : a;
      if (a == -1 || b == -1) {
        if (!isAny(whole) && whole % known != 0)
          return op->emitOpError()
                 << "newshape[" << i << "] = -4 cannot split input dim " << src
                 << " of size " << whole << " by " << known;
        int64_t rest = isAny(whole) ? kAny : whole / known;
        (a == -1 ? a : b) = rest;
      } else if (!isAny(whole) && a * b != whole) {
        return op->emitOpError()
               << "newshape[" << i << "] = -4 splits input dim " << src
               << " of size " << whole << " into " << a << " × " << b;
      }
      inUsed.set(src++);
      push(a, true);
      push(b, true);
      i += 2;
    } else {
      return op->emitOpError() << "newshape[" << i << "] = " << code
                               << " is not a valid entry (expected > 0, 0, "
                                  "-1, -2, -3 or -4)";
    }
  }

  if (inferAt) {
    int64_t elements = 1;
    for (size_t d = 0; d < rank; ++d)
      if (!inUsed.test(d))
        elements = mulDims(elements, in[d]);
    int64_t others = 1;
    for (size_t d = 0; d < out.size(); ++d)
      if (!outFromInput[d])
        others = mulDims(others, out[d]);
    int64_t inferred = kAny;
    if (!isAny(elements)) {
      if (others == 0)
        return op->emitOpError()
               << "cannot infer the -1 dim (newshape[" << *inferEntry
               << "]): the other new dims have 0 elements";
      if (elements % others != 0)
        return op->emitOpError()
               << "cannot infer the -1 dim (newshape[" << *inferEntry
               << "]): " << elements << " elements are not divisible by "
               << others;
      inferred = elements / others;
    }
    out[*inferAt] = inferred;
  }

  int64_t inCount = productOfDims(in), outCount = productOfDims(out);
  if (!isAny(inCount) && !isAny(outCount) && inCount != outCount)
    return op->emitOpError()
           << "newshape " << shapeStr(*newshape) << " gives "
           << shapeStr(out) << " with " << outCount
           << " elements, but data has " << inCount << " elements";
  results.push_back(RankedTensorType::get(out, data->getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Transpose
//===----------------------------------------------------------------------===//

LogicalResult rel::TransposeRel(Operation *op, TypeRange operands,
                                SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 1)))
    return failure();
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  int64_t rank = data->getRank();
  std::optional<ArrayRef<int64_t>> axes = attrI64Array(op, "axes");
  SmallVector<int64_t> shape;
  if (!axes || axes->empty()) {
    shape.assign(data->getShape().rbegin(), data->getShape().rend());
  } else {
    if ((int64_t)axes->size() != rank)
      return op->emitOpError() << "axes has " << axes->size()
                               << " entries, but data has rank " << rank;
    llvm::SmallBitVector seen(rank, false);
    for (int64_t axis : *axes) {
      FailureOr<int64_t> normalized = normalizeAxis(op, axis, rank, "axes entry");
      if (failed(normalized))
        return failure();
      if (seen.test(*normalized))
        return op->emitOpError() << "axes " << shapeStr(*axes)
                                 << " is not a permutation: dim "
                                 << *normalized << " appears twice";
      seen.set(*normalized);
      shape.push_back(data->getDimSize(*normalized));
    }
  }
  results.push_back(RankedTensorType::get(shape, data->getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Concatenate
//===----------------------------------------------------------------------===//

LogicalResult rel::ConcatenateRel(Operation *op, TypeRange operands,
                                  SmallVectorImpl<Type> &results) {
  if (operands.empty())
    return op->emitOpError() << "expects at least one operand";
  SmallVector<RankedTensorType> inputs;
  for (unsigned i = 0; i < operands.size(); ++i) {
    FailureOr<RankedTensorType> t =
        tensorOperand(op, operands, i, ("data #" + Twine(i)).str());
    if (failed(t))
      return failure();
    inputs.push_back(*t);
  }
  RankedTensorType first = inputs.front();
  int64_t rank = first.getRank();
  FailureOr<int64_t> axis = normalizeAxis(op, *attrI64(op, "axis"), rank);
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(first.getShape());
  for (auto [i, t] : llvm::enumerate(ArrayRef(inputs).drop_front())) {
    unsigned index = i + 1;
    if (t.getRank() != rank)
      return op->emitOpError() << "operand #" << index << " has rank "
                               << t.getRank() << ", but operand #0 has rank "
                               << rank;
    if (t.getElementType() != first.getElementType())
      return op->emitOpError() << "operand #" << index << " has dtype "
                               << t.getElementType()
                               << ", but operand #0 has dtype "
                               << first.getElementType();
    for (int64_t d = 0; d < rank; ++d) {
      if (d == *axis) {
        shape[d] = isAny(shape[d]) || isAny(t.getDimSize(d))
                       ? kAny
                       : shape[d] + t.getDimSize(d);
        continue;
      }
      FailureOr<int64_t> unified = unifyDim(shape[d], t.getDimSize(d));
      if (failed(unified))
        return op->emitOpError()
               << "operand #" << index << " dim " << d << " is "
               << t.getDimSize(d) << ", but earlier operands have " << shape[d]
               << " (only the axis " << *axis << " dim may differ)";
      shape[d] = *unified;
    }
  }
  results.push_back(RankedTensorType::get(shape, first.getElementType()));
  return success();
}
