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
// nn.mirror_pad: REFLECT leaves the border out, SYMMETRIC repeats it.
def Relay_MirrorPadModeAttr : Relay_StrEnumAttr<["REFLECT", "SYMMETRIC"]>;
// nn.upsampling3d: the interpolation and the coordinate mappings its
// separable lowering supports.
def Relay_UpSampling3DMethodAttr
    : Relay_StrEnumAttr<["nearest_neighbor", "trilinear"]>;
def Relay_UpSampling3DCoordinateModeAttr
    : Relay_StrEnumAttr<["half_pixel", "align_corners", "asymmetric"]>;
// nn.upsampling: the interpolation.
def Relay_UpSamplingMethodAttr
    : Relay_StrEnumAttr<["nearest_neighbor", "bilinear"]>;
// nn.nll_loss: how the per-element losses are combined.
def Relay_NLLLossReductionAttr : Relay_StrEnumAttr<["mean", "sum", "none"]>;
// nn.depth_to_space: where the block index sits in the channel dim.
def Relay_DepthToSpaceModeAttr : Relay_StrEnumAttr<["DCR", "CRD"]>;

//===----------------------------------------------------------------------===//
// Transform (RelayTransformOps.td)
//===----------------------------------------------------------------------===//

// strided_slice: whether `end` holds end indices or sizes.
def Relay_SliceModeAttr : Relay_StrEnumAttr<["end", "size"]>;
// meshgrid: matrix ("ij") or Cartesian ("xy": the first two dims swapped).
def Relay_MeshgridIndexingAttr : Relay_StrEnumAttr<["ij", "xy"]>;

//===----------------------------------------------------------------------===//
// Index (RelayIndexOps.td)
//===----------------------------------------------------------------------===//

// take: what an out-of-range index does.
def Relay_TakeModeAttr : Relay_StrEnumAttr<["clip", "wrap", "fast", "nan"]>;
// scatter_elements: how an update combines with the value it lands on.
def Relay_ScatterElementsReductionAttr
    : Relay_StrEnumAttr<["update", "add", "mul", "mean", "min", "max"]>;
// scatter_nd: how an update combines with the value it lands on.
def Relay_ScatterNDModeAttr
    : Relay_StrEnumAttr<["update", "add", "mul", "min", "max"]>;
// topk: which results it gives.
def Relay_TopKRetTypeAttr : Relay_StrEnumAttr<["both", "values", "indices"]>;

//===----------------------------------------------------------------------===//
// Image (RelayImageOps.td)
//===----------------------------------------------------------------------===//

// image.resize2d: the image layout.
def Relay_ImageLayoutAttr : Relay_StrEnumAttr<["NCHW", "NHWC"]>;
// image.resize2d: the interpolation.
def Relay_ResizeMethodAttr
    : Relay_StrEnumAttr<["nearest_neighbor", "linear", "cubic"]>;
// image.resize2d: how output coordinates map to input coordinates.
def Relay_CoordinateTransformationModeAttr
    : Relay_StrEnumAttr<["half_pixel", "align_corners", "asymmetric",
                         "pytorch_half_pixel", "tf_half_pixel_for_nn",
                         "tf_crop_and_resize"]>;
// image.resize2d (nearest_neighbor): how a coordinate rounds to an index
// ("" is Relay's default: round for align_corners, floor otherwise).
def Relay_RoundingMethodAttr
    : Relay_StrEnumAttr<["", "round", "floor", "ceil", "round_prefer_floor",
                         "round_prefer_ceil"]>;

#endif // RELAY_ATTRCONSTRAINTS_TD
