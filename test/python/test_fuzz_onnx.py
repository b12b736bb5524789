"""CI-sized run of the ONNX ModelProto mutation fuzzer (``fuzz/onnx_mutate.py``, issue 13).

A fixed seed, 100 mutants of the node-test corpus: every one must end in a
result or a clean ``CompileError``; no raw exception, MemoryError, crash,
timeout or "unexpected internal error" (the importer's last resort).
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("onnx")

ROOT = Path(__file__).resolve().parents[2]


def _fuzzer():
    spec = importlib.util.spec_from_file_location("onnx_mutate", ROOT / "fuzz" / "onnx_mutate.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_onnx_mutants_never_crash_or_lie():
    fz = _fuzzer()
    res = fz.campaign(seed=13, count=100, timeout=60.0, mem_mb=4096)
    counts = res["counts"]
    assert sum(counts.values()) == 100
    bad = {cat: res["signatures"].get(cat, {}) for cat in fz.BAD if counts[cat]}
    assert not bad, "\n".join(f"{cat}: {sig} x{e['count']} (e.g. mutant {e['example']} of seed 13: "
                              f"{e['base']}: {'; '.join(e['mutations'])})"
                              for cat, sigs in bad.items() for sig, e in sigs.items())
    # the corpus is good enough that some mutants still compile, and some are refused
    assert counts["ok"] > 0 and counts["compile_error"] > 0, counts


def test_a_bad_case_is_detected():
    """The classifier is not vacuous: a raw exception escaping is reported as such."""
    fz = _fuzzer()
    import relay_mlir.frontend as fe
    real = fe.from_onnx
    try:
        def boom(model):
            raise ZeroDivisionError("injected")
        fe.from_onnx = boom
        name, data = fz.tiny_models()[0]
        res = fz.run_case(data, do_compile=False)
    finally:
        fe.from_onnx = real
    assert res["cat"] == "exception" and res["sig"].startswith("ZeroDivisionError@"), res


# the internal errors of the 100,000-mutant campaign (seed 20, docs/fuzzing_onnx.md), each a
# missing check in a converter; rebuilt from the corpus by seed and index and imported again
CAMPAIGN_FINDINGS = {44463: "Pad of a rank-0 input, run-time axes", 57670: "Reshape with a 0-d shape",
                     63103: "ConvTranspose output_shape []", 69718: "Attention over an empty key sequence",
                     76781: "Shape start/end before opset 15", 89415: "Squeeze with 0-d axes",
                     95257: "an empty Split piece beside a 2^62 dim"}


@pytest.mark.parametrize("index", sorted(CAMPAIGN_FINDINGS))
def test_campaign_findings_stay_fixed(index):
    fz = _fuzzer()
    name, model, mutations = fz.make_mutant(fz.load_corpus(), 20, index)
    res = fz.run_case(model.SerializeToString(), do_compile=False)
    assert res["cat"] in ("ok", "compile_error"), (CAMPAIGN_FINDINGS[index], name, mutations, res)
