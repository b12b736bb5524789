//===- RelayQnnOps.td - qnn.* operators --------------------*- tablegen -*-===//
//
// Relay's quantized operators (python/tvm/relay/qnn/op/qnn.py in TVM 0.19):
// scales and zero points are operands (Relay expressions), a 0-d tensor for
// one value per tensor or a 1-D tensor with one value per channel along
// `axis`. Scales are float32, zero points int32. Typed by
// lib/Relations/Qnn.cpp (which also rejects constant scales that are zero,
// negative or not finite and constant zero points outside the quantized
// dtype), lowered to integer linalg by lib/Conversion/RelayToLinalg/Qnn.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_QNN_OPS_TD
#define RELAY_QNN_OPS_TD

include "relay/RelayOpBase.td"
include "relay/RelayAttrConstraints.td"

// qnn.requantize: how the fixed-point rescale rounds ("None" is TVM's
// requantize_config default, "UPWARD").
def Relay_QnnRoundingAttr : Relay_StrEnumAttr<["None", "UPWARD", "TONEAREST"]>;
// qnn.requantize: the arithmetic of the rescale ("None" is "int64").
def Relay_QnnComputeDtypeAttr
    : Relay_StrEnumAttr<["None", "int64", "float32", "float64"]>;

def Relay_QnnQuantizeOp : Relay_Operator<"qnn.quantize"> {
  let summary = "float32 to integers: clip(round(data / scale) + zero_point)";
  let description = [{
    `q = clip(round(data / output_scale) + output_zero_point)` in float32,
    rounding half away from zero, clipped (in float) to `out_dtype` (int8 by
    default; uint8, int16, uint16, int32). `data` is float32. As in TVM
    0.19's compiled code, a 0-d scale multiplies by its float32 reciprocal
    and per-channel scales divide.

    ```mlir
    %q = relay.qnn.quantize %x, %s, %z {out_dtype = i8} : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$output_scale,
                       Relay_AnyTensorOrIncomplete:$output_zero_point,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       OptionalAttr<TypeAttr>:$out_dtype);
  let typeRule = "inferQnnQuantize(site, adaptor.getData(), "
                 "adaptor.getOutputScale(), adaptor.getOutputZeroPoint(), "
                 "adaptor.getAxis(), adaptor.getOutDtype())";
}

def Relay_QnnDequantizeOp : Relay_Operator<"qnn.dequantize"> {
  let summary = "integers to float: (data - zero_point) * scale";
  let description = [{
    `float32(int32(data) - input_zero_point) * input_scale`; `data` is
    int8, uint8, int16, uint16 or int32; `out_dtype` float32 (default) or
    float16 (computed in float32, then rounded).

    ```mlir
    %y = relay.qnn.dequantize %q, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$input_scale,
                       Relay_AnyTensorOrIncomplete:$input_zero_point,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       OptionalAttr<TypeAttr>:$out_dtype);
  let typeRule = "inferQnnDequantize(site, adaptor.getData(), "
                 "adaptor.getInputScale(), adaptor.getInputZeroPoint(), "
                 "adaptor.getAxis(), adaptor.getOutDtype())";
}

def Relay_QnnRequantizeOp : Relay_Operator<"qnn.requantize"> {
  let summary = "integers with one (scale, zero point) to another's";
  let description = [{
    `clip(round((data - input_zp) * input_scale / output_scale) + output_zp)`
    in fixed point, bit-exact with TVM 0.19: the multiplier
    `double(input_scale) / double(output_scale)` becomes a Q31 mantissa and a
    shift, applied in int64 with rounding "UPWARD" (ties to +inf; the
    default "None") or "TONEAREST" (ties away from zero). `input_scale` and
    `input_zero_point` may be per channel along `axis`; the output's are
    scalars. `data` is int8, uint8, int16, int32 or int64; `out_dtype` int8
    (default), uint8, int16 or int32.

    ```mlir
    %r = relay.qnn.requantize %q, %si, %zi, %so, %zo : (tensor<4xi32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$input_scale,
                       Relay_AnyTensorOrIncomplete:$input_zero_point,
                       Relay_AnyTensorOrIncomplete:$output_scale,
                       Relay_AnyTensorOrIncomplete:$output_zero_point,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       DefaultValuedAttr<Relay_QnnRoundingAttr, "\"None\"">:$rounding,
                       DefaultValuedAttr<Relay_QnnComputeDtypeAttr, "\"None\"">:$compute_dtype,
                       OptionalAttr<TypeAttr>:$out_dtype);
  let typeRule = "inferQnnRequantize(site, adaptor.getData(), "
                 "adaptor.getInputScale(), adaptor.getInputZeroPoint(), "
                 "adaptor.getOutputScale(), adaptor.getOutputZeroPoint(), "
                 "adaptor.getAxis(), adaptor.getOutDtype())";
}

def Relay_QnnDenseOp : Relay_Operator<"qnn.dense"> {
  let summary = "exact int32 sums of (data - zp) · (weight - zp)ᵀ";
  let description = [{
    `data` `[d..., k]` (int8, uint8, int16, uint16) and `weight` `[units, k]`
    (int8, uint8) give `[d..., units]` of `out_dtype` (int32 by default, or
    int64): `Σ_k (data - input_zero_point)(weight - kernel_zero_point)`,
    `kernel_zero_point` 0-d or per output unit. The scales only type-check
    (their product is the result's scale; a requantize follows).

    ```mlir
    %y = relay.qnn.dense %x, %w, %zx, %zw, %sx, %sw {units = 4 : i64} : (tensor<2x8xi8>, tensor<4x8xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<2x4xi32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$weight,
                       Relay_AnyTensorOrIncomplete:$input_zero_point,
                       Relay_AnyTensorOrIncomplete:$kernel_zero_point,
                       Relay_AnyTensorOrIncomplete:$input_scale,
                       Relay_AnyTensorOrIncomplete:$kernel_scale,
                       OptionalAttr<I64Attr>:$units,
                       OptionalAttr<TypeAttr>:$out_dtype);
  let typeRule = "inferQnnDense(site, adaptor.getData(), adaptor.getWeight(), "
                 "adaptor.getInputZeroPoint(), adaptor.getKernelZeroPoint(), "
                 "adaptor.getInputScale(), adaptor.getKernelScale(), "
                 "adaptor.getUnits(), adaptor.getOutDtype())";
}

def Relay_QnnConv2DOp : Relay_Operator<"qnn.conv2d"> {
  let summary = "exact int32 2-D convolution of (data - zp) and (weight - zp)";
  let description = [{
    `nn.conv2d`'s attributes and shapes; `data` and `weight` int8, uint8 or
    int16; the result (`out_dtype`, int32 by default) sums
    `(data - input_zero_point)(weight - kernel_zero_point)` exactly, the
    padding being the input zero point (so padded cells add nothing).
    `kernel_zero_point` is 0-d or per output channel.

    ```mlir
    %y = relay.qnn.conv2d %x, %w, %zx, %zw, %sx, %sw {padding = array<i64: 1, 1>} : (tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<1x4x8x8xi32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$weight,
                       Relay_AnyTensorOrIncomplete:$input_zero_point,
                       Relay_AnyTensorOrIncomplete:$kernel_zero_point,
                       Relay_AnyTensorOrIncomplete:$input_scale,
                       Relay_AnyTensorOrIncomplete:$kernel_scale,
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
  let typeRule = "inferQnnConv2D(site, adaptor.getData(), adaptor.getWeight(), "
                 "adaptor.getInputZeroPoint(), adaptor.getKernelZeroPoint(), "
                 "adaptor.getInputScale(), adaptor.getKernelScale(), "
                 "adaptor.getStrides(), adaptor.getPadding(), "
                 "adaptor.getDilation(), adaptor.getGroups(), "
                 "adaptor.getChannels(), adaptor.getKernelSize(), "
                 "adaptor.getDataLayout(), adaptor.getKernelLayout(), "
                 "adaptor.getOutLayout(), adaptor.getOutDtype())";
}

// qnn.add / qnn.subtract / qnn.mul: two quantized tensors of one dtype,
// broadcast; each operand's parameters 0-d or per channel along its axis,
// the output's 0-d.
class Relay_QnnBinaryOp<string mnemonic> : Relay_Operator<mnemonic> {
  let arguments = (ins Relay_AnyTensorOrIncomplete:$lhs,
                       Relay_AnyTensorOrIncomplete:$rhs,
                       Relay_AnyTensorOrIncomplete:$lhs_scale,
                       Relay_AnyTensorOrIncomplete:$lhs_zero_point,
                       Relay_AnyTensorOrIncomplete:$rhs_scale,
                       Relay_AnyTensorOrIncomplete:$rhs_zero_point,
                       Relay_AnyTensorOrIncomplete:$output_scale,
                       Relay_AnyTensorOrIncomplete:$output_zero_point,
                       DefaultValuedAttr<I64Attr, "-1">:$lhs_axis,
                       DefaultValuedAttr<I64Attr, "-1">:$rhs_axis);
  let typeRule = "inferQnnBinary(site, adaptor.getLhs(), adaptor.getRhs(), "
                 "adaptor.getLhsScale(), adaptor.getLhsZeroPoint(), "
                 "adaptor.getRhsScale(), adaptor.getRhsZeroPoint(), "
                 "adaptor.getOutputScale(), adaptor.getOutputZeroPoint(), "
                 "adaptor.getLhsAxis(), adaptor.getRhsAxis())";
}

def Relay_QnnAddOp : Relay_QnnBinaryOp<"qnn.add"> {
  let summary = "quantized lhs + rhs";
  let description = [{
    Each operand is requantized to the output's scale with a zero point of
    0 (TVM 0.19's fixed point, UPWARD), the two are added in int32, the
    output zero point is added and the sum clipped to the dtype.

    ```mlir
    %y = relay.qnn.add %a, %b, %sa, %za, %sb, %zb, %so, %zo : (tensor<4xi8>, tensor<4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
    ```
  }];
}

def Relay_QnnSubtractOp : Relay_QnnBinaryOp<"qnn.subtract"> {
  let summary = "quantized lhs - rhs";
  let description = [{
    As `qnn.add`, subtracting the requantized operands.

    ```mlir
    %y = relay.qnn.subtract %a, %b, %sa, %za, %sb, %zb, %so, %zo : (tensor<4xi8>, tensor<4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
    ```
  }];
}

def Relay_QnnMulOp : Relay_QnnBinaryOp<"qnn.mul"> {
  let summary = "quantized lhs * rhs";
  let description = [{
    `(lhs - zp) * (rhs - zp)` in int32, requantized from the scale
    `float32(lhs_scale * rhs_scale)` to the output's.

    ```mlir
    %y = relay.qnn.mul %a, %b, %sa, %za, %sb, %zb, %so, %zo : (tensor<4xi8>, tensor<4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
    ```
  }];
}

def Relay_QnnBatchMatmulOp : Relay_Operator<"qnn.batch_matmul"> {
  let summary = "exact int32 batched (x - zp) · (y - zp)ᵀ";
  let description = [{
    `x` `[b, m, k]` and `y` `[b, n, k]` (int8 or uint8; a batch of 1
    broadcasts) give `[b, m, n]` of `out_dtype` (int32 by default):
    `Σ_k (x - x_zero_point)(y - y_zero_point)`; every parameter is 0-d.

    ```mlir
    %z = relay.qnn.batch_matmul %x, %y, %zx, %zy, %sx, %sy : (tensor<2x3x4xi8>, tensor<2x5x4xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<2x3x5xi32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$x,
                       Relay_AnyTensorOrIncomplete:$y,
                       Relay_AnyTensorOrIncomplete:$x_zero_point,
                       Relay_AnyTensorOrIncomplete:$y_zero_point,
                       Relay_AnyTensorOrIncomplete:$x_scale,
                       Relay_AnyTensorOrIncomplete:$y_scale,
                       OptionalAttr<TypeAttr>:$out_dtype);
  let typeRule = "inferQnnBatchMatmul(site, adaptor.getX(), adaptor.getY(), "
                 "adaptor.getXZeroPoint(), adaptor.getYZeroPoint(), "
                 "adaptor.getXScale(), adaptor.getYScale(), "
                 "adaptor.getOutDtype())";
}

//===----------------------------------------------------------------------===//
// qnn.concatenate, qnn.avg_pool2d, qnn.conv2d_transpose, the unary qnn ops,
// qnn.leaky_relu, qnn.softmax (issue 33, section 1). Typed by
// lib/Relations/Qnn.cpp, lowered by lib/Conversion/RelayToLinalg/
// QnnComposite.cpp (integer relay ops) and QnnLookup.cpp (the tables).
//===----------------------------------------------------------------------===//

def Relay_QnnConcatenateOp : Relay_Operator<"qnn.concatenate"> {
  let summary = "joins quantized tensors along `axis`, requantizing those "
                "whose parameters differ from the output's";
  let description = [{
    Relay passes three tuples (the tensors, their scales, their zero points)
    and the output's scale and zero point; here the operands are the `n`
    tensors, then their `n` scales, then their `n` zero points, then the
    output scale and zero point (`3n + 2` operands). As TVM 0.19, a tensor
    whose constant (scale, zero point) equal the output's is taken as is;
    the others are requantized (UPWARD) to the output's parameters. Tensors
    of one dtype (int8, uint8 or int32); every parameter 0-d.

    ```mlir
    %y = relay.qnn.concatenate %a, %b, %sa, %sb, %za, %zb, %so, %zo {axis = 1 : i64} : (tensor<1x2xi8>, tensor<1x3xi8>, tensor<f32>, tensor<f32>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<1x5xi8>
    ```
  }];
  let arguments = (ins Variadic<Relay_AnyTensorOrIncomplete>:$inputs,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
  let typeRule = "inferQnnConcatenate(site, adaptor.getInputs(), "
                 "adaptor.getAxis())";
}

def Relay_QnnAvgPool2DOp : Relay_Operator<"qnn.avg_pool2d"> {
  let summary = "quantized 2-D average pooling (layout NHWC by default)";
  let description = [{
    As TVM 0.19: `data` (int8 or uint8) is requantized to the output's
    parameters in int32 (or only widened when they are equal), averaged by
    `nn.avg_pool2d` in int32 (the sum divided by the count, truncating toward
    zero), then clipped to the dtype and cast. Parameters 0-d.

    ```mlir
    %y = relay.qnn.avg_pool2d %x, %si, %zi, %so, %zo {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x3xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<1x2x2x3xi8>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$input_scale,
                       Relay_AnyTensorOrIncomplete:$input_zero_point,
                       Relay_AnyTensorOrIncomplete:$output_scale,
                       Relay_AnyTensorOrIncomplete:$output_zero_point,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$pool_size,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$padding,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilation,
                       DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
                       DefaultValuedAttr<BoolAttr, "true">:$count_include_pad,
                       DefaultValuedAttr<StrAttr, "\"NHWC\"">:$layout,
                       DefaultValuedAttr<StrAttr, "\"\"">:$out_layout);
  let typeRule = "inferQnnAvgPool2D(site, adaptor.getData(), "
                 "adaptor.getInputScale(), adaptor.getInputZeroPoint(), "
                 "adaptor.getOutputScale(), adaptor.getOutputZeroPoint(), "
                 "adaptor.getPoolSize(), adaptor.getStrides(), "
                 "adaptor.getDilation(), adaptor.getPadding(), "
                 "adaptor.getLayout(), adaptor.getOutLayout(), "
                 "adaptor.getCeilMode())";
}

def Relay_QnnConv2DTransposeOp : Relay_Operator<"qnn.conv2d_transpose"> {
  let summary = "exact int32 transposed convolution of (data - zp) and (weight - zp)";
  let description = [{
    `nn.conv2d_transpose`'s attributes and shapes (kernel layout IOHW by
    default); `data` and `weight` int8 or uint8; the result (`out_dtype`,
    int32 by default, or int16) is `nn.conv2d_transpose` of the operands
    minus their zero points (TVM 0.19's legalization). Zero points 0-d;
    `kernel_scale` 0-d or per output channel.

    ```mlir
    %y = relay.qnn.conv2d_transpose %x, %w, %zx, %zw, %sx, %sw {strides = array<i64: 2, 2>} : (tensor<1x4x5x5xi8>, tensor<4x2x3x3xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<1x2x11x11xi32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$weight,
                       Relay_AnyTensorOrIncomplete:$input_zero_point,
                       Relay_AnyTensorOrIncomplete:$kernel_zero_point,
                       Relay_AnyTensorOrIncomplete:$input_scale,
                       Relay_AnyTensorOrIncomplete:$kernel_scale,
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
  let typeRule = "inferQnnConv2DTranspose(site, adaptor.getData(), "
                 "adaptor.getWeight(), adaptor.getInputZeroPoint(), "
                 "adaptor.getKernelZeroPoint(), adaptor.getInputScale(), "
                 "adaptor.getKernelScale(), adaptor.getStrides(), "
                 "adaptor.getPadding(), adaptor.getDilation(), "
                 "adaptor.getGroups(), adaptor.getChannels(), "
                 "adaptor.getKernelSize(), adaptor.getDataLayout(), "
                 "adaptor.getKernelLayout(), adaptor.getOutLayout(), "
                 "adaptor.getOutputPadding(), adaptor.getOutDtype())";
}

// The unary qnn ops: `x` (int8 or uint8) with its 0-d scale and zero point,
// the output's 0-d scale and zero point; the result has x's type. As TVM
// 0.19 (qnn.Legalize's create_integer_lookup_op), every possible input value
// is dequantized, the float32 function applied and the result quantized
// into a table of 2^bits entries read at each input's bit pattern.
class Relay_QnnUnaryOp<string mnemonic, string f>
    : Relay_Operator<"qnn." # mnemonic> {
  let summary = "quantized " # f # " (a lookup table, as TVM 0.19)";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$x,
                       Relay_AnyTensorOrIncomplete:$scale,
                       Relay_AnyTensorOrIncomplete:$zero_point,
                       Relay_AnyTensorOrIncomplete:$output_scale,
                       Relay_AnyTensorOrIncomplete:$output_zero_point);
  let typeRule = "inferQnnUnary(site, adaptor.getX(), adaptor.getScale(), "
                 "adaptor.getZeroPoint(), adaptor.getOutputScale(), "
                 "adaptor.getOutputZeroPoint(), {\"i8\", \"ui8\"}, "
                 "\"int8 or uint8\")";
  let description = [{
    ```mlir
    %y = relay.qnn.}] # mnemonic # [{ %x, %s, %z, %so, %zo : (tensor<4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
    ```
  }];
}

def Relay_QnnAbsOp : Relay_QnnUnaryOp<"abs", "|x|">;
def Relay_QnnExpOp : Relay_QnnUnaryOp<"exp", "e^x">;
def Relay_QnnLogOp : Relay_QnnUnaryOp<"log", "natural logarithm">;
def Relay_QnnSigmoidOp : Relay_QnnUnaryOp<"sigmoid", "1 / (1 + e^-x)">;
def Relay_QnnTanhOp : Relay_QnnUnaryOp<"tanh", "hyperbolic tangent">;
def Relay_QnnErfOp : Relay_QnnUnaryOp<"erf", "Gauss error function">;
def Relay_QnnSqrtOp : Relay_QnnUnaryOp<"sqrt", "square root">;
def Relay_QnnRsqrtOp : Relay_QnnUnaryOp<"rsqrt", "1 / sqrt(x)">;
def Relay_QnnHardswishOp
    : Relay_QnnUnaryOp<"hardswish", "x * clip(x + 3, 0, 6) / 6">;

def Relay_QnnLeakyReluOp : Relay_Operator<"qnn.leaky_relu"> {
  let summary = "quantized leaky relu in fixed point";
  let description = [{
    As TVM 0.19: `x` (int8 or uint8) is requantized to the output's
    parameters in int32 (widened only, when they are equal); below the input
    zero point the result is `alpha * q' + (1 - alpha) * zp_out`, each a
    fixed-point multiply (UPWARD) by the double `alpha` / `1 - alpha`; at or
    above it `q'`; clipped to the dtype (measured in TVM 0.19) and cast.
    Parameters 0-d.

    ```mlir
    %y = relay.qnn.leaky_relu %x, %s, %z, %so, %zo {alpha = 0.1 : f64} : (tensor<4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$x,
                       Relay_AnyTensorOrIncomplete:$scale,
                       Relay_AnyTensorOrIncomplete:$zero_point,
                       Relay_AnyTensorOrIncomplete:$output_scale,
                       Relay_AnyTensorOrIncomplete:$output_zero_point,
                       DefaultValuedAttr<F64Attr, "0.01">:$alpha);
  let typeRule = "inferQnnUnary(site, adaptor.getX(), adaptor.getScale(), "
                 "adaptor.getZeroPoint(), adaptor.getOutputScale(), "
                 "adaptor.getOutputZeroPoint(), {\"i8\", \"ui8\"}, "
                 "\"int8 or uint8\")";
}

def Relay_QnnSoftmaxOp : Relay_Operator<"qnn.softmax"> {
  let summary = "integer softmax (TVM 0.19's shift-based algorithm)";
  let description = [{
    TVM 0.19's integer-only softmax (arXiv 2207.01405, Algorithm 1) on int8
    `x` along `axis`: `x - zp - max` in int32, exponentials by shifts with
    `x0 = int(round(1 / scale))` (a scale in (0, 1], as TVM checks), the
    quotients clipped to [0, 20] and each exponential shifted by its row's
    largest quotient minus its own, normalised by `2^30 / Σ` and shifted to
    a scale of 1/128, then requantized (UPWARD) to the output's int8
    parameters. Parameters 0-d.

    ```mlir
    %y = relay.qnn.softmax %x, %s, %z, %so, %zo {axis = -1 : i64} : (tensor<2x4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<2x4xi8>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$x,
                       Relay_AnyTensorOrIncomplete:$scale,
                       Relay_AnyTensorOrIncomplete:$zero_point,
                       Relay_AnyTensorOrIncomplete:$output_scale,
                       Relay_AnyTensorOrIncomplete:$output_zero_point,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
  let typeRule = "inferQnnUnary(site, adaptor.getX(), adaptor.getScale(), "
                 "adaptor.getZeroPoint(), adaptor.getOutputScale(), "
                 "adaptor.getOutputZeroPoint(), {\"i8\"}, \"int8\")";
}

//===----------------------------------------------------------------------===//
// fixed_point_multiply, fixed_point_multiply_per_axis, qnn.simulated_quantize,
// qnn.simulated_dequantize (issue 33: what TVM 0.19's relay.quantize and its
// QNN simulation print). Typed by lib/Relations/QnnSimulated.cpp, lowered by
// lib/Conversion/RelayToLinalg/QnnSimulated.cpp.
//===----------------------------------------------------------------------===//

def Relay_FixedPointMultiplyOp : Relay_Operator<"fixed_point_multiply"> {
  let summary = "integer data times multiplier * 2^(shift - 31), in fixed "
                "point";
  let description = [{
    TVM 0.19's `q_multiply_shift` on int32 or int64 `data`: in int64
    (wrapping), `((data << max(shift, 0)) * multiplier +
    2^(30 + max(-shift, 0))) >> (31 + max(-shift, 0))` (rounding half up),
    truncated to int32 (for int64 data, then sign-extended: what TVM's
    kernels compute for relay.quantize's `cast(x, "int64")` before it).
    `multiplier` (a Q31 mantissa) is an int32 value; `shift` is in
    [-32, 31] (TVM's shifts are undefined beyond).

    ```mlir
    %y = relay.fixed_point_multiply %x {multiplier = 1073741824 : i64, shift = -1 : i64} : (tensor<4xi32>) -> tensor<4xi32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       I64Attr:$multiplier,
                       I64Attr:$shift);
  let typeRule = "inferFixedPointMultiply(site, adaptor.getData(), "
                 "adaptor.getMultiplier(), adaptor.getShift())";
}

def Relay_FixedPointMultiplyPerAxisOp
    : Relay_Operator<"fixed_point_multiply_per_axis"> {
  let summary = "fixed_point_multiply with a multiplier and shifts per index "
                "of `axes`";
  let description = [{
    TVM 0.19's `q_multiply_shift_per_axis`: `fp_multiplier`, `left_shift` and
    `right_shift` (int32) are indexed by `data`'s indices along `axes` (one
    dimension per axis, of that axis's size; 0-d when `axes` is empty). In
    int64 (wrapping): `x = data << left_shift` when `is_lshift_required`,
    `(x * fp_multiplier + 2^(30 + right_shift)) >> (31 + right_shift)`,
    truncated to int32 (sign-extended back for int64 `data`, as
    fixed_point_multiply). `is_rshift_required` does not change the result
    (as in TVM 0.19's LLVM code); shifts outside [0, 32] are undefined, as
    in TVM.

    ```mlir
    %y = relay.fixed_point_multiply_per_axis %x, %m, %l, %r {axes = array<i64: 1>, is_lshift_required = true, is_rshift_required = true} : (tensor<2x3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$fp_multiplier,
                       Relay_AnyTensorOrIncomplete:$left_shift,
                       Relay_AnyTensorOrIncomplete:$right_shift,
                       BoolAttr:$is_lshift_required,
                       BoolAttr:$is_rshift_required,
                       DenseI64ArrayAttr:$axes);
  let typeRule = "inferFixedPointMultiplyPerAxis(site, adaptor.getData(), "
                 "adaptor.getFpMultiplier(), adaptor.getLeftShift(), "
                 "adaptor.getRightShift(), adaptor.getAxes())";
}

def Relay_QnnSimulatedQuantizeOp : Relay_Operator<"qnn.simulated_quantize"> {
  let summary = "qnn.quantize's values, kept in float (dtype chosen at run time)";
  let description = [{
    `out_dtype` is a 0-d int32 code (TVM 0.19's SQNN codes: 1 int8, 2 uint8,
    3 int32; any other value passes `data` through). For an integer code:
    `clip(round(data / output_scale) + output_zero_point, min, max)` in
    `data`'s float type (float32 or float64), a true divide, rounding half
    away from zero, NaN giving `max` (as TVM). `output_scale` (float32) and
    `output_zero_point` (int32) are 0-d or 1-D of one entry or one per
    channel along `axis`.

    ```mlir
    %y = relay.qnn.simulated_quantize %x, %c, %s, %z : (tensor<4xf32>, tensor<i32>, tensor<1xf32>, tensor<1xi32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$out_dtype,
                       Relay_AnyTensorOrIncomplete:$output_scale,
                       Relay_AnyTensorOrIncomplete:$output_zero_point,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
  let typeRule = "inferQnnSimulated(site, adaptor.getData(), "
                 "adaptor.getOutDtype(), adaptor.getOutputScale(), "
                 "adaptor.getOutputZeroPoint(), adaptor.getAxis(), "
                 "\"output\")";
}

def Relay_QnnSimulatedDequantizeOp
    : Relay_Operator<"qnn.simulated_dequantize"> {
  let summary = "qnn.dequantize's values, from float data (dtype chosen at "
                "run time)";
  let description = [{
    `in_dtype` is a 0-d int32 code as for `qnn.simulated_quantize`; for 1, 2
    or 3, `(data - input_zero_point) * input_scale` in `data`'s float type
    (no rounding or clipping), else `data` unchanged. Parameters as for
    `qnn.simulated_quantize`.

    ```mlir
    %y = relay.qnn.simulated_dequantize %x, %c, %s, %z : (tensor<4xf32>, tensor<i32>, tensor<1xf32>, tensor<1xi32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$in_dtype,
                       Relay_AnyTensorOrIncomplete:$input_scale,
                       Relay_AnyTensorOrIncomplete:$input_zero_point,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
  let typeRule = "inferQnnSimulated(site, adaptor.getData(), "
                 "adaptor.getInDtype(), adaptor.getInputScale(), "
                 "adaptor.getInputZeroPoint(), adaptor.getAxis(), "
                 "\"input\")";
}

#endif // RELAY_QNN_OPS_TD
