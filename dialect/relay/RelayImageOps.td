//===- RelayImageOps.td - image.* operators ----------------*- tablegen -*-===//
//
// Attribute names and defaults are Relay's (python/tvm/relay/op/image/image.py).
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_IMAGE_OPS_TD
#define RELAY_IMAGE_OPS_TD

include "relay/RelayOpBase.td"
include "relay/RelayAttrConstraints.td"

def Relay_Resize2DOp : Relay_Operator<"image.resize2d"> {
  let typeRule = "inferResize2D(site, adaptor.getData().getType(), "
                 "adaptor.getSize(), adaptor.getRoi(), adaptor.getLayout(), "
                 "adaptor.getOutDtype())";
  let summary = "resizes the spatial dims of an NCHW/NHWC image to `size`";
  let description = [{
    `method` is `nearest_neighbor`, `linear` or `cubic`;
    `coordinate_transformation_mode` `half_pixel`, `align_corners`,
    `asymmetric`, `pytorch_half_pixel`, `tf_half_pixel_for_nn` or
    `tf_crop_and_resize` (which reads `roi` = [start_h, start_w, end_h,
    end_w] and `extrapolation_value`). `rounding_method` (nearest only):
    empty (Relay's default: `round` for align_corners, else `floor`),
    `round`, `floor`, `ceil`, `round_prefer_floor`, `round_prefer_ceil`.

    ```mlir
    %y = relay.image.resize2d %x {size = array<i64: 8, 8>, method = "nearest_neighbor"} : (tensor<1x3x4x4xf32>) -> tensor<1x3x8x8xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DenseI64ArrayAttr:$size,
                       OptionalAttr<DenseF64ArrayAttr>:$roi,
                       DefaultValuedAttr<Relay_ImageLayoutAttr, "\"NCHW\"">:$layout,
                       DefaultValuedAttr<Relay_ResizeMethodAttr, "\"linear\"">:$method,
                       DefaultValuedAttr<Relay_CoordinateTransformationModeAttr,
                                         "\"half_pixel\"">:
                           $coordinate_transformation_mode,
                       DefaultValuedAttr<Relay_RoundingMethodAttr, "\"\"">:
                           $rounding_method,
                       DefaultValuedAttr<F64Attr, "-0.5">:$cubic_alpha,
                       DefaultValuedAttr<I64Attr, "0">:$cubic_exclude,
                       DefaultValuedAttr<F64Attr, "0.0">:$extrapolation_value,
                       OptionalAttr<TypeAttr>:$out_dtype);
}

#endif // RELAY_IMAGE_OPS_TD
