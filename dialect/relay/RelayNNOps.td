//===- RelayNNOps.td - nn.* operators ----------------------*- tablegen -*-===//
//
// Attribute names and defaults are Relay's (python/tvm/relay/op/nn/nn.py).
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_NN_OPS_TD
#define RELAY_NN_OPS_TD

include "relay/RelayOpBase.td"

def Relay_DenseOp : Relay_Operator<"nn.dense", "Dense"> {
  let summary = "data · weightᵀ (Relay's `nn.dense`)";
  let description = [{
    `data` is `[d1, ..., dn, k]`, `weight` is `[units, k]`; the result is
    `[d1, ..., dn, units]`.

    ```mlir
    %y = relay.nn.dense %x, %w : (tensor<1x64xf32>, tensor<10x64xf32>) -> tensor<1x10xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$weight,
                       OptionalAttr<I64Attr>:$units,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

def Relay_BiasAddOp : Relay_Operator<"nn.bias_add", "BiasAdd"> {
  let summary = "adds a 1-D bias along `axis`";
  let description = [{
    ```mlir
    %y = relay.nn.bias_add %x, %b {axis = 1 : i64} : (tensor<1x8x4x4xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$bias,
                       DefaultValuedAttr<I64Attr, "1">:$axis);
}

def Relay_Conv2DOp : Relay_Operator<"nn.conv2d", "Conv2D"> {
  let summary = "2-D convolution (Relay's `nn.conv2d`)";
  let description = [{
    Layouts `NCHW`/`OIHW` (default) or `NHWC`/`HWIO`. `padding` has 1, 2 or
    4 entries as in Relay (`[p]`, `[ph, pw]`, `[top, left, bottom, right]`).

    ```mlir
    %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x32x32xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$weight,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation,
                       DefaultValuedAttr<I64Attr, "1">:$groups,
                       OptionalAttr<I64Attr>:$channels,
                       OptionalAttr<DenseI64ArrayAttr>:$kernel_size,
                       DefaultValuedAttr<StrAttr, "\"NCHW\"">:$data_layout,
                       DefaultValuedAttr<StrAttr, "\"OIHW\"">:$kernel_layout,
                       DefaultValuedAttr<StrAttr, "\"\"">:$out_layout,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

// Relay's MaxPool2DAttrs; `extra` adds the op's own attributes (avg_pool2d's
// count_include_pad).
class Relay_Pool2DOp<string mnemonic, dag extra = (ins)>
    : Relay_Operator<mnemonic, "Pool2D"> {
  let arguments = !con(
      (ins Relay_AnyTensorOrIncomplete:$data,
           DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$pool_size,
           DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
           DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation,
           DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding,
           DefaultValuedAttr<StrAttr, "\"NCHW\"">:$layout,
           DefaultValuedAttr<StrAttr, "\"\"">:$out_layout,
           DefaultValuedAttr<BoolAttr, "false">:$ceil_mode),
      extra);
}

def Relay_MaxPool2DOp : Relay_Pool2DOp<"nn.max_pool2d"> {
  let summary = "2-D max pooling";
  let description = [{
    ```mlir
    %y = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x32x32xf32>) -> tensor<1x8x16x16xf32>
    ```
  }];
}
def Relay_AvgPool2DOp : Relay_Pool2DOp<"nn.avg_pool2d",
    (ins DefaultValuedAttr<BoolAttr, "false">:$count_include_pad)> {
  let summary = "2-D average pooling (`count_include_pad` as in Relay)";
}

def Relay_GlobalAvgPool2DOp : Relay_Operator<"nn.global_avg_pool2d",
                                            "GlobalPool2D"> {
  let summary = "mean over the spatial dims, kept as size 1";
  let description = [{
    ```mlir
    %y = relay.nn.global_avg_pool2d %x : (tensor<1x8x7x7xf32>) -> tensor<1x8x1x1xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DefaultValuedAttr<StrAttr, "\"NCHW\"">:$layout,
                       DefaultValuedAttr<StrAttr, "\"\"">:$out_layout);
}

def Relay_BatchFlattenOp : Relay_Operator<"nn.batch_flatten",
                                          "BatchFlatten"> {
  let summary = "flattens all but the first dim";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data);
}

def Relay_SoftmaxOp : Relay_Operator<"nn.softmax", "AxisIdentity"> {
  let summary = "softmax along `axis`";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
}

def Relay_BatchNormOp : Relay_Operator<"nn.batch_norm", "BatchNorm"> {
  let summary = "batch normalisation (inference form), a 3-tuple result";
  let description = [{
    As in Relay, the result is `(normalized, moving_mean, moving_var)`;
    only field 0 is normally used.

    ```mlir
    %t = relay.nn.batch_norm %x, %g, %b, %m, %v : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$gamma,
                       Relay_AnyTensorOrIncomplete:$beta,
                       Relay_AnyTensorOrIncomplete:$moving_mean,
                       Relay_AnyTensorOrIncomplete:$moving_var,
                       DefaultValuedAttr<I64Attr, "1">:$axis,
                       DefaultValuedAttr<F64Attr, "1e-5">:$epsilon,
                       DefaultValuedAttr<BoolAttr, "true">:$center,
                       DefaultValuedAttr<BoolAttr, "true">:$scale);
}

#endif // RELAY_NN_OPS_TD
