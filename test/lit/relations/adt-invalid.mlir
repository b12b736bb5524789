// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{type parameter "T" is declared twice}}
relay.adt @Twice ["T", "T"] {
}

// -----

relay.adt @Bad ["T"] {
  // expected-error @+1 {{field #1 uses type parameter "U", which @Bad does not declare}}
  relay.constructor @C [!relay.tvar<"T">, tuple<!relay.tvar<"U">>]
}

// -----

relay.adt @Hole [] {
  // expected-error @+1 {{field #0 has an incomplete type}}
  relay.constructor @C [!relay.incomplete]
}

// -----

relay.adt @Body [] {
  // expected-error @+1 {{only relay.constructor may appear in a relay.adt body}}
  relay.adt @Inner [] {
  }
}

// -----

relay.adt @Tree ["T"] {
  // expected-error @+1 {{field #0: '!relay.adt<@Forest, !relay.tvar<"T">>' names @Forest, which is not a relay.adt}}
  relay.constructor @Node [!relay.adt<@Forest, !relay.tvar<"T">>]
}

// -----

relay.adt @List ["T"] {
  relay.constructor @Nil []
  // expected-error @+1 {{field #1: '!relay.adt<@List>' gives 0 type arguments but @List has 1 type parameters}}
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List>]
}

// -----

relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}
func.func @no_ctor() {
  // expected-error @+1 {{@List::@Snoc does not name a relay.constructor}}
  %n = relay.construct @List::@Snoc() : () -> !relay.adt<@List, tensor<f32>>
  return
}

// -----

relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}
func.func @field_count(%x: tensor<f32>) {
  // expected-error @+1 {{constructor @List::@Cons takes 2 fields, got 1}}
  %n = relay.construct @List::@Cons(%x) : (tensor<f32>) -> !relay.adt<@List, tensor<f32>>
  return
}

// -----

relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}
func.func @field_type(%x: tensor<f32>, %l: !relay.adt<@List, tensor<2xf32>>) {
  // expected-error @+1 {{field #1 of Cons: type mismatch: cannot unify '!relay.adt<@List, tensor<2xf32>>' with '!relay.adt<@List, tensor<f32>>' ('tensor<f32>' vs 'tensor<2xf32>')}}
  %n = relay.construct @List::@Cons(%x, %l) : (tensor<f32>, !relay.adt<@List, tensor<2xf32>>) -> !relay.adt<@List, tensor<f32>>
  return
}

// -----

relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}
func.func @result_type(%x: tensor<f32>, %l: !relay.adt<@List, tensor<f32>>) {
  // expected-error @+1 {{result of Cons: type mismatch: cannot unify '!relay.adt<@List, tensor<2xf32>>' with '!relay.adt<@List, tensor<f32>>' ('tensor<f32>' vs 'tensor<2xf32>')}}
  %n = relay.construct @List::@Cons(%x, %l) : (tensor<f32>, !relay.adt<@List, tensor<f32>>) -> !relay.adt<@List, tensor<2xf32>>
  return
}

// -----

relay.adt @List ["T"] {
  relay.constructor @Nil []
}
relay.adt @Nat [] {
  relay.constructor @Z []
}
func.func @wrong_adt() {
  // expected-error @+1 {{result of Nil: type mismatch: cannot unify '!relay.adt<@Nat>' with '!relay.adt<@List, !relay.incomplete>'}}
  %n = relay.construct @List::@Nil() : () -> !relay.adt<@Nat>
  return
}

// -----

relay.adt @List ["T"] {
  relay.constructor @Nil []
}
func.func @not_adt() {
  // expected-error @+1 {{result of Nil: type mismatch: cannot unify 'tensor<f32>' with '!relay.adt<@List, !relay.incomplete>'}}
  %n = relay.construct @List::@Nil() : () -> tensor<f32>
  return
}

// -----

relay.adt @List ["T"] {
  relay.constructor @Nil []
}
relay.adt @Box ["X"] {
  relay.constructor @B [!relay.tvar<"X">]
}
func.func @arity(%l: !relay.adt<@List, tensor<f32>, tensor<f32>>) {
  // expected-error @+1 {{field #0: '!relay.adt<@List, tensor<f32>, tensor<f32>>' gives 2 type arguments but @List has 1 type parameters}}
  %n = relay.construct @Box::@B(%l) : (!relay.adt<@List, tensor<f32>, tensor<f32>>) -> !relay.adt<@Box, !relay.adt<@List, tensor<f32>, tensor<f32>>>
  return
}

