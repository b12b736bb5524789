//===- ParserHazards.h - text MLIR's parser aborts on -----------*- C++ -*-===//
//
// MLIR's parser (LLVM 22, assertions on) aborts the process on some
// malformed input instead of reporting an error. Before parsing, the tools
// and the Python package look for such text and report it as an error at
// its location instead (relay-mlir-opt; relay_mlir.emit.parse_module
// through the C API). Remove an entry once the upstream parser diagnoses it.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_UTILS_PARSERHAZARDS_H
#define RELAY_UTILS_PARSERHAZARDS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::relay {

/// A piece of source text MLIR's parser would abort on.
struct ParserHazard {
  /// Byte offset of the offending token in the source.
  size_t offset;
  std::string message;
};

/// The first hazard in `source`, if any. Scans tokens the way MLIR's lexer
/// does (comments and string literals are skipped), in linear time:
///   * `array<index ...>`: Parser::parseDenseArrayAttr accepts `index` as
///     an element type and then asks for its bit width
///     (Type::getIntOrFloatBitWidth asserts "only integers and floats have a
///     bitwidth").
///   * a value used before its definition inside a nested region
///     (`relay.yield %s` before a `relay.fn` whose body defines `%s`): the
///     parser resolves the forward reference to the nested definition, and
///     if a later error makes the op's parser discard that region, the
///     region is destroyed while the outer use remains ("operation destroyed
///     but still has uses"). Such text is never valid (a region's values are
///     not visible outside it), so it is reported at the use.
///   * `tensor.from_elements ... : tensor<N...>` with more elements than the
///     source has bytes: the parser makes one operand type per element and
///     aborts on a huge count ("SmallVector unable to grow").
///   * a `tensor`/`memref`/`vector` type whose element count overflows
///     int64 (`tensor<2x4611686018427387904xf32>`): asking for its element
///     count asserts, e.g. while parsing a `dense<...>` of it.
///   * `tensor.concat dim(-N)`: the verifier indexes the result type with the
///     negative dim (ShapedType::getDimSize asserts).
std::optional<ParserHazard> findParserHazard(StringRef source);

} // namespace mlir::relay

#endif // RELAY_UTILS_PARSERHAZARDS_H
