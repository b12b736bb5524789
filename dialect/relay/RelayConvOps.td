//===- RelayConvOps.td - nn.conv* operators ----------------*- tablegen -*-===//
//
// Convolutions (lowered by lib/Conversion/RelayToLinalg/Conv.cpp, typed by
// lib/Relations/Conv.cpp). Attribute names and defaults are Relay's
// (python/tvm/relay/op/nn/nn.py). Layouts are any arrangement of the
// canonical letters (NCHW / OIHW, ...), checked by the typing rule.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_CONV_OPS_TD
#define RELAY_CONV_OPS_TD

include "relay/RelayOpBase.td"

// N-d convolutions share the typing rule `inferConv`; `n` is the number of
// spatial dims, `depthwise` whether Relay's depthwise convention applies
// (nn.conv2d only: with groups = input channels = weight out-channels and
// both `channels` and `kernel_size` given, the weight is [C, channels / C,
// KH, KW] in OIHW order).
class Relay_ConvNDOp<string mnemonic, int n, bit depthwise, string ones,
                     string zeros, string dl, string kl>
    : Relay_Operator<mnemonic> {
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
  let typeRule = "inferConv(site, adaptor.getData().getType(), "
                 "adaptor.getWeight().getType(), " # n # ", "
                 # !if(depthwise, "true", "false") # ", "
                 "adaptor.getStrides(), adaptor.getPadding(), "
                 "adaptor.getDilation(), adaptor.getGroups(), "
                 "adaptor.getChannels(), adaptor.getKernelSize(), "
                 "adaptor.getDataLayout(), adaptor.getKernelLayout(), "
                 "adaptor.getOutLayout(), adaptor.getOutDtype())";
}

def Relay_Conv1DOp : Relay_ConvNDOp<"nn.conv1d", 1, 0, "{1}", "{0}", "NCW",
                                    "OIW"> {
  let summary = "1-D convolution (Relay's `nn.conv1d`)";
  let description = [{
    Layouts `NCW`/`OIW` (default) or `NWC`/`WIO`; `padding` has 1 or 2
    entries (`[p]` or `[left, right]`).

    ```mlir
    %y = relay.nn.conv1d %x, %w {padding = array<i64: 1>} : (tensor<1x3x16xf32>, tensor<8x3x3xf32>) -> tensor<1x8x16xf32>
    ```
  }];
}

def Relay_Conv2DOp : Relay_ConvNDOp<"nn.conv2d", 2, 1, "{1, 1}", "{0, 0}",
                                    "NCHW", "OIHW"> {
  let summary = "2-D convolution (Relay's `nn.conv2d`)";
  let description = [{
    Layouts `NCHW`/`OIHW` (default) or `NHWC`/`HWIO`. `padding` has 1, 2 or
    4 entries as in Relay (`[p]`, `[ph, pw]`, `[top, left, bottom, right]`).

    ```mlir
    %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x32x32xf32>
    ```
  }];
}

def Relay_Conv3DOp : Relay_ConvNDOp<"nn.conv3d", 3, 0, "{1, 1, 1}",
                                    "{0, 0, 0}", "NCDHW", "OIDHW"> {
  let summary = "3-D convolution (Relay's `nn.conv3d`)";
  let description = [{
    Layouts `NCDHW`/`OIDHW` (default) or `NDHWC`/`DHWIO`; `padding` has 1,
    3 or 6 entries (`[front, top, left, back, bottom, right]`).
  }];
}

// TVM's blocked convolutions (AlterOpLayout on x86, python/tvm/topi/x86/
// conv2d_alter_op.py): nn.conv2d's attributes with the data `NCHW{n}c`, the
// kernel `OIHW{n}i{m}o` (depthwise `OIHW1i{m}o`) and the result `out_layout`
// (`NCHW{m}c`; empty: `data_layout`). `channels` and `groups` count whole
// channels. Typed by `inferBlockedConv2D`: nn.conv2d's rule on the unblocked
// operands, the result blocked as `out_layout` says.
class Relay_BlockedConv2DOp<string mnemonic> : Relay_Operator<mnemonic> {
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$weight,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation,
                       DefaultValuedAttr<I64Attr, "1">:$groups,
                       OptionalAttr<I64Attr>:$channels,
                       OptionalAttr<DenseI64ArrayAttr>:$kernel_size,
                       StrAttr:$data_layout,
                       StrAttr:$kernel_layout,
                       DefaultValuedAttr<StrAttr, "\"\"">:$out_layout,
                       OptionalAttr<TypeAttr>:$out_dtype);
  let typeRule = "inferBlockedConv2D(site, adaptor.getData().getType(), "
                 "adaptor.getWeight().getType(), adaptor.getStrides(), "
                 "adaptor.getPadding(), adaptor.getDilation(), "
                 "adaptor.getGroups(), adaptor.getChannels(), "
                 "adaptor.getKernelSize(), adaptor.getDataLayout(), "
                 "adaptor.getKernelLayout(), adaptor.getOutLayout(), "
                 "adaptor.getOutDtype())";
}