// -----

func.func @undefined(%x: !relay.adt<@Nowhere>) -> tensor<f32> {
  %d = relay.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{scrutinee: '!relay.adt<@Nowhere>' names @Nowhere, which is not a relay.adt}}
  %r = relay.match %x : !relay.adt<@Nowhere> -> tensor<f32> {
    case #relay.pat_wildcard {
      relay.yield %d : tensor<f32>
    }
  }
  return %r : tensor<f32>
}

// -----

relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}
func.func @match_no_ctor(%l: !relay.adt<@List, tensor<f32>>, %d: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{@List::@Snoc does not name a relay.constructor}}
  %r = relay.match %l : !relay.adt<@List, tensor<f32>> -> tensor<f32> {
    case #relay.pat_ctor<@List::@Snoc, []> {
      relay.yield %d : tensor<f32>
    }
  }
  return %r : tensor<f32>
}

// -----

relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}
func.func @match_field_count(%l: !relay.adt<@List, tensor<f32>>, %d: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{pattern of clause #0: constructor @List::@Cons has 2 fields, the pattern gives 1}}
  %r = relay.match %l : !relay.adt<@List, tensor<f32>> -> tensor<f32> {
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_var]> (%h: tensor<f32>) {
      relay.yield %h : tensor<f32>
    }
  }
  return %r : tensor<f32>
}

// -----

relay.adt @List ["T"] {
  relay.constructor @Nil []
}
relay.adt @Nat [] {
  relay.constructor @Z []
}
func.func @match_other_adt(%l: !relay.adt<@List, tensor<f32>>, %d: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{pattern of clause #0: type mismatch: cannot unify '!relay.adt<@List, tensor<f32>>' with '!relay.adt<@Nat>'}}
  %r = relay.match %l : !relay.adt<@List, tensor<f32>> -> tensor<f32> {
    case #relay.pat_ctor<@Nat::@Z, []> {
      relay.yield %d : tensor<f32>
    }
  }
  return %r : tensor<f32>
}

// -----

relay.adt @Nat [] {
  relay.constructor @Z []
}
func.func @match_not_adt(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{pattern of clause #0: type mismatch: cannot unify 'tensor<f32>' with '!relay.adt<@Nat>'}}
  %r = relay.match %x : tensor<f32> -> tensor<f32> {
    case #relay.pat_ctor<@Nat::@Z, []> {
      relay.yield %x : tensor<f32>
    }
  }
  return %r : tensor<f32>
}

// -----

relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}
func.func @match_var_type(%l: !relay.adt<@List, tensor<f32>>) -> tensor<2xf32> {
  // expected-error @+1 {{pattern of clause #0: type mismatch: cannot unify 'tensor<2xf32>' with 'tensor<f32>'}}
  %r = relay.match %l : !relay.adt<@List, tensor<f32>> -> tensor<2xf32> {
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_wildcard]> (%h: tensor<2xf32>) {
      relay.yield %h : tensor<2xf32>
    }
  }
  return %r : tensor<2xf32>
}

// -----

relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}
// Nested: the second element's pattern sees the substituted field type.
func.func @match_nested(%l: !relay.adt<@List, tensor<f32>>) -> !relay.adt<@List, tensor<2xf32>> {
  // expected-error @+1 {{pattern of clause #0: type mismatch: cannot unify '!relay.adt<@List, tensor<2xf32>>' with '!relay.adt<@List, tensor<f32>>' ('tensor<f32>' vs 'tensor<2xf32>')}}
  %r = relay.match %l : !relay.adt<@List, tensor<f32>> -> !relay.adt<@List, tensor<2xf32>> {
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_wildcard, #relay.pat_ctor<@List::@Cons, [#relay.pat_wildcard, #relay.pat_var]>]> (%t: !relay.adt<@List, tensor<2xf32>>) {
      relay.yield %t : !relay.adt<@List, tensor<2xf32>>
    }
  }
  return %r : !relay.adt<@List, tensor<2xf32>>
}

// -----

func.func @match_tuple(%p: tuple<tensor<f32>, tensor<f32>>) -> tensor<f32> {
  // expected-error @+1 {{pattern of clause #0: type mismatch: cannot unify 'tuple<tensor<f32>, tensor<f32>>' with 'tuple<!relay.incomplete, !relay.incomplete, !relay.incomplete>'}}
  %r = relay.match %p : tuple<tensor<f32>, tensor<f32>> -> tensor<f32> {
    case #relay.pat_tuple<[#relay.pat_var, #relay.pat_wildcard, #relay.pat_wildcard]> (%a: tensor<f32>) {
      relay.yield %a : tensor<f32>
    }
  }
  return %r : tensor<f32>
}

