//===- LayoutUtils.cpp - layout strings as permutations -------------------===//
#include "relay/Utils/LayoutUtils.h"

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::relay;

FailureOr<SmallVector<int64_t>> relay::findLayoutDims(StringRef layout,
                                                      StringRef letters) {
  SmallVector<int64_t> dims;
  for (char letter : letters) {
    size_t pos = layout.find(letter);
    if (pos == StringRef::npos || layout.count(letter) != 1)
      return failure();
    dims.push_back(pos);
  }
  return dims;
}

FailureOr<SmallVector<int64_t>> relay::getLayoutPermutation(StringRef from,
                                                            StringRef to) {
  if (from.size() != to.size())
    return failure();
  FailureOr<SmallVector<int64_t>> perm = findLayoutDims(from, to);
  if (failed(perm) || !isPermutationVector(*perm))
    return failure();
  return perm;
}
