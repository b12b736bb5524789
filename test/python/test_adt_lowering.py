"""ADTs, match and references compiled end to end (relay MLIR text -> IREE -> run).

The run-time layout (docs/design.md, "ADT values"): an ADT value is a list
[tag, boxed fields...], a reference a one-slot list. Expected values are
written with numpy here.
"""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.adt_value import ADT, RefValue
from relay_mlir.runtime import Executable

from conftest import cli_command, vulkan_device_reason

ADTS = """
relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}
relay.adt @Option ["T"] {
  relay.constructor @None []
  relay.constructor @Some [!relay.tvar<"T">]
}
"""

L2 = "!relay.adt<@List, tensor<2xf32>>"

# A three-element list [x, y, z] and its second element, by a nested pattern.
SECOND_OF_THREE = ADTS + f"""
func.func @main(%x: tensor<2xf32>, %y: tensor<2xf32>, %z: tensor<2xf32>) -> tensor<2xf32> {{
  %nil = relay.construct @List::@Nil() : () -> {L2}
  %l3 = relay.construct @List::@Cons(%z, %nil) : (tensor<2xf32>, {L2}) -> {L2}
  %l2 = relay.construct @List::@Cons(%y, %l3) : (tensor<2xf32>, {L2}) -> {L2}
  %l1 = relay.construct @List::@Cons(%x, %l2) : (tensor<2xf32>, {L2}) -> {L2}
  %r = relay.match %l1 : {L2} -> tensor<2xf32> {{
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_wildcard, #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_wildcard]>]> (%b: tensor<2xf32>) {{
      relay.yield %b : tensor<2xf32>
    }}
    case #relay.pat_wildcard {{
      relay.yield %x : tensor<2xf32>
    }}
  }}
  return %r : tensor<2xf32>
}}
"""

X = np.array([1.0, 2.0], "float32")
Y = np.array([10.0, 20.0], "float32")
Z = np.array([100.0, 200.0], "float32")


def test_second_of_three_element_list():
    exe = relay.compile(SECOND_OF_THREE)
    np.testing.assert_array_equal(exe(X, Y, Z), Y)
    np.testing.assert_array_equal(exe(Z, X, Y), X)




# Some(x * 2) or None by a run-time flag; the match doubles once more or
# gives -1s.
OPTION = ADTS + """
func.func @main(%x: tensor<2xf32>, %flag: tensor<i1>) -> tensor<2xf32> {
  %o = relay.if %flag : tensor<i1> -> !relay.adt<@Option, tensor<2xf32>> {
    %d = relay.add %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %s = relay.construct @Option::@Some(%d) : (tensor<2xf32>) -> !relay.adt<@Option, tensor<2xf32>>
    relay.yield %s : !relay.adt<@Option, tensor<2xf32>>
  } else {
    %n = relay.construct @Option::@None() : () -> !relay.adt<@Option, tensor<2xf32>>
    relay.yield %n : !relay.adt<@Option, tensor<2xf32>>
  }
  %r = relay.match %o : !relay.adt<@Option, tensor<2xf32>> -> tensor<2xf32> {
    case #relay.pat_ctor<@Option::@None, []> {
      %m = relay.constant dense<-1.0> : tensor<2xf32>
      relay.yield %m : tensor<2xf32>
    }
    case #relay.pat_ctor<@Option::@Some, [#relay.pat_var]> (%v: tensor<2xf32>) {
      %w = relay.add %v, %v : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      relay.yield %w : tensor<2xf32>
    }
  }
  return %r : tensor<2xf32>
}
"""


def test_option_some_and_none():
    exe = relay.compile(OPTION)
    np.testing.assert_array_equal(exe(X, np.array(True)), 4 * X)
    np.testing.assert_array_equal(exe(X, np.array(False)), [-1.0, -1.0])


