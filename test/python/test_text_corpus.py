"""Conformance against TVM 0.19: Relay programs printed by TVM, and TVM's results.

test/data/relay_text/ is written by scripts/tvm_text_corpus.py (run in a
TVM venv; TVM is never needed here): each ``<name>.relay`` is TVM's
``mod.astext(show_meta_data=True)`` and ``<name>.npz`` what TVM computed.

* every program parses with ``relay_mlir.fromtext``;
* our printer round-trips it: ``fromtext(mod.astext())`` emits the same
  relay MLIR as ``mod`` (``to_mlir(infer=False).text()``; after type inference
  for ``REF_TYPED`` programs, whose ref types our printer leaves out);
* tensor programs (``kind == "tensor"``: relay.testing workloads) compile for
  llvm-cpu and match TVM's outputs (graph executor or VM at opt_level 3)
  within the ``rtol``/``atol`` stored with them; inputs and weights are
  regenerated from the parsed ``@main``'s parameter types by
  ``corpus_inputs`` (the same rule as the script: seeded, nothing committed);
* language programs (``kind == "language"``: Prelude, refs, closures,
  recursion, a gradient) run with ``relay_mlir.create_executor("debug")``
  and compiled for llvm-cpu (``"vm"``), both against TVM's interpreter.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import List, Tuple

import numpy as np
import pytest

import relay_mlir
from relay_mlir import TensorType
from relay_mlir.testing.corpus_inputs import corpus_inputs

CORPUS = Path(__file__).resolve().parents[1] / "data" / "relay_text"
PROGRAMS = sorted(p.stem for p in CORPUS.glob("*.relay"))
# stage -> {program: (exception, message regex, reason)}
# programs with ref-typed parameters: our printer leaves ref types out (TVM's parser cannot
# read the ref(T) its printer writes), so their round trip is compared after InferType
REF_TYPED = {"lang_gradient"}


def test_corpus_rule_is_pinned():
    """The rule must not drift from the one TVM's outputs were made with."""
    a, b, c, d = corpus_inputs([("data", (2, 3), "float32"), ("w", (4, 3, 3, 3), "float32"),
                                ("bn_moving_var", (4,), "float32"), ("k", (2,), "int32")], 0)
    np.testing.assert_allclose(a[0], np.random.RandomState(0).uniform(-1, 1, 3).astype("float32"))
    assert abs(b).max() <= 1 / np.sqrt(27) and (c >= 0.5).all() and d.dtype == np.int32


def _text(name: str) -> str:
    return (CORPUS / f"{name}.relay").read_text()


@functools.lru_cache(maxsize=None)
def _npz(name: str):
    with np.load(CORPUS / f"{name}.npz") as z:
        return {k: z[k] for k in z.files}


def _kind(name: str) -> str:
    if not (CORPUS / f"{name}.npz").exists():
        return "missing"  # test_corpus_present fails
    return str(_npz(name)["kind"])


def _cases(kinds=("tensor", "language", "missing")):
    return [n for n in PROGRAMS if _kind(n) in kinds]


def _parse(name: str) -> relay_mlir.IRModule:
    return relay_mlir.fromtext(_text(name), source_name=f"{name}.relay")


def test_corpus_present():
    assert len(PROGRAMS) >= 19, PROGRAMS
    for n in PROGRAMS:
        assert (CORPUS / f"{n}.npz").exists(), n
    assert sum(f.stat().st_size for f in CORPUS.iterdir()) < 3 * 2 ** 20


@pytest.mark.parametrize("name", _cases())
def test_parses(name):
    mod = _parse(name)
    assert "main" in [gv.name_hint for gv in mod.functions]


@pytest.mark.parametrize("name", _cases())
def test_roundtrip(name):
    mod = _parse(name)
    text = mod.astext()
    again = relay_mlir.fromtext(text, source_name=f"{name}.printed.relay")
    infer = name in REF_TYPED
    assert again.to_mlir(infer=infer).text() == mod.to_mlir(infer=infer).text()
    assert again.astext() == text


def _main_params(mod) -> List[Tuple[str, Tuple[int, ...], str]]:
    out = []
    for p in mod["main"].params:
        t = p.type_annotation
        assert isinstance(t, TensorType), f"{p.name_hint}: {t}"
        out.append((p.name_hint, tuple(int(d) for d in t.shape), t.dtype))
    return out


def _check(name: str, got, want: dict) -> None:
    got = list(got) if isinstance(got, (tuple, list)) else [got]
    outs = sorted((k for k in want if k.startswith("out_")), key=lambda k: int(k[4:]))
    assert len(got) == len(outs), f"{name}: {len(got)} outputs, TVM has {len(outs)}"
    for k, g in zip(outs, got):
        w = want[k]
        g = np.asarray(g)
        assert g.shape == w.shape and g.dtype == w.dtype, f"{name} {k}: {g.shape} {g.dtype} vs {w.shape} {w.dtype}"
        np.testing.assert_allclose(g, w, rtol=float(want["rtol"]), atol=float(want["atol"]),
                                   err_msg=f"{name} {k}")


