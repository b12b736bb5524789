// RUN: relay-mlir-opt %s -relay-to-mixed-precision="missing-op-mode=2" | FileCheck %s

// ALWAYS: dense computes and accumulates in float16 (out_dtype), its
// parameter operand cast, its constant weight converted at compile time;
// NEVER: softmax gets a float32 operand. The result stays float32 (softmax's).
// CHECK-LABEL: func.func @dense_softmax(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2x4xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[XH:.*]] = relay.cast %[[X]] {dtype = f16} : (tensor<2x4xf32>) -> tensor<2x4xf16>
// CHECK-NEXT:    relay.constant dense<1.000000e+00> : tensor<3x4xf32>
// CHECK-NEXT:    %[[WH:.*]] = relay.constant dense<1.000000e+00> : tensor<3x4xf16>
// CHECK-NEXT:    %[[D:.*]] = relay.nn.dense %[[XH]], %[[WH]] {out_dtype = f16} : (tensor<2x4xf16>, tensor<3x4xf16>) -> tensor<2x3xf16>
// CHECK-NEXT:    %[[DF:.*]] = relay.cast %[[D]] {dtype = f32} : (tensor<2x3xf16>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[S:.*]] = relay.nn.softmax %[[DF]] {{.*}}: (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    return %[[S]] : tensor<2x3xf32>
func.func @dense_softmax(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %w = relay.constant dense<1.0> : tensor<3x4xf32>
  %d = relay.nn.dense %x, %w : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
  %s = relay.nn.softmax %d : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}

// FOLLOW on parameters computes in float16 (one cast per parameter, shared);
// the function returns float16. A FOLLOW op reading a NEVER op's float32
// result stays float32.
// CHECK-LABEL: func.func @follow(
// CHECK-SAME:    %[[A:[^:]*]]: tensor<2x3xf32>, %[[B:[^:]*]]: tensor<2x3xf32>) -> (tensor<2x3xf16>, tensor<2x3xf32>)
// CHECK-NEXT:    %[[AH:.*]] = relay.cast %[[A]] {dtype = f16}
// CHECK-NEXT:    %[[BH:.*]] = relay.cast %[[B]] {dtype = f16}
// CHECK-NEXT:    %[[R:.*]] = relay.nn.relu %[[AH]] : (tensor<2x3xf16>) -> tensor<2x3xf16>
// CHECK-NEXT:    %[[S:.*]] = relay.add %[[R]], %[[BH]] : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
// CHECK-NEXT:    %[[E:.*]] = relay.exp %[[A]] : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[M:.*]] = relay.multiply %[[E]], %[[B]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    return %[[S]], %[[M]] : tensor<2x3xf16>, tensor<2x3xf32>
func.func @follow(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %r = relay.nn.relu %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = relay.add %r, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %e = relay.exp %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %m = relay.multiply %e, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %s, %m : tensor<2x3xf32>, tensor<2x3xf32>
}

