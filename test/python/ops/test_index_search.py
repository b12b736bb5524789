"""Numerics of TVM 0.19's searchsorted and sparse_to_dense on llvm-cpu.

One module compiled once (the _nn_common harness); references from _tvm019_refs.py
(explicit counting and scattering loops), ``*_tvm019`` cases against outputs recorded from
TVM 0.19 (its VM on llvm). Everything is exact. Cases whose name ends in ``[?]`` have a
``?`` dim and run at two sizes.
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
import _tvm019_refs as ref
from _nn_common import EXACT, Any, Cases, check_case, compile_cases, make_case, make_rand, v

rand = make_rand(271)

CASES: Cases = {}
case = make_case(CASES)


def K(a, dtype):
    return relay.const(np.array(a, dtype=dtype))


# -- searchsorted (ties on both sides, 1-D and batched sequences, int and float) ---------------------
_srt = np.sort(rand(2, 6), axis=-1)
_srt[0, 2] = _srt[0, 3]
s, x = v("s", (2, 6)), v("x", (2, 9))
for right in (False, True):
    case(f"searchsorted_2d_right{right}", [s, x], relay.searchsorted(s, x, right=right),
         [[_srt, np.concatenate([rand(2, 5), _srt[:, :4]], axis=1)]],
         lambda s, x, r=right: ref.searchsorted(s, x, r), EXACT)
s, x = v("s", (Any(),), "int32"), v("x", (3, Any()), "int32")
for right in (False, True):
    case(f"searchsorted_1d_int_right{right}[?]", [s, x], relay.searchsorted(s, x, right=right, dtype="int64"),
         [[np.array([-3, 0, 0, 2, 5, 5, 9], "int32"), rand(3, 4, lo=-5, hi=10, dtype="int32")],
          [np.array([1], "int32"), rand(3, 2, lo=0, hi=3, dtype="int32")]],
         lambda s, x, r=right: ref.searchsorted(s, x, r, "int64"), EXACT)
s, x = v("s", (5,)), v("x", (2, 3))
for right, want in ((False, [[0, 1, 3], [4, 5, 0]]), (True, [[0, 3, 3], [5, 5, 1]])):
    case(f"searchsorted_tvm019_right{right}", [s, x], relay.searchsorted(s, x, right=right),
         [[np.array([1, 2, 2, 3, 5], "float32"), np.array([[0, 2, 2.5], [5, 6, 1]], "float32")]],
         lambda s, x, w=want: np.array(w, "int32"), EXACT)

# -- sparse_to_dense ----------------------------------------------------------------------------------
i, vals = v("i", (Any(), 2), "int64"), v("vals", (Any(),))
case("sparse_to_dense_2d[?]", [i, vals], relay.sparse_to_dense(i, (3, 4), vals, relay.const(-1.0)),
     [[np.array([[0, 1], [2, 3], [1, 0]], "int64"), rand(3)], [np.array([[2, 2]], "int64"), rand(1)]],
     lambda i, vals: ref.sparse_to_dense(i, (3, 4), vals, -1.0), EXACT)
i, vals, d = v("i", (3,), "int32"), v("vals", (), "int32"), v("d", (), "int32")
case("sparse_to_dense_1d_scalar_value", [i, vals, d], relay.sparse_to_dense(i, (6,), vals, d),
     [[np.array([5, 0, 3], "int32"), np.array(7, "int32"), np.array(-2, "int32")]],
     lambda i, vals, d: ref.sparse_to_dense(i, (6,), vals, d), EXACT)
i, vals = v("i", (), "int32"), v("vals", ())
case("sparse_to_dense_0d_index", [i, vals], relay.sparse_to_dense(i, K([4], "int64"), vals, 0.5),
     [[np.array(2, "int32"), np.array(3.0, "float32")]], lambda i, vals: ref.sparse_to_dense(i, (4,), vals, 0.5),
     EXACT)
vals = v("vals", (3,))
case("sparse_to_dense_tvm019", [vals], relay.sparse_to_dense(K([[0, 1], [2, 3], [1, 0]], "int32"), (3, 4), vals,
                                                             relay.const(-1.0)),
     [[np.array([1, 2, 3], "float32")]],
     lambda vals: np.array([[-1, 1, -1, -1], [3, -1, -1, -1], [-1, -1, -1, 2]], "float32"), EXACT)


@pytest.fixture(scope="module")
def compiled():
    return compile_cases(CASES)


@pytest.mark.parametrize("name", list(CASES))
def test_index_search(compiled, name):
    check_case(compiled, CASES, name)


def test_sparse_to_dense_text_form():
    """TVM 0.19 prints the values and the default before the shape attribute."""
    call = relay.fromtext("""#[version = "0.0.5"]
def @main(%i: Tensor[(3, 2), int32], %v: Tensor[(3), float32]) {
  sparse_to_dense(%i, %v, 0f /* ty=float32 */, output_shape=[4, 5])
}""")["main"].body
    assert call.op.name == "sparse_to_dense" and call.attrs["output_shape"] == [4, 5]
    with pytest.raises(TypeError, match="dyn.sparse_to_dense"):
        relay.sparse_to_dense(relay.var("i", shape=(2,), dtype="int32"), relay.var("s", shape=(1,), dtype="int32"),
                              relay.var("v", shape=(2,)))
