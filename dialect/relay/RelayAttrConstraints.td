//===- RelayAttrConstraints.td - enum-like string attributes -*- tablegen -*-===//
//
// String attributes that take one of a few fixed values (Relay's spellings).
// They stay StringAttr-typed (accessors return StringRef, builders take
// strings) so the Python builder and the frontends pass them as before; ODS
// rejects any other value with "attribute 'x' failed to satisfy constraint:
// one of ...", and docs/ops.md lists the values.
//
// Layout strings that accept any arrangement of their letters (NCHW, NHWC,
// HWCN, ...) are not enums: their typing rule checks them.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_ATTRCONSTRAINTS_TD
#define RELAY_ATTRCONSTRAINTS_TD

include "mlir/IR/CommonAttrConstraints.td"

// A string attribute whose value is one of `values`.
class Relay_StrEnumAttr<list<string> values>
    : StringBasedAttr<
          And<[CPred<"::llvm::isa<::mlir::StringAttr>($_self)">,
               CPred<"::llvm::is_contained(::llvm::ArrayRef<::llvm::StringRef>{"
                     # !interleave(!foreach(v, values, "\"" # v # "\""), ", ")
                     # "}, ::llvm::cast<::mlir::StringAttr>($_self).getValue())">]>,
          "one of " # !interleave(!foreach(v, values, "\"" # v # "\""), ", ")>;

//===----------------------------------------------------------------------===//
// NN (RelayNNOps.td)
//===----------------------------------------------------------------------===//

// nn.pad: how the border is filled.
def Relay_PadModeAttr : Relay_StrEnumAttr<["constant", "edge", "reflect"]>;
// nn.upsampling: the interpolation.
def Relay_UpSamplingMethodAttr
    : Relay_StrEnumAttr<["nearest_neighbor", "bilinear"]>;
// nn.depth_to_space: where the block index sits in the channel dim.
def Relay_DepthToSpaceModeAttr : Relay_StrEnumAttr<["DCR", "CRD"]>;

#endif // RELAY_ATTRCONSTRAINTS_TD