// What stays float32: a clip whose bounds float16 cannot hold; a sum (its
// float16 operand cast back); integer ops are not cast (argmax reads the
// float16 parameter; the int32 result is cast to float32 by its own dtype).
// zeros takes float16.
// CHECK-LABEL: func.func @stays(
// CHECK:         relay.clip %{{.*}} {a_max = 1.000000e+05 : f64, a_min = -1.000000e+05 : f64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK:         %[[M:.*]] = relay.multiply %{{.*}}, %{{.*}} : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
// CHECK:         %[[MF:.*]] = relay.cast %[[M]] {dtype = f32}
// CHECK:         relay.sum %[[MF]] {{.*}}-> tensor<2xf32>
// CHECK:         relay.argmax %{{.*}} : (tensor<2x3xf16>) -> tensor<2xi32>
// CHECK:         relay.cast %{{.*}} {dtype = f32} : (tensor<2xi32>) -> tensor<2xf32>
// CHECK:         relay.zeros {dtype = f16, shape = array<i64: 2, 3>} : () -> tensor<2x3xf16>
func.func @stays(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x3xf32>) {
  %c = relay.clip %a {a_min = -1.0e5 : f64, a_max = 1.0e5 : f64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %m = relay.multiply %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = relay.sum %m {axis = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  %i = relay.argmax %a {axis = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xi32>
  %f = relay.cast %i {dtype = f32} : (tensor<2xi32>) -> tensor<2xf32>
  %z = relay.zeros {shape = array<i64: 2, 3>, dtype = f32} : () -> tensor<2x3xf32>
  return %c, %s, %f, %z : tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x3xf32>
}

// Regions keep their types: an if branch yields float32 (cast back), a
// closure returns its declared type; operators inside them are converted.
// CHECK-LABEL: func.func @regions(
// CHECK:         relay.if %{{.*}} : tensor<i1> -> tensor<2x3xf32> {
// CHECK:           %[[R:.*]] = relay.nn.relu %{{.*}} : (tensor<2x3xf16>) -> tensor<2x3xf16>
// CHECK-NEXT:      %[[RF:.*]] = relay.cast %[[R]] {dtype = f32}
// CHECK-NEXT:      relay.yield %[[RF]] : tensor<2x3xf32>
// CHECK:         relay.fn : !relay.fn<(tensor<2x3xf32>) -> tensor<2x3xf32>> {
// CHECK:           relay.nn.relu %{{.*}} : (tensor<2x3xf16>) -> tensor<2x3xf16>
// CHECK:           relay.yield %{{.*}} : tensor<2x3xf32>
func.func @regions(%c: tensor<i1>, %a: tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, !relay.fn<(tensor<2x3xf32>) -> tensor<2x3xf32>>> {
  %r = relay.if %c : tensor<i1> -> tensor<2x3xf32> {
    %x = relay.nn.relu %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
    relay.yield %x : tensor<2x3xf32>
  } else {
    relay.yield %a : tensor<2x3xf32>
  }
  %f = relay.fn : !relay.fn<(tensor<2x3xf32>) -> tensor<2x3xf32>> {
  ^bb0(%p: tensor<2x3xf32>):
    %y = relay.nn.relu %p : (tensor<2x3xf32>) -> tensor<2x3xf32>
    relay.yield %y : tensor<2x3xf32>
  }
  %t = relay.tuple %r, %f : (tensor<2x3xf32>, !relay.fn<(tensor<2x3xf32>) -> tensor<2x3xf32>>) -> tuple<tensor<2x3xf32>, !relay.fn<(tensor<2x3xf32>) -> tensor<2x3xf32>>>
  return %t : tuple<tensor<2x3xf32>, !relay.fn<(tensor<2x3xf32>) -> tensor<2x3xf32>>>
}

// A global function's result takes float16; its caller passes float32
// arguments (the callee's parameter types) and casts the result back.
// CHECK-LABEL: func.func @callee(
// CHECK-SAME:    -> tensor<3xf16>
// CHECK-LABEL: func.func @caller(
// CHECK:         %[[C:.*]] = call @callee(%{{.*}}) : (tensor<3xf32>) -> tensor<3xf16>
// CHECK-NEXT:    %[[CF:.*]] = relay.cast %[[C]] {dtype = f32} : (tensor<3xf16>) -> tensor<3xf32>
// CHECK-NEXT:    relay.exp %[[CF]]
func.func @callee(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = relay.nn.relu %x : (tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
func.func @caller(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = relay.nn.relu %x : (tensor<3xf32>) -> tensor<3xf32>
  %c = call @callee(%r) : (tensor<3xf32>) -> tensor<3xf32>
  %e = relay.exp %c : (tensor<3xf32>) -> tensor<3xf32>
  return %e : tensor<3xf32>
}

// An operator whose typing rule refuses the low type (one_hot's values must
// have its float32 dtype) computes in float32; the conversions tried for it
// are dropped.
// CHECK-LABEL: func.func @refused(
// CHECK-NEXT:    %[[ON:.*]] = relay.constant dense<1.500000e+00> : tensor<f32>
// CHECK-NEXT:    %[[OFF:.*]] = relay.constant dense<-5.000000e-01> : tensor<f32>
// CHECK-NEXT:    %[[H:.*]] = relay.one_hot %{{.*}}, %[[ON]], %[[OFF]] {axis = 1 : i64, depth = 5 : i64, dtype = f32} : (tensor<1x3xi32>, tensor<f32>, tensor<f32>) -> tensor<1x5x3xf32>
// CHECK-NEXT:    return %[[H]] : tensor<1x5x3xf32>
func.func @refused(%i: tensor<1x3xi32>) -> tensor<1x5x3xf32> {
  %on = relay.constant dense<1.5> : tensor<f32>
  %off = relay.constant dense<-0.5> : tensor<f32>
  %h = relay.one_hot %i, %on, %off {axis = 1 : i64, depth = 5 : i64, dtype = f32} : (tensor<1x3xi32>, tensor<f32>, tensor<f32>) -> tensor<1x5x3xf32>
  return %h : tensor<1x5x3xf32>
}