# A list of n (0, 1 or 2) elements built at run time; clauses in order:
# Cons(a, Cons(b, _)) -> a + b, Cons(a, _) -> a, Nil -> -1s. n = 0 has a
# different outer constructor, n = 1 a different inner one.
NESTED = ADTS + f"""
func.func @main(%x: tensor<2xf32>, %y: tensor<2xf32>, %n: tensor<i32>) -> tensor<2xf32> {{
  %nil = relay.construct @List::@Nil() : () -> {L2}
  %one = relay.constant dense<1> : tensor<i32>
  %two = relay.constant dense<2> : tensor<i32>
  %ge1 = relay.greater_equal %n, %one : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %ge2 = relay.greater_equal %n, %two : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %tail = relay.if %ge2 : tensor<i1> -> {L2} {{
    %t = relay.construct @List::@Cons(%y, %nil) : (tensor<2xf32>, {L2}) -> {L2}
    relay.yield %t : {L2}
  }} else {{
    relay.yield %nil : {L2}
  }}
  %l = relay.if %ge1 : tensor<i1> -> {L2} {{
    %c = relay.construct @List::@Cons(%x, %tail) : (tensor<2xf32>, {L2}) -> {L2}
    relay.yield %c : {L2}
  }} else {{
    relay.yield %nil : {L2}
  }}
  %r = relay.match %l : {L2} -> tensor<2xf32> {{
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_wildcard]>]> (%a: tensor<2xf32>, %b: tensor<2xf32>) {{
      %s = relay.add %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      relay.yield %s : tensor<2xf32>
    }}
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_wildcard]> (%a: tensor<2xf32>) {{
      relay.yield %a : tensor<2xf32>
    }}
    case #relay.pat_ctor<@List::@Nil, []> {{
      %m = relay.constant dense<-1.0> : tensor<2xf32>
      relay.yield %m : tensor<2xf32>
    }}
  }}
  return %r : tensor<2xf32>
}}
"""


def test_nested_constructor_patterns():
    exe = relay.compile(NESTED)
    np.testing.assert_array_equal(exe(X, Y, np.array(2, "int32")), X + Y)
    np.testing.assert_array_equal(exe(X, Y, np.array(1, "int32")), X)
    np.testing.assert_array_equal(exe(X, Y, np.array(0, "int32")), [-1.0, -1.0])


# Tuple patterns: inside a constructor (a tuple field, stored as a nested
# list) and at the top of a tuple scrutinee that holds an ADT.
TUPLES = ADTS + """
func.func @main(%x: tensor<2xf32>, %y: tensor<3xi32>) -> tuple<tensor<3xi32>, tensor<2xf32>> {
  %t = relay.tuple %x, %y : (tensor<2xf32>, tensor<3xi32>) -> tuple<tensor<2xf32>, tensor<3xi32>>
  %s = relay.construct @Option::@Some(%t) : (tuple<tensor<2xf32>, tensor<3xi32>>) -> !relay.adt<@Option, tuple<tensor<2xf32>, tensor<3xi32>>>
  %p = relay.tuple %y, %s : (tensor<3xi32>, !relay.adt<@Option, tuple<tensor<2xf32>, tensor<3xi32>>>) -> tuple<tensor<3xi32>, !relay.adt<@Option, tuple<tensor<2xf32>, tensor<3xi32>>>>
  %r = relay.match %p : tuple<tensor<3xi32>, !relay.adt<@Option, tuple<tensor<2xf32>, tensor<3xi32>>>> -> tuple<tensor<3xi32>, tensor<2xf32>> {
    case #relay.pat_tuple<[#relay.pat_wildcard, #relay.pat_ctor<@Option::@None, []>]> {
      %u = relay.tuple %y, %x : (tensor<3xi32>, tensor<2xf32>) -> tuple<tensor<3xi32>, tensor<2xf32>>
      relay.yield %u : tuple<tensor<3xi32>, tensor<2xf32>>
    }
    case #relay.pat_tuple<[#relay.pat_var, #relay.pat_ctor<@Option::@Some, [#relay.pat_tuple<[#relay.pat_var, #relay.pat_var]>]>]> (%a: tensor<3xi32>, %b: tensor<2xf32>, %c: tensor<3xi32>) {
      %s2 = relay.add %a, %c : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
      %b2 = relay.negative %b : (tensor<2xf32>) -> tensor<2xf32>
      %u = relay.tuple %s2, %b2 : (tensor<3xi32>, tensor<2xf32>) -> tuple<tensor<3xi32>, tensor<2xf32>>
      relay.yield %u : tuple<tensor<3xi32>, tensor<2xf32>>
    }
  }
  return %r : tuple<tensor<3xi32>, tensor<2xf32>>
}
"""


