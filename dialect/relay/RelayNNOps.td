//===- RelayNNOps.td - nn.* operators ----------------------*- tablegen -*-===//
//
// The nn.* operators that are not convolutions, pools or normalisations
// (RelayConvOps.td, RelayPoolOps.td, RelayNormOps.td): dense and matmuls,
// bias_add, activations, dropout, pad, upsampling, depth/space moves and
// batch_flatten. Lowered by lib/Conversion/RelayToLinalg/NN.cpp, typed by
// lib/Relations/NN.cpp. Attribute names and defaults are Relay's
// (python/tvm/relay/op/nn/nn.py).
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_NN_OPS_TD
#define RELAY_NN_OPS_TD

include "relay/RelayOpBase.td"
include "relay/RelayAttrConstraints.td"

def Relay_DenseOp : Relay_Operator<"nn.dense"> {
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
  let typeRule = "inferDense(site, adaptor.getData().getType(), "
                 "adaptor.getWeight().getType(), adaptor.getUnits(), "
                 "adaptor.getOutDtype())";
}

def Relay_MatmulOp : Relay_Operator<"nn.matmul"> {
  let summary = "tensor_a · tensor_b with optional transposes (Relay's `nn.matmul`)";
  let description = [{
    `tensor_a` is `[d..., k]` (`[d..., k, m]` with `transpose_a`),
    `tensor_b` is `[k, units]` (`[units, k]` with `transpose_b`); the result
    is `[d..., units]` (`[d..., m, units]`). `nn.dense` is `nn.matmul` with
    `transpose_b = true`.

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
  let typeRule = "inferMatmul(site, adaptor.getTensorA().getType(), "
                 "adaptor.getTensorB().getType(), adaptor.getUnits(), "
                 "adaptor.getOutDtype(), adaptor.getTransposeA(), "
                 "adaptor.getTransposeB())";
}

def Relay_BatchMatmulOp : Relay_Operator<"nn.batch_matmul"> {
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
  let typeRule = "inferBatchMatmul(site, adaptor.getX().getType(), "
                 "adaptor.getY().getType(), adaptor.getOutDtype(), "
                 "adaptor.getTransposeA(), adaptor.getTransposeB())";
}

def Relay_BiasAddOp : Relay_Operator<"nn.bias_add", [Relay_AxisOfData]> {
  let summary = "adds a 1-D bias along `axis`";
  let description = [{
    ```mlir
    %y = relay.nn.bias_add %x, %b {axis = 1 : i64} : (tensor<1x8x4x4xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$bias,
                       DefaultValuedAttr<I64Attr, "1">:$axis);
  let typeRule = "inferBiasAdd(site, adaptor.getData().getType(), "
                 "adaptor.getBias().getType(), adaptor.getAxis())";
}

def Relay_BatchFlattenOp : Relay_Operator<"nn.batch_flatten"> {
  let summary = "flattens all but the first dim";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data);
  let typeRule = "inferBatchFlatten(site, adaptor.getData().getType())";
}

//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

def Relay_LeakyReluOp : Relay_Operator<"nn.leaky_relu",
                                       [Relay_ElementwiseUnary]> {
  let summary = "x for x > 0, alpha * x otherwise";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DefaultValuedAttr<F64Attr, "0.01">:$alpha);
  let typeRule = "inferIdentity(site, adaptor.getData().getType())";
}

def Relay_PReluOp : Relay_Operator<"nn.prelu", [Relay_AxisOfData]> {
  let summary = "leaky relu with a learned slope per channel";
  let description = [{
    `alpha` is 1-D of size `data.shape[axis]` (as `nn.bias_add`'s bias).

    ```mlir
    %y = relay.nn.prelu %x, %a : (tensor<1x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$alpha,
                       DefaultValuedAttr<I64Attr, "1">:$axis);
  let typeRule = "inferPRelu(site, adaptor.getData().getType(), "
                 "adaptor.getAlpha().getType(), adaptor.getAxis())";
}

def Relay_GeluOp : Relay_UnaryOp<"nn.gelu"> {
  let summary = "x * Φ(x) = x * (1 + erf(x / √2)) / 2";
  let description = [{
    Relay composes GELU from `erf`; here it is one op with the same
    (erf-based, not tanh-approximated) semantics.
  }];
}

def Relay_DropoutOp : Relay_Operator<"nn.dropout"> {
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
  let typeRule = "inferDropout(site, adaptor.getData().getType(), "
                 "adaptor.getRate().convertToDouble())";
}

//===----------------------------------------------------------------------===//
// Padding, resampling and layout moves
//===----------------------------------------------------------------------===//

def Relay_PadOp : Relay_Operator<"nn.pad"> {
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
                       DefaultValuedAttr<Relay_PadModeAttr, "\"constant\"">:$pad_mode);
  let typeRule = "inferPad(site, adaptor.getData().getType(), "
                 "adaptor.getPadValue().getType(), adaptor.getPadWidth(), "
                 "adaptor.getPadMode())";
}

def Relay_UpSamplingOp : Relay_Operator<"nn.upsampling"> {
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
                       DefaultValuedAttr<Relay_UpSamplingMethodAttr,
                                         "\"nearest_neighbor\"">:$method,
                       DefaultValuedAttr<BoolAttr, "false">:$align_corners);
  let typeRule = "inferUpSampling(site, adaptor.getData().getType(), "
                 "{adaptor.getScaleH().convertToDouble(), "
                 "adaptor.getScaleW().convertToDouble()}, adaptor.getLayout())";
}

def Relay_UpSampling3DOp : Relay_Operator<"nn.upsampling3d"> {
  let summary = "3-D upsampling by `scale_d`, `scale_h`, `scale_w`";
  let description = [{
    Output size `round(d * scale_d)`, `round(h * scale_h)`,
    `round(w * scale_w)`; `method` `nearest_neighbor` or `trilinear`, with
    topi's resize3d coordinate mapping `coordinate_transformation_mode`.

    ```mlir
    %y = relay.nn.upsampling3d %x {scale_d = 2.0 : f64, scale_h = 2.0 : f64, scale_w = 2.0 : f64} : (tensor<1x2x3x3x3xf32>) -> tensor<1x2x6x6x6xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DefaultValuedAttr<F64Attr, "1.0">:$scale_d,
                       DefaultValuedAttr<F64Attr, "1.0">:$scale_h,
                       DefaultValuedAttr<F64Attr, "1.0">:$scale_w,
                       DefaultValuedAttr<StrAttr, "\"NCDHW\"">:$layout,
                       DefaultValuedAttr<Relay_UpSampling3DMethodAttr,
                                         "\"nearest_neighbor\"">:$method,
                       DefaultValuedAttr<Relay_UpSampling3DCoordinateModeAttr,
                                         "\"half_pixel\"">:
                           $coordinate_transformation_mode);
  let typeRule = "inferUpSampling(site, adaptor.getData().getType(), "
                 "{adaptor.getScaleD().convertToDouble(), "
                 "adaptor.getScaleH().convertToDouble(), "
                 "adaptor.getScaleW().convertToDouble()}, adaptor.getLayout())";
}

def Relay_MirrorPadOp : Relay_Operator<"nn.mirror_pad"> {
  let summary = "pads each dim with its mirror image (Relay's `nn.mirror_pad`)";
  let description = [{
    `pad_width` as `nn.pad`'s, `[b0, a0, b1, a1, ...]`. `REFLECT` mirrors
    without repeating the border (pads < the dim), `SYMMETRIC` repeats it
    (pads <= the dim), as numpy's `reflect` / `symmetric`.

    ```mlir
    %y = relay.nn.mirror_pad %x {pad_width = array<i64: 0, 0, 2, 1>, mode = "SYMMETRIC"} : (tensor<2x3xf32>) -> tensor<2x6xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DenseI64ArrayAttr:$pad_width,
                       DefaultValuedAttr<Relay_MirrorPadModeAttr,
                                         "\"SYMMETRIC\"">:$mode);
  let typeRule = "inferMirrorPad(site, adaptor.getData().getType(), "
                 "adaptor.getPadWidth(), adaptor.getMode())";
}

def Relay_DepthToSpaceOp : Relay_Operator<"nn.depth_to_space"> {
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
                       DefaultValuedAttr<Relay_DepthToSpaceModeAttr, "\"DCR\"">:$mode);
  let typeRule = "inferDepthToSpace(site, adaptor.getData().getType(), "
                 "adaptor.getBlockSize(), adaptor.getLayout())";
}

def Relay_SpaceToDepthOp : Relay_Operator<"nn.space_to_depth"> {
  let summary = "moves spatial blocks into channels";
  let description = [{
    `[N, C, H, W]` → `[N, C * b², H / b, W / b]`, the block offset
    outermost in the new channel dim (inverse of `DCR` depth_to_space).
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       I64Attr:$block_size,
                       DefaultValuedAttr<StrAttr, "\"NCHW\"">:$layout);
  let typeRule = "inferSpaceToDepth(site, adaptor.getData().getType(), "
                 "adaptor.getBlockSize(), adaptor.getLayout())";
}

// TVM's nn.space_to_batch_nd / nn.batch_to_space_nd (topi semantics): data
// [N, S1..SM, rest...] and `block_shape` [b1..bM]; `paddings` / `crops` are
// (before, after) per spatial dim, flattened ([b1, a1, b2, a2, ...]) as
// nn.pad's `pad_width`.
def Relay_SpaceToBatchNDOp : Relay_Operator<"nn.space_to_batch_nd"> {
  let summary = "moves spatial blocks into the batch";
  let description = [{
    Pads each `Si` to `Pi` (a multiple of `bi`) with `pad_value`; the result
    is `[b1*..*bM*N, P1/b1, .., PM/bM, rest...]`, the block offsets outermost
    in the batch.

    ```mlir
    %y = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 2, 2>, paddings = array<i64: 0, 0, 0, 0>} : (tensor<1x4x4x3xf32>) -> tensor<4x2x2x3xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DenseI64ArrayAttr:$block_shape,
                       DenseI64ArrayAttr:$paddings,
                       DefaultValuedAttr<F64Attr, "0.0">:$pad_value);
  let typeRule = "inferSpaceToBatchND(site, adaptor.getData().getType(), "
                 "adaptor.getBlockShape(), adaptor.getPaddings())";
}

def Relay_BatchToSpaceNDOp : Relay_Operator<"nn.batch_to_space_nd"> {
  let summary = "moves batch blocks back into the spatial dims";
  let description = [{
    The inverse of `nn.space_to_batch_nd`: `[B, S1..SM, rest...]` to
    `[B/(b1*..*bM), S1*b1 - c1, .., SM*bM - cM, rest...]`, `ci` the crops of
    dim `i` (begin + end).

    ```mlir
    %y = relay.nn.batch_to_space_nd %x {block_shape = array<i64: 2, 2>, crops = array<i64: 0, 0, 1, 1>} : (tensor<4x2x2x3xf32>) -> tensor<1x4x2x3xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DenseI64ArrayAttr:$block_shape,
                       DenseI64ArrayAttr:$crops);
  let typeRule = "inferBatchToSpaceND(site, adaptor.getData().getType(), "
                 "adaptor.getBlockShape(), adaptor.getCrops())";
}

//===----------------------------------------------------------------------===//
// TVM 0.19's nn.dilate and losses
//===----------------------------------------------------------------------===//

def Relay_DilateOp : Relay_Operator<"nn.dilate"> {
  let summary = "spreads the elements `strides` apart, filling with `dilation_value`";
  let description = [{
    One stride (>= 1) per dim: a dim of size `d` becomes `(d - 1) * s + 1`.

    ```mlir
    %y = relay.nn.dilate %x {strides = array<i64: 1, 2>, dilation_value = 0.5 : f64} : (tensor<2x3xf32>) -> tensor<2x5xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DenseI64ArrayAttr:$strides,
                       DefaultValuedAttr<F64Attr, "0.0">:$dilation_value);
  let typeRule = "inferDilate(site, adaptor.getData().getType(), "
                 "adaptor.getStrides())";
}

class Relay_CrossEntropyOp<string mnemonic> : Relay_Operator<mnemonic> {
  let arguments = (ins Relay_AnyTensorOrIncomplete:$predictions,
                       Relay_AnyTensorOrIncomplete:$targets);
  let typeRule = "inferCrossEntropy(site, adaptor.getPredictions().getType(), "
                 "adaptor.getTargets().getType())";
}

def Relay_CrossEntropyOp : Relay_CrossEntropyOp<"nn.cross_entropy"> {
  let summary = "`-sum(log(predictions) * targets) / batch` (a 0-d result)";
  let description = [{
    `predictions` and `targets` are `[batch, classes]` of one float dtype.

    ```mlir
    %l = relay.nn.cross_entropy %p, %t : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<f32>
    ```
  }];
}
def Relay_CrossEntropyWithLogitsOp
    : Relay_CrossEntropyOp<"nn.cross_entropy_with_logits"> {
  let summary = "`-sum(predictions * targets) / batch` (log-probabilities in)";
}

def Relay_NLLLossOp : Relay_Operator<"nn.nll_loss"> {
  let summary = "negative log likelihood of `targets` under `predictions`";
  let description = [{
    `predictions` `[N, C, d...]` (log-probabilities), `targets` `[N, d...]`
    class indices, `weights` `[C]`: each element's loss is
    `-predictions[n, t, d...] * weights[t]` (0 where `t == ignore_index`);
    `reduction` `none` keeps them, `sum` adds them, `mean` divides the sum
    by the weights of the targets counted.

    ```mlir
    %l = relay.nn.nll_loss %p, %t, %w {reduction = "sum"} : (tensor<3x5xf32>, tensor<3xi32>, tensor<5xf32>) -> tensor<f32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$predictions,
                       Relay_AnyTensorOrIncomplete:$targets,
                       Relay_AnyTensorOrIncomplete:$weights,
                       DefaultValuedAttr<Relay_NLLLossReductionAttr, "\"mean\"">:$reduction,
                       DefaultValuedAttr<I64Attr, "-100">:$ignore_index);
  let typeRule = "inferNLLLoss(site, adaptor.getPredictions().getType(), "
                 "adaptor.getTargets().getType(), "
                 "adaptor.getWeights().getType(), adaptor.getReduction())";
}

#endif // RELAY_NN_OPS_TD
