"""ADT values crossing the Python boundary of a compiled module: long Lists in and
out (encoded and decoded without Python recursion), and tensor fields checked
against the List's element type before IREE sees them."""
import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.adt_value import ADT
from relay_mlir.prelude import Prelude


def _list(items):
    lst = ADT(1, "Nil", (), adt="List")
    for it in reversed(items):
        lst = ADT(0, "Cons", (it, lst), adt="List")
    return lst


def _items(lst):
    out = []
    while lst.constructor == "Cons":
        out.append(lst.fields[0])
        lst = lst.fields[1]
    assert lst.constructor == "Nil"
    return out


@pytest.fixture(scope="module")
def rev_and_length():
    mod = relay.IRModule()
    p = Prelude(mod)
    xs = relay.var("xs", p.l(relay.TensorType((2,))))
    mod["main"] = relay.Function([xs], relay.Tuple([p.length(xs), p.rev(xs)]))
    return relay.compile(mod)


def test_long_list_in_and_out(rev_and_length):
    # 20,000 elements: as deep as it is long (Python's recursion limit is 1,000)
    n = 20_000
    vals = [np.array([i, -i], "float32") for i in range(n)]
    length, rev = rev_and_length(_list(vals))
    assert int(length) == n
    got = _items(rev)
    assert len(got) == n
    np.testing.assert_array_equal(np.stack(got), np.stack(vals[::-1]))


@pytest.mark.parametrize("bad, error, where", [
    (np.zeros((), "float32"), ValueError, "argument #0.Cons[1].Cons[0]: expected tensor<2xf32>, got shape ()"),
    (np.zeros((1, 2), "float32"), ValueError, "got shape (1, 2)"),
    (np.zeros(2, "float64"), TypeError, "expected tensor<2xf32>, got a float64 array"),
])
def test_tensor_fields_are_checked(rev_and_length, bad, error, where):
    # rev only moves the boxes: without the check a wrong tensor would come back unchanged
    with pytest.raises(error) as e:
        rev_and_length(_list([np.zeros(2, "float32"), bad]))
    assert where in str(e.value)


def test_python_numbers_become_the_element_type(rev_and_length):
    length, rev = rev_and_length(_list([[1, 2], [3, 4]]))
    got = _items(rev)
    assert int(length) == 2 and all(g.dtype == np.float32 for g in got)
    np.testing.assert_array_equal(np.stack(got), [[3, 4], [1, 2]])