def test_tuple_patterns():
    exe = relay.compile(TUPLES)
    y = np.array([1, 2, 3], "int32")
    a, b = exe(X, y)
    np.testing.assert_array_equal(a, 2 * y)
    np.testing.assert_array_equal(b, -X)


LD = "!relay.adt<@List, tensor<?xf32>>"

# A list of tensors with `?` dims: the second element's length comes from
# its boxed buffer view.
DYNAMIC = ADTS + f"""
func.func @main(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {{
  %nil = relay.construct @List::@Nil() : () -> {LD}
  %l2 = relay.construct @List::@Cons(%y, %nil) : (tensor<?xf32>, {LD}) -> {LD}
  %l1 = relay.construct @List::@Cons(%x, %l2) : (tensor<?xf32>, {LD}) -> {LD}
  %r = relay.match %l1 : {LD} -> tensor<?xf32> {{
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_wildcard, #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_wildcard]>]> (%b: tensor<?xf32>) {{
      %e = relay.exp %b : (tensor<?xf32>) -> tensor<?xf32>
      relay.yield %e : tensor<?xf32>
    }}
    case #relay.pat_wildcard {{
      relay.yield %x : tensor<?xf32>
    }}
  }}
  return %r : tensor<?xf32>
}}
"""


def test_dynamic_dims():
    exe = relay.compile(DYNAMIC)
    x = np.arange(3, dtype="float32")
    y = np.array([0.0, 1.0, -1.0, 2.0, 0.5], "float32")
    got = exe(x, y)
    assert got.shape == (5,)
    np.testing.assert_allclose(got, np.exp(y), rtol=1e-6)


# A reference written twice and read after each write; then written through
# an alias (the same cell inside Some) and read through the original.
REFS = ADTS + """
func.func @main(%x: tensor<2xf32>, %y: tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>> {
  %r = relay.ref_new %x : (tensor<2xf32>) -> !relay.ref<tensor<2xf32>>
  %one = relay.constant dense<1.0> : tensor<2xf32>
  %v0 = relay.ref_read %r : (!relay.ref<tensor<2xf32>>) -> tensor<2xf32>
  %w1 = relay.add %v0, %one : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %u1 = relay.ref_write %r, %w1 : (!relay.ref<tensor<2xf32>>, tensor<2xf32>) -> tuple<>
  %v1 = relay.ref_read %r : (!relay.ref<tensor<2xf32>>) -> tensor<2xf32>
  %w2 = relay.multiply %v1, %v1 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %u2 = relay.ref_write %r, %w2 : (!relay.ref<tensor<2xf32>>, tensor<2xf32>) -> tuple<>
  %v2 = relay.ref_read %r : (!relay.ref<tensor<2xf32>>) -> tensor<2xf32>
  %s = relay.construct @Option::@Some(%r) : (!relay.ref<tensor<2xf32>>) -> !relay.adt<@Option, !relay.ref<tensor<2xf32>>>
  %u3 = relay.match %s : !relay.adt<@Option, !relay.ref<tensor<2xf32>>> -> tuple<> {
    case #relay.pat_ctor<@Option::@Some, [#relay.pat_var]> (%alias: !relay.ref<tensor<2xf32>>) {
      %u = relay.ref_write %alias, %y : (!relay.ref<tensor<2xf32>>, tensor<2xf32>) -> tuple<>
      relay.yield %u : tuple<>
    }
    case #relay.pat_wildcard {
      %e = relay.tuple : () -> tuple<>
      relay.yield %e : tuple<>
    }
  }
  %v3 = relay.ref_read %r : (!relay.ref<tensor<2xf32>>) -> tensor<2xf32>
  %t = relay.tuple %v1, %v2, %v3 : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>>
  return %t : tuple<tensor<2xf32>, tensor<2xf32>, tensor<2xf32>>
}
"""


