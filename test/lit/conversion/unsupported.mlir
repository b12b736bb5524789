// RUN: relay-mlir-opt %s -convert-relay-to-linalg -split-input-file -verify-diagnostics

func.func @closure(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{not supported yet: relay.fn (closures)}}
  %f = relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
  ^bb0(%y: tensor<2xf32>):
    relay.yield %y : tensor<2xf32>
  }
  // expected-error @+1 {{not supported yet: relay.call (calls of function values)}}
  %r = relay.call %f(%x) : (!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

func.func @square(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
func.func @global(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{not supported yet: relay.global_fn (functions as values)}}
  %f = relay.global_fn @square : !relay.fn<(tensor<f32>) -> tensor<f32>>
  return %x : tensor<f32>
}

// -----

func.func private @lifted(%b: tensor<f32>, %x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
func.func @lifted_closure(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{not supported yet: relay.closure (lambda-lifted closures; run relay-defunctionalize)}}
  %f = relay.closure @lifted(%x : tensor<f32>) : !relay.fn<(tensor<f32>) -> tensor<f32>>
  return %x : tensor<f32>
}

// -----

// expected-error @+1 {{not supported yet: function values (!relay.fn)}}
func.func @takes_closure(%f: !relay.fn<(tensor<f32>) -> tensor<f32>>) -> tensor<f32> {
  %c = relay.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}

// -----

// ADTs and references lower to IREE lists built as unregistered ops
// (test/lit/conversion/adt.mlir): without --allow-unregistered-dialect that
// is one located error.
func.func @refs(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{lowering ADTs and references emits IREE's util/hal ops in generic form: the context must allow unregistered dialects (relay-mlir-opt --allow-unregistered-dialect)}}
  %r = relay.ref_new %x : (tensor<f32>) -> !relay.ref<tensor<f32>>
  %v = relay.ref_read %r : (!relay.ref<tensor<f32>>) -> tensor<f32>
  return %v : tensor<f32>
}

// -----

relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}
// A polymorphic function (relay-monomorphize removes them).
// expected-error @+1 {{not supported yet: type variables (!relay.tvar: polymorphic values)}}
func.func @poly(%l: !relay.adt<@List, !relay.tvar<"T">>) -> !relay.adt<@List, !relay.tvar<"T">> {
  return %l : !relay.adt<@List, !relay.tvar<"T">>
}

// -----

relay.adt @Box ["T"] {
  relay.constructor @Box [!relay.tvar<"T">]
}
// expected-error @+1 {{not supported yet: function values (!relay.fn)}}
func.func @boxed_closure(%b: !relay.adt<@Box, !relay.fn<(tensor<f32>) -> tensor<f32>>>) -> tensor<f32> {
  %c = relay.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}

// -----

func.func @f(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
func.func @grad(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{not supported yet: relay.global_fn (functions as values)}}
  %f = relay.global_fn @f : !relay.fn<(tensor<f32>) -> tensor<f32>>
  // expected-error @+1 {{not supported yet: relay.grad (automatic differentiation)}}
  %g = relay.grad %f : (!relay.fn<(tensor<f32>) -> tensor<f32>>) -> !relay.fn<(tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>>
  return %x : tensor<f32>
}

// -----

func.func @incomplete(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{type '!relay.incomplete' is not inferred: run relay-infer-type first}}
  %y = relay.nn.relu %x : (tensor<4xf32>) -> !relay.incomplete
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{run relay-infer-type first}}
func.func @incomplete_signature(%x: tensor<4xf32>) -> !relay.incomplete {
  %y = relay.nn.relu %x : (tensor<4xf32>) -> !relay.incomplete
  return %y : !relay.incomplete
}

// -----

func.func @int_softmax(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{not supported yet: relay.nn.softmax on integer tensors}}
  %y = relay.nn.softmax %x : (tensor<4xi32>) -> tensor<4xi32>
  return %y : tensor<4xi32>
}

// -----

