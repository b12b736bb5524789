//===- RelayTransformOps.td - shape transforms -------------*- tablegen -*-===//
#ifndef RELAY_TRANSFORM_OPS_TD
#define RELAY_TRANSFORM_OPS_TD

include "relay/RelayOpBase.td"

def Relay_ReshapeOp : Relay_Operator<"reshape", "Reshape"> {
  let summary = "reshape with Relay's `newshape` codes";
  let description = [{
    `0` copies the input dim (a literal 0 with `allowzero`), `-1` infers
    one dim, `-2` copies the rest, `-3` merges two dims, `-4` splits one dim
    into the next two values.

    ```mlir
    %y = relay.reshape %x {newshape = array<i64: 0, -1>} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DenseI64ArrayAttr:$newshape,
                       DefaultValuedAttr<BoolAttr, "false">:$allowzero);
}

def Relay_TransposeOp : Relay_Operator<"transpose", "Transpose"> {
  let summary = "permutes dims (`axes` empty = reverse)";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       OptionalAttr<DenseI64ArrayAttr>:$axes);
}

def Relay_ConcatenateOp : Relay_Operator<"concatenate", "Concatenate"> {
  let summary = "joins tensors along `axis`";
  let description = [{
    Relay passes the inputs as one tuple; here they are the operands.

    ```mlir
    %y = relay.concatenate %a, %b {axis = 1 : i64} : (tensor<1x2xf32>, tensor<1x3xf32>) -> tensor<1x5xf32>
    ```
  }];
  let arguments = (ins Variadic<Relay_AnyTensorOrIncomplete>:$data,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
}

#endif // RELAY_TRANSFORM_OPS_TD