def test_ref_written_in_sequence_and_through_an_alias():
    exe = relay.compile(REFS)
    v1, v2, v3 = exe(X, Y)
    np.testing.assert_array_equal(v1, X + 1)
    np.testing.assert_array_equal(v2, (X + 1) ** 2)
    np.testing.assert_array_equal(v3, Y)


# main returns a List (its type left to inference) and a tuple holding an
# Option of a tuple and a reference.
RETURN_LIST = ADTS + f"""
func.func @main(%x: tensor<2xf32>, %y: tensor<2xf32>) -> !relay.incomplete {{
  %nil = relay.construct @List::@Nil() : () -> !relay.incomplete
  %l2 = relay.construct @List::@Cons(%y, %nil) : (tensor<2xf32>, !relay.incomplete) -> !relay.incomplete
  %l1 = relay.construct @List::@Cons(%x, %l2) : (tensor<2xf32>, !relay.incomplete) -> !relay.incomplete
  return %l1 : !relay.incomplete
}}
"""


def test_return_list_to_python():
    exe = relay.compile(RETURN_LIST)
    got = exe(X, Y)
    assert isinstance(got, ADT)
    assert (got.tag, got.constructor, got.adt, len(got.fields)) == (1, "Cons", "List", 2)
    np.testing.assert_array_equal(got.fields[0], X)
    tail = got.fields[1]
    assert (tail.tag, tail.constructor) == (1, "Cons")
    np.testing.assert_array_equal(tail[0], Y)
    assert (tail[1].tag, tail[1].constructor, tail[1].fields) == (0, "Nil", ())
    assert repr(got).startswith("Cons(array([1., 2.]")


RETURN_MIXED = ADTS + """
func.func @main(%x: tensor<2xf32>, %i: tensor<i32>) -> tuple<tensor<2xf32>, !relay.adt<@Option, tuple<tensor<i32>, !relay.ref<tensor<2xf32>>>>> {
  %r = relay.ref_new %x : (tensor<2xf32>) -> !relay.ref<tensor<2xf32>>
  %t = relay.tuple %i, %r : (tensor<i32>, !relay.ref<tensor<2xf32>>) -> tuple<tensor<i32>, !relay.ref<tensor<2xf32>>>
  %s = relay.construct @Option::@Some(%t) : (tuple<tensor<i32>, !relay.ref<tensor<2xf32>>>) -> !relay.adt<@Option, tuple<tensor<i32>, !relay.ref<tensor<2xf32>>>>
  %neg = relay.negative %x : (tensor<2xf32>) -> tensor<2xf32>
  %o = relay.tuple %neg, %s : (tensor<2xf32>, !relay.adt<@Option, tuple<tensor<i32>, !relay.ref<tensor<2xf32>>>>) -> tuple<tensor<2xf32>, !relay.adt<@Option, tuple<tensor<i32>, !relay.ref<tensor<2xf32>>>>>
  return %o : tuple<tensor<2xf32>, !relay.adt<@Option, tuple<tensor<i32>, !relay.ref<tensor<2xf32>>>>>
}
"""


