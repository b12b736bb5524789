//===- RelayPoolOps.td - nn.*pool* operators ---------------*- tablegen -*-===//
//
// Pooling: windowed, global and adaptive (lowered by
// lib/Conversion/RelayToLinalg/Pool.cpp, typed by lib/Relations/Pool.cpp).
// Attribute names and defaults are Relay's (python/tvm/relay/op/nn/nn.py).
// `layout` is any arrangement of the canonical letters (NCHW, ...), possibly
// with the channels blocked (NCHW8c), checked by the typing rule;
// `out_layout` is empty or equal to it, as in Relay.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_POOL_OPS_TD
#define RELAY_POOL_OPS_TD

include "relay/RelayOpBase.td"

// Relay's Max/AvgPool{1,2,3}DAttrs, typed by `inferPool` over `n` spatial
// dims; `extra` adds the op's own attributes (count_include_pad).
class Relay_PoolNDOp<string mnemonic, int n, string ones, string zeros,
                     string l, dag extra = (ins)>
    : Relay_Operator<mnemonic> {
  let arguments = !con(
      (ins Relay_AnyTensorOrIncomplete:$data,
           DefaultValuedAttr<DenseI64ArrayAttr, ones>:$pool_size,
           DefaultValuedAttr<DenseI64ArrayAttr, ones>:$strides,
           DefaultValuedAttr<DenseI64ArrayAttr, ones>:$dilation,
           DefaultValuedAttr<DenseI64ArrayAttr, zeros>:$padding,
           DefaultValuedAttr<StrAttr, "\"" # l # "\"">:$layout,
           DefaultValuedAttr<StrAttr, "\"\"">:$out_layout,
           DefaultValuedAttr<BoolAttr, "false">:$ceil_mode),
      extra);
  let typeRule = "inferPool(site, adaptor.getData().getType(), " # n # ", "
                 "adaptor.getPoolSize(), adaptor.getStrides(), "
                 "adaptor.getDilation(), adaptor.getPadding(), "
                 "adaptor.getLayout(), adaptor.getOutLayout(), "
                 "adaptor.getCeilMode())";
}

def Relay_MaxPool1DOp : Relay_PoolNDOp<"nn.max_pool1d", 1, "{1}", "{0}",
                                       "NCW"> {
  let summary = "1-D max pooling (layout `NCW` or `NWC`)";
}
def Relay_AvgPool1DOp : Relay_PoolNDOp<"nn.avg_pool1d", 1, "{1}", "{0}", "NCW",
    (ins DefaultValuedAttr<BoolAttr, "false">:$count_include_pad)> {
  let summary = "1-D average pooling (layout `NCW` or `NWC`)";
}

def Relay_MaxPool2DOp : Relay_PoolNDOp<"nn.max_pool2d", 2, "{1, 1}",
                                       "{0, 0}", "NCHW"> {
  let summary = "2-D max pooling";
  let description = [{
    ```mlir
    %y = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x32x32xf32>) -> tensor<1x8x16x16xf32>
    ```
  }];
}
def Relay_AvgPool2DOp : Relay_PoolNDOp<"nn.avg_pool2d", 2, "{1, 1}", "{0, 0}",
    "NCHW", (ins DefaultValuedAttr<BoolAttr, "false">:$count_include_pad)> {
  let summary = "2-D average pooling (`count_include_pad` as in Relay)";
}

def Relay_MaxPool3DOp : Relay_PoolNDOp<"nn.max_pool3d", 3, "{1, 1, 1}",
                                       "{0, 0, 0}", "NCDHW"> {
  let summary = "3-D max pooling (layout `NCDHW` or `NDHWC`)";
  let description = [{
    ```mlir
    %y = relay.nn.max_pool3d %x {pool_size = array<i64: 2, 2, 2>, strides = array<i64: 2, 2, 2>} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x2x2x2xf32>
    ```
  }];
}
def Relay_AvgPool3DOp : Relay_PoolNDOp<"nn.avg_pool3d", 3, "{1, 1, 1}",
    "{0, 0, 0}", "NCDHW",
    (ins DefaultValuedAttr<BoolAttr, "false">:$count_include_pad)> {
  let summary = "3-D average pooling (layout `NCDHW` or `NDHWC`)";
}

class Relay_GlobalPool2DOp<string mnemonic> : Relay_Operator<mnemonic> {
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DefaultValuedAttr<StrAttr, "\"NCHW\"">:$layout,
                       DefaultValuedAttr<StrAttr, "\"\"">:$out_layout);
  let typeRule = "inferGlobalPool2D(site, adaptor.getData().getType(), "
                 "adaptor.getLayout(), adaptor.getOutLayout())";
}

