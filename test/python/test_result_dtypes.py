"""Compiled modules give unsigned and bool results back with their relay dtype (issue 13).

IREE's integers are signless and its runtime returns them as signed numpy
arrays; ``Executable`` reinterprets each result with the dtype of the relay
signature (recorded in the module's ``iree.reflection``, so a saved and
reloaded ``.vmfb`` and ``relay-mlir run`` do the same). The values are
chosen so that reading them signed would be wrong.
"""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

import relay_mlir as relay
from conftest import cli_command

# dtype -> input values; the program adds 5, so each result is above the signed maximum
CASES = {
    "uint8": [195, 0, 250],                                # 200 would read as -56
    "uint16": [39995, 1, 65530],                           # 40000 would read as -25536
    "uint32": [2999999995, 7, 4294967290],                 # 3e9 would read negative
    "uint64": [2 ** 63, 3, 2 ** 64 - 6],                   # 2^63 + 5 would read negative
}


def _assert_same(got, want):
    """Equal values *and* dtypes, strictly (no casts)."""
    assert isinstance(got, np.ndarray), type(got)
    assert got.dtype == want.dtype, f"dtype {got.dtype} != {want.dtype}"
    np.testing.assert_array_equal(got, want)


def _add5(dtype):
    x = relay.var("x", shape=(3,), dtype=dtype)
    return relay.Function([x], relay.add(x, relay.const(np.array(5, dtype), dtype)))


@pytest.mark.parametrize("dtype", sorted(CASES))
def test_unsigned_result_has_its_dtype(dtype):
    a = np.array(CASES[dtype], dtype)
    exe = relay.compile(relay.IRModule.from_expr(_add5(dtype)))
    _assert_same(exe(a), a + np.array(5, dtype))


def test_bool_result_has_its_dtype():
    # uint8 compare: 200 > 100 is True only if read unsigned
    x = relay.var("x", shape=(4,), dtype="uint8")
    f = relay.Function([x], relay.greater(x, relay.const(np.array(100, "uint8"), "uint8")))
    a = np.array([200, 50, 101, 100], "uint8")
    exe = relay.compile(relay.IRModule.from_expr(f))
    _assert_same(exe(a), a > np.uint8(100))


def test_nested_tuple_results_have_their_dtypes(tmp_path):
    x = relay.var("x", shape=(3,), dtype="uint16")
    y = relay.var("y", shape=(3,), dtype="uint32")
    big = relay.add(x, relay.const(np.array(5, "uint16"), "uint16"))
    flag = relay.greater(y, relay.const(np.array(2 ** 31, "uint32"), "uint32"))
    body = relay.Tuple([big, relay.Tuple([flag, relay.add(y, y)]), x])
    exe = relay.compile(relay.IRModule.from_expr(relay.Function([x, y], body)))
    a = np.array(CASES["uint16"], "uint16")
    b = np.array([3000000000, 5, 2 ** 31 + 1], "uint32")
    want = (a + np.uint16(5), b > np.uint32(2 ** 31), b + b, a)
    got = exe(a, b)
    # nested as main's result type says (compile records main's relay types)
    assert isinstance(got, tuple) and len(got) == 3 and isinstance(got[1], tuple)
    for g, w in zip((got[0], got[1][0], got[1][1], got[2]), want):
        _assert_same(g, w)
    # a saved module keeps the dtypes (iree.reflection), without the compiler's
    # help; without main's relay types its tuple leaves come back flattened
    path = tmp_path / "m.vmfb"
    exe.save(path)
    loaded = relay.Executable.load(path)(a, b)
    assert len(loaded) == len(want)
    for g, w in zip(loaded, want):
        _assert_same(g, w)


def test_relay_text_source_result_dtype():
    # result type left to inference: the dtypes are recorded after inferring it
    exe = relay.compile("""
func.func @main(%x: tensor<3xui8>) -> !relay.incomplete {
  %0 = relay.add %x, %x : (tensor<3xui8>, tensor<3xui8>) -> !relay.incomplete
  return %0 : !relay.incomplete
}""")
    a = np.array([100, 120, 1], "uint8")
    _assert_same(exe(a), a + a)


def test_cli_run_prints_and_saves_unsigned(tmp_path):
    src = tmp_path / "m.mlir"
    src.write_text("""func.func @main(%x: tensor<3xui32>) -> !relay.incomplete {
  %0 = relay.add %x, %x : (tensor<3xui32>, tensor<3xui32>) -> !relay.incomplete
  return %0 : !relay.incomplete
}
""")
    a = np.array([1500000000, 2000000000, 3], "uint32")
    np.save(tmp_path / "x.npy", a)
    out = tmp_path / "out.npz"
    r = subprocess.run(cli_command("relay-mlir") + ["run", str(src), "--input", str(tmp_path / "x.npy"),
                                                    "--output", str(out), "--runs", "1"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "dtype=uint32" in r.stdout
    _assert_same(np.load(out)["output_0"], a + a)