def test_return_tuple_with_adt_tuple_field_and_ref():
    exe = relay.compile(RETURN_MIXED)
    neg, some = exe(X, np.array(7, "int32"))
    np.testing.assert_array_equal(neg, -X)
    assert (some.tag, some.constructor) == (1, "Some")
    (i, ref), = some.fields
    assert i == 7 and i.dtype == np.int32
    assert isinstance(ref, RefValue)
    np.testing.assert_array_equal(ref.value, X)


# `match?` with only the Cons clause, given Nil at run time.
INCOMPLETE = ADTS + f"""
func.func @main(%x: tensor<2xf32>, %flag: tensor<i1>) -> tensor<2xf32> {{
  %nil = relay.construct @List::@Nil() : () -> {L2}
  %c = relay.construct @List::@Cons(%x, %nil) : (tensor<2xf32>, {L2}) -> {L2}
  %l = relay.if %flag : tensor<i1> -> {L2} {{
    relay.yield %c : {L2}
  }} else {{
    relay.yield %nil : {L2}
  }}
  %r = relay.match %l : {L2} -> tensor<2xf32> attributes {{complete = false}} {{
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_wildcard]> (%h: tensor<2xf32>) {{
      relay.yield %h : tensor<2xf32>
    }}
  }}
  return %r : tensor<2xf32>
}}
"""


def test_incomplete_match_fails_at_run_time():
    exe = relay.compile(INCOMPLETE, source_name="incomplete.mlir")
    np.testing.assert_array_equal(exe(X, np.array(True)), X)
    with pytest.raises(RuntimeError, match=r"FAILED_PRECONDITION; no clause of the relay.match at incomplete.mlir:\d+:\d+ "
                                        r"matches the value"):
        exe(X, np.array(False))


# ADT values and references passed to main: the second element of a list of
# `?`-length tensors (or the default), the list itself back, a reference's
# content plus one.
ADT_INPUT = ADTS + f"""
func.func @main(%l: {LD}, %d: tensor<?xf32>, %r: !relay.ref<tensor<2xf32>>) -> tuple<tensor<?xf32>, {LD}, tensor<2xf32>> {{
  %s = relay.match %l : {LD} -> tensor<?xf32> {{
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_wildcard, #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_wildcard]>]> (%b: tensor<?xf32>) {{
      relay.yield %b : tensor<?xf32>
    }}
    case #relay.pat_wildcard {{
      relay.yield %d : tensor<?xf32>
    }}
  }}
  %v = relay.ref_read %r : (!relay.ref<tensor<2xf32>>) -> tensor<2xf32>
  %one = relay.constant dense<1.0> : tensor<2xf32>
  %w = relay.add %v, %one : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %t = relay.tuple %s, %l, %w : (tensor<?xf32>, {LD}, tensor<2xf32>) -> tuple<tensor<?xf32>, {LD}, tensor<2xf32>>
  return %t : tuple<tensor<?xf32>, {LD}, tensor<2xf32>>
}}
"""


def _pylist(*items):
    out = ADT(0, "Nil")
    for item in reversed(items):
        out = ADT(1, "Cons", (item, out))
    return out


def test_adt_and_ref_inputs_to_main():
    exe = relay.compile(ADT_INPUT)
    a = np.arange(3, dtype="float32")
    b = np.array([7.0, 8.0, 9.0, 10.0], "float32")
    d = np.array([-1.0], "float32")
    second, back, w = exe(_pylist(a, b), d, RefValue(X))
    # driver "auto" does not repeat a call whose arguments are lists main may write into
    auto = Executable(exe.vmfb, driver="auto", result_layout=exe.result_layout,
                      result_dtypes=exe.result_dtypes)
    np.testing.assert_array_equal(auto(_pylist(a, b), d, RefValue(X))[0], b)
    assert (auto.requested_driver, auto.driver, auto.driver_timings) == ("auto", "local-task", {})
    np.testing.assert_array_equal(second, b)
    assert back.constructor == "Cons" and back[1].constructor == "Cons" and back[1][1].constructor == "Nil"
    np.testing.assert_array_equal(back[0], a)
    np.testing.assert_array_equal(back[1][0], b)
    np.testing.assert_array_equal(w, X + 1)
    second, back, _ = exe(_pylist(a), d, RefValue(X))  # the outer Cons matches, the inner does not
    np.testing.assert_array_equal(second, d)
    assert back[1].constructor == "Nil"
    with pytest.raises(TypeError, match="argument #0.Cons\\[1\\]: @List has no constructor 'Empty' "
                                        "\\(it has Nil, Cons\\)"):
        exe(ADT(1, "Cons", (a, ADT(0, "Empty"))), d, RefValue(X))
    with pytest.raises(TypeError, match="argument #2: expected a reference"):
        exe(_pylist(a), d, X)


