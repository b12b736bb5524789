"""Issue 13, "never crash, never lie": programs the IREE lowering cannot
handle are refused with a located ``CompileError``, quickly, and malformed
MLIR never ends the interpreter."""
from __future__ import annotations

import subprocess
import sys
import textwrap
import time

import pytest

import relay_mlir as relay
from relay_mlir import CompileError
from conftest import PARSER_ABORTING_MLIR

# A subprocess with a deadline: iree-compile (3.13) never returns on a
# recursive module, so a regression must fail the test, not hang the suite.
_DEADLINE_S = 120


def _run_python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=_DEADLINE_S)


def test_recursive_global_from_python_compiles_without_hanging() -> None:
    """iree-compile never returns on a call-graph cycle: relay-eliminate-recursion
    removes it (a self tail call becomes a loop), bounded in time, in a child
    process with a deadline."""
    t0 = time.perf_counter()
    proc = _run_python("""
        import numpy as np
        import relay_mlir as relay
        mod = relay.IRModule()
        loop = relay.GlobalVar("loop")
        x = relay.var("x", shape=(2,))
        n = relay.var("n", shape=(), dtype="int32")
        mod[loop] = relay.Function([x, n], relay.If(relay.equal(n, relay.const(0)), x,
                                                    loop(relay.negative(x), n - relay.const(1))))
        a = relay.var("a", shape=(2,))
        mod["main"] = relay.Function([a], loop(a, relay.const(5)))
        exe = relay.compile(mod)
        print("result", exe(np.array([1.0, -2.0], "float32")).tolist())
    """)
    assert proc.returncode == 0, proc.stderr
    assert "result [-1.0, 2.0]" in proc.stdout, proc.stdout
    assert time.perf_counter() - t0 < _DEADLINE_S


def test_mutual_recursion_in_mlir_text_leaves_no_cycle() -> None:
    src = textwrap.dedent("""\
        func.func @even(%c: tensor<i1>, %x: tensor<3xf32>) -> tensor<3xf32> {
          %r = relay.if %c : tensor<i1> -> tensor<3xf32> {
            %o = func.call @odd(%c, %x) : (tensor<i1>, tensor<3xf32>) -> tensor<3xf32>
            relay.yield %o : tensor<3xf32>
          } else {
            relay.yield %x : tensor<3xf32>
          }
          return %r : tensor<3xf32>
        }
        func.func @odd(%c: tensor<i1>, %x: tensor<3xf32>) -> tensor<3xf32> {
          %e = func.call @even(%c, %x) : (tensor<i1>, tensor<3xf32>) -> tensor<3xf32>
          return %e : tensor<3xf32>
        }
    """)
    # relay-to-iree-input ends with relay-check-no-recursion: had a cycle been
    # left, this would be a located CompileError instead of a hang in iree-compile
    text = relay.lower_to_iree_input(src, source_name="rec.mlir")
    # (the public @even/@odd call their private bodies, which became one dispatcher)
    dispatchers = [f for f in text.split("func.func ")[1:] if "__recursion(" in f.split("{")[0]]
    assert len(dispatchers) == 1 and "call @" not in dispatchers[0]


# Mutants of the lit inputs that used to abort the process (SIGABRT on MLIR
# assertions) while being parsed and verified; relay_mlir.compile parses
# in-process, so each one would have ended the interpreter (docs/fuzzing.md).
_USED_TO_ABORT = {
    # SymbolTable: "expected region to contain uniquely named symbol operations"
    "duplicate_adt": ("""\
        relay.adt @List ["T"] {
          relay.constructor @Nil []
        }
        relay.adt @List ["T"] {
          relay.constructor @Nil []
        }
        relay.adt @Nat [] {
          relay.constructor @Z []
          relay.constructor @S [!relay.adt<@Nat>]
        }
    """, "redefinition of symbol named 'List'", 4),
    # Type::getIntOrFloatBitWidth: "only integers and floats have a bitwidth"
    "index_array": ("""\
        func.func @f(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
          %y = relay.transpose %x {axes = array<index: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
          return %y : tensor<3x2xf32>
        }
    """, "dense arrays of 'index' are not supported", 2),
    # Block::getTerminator: "mightHaveTerminator()"
    "if_without_yield": ("""\
        func.func @f(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
          %r = relay.if %c : tensor<i1> -> tensor<2xf32> {
            %y = relay.negative %x : (tensor<2xf32>) -> tensor<2xf32>
          } else {
            relay.yield %x : tensor<2xf32>
          }
          return %r : tensor<2xf32>
        }
    """, "then branch must end with relay.yield", 2),
    # "operation destroyed but still has uses" (fuzz seed 41, mutant 4858): a
    # forward reference resolved inside a nested region that a later error
    # discards; refused by the scan (relay/Utils/ParserHazards.h)
    "forward_ref_into_nested_region": ("""\
        func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
          %g = relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
          ^bb0(%x: tensor<2xf32>):
              relay.yield %s : tensor<2xf32>
            %inner = relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
            ^bb0(%y: tensor<2xf32>):
              %s = relay.add %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
            ^bb0(%z: tensor<2xf32>):
            }
          }
          return %a : tensor<2xf32>
        }
    """, "'%s' is used before its definition (line 7), which is inside a nested region", 4),
}

# The same abort with the definition in a sibling region (conftest's
# PARSER_ABORTING_MLIR), which the scan does not look for: the text is parsed in
# the worker process first, so the parser dies there and the errors it printed
# come back as a CompileError.
def test_parser_abort_in_the_worker_is_a_compile_error() -> None:
    with pytest.raises(CompileError) as ei:
        relay.compile(PARSER_ABORTING_MLIR, source_name="sibling.mlir")
    assert "MLIR's parser crashed" in ei.value.message
    assert any("redefinition of block '^bb0'" in d.message and (d.file, d.line, d.col) == ("sibling.mlir", 9, 3)
               for d in ei.value.diagnostics), str(ei.value)
    # the worker restarts: the next compile works
    ok = "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> { return %a : tensor<2xf32> }"
    assert relay.compile(ok) is not None


@pytest.mark.parametrize("name", sorted(_USED_TO_ABORT))
def test_mutants_that_aborted_raise_compile_error_in_process(name: str) -> None:
    src, message, line = _USED_TO_ABORT[name]
    with pytest.raises(CompileError) as ei:
        relay.compile(textwrap.dedent(src), source_name=f"{name}.mlir")
    diags = ei.value.diagnostics
    assert any(message in d.message and (d.file, d.line) == (f"{name}.mlir", line)
               for d in diags), str(ei.value)


def test_parser_hazard_in_a_file_is_located(tmp_path) -> None:
    """``compile(path)`` parses the file itself: scanned first, too."""
    src, message, line = _USED_TO_ABORT["index_array"]
    path = tmp_path / "hazard.mlir"
    path.write_text(textwrap.dedent(src))
    with pytest.raises(CompileError) as ei:
        relay.compile(path)
    d = ei.value.diagnostics[0]
    assert message in d.message
    assert (d.file, d.line, d.col) == (str(path), line, 41)
