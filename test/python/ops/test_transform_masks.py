"""Numerics of TVM 0.19's trilu, sequence_mask, reverse_sequence, meshgrid, unravel_index,
invert_permutation, matrix_set_diag, collapse_sum_to, contrib_reverse_reshape
(``relay.reverse_reshape``) and sliding_window on llvm-cpu.

Every case is one function of ONE module compiled once (the _nn_common harness); the
references are the numpy ones of _tvm019_refs.py (explicit loops; checked against TVM
0.19 through scripts/tvm_op_probe.py's session-27 cases). The ``*_tvm019`` cases compare
with outputs recorded from TVM 0.19 itself (its VM on llvm, TIR CSE and vectorisation
off for unravel_index, whose vectorised floormod TVM's LLVM codegen rejects), written
here as literals. Cases whose name ends in ``[?]`` have a ``?`` dim and run at two sizes.
Everything is exact (data movement and integer arithmetic) except collapse_sum_to
(float32 sums: rtol 1e-5).
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
import _tvm019_refs as ref
from _nn_common import EXACT, Any, Cases, check_case, compile_cases, make_case, make_rand, v

rand = make_rand(27)
F32 = dict(rtol=1e-5, atol=1e-5)

CASES: Cases = {}
case = make_case(CASES)


def K(a, dtype):
    return relay.const(np.array(a, dtype=dtype))


def ints(*shape, lo=-3, hi=8, dtype="int32"):
    return rand(*shape, lo=lo, hi=hi, dtype=dtype)


# -- trilu ---------------------------------------------------------------------------------------
x, k = v("x", (2, 4, 5)), v("k", (), "int32")
for kv in (0, 2, -1, -4):
    case(f"trilu_upper_k{kv}", [x, k], relay.trilu(x, k), [[rand(2, 4, 5), np.array(kv, "int32")]],
         lambda x, k: ref.trilu(x, int(k)), EXACT)
x = v("x", (Any(), 3), "int8")
case("trilu_lower_int8_const_k[?]", [x], relay.trilu(x, 1, upper=False),
     [[ints(4, 3, dtype="int8")], [ints(1, 3, dtype="int8")]], lambda x: ref.trilu(x, 1, False), EXACT)
x, k = v("x", (3, 4)), v("k", (), "int64")
case("trilu_i64_k", [x, k], relay.trilu(x, k, upper=False), [[rand(3, 4), np.array(-1, "int64")]],
     lambda x, k: ref.trilu(x, int(k), False), EXACT)
x = v("x", (3, 4))
_x34 = np.arange(12, dtype="float32").reshape(3, 4)
case("trilu_tvm019", [x], relay.Tuple([relay.trilu(x, 1, upper=False), relay.trilu(x, -1)]), [[_x34]],
     lambda x: (np.array([[0, 1, 0, 0], [4, 5, 6, 0], [8, 9, 10, 11]], "float32"),
                np.array([[0, 1, 2, 3], [4, 5, 6, 7], [0, 9, 10, 11]], "float32")), EXACT)

# -- sequence_mask, reverse_sequence --------------------------------------------------------------
x, n = v("x", (5, 3, 2)), v("n", (3,), "int32")
case("sequence_mask_axis0", [x, n], relay.sequence_mask(x, n, -1.5), [[rand(5, 3, 2), np.array([2, 0, 7], "int32")]],
     lambda x, n: ref.sequence_mask(x, n, -1.5, 0), EXACT)
x, n = v("x", (Any(), 4), "int32"), v("n", (Any(),), "int64")
case("sequence_mask_axis1_int[?]", [x, n], relay.sequence_mask(x, n, 7, axis=1),
     [[ints(3, 4), np.array([1, 4, -2], "int64")], [ints(2, 4), np.array([0, 3], "int64")]],
     lambda x, n: ref.sequence_mask(x, n, 7, 1), EXACT)
x = v("x", (3, 2))
case("sequence_mask_tvm019", [x], relay.sequence_mask(x, K([1, 3], "int32"), -1.0, 0),
     [[np.arange(6, dtype="float32").reshape(3, 2)]],
     lambda x: np.array([[0, 1], [-1, 3], [-1, 5]], "float32"), EXACT)
x, n = v("x", (3, Any())), v("n", (3,), "int32")
case("reverse_sequence_10[?]", [x, n], relay.reverse_sequence(x, n),
     [[rand(3, 6), np.array([1, 4, 9], "int32")], [rand(3, 2), np.array([0, 2, -1], "int32")]],
     lambda x, n: ref.reverse_sequence(x, n, 1, 0), EXACT)
x, n = v("x", (5, 2, 3), "int16"), v("n", (2,), "int64")
case("reverse_sequence_01_negative_axes", [x, n], relay.reverse_sequence(x, n, -3, -2),
     [[ints(5, 2, 3, dtype="int16"), np.array([3, 5], "int64")]], lambda x, n: ref.reverse_sequence(x, n, 0, 1), EXACT)
x = v("x", (2, 4))
case("reverse_sequence_tvm019", [x], relay.reverse_sequence(x, K([3, 9], "int32"), 1, 0),
     [[np.arange(8, dtype="float32").reshape(2, 4)]],
     lambda x: np.array([[2, 1, 0, 3], [7, 6, 5, 4]], "float32"), EXACT)

# -- meshgrid (a tuple result) ---------------------------------------------------------------------
a, b, s = v("a", (3,)), v("b", (Any(),)), v("s", ())
for ix in ("ij", "xy"):
    case(f"meshgrid_{ix}[?]", [a, b, s], relay.meshgrid([a, b, s], indexing=ix).astuple(),
         [[rand(3), rand(4), rand()], [rand(3), rand(1), rand()]],
         lambda a, b, s, ix=ix: tuple(ref.meshgrid(a, b, s, indexing=ix)), EXACT)
a, b = v("a", (2,)), v("b", (3,))
case("meshgrid_xy_tvm019", [a, b], relay.meshgrid([a, b], indexing="xy").astuple(),
     [[np.array([1, 2], "float32"), np.array([3, 4, 5], "float32")]],
     lambda a, b: (np.array([[1, 2], [1, 2], [1, 2]], "float32"), np.array([[3, 3], [4, 4], [5, 5]], "float32")),
     EXACT)

# -- unravel_index, invert_permutation ----------------------------------------------------------------
i, sh = v("i", (Any(),), "int32"), v("sh", (3,), "int32")
case("unravel_index_vec[?]", [i, sh], relay.unravel_index(i, sh),
     [[np.array([0, 5, 13, 29, -1, -7], "int32"), np.array([3, 2, 5], "int32")],
      [np.array([7], "int32"), np.array([2, 2, 2], "int32")]],
     lambda i, sh: ref.unravel_index(i, sh), EXACT)
i, sh = v("i", (), "int64"), v("sh", (2,), "int64")
case("unravel_index_scalar", [i, sh], relay.unravel_index(i, sh), [[np.array(17, "int64"), np.array([4, 6], "int64")]],
     lambda i, sh: ref.unravel_index(i, sh), EXACT)
i = v("i", (4,), "int32")
case("unravel_index_tvm019", [i], relay.unravel_index(i, K([3, 4], "int32")), [[np.array([-1, 7, 13, 5], "int32")]],
     lambda i: np.array([[2, 1, 0, 1], [3, 3, 1, 1]], "int32"), EXACT)
p = v("p", (Any(),), "int64")
case("invert_permutation[?]", [p], relay.invert_permutation(p),
     [[np.array([3, 0, 5, 1, 4, 2], "int64")], [np.array([0], "int64")]], ref.invert_permutation, EXACT)
p = v("p", (5,), "int32")
case("invert_permutation_tvm019", [p], relay.invert_permutation(p), [[np.array([3, 0, 4, 1, 2], "int32")]],
     lambda p: np.array([1, 3, 4, 0, 2], "int32"), EXACT)

# -- matrix_set_diag ----------------------------------------------------------------------------------
x = v("x", (2, 3, 4))
for kk, dshape in [(0, (2, 3)), (2, (2, 2)), (-2, (2, 1)), ((-1, 1), (2, 3, 3)), ((0, 2), (2, 3, 3)),
                   ((-2, 0), (2, 3, 3))]:
    for align in ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT"):
        if np.isscalar(kk) and align != "RIGHT_LEFT":
            continue
        d = v("d", dshape)
        case(f"matrix_set_diag_{kk}_{align}", [x, d], relay.matrix_set_diag(x, d, k=kk, align=align),
             [[rand(2, 3, 4), rand(*dshape)]], lambda x, d, kk=kk, al=align: ref.matrix_set_diag(x, d, kk, al), EXACT)
x, d = v("x", (Any(), 4, 3), "int32"), v("d", (Any(), 2, 3), "int32")
case("matrix_set_diag_int_batch[?]", [x, d], relay.matrix_set_diag(x, d, k=(-1, 0), align="LEFT_RIGHT"),
     [[ints(2, 4, 3), ints(2, 2, 3)], [ints(1, 4, 3), ints(1, 2, 3)]],
     lambda x, d: ref.matrix_set_diag(x, d, (-1, 0), "LEFT_RIGHT"), EXACT)
x = v("x", (3, 4))
case("matrix_set_diag_tvm019", [x], relay.matrix_set_diag(x, K(-np.arange(1, 10).reshape(3, 3), "float32"),
                                                          k=(0, 2), align="RIGHT_RIGHT"),
     [[_x34]], lambda x: np.array([[-7, -4, -2, 3], [4, -8, -5, -3], [8, 9, -9, -6]], "float32"), EXACT)

# -- collapse_sum_to, reverse_reshape, sliding_window ----------------------------------------------------
x = v("x", (2, 3, 4))
case("collapse_sum_to", [x], relay.collapse_sum_to(x, (3, 1)), [[rand(2, 3, 4)]],
     lambda x: ref.collapse_sum_to(x, (3, 1)), F32)
x = v("x", (Any(), 3, 4), "int32")
case("collapse_sum_to_int[?]", [x], relay.collapse_sum_to(x, K([1, 4], "int64")),
     [[ints(2, 3, 4)], [ints(1, 3, 4)]], lambda x: ref.collapse_sum_to(x, (1, 4)), EXACT)
x = v("x", (2, 3, 4))
case("collapse_sum_to_tvm019", [x], relay.collapse_sum_to(x, (3, 1)), [[np.arange(24, dtype="float32").reshape(2, 3, 4)]],
     lambda x: np.array([[60], [92], [124]], "float32"), F32)
x = v("x", (Any(), 5, 4))
case("reverse_reshape_m1_0[?]", [x], relay.reverse_reshape(x, (-1, 0)), [[rand(10, 5, 4)], [rand(1, 5, 4)]],
     lambda x: ref.reverse_reshape(x, (-1, 0)), EXACT)
x = v("x", (10, 5, 4))
case("reverse_reshape_0_m1", [x], relay.reverse_reshape(x, (0, -1)), [[rand(10, 5, 4)]],
     lambda x: ref.reverse_reshape(x, (0, -1)), EXACT)
x = v("x", (2, 3, 4))
case("reverse_reshape_m3_tvm019", [x], relay.reverse_reshape(x, (-3, 4)), [[rand(2, 3, 4)]],
     lambda x: x.reshape(6, 4), EXACT)  # TVM 0.19 types it [6, 4]
x = v("x", (2, 6, 7))
case("sliding_window_axis1", [x], relay.sliding_window(x, 1, (3, 2), (2, 1)), [[rand(2, 6, 7)]],
     lambda x: ref.sliding_window(x, 1, (3, 2), (2, 1)), EXACT)
case("sliding_window_axis0", [x], relay.sliding_window(x, 0, (2, 3, 2), (1, 2, 3)), [[rand(2, 6, 7)]],
     lambda x: ref.sliding_window(x, 0, (2, 3, 2), (1, 2, 3)), EXACT)
x = v("x", (2, Any()), "int32")
case("sliding_window_dyn[?]", [x], relay.sliding_window(x, 1, (3,), (2,)), [[ints(2, 8)], [ints(2, 3)]],
     lambda x: ref.sliding_window(x, 1, (3,), (2,)), EXACT)
x = v("x", (2, 5))
case("sliding_window_tvm019", [x], relay.sliding_window(x, 1, (3,), (2,)), [[np.arange(10, dtype="float32").reshape(2, 5)]],
     lambda x: np.array([[[0, 1, 2], [2, 3, 4]], [[5, 6, 7], [7, 8, 9]]], "float32"), EXACT)


@pytest.fixture(scope="module")
def compiled():
    return compile_cases(CASES)


@pytest.mark.parametrize("name", list(CASES))
def test_transform_masks(compiled, name):
    check_case(compiled, CASES, name)


def test_text_forms_read_what_tvm_prints():
    """Calls as TVM 0.19 prints them without the metadata section (its astext); the
    metadata forms (TriluAttrs, InitOpAttrs, DilateAttrs) are in the text corpus
    (test/data/relay_text/tvm019_ops.relay)."""
    text = """#[version = "0.0.5"]
