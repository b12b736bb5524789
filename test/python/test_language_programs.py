"""The language programs of relay_mlir.testing.programs: interpreter and compiled code
against numpy expectations written in the programs (independent of relay-mlir)."""
import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.testing import programs

# The interpreter runs every program at full size (1e6 iterations, depth 1e5:
# a few seconds each); compiled code runs the same programs through the whole
# pipeline (monomorphize, lambda lift, defunctionalize, ADT lowering,
# recursion elimination) on llvm-cpu.
ALL = programs.names()


def assert_same(got, want, path="result"):
    got = programs.adt_to_python(got)
    if isinstance(want, tuple) and want and isinstance(want[0], str):  # ADT (name, fields)
        assert isinstance(got, tuple) and got[0] == want[0], f"{path}: {got!r} != {want!r}"
        assert len(got[1]) == len(want[1])
        for i, (g, w) in enumerate(zip(got[1], want[1])):
            assert_same(g, w, f"{path}.{want[0]}[{i}]")
        return
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), f"{path}: {got!r} vs {want!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            assert_same(g, w, f"{path}[{i}]")
        return
    want = np.asarray(want)
    got = np.asarray(got)
    assert got.dtype == want.dtype, f"{path}: dtype {got.dtype} != {want.dtype}"
    assert got.shape == want.shape, f"{path}: shape {got.shape} != {want.shape}"
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-6, err_msg=path)
    else:
        np.testing.assert_array_equal(got, want, err_msg=path)


@pytest.mark.parametrize("name", ALL)
def test_interpreter(name):
    p = programs.get(name)
    run = relay.create_executor("debug", mod=p.mod).evaluate()
    if p.expected is None:
        with pytest.raises(relay.RelayRuntimeError, match="match"):
            run(*p.inputs)
        return
    assert_same(run(*p.inputs), p.expected)


@pytest.mark.parametrize("name", ALL)
def test_compiled(name):
    # the 1e6-iteration loop compiled is test_recursion.py's (on the local-sync
    # driver, with a memory bound); here 1e5 iterations keep CI short
    p = programs.long_loop(100_000) if name == "long_loop" else programs.get(name)
    run = relay.create_executor("vm", mod=p.mod, target="llvm-cpu").evaluate()
    if p.expected is None:
        with pytest.raises(relay.RelayRuntimeError, match="match"):
            run(*p.inputs)
        return
    assert_same(run(*p.inputs), p.expected)
