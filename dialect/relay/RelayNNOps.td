//===- RelayNNOps.td - nn.* operators ----------------------*- tablegen -*-===//
//
// Attribute names and defaults are Relay's (python/tvm/relay/op/nn/nn.py).
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_NN_OPS_TD
#define RELAY_NN_OPS_TD

include "relay/RelayOpBase.td"

def Relay_DenseOp : Relay_RelOperator<"nn.dense", "Dense"> {
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

def Relay_BiasAddOp : Relay_RelOperator<"nn.bias_add", "BiasAdd"> {
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

def Relay_Conv2DOp : Relay_RelOperator<"nn.conv2d", "Conv2D"> {
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
    : Relay_RelOperator<mnemonic, "Pool2D"> {
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

def Relay_GlobalAvgPool2DOp : Relay_RelOperator<"nn.global_avg_pool2d",
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

def Relay_BatchFlattenOp : Relay_RelOperator<"nn.batch_flatten",
                                          "BatchFlatten"> {
  let summary = "flattens all but the first dim";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data);
}

def Relay_SoftmaxOp : Relay_RelOperator<"nn.softmax", "AxisIdentity"> {
  let summary = "softmax along `axis`";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
}

def Relay_BatchNormOp : Relay_RelOperator<"nn.batch_norm", "BatchNorm"> {
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

//===----------------------------------------------------------------------===//
// Operator library: more nn.* operators (Relay 0.19 names and defaults)
//===----------------------------------------------------------------------===//

def Relay_MatmulOp : Relay_RelOperator<"nn.matmul", "Dense"> {
  let summary = "tensor_a · tensor_b with optional transposes (Relay's `nn.matmul`)";
  let description = [{
    `tensor_a` is `[d..., k]` (`[d..., k, m]` with `transpose_a`),
    `tensor_b` is `[k, units]` (`[units, k]` with `transpose_b`); the result
    is `[d..., units]` (`[d..., m, units]`). Shares `nn.dense`'s relation
    (`nn.dense` is `nn.matmul` with `transpose_b = true`).

    ```mlir
    %y = relay.nn.matmul %a, %b : (tensor<2x8xf32>, tensor<8x5xf32>) -> tensor<2x5xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$tensor_a,
                       Relay_AnyTensorOrIncomplete:$tensor_b,
                       OptionalAttr<I64Attr>:$units,
                       OptionalAttr<TypeAttr>:$out_dtype,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_a,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_b);
}

def Relay_BatchMatmulOp : Relay_RelOperator<"nn.batch_matmul", "BatchMatmul"> {
  let summary = "batched x · yᵀ (Relay's `nn.batch_matmul`)";
  let description = [{
    `x` is `[b, m, k]` (`[b, k, m]` with `transpose_a`), `y` is `[b, n, k]`
    (default `transpose_b = true`) or `[b, k, n]`; a batch of 1 broadcasts.
    The result is `[b, m, n]`.

    ```mlir
    %z = relay.nn.batch_matmul %x, %y : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$x,
                       Relay_AnyTensorOrIncomplete:$y,
                       OptionalAttr<TypeAttr>:$out_dtype,
                       DefaultValuedAttr<BoolAttr, "false">:$transpose_a,
                       DefaultValuedAttr<BoolAttr, "true">:$transpose_b);
}

// N-d convolutions (1-D and 3-D) share the relation `Conv`; the number of
// spatial dims is the length of `data_layout` minus 2.
class Relay_ConvNDOp<string mnemonic, string ones, string zeros,
                     string dl, string kl>
    : Relay_RelOperator<mnemonic, "Conv"> {
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$weight,
                       DefaultValuedAttr<DenseI64ArrayAttr, ones>:$strides,
                       DefaultValuedAttr<DenseI64ArrayAttr, zeros>:$padding,
                       DefaultValuedAttr<DenseI64ArrayAttr, ones>:$dilation,
                       DefaultValuedAttr<I64Attr, "1">:$groups,
                       OptionalAttr<I64Attr>:$channels,
                       OptionalAttr<DenseI64ArrayAttr>:$kernel_size,
                       DefaultValuedAttr<StrAttr, "\"" # dl # "\"">:$data_layout,
                       DefaultValuedAttr<StrAttr, "\"" # kl # "\"">:$kernel_layout,
                       DefaultValuedAttr<StrAttr, "\"\"">:$out_layout,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

def Relay_Conv1DOp : Relay_ConvNDOp<"nn.conv1d", "{1}", "{0}", "NCW", "OIW"> {
  let summary = "1-D convolution (Relay's `nn.conv1d`)";
  let description = [{
    Layouts `NCW`/`OIW` (default) or `NWC`/`WIO`; `padding` has 1 or 2
    entries (`[p]` or `[left, right]`).

    ```mlir
    %y = relay.nn.conv1d %x, %w {padding = array<i64: 1>} : (tensor<1x3x16xf32>, tensor<8x3x3xf32>) -> tensor<1x8x16xf32>
    ```
  }];
}

def Relay_Conv3DOp : Relay_ConvNDOp<"nn.conv3d", "{1, 1, 1}", "{0, 0, 0}",
                                    "NCDHW", "OIDHW"> {
  let summary = "3-D convolution (Relay's `nn.conv3d`)";
  let description = [{
    Layouts `NCDHW`/`OIDHW` (default) or `NDHWC`/`DHWIO`; `padding` has 1,
    3 or 6 entries (`[front, top, left, back, bottom, right]`).
  }];
}

def Relay_Conv2DTransposeOp : Relay_RelOperator<"nn.conv2d_transpose",
                                             "Conv2DTranspose"> {
  let summary = "2-D transposed convolution (Relay's `nn.conv2d_transpose`)";
  let description = [{
    The gradient of `nn.conv2d` with respect to its input. The weight is
    `IOHW` (Relay's default): `[in_channels, channels / groups, KH, KW]`.
    Output size `(in - 1) * stride - pad_before - pad_after +
    dilation * (k - 1) + output_padding + 1`.

    ```mlir
    %y = relay.nn.conv2d_transpose %x, %w {strides = array<i64: 2, 2>} : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x11x11xf32>
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
                       DefaultValuedAttr<StrAttr, "\"IOHW\"">:$kernel_layout,
                       DefaultValuedAttr<StrAttr, "\"\"">:$out_layout,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$output_padding,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

// N-d pooling (1-D and 3-D) shares the relation `Pool`; the number of
// spatial dims is the length of `layout` minus 2.
class Relay_PoolNDOp<string mnemonic, string ones, string zeros, string l,
                     dag extra = (ins)>
    : Relay_RelOperator<mnemonic, "Pool"> {
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
}

def Relay_MaxPool1DOp : Relay_PoolNDOp<"nn.max_pool1d", "{1}", "{0}", "NCW"> {
  let summary = "1-D max pooling (layout `NCW` or `NWC`)";
}
def Relay_AvgPool1DOp : Relay_PoolNDOp<"nn.avg_pool1d", "{1}", "{0}", "NCW",
    (ins DefaultValuedAttr<BoolAttr, "false">:$count_include_pad)> {
  let summary = "1-D average pooling (layout `NCW` or `NWC`)";
}
def Relay_MaxPool3DOp : Relay_PoolNDOp<"nn.max_pool3d", "{1, 1, 1}",
                                       "{0, 0, 0}", "NCDHW"> {
  let summary = "3-D max pooling (layout `NCDHW` or `NDHWC`)";
  let description = [{
    ```mlir
    %y = relay.nn.max_pool3d %x {pool_size = array<i64: 2, 2, 2>, strides = array<i64: 2, 2, 2>} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x2x2x2xf32>
    ```
  }];
}
def Relay_AvgPool3DOp : Relay_PoolNDOp<"nn.avg_pool3d", "{1, 1, 1}",
    "{0, 0, 0}", "NCDHW",
    (ins DefaultValuedAttr<BoolAttr, "false">:$count_include_pad)> {
  let summary = "3-D average pooling (layout `NCDHW` or `NDHWC`)";
}

def Relay_GlobalMaxPool2DOp : Relay_RelOperator<"nn.global_max_pool2d",
                                             "GlobalPool2D"> {
  let summary = "max over the spatial dims, kept as size 1";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DefaultValuedAttr<StrAttr, "\"NCHW\"">:$layout,
                       DefaultValuedAttr<StrAttr, "\"\"">:$out_layout);
}

class Relay_AdaptivePool2DOp<string mnemonic>
    : Relay_RelOperator<mnemonic, "AdaptivePool2D"> {
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$output_size,
                       DefaultValuedAttr<StrAttr, "\"NCHW\"">:$layout,
                       DefaultValuedAttr<StrAttr, "\"\"">:$out_layout);
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

// layer_norm, group_norm and instance_norm share the relation `Norm`:
// gamma and beta are 1-D of size data.shape[axis].
def Relay_LayerNormOp : Relay_RelOperator<"nn.layer_norm", "Norm"> {
  let summary = "normalisation over `axis` (Relay's `nn.layer_norm`)";
  let description = [{
    ```mlir
    %y = relay.nn.layer_norm %x, %g, %b : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$gamma,
                       Relay_AnyTensorOrIncomplete:$beta,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<F64Attr, "1e-5">:$epsilon,
                       DefaultValuedAttr<BoolAttr, "true">:$center,
                       DefaultValuedAttr<BoolAttr, "true">:$scale);
}
def Relay_GroupNormOp : Relay_RelOperator<"nn.group_norm", "Norm"> {
  let summary = "normalisation over groups of channels (Relay's `nn.group_norm`)";
  let description = [{
    The channels (dim `axis`) split into `num_groups` groups; each group of
    each batch element is normalised over its channels and all dims after
    `axis`.
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$gamma,
                       Relay_AnyTensorOrIncomplete:$beta,
                       I64Attr:$num_groups,
                       DefaultValuedAttr<I64Attr, "1">:$axis,
                       DefaultValuedAttr<F64Attr, "1e-5">:$epsilon,
                       DefaultValuedAttr<BoolAttr, "true">:$center,
                       DefaultValuedAttr<BoolAttr, "true">:$scale);
}
def Relay_InstanceNormOp : Relay_RelOperator<"nn.instance_norm", "Norm"> {
  let summary = "normalisation of each channel of each instance";
  let description = [{
    Each (batch, channel) slice is normalised over the dims after `axis`.
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$gamma,
                       Relay_AnyTensorOrIncomplete:$beta,
                       DefaultValuedAttr<I64Attr, "1">:$axis,
                       DefaultValuedAttr<F64Attr, "1e-5">:$epsilon,
                       DefaultValuedAttr<BoolAttr, "true">:$center,
                       DefaultValuedAttr<BoolAttr, "true">:$scale);
}

def Relay_L2NormalizeOp : Relay_RelOperator<"nn.l2_normalize", "AxesIdentity"> {
  let summary = "x / sqrt(max(sum(x², axis), eps))";
  let description = [{
    An empty `axis` normalises over all dims.

    ```mlir
    %y = relay.nn.l2_normalize %x {eps = 1.0e-10 : f64, axis = array<i64: 1>} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       F64Attr:$eps,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$axis);
}

def Relay_LRNOp : Relay_RelOperator<"nn.lrn", "AxisIdentity"> {
  let summary = "local response normalisation across `axis`";
  let description = [{
    `x / (bias + alpha / size * Σ x²)^beta`, the sum over the `size`
    neighbours centred on each position along `axis`.
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DefaultValuedAttr<I64Attr, "5">:$size,
                       DefaultValuedAttr<I64Attr, "1">:$axis,
                       DefaultValuedAttr<F64Attr, "2.0">:$bias,
                       DefaultValuedAttr<F64Attr, "1e-5">:$alpha,
                       DefaultValuedAttr<F64Attr, "0.75">:$beta);
}

def Relay_LogSoftmaxOp : Relay_RelOperator<"nn.log_softmax", "AxisIdentity"> {
  let summary = "log of softmax along `axis`";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
}

def Relay_LeakyReluOp : Relay_RelOperator<"nn.leaky_relu", "Identity"> {
  let summary = "x for x > 0, alpha * x otherwise";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DefaultValuedAttr<F64Attr, "0.01">:$alpha);
}

def Relay_PReluOp : Relay_RelOperator<"nn.prelu", "BiasAdd"> {
  let summary = "leaky relu with a learned slope per channel";
  let description = [{
    `alpha` is 1-D of size `data.shape[axis]` (the relation of
    `nn.bias_add`).

    ```mlir
    %y = relay.nn.prelu %x, %a : (tensor<1x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$alpha,
                       DefaultValuedAttr<I64Attr, "1">:$axis);
}

def Relay_GeluOp : Relay_UnaryOp<"nn.gelu"> {
  let summary = "x * Φ(x) = x * (1 + erf(x / √2)) / 2";
  let description = [{
    Relay composes GELU from `erf`; here it is one op with the same
    (erf-based, not tanh-approximated) semantics.
  }];
}

def Relay_DropoutOp : Relay_RelOperator<"nn.dropout", "Dropout"> {
  let summary = "dropout: the identity at inference, a 2-tuple (out, mask)";
  let description = [{
    As in Relay, the result is `(output, mask)`, both of the data type;
    compiled for inference the output is the data and the mask all ones.

    ```mlir
    %t = relay.nn.dropout %x {rate = 5.0e-01 : f64} : (tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<2x3xf32>>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DefaultValuedAttr<F64Attr, "0.5">:$rate);
}

def Relay_PadOp : Relay_RelOperator<"nn.pad", "Pad"> {
  let summary = "pads each dim (Relay's `nn.pad`)";
  let description = [{
    `pad_width` lists (before, after) per dim, flattened:
    `[b0, a0, b1, a1, ...]` (Relay's `((b0, a0), (b1, a1), ...)`).
    `pad_value` is a 0-d tensor operand of the data dtype (used by
    `pad_mode = "constant"`); `"edge"` repeats the border, `"reflect"`
    mirrors without repeating it (pads must then be < the dim).

    ```mlir
    %y = relay.nn.pad %x, %v {pad_width = array<i64: 0, 0, 1, 2>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x6xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$pad_value,
                       DenseI64ArrayAttr:$pad_width,
                       DefaultValuedAttr<StrAttr, "\"constant\"">:$pad_mode);
}

def Relay_UpSamplingOp : Relay_RelOperator<"nn.upsampling", "UpSampling"> {
  let summary = "2-D upsampling by `scale_h`, `scale_w`";
  let description = [{
    Output size `round(h * scale_h)`, `round(w * scale_w)`; `method` is
    `nearest_neighbor` or `bilinear` (`align_corners` picks the
    coordinate mapping as in topi's resize).

    ```mlir
    %y = relay.nn.upsampling %x {scale_h = 2.0 : f64, scale_w = 2.0 : f64} : (tensor<1x2x3x3xf32>) -> tensor<1x2x6x6xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DefaultValuedAttr<F64Attr, "1.0">:$scale_h,
                       DefaultValuedAttr<F64Attr, "1.0">:$scale_w,
                       DefaultValuedAttr<StrAttr, "\"NCHW\"">:$layout,
                       DefaultValuedAttr<StrAttr, "\"nearest_neighbor\"">:$method,
                       DefaultValuedAttr<BoolAttr, "false">:$align_corners);
}

def Relay_DepthToSpaceOp : Relay_RelOperator<"nn.depth_to_space",
                                          "DepthToSpace"> {
  let summary = "moves channel blocks into spatial blocks";
  let description = [{
    `[N, C, H, W]` → `[N, C / b², H * b, W * b]`; `mode` `DCR` (depth,
    column, row: the block index is outermost in C) or `CRD`.

    ```mlir
    %y = relay.nn.depth_to_space %x {block_size = 2 : i64} : (tensor<1x8x2x2xf32>) -> tensor<1x2x4x4xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       I64Attr:$block_size,
                       DefaultValuedAttr<StrAttr, "\"NCHW\"">:$layout,
                       DefaultValuedAttr<StrAttr, "\"DCR\"">:$mode);
}

def Relay_SpaceToDepthOp : Relay_RelOperator<"nn.space_to_depth",
                                          "SpaceToDepth"> {
  let summary = "moves spatial blocks into channels";
  let description = [{
    `[N, C, H, W]` → `[N, C * b², H / b, W / b]`, the block offset
    outermost in the new channel dim (inverse of `DCR` depth_to_space).
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       I64Attr:$block_size,
                       DefaultValuedAttr<StrAttr, "\"NCHW\"">:$layout);
}

#endif // RELAY_NN_OPS_TD
