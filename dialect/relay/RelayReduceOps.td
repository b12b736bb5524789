//===- RelayReduceOps.td - reductions ----------------------*- tablegen -*-===//
//
// All typed by `Reduce`: `axis` (none = all), `keepdims`, `exclude`.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_REDUCE_OPS_TD
#define RELAY_REDUCE_OPS_TD

include "relay/RelayOpBase.td"

class Relay_ReduceOp<string mnemonic> : Relay_Operator<mnemonic, "Reduce"> {
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       OptionalAttr<DenseI64ArrayAttr>:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdims,
                       DefaultValuedAttr<BoolAttr, "false">:$exclude);
}

def Relay_SumOp : Relay_ReduceOp<"sum"> {
  let summary = "sum over `axis`";
  let description = [{
    ```mlir
    %s = relay.sum %x {axis = array<i64: 1>, keepdims = true} : (tensor<2x3xf32>) -> tensor<2x1xf32>
    ```
  }];
}
def Relay_MeanOp : Relay_ReduceOp<"mean"> { let summary = "mean over `axis`"; }

#endif // RELAY_REDUCE_OPS_TD
