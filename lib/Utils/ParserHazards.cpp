//===- ParserHazards.cpp - text MLIR's parser aborts on -------------------===//
#include "relay/Utils/ParserHazards.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

#include <vector>

using namespace mlir;
using namespace mlir::relay;

/// Characters of a bare identifier after its first (MLIR's lexer).
static bool isIdChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.';
}

namespace {
/// A cursor over the source that skips what MLIR's lexer skips.
struct Scanner {
  StringRef src;
  size_t pos = 0;

  bool done() const { return pos >= src.size(); }
  char peek(size_t ahead = 0) const {
    return pos + ahead < src.size() ? src[pos + ahead] : '\0';
  }

  /// Past a `<` (and the trivia around it), if that is what comes next.
  bool enterAngle() {
    skipTrivia();
    if (peek() != '<')
      return false;
    ++pos;
    skipTrivia();
    return true;
  }

  /// Skips whitespace and `//` comments.
  void skipTrivia() {
    while (!done()) {
      char c = peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++pos;
      } else if (c == '/' && peek(1) == '/') {
        size_t eol = src.find('\n', pos);
        pos = eol == StringRef::npos ? src.size() : eol + 1;
      } else {
        return;
      }
    }
  }

  /// Skips a string literal starting at `pos` (on its opening quote).
  void skipString() {
    ++pos;
    while (!done() && peek() != '"' && peek() != '\n')
      pos += peek() == '\\' ? 2 : 1;
    ++pos; // the closing quote (or the newline ending a broken literal)
  }

  /// Reads a bare identifier starting at `pos`.
  StringRef readId() {
    size_t start = pos;
    ++pos;
    while (!done() && isIdChar(peek()))
      ++pos;
    return src.slice(start, pos);
  }
};
} // namespace

namespace {
/// Lexical scopes of SSA names: `{...}` groups (regions; attribute
/// dictionaries hold no names and are harmless extra scopes).
struct NameScopes {
  std::vector<int> parent{-1}; // scope 0 is the top level
  int current = 0;
  /// Names defined so far, innermost last, with their scope.
  std::vector<std::pair<StringRef, int>> defs;
  llvm::StringMap<unsigned> visible;
  /// The first use of a name with no visible definition: (scope, offset).
  llvm::StringMap<std::pair<int, size_t>> forwardUses;

  void open() {
    parent.push_back(current);
    current = parent.size() - 1;
  }
  void close() {
    if (current == 0)
      return; // an unbalanced `}`: the parser reports it
    while (!defs.empty() && defs.back().second == current) {
      --visible[defs.back().first];
      defs.pop_back();
    }
    current = parent[current];
  }
  bool isStrictlyInside(int inner, int outer) const {
    for (int s = parent[inner]; s >= 0; s = parent[s])
      if (s == outer)
        return true;
    return false;
  }
  void use(StringRef name, size_t offset) {
    if (!visible.lookup(name))
      forwardUses.try_emplace(name, current, offset);
  }
  /// Defines `name` in the current scope; a forward use it would resolve
  /// from outside this (nested) region is returned as a hazard.
  std::optional<ParserHazard> define(StringRef name, size_t defOffset,
                                     StringRef source) {
    auto it = forwardUses.find(name);
    if (it != forwardUses.end()) {
      auto [useScope, useOffset] = it->second;
      forwardUses.erase(it);
      if (isStrictlyInside(current, useScope)) {
        size_t line = source.take_front(defOffset).count('\n') + 1;
        return ParserHazard{
            useOffset, ("'%" + name + "' is used before its definition (line " +
                        Twine(line) +
                        "), which is inside a nested region that does not "
                        "enclose this use")
                           .str()};
      }
    }
    defs.push_back({name, current});
    ++visible[name];
    return std::nullopt;
  }
};
} // namespace

