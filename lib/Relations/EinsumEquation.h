//===- EinsumEquation.h - numpy einsum equations --------------------------===//
//
// Parses an einsum equation ("bij,bjk->bik", "...ij,...jk", "ii->i") for
// given operand ranks into integer labels: letters keep their character
// code, the dims covered by `...` become labels kEllipsisBase + j (aligned
// at the right across operands, as numpy broadcasts them). Shared by the
// relation and the lowering.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_LIB_RELATIONS_EINSUMEQUATION_H
#define RELAY_LIB_RELATIONS_EINSUMEQUATION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <algorithm>
#include <string>

namespace mlir::relay::einsum {

constexpr int kEllipsisBase = 1000;

struct Equation {
  /// Labels of each input's dims, and of the output's.
  llvm::SmallVector<llvm::SmallVector<int>> inputs;
  llvm::SmallVector<int> output;
  /// Number of dims `...` stands for in the output (the longest among the
  /// inputs).
  int ellipsisRank = 0;
};

inline bool isLabel(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/// The letters of `term` and where its `...` is (`ellipsisAt`: the number
/// of letters before it, -1 without one); `what` names the term in `error`.
inline bool scanTerm(llvm::StringRef term, llvm::SmallVector<int> &letters,
                     int &ellipsisAt, llvm::StringRef what,
                     std::string &error) {
  ellipsisAt = -1;
  for (size_t i = 0; i < term.size(); ++i) {
    if (term[i] == '.') {
      if (ellipsisAt >= 0 || !term.substr(i).starts_with("...")) {
        error = what.str() + " \"" + term.str() +
                "\" has a '.' that is not a single '...'";
        return false;
      }
      ellipsisAt = letters.size();
      i += 2;
      continue;
    }
    if (!isLabel(term[i])) {
      error = what.str() + " \"" + term.str() + "\" has '" +
              std::string(1, term[i]) + "', which is not a letter";
      return false;
    }
    letters.push_back(term[i]);
  }
  return true;
}

/// The output labels of an explicit output term `rhs`: its letters, each at
/// most once and found in an input (`counts`), and the `...` dims where it
/// has `...` (required when an input has one).
inline bool parseOutputTerm(llvm::StringRef rhs, llvm::ArrayRef<int> counts,
                            Equation &eq, std::string &error) {
  llvm::SmallVector<int> letters;
  int ellipsisAt;
  if (!scanTerm(rhs, letters, ellipsisAt, "output term", error))
    return false;
  llvm::SmallVector<bool> seen(128, false);
  for (int l : letters) {
    if (seen[l]) {
      error = "output term \"" + rhs.str() + "\" repeats '" +
              std::string(1, static_cast<char>(l)) + "'";
      return false;
    }
    seen[l] = true;
    if (!counts[l]) {
      error = "output term \"" + rhs.str() + "\" has '" +
              std::string(1, static_cast<char>(l)) +
              "', which no input term has";
      return false;
    }
  }
  for (int i = 0; i <= static_cast<int>(letters.size()); ++i) {
    if (i == ellipsisAt)
      for (int j = 0; j < eq.ellipsisRank; ++j)
        eq.output.push_back(kEllipsisBase + j);
    if (i < static_cast<int>(letters.size()))
      eq.output.push_back(letters[i]);
  }
  if (ellipsisAt < 0 && eq.ellipsisRank > 0) {
    // numpy: `...` dims must appear in an explicit output unless they are
    // all summed; Relay/numpy reject dropping them silently.
    error = "output term \"" + rhs.str() +
            "\" must contain '...' because an input term does";
    return false;
  }
  return true;
}

/// Parses `equation` for operands of ranks `ranks`; on failure returns false
/// and sets `error` to the rule broken.
inline bool parse(llvm::StringRef equation, llvm::ArrayRef<int64_t> ranks,
                  Equation &eq, std::string &error) {
  std::string text;
  for (char c : equation)
    if (c != ' ')
      text.push_back(c);
  llvm::StringRef s(text);
  llvm::StringRef lhs = s, rhs;
  bool explicitOutput = false;
  size_t arrow = s.find("->");
  if (arrow != llvm::StringRef::npos) {
    lhs = s.substr(0, arrow);
    rhs = s.substr(arrow + 2);
    explicitOutput = true;
  }
  llvm::SmallVector<llvm::StringRef> terms;
  lhs.split(terms, ',', -1, /*KeepEmpty=*/true);
  if (terms.size() != ranks.size()) {
    error = "equation \"" + equation.str() + "\" has " +
            std::to_string(terms.size()) + " input terms, but there are " +
            std::to_string(ranks.size()) + " operands";
    return false;
  }
  eq = Equation();
  llvm::SmallVector<int> counts(128, 0);
  for (size_t t = 0; t < terms.size(); ++t) {
    llvm::SmallVector<int> letters;
    int ellipsisAt;
    if (!scanTerm(terms[t], letters, ellipsisAt,
                  "input term " + std::to_string(t), error))
      return false;
    int64_t rank = ranks[t];
    int64_t covered = rank - static_cast<int64_t>(letters.size());
    if (ellipsisAt < 0 ? covered != 0 : covered < 0) {
      error = "input term " + std::to_string(t) + " \"" + terms[t].str() +
              "\" has " + std::to_string(letters.size()) +
              " labels, but operand #" + std::to_string(t) + " has rank " +
              std::to_string(rank);
      return false;
    }
    llvm::SmallVector<int> labels;
    for (int i = 0; i < static_cast<int>(letters.size()); ++i) {
      if (i == ellipsisAt)
        for (int64_t j = 0; j < covered; ++j)
          labels.push_back(-1 - static_cast<int>(covered - j)); // fixed below
      labels.push_back(letters[i]);
      ++counts[letters[i]];
    }
    if (ellipsisAt == static_cast<int>(letters.size()))
      for (int64_t j = 0; j < covered; ++j)
        labels.push_back(-1 - static_cast<int>(covered - j));
    if (ellipsisAt >= 0)
      eq.ellipsisRank = std::max<int>(eq.ellipsisRank, covered);
    eq.inputs.push_back(labels);
  }
  // Ellipsis dims, right-aligned: -1-k (k counted from the right, 1-based)
  // becomes kEllipsisBase + ellipsisRank - k.
  for (auto &labels : eq.inputs)
    for (int &l : labels)
      if (l < 0)
        l = kEllipsisBase + eq.ellipsisRank + (l + 1);
  if (explicitOutput) {
    if (!parseOutputTerm(rhs, counts, eq, error))
      return false;
  } else {
    for (int j = 0; j < eq.ellipsisRank; ++j)
      eq.output.push_back(kEllipsisBase + j);
    for (int c = 0; c < 128; ++c)
      if (counts[c] == 1)
        eq.output.push_back(c);
  }
  return true;
}

/// Readable name of a label for diagnostics.
inline std::string labelName(int label) {
  if (label >= kEllipsisBase)
    return "'...' dim " + std::to_string(label - kEllipsisBase);
  return "'" + std::string(1, static_cast<char>(label)) + "'";
}

} // namespace mlir::relay::einsum

#endif // RELAY_LIB_RELATIONS_EINSUMEQUATION_H
