// The reference ops (Relay's RefCreate/RefRead/RefWrite) print and parse back
// unchanged, in the custom and in the generic form.
// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s
// RUN: relay-mlir-opt %s --mlir-print-op-generic | relay-mlir-opt | FileCheck %s

// CHECK-LABEL: func.func @tensor_cell
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>, %[[Y:.+]]: tensor<2x3xf32>)
func.func @tensor_cell(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: %[[R:.+]] = relay.ref_new %[[X]] : (tensor<2x3xf32>) -> !relay.ref<tensor<2x3xf32>>
  %r = relay.ref_new %x : (tensor<2x3xf32>) -> !relay.ref<tensor<2x3xf32>>
  // CHECK: relay.ref_write %[[R]], %[[Y]] : (!relay.ref<tensor<2x3xf32>>, tensor<2x3xf32>) -> tuple<>
  %u = relay.ref_write %r, %y : (!relay.ref<tensor<2x3xf32>>, tensor<2x3xf32>) -> tuple<>
  // CHECK: %[[V:.+]] = relay.ref_read %[[R]] : (!relay.ref<tensor<2x3xf32>>) -> tensor<2x3xf32>
  %v = relay.ref_read %r : (!relay.ref<tensor<2x3xf32>>) -> tensor<2x3xf32>
  // CHECK: return %[[V]]
  return %v : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @cells_of_other_values
func.func @cells_of_other_values(%i: tensor<i64>, %t: tuple<tensor<i64>, tensor<4xi8>>,
                                 %f: !relay.fn<(tensor<i64>) -> tensor<i64>>)
    -> !relay.ref<!relay.ref<tensor<i64>>> {
  // CHECK: relay.ref_new %{{.*}} : (tuple<tensor<i64>, tensor<4xi8>>) -> !relay.ref<tuple<tensor<i64>, tensor<4xi8>>>
  %rt = relay.ref_new %t : (tuple<tensor<i64>, tensor<4xi8>>) -> !relay.ref<tuple<tensor<i64>, tensor<4xi8>>>
  // CHECK: relay.ref_read %{{.*}} : (!relay.ref<tuple<tensor<i64>, tensor<4xi8>>>) -> tuple<tensor<i64>, tensor<4xi8>>
  %t2 = relay.ref_read %rt : (!relay.ref<tuple<tensor<i64>, tensor<4xi8>>>) -> tuple<tensor<i64>, tensor<4xi8>>
  // CHECK: relay.ref_new %{{.*}} : (!relay.fn<(tensor<i64>) -> tensor<i64>>) -> !relay.ref<!relay.fn<(tensor<i64>) -> tensor<i64>>>
  %rf = relay.ref_new %f : (!relay.fn<(tensor<i64>) -> tensor<i64>>) -> !relay.ref<!relay.fn<(tensor<i64>) -> tensor<i64>>>
  // CHECK: relay.ref_write %{{.*}}, %{{.*}} : (!relay.ref<!relay.fn<(tensor<i64>) -> tensor<i64>>>, !relay.fn<(tensor<i64>) -> tensor<i64>>) -> tuple<>
  %w = relay.ref_write %rf, %f : (!relay.ref<!relay.fn<(tensor<i64>) -> tensor<i64>>>, !relay.fn<(tensor<i64>) -> tensor<i64>>) -> tuple<>
  // a cell holding a cell
  // CHECK: %[[IN:.+]] = relay.ref_new %{{.*}} : (tensor<i64>) -> !relay.ref<tensor<i64>>
  %ri = relay.ref_new %i : (tensor<i64>) -> !relay.ref<tensor<i64>>
  // CHECK: %[[OUT:.+]] = relay.ref_new %[[IN]] : (!relay.ref<tensor<i64>>) -> !relay.ref<!relay.ref<tensor<i64>>>
  %rr = relay.ref_new %ri : (!relay.ref<tensor<i64>>) -> !relay.ref<!relay.ref<tensor<i64>>>
  // CHECK: return %[[OUT]] : !relay.ref<!relay.ref<tensor<i64>>>
  return %rr : !relay.ref<!relay.ref<tensor<i64>>>
}

// Types left to inference round-trip as well.
// CHECK-LABEL: func.func @incomplete
func.func @incomplete(%x: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK: relay.ref_new %{{.*}} : (tensor<3xf32>) -> !relay.incomplete
  %r = relay.ref_new %x : (tensor<3xf32>) -> !relay.incomplete
  // CHECK: relay.ref_read %{{.*}} : (!relay.incomplete) -> !relay.incomplete
  %v = relay.ref_read %r : (!relay.incomplete) -> !relay.incomplete
  // CHECK: relay.ref_write %{{.*}}, %{{.*}} : (!relay.incomplete, tensor<3xf32>) -> !relay.incomplete
  %u = relay.ref_write %r, %x : (!relay.incomplete, tensor<3xf32>) -> !relay.incomplete
  return %x : tensor<3xf32>
}
