//===- RelayNormOps.td - normalisations and softmax --------*- tablegen -*-===//
//
// batch/layer/group/instance norm, l2_normalize, lrn, softmax and
// log_softmax (lowered by lib/Conversion/RelayToLinalg/Norm.cpp, typed by
// lib/Relations/Norm.cpp). Attribute names and defaults are Relay's
// (python/tvm/relay/op/nn/nn.py).
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_NORM_OPS_TD
#define RELAY_NORM_OPS_TD

include "relay/RelayOpBase.td"

def Relay_BatchNormOp : Relay_Operator<"nn.batch_norm", [Relay_AxisOfData]> {
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
  let typeRule = "inferBatchNorm(site, adaptor.getData().getType(), "
                 "adaptor.getGamma().getType(), adaptor.getBeta().getType(), "
                 "adaptor.getMovingMean().getType(), "
                 "adaptor.getMovingVar().getType(), adaptor.getAxis())";
}

// layer_norm and instance_norm share the typing rule `inferNorm` (gamma and
// beta are 1-D of size data.shape[axis]); group_norm's `inferGroupNorm`
// adds num_groups.
class Relay_NormOp<string mnemonic, string axisDefault, dag extra = (ins)>
    : Relay_Operator<mnemonic> {
  let arguments = !con(
      (ins Relay_AnyTensorOrIncomplete:$data,
           Relay_AnyTensorOrIncomplete:$gamma,
           Relay_AnyTensorOrIncomplete:$beta),
      extra,
      (ins DefaultValuedAttr<I64Attr, axisDefault>:$axis,
           DefaultValuedAttr<F64Attr, "1e-5">:$epsilon,
           DefaultValuedAttr<BoolAttr, "true">:$center,
           DefaultValuedAttr<BoolAttr, "true">:$scale));
  let typeRule = "inferNorm(site, adaptor.getData().getType(), "
                 "adaptor.getGamma().getType(), adaptor.getBeta().getType(), "
                 "adaptor.getAxis())";
}

def Relay_LayerNormOp : Relay_NormOp<"nn.layer_norm", "-1"> {
  let summary = "normalisation over `axis` (Relay's `nn.layer_norm`)";
  let description = [{
    ```mlir
    %y = relay.nn.layer_norm %x, %g, %b : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    ```
  }];
}
def Relay_GroupNormOp : Relay_NormOp<"nn.group_norm", "1",
                                     (ins I64Attr:$num_groups)> {
  let summary = "normalisation over groups of channels (Relay's `nn.group_norm`)";
  let description = [{
    The channels (dim `axis`) split into `num_groups` groups; each group of
    each batch element is normalised over its channels and all dims after
    `axis`.
  }];
  let typeRule = "inferGroupNorm(site, adaptor.getData().getType(), "
                 "adaptor.getGamma().getType(), adaptor.getBeta().getType(), "
                 "adaptor.getNumGroups(), adaptor.getAxis())";
}
def Relay_InstanceNormOp : Relay_NormOp<"nn.instance_norm", "1"> {
  let summary = "normalisation of each channel of each instance";
  let description = [{
    Each (batch, channel) slice is normalised over the dims after `axis`.
  }];
}

def Relay_L2NormalizeOp : Relay_Operator<"nn.l2_normalize",
                                         [Relay_AxisOfData]> {
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
  let typeRule = "inferL2Normalize(site, adaptor.getData().getType(), "
                 "adaptor.getAxis())";
}

def Relay_LRNOp : Relay_Operator<"nn.lrn", [Relay_AxisOfData]> {
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
  let typeRule = "inferAxisIdentity(site, adaptor.getData().getType(), "
                 "adaptor.getAxis())";
}

// softmax and log_softmax: the data, with `axis` one of its dims.
class Relay_SoftmaxLikeOp<string mnemonic>
    : Relay_Operator<mnemonic, [Relay_AxisOfData]> {
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
  let typeRule = "inferAxisIdentity(site, adaptor.getData().getType(), "
                 "adaptor.getAxis())";
}

def Relay_SoftmaxOp : Relay_SoftmaxLikeOp<"nn.softmax"> {
  let summary = "softmax along `axis`";
}
def Relay_LogSoftmaxOp : Relay_SoftmaxLikeOp<"nn.log_softmax"> {
  let summary = "log of softmax along `axis`";
}

#endif // RELAY_NORM_OPS_TD
