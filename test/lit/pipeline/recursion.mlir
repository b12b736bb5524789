// RUN: relay-mlir-opt %s --allow-unregistered-dialect -relay-to-iree-input | FileCheck %s

// relay-to-iree-input leaves no call-graph cycle (iree-compile would never
// return): the while-loop idiom becomes a loop, non-tail recursion a
// dispatcher with a frame stack, and the canonicalizer/CSE after it keep the
// stack operations. A public function that is called (here: by itself) keeps
// its signature and calls a private twin with its body
// (relay-privatize-callees).

// CHECK-LABEL: func.func @loop(
// CHECK:         call @loop$body(
// CHECK-LABEL: func.func private @loop$body
// CHECK-NOT:     call
// CHECK:         cf.br ^[[HEAD:bb[0-9]+]](
// CHECK:       ^[[HEAD]](
// CHECK:         cf.cond_br
// CHECK:         cf.br ^[[HEAD]](
// CHECK:         return
// CHECK-NEXT:  }
func.func @loop(%i: tensor<i32>, %n: tensor<i32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %go = relay.less %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r = relay.if %go : tensor<i1> -> tensor<4xf32> {
    %one = relay.constant dense<1> : tensor<i32>
    %i2 = relay.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %acc2 = relay.add %acc, %acc : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %rec = func.call @loop(%i2, %n, %acc2) : (tensor<i32>, tensor<i32>, tensor<4xf32>) -> tensor<4xf32>
    relay.yield %rec : tensor<4xf32>
  } else {
    relay.yield %acc : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @fact(%{{.+}}: tensor<i64>) -> tensor<i64>
// CHECK:         call @fact$body(
// CHECK-LABEL: func.func private @fact$body(
// CHECK:         call @fact$body__recursion(
// n lives on the host (relay-host-scalars, now that @fact's body is private):
// the frames save it as an i64, no tensor is pushed (the product, a tensor
// joining at the return block, is passed there boxed).
// CHECK-LABEL: func.func private @fact$body__recursion(%{{.+}}: i32, %{{.+}}: i64) -> tensor<i64>
// CHECK:         "util.list.create"
// CHECK-NOT:     "util.list.set"(%{{.+}}, %{{.+}}, %{{.+}}) : (!util.list<?>, index, !hal.buffer_view)
// CHECK:         "util.list.set"(%{{.+}}, %{{.+}}, %{{.+}}) : (!util.list<?>, index, i64) -> ()
// CHECK-NOT:     "util.list.set"(%{{.+}}, %{{.+}}, %{{.+}}) : (!util.list<?>, index, !hal.buffer_view)
// CHECK:         "util.list.get"(%{{.+}}, %{{.+}}) : (!util.list<?>, index) -> i64
// CHECK:         "util.list.resize"
// CHECK-NOT:     call @fact
// CHECK:       }
func.func @fact(%n: tensor<i64>) -> tensor<i64> {
  %zero = relay.constant dense<0> : tensor<i64>
  %stop = relay.equal %n, %zero : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %r = relay.if %stop : tensor<i1> -> tensor<i64> {
    %one = relay.constant dense<1> : tensor<i64>
    relay.yield %one : tensor<i64>
  } else {
    %one = relay.constant dense<1> : tensor<i64>
    %m = relay.subtract %n, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %f = func.call @fact(%m) : (tensor<i64>) -> tensor<i64>
    %p = relay.multiply %n, %f : (tensor<i64>, tensor<i64>) -> tensor<i64>
    relay.yield %p : tensor<i64>
  }
  return %r : tensor<i64>
}
