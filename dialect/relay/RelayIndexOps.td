//===- RelayIndexOps.td - indexing, scans and sorting ------*- tablegen -*-===//
//
// Attribute names and defaults are Relay's (python/tvm/relay/op/transform.py,
// algorithm.py). Typing rules in lib/Relations/Index.cpp, lowerings in
// lib/Conversion/RelayToLinalg/{Index,Sort}.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_INDEX_OPS_TD
#define RELAY_INDEX_OPS_TD

include "relay/RelayOpBase.td"
include "relay/RelayAttrConstraints.td"

//===----------------------------------------------------------------------===//
// Indexing
//===----------------------------------------------------------------------===//

def Relay_TakeOp : Relay_Operator<"take"> {
  let typeRule = "inferTake(site, adaptor.getData().getType(), "
                 "adaptor.getIndices().getType(), adaptor.getAxis(), "
                 "adaptor.getBatchDims())";
  let summary = "takes elements of `data` along `axis` at `indices`";
  let description = [{
    The result is `data.shape[:axis] + indices.shape[batch_dims:] +
    data.shape[axis+1:]`; without `axis`, `data` is flattened first and the
    result has the shape of `indices`. `mode` handles out-of-range indices:
    `clip` clamps to `[0, n-1]`, `wrap` wraps modulo `n`, `nan` gives NaN
    (float data), `fast` expects them in range: one out of range is a
    run-time error, checked at the end of the enclosing block (no wait for
    the device in between; the take reads clamped indices until then).

    ```mlir
    %y = relay.take %w, %i {axis = 0 : i64} : (tensor<10x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$indices,
                       OptionalAttr<I64Attr>:$axis,
                       DefaultValuedAttr<I64Attr, "0">:$batch_dims,
                       DefaultValuedAttr<Relay_TakeModeAttr, "\"clip\"">:$mode);
}

def Relay_GatherOp : Relay_Operator<"gather"> {
  let typeRule = "inferGather(site, adaptor.getData().getType(), "
                 "adaptor.getIndices().getType(), adaptor.getAxis())";
  let summary = "`out[i][j][k] = data[i][indices[i][j][k]][k]` (axis 1)";
  let description = [{
    `indices` has the rank of `data`; the result has the shape of `indices`.

    ```mlir
    %y = relay.gather %x, %i {axis = 1 : i64} : (tensor<2x5xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$indices,
                       I64Attr:$axis);
}

def Relay_GatherNDOp : Relay_Operator<"gather_nd"> {
  let typeRule = "inferGatherND(site, adaptor.getData().getType(), "
                 "adaptor.getIndices().getType(), adaptor.getBatchDims(), "
                 "adaptor.getIndexRank())";
  let summary = "gathers slices of `data` at the `M`-tuples in `indices`";
  let description = [{
    `indices` is `[M, Y...]` (after `batch_dims` shared leading dims); the
    result is `Y... + data.shape[batch_dims + M:]`.

    ```mlir
    %y = relay.gather_nd %x, %i : (tensor<3x4x5xf32>, tensor<2x6xi32>) -> tensor<6x5xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$batch_dims,
                       OptionalAttr<I64Attr>:$index_rank);
}

def Relay_ScatterElementsOp : Relay_Operator<"scatter_elements"> {
  let typeRule = "inferScatterElements(site, adaptor.getData().getType(), "
                 "adaptor.getIndices().getType(), "
                 "adaptor.getUpdates().getType(), adaptor.getAxis())";
  let summary = "writes `updates` into `data` at `indices` along `axis`";
  let description = [{
    `reduction` is `update` (the last write wins), `add`, `mul`, `mean`,
    `min` or `max`. `mean` is Relay's running mean (float data only): each
    update, in position order, sets `x = (x + u) / 2`.

    ```mlir
    %y = relay.scatter_elements %x, %i, %u {axis = 0 : i64, reduction = "add"} : (tensor<4x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$indices,
                       Relay_AnyTensorOrIncomplete:$updates,
                       DefaultValuedAttr<I64Attr, "0">:$axis,
                       DefaultValuedAttr<Relay_ScatterElementsReductionAttr, "\"update\"">:$reduction);
}

def Relay_ScatterNDOp : Relay_Operator<"scatter_nd"> {
  let typeRule = "inferScatterND(site, adaptor.getData().getType(), "
                 "adaptor.getIndices().getType(), "
                 "adaptor.getUpdates().getType())";
  let summary = "writes `updates` into `data` at the `M`-tuples of `indices`";
  let description = [{
    `indices` is `[M, Y...]`, `updates` is `Y... + data.shape[M:]`;
    `mode` is `update` (the last write wins), `add`, `mul`, `min` or `max`.

    ```mlir
    %y = relay.scatter_nd %x, %i, %u {mode = "add"} : (tensor<4x3xf32>, tensor<1x2xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$indices,
                       Relay_AnyTensorOrIncomplete:$updates,
                       DefaultValuedAttr<Relay_ScatterNDModeAttr, "\"update\"">:$mode);
}

def Relay_OneHotOp : Relay_Operator<"one_hot"> {
  let typeRule = "inferOneHot(site, adaptor.getIndices().getType(), "
                 "adaptor.getOnValue().getType(), "
                 "adaptor.getOffValue().getType(), adaptor.getDepth(), "
                 "adaptor.getAxis(), adaptor.getDtype())";
  let summary = "one-hot encoding of `indices` with `depth` classes at `axis`";
  let description = [{
    `on_value` and `off_value` are scalar tensors of `dtype`.

    ```mlir
    %y = relay.one_hot %i, %on, %off {depth = 4 : i64, axis = -1 : i64, dtype = f32} : (tensor<3xi32>, tensor<f32>, tensor<f32>) -> tensor<3x4xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$indices,
                       Relay_AnyTensorOrIncomplete:$on_value,
                       Relay_AnyTensorOrIncomplete:$off_value,
                       I64Attr:$depth,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       TypeAttr:$dtype);
}

//===----------------------------------------------------------------------===//
// Scans
//===----------------------------------------------------------------------===//

class Relay_ScanOp<string mnemonic> : Relay_Operator<mnemonic> {
  let typeRule = "inferScan(site, adaptor.getData().getType(), "
                 "adaptor.getAxis(), adaptor.getDtype())";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       OptionalAttr<I64Attr>:$axis,
                       OptionalAttr<TypeAttr>:$dtype,
                       DefaultValuedAttr<BoolAttr, "false">:$exclusive);
}

def Relay_CumsumOp : Relay_ScanOp<"cumsum"> {
  let summary = "cumulative sum along `axis` (flattened when absent)";
  let description = [{
    ```mlir
    %y = relay.cumsum %x {axis = 1 : i64, exclusive = true} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    ```
  }];
}
def Relay_CumprodOp : Relay_ScanOp<"cumprod"> {
  let summary = "cumulative product along `axis` (flattened when absent)";
}

//===----------------------------------------------------------------------===//
// Sorting (stable, as Relay's CPU sort)
//===----------------------------------------------------------------------===//

def Relay_SortOp : Relay_Operator<"sort"> {
  let typeRule = "inferSort(site, adaptor.getData().getType(), "
                 "adaptor.getAxis())";
  let summary = "sorts along `axis` (stable)";
  let description = [{
    ```mlir
    %y = relay.sort %x {is_ascend = false} : (tensor<2x5xf32>) -> tensor<2x5xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<BoolAttr, "true">:$is_ascend);
}

def Relay_ArgsortOp : Relay_Operator<"argsort"> {
  let typeRule = "inferArgsort(site, adaptor.getData().getType(), "
                 "adaptor.getAxis(), adaptor.getDtype())";
  let summary = "indices that sort along `axis` (stable), of `dtype`";
  let description = [{
    `dtype` (of the indices) defaults to int32, as Relay's.

    ```mlir
    %i = relay.argsort %x {dtype = i64} : (tensor<2x5xf32>) -> tensor<2x5xi64>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<BoolAttr, "true">:$is_ascend,
                       OptionalAttr<TypeAttr>:$dtype);
}

def Relay_TopKOp : Relay_Operator<"topk"> {
  let typeRule = "inferTopK(site, adaptor.getData().getType(), "
                 "adaptor.getK(), adaptor.getAxis(), adaptor.getRetType(), "
                 "adaptor.getDtype())";
  let summary = "the `k` largest (smallest with `is_ascend`) along `axis`";
  let description = [{
    `ret_type` `both` gives the tuple `(values, indices)`, `values` or
    `indices` one tensor; `k < 1` takes the whole axis; `dtype` (default
    int32) is the indices' type. Ties keep the input order.

    ```mlir
    %t = relay.topk %x {k = 2 : i64} : (tensor<2x5xf32>) -> tuple<tensor<2x2xf32>, tensor<2x2xi32>>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DefaultValuedAttr<I64Attr, "1">:$k,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<Relay_TopKRetTypeAttr, "\"both\"">:$ret_type,
                       DefaultValuedAttr<BoolAttr, "false">:$is_ascend,
                       OptionalAttr<TypeAttr>:$dtype);
}

def Relay_SearchSortedOp : Relay_Operator<"searchsorted"> {
  let typeRule = "inferSearchSorted(site, "
                 "adaptor.getSortedSequence().getType(), "
                 "adaptor.getValues().getType(), adaptor.getDtype())";
  let summary = "where `values` would be inserted into `sorted_sequence`";
  let description = [{
    Along the last dim: the number of elements `< v` (`<= v` with
    `right`), of `dtype` (default int32). A 1-D `sorted_sequence` serves
    every value; otherwise its leading dims are those of `values`.

    ```mlir
    %i = relay.searchsorted %s, %v {right = true} : (tensor<2x5xf32>, tensor<2x3xf32>) -> tensor<2x3xi32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$sorted_sequence,
                       Relay_AnyTensorOrIncomplete:$values,
                       DefaultValuedAttr<BoolAttr, "false">:$right,
                       OptionalAttr<TypeAttr>:$dtype);
}

def Relay_SparseToDenseOp : Relay_Operator<"sparse_to_dense"> {
  let typeRule = "inferSparseToDense(site, adaptor.getSparseIndices().getType(), "
                 "adaptor.getSparseValues().getType(), "
                 "adaptor.getDefaultValue().getType(), adaptor.getOutputShape())";
  let summary = "a dense `output_shape` tensor from `sparse_values` at `sparse_indices`";
  let description = [{
    `sparse_indices` is `[N, rank]`, `[N]` (rank 1) or 0-d (one index);
    `sparse_values` `[N]` or 0-d (the same value everywhere); the other
    elements are the 0-d `default_value`.

    ```mlir
    %y = relay.sparse_to_dense %i, %v, %d {output_shape = array<i64: 3, 4>} : (tensor<2x2xi32>, tensor<2xf32>, tensor<f32>) -> tensor<3x4xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$sparse_indices,
                       Relay_AnyTensorOrIncomplete:$sparse_values,
                       Relay_AnyTensorOrIncomplete:$default_value,
                       DenseI64ArrayAttr:$output_shape);
}

#endif // RELAY_INDEX_OPS_TD