LI = "!relay.adt<@List, tensor<2xi32>>"
OPT = "!relay.adt<@Option, tuple<tensor<2xui8>, tensor<2xi1>>>"

# ADTs passed to and returned from a (non-recursive) global function, a
# match nested in a clause, and unsigned / bool fields computed in the
# program (the lowering makes them signless; Python gives back the relay
# dtypes).
CALLS = ADTS + f"""
func.func @sum_first_two(%l: {LI}) -> tensor<2xi32> {{
  %r = relay.match %l : {LI} -> tensor<2xi32> {{
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_var]> (%a: tensor<2xi32>, %t: {LI}) {{
      %s = relay.match %t : {LI} -> tensor<2xi32> {{
        case #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_wildcard]> (%b: tensor<2xi32>) {{
          %ab = relay.add %a, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
          relay.yield %ab : tensor<2xi32>
        }}
        case #relay.pat_wildcard {{
          relay.yield %a : tensor<2xi32>
        }}
      }}
      relay.yield %s : tensor<2xi32>
    }}
    case #relay.pat_wildcard {{
      %z = relay.constant dense<0> : tensor<2xi32>
      relay.yield %z : tensor<2xi32>
    }}
  }}
  return %r : tensor<2xi32>
}}

func.func @pack(%x: tensor<2xui8>, %b: tensor<2xi1>) -> {OPT} {{
  %x2 = relay.add %x, %x : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  %nb = relay.logical_not %b : (tensor<2xi1>) -> tensor<2xi1>
  %t = relay.tuple %x2, %nb : (tensor<2xui8>, tensor<2xi1>) -> tuple<tensor<2xui8>, tensor<2xi1>>
  %s = relay.construct @Option::@Some(%t) : (tuple<tensor<2xui8>, tensor<2xi1>>) -> {OPT}
  return %s : {OPT}
}}

func.func @main(%x: tensor<2xui8>, %b: tensor<2xi1>, %y: tensor<2xi32>) -> tuple<tensor<2xi32>, tensor<2xi32>, {OPT}> {{
  %nil = relay.construct @List::@Nil() : () -> {LI}
  %l1 = relay.construct @List::@Cons(%y, %nil) : (tensor<2xi32>, {LI}) -> {LI}
  %l2 = relay.construct @List::@Cons(%y, %l1) : (tensor<2xi32>, {LI}) -> {LI}
  %s1 = func.call @sum_first_two(%l1) : ({LI}) -> tensor<2xi32>
  %s2 = func.call @sum_first_two(%l2) : ({LI}) -> tensor<2xi32>
  %o = func.call @pack(%x, %b) : (tensor<2xui8>, tensor<2xi1>) -> {OPT}
  %r = relay.tuple %s1, %s2, %o : (tensor<2xi32>, tensor<2xi32>, {OPT}) -> tuple<tensor<2xi32>, tensor<2xi32>, {OPT}>
  return %r : tuple<tensor<2xi32>, tensor<2xi32>, {OPT}>
}}
"""


