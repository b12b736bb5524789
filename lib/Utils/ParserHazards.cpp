//===- ParserHazards.cpp - text MLIR's parser aborts on -------------------===//
#include "relay/Utils/ParserHazards.h"

#include "llvm/ADT/StringExtras.h"

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

std::optional<ParserHazard> mlir::relay::findParserHazard(StringRef source) {
  Scanner s{source};
  while (true) {
    s.skipTrivia();
    if (s.done())
      return std::nullopt;
    char c = s.peek();
    if (c == '"') {
      s.skipString();
      continue;
    }
    // %value, @symbol, ^block, #attr, !type: a name, never the keyword
    if (c == '%' || c == '@' || c == '^' || c == '#' || c == '!') {
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
      ++s.pos;
      continue;
    }
    if (s.readId() != "array")
      continue;
    s.skipTrivia();
    if (s.peek() != '<')
      continue;
    ++s.pos;
    s.skipTrivia();
    size_t typePos = s.pos;
    if (!llvm::isAlpha(s.peek()))
      continue;
    if (s.readId() == "index")
      return ParserHazard{
          typePos, "dense arrays of 'index' are not supported (MLIR's parser "
                   "would abort on them); use array<i64: ...>"};
  }
}
