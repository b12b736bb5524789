//===- RelayImpliedOperands.h - operand types implied by operators --------===//
//
// TVM's type relations also type operands that have no type yet: a weight
// `relay.var("w")` of nn.conv1d/2d/3d and nn.conv2d_transpose (from
// `channels`, `kernel_size`, `groups`, the layouts and the data's channels),
// nn.dense/nn.matmul (from `units`), the 1-D operands of nn.bias_add,
// nn.prelu, nn.batch_norm, nn.layer_norm, nn.instance_norm and
// nn.group_norm (the data's size on `axis`); all of the data's dtype.
// relay-infer-type asks these rules for an op whose operands are not all
// known; the op's typing rule (relay/RelayRelations.h) then checks the
// completed operands as usual. Defined in lib/Relations/Operands.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_RELAYIMPLIEDOPERANDS_H
#define RELAY_RELAYIMPLIEDOPERANDS_H

#include "relay/RelayRelations.h"

namespace mlir::relay {

/// `operandTypes` are `op`'s operand types as inference knows them
/// (`!relay.incomplete` where unknown). Returns, per operand, the type `op`
/// implies for it, or null: the operand is known, `op` does not type it, or
/// its data operand is still unknown. A failure (reported at `site`) means
/// `op` cannot type an unknown operand, e.g. nn.conv2d without `channels`.
FailureOr<SmallVector<Type>> inferOperandTypes(ErrorSite site, Operation *op,
                                               ArrayRef<Type> operandTypes);

} // namespace mlir::relay

#endif // RELAY_RELAYIMPLIEDOPERANDS_H