def test_calls_nested_match_and_small_dtypes():
    exe = relay.compile(CALLS)
    x = np.array([200, 3], "uint8")
    b = np.array([True, False])
    y = np.array([5, -7], "int32")
    s1, s2, o = exe(x, b, y)
    np.testing.assert_array_equal(s1, y)
    np.testing.assert_array_equal(s2, 2 * y)
    assert o.constructor == "Some"
    (x2, nb), = o.fields
    assert x2.dtype == np.uint8 and nb.dtype == np.bool_
    np.testing.assert_array_equal(x2, x + x)  # wraps: 200 + 200 = 144
    np.testing.assert_array_equal(nb, ~b)


def test_cli_run_prints_a_returned_list(tmp_path):
    src = tmp_path / "list.mlir"
    src.write_text(RETURN_LIST)
    np.save(tmp_path / "x.npy", X)
    np.save(tmp_path / "y.npy", Y)
    base = cli_command("relay-mlir") + ["run", str(src), "--input", str(tmp_path / "x.npy"),
                                        "--input", str(tmp_path / "y.npy"), "--runs", "1"]
    r = subprocess.run(base, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "output 0: Cons(array([1., 2.], dtype=float32), Cons(array([10., 20.], dtype=float32), Nil))" \
        in r.stdout
    r = subprocess.run(base + ["--output", str(tmp_path / "o.npz")], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 1 and "--output saves arrays only" in r.stderr


# The same modules serve the GPU target (lavapipe Vulkan here): lists,
# boxed tensors and the run-time failure are host-side VM code.
@pytest.mark.parametrize("program", ["second_of_three", "refs", "incomplete"])
def test_vulkan(program):
    reason = vulkan_device_reason()
    if reason:
        pytest.skip(reason)
    src = {"second_of_three": SECOND_OF_THREE, "refs": REFS, "incomplete": INCOMPLETE}[program]
    exe = relay.compile(src, target="vulkan-spirv")
    if program == "second_of_three":
        np.testing.assert_array_equal(exe(X, Y, Z), Y)
    elif program == "refs":
        v1, v2, v3 = exe(X, Y)
        np.testing.assert_array_equal(v1, X + 1)
        np.testing.assert_array_equal(v2, (X + 1) ** 2)
        np.testing.assert_array_equal(v3, Y)
    else:
        np.testing.assert_array_equal(exe(X, np.array(True)), X)
        with pytest.raises(RuntimeError, match="no clause of the relay.match"):
            exe(X, np.array(False))


# A match whose clauses yield ADT values (the scf.if chain carries lists).
TAIL = ADTS + f"""
func.func @main(%x: tensor<2xf32>, %y: tensor<2xf32>, %n: tensor<i1>) -> {L2} {{
  %nil = relay.construct @List::@Nil() : () -> {L2}
  %l1 = relay.construct @List::@Cons(%y, %nil) : (tensor<2xf32>, {L2}) -> {L2}
  %l2 = relay.construct @List::@Cons(%x, %l1) : (tensor<2xf32>, {L2}) -> {L2}
  %l = relay.if %n : tensor<i1> -> {L2} {{
    relay.yield %l2 : {L2}
  }} else {{
    relay.yield %nil : {L2}
  }}
  %t = relay.match %l : {L2} -> {L2} {{
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_wildcard, #relay.pat_var]> (%rest: {L2}) {{
      relay.yield %rest : {L2}
    }}
    case #relay.pat_ctor<@List::@Nil, []> {{
      %one = relay.construct @List::@Cons(%x, %nil) : (tensor<2xf32>, {L2}) -> {L2}
      relay.yield %one : {L2}
    }}
  }}
  return %t : {L2}
}}
"""


def test_match_yielding_lists():
    exe = relay.compile(TAIL)
    t = exe(X, Y, np.array(True))
    assert t.constructor == "Cons" and t[1].constructor == "Nil"
    np.testing.assert_array_equal(t[0], Y)
    t = exe(X, Y, np.array(False))
    assert t.constructor == "Cons" and t[1].constructor == "Nil"
    np.testing.assert_array_equal(t[0], X)