// TVM 0.19 defines scatter_elements' running mean for float data only.
func.func @scatter_elements_mean_int(%x: tensor<4xi32>, %i: tensor<2xi32>, %u: tensor<2xi32>) -> tensor<4xi32> {
  // expected-error @+2 {{'relay.scatter_elements' op reduction "mean" of integer data is not supported (Relay defines it as a float running mean)}}
  // expected-error @+1 {{failed to legalize operation 'relay.scatter_elements'}}
  %0 = relay.scatter_elements %x, %i, %u {reduction = "mean"} : (tensor<4xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @conv2d_transpose_groups_dyn_channels(%x: tensor<1x?x3x3xf32>, %w: tensor<?x2x2x2xf32>) -> tensor<1x4x4x4xf32> {
  // expected-error @+2 {{not supported yet: grouped nn.conv2d_transpose with `?` input channels}}
  // expected-error @+1 {{failed to legalize operation 'relay.nn.conv2d_transpose'}}
  %y = relay.nn.conv2d_transpose %x, %w {groups = 2 : i64} : (tensor<1x?x3x3xf32>, tensor<?x2x2x2xf32>) -> tensor<1x4x4x4xf32>
  return %y : tensor<1x4x4x4xf32>
}

// -----

// No nn.conv2d strategy takes data in a layout other than NCHW and NHWC:
// the last pattern reports it (relay-convert-layout picks lowerable layouts).
func.func @conv2d_chwn(%x: tensor<3x8x8x1xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<8x6x6x1xf32> {
  // expected-error @+2 {{not supported yet: nn.conv2d with layouts CHWN/OIHW (NCHW or NHWC data with a kernel layout of O, I, H, W are)}}
  // expected-error @+1 {{failed to legalize operation 'relay.nn.conv2d'}}
  %y = relay.nn.conv2d %x, %w {data_layout = "CHWN"} : (tensor<3x8x8x1xf32>, tensor<8x3x3x3xf32>) -> tensor<8x6x6x1xf32>
  return %y : tensor<8x6x6x1xf32>
}

// -----

// conv1d's grouped strategy (a linalg.generic) takes channel-first layouts
// only; named and depthwise do not apply either.
func.func @conv1d_grouped_nwc(%x: tensor<1x9x4xf32>, %w: tensor<3x2x6xf32>) -> tensor<1x7x6xf32> {
  // expected-error @+2 {{not supported yet: grouped relay.nn.conv1d in layout NWC (groups > 1 needs the channel-first layout unless depthwise)}}
  // expected-error @+1 {{failed to legalize operation 'relay.nn.conv1d'}}
  %y = relay.nn.conv1d %x, %w {groups = 2 : i64, data_layout = "NWC", kernel_layout = "WIO"} : (tensor<1x9x4xf32>, tensor<3x2x6xf32>) -> tensor<1x7x6xf32>
  return %y : tensor<1x7x6xf32>
}

// -----

// nn.lrn's size is read through an unsigned accessor: a negative size used
// to pass the check and abort creating a tensor of negative size.
func.func @lrn_negative_size(%x: tensor<2x7xf32>) -> tensor<2x7xf32> {
  // expected-error @+2 {{nn.lrn size must be >= 1, got -2}}
  // expected-error @+1 {{failed to legalize operation 'relay.nn.lrn'}}
  %y = relay.nn.lrn %x {size = -2 : i64} : (tensor<2x7xf32>) -> tensor<2x7xf32>
  return %y : tensor<2x7xf32>
}

// -----

// A window of 2^63 - 1 rows used to pad the axis beyond int64 (a negative
// dim: RankedTensorType's assertion).
func.func @lrn_huge_size(%x: tensor<2x7xf32>) -> tensor<2x7xf32> {
  // expected-error @+2 {{nn.lrn size 9223372036854775807 pads dim 1 (size 7) beyond int64}}
  // expected-error @+1 {{failed to legalize operation 'relay.nn.lrn'}}
  %y = relay.nn.lrn %x {size = 9223372036854775807 : i64} : (tensor<2x7xf32>) -> tensor<2x7xf32>
  return %y : tensor<2x7xf32>
}

// -----

// A window of 2^62 rows fits int64 but the padded 2 x (2^62 + 6) tensor's
// element count does not (fuzz_mlir mutant 14:97: ShapedType's assertion).
func.func @lrn_huge_padded_tensor(%x: tensor<2x7xf32>) -> tensor<2x7xf32> {
  // expected-error @+2 {{nn.lrn size 4611686018427387904 pads dim 1 (size 7) to more elements than int64 counts}}
  // expected-error @+1 {{failed to legalize operation 'relay.nn.lrn'}}
  %y = relay.nn.lrn %x {size = 4611686018427387904 : i64} : (tensor<2x7xf32>) -> tensor<2x7xf32>
  return %y : tensor<2x7xf32>
}

// -----

// The space/batch decompositions reshape to static shapes (SpaceBatch.cpp).
func.func @space_to_batch_run_time_shape(%x: tensor<?x4x3xf32>) -> tensor<?x2x3xf32> {
  // expected-error @+2 {{not supported yet: nn.space_to_batch_nd of a run-time shape}}
  // expected-error @+1 {{failed to legalize operation 'relay.nn.space_to_batch_nd'}}
  %y = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 2>, paddings = array<i64: 0, 0>} : (tensor<?x4x3xf32>) -> tensor<?x2x3xf32>
  return %y : tensor<?x2x3xf32>
}

// -----

func.func @batch_to_space_run_time_shape(%x: tensor<4x?x3xf32>) -> tensor<2x?x3xf32> {
  // expected-error @+2 {{not supported yet: nn.batch_to_space_nd of a run-time shape}}
  // expected-error @+1 {{failed to legalize operation 'relay.nn.batch_to_space_nd'}}
  %y = relay.nn.batch_to_space_nd %x {block_shape = array<i64: 2>, crops = array<i64: 0, 0>} : (tensor<4x?x3xf32>) -> tensor<2x?x3xf32>
  return %y : tensor<2x?x3xf32>
}

// -----

func.func @conv3d_transpose_dyn(%x: tensor<?x4x3x3x3xf32>, %w: tensor<4x2x2x2x2xf32>) -> tensor<?x2x4x4x4xf32> {
  // expected-error @+2 {{not supported yet: relay.nn.conv3d_transpose with `?` dims}}
  // expected-error @+1 {{failed to legalize operation 'relay.nn.conv3d_transpose'}}
  %y = relay.nn.conv3d_transpose %x, %w : (tensor<?x4x3x3x3xf32>, tensor<4x2x2x2x2xf32>) -> tensor<?x2x4x4x4xf32>
  return %y : tensor<?x2x4x4x4xf32>
}

// -----

func.func @upsampling3d_dyn_spatial(%x: tensor<1x2x?x4x4xf32>) -> tensor<1x2x?x8x8xf32> {
  // expected-error @+2 {{not supported yet: relay.nn.upsampling3d with a `?` spatial dim}}
  // expected-error @+1 {{failed to legalize operation 'relay.nn.upsampling3d'}}
  %y = relay.nn.upsampling3d %x {scale_h = 2.0 : f64, scale_w = 2.0 : f64} : (tensor<1x2x?x4x4xf32>) -> tensor<1x2x?x8x8xf32>
  return %y : tensor<1x2x?x8x8xf32>
}

// -----

func.func @upsampling3d_layout(%x: tensor<1x2x3x4x5xf32>) -> tensor<1x2x3x4x5xf32> {
  // expected-error @+2 {{not supported yet: relay.nn.upsampling3d with layout NCWHD (NCDHW and NDHWC are)}}
  // expected-error @+1 {{failed to legalize operation 'relay.nn.upsampling3d'}}
  %y = relay.nn.upsampling3d %x {layout = "NCWHD"} : (tensor<1x2x3x4x5xf32>) -> tensor<1x2x3x4x5xf32>
  return %y : tensor<1x2x3x4x5xf32>
}
