// RUN: relay-mlir-opt %s --allow-unregistered-dialect -relay-eliminate-recursion -split-input-file -verify-diagnostics

// A recursive call inside a linalg body is not in the function's own
// control flow: it cannot become a branch.
func.func @in_linalg(%x: tensor<4xi64>) -> tensor<4xi64> {
  %e = tensor.empty() : tensor<4xi64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xi64>) outs(%e : tensor<4xi64>) {
  ^bb0(%a: i64, %b: i64):
    // expected-error @+1 {{a recursive call inside 'linalg.generic' cannot be eliminated}}
    %c = func.call @scalar(%a) : (i64) -> i64
    linalg.yield %c : i64
  } -> tensor<4xi64>
  return %r : tensor<4xi64>
}

func.func @scalar(%a: i64) -> i64 {
  %t = tensor.from_elements %a, %a, %a, %a : tensor<4xi64>
  %r = func.call @in_linalg(%t) : (tensor<4xi64>) -> tensor<4xi64>
  %c0 = arith.constant 0 : index
  %s = tensor.extract %r[%c0] : tensor<4xi64>
  return %s : i64
}

// -----

// A value that no frame slot can hold (i128) live across a non-tail call.
func.func @wide(%n: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %stop = arith.cmpi eq, %n, %c0 : i64
  %r = scf.if %stop -> i64 {
    scf.yield %n : i64
  } else {
    %big = arith.extsi %n : i64 to i128
    %c1 = arith.constant 1 : i64
    %m = arith.subi %n, %c1 : i64
    // expected-error @+1 {{cannot keep a value of type 'i128' live across this recursive call}}
    %s = func.call @wide(%m) : (i64) -> i64
    %t = arith.trunci %big : i128 to i64
    %u = arith.addi %s, %t : i64
    scf.yield %u : i64
  }
  return %r : i64
}