/// After `%name` (and a `:N` result count or `#N` result index): is this a
/// definition? Results (`%a, %b:2 = op`), `scf.for %i = ...`-style
/// arguments and typed argument lists (`^bb0(%x: T`, `@f(%x: T`,
/// `case ... (%x: T`) define; everything else uses. `listEnd`/`listIsDef`
/// cache the verdict for the rest of a `%a, %b, ...` list (linear time).
static bool isDefinition(Scanner s, bool inParens, size_t &listEnd,
                         bool &listIsDef) {
  if (s.pos < listEnd)
    return listIsDef;
  auto skipSuffix = [&] {
    if (s.peek() == ':' && llvm::isDigit(s.peek(1))) {
      ++s.pos;
      while (!s.done() && llvm::isDigit(s.peek()))
        ++s.pos;
    }
  };
  skipSuffix();
  s.skipTrivia();
  if (s.peek() == '=')
    return s.peek(1) != '=';
  if (s.peek() == ':')
    return inParens;
  if (s.peek() != ',')
    return false;
  // `%a, %b, ... =` (results) or `op %a, %b ...` (operands)
  while (s.peek() == ',') {
    ++s.pos;
    s.skipTrivia();
    if (s.peek() != '%')
      break;
    ++s.pos;
    while (!s.done() && (isIdChar(s.peek()) || s.peek() == '-'))
      ++s.pos;
    skipSuffix();
    s.skipTrivia();
  }
  listEnd = s.pos;
  listIsDef = s.peek() == '=' && s.peek(1) != '=';
  return listIsDef;
}

/// After `tensor`/`memref`/`vector`: a shape `<AxBx...` whose element
/// count overflows int64. Every use of such a type asks for its element
/// count, which asserts (ShapedType::getNumElements), e.g. while parsing a
/// `dense<...>` of it.
static std::optional<ParserHazard> checkShapedType(Scanner s) {
  if (!s.enterAngle())
    return std::nullopt;
  size_t typePos = s.pos;
  int64_t count = 1;
  bool overflow = false;
  while (llvm::isDigit(s.peek()) || s.peek() == '?') {
    int64_t dim = 0;
    if (s.peek() == '?') {
      dim = 1;
      ++s.pos;
    }
    while (llvm::isDigit(s.peek())) {
      overflow |= llvm::MulOverflow(dim, int64_t(10), dim) ||
                  llvm::AddOverflow(dim, int64_t(s.peek() - '0'), dim);
      ++s.pos;
    }
    overflow |= llvm::MulOverflow(count, dim, count);
    if (s.peek() != 'x')
      break;
    ++s.pos;
  }
  if (!overflow)
    return std::nullopt;
  return ParserHazard{typePos, "shaped type with more elements than int64 "
                               "can count (MLIR would abort on it)"};
}

/// After `tensor.from_elements`: its parser makes one operand type per
/// element of the result type (`: tensor<NxM...>`), and aborts when N*M...
/// exceeds what a SmallVector holds. A valid op lists that many operands, so
/// a count larger than the whole source is refused (no valid text is).
static std::optional<ParserHazard> checkFromElements(Scanner s) {
  while (!s.done() && s.peek() != ':' && s.peek() != '\n')
    ++s.pos;
  if (s.peek() != ':')
    return std::nullopt;
  ++s.pos;
  s.skipTrivia();
  size_t typePos = s.pos;
  if (!s.src.substr(s.pos).starts_with("tensor<"))
    return std::nullopt;
  s.pos += strlen("tensor<");
  uint64_t count = 1;
  while (llvm::isDigit(s.peek())) {
    uint64_t dim = 0;
    while (llvm::isDigit(s.peek())) {
      dim = std::min<uint64_t>(dim * 10 + (s.peek() - '0'), uint64_t(1) << 62);
      ++s.pos;
    }
    count = dim && count > (uint64_t(1) << 62) / dim ? uint64_t(1) << 62
                                                     : count * dim;
    if (s.peek() != 'x')
      break;
    ++s.pos;
  }
  if (count <= s.src.size())
    return std::nullopt;
  return ParserHazard{typePos,
                      ("tensor.from_elements of " + Twine(count) +
                       " elements cannot list that many operands (MLIR's "
                       "parser would abort on it)")
                          .str()};
}

