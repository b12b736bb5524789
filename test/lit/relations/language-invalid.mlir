// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics

// relay.if
func.func @if_cond(%c: tensor<2xi1>, %a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{condition must be a rank-0 i1 tensor (tensor<i1>), got 'tensor<2xi1>'}}
  %r = relay.if %c : tensor<2xi1> -> tensor<f32> {
    relay.yield %a : tensor<f32>
  } else {
    relay.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @if_then(%c: tensor<i1>, %a: tensor<f32>, %b: tensor<2xf32>) -> tensor<f32> {
  // expected-error @+1 {{then branch: type mismatch: cannot unify 'tensor<2xf32>' with 'tensor<f32>'}}
  %r = relay.if %c : tensor<i1> -> tensor<f32> {
    relay.yield %b : tensor<2xf32>
  } else {
    relay.yield %a : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

func.func @if_else(%c: tensor<i1>, %a: tensor<f32>, %b: tensor<2xf32>) -> tensor<f32> {
  // expected-error @+1 {{else branch: type mismatch: cannot unify 'tensor<2xf32>' with 'tensor<f32>'}}
  %r = relay.if %c : tensor<i1> -> tensor<f32> {
    relay.yield %a : tensor<f32>
  } else {
    relay.yield %b : tensor<2xf32>
  }
  return %r : tensor<f32>
}

// -----

// A branch without relay.yield (op verifiers run before the verifier checks
// their blocks' terminators: this used to abort in Block::getTerminator).
func.func @if_no_yield(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{then branch must end with relay.yield}}
  %r = relay.if %c : tensor<i1> -> tensor<2xf32> {
    %y = relay.negative %x : (tensor<2xf32>) -> tensor<2xf32>
  } else {
    relay.yield %x : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// -----

func.func @if_empty_else(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{else branch must end with relay.yield}}
  %r = "relay.if"(%c) ({
    relay.yield %x : tensor<2xf32>
  }, {
  ^bb0:
  }) : (tensor<i1>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// relay.fn
func.func @fn_no_yield(%k: tensor<f32>) {
  // expected-error @+1 {{body must end with relay.yield}}
  %f = relay.fn : !relay.fn<(tensor<f32>) -> tensor<f32>> {
  ^bb0(%x: tensor<f32>):
    %y = relay.add %x, %k : (tensor<f32>, tensor<f32>) -> tensor<f32>
  }
  return
}

// -----

func.func @fn_incomplete_no_yield() {
  // expected-error @+1 {{body must end with relay.yield}}
  %f = relay.fn : !relay.incomplete {
  ^bb0(%x: tensor<f32>):
  }
  return
}

// -----

func.func @fn_type(%a: tensor<f32>) {
  // expected-error @+1 {{result must be a !relay.fn type, got 'tensor<f32>'}}
  %f = relay.fn : tensor<f32> {
  ^bb0(%x: tensor<f32>):
    relay.yield %x : tensor<f32>
  }
  return
}

// -----

func.func @fn_arity() {
  // expected-error @+1 {{has 2 parameters but its type has 1}}
  %f = relay.fn : !relay.fn<(tensor<f32>) -> tensor<f32>> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    relay.yield %x : tensor<f32>
  }
  return
}

// -----

func.func @fn_param() {
  // expected-error @+1 {{closure type: type mismatch: cannot unify '!relay.fn<(tensor<f32>) -> tensor<2xf32>>' with '!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>' ('tensor<f32>' vs 'tensor<2xf32>')}}
  %f = relay.fn : !relay.fn<(tensor<f32>) -> tensor<2xf32>> {
  ^bb0(%x: tensor<2xf32>):
    relay.yield %x : tensor<2xf32>
  }
  return
}

// -----

func.func @fn_body() {
  // expected-error @+1 {{closure type: type mismatch: cannot unify '!relay.fn<(tensor<f32>) -> tensor<2xf32>>' with '!relay.fn<(tensor<f32>) -> tensor<f32>>' ('tensor<2xf32>' vs 'tensor<f32>')}}
  %f = relay.fn : !relay.fn<(tensor<f32>) -> tensor<2xf32>> {
  ^bb0(%x: tensor<f32>):
    relay.yield %x : tensor<f32>
  }
  return
}

// -----

func.func @fn_recursive_no_self() {
  // expected-error @+1 {{is recursive, so its first block argument must be the closure itself, but it has none}}
  %f = relay.fn recursive : !relay.fn<() -> tensor<f32>> {
    %c = relay.constant dense<1.0> : tensor<f32>
    relay.yield %c : tensor<f32>
  }
  return
}

// -----

func.func @fn_recursive_self_type() {
  // expected-error @+1 {{self reference of the closure: type mismatch: cannot unify 'tensor<f32>' with '!relay.fn<(tensor<f32>) -> tensor<f32>>'}}
  %f = relay.fn recursive : !relay.fn<(tensor<f32>) -> tensor<f32>> {
  ^bb0(%self: tensor<f32>, %x: tensor<f32>):
    relay.yield %x : tensor<f32>
  }
  return
}

// -----

// Without the self argument the parameters do not match the type.
func.func @fn_recursive_params() {
  // expected-error @+1 {{has 0 parameters but its type has 1}}
  %f = relay.fn recursive : !relay.fn<(tensor<f32>) -> tensor<f32>> {
  ^bb0(%self: !relay.fn<(tensor<f32>) -> tensor<f32>>):
    %c = relay.constant dense<1.0> : tensor<f32>
    relay.yield %c : tensor<f32>
  }
  return
}

// -----

// relay.closure
func.func @closure_missing() {
  // expected-error @+1 {{'@nowhere' does not name a func.func in this module}}
  %f = relay.closure @nowhere() : !relay.fn<(tensor<f32>) -> tensor<f32>>
  return
}

// -----

func.func private @lifted(%b: tensor<2xf32>, %x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
func.func @closure_result(%b: tensor<2xf32>) {
  // expected-error @+1 {{result must be a !relay.fn type, got 'tensor<f32>'}}
  %f = relay.closure @lifted(%b : tensor<2xf32>) : tensor<f32>
  return
}

// -----

func.func private @lifted(%b: tensor<2xf32>, %x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
func.func @closure_captures(%b: tensor<f32>) {
  // expected-error @+1 {{capture #0 of @lifted: type mismatch: cannot unify 'tensor<f32>' with 'tensor<2xf32>'}}
  %f = relay.closure @lifted(%b : tensor<f32>) : !relay.fn<(tensor<f32>) -> tensor<f32>>
  return
}

// -----

func.func private @lifted(%b: tensor<2xf32>, %x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
func.func @closure_params(%b: tensor<2xf32>) {
  // expected-error @+1 {{type of the closure of @lifted: type mismatch: cannot unify '!relay.fn<() -> tensor<f32>>' with '!relay.fn<(tensor<f32>) -> tensor<f32>>'}}
  %f = relay.closure @lifted(%b : tensor<2xf32>) : !relay.fn<() -> tensor<f32>>
  return
}

// -----

// relay.global_fn
func.func @global_missing() {
  // expected-error @+1 {{'@nowhere' does not name a func.func in this module}}
  %f = relay.global_fn @nowhere : !relay.fn<(tensor<f32>) -> tensor<f32>>
  return
}

// -----

func.func @square(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
func.func @global_type() {
  // expected-error @+1 {{type of @square: type mismatch: cannot unify '!relay.fn<(tensor<2xf32>) -> tensor<f32>>' with '!relay.fn<(tensor<f32>) -> tensor<f32>>' ('tensor<2xf32>' vs 'tensor<f32>')}}
  %f = relay.global_fn @square : !relay.fn<(tensor<2xf32>) -> tensor<f32>>
  return
}

// -----

// relay.call (relation Call)
func.func @call_not_fn(%x: tensor<f32>) {
  // expected-error @+1 {{callee must have a !relay.fn type, got 'tensor<f32>'}}
  %r = relay.call %x(%x) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @call_arity(%f: !relay.fn<(tensor<f32>) -> tensor<f32>>, %x: tensor<f32>) {
  // expected-error @+1 {{callee takes 1 arguments, got 2}}
  %r = relay.call %f(%x, %x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @call_arg(%f: !relay.fn<(tensor<f32>) -> tensor<f32>>, %x: tensor<2xf32>) {
  // expected-error @+1 {{argument #0 of the call: type mismatch: cannot unify 'tensor<2xf32>' with 'tensor<f32>'}}
  %r = relay.call %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<2xf32>) -> tensor<f32>
  return
}

// -----

func.func @call_result(%f: !relay.fn<(tensor<f32>) -> tensor<f32>>, %x: tensor<f32>) {
  // expected-error @+1 {{result of the call: type mismatch: cannot unify 'tensor<2xf32>' with 'tensor<f32>'}}
  %r = relay.call %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<2xf32>
  return
}

// -----

// relay.tuple / relay.tuple_get_item
func.func @tuple_result(%x: tensor<f32>) {
  // expected-error @+1 {{tuple: type mismatch: cannot unify 'tuple<tensor<f32>>' with 'tuple<tensor<f32>, tensor<f32>>'}}
  %t = relay.tuple %x, %x : (tensor<f32>, tensor<f32>) -> tuple<tensor<f32>>
  return
}

// -----

func.func @get_not_tuple(%x: tensor<f32>) {
  // expected-error @+1 {{operand must be a tuple, got 'tensor<f32>'}}
  %r = relay.tuple_get_item %x[0] : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @get_range(%t: tuple<tensor<f32>>) {
  // expected-error @+1 {{index -1 is out of range for 'tuple<tensor<f32>>'}}
  %r = relay.tuple_get_item %t[-1] : (tuple<tensor<f32>>) -> tensor<f32>
  return
}

// -----

func.func @get_result(%t: tuple<tensor<f32>, tensor<2xf32>>) {
  // expected-error @+1 {{result #0 has type 'tensor<f32>' but its typing rule gives 'tensor<2xf32>'}}
  %r = relay.tuple_get_item %t[1] : (tuple<tensor<f32>, tensor<2xf32>>) -> tensor<f32>
  return
}

// -----

// references
func.func @ref_new(%x: tensor<f32>) {
  // expected-error @+1 {{reference: type mismatch: cannot unify '!relay.ref<tensor<2xf32>>' with '!relay.ref<tensor<f32>>' ('tensor<2xf32>' vs 'tensor<f32>')}}
  %r = relay.ref_new %x : (tensor<f32>) -> !relay.ref<tensor<2xf32>>
  return
}

// -----

func.func @ref_read(%x: tensor<f32>) {
  // expected-error @+1 {{operand must be a !relay.ref, got 'tensor<f32>'}}
  %r = relay.ref_read %x : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @ref_write_ref(%x: tensor<f32>) {
  // expected-error @+1 {{first operand must be a !relay.ref, got 'tensor<f32>'}}
  %u = relay.ref_write %x, %x : (tensor<f32>, tensor<f32>) -> tuple<>
  return
}

// -----

func.func @ref_write_value(%r: !relay.ref<tensor<f32>>, %x: tensor<2xf32>) {
  // expected-error @+1 {{reference write: type mismatch: cannot unify '!relay.ref<tensor<f32>>' with '!relay.ref<tensor<2xf32>>' ('tensor<f32>' vs 'tensor<2xf32>')}}
  %u = relay.ref_write %r, %x : (!relay.ref<tensor<f32>>, tensor<2xf32>) -> tuple<>
  return
}

// -----

func.func @ref_write_result(%r: !relay.ref<tensor<f32>>, %x: tensor<f32>) {
  // expected-error @+1 {{result of reference write: type mismatch: cannot unify 'tensor<f32>' with 'tuple<>'}}
  %u = relay.ref_write %r, %x : (!relay.ref<tensor<f32>>, tensor<f32>) -> tensor<f32>
  return
}

// -----

// relay.grad
func.func @grad_not_fn(%x: tensor<f32>) {
  // expected-error @+1 {{operand must have a !relay.fn type, got 'tensor<f32>'}}
  %g = relay.grad %x : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @grad_param(%f: !relay.fn<(!relay.ref<tensor<f32>>) -> tensor<f32>>) {
  // expected-error @+1 {{can only differentiate with respect to tensors, tuples and ADT values; parameter #0 is '!relay.ref<tensor<f32>>'}}
  %g = relay.grad %f : (!relay.fn<(!relay.ref<tensor<f32>>) -> tensor<f32>>) -> !relay.fn<(!relay.ref<tensor<f32>>) -> tuple<tensor<f32>, tuple<!relay.ref<tensor<f32>>>>>
  return
}

// -----

// An integer parameter gets a zero gradient (as in Relay).
func.func @grad_int_param(%f: !relay.fn<(tensor<f32>, tensor<3xi32>) -> tensor<f32>>) -> !relay.fn<(tensor<f32>, tensor<3xi32>) -> tuple<tensor<f32>, tuple<tensor<f32>, tensor<3xi32>>>> {
  %g = relay.grad %f : (!relay.fn<(tensor<f32>, tensor<3xi32>) -> tensor<f32>>) -> !relay.fn<(tensor<f32>, tensor<3xi32>) -> tuple<tensor<f32>, tuple<tensor<f32>, tensor<3xi32>>>>
  return %g : !relay.fn<(tensor<f32>, tensor<3xi32>) -> tuple<tensor<f32>, tuple<tensor<f32>, tensor<3xi32>>>>
}

// -----

// With `wrt`, parameters left out may be anything.
func.func @grad_wrt_ok(%f: !relay.fn<(tensor<f32>, tuple<tensor<3xi32>>) -> tensor<f32>>) -> !relay.fn<(tensor<f32>, tuple<tensor<3xi32>>) -> tuple<tensor<f32>, tuple<tensor<f32>>>> {
  %g = relay.grad %f {wrt = array<i64: 0>} : (!relay.fn<(tensor<f32>, tuple<tensor<3xi32>>) -> tensor<f32>>) -> !relay.fn<(tensor<f32>, tuple<tensor<3xi32>>) -> tuple<tensor<f32>, tuple<tensor<f32>>>>
  return %g : !relay.fn<(tensor<f32>, tuple<tensor<3xi32>>) -> tuple<tensor<f32>, tuple<tensor<f32>>>>
}

// -----

func.func @grad_wrt_range(%f: !relay.fn<(tensor<f32>) -> tensor<f32>>) {
  // expected-error @+1 {{`wrt` names parameter #2 but the function has 1 parameter(s)}}
  %g = relay.grad %f {wrt = array<i64: 2>} : (!relay.fn<(tensor<f32>) -> tensor<f32>>) -> !relay.incomplete
  return
}

// -----

func.func @grad_wrt_twice(%f: !relay.fn<(tensor<f32>) -> tensor<f32>>) {
  // expected-error @+1 {{`wrt` names parameter #0 twice}}
  %g = relay.grad %f {wrt = array<i64: 0, 0>} : (!relay.fn<(tensor<f32>) -> tensor<f32>>) -> !relay.incomplete
  return
}

// -----

func.func @grad_result(%f: !relay.fn<(tensor<f32>) -> tensor<f32>>) {
  // expected-error @+1 {{result #0 has type '!relay.fn<(tensor<f32>) -> tensor<f32>>' but its typing rule gives '!relay.fn<(tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>>'}}
  %g = relay.grad %f : (!relay.fn<(tensor<f32>) -> tensor<f32>>) -> !relay.fn<(tensor<f32>) -> tensor<f32>>
  return
}