def Relay_Conv2DNCHWcOp : Relay_BlockedConv2DOp<"nn.contrib_conv2d_NCHWc"> {
  let summary = "2-D convolution of channel-blocked data (TVM's x86 layout)";
  let description = [{
    `[N, C/n, H, W, n]` data, `[O/m, I/n, KH, KW, n, m]` kernel
    (`OIHW{n}i{m}o`), result `[N, O/m', OH, OW, m']` for `out_layout`
    `NCHW{m'}c`: nn.conv2d on the unblocked operands.

    ```mlir
    %y = relay.nn.contrib_conv2d_NCHWc %x, %w {data_layout = "NCHW4c", kernel_layout = "OIHW4i4o", out_layout = "NCHW4c", padding = array<i64: 1, 1>} : (tensor<1x2x5x5x4xf32>, tensor<2x2x3x3x4x4xf32>) -> tensor<1x2x5x5x4xf32>
    ```
  }];
}

def Relay_DepthwiseConv2DNCHWcOp
    : Relay_BlockedConv2DOp<"nn.contrib_depthwise_conv2d_NCHWc"> {
  let summary = "depthwise 2-D convolution of channel-blocked data";
  let description = [{
    As `nn.contrib_conv2d_NCHWc` with `groups` = the input channels and the
    kernel `OIHW1i{m}o`: `[O/m, 1, KH, KW, 1, m]`.

    ```mlir
    %y = relay.nn.contrib_depthwise_conv2d_NCHWc %x, %w {data_layout = "NCHW4c", groups = 8 : i64, kernel_layout = "OIHW1i4o", out_layout = "NCHW4c"} : (tensor<1x2x5x5x4xf32>, tensor<2x1x3x3x1x4xf32>) -> tensor<1x2x3x3x4xf32>
    ```
  }];
}

def Relay_Conv2DTransposeOp : Relay_Operator<"nn.conv2d_transpose"> {
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
  let typeRule = "inferConvTranspose(site, 2, adaptor.getData().getType(), "
                 "adaptor.getWeight().getType(), adaptor.getStrides(), "
                 "adaptor.getPadding(), adaptor.getDilation(), "
                 "adaptor.getGroups(), adaptor.getChannels(), "
                 "adaptor.getKernelSize(), adaptor.getDataLayout(), "
                 "adaptor.getKernelLayout(), adaptor.getOutLayout(), "
                 "adaptor.getOutputPadding(), adaptor.getOutDtype())";
}

// Relay's Conv1DTransposeAttrs / Conv3DTransposeAttrs: nn.conv2d_transpose's
// attributes over `n` spatial dims, typed by the same rule; lowered as a
// stride-1 nn.conv1d / nn.conv3d over the zero-stuffed input with the
// flipped kernel (ConvTransposeND.cpp).
class Relay_ConvTransposeNDOp<string mnemonic, int n, string ones,
                              string zeros, string dl, string kl>
    : Relay_Operator<mnemonic> {
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
                       DefaultValuedAttr<DenseI64ArrayAttr, zeros>:$output_padding,
                       OptionalAttr<TypeAttr>:$out_dtype);
  let typeRule = "inferConvTranspose(site, " # n # ", "
                 "adaptor.getData().getType(), "
                 "adaptor.getWeight().getType(), adaptor.getStrides(), "
                 "adaptor.getPadding(), adaptor.getDilation(), "
                 "adaptor.getGroups(), adaptor.getChannels(), "
                 "adaptor.getKernelSize(), adaptor.getDataLayout(), "
                 "adaptor.getKernelLayout(), adaptor.getOutLayout(), "
                 "adaptor.getOutputPadding(), adaptor.getOutDtype())";
}

def Relay_Conv1DTransposeOp : Relay_ConvTransposeNDOp<"nn.conv1d_transpose",
    1, "{1}", "{0}", "NCW", "IOW"> {
  let summary = "1-D transposed convolution (Relay's `nn.conv1d_transpose`)";
  let description = [{
    `nn.conv2d_transpose` over one spatial dim: data `NCW` (or `NWC`),
    weight `IOW`, `[in_channels, channels / groups, K]`.

    ```mlir
    %y = relay.nn.conv1d_transpose %x, %w {strides = array<i64: 2>, output_padding = array<i64: 1>} : (tensor<1x4x5xf32>, tensor<4x2x3xf32>) -> tensor<1x2x12xf32>
    ```
  }];
}
def Relay_Conv3DTransposeOp : Relay_ConvTransposeNDOp<"nn.conv3d_transpose",
    3, "{1, 1, 1}", "{0, 0, 0}", "NCDHW", "IODHW"> {
  let summary = "3-D transposed convolution (Relay's `nn.conv3d_transpose`)";
  let description = [{
    `nn.conv2d_transpose` over three spatial dims: data `NCDHW` (or
    `NDHWC`), weight `IODHW`, `[in_channels, channels / groups, KD, KH, KW]`.

    ```mlir
    %y = relay.nn.conv3d_transpose %x, %w {strides = array<i64: 2, 2, 2>} : (tensor<1x4x3x3x3xf32>, tensor<4x2x3x3x3xf32>) -> tensor<1x2x7x7x7xf32>
    ```
  }];
}

#endif // RELAY_CONV_OPS_TD
