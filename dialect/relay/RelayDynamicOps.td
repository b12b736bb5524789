//===- RelayDynamicOps.td - shapes known at run time -------*- tablegen -*-===//
//
// Shapes as values (Relay's `shape_of`, `ndarray_size`) and the `dyn.*`
// operators whose shape arguments are tensors computed at run time. Result
// dims that depend on values are `?`; relay-dynamic-to-static turns these
// ops back into their static forms when the shape operands are constants.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_DYNAMIC_OPS_TD
#define RELAY_DYNAMIC_OPS_TD

include "relay/RelayOpBase.td"
include "relay/RelayDtypeTraits.td"
include "relay/RelayAttrConstraints.td"

def Relay_ShapeOfOp : Relay_Operator<"shape_of"> {
  let typeRule = "inferShapeOf(site, adaptor.getData().getType(), "
                 "adaptor.getDtype())";
  let summary = "the shape of a tensor as a 1-D integer tensor";
  let description = [{
    `dtype` (default int32) is the element type of the result.

    ```mlir
    %s = relay.shape_of %x {dtype = i64} : (tensor<?x3xf32>) -> tensor<2xi64>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       OptionalAttr<TypeAttr>:$dtype);
  let hasFolder = 1;
}

def Relay_NdarraySizeOp : Relay_Operator<"ndarray_size"> {
  let typeRule = "inferNdarraySize(site, adaptor.getData().getType(), "
                 "adaptor.getDtype())";
  let summary = "the number of elements of a tensor, as a 0-d integer tensor";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       OptionalAttr<TypeAttr>:$dtype);
  let hasFolder = 1;
}

def Relay_DynReshapeOp : Relay_Operator<"dyn.reshape"> {
  let typeRule = "inferDynReshape(site, adaptor.getData().getType(), "
                 "adaptor.getNewshape().getType(), adaptor.getAllowzero(), "
                 "knownShapeEntries(adaptor.getNewshape()))";
  let summary = "reshape to a shape computed at run time";
  let description = [{
    `newshape` is a 1-D integer tensor of static length (the result rank);
    its values may be `-1` (one dim inferred from the element count) and `0`
    (copy the input dim). The element counts must agree at run time (checked).
    Result dims are static where the entries of `newshape` are known at
    compile time (a constant part of a `concatenate`, a static dim of a
    `shape_of`, ...), `?` otherwise.

    ```mlir
    %y = relay.dyn.reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$newshape,
                       DefaultValuedAttr<BoolAttr, "false">:$allowzero);
}

def Relay_DynBroadcastToOp : Relay_Operator<"dyn.broadcast_to"> {
  let typeRule = "inferDynBroadcastTo(site, adaptor.getData().getType(), "
                 "adaptor.getShape().getType(), "
                 "knownShapeEntries(adaptor.getShape()))";
  let summary = "broadcasts to a shape computed at run time";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$shape);
}

def Relay_DynZerosOp : Relay_Operator<"dyn.zeros"> {
  let typeRule = "inferDynFull(site, std::nullopt, "
                 "adaptor.getShape().getType(), adaptor.getDtype(), "
                 "knownShapeEntries(adaptor.getShape()))";
  let summary = "zeros of a shape computed at run time";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$shape, TypeAttr:$dtype);
}

def Relay_DynOnesOp : Relay_Operator<"dyn.ones"> {
  let typeRule = "inferDynFull(site, std::nullopt, "
                 "adaptor.getShape().getType(), adaptor.getDtype(), "
                 "knownShapeEntries(adaptor.getShape()))";
  let summary = "ones of a shape computed at run time";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$shape, TypeAttr:$dtype);
}

def Relay_DynFullOp : Relay_Operator<"dyn.full"> {
  let typeRule = "inferDynFull(site, adaptor.getFillValue().getType(), "
                 "adaptor.getShape().getType(), adaptor.getDtype(), "
                 "knownShapeEntries(adaptor.getShape()))";
  let summary = "the 0-d `fill_value` over a shape computed at run time";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$fill_value,
                       Relay_AnyTensorOrIncomplete:$shape,
                       OptionalAttr<TypeAttr>:$dtype);
}

//===----------------------------------------------------------------------===//
// The dyn forms of slicing, padding, tiling and index operators
//===----------------------------------------------------------------------===//