def @main(%x: Tensor[(2, 3, 4), float32], %d: Tensor[(2, 3, 3), float32], %a: Tensor[(3), float32],
          %b: Tensor[(4), float32]) {
  %0 = trilu(%x, 1i64 /* ty=int64 */, upper=False);
  %1 = matrix_set_diag(%x, %d, k1=-1, k2=1, super_diag_right_align=False, sub_diag_right_align=True);
  %2 = (%a, %b);
  %3 = meshgrid(%2, indexing="xy");
  %4 = contrib_reverse_reshape(%x, newshape=[-1, 0]);
  %5 = sliding_window(%x, axis=1, window_shape=[2, 2], strides=[1, 2]);
  (%0, %1, %3.1, %4, %5)
}"""
    mod = relay.transform.InferType()(relay.fromtext(text))
    t = mod["main"].body.checked_type
    assert [tuple(f.concrete_shape) for f in t.fields] == [(2, 3, 4), (2, 3, 4), (4, 3), (6, 4),
                                                           (2, 2, 2, 2, 2)]
    again = relay.fromtext(mod.astext())  # our printout reads back
    assert relay.transform.InferType()(again)["main"].body.checked_type == t


def test_builder_checks():
    x = relay.var("x", shape=(3, 4))
    with pytest.raises(ValueError, match="align"):
        relay.matrix_set_diag(x, relay.var("d", shape=(3,)), align="UP")
    with pytest.raises(TypeError, match="collapse_sum_to"):
        relay.collapse_sum_to(x, relay.var("s", shape=(2,), dtype="int32"))
    mod = relay.IRModule.from_expr(relay.Function([x], relay.trilu(x, relay.const(1.5))))
    with pytest.raises(relay.CompileError, match="operand 'k' must be a 0-d integer tensor"):
        relay.transform.InferType()(mod)


def test_reverse_reshape_is_contrib_reverse_reshape():
    """``relay.reverse_reshape`` builds TVM's operator ``contrib_reverse_reshape``."""
    call = relay.reverse_reshape(relay.var("x", shape=(2, 3, 4)), (-1, 0))
    assert call.op.name == "contrib_reverse_reshape" and call.attrs == {"newshape": [-1, 0]}
