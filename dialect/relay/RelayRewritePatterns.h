//===- RelayRewritePatterns.h - rewrite patterns of the relay passes ------===//
//
// The pattern sets of relay-fold-constants and relay-dynamic-to-static, for
// passes and pipelines that run them with other patterns (the other passes'
// populate functions are declared in RelayPasses.h).
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_RELAYREWRITEPATTERNS_H
#define RELAY_RELAYREWRITEPATTERNS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::relay {

/// FoldConstants's rewrites (relay-fold-constants): fill ops and identities
/// simplified, ops whose operands are all constants evaluated.
void populateFoldConstantsPatterns(RewritePatternSet &patterns);

/// DynamicToStatic's rewrites (relay-dynamic-to-static), one per op: a dyn.*
/// op whose shape operands are constants as its static op, shape_of and
/// ndarray_size of a static shape as a constant. Each rejects an op with an
/// operand whose type is not inferred yet; the pass re-infers types between
/// rounds.
void populateDynamicToStaticPatterns(RewritePatternSet &patterns);

} // namespace mlir::relay

#endif // RELAY_RELAYREWRITEPATTERNS_H