/// After `tensor.concat`: a negative `dim(-N)`. The op's verifier indexes
/// the result type with it (ShapedType::getDimSize asserts "invalid index
/// for shaped type"); a dim past the rank is diagnosed.
static std::optional<ParserHazard> checkConcatDim(Scanner s) {
  s.skipTrivia();
  if (!s.src.substr(s.pos).starts_with("dim"))
    return std::nullopt;
  s.pos += strlen("dim");
  s.skipTrivia();
  if (s.peek() != '(')
    return std::nullopt;
  ++s.pos;
  s.skipTrivia();
  if (s.peek() != '-')
    return std::nullopt;
  return ParserHazard{s.pos, "tensor.concat's dim must be non-negative (MLIR's "
                             "verifier would abort on it)"};
}

/// After `tensor.collapse_shape`/`tensor.expand_shape` (and memref's): a
/// negative index in the reassociation `[[0], [-1, 2]]`, or one beyond any
/// rank the source can spell (larger than the source itself). The parser
/// makes an affine map of dims from each group, and AffineMap::get asserts
/// on a negative dim (fuzz seed 13, mutant 36) or on one that wraps around
/// the dim count (seed 14 with integer mutations: 2^63 - 1); an index past
/// the rank is otherwise the verifier's own error.
static std::optional<ParserHazard> checkReassociation(Scanner s) {
  s.skipTrivia();
  if (s.peek() == '%') // the operand
    while (!s.done() && (isIdChar(s.peek()) || s.peek() == '%' ||
                         s.peek() == '#' || s.peek() == '-'))
      ++s.pos;
  s.skipTrivia();
  if (s.peek() != '[')
    return std::nullopt;
  int depth = 0;
  do {
    char c = s.peek();
    if (c == '[') {
      ++depth;
    } else if (c == ']') {
      --depth;
    } else if (c == '-') {
      return ParserHazard{s.pos, "reassociation indices must be non-negative "
                                 "(MLIR's parser would abort on them)"};
    } else if (llvm::isDigit(c)) {
      size_t start = s.pos;
      uint64_t index = 0;
      for (; llvm::isDigit(s.peek()); ++s.pos)
        index = std::min<uint64_t>(index * 10 + (s.peek() - '0'), uint64_t(1)
                                                                      << 62);
      if (index > s.src.size())
        return ParserHazard{start, ("reassociation index " +
                                    s.src.slice(start, s.pos) +
                                    " is beyond any rank of this input (MLIR's "
                                    "parser would abort on it)")
                                       .str()};
      continue;
    } else if (!llvm::isDigit(c) && c != ',' && c != ' ' && c != '\t' &&
               c != '\n' && c != '\r') {
      return std::nullopt; // not a reassociation list
    }
    ++s.pos;
  } while (depth > 0 && !s.done());
  return std::nullopt;
}

/// After `tensor.pad`: a negative static padding in `low[...]` or
/// `high[...]`. The op's verifier infers the padded type from them and a
/// negative size asserts in the type's construction (fuzz seed 14, mutant
/// 139); run-time paddings (`%v`) are the program's business.
static std::optional<ParserHazard> checkPadAmounts(Scanner s) {
  for (StringRef keyword : {"low", "high"}) {
    // the keyword as a word of its own (not in an operand's name)
    size_t at = s.pos;
    do
      at = s.src.find(keyword, at + 1);
    while (at != StringRef::npos &&
           (isIdChar(s.src[at - 1]) || s.src[at - 1] == '%'));
    if (at == StringRef::npos || s.src.substr(s.pos, at - s.pos).contains('{'))
      return std::nullopt; // not this op's lists (its region comes after)
    s.pos = at + keyword.size();
    s.skipTrivia();
    if (s.peek() != '[')
      return std::nullopt;
    for (++s.pos; !s.done() && s.peek() != ']'; ++s.pos)
      if (s.peek() == '-' && llvm::isDigit(s.peek(1)))
        return ParserHazard{s.pos, "tensor.pad's static paddings must be "
                                   "non-negative (MLIR's verifier would abort "
                                   "on them)"};
  }
  return std::nullopt;
}