def Relay_DynStridedSliceOp : Relay_Operator<"dyn.strided_slice"> {
  let typeRule = "inferDynStridedSlice(site, adaptor.getData().getType(), "
                 "adaptor.getBegin().getType(), adaptor.getEnd().getType(), "
                 "adaptor.getStrides().getType())";
  let summary = "strided_slice with begin, end and strides computed at run time";
  let description = [{
    `begin` and `end` are 1-d integer tensors of one static length k (at
    most the rank), `strides` has k entries or one for all; entry i applies
    to dim i and dims k.. are whole. Indices follow `relay.strided_slice`:
    negative ones count from the end, all are clamped to the dim; an empty
    selection is a 0 dim (not an error: the values are not known when the
    program is compiled); a stride of 0 is a run-time error.
    `slice_mode = "size"`: `end` holds sizes (-1 = to the end) and strides
    are 1. The first k result dims are `?`.

    ```mlir
    %y = relay.dyn.strided_slice %x, %b, %e, %s : (tensor<4x5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x5xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$begin,
                       Relay_AnyTensorOrIncomplete:$end,
                       Relay_AnyTensorOrIncomplete:$strides,
                       DefaultValuedAttr<Relay_SliceModeAttr, "\"end\"">:$slice_mode);
}

def Relay_DynTileOp : Relay_Operator<"dyn.tile"> {
  let typeRule = "inferDynTile(site, adaptor.getData().getType(), "
                 "adaptor.getReps().getType(), "
                 "knownShapeEntries(adaptor.getReps()))";
  let summary = "numpy.tile with repeats computed at run time";
  let description = [{
    `reps` is a 1-d integer tensor of static length k; the result has rank
    max(rank, k) (numpy's rules: the shorter of the two is padded with
    leading 1s). Result dims are static where the data dim and the repeat
    are known; a negative repeat is a run-time error.
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$reps);
}

def Relay_DynPadOp : Relay_Operator<"dyn.nn.pad"> {
  let typeRule = "inferDynPad(site, adaptor.getData().getType(), "
                 "adaptor.getPadWidth().getType(), "
                 "adaptor.getPadValue().getType(), adaptor.getPadMode())";
  let summary = "nn.pad with pad widths computed at run time";
  let description = [{
    `pad_width` is a (rank, 2) integer tensor of (before, after) per dim;
    `pad_value` a 0-d tensor of the data dtype. Modes as `relay.nn.pad`
    (`constant`, `edge`, `reflect`); a negative width crops (as ONNX's Pad).
    A negative result dim, more than 2^40 elements, or edge/reflect padding
    of an empty dim are run-time errors. Result dims are `?`.
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$pad_width,
                       Relay_AnyTensorOrIncomplete:$pad_value,
                       DefaultValuedAttr<Relay_PadModeAttr, "\"constant\"">:$pad_mode);
}

def Relay_DynOneHotOp : Relay_Operator<"dyn.one_hot"> {
  let typeRule = "inferDynOneHot(site, adaptor.getIndices().getType(), "
                 "adaptor.getOnValue().getType(), "
                 "adaptor.getOffValue().getType(), "
                 "adaptor.getDepth().getType(), adaptor.getAxis(), "
                 "adaptor.getDtype(), knownShapeEntries(adaptor.getDepth()))";
  let summary = "one_hot with a depth computed at run time";
  let description = [{
    `depth` is an integer tensor of one element (0-d or 1-d); the new dim at
    `axis` has that size (`?` unless known). Indices outside [0, depth)
    give `off_value` everywhere; a negative depth is a run-time error.
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$indices,
                       Relay_AnyTensorOrIncomplete:$on_value,
                       Relay_AnyTensorOrIncomplete:$off_value,
                       Relay_AnyTensorOrIncomplete:$depth,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       TypeAttr:$dtype);
}

def Relay_DynSqueezeOp : Relay_Operator<"dyn.squeeze"> {
  let typeRule = "inferDynSqueeze(site, adaptor.getData().getType(), "
                 "adaptor.getAxis().getType())";
  let summary = "squeeze of axes computed at run time";
  let description = [{
    `axis` is a 1-d integer tensor of static length k <= rank (negative
    entries count from the end); the result has rank - k dims, all `?`
    (which dims remain is known only at run time). An axis out of range or
    given twice, or a squeezed dim that is not 1, is a run-time error.
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$axis);
}

def Relay_DynExpandDimsOp : Relay_Operator<"dyn.expand_dims"> {
  let typeRule = "inferDynExpandDims(site, adaptor.getData().getType(), "
                 "adaptor.getAxis().getType(), adaptor.getNumNewaxis())";
  let summary = "expand_dims at an axis computed at run time";
  let description = [{
    `axis` is an integer tensor of one element (0-d or 1-d) in
    [-rank-1, rank] (checked at run time); `num_newaxis` unit dims are
    inserted there. The result dims are `?`.
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$axis,
                       DefaultValuedAttr<I64Attr, "1">:$num_newaxis);
}

def Relay_DynTopKOp : Relay_Operator<"dyn.topk"> {
  let typeRule = "inferDynTopK(site, adaptor.getData().getType(), "
                 "adaptor.getK().getType(), adaptor.getAxis(), "
                 "adaptor.getRetType(), adaptor.getDtype())";
  let summary = "topk with k computed at run time";
  let description = [{
    `k` is an integer tensor of one element (0-d or 1-d), checked at run
    time to lie in [0, dim] (TVM's `k < 1` = the whole axis is the static
    op's). Results as `relay.topk`, `?` along `axis`.
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$k,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<Relay_TopKRetTypeAttr, "\"both\"">:$ret_type,
                       DefaultValuedAttr<BoolAttr, "false">:$is_ascend,
                       OptionalAttr<TypeAttr>:$dtype);
}

#endif // RELAY_DYNAMIC_OPS_TD
