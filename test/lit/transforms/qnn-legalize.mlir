// RUN: relay-mlir-opt %s -relay-qnn-legalize | FileCheck %s --check-prefix=INT16
// RUN: relay-mlir-opt %s -relay-qnn-legalize=fast-int8=true | FileCheck %s --check-prefix=FAST

// int8 data and kernel. Without fast int8 (TVM 0.19 on `llvm`): an int16
// nn.conv2d of the operands minus their zero points, the scales dropped.
// With fast int8 (sse4.2): the data moves to uint8, its zero point + 128.
// INT16-LABEL: func.func @conv_i8_i8(
// INT16-SAME:    %[[X:[^:]*]]: tensor<1x8x6x6xi8>, %[[W:[^:]*]]: tensor<8x8x3x3xi8>
// INT16-DAG:     %[[ZX:.*]] = relay.constant dense<1> : tensor<i32>
// INT16-DAG:     %[[ZW:.*]] = relay.constant dense<2> : tensor<i32>
// INT16-DAG:     %[[X16:.*]] = relay.cast %[[X]] {dtype = i16} : (tensor<1x8x6x6xi8>) -> tensor<1x8x6x6xi16>
// INT16-DAG:     %[[ZX16:.*]] = relay.cast %[[ZX]] {dtype = i16} : (tensor<i32>) -> tensor<i16>
// INT16-DAG:     %[[D:.*]] = relay.subtract %[[X16]], %[[ZX16]] : (tensor<1x8x6x6xi16>, tensor<i16>) -> tensor<1x8x6x6xi16>
// INT16-DAG:     %[[W16:.*]] = relay.cast %[[W]] {dtype = i16} : (tensor<8x8x3x3xi8>) -> tensor<8x8x3x3xi16>
// INT16-DAG:     %[[ZW16:.*]] = relay.cast %[[ZW]] {dtype = i16} : (tensor<i32>) -> tensor<i16>
// INT16-DAG:     %[[K:.*]] = relay.subtract %[[W16]], %[[ZW16]] : (tensor<8x8x3x3xi16>, tensor<i16>) -> tensor<8x8x3x3xi16>
// INT16:         %[[Y:.*]] = relay.nn.conv2d %[[D]], %[[K]] {channels = 8 : i64, kernel_size = array<i64: 3, 3>, out_dtype = i32, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x6x6xi16>, tensor<8x8x3x3xi16>) -> tensor<1x8x6x6xi32>
// INT16-NEXT:    return %[[Y]]
// FAST-LABEL: func.func @conv_i8_i8(
// FAST-SAME:    %[[X:[^:]*]]: tensor<1x8x6x6xi8>, %[[W:[^:]*]]: tensor<8x8x3x3xi8>
// FAST-DAG:     %[[ZW:.*]] = relay.constant dense<2> : tensor<i32>
// FAST-DAG:     %[[ZX:.*]] = relay.constant dense<129> : tensor<i32>
// FAST-DAG:     %[[BY:.*]] = relay.constant dense<128> : tensor<i32>
// FAST-DAG:     %[[X32:.*]] = relay.cast %[[X]] {dtype = i32} : (tensor<1x8x6x6xi8>) -> tensor<1x8x6x6xi32>
// FAST-DAG:     %[[XS:.*]] = relay.add %[[X32]], %[[BY]] : (tensor<1x8x6x6xi32>, tensor<i32>) -> tensor<1x8x6x6xi32>
// FAST-DAG:     %[[XU:.*]] = relay.cast %[[XS]] {dtype = ui8} : (tensor<1x8x6x6xi32>) -> tensor<1x8x6x6xui8>
// FAST:         %[[Y:.*]] = relay.qnn.conv2d %[[XU]], %[[W]], %[[ZX]], %[[ZW]], %{{[^,]*}}, %{{[^ ]*}} {channels = 8 : i64, kernel_size = array<i64: 3, 3>, out_dtype = i32, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x6x6xui8>, tensor<8x8x3x3xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<1x8x6x6xi32>
// FAST-NEXT:    return %[[Y]]
func.func @conv_i8_i8(%x: tensor<1x8x6x6xi8>, %w: tensor<8x8x3x3xi8>) -> tensor<1x8x6x6xi32> {
  %zx = relay.constant dense<1> : tensor<i32>
  %zw = relay.constant dense<2> : tensor<i32>
  %sx = relay.constant dense<0.5> : tensor<f32>
  %sw = relay.constant dense<0.25> : tensor<f32>
  %y = relay.qnn.conv2d %x, %w, %zx, %zw, %sx, %sw {channels = 8 : i64, kernel_size = array<i64: 3, 3>, out_dtype = i32, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x6x6xi8>, tensor<8x8x3x3xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<1x8x6x6xi32>
  return %y : tensor<1x8x6x6xi32>
}

// A per-channel kernel zero point: nn.bias_add of its negation on the
// kernel's O axis (HWIO: 3). No out_dtype: int32. Fast int8: uint8 data
// with an int8 kernel stay.
// INT16-LABEL: func.func @conv_per_channel_nhwc(
// INT16-SAME:    %[[X:[^:]*]]: tensor<1x6x6x8xui8>, %[[W:[^:]*]]: tensor<3x3x8x4xi8>
// INT16-DAG:     %[[ZW:.*]] = relay.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
// INT16-DAG:     %[[W16:.*]] = relay.cast %[[W]] {dtype = i16} : (tensor<3x3x8x4xi8>) -> tensor<3x3x8x4xi16>
// INT16-DAG:     %[[ZW16:.*]] = relay.cast %[[ZW]] {dtype = i16} : (tensor<4xi32>) -> tensor<4xi16>
// INT16-DAG:     %[[N:.*]] = relay.negative %[[ZW16]] : (tensor<4xi16>) -> tensor<4xi16>
// INT16-DAG:     %[[K:.*]] = relay.nn.bias_add %[[W16]], %[[N]] {axis = 3 : i64} : (tensor<3x3x8x4xi16>, tensor<4xi16>) -> tensor<3x3x8x4xi16>
// INT16-DAG:     %[[D:.*]] = relay.subtract
// INT16:         relay.nn.conv2d %[[D]], %[[K]] {data_layout = "NHWC", kernel_layout = "HWIO", out_dtype = i32} : (tensor<1x6x6x8xi16>, tensor<3x3x8x4xi16>) -> tensor<1x4x4x4xi32>
// FAST-LABEL: func.func @conv_per_channel_nhwc(
// FAST-SAME:    %[[X:[^:]*]]: tensor<1x6x6x8xui8>, %[[W:[^:]*]]: tensor<3x3x8x4xi8>
// FAST-NOT:     relay.cast
// FAST:         relay.qnn.conv2d %[[X]], %[[W]],
func.func @conv_per_channel_nhwc(%x: tensor<1x6x6x8xui8>, %w: tensor<3x3x8x4xi8>) -> tensor<1x4x4x4xi32> {
  %zx = relay.constant dense<3> : tensor<i32>
  %zw = relay.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %sx = relay.constant dense<0.5> : tensor<f32>
  %sw = relay.constant dense<0.25> : tensor<f32>
  %y = relay.qnn.conv2d %x, %w, %zx, %zw, %sx, %sw {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x6x6x8xui8>, tensor<3x3x8x4xi8>, tensor<i32>, tensor<4xi32>, tensor<f32>, tensor<f32>) -> tensor<1x4x4x4xi32>
  return %y : tensor<1x4x4x4xi32>
}

// uint8 data and kernel with zero points that are arguments. Without fast
// int8: an int16 nn.dense (units kept, out_dtype int32). With it: the
// kernel moves to int8, its zero point - 128 (an add: not a constant).
// INT16-LABEL: func.func @dense_u8_u8(
// INT16-COUNT-4: relay.cast
// INT16-COUNT-2: relay.subtract
// INT16:         relay.nn.dense %{{[^,]*}}, %{{[^ ]*}} {out_dtype = i32, units = 4 : i64} : (tensor<2x8xi16>, tensor<4x8xi16>) -> tensor<2x4xi32>
// FAST-LABEL: func.func @dense_u8_u8(
// FAST-SAME:    %[[X:[^:]*]]: tensor<2x8xui8>, %[[W:[^:]*]]: tensor<4x8xui8>, %[[ZX:[^:]*]]: tensor<i32>, %[[ZW:[^:]*]]: tensor<i32>
// FAST-DAG:     %[[BY:.*]] = relay.constant dense<-128> : tensor<i32>
// FAST-DAG:     %[[W32:.*]] = relay.cast %[[W]] {dtype = i32} : (tensor<4x8xui8>) -> tensor<4x8xi32>
// FAST-DAG:     %[[WS:.*]] = relay.add %[[W32]], %[[BY]] : (tensor<4x8xi32>, tensor<i32>) -> tensor<4x8xi32>
// FAST-DAG:     %[[WI:.*]] = relay.cast %[[WS]] {dtype = i8} : (tensor<4x8xi32>) -> tensor<4x8xi8>
// FAST-DAG:     %[[Z:.*]] = relay.add %[[ZW]], %[[BY]] : (tensor<i32>, tensor<i32>) -> tensor<i32>
// FAST:         relay.qnn.dense %[[X]], %[[WI]], %[[ZX]], %[[Z]], %{{[^,]*}}, %{{[^ ]*}} {units = 4 : i64} : (tensor<2x8xui8>, tensor<4x8xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<2x4xi32>
func.func @dense_u8_u8(%x: tensor<2x8xui8>, %w: tensor<4x8xui8>, %zx: tensor<i32>, %zw: tensor<i32>) -> tensor<2x4xi32> {
  %sx = relay.constant dense<0.5> : tensor<f32>
  %sw = relay.constant dense<0.25> : tensor<f32>
  %y = relay.qnn.dense %x, %w, %zx, %zw, %sx, %sw {units = 4 : i64} : (tensor<2x8xui8>, tensor<4x8xui8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<2x4xi32>
  return %y : tensor<2x4xi32>
}

// int8 data and a uint8 kernel: with fast int8 both move (zero points
// 1 + 128 and 2 - 128: new constants).
// FAST-LABEL: func.func @dense_i8_u8(
// FAST-DAG:     relay.constant dense<129> : tensor<i32>
// FAST-DAG:     relay.constant dense<-126> : tensor<i32>
// FAST:         relay.qnn.dense {{.*}} : (tensor<2x8xui8>, tensor<4x8xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<2x4xi32>
func.func @dense_i8_u8(%x: tensor<2x8xi8>, %w: tensor<4x8xui8>) -> tensor<2x4xi32> {
  %zx = relay.constant dense<1> : tensor<i32>
  %zw = relay.constant dense<2> : tensor<i32>
  %sx = relay.constant dense<0.5> : tensor<f32>
  %sw = relay.constant dense<0.25> : tensor<f32>
  %y = relay.qnn.dense %x, %w, %zx, %zw, %sx, %sw {units = 4 : i64} : (tensor<2x8xi8>, tensor<4x8xui8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<2x4xi32>
  return %y : tensor<2x4xi32>
}
