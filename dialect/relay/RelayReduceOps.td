//===- RelayReduceOps.td - reductions ----------------------*- tablegen -*-===//
//
// All share Relay's reduce shape rule: `axis` (none = all), `keepdims`,
// `exclude` (lib/Relations/Reduce.cpp). The typing rules differ only in
// their dtype rule: `inferReduce` keeps the dtype, `inferLogicalReduce`
// (all/any) requires bool, `inferArgReduce` (argmax/argmin) gives int32,
// `inferVariance` takes the mean as a second operand.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_REDUCE_OPS_TD
#define RELAY_REDUCE_OPS_TD

include "relay/RelayOpBase.td"

// Relay's ReduceAttrs; `extra` adds an op's own attributes and operands.
class Relay_ReduceOp<string mnemonic, string rule = "inferReduce",
                     dag extra = (ins), list<Trait> traits = []>
    : Relay_Operator<mnemonic, traits> {
  let arguments = !con(
      (ins Relay_AnyTensorOrIncomplete:$data,
           OptionalAttr<DenseI64ArrayAttr>:$axis,
           DefaultValuedAttr<BoolAttr, "false">:$keepdims,
           DefaultValuedAttr<BoolAttr, "false">:$exclude),
      extra);
  let typeRule = rule # "(site, adaptor.getData().getType(), "
                 "adaptor.getAxis(), adaptor.getKeepdims(), "
                 "adaptor.getExclude())";
}

def Relay_SumOp : Relay_ReduceOp<"sum", "inferReduce", (ins), [Relay_OrderFreeReduction]> {
  let summary = "sum over `axis`";
  let description = [{
    ```mlir
    %s = relay.sum %x {axis = array<i64: 1>, keepdims = true} : (tensor<2x3xf32>) -> tensor<2x1xf32>
    ```
  }];
}
def Relay_MeanOp : Relay_ReduceOp<"mean", "inferReduce", (ins), [Relay_OrderFreeReduction]> { let summary = "mean over `axis`"; }
def Relay_MaxOp : Relay_ReduceOp<"max", "inferReduce", (ins), [Relay_OrderFreeReduction]> { let summary = "maximum over `axis`"; }
def Relay_MinOp : Relay_ReduceOp<"min", "inferReduce", (ins), [Relay_OrderFreeReduction]> { let summary = "minimum over `axis`"; }
def Relay_ProdOp : Relay_ReduceOp<"prod", "inferReduce", (ins), [Relay_OrderFreeReduction]> { let summary = "product over `axis`"; }

def Relay_AllOp : Relay_ReduceOp<"all", "inferLogicalReduce"> {
  let summary = "logical AND of a bool tensor over `axis`";
  let description = [{
    ```mlir
    %a = relay.all %m {axis = array<i64: 0>} : (tensor<2x3xi1>) -> tensor<3xi1>
    ```
  }];
}
def Relay_AnyOp : Relay_ReduceOp<"any", "inferLogicalReduce"> {
  let summary = "logical OR of a bool tensor over `axis`";
}

def Relay_ArgMaxOp : Relay_ReduceOp<"argmax", "inferArgReduce",
    (ins DefaultValuedAttr<BoolAttr, "false">:$select_last_index)> {
  let summary = "int32 index of the maximum over `axis`";
  let description = [{
    Several reduced axes give the row-major index into the reduced dims.
    Ties give the first index, or the last with `select_last_index`.

    ```mlir
    %i = relay.argmax %x {axis = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xi32>
    ```
  }];
}
def Relay_ArgMinOp : Relay_ReduceOp<"argmin", "inferArgReduce",
    (ins DefaultValuedAttr<BoolAttr, "false">:$select_last_index)> {
  let summary = "int32 index of the minimum over `axis`";
}

def Relay_VarianceOp : Relay_ReduceOp<"variance", "inferVariance",
    (ins Relay_AnyTensorOrIncomplete:$mean,
         DefaultValuedAttr<BoolAttr, "false">:$unbiased)> {
  let summary = "variance over `axis` given the mean (Relay's `_variance`)";
  let typeRule = "inferVariance(site, adaptor.getData().getType(), "
                 "adaptor.getMean().getType(), adaptor.getAxis(), "
                 "adaptor.getKeepdims(), adaptor.getExclude())";
  let description = [{
    As Relay's op form: `mean` (rank of `data`, broadcastable to it,
    normally `mean(data, axis, keepdims=True)`) is an operand;
    `sum((data - mean)^2) / (N - unbiased)` over the reduced dims.

    ```mlir
    %v = relay.variance %x, %m {axis = array<i64: 1>} : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2xf32>
    ```
  }];
}

#endif // RELAY_REDUCE_OPS_TD
