"""CI-sized run of the MLIR text-mutation fuzzer (fuzz/mlir_mutate.py).

150 mutants of the lit inputs with a fixed seed (and 150 with integer
mutations only), each run through
``relay-mlir-opt`` (parse + verify, then ``--relay-to-iree-input``): none
may crash (signal, assertion, exit without a diagnostic) or time out. The
campaign behind it and the crashes it found are in docs/fuzzing.md.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "fuzz"))
import mlir_mutate  # noqa: E402


@pytest.mark.parametrize("seed,mutators", [(13, ()), (14, ("int",))], ids=["all", "int"])
def test_mutants_never_crash_or_hang(tmp_path: Path, seed: int, mutators) -> None:
    """All mutators; then integer mutations only, which keep the types
    consistent and so reach the typing rules and the lowering more often."""
    # the binary itself ($RELAY_MLIR_BIN_DIR, else the package's), not the
    # console script: a Python start per run would cost more than the run
    opt = mlir_mutate.find_opt()
    res = mlir_mutate.run_campaign(seed=seed, count=150, opt=opt, timeout=20.0,
                                   crash_dir=tmp_path / "crashes", mutators=mutators)
    assert res.mutants == 150
    # the mutants must reach every outcome but the bad ones, or they test little
    assert res.mode_counts["parse"]["diagnosed"] > 0 and res.mode_counts["pipeline"]["ok"] > 0
    flags = "".join(f" --mutator {m}" for m in mutators)
    assert res.counts["crash"] == 0 and res.counts["timeout"] == 0, (
        f"{res.summary()}\nreproduce with: python fuzz/mlir_mutate.py --seed {seed}{flags} "
        f"--index N --print (inputs in {tmp_path / 'crashes'})")


def test_classifier_reports_a_crash(tmp_path: Path) -> None:
    """The fuzzer's verdicts themselves: an abort is a crash, an error a diagnosis."""
    script = tmp_path / "fake-opt"
    script.write_text("#!/bin/sh\n"
                      "case \"$1\" in\n"
                      "  *abort*) echo \"x: Foo.cpp:1: void f(): Assertion \\`boom' failed.\" >&2; kill -ABRT $$;;\n"
                      "  *error*) echo \"$1:1:1: error: bad\" >&2; exit 1;;\n"
                      "  *silent*) exit 1;;\n"
                      "esac\n")
    script.chmod(0o755)
    kinds = {}
    for name in ("abort", "error", "silent", "fine"):
        f = tmp_path / f"{name}.mlir"
        f.write_text("")
        kinds[name] = mlir_mutate.run_opt(str(script), str(f), [], 10.0, 0)
    assert kinds["abort"].kind == "crash" and kinds["abort"].signature == "Foo.cpp: boom"
    assert kinds["error"].kind == "diagnosed"
    assert kinds["silent"].kind == "crash"
    assert kinds["fine"].kind == "ok"


def test_compile_of_mutants_gives_a_result_or_a_compile_error(tmp_path: Path) -> None:
    """``relay_mlir.compile(text)`` on 80 mutants (``--mode compile``): each compiles or raises a
    ``CompileError`` that reports no crashed tool; the Python worker never dies."""
    res = mlir_mutate.run_campaign(seed=15, count=80, opt=mlir_mutate.find_opt(), timeout=120.0,
                                   crash_dir=tmp_path / "crashes", modes=(mlir_mutate.COMPILE_MODE,))
    assert res.mutants == 80
    counts = res.mode_counts[mlir_mutate.COMPILE_MODE]
    assert counts["diagnosed"] > 0 and counts["ok"] > 0
    assert res.counts["crash"] == 0 and res.counts["timeout"] == 0, (
        f"{res.summary()}\nreproduce with: python fuzz/mlir_mutate.py --seed 15 --mode compile "
        f"--index N --print (inputs in {tmp_path / 'crashes'})")
