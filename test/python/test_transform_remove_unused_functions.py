"""relay.transform.RemoveUnusedFunctions (relay-remove-unused-functions) against TVM 0.19.

TVM's results were recorded in the side venv (/work/tvmvenv, TVM 0.19): PROGRAM parsed with
``tvm.relay.fromtext``, typed, ``RemoveUnusedFunctions(entries)`` applied to a fresh module,
the remaining global functions listed with their {operator: count}.
"""
from __future__ import annotations

import pytest

import relay_mlir as relay
from pass_checks import assert_same_outputs
from relay_mlir.errors import CompileError
from relay_mlir.transform import RemoveUnusedFunctions
from test_transform_inline import summary

T = "Tensor[(2), float32]"
PROGRAM = f"""
type Box[A] {{ MkBox(A), }}
def @deep(%x: {T}) -> {T} {{ exp(%x) }}
def @callee(%x: {T}) -> {T} {{ @deep(%x) }}
def @value(%x: {T}) -> {T} {{ negative(%x) }}
def @only_unused(%x: {T}) -> {T} {{ %x }}
def @unused(%x: {T}) -> {T} {{ @only_unused(%x) }}
def @main(%a: {T}) -> {T} {{ let %f = @value; %f(@callee(%a)) }}"""

REACHED = {"callee": {}, "deep": {"exp": 1}, "main": {}, "value": {"negative": 1}}
TVM_RESULTS = {  # entry_functions -> TVM 0.19's functions left
    None: REACHED,
    ("main", "unused"): {**REACHED, "only_unused": {}, "unused": {}},
    ("unused",): {"only_unused": {}, "unused": {}},
    (): {},
}


@pytest.mark.parametrize("entries", list(TVM_RESULTS), ids=str)
def test_remove_unused_functions_as_tvm(entries):
    mod = relay.fromtext(PROGRAM)
    out = RemoveUnusedFunctions(None if entries is None else list(entries))(mod)
    assert summary(out) == TVM_RESULTS[entries]
    if entries is None:
        assert_same_outputs(mod, out)
        assert [t.name_hint for t in out.type_definitions] == ["Box"]


def test_unknown_entry_is_an_error():
    """TVM 0.19: InternalError 'candidates are: [...]'; here a CompileError naming the entry."""
    with pytest.raises(CompileError, match="entry function 'nope' is not in the module"):
        RemoveUnusedFunctions(["main", "nope"])(relay.fromtext(PROGRAM))
    with pytest.raises(TypeError, match="entry_functions are function names"):
        RemoveUnusedFunctions([3])


def test_info():
    p = RemoveUnusedFunctions()
    assert (p.info.name, p.info.opt_level, p.info.required) == ("RemoveUnusedFunctions", 1, ())