// -----

func.func @binders(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{clause #0 binds 1 variables but its region has 0 arguments}}
  %r = relay.match %x : tensor<f32> -> tensor<f32> {
    case #relay.pat_var {
      relay.yield %x : tensor<f32>
    }
  }
  return %r : tensor<f32>
}

// -----

func.func @yield_type(%x: tensor<f32>, %y: tensor<2xf32>) -> tensor<f32> {
  // expected-error @+1 {{clause #1: type mismatch: cannot unify 'tensor<2xf32>' with 'tensor<f32>'}}
  %r = relay.match %x : tensor<f32> -> tensor<f32> {
    case #relay.pat_var (%a: tensor<f32>) {
      relay.yield %a : tensor<f32>
    }
    case #relay.pat_wildcard {
      relay.yield %y : tensor<2xf32>
    }
  }
  return %r : tensor<f32>
}

// -----

func.func @no_clause(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{needs at least one clause}}
  %r = relay.match %x : tensor<f32> -> tensor<f32> {
  }
  return %r : tensor<f32>
}

// -----

// (no clause is allowed only on an ADT without constructors)
relay.adt @Opt [] {
  relay.constructor @Some [tensor<f32>]
}
func.func @no_clause_for_values(%x: !relay.adt<@Opt>) -> tensor<f32> {
  // expected-error @+1 {{needs at least one clause (@Opt has constructors)}}
  %r = relay.match %x : !relay.adt<@Opt> -> tensor<f32> {
  }
  return %r : tensor<f32>
}

// -----

func.func @not_pattern(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{clause #0: 7 : i64 is not a relay pattern}}
  %r = relay.match %x : tensor<f32> -> tensor<f32> {
    case 7 {
      relay.yield %x : tensor<f32>
    }
  }
  return %r : tensor<f32>
}

// -----

func.func @pattern_count(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{has 2 patterns but 1 clauses}}
  %r = "relay.match"(%x) ({
    relay.yield %x : tensor<f32>
  }) {patterns = [#relay.pat_wildcard, #relay.pat_wildcard]} : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// A clause without relay.yield (this used to abort in Block::getTerminator).
func.func @match_no_yield(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{clause #0 must end with relay.yield}}
  %r = relay.match %x : tensor<f32> -> tensor<f32> {
    case #relay.pat_wildcard {
      %y = relay.negative %x : (tensor<f32>) -> tensor<f32>
    }
  }
  return %r : tensor<f32>
}

// -----

// An ADT defined twice, and another ADT whose constructor names an ADT: the
// constructor is verified with its relay.adt, before the module checks that
// its symbols are unique (building the module's SymbolTable used to abort).
// expected-note @+1 {{see existing symbol definition here}}
relay.adt @List ["T"] {
  relay.constructor @Nil []
}
// expected-error @+1 {{redefinition of symbol named 'List'}}
relay.adt @List ["T"] {
  relay.constructor @Nil []
}
relay.adt @Nat [] {
  relay.constructor @Z []
  relay.constructor @S [!relay.adt<@Nat>]
}

// -----

// A constructor defined twice in one ADT.
relay.adt @Nat [] {
  // expected-note @+1 {{see existing symbol definition here}}
  relay.constructor @Z []
  // expected-error @+1 {{redefinition of symbol named 'Z'}}
  relay.constructor @Z []
  relay.constructor @S [!relay.adt<@Nat>]
}

// -----

// A function and an ADT with one name, the ADT used in a field and a match.
// expected-note @+1 {{see existing symbol definition here}}
func.func @Nat(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
// expected-error @+1 {{redefinition of symbol named 'Nat'}}
relay.adt @Nat [] {
  relay.constructor @Z []
  relay.constructor @S [!relay.adt<@Nat>]
}
func.func @f(%n: !relay.adt<@Nat>, %x: tensor<f32>) -> tensor<f32> {
  %r = relay.match %n : !relay.adt<@Nat> -> tensor<f32> {
    case #relay.pat_ctor<@Nat::@Z, []> {
      relay.yield %x : tensor<f32>
    }
    case #relay.pat_wildcard {
      relay.yield %x : tensor<f32>
    }
  }
  return %r : tensor<f32>
}
