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

#endif // RELAY_DYNAMIC_OPS_TD