/// After `array`: a dense array of `index` (`array<index: ...>`), which
/// MLIR's parser aborts on.
static std::optional<ParserHazard> checkDenseArray(Scanner s) {
  if (!s.enterAngle())
    return std::nullopt;
  size_t typePos = s.pos;
  if (!llvm::isAlpha(s.peek()) || s.readId() != "index")
    return std::nullopt;
  return ParserHazard{
      typePos, "dense arrays of 'index' are not supported (MLIR's parser "
               "would abort on them); use array<i64: ...>"};
}

/// The hazard, if any, after the keyword or op name `id` (the scanner just
/// past it).
static std::optional<ParserHazard> checkAfterKeyword(StringRef id,
                                                     const Scanner &s) {
  if (id == "tensor" || id == "memref" || id == "vector")
    return checkShapedType(s);
  if (id == "tensor.from_elements")
    return checkFromElements(s);
  if (id == "tensor.concat")
    return checkConcatDim(s);
  if (id == "tensor.collapse_shape" || id == "tensor.expand_shape" ||
      id == "memref.collapse_shape" || id == "memref.expand_shape")
    return checkReassociation(s);
  if (id == "array")
    return checkDenseArray(s);
  if (id == "tensor.pad")
    return checkPadAmounts(s);
  return std::nullopt;
}

std::optional<ParserHazard> mlir::relay::findParserHazard(StringRef source) {
  Scanner s{source};
  NameScopes names;
  int parenDepth = 0;
  std::vector<int> parenDepths;
  size_t listEnd = 0;
  bool listIsDef = false;
  while (true) {
    s.skipTrivia();
    if (s.done())
      return std::nullopt;
    char c = s.peek();
    if (c == '"') {
      s.skipString();
      continue;
    }
    if (c == '%') {
      size_t at = s.pos;
      ++s.pos;
      size_t nameStart = s.pos;
      if (s.peek() == '"') {
        s.skipString();
        continue;
      }
      while (!s.done() && (isIdChar(s.peek()) || s.peek() == '-'))
        ++s.pos;
      StringRef name = source.slice(nameStart, s.pos);
      if (isDefinition(s, parenDepth > 0, listEnd, listIsDef)) {
        if (std::optional<ParserHazard> hazard = names.define(name, at, source))
          return hazard;
      } else {
        names.use(name, at);
      }
      continue;
    }
    // @symbol, ^block, #attr, !type: a name, never the keyword
    if (c == '@' || c == '^' || c == '#' || c == '!') {
      ++s.pos;
      if (s.peek() == '"')
        s.skipString();
      else
        while (!s.done() && (isIdChar(s.peek()) || s.peek() == '-'))
          ++s.pos;
      continue;
    }
    if (llvm::isDigit(c)) {
      while (!s.done() && (llvm::isAlnum(s.peek()) || s.peek() == '.'))
        ++s.pos;
      continue;
    }
    if (!llvm::isAlpha(c) && c != '_') {
      if (c == '{') {
        names.open();
        parenDepths.push_back(parenDepth);
        parenDepth = 0; // a region inside a generic op's `({...})`
      } else if (c == '}') {
        names.close();
        if (!parenDepths.empty()) {
          parenDepth = parenDepths.back();
          parenDepths.pop_back();
        }
      } else if (c == '(')
        ++parenDepth;
      else if (c == ')' && parenDepth > 0)
        --parenDepth;
      ++s.pos;
      continue;
    }
    StringRef id = s.readId();
    if (std::optional<ParserHazard> hazard = checkAfterKeyword(id, s))
      return hazard;
  }
}