@pytest.mark.parametrize("name", _cases(kinds=("tensor",)))
def test_matches_tvm(name):
    mod = _parse(name)
    want = _npz(name)
    inputs = corpus_inputs(_main_params(mod), int(want["seed"]))
    exe = relay_mlir.compile(mod, target="llvm-cpu")
    _check(name, exe(*inputs), want)


@pytest.mark.parametrize("name", _cases(kinds=("language",)))
def test_language_matches_tvm_interpreter(name):
    mod = _parse(name)
    want = _npz(name)
    ins = [want[k] for k in sorted((k for k in want if k.startswith("in_")), key=lambda k: int(k[3:]))]
    got = relay_mlir.create_executor("debug", mod=mod).evaluate()(*ins)
    _check(name, _flatten(got), want)


@pytest.mark.parametrize("name", _cases(kinds=("language",)))
def test_language_compiled_matches_tvm_interpreter(name):
    """The language programs (Prelude, refs, closures, recursion, TVM's own higher-order
    gradient with refs and closures) compiled for llvm-cpu, against TVM's interpreter."""
    mod = _parse(name)
    want = _npz(name)
    ins = [want[k] for k in sorted((k for k in want if k.startswith("in_")), key=lambda k: int(k[3:]))]
    got = relay_mlir.create_executor("vm", mod=mod, target="llvm-cpu").evaluate()(*ins)
    _check(name, _flatten(got), want)


def _flatten(v) -> list:
    if isinstance(v, (tuple, list)):
        return [x for f in v for x in _flatten(f)]
    return [np.asarray(v)]


def test_cli_compiles_tvm_text(tmp_path):
    """``relay-mlir compile model.relay`` on TVM's text, run and compared with TVM."""
    import subprocess
    from conftest import cli_command
    out = tmp_path / "consts.vmfb"
    r = subprocess.run(cli_command("relay-mlir") + ["compile", str(CORPUS / "consts.relay"), "-o", str(out),
                                                   "--target", "llvm-cpu", "-q"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    want = _npz("consts")
    inputs = corpus_inputs(_main_params(_parse("consts")), int(want["seed"]))
    _check("consts", relay_mlir.Executable.load(out)(*inputs), want)


def test_scalar_constants_of_every_dtype_roundtrip():
    """Scalars print inline where TVM reads a suffix (1.5f, -2f64, 6i16, -3i64) and as 0-d
    metadata tensors otherwise (int8, uint8, ...), and come back 0-d with their dtype."""
    vals = [np.array(v, dt) for dt, v in [("float32", 1.5), ("float64", -2.25), ("float16", 0.5),
                                          ("int32", 7), ("int64", -3), ("int16", 6), ("int8", -5),
                                          ("uint8", 200), ("uint16", 300), ("uint32", 9), ("uint64", 11),
                                          ("bool", True)]]
    mod = relay_mlir.IRModule.from_expr(relay_mlir.Function([], relay_mlir.Tuple(
        [relay_mlir.const(v, v.dtype.name) for v in vals])))
    text = mod.astext()
    assert "6i16" in text and "-3i64" in text and "0.5f16" in text
    got = [f.data for f in relay_mlir.fromtext(text)["main"].body.fields]
    for g, v in zip(got, vals):
        assert g.shape == () and g.dtype == v.dtype and g == v, (g, v)


@pytest.mark.parametrize("name,kwargs", [
    ("resnet", {"num_layers": 18, "num_classes": 10}),
    ("mobilenet_v2", {"num_classes": 10, "image_shape": (3, 32, 32), "width_mult": 0.25}),
    ("vgg", {"num_layers": 11, "num_classes": 10, "image_shape": (3, 32, 32), "width": 8, "hidden": 32,
             "pool_size": 1, "batch_norm": True}),
    ("dqn", {}),
    ("bert", {"num_layers": 1}),
    ("lstm", {"seq_len": 3, "vocab_size": 50, "embed": 16, "hidden": 16}),
])
def test_zoo_text_roundtrip(name, kwargs):
    """Our own models (the ones scripts/tvm_reads_our_text.py hands to TVM) print and reparse
    to the same relay MLIR."""
    from relay_mlir import models
    mod, _ = getattr(models, name).get_workload(**kwargs)
    again = relay_mlir.fromtext(mod.astext())
    assert again.to_mlir(infer=False).text() == mod.to_mlir(infer=False).text()