def Relay_GlobalAvgPool2DOp : Relay_GlobalPool2DOp<"nn.global_avg_pool2d"> {
  let summary = "mean over the spatial dims, kept as size 1";
  let description = [{
    ```mlir
    %y = relay.nn.global_avg_pool2d %x : (tensor<1x8x7x7xf32>) -> tensor<1x8x1x1xf32>
    ```
  }];
}
def Relay_GlobalMaxPool2DOp : Relay_GlobalPool2DOp<"nn.global_max_pool2d"> {
  let summary = "max over the spatial dims, kept as size 1";
}

class Relay_AdaptivePool2DOp<string mnemonic> : Relay_Operator<mnemonic> {
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$output_size,
                       DefaultValuedAttr<StrAttr, "\"NCHW\"">:$layout,
                       DefaultValuedAttr<StrAttr, "\"\"">:$out_layout);
  let typeRule = "inferAdaptivePool(site, adaptor.getData().getType(), 2, "
                 "adaptor.getOutputSize(), adaptor.getLayout(), "
                 "adaptor.getOutLayout())";
}
def Relay_AdaptiveAvgPool2DOp
    : Relay_AdaptivePool2DOp<"nn.adaptive_avg_pool2d"> {
  let summary = "average pooling to a fixed `output_size`";
  let description = [{
    Output cell `i` of a dim of input size `n` and output size `m` covers
    `[floor(i * n / m), ceil((i + 1) * n / m))`. `output_size` has 0 (keep
    the input size), 1 (square) or 2 entries.

    ```mlir
    %y = relay.nn.adaptive_avg_pool2d %x {output_size = array<i64: 3, 3>} : (tensor<1x8x7x7xf32>) -> tensor<1x8x3x3xf32>
    ```
  }];
}
def Relay_AdaptiveMaxPool2DOp
    : Relay_AdaptivePool2DOp<"nn.adaptive_max_pool2d"> {
  let summary = "max pooling to a fixed `output_size`";
}

// Relay's AdaptivePool1DAttrs / AdaptivePool3DAttrs, typed by the rule of
// the 2-D ones over `n` spatial dims (inferAdaptivePool). TVM 0.19's
// global_{avg,max}_pool{1,3}d build these with `output_size` all ones.
class Relay_AdaptivePoolNDOp<string mnemonic, int n, string l>
    : Relay_Operator<mnemonic> {
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$output_size,
                       DefaultValuedAttr<StrAttr, "\"" # l # "\"">:$layout,
                       DefaultValuedAttr<StrAttr, "\"\"">:$out_layout);
  let typeRule = "inferAdaptivePool(site, adaptor.getData().getType(), " # n #
                 ", adaptor.getOutputSize(), adaptor.getLayout(), "
                 "adaptor.getOutLayout())";
}
def Relay_AdaptiveAvgPool1DOp
    : Relay_AdaptivePoolNDOp<"nn.adaptive_avg_pool1d", 1, "NCW"> {
  let summary = "1-D average pooling to a fixed `output_size` (NCW or NWC)";
  let description = [{
    The cells of `nn.adaptive_avg_pool2d` over the one spatial dim;
    `output_size` has 0 (keep the input size) or 1 entry.

    ```mlir
    %y = relay.nn.adaptive_avg_pool1d %x {output_size = array<i64: 3>} : (tensor<1x8x7xf32>) -> tensor<1x8x3xf32>
    ```
  }];
}
def Relay_AdaptiveMaxPool1DOp
    : Relay_AdaptivePoolNDOp<"nn.adaptive_max_pool1d", 1, "NCW"> {
  let summary = "1-D max pooling to a fixed `output_size` (NCW or NWC)";
  let description = [{
    ```mlir
    %y = relay.nn.adaptive_max_pool1d %x {output_size = array<i64: 1>, layout = "NWC"} : (tensor<1x7x8xf32>) -> tensor<1x1x8xf32>
    ```
  }];
}
def Relay_AdaptiveAvgPool3DOp
    : Relay_AdaptivePoolNDOp<"nn.adaptive_avg_pool3d", 3, "NCDHW"> {
  let summary = "3-D average pooling to a fixed `output_size` (NCDHW or NDHWC)";
  let description = [{
    The cells of `nn.adaptive_avg_pool2d` over the three spatial dims;
    `output_size` has 0 (keep), 1 (cube) or 3 entries.

    ```mlir
    %y = relay.nn.adaptive_avg_pool3d %x {output_size = array<i64: 2, 3, 4>} : (tensor<1x8x5x6x7xf32>) -> tensor<1x8x2x3x4xf32>
    ```
  }];
}
def Relay_AdaptiveMaxPool3DOp
    : Relay_AdaptivePoolNDOp<"nn.adaptive_max_pool3d", 3, "NCDHW"> {
  let summary = "3-D max pooling to a fixed `output_size` (NCDHW or NDHWC)";
  let description = [{
    ```mlir
    %y = relay.nn.adaptive_max_pool3d %x {output_size = array<i64: 1>} : (tensor<1x8x5x6x7xf32>) -> tensor<1x8x1x1x1xf32>
    ```
  }];
}

#endif // RELAY_POOL_OPS_TD
