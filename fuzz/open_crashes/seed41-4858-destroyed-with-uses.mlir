// relay-mlir-opt %s
// parse: LLVM ERROR: operation destroyed but still has uses
// seed 41 index 4858, from transforms/defunctionalize.mlir#1, mutations dup_line+dup_line+swap_lines
func.func @curry(%a: tensor<2xf32>) -> tensor<2xf32> {
  %adder = relay.fn : !relay.fn<(tensor<2xf32>) -> !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>> {
      relay.yield %s : tensor<2xf32>
    %inner = relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
    ^bb0(%y: tensor<2xf32>):
      %s = relay.add %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  ^bb0(%x: tensor<2xf32>):
    }
    relay.yield %inner : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
  }
  }
  %add_a = relay.call %adder(%a) : (!relay.fn<(tensor<2xf32>) -> !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>>, tensor<2xf32>) -> !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
  %r = relay.call %add_a(%a) : (!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
  return %r : tensor<2xf32>
}
