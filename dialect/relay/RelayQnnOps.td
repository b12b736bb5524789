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

#endif // RELAY_QNN_OPS_TD
