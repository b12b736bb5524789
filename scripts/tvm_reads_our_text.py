#!/usr/bin/env python3
"""Does TVM 0.19 read the Relay text that relay-mlir prints? Writes docs/text-format.md.

Run with a Python that has TVM 0.19 (a side venv; relay-mlir never depends on TVM)::

    TOPHUB_LOCATION=NONE /path/to/tvm-venv/bin/python scripts/tvm_reads_our_text.py

It first runs itself with relay-mlir's Python (``$RELAY_MLIR_PYTHON``, default
``.venv/bin/python``, with the current ``PYTHONPATH``) as ``--generate DIR`` to
print programs with OUR printer into a temporary directory: zoo models from
``relay_mlir.testing``, the Prelude (``relay_mlir.prelude.Prelude``), language
programs (refs, closures, recursion, ADTs and match, tuple types, scalar
literals of every dtype, metadata constants), and every program of the TVM
corpus (test/data/relay_text) parsed by ``relay_mlir.fromtext`` and printed
again. Then it calls ``tvm.relay.fromtext`` on each; for the corpus programs it
also compares, after ``InferType``, with TVM's parse of TVM's own text
(``tvm.ir.structural_equal``). Zoo models and the attributes program are also
run by TVM (VM, opt_level 3) on the inputs relay-mlir ran them on (the zoo's
weights, seeded data) and compared with relay-mlir's llvm-cpu outputs; scalar
and metadata constants are checked exactly with TVM's interpreter. The table goes to docs/text-format.md (``--out``
to change; ``--print`` to only print it).
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "test" / "data" / "relay_text"


# ---- generation, with relay-mlir -------------------------------------------------------------

# name -> (inputs, expected outputs): programs whose values TVM's interpreter checks too
EXPECT = {}


def _language_programs(relay):
    """name -> (IRModule, description), built with relay-mlir's builder API."""
    import numpy as np
    from relay_mlir.prelude import Prelude
    out = {}

    mod = relay.IRModule()
    p = Prelude(mod)
    _, cons, nil = mod.get_type("List")
    x = relay.var("x", shape=(3,), dtype="float32")
    xs = cons(x, cons(relay.add(x, relay.const(1.0)), nil()))
    t = relay.var("t", shape=(3,), dtype="float32")
    a = relay.var("a", shape=(3,), dtype="float32")
    b = relay.var("b", shape=(3,), dtype="float32")
    mapped = mod.get_global_var("map")(relay.Function([t], relay.multiply(t, relay.const(2.0))), xs)
    mod["main"] = relay.Function([x], mod.get_global_var("foldl")(
        relay.Function([a, b], relay.add(a, b)), relay.zeros((3,), "float32"), mapped))
    out["prelude"] = (mod, "the whole Prelude (List/Option/Tree, 24 functions) and a main using map/foldl")

    x = relay.var("x", shape=(2,), dtype="float32")
    r = relay.var("r", relay.RefType(relay.TensorType((2,), "float32")))
    u = relay.var("u")
    body = relay.Let(r, relay.RefCreate(x), relay.Let(
        u, relay.RefWrite(r, relay.add(relay.RefRead(r), x)), relay.RefRead(r)))
    out["refs"] = (relay.IRModule.from_expr(relay.Function([x], body)),
                   "ref/ref_read/ref_write, a let variable of ref type")

    x = relay.var("x", shape=(3,), dtype="float32")
    a = relay.var("a", shape=(3,), dtype="float32")
    b = relay.var("b", shape=(3,), dtype="float32")
    f = relay.var("f")
    g = relay.var("g")
    curried = relay.Function([a], relay.Function([b], relay.add(relay.multiply(a, b), x)))
    body = relay.Let(f, curried, relay.Let(g, f(x), relay.Tuple([g(x), f(x)(x)])))
    out["closures"] = (relay.IRModule.from_expr(relay.Function([x], body)),
                       "currying: a function returning a closure over %x, applied twice")

    mod = relay.IRModule()
    i = relay.var("i", shape=(), dtype="int32")
    acc = relay.var("acc", shape=(2,), dtype="float32")
    loop = relay.var("loop", relay.FuncType([relay.TensorType((), "int32"), relay.TensorType((2,), "float32")],
                                            relay.TensorType((2,), "float32")))
    fn = relay.Function([i, acc], relay.If(relay.less(i, relay.const(3)),
                                           loop(relay.add(i, relay.const(1)), relay.add(acc, acc)), acc))
    x = relay.var("x", shape=(2,), dtype="float32")
    fact = relay.GlobalVar("fact")
    n = relay.var("n", shape=(), dtype="int64")
    mod[fact] = relay.Function([n], relay.If(relay.less_equal(n, relay.const(1, "int64")),
                                             relay.const(1, "int64"),
                                             relay.multiply(n, fact(relay.subtract(n, relay.const(1, "int64"))))),
                               relay.TensorType((), "int64"))
    k = relay.var("k", shape=(), dtype="int64")
    mod["main"] = relay.Function([x, k], relay.Tuple([relay.Let(loop, fn, loop(relay.const(0), x)), fact(k)]))
    out["recursion"] = (mod, "a recursive let (loop) and a recursive global (int64 factorial)")

    mod = relay.IRModule()
    shape_t = relay.GlobalTypeVar("Shape")
    a_t = relay.TypeVar("A")
    circle = relay.Constructor("Circle", [relay.TensorType((), "float32")], shape_t)
    rect = relay.Constructor("Rect", [relay.TupleType([relay.TensorType((), "float32"),
                                                        relay.TensorType((), "float32")])], shape_t)
    mod[shape_t] = relay.TypeData(shape_t, [], [circle, rect])
    s = relay.var("s", relay.TypeCall(shape_t, []))
    rad, w, h = relay.var("r"), relay.var("w"), relay.var("h")
    area = relay.GlobalVar("area")
    mod[area] = relay.Function([s], relay.Match(s, [
        relay.Clause(relay.PatternConstructor(circle, [relay.PatternVar(rad)]),
                     relay.multiply(relay.multiply(rad, rad), relay.const(3.0))),
        relay.Clause(relay.PatternConstructor(rect, [relay.PatternTuple([relay.PatternVar(w), relay.PatternVar(h)])]),
                     relay.multiply(w, h)),
    ]), relay.TensorType((), "float32"))
    y = relay.var("y", shape=(), dtype="float32")
    mod["main"] = relay.Function([y], relay.add(area(circle(y)), area(rect(relay.Tuple([y, y])))))
    out["adt_match"] = (mod, "a user ADT, match with constructor, tuple and variable patterns")

    x1 = relay.var("p", relay.TupleType([relay.TensorType((2,), "float32")]))
    e = relay.var("e", relay.TupleType([]))
    nested = relay.var("q", relay.TupleType([relay.TensorType((), "int32"),
                                             relay.TupleType([relay.TensorType((2,), "float32"),
                                                              relay.TensorType((), "bool")])]))
    body = relay.Tuple([relay.TupleGetItem(x1, 0), relay.TupleGetItem(relay.TupleGetItem(nested, 1), 0), e])
    out["tuple_types"] = (relay.IRModule.from_expr(relay.Function([x1, e, nested], body)),
                          "1-tuple, empty tuple and nested tuple types as parameter types")

    scalars = []
    for dt, v in [("float32", 1.5), ("float64", -2.25), ("float16", 0.5), ("int32", 7), ("int64", -3),
                  ("int8", 5), ("int16", 6), ("uint8", 200), ("uint32", 9), ("bool", True)]:
        scalars.append(np.array(v, dt))
    out["scalar_literals"] = (relay.IRModule.from_expr(relay.Function([], relay.Tuple(
        [relay.const(v) for v in scalars]))), "scalar constants of every dtype (suffixes, or metadata)")
    EXPECT["scalar_literals"] = ([], scalars)

    x = relay.var("x", shape=(2, 3), dtype="float32")
    c = [relay.const(np.arange(6, dtype="float32").reshape(2, 3)),
         relay.const(np.array([1, 2], "int64")), relay.const(np.array([True, False])),
         relay.const(np.ones((2, 3), "float16"))]
    body = relay.Tuple([relay.add(x, c[0]), c[1], c[2], relay.add(relay.cast(x, "float16"), c[3])])
    out["metadata"] = (relay.IRModule.from_expr(relay.Function([x], body)),
                       "tensor constants (float32, int64, bool, float16) in the #[metadata] section")
    xv = np.linspace(-1, 1, 6, dtype="float32").reshape(2, 3)
    EXPECT["metadata"] = ([xv], [xv + np.arange(6, dtype="float32").reshape(2, 3), np.array([1, 2], "int64"),
                                 np.array([True, False]), xv.astype("float16") + np.ones((2, 3), "float16")])

    x = relay.var("x", shape=(1, 4, 8, 8), dtype="float32")
    w = relay.var("w", shape=(4, 1, 3, 3), dtype="float32")
    y = relay.nn.conv2d(x, w, padding=(1, 1), groups=4, channels=4, kernel_size=(3, 3))
    y = relay.nn.max_pool2d(y, pool_size=(2, 2), strides=(2, 2), ceil_mode=True)
    y = relay.nn.leaky_relu(y, alpha=0.125)
    y = relay.concatenate([y, relay.nn.avg_pool2d(y, (1, 1))], axis=1)
    y = relay.split(y, indices_or_sections=2, axis=1)
    y = relay.strided_slice(relay.TupleGetItem(y.astuple(), 0), begin=[0, 0, 1], end=[1, 4, 4], strides=[1, 1, 2])
    y = relay.clip(relay.mean(y, axis=[2, 3], keepdims=True), a_min=-1.0, a_max=1.0)
    out["attributes"] = (relay.IRModule.from_expr(relay.Function([x, w], y)),
                         "operator attributes: ints, tuples, floats, bools, strings, None")
    EXPECT["attributes"] = _run_ours(relay, out["attributes"][0], None) + ((1e-5, 1e-6),)
    return out


def _zoo(relay):
    """name -> ((IRModule, params), description)."""
    from relay_mlir import models as t
    return {
        "zoo_resnet_demo": (t.resnet.get_workload(), "relay_mlir.models.resnet (demo CNN)"),
        "zoo_resnet18": (t.resnet.get_workload(num_layers=18, num_classes=10), "ResNet-18, 32x32"),
        "zoo_mobilenet_v2": (t.mobilenet_v2.get_workload(num_classes=10, image_shape=(3, 32, 32),
                                                         width_mult=0.25), "MobileNetV2 x0.25, 32x32"),
        "zoo_vgg11": (t.vgg.get_workload(num_layers=11, num_classes=10, image_shape=(3, 32, 32), width=8,
                                         hidden=32, pool_size=1, batch_norm=True), "VGG-11-BN, narrow"),
        "zoo_dqn": (t.dqn.get_workload(), "Nature DQN"),
        "zoo_bert": (t.bert.get_workload(num_layers=1), "BERT-tiny-style encoder, 1 layer"),
        "zoo_lstm": (t.lstm.get_workload(seq_len=3, vocab_size=50, embed=16, hidden=16),
                     "LSTM language model, 3 steps"),
    }


def _run_ours(relay, mod, params):
    """Inputs for every @main parameter (the zoo's weights, seeded data) and what
    relay-mlir's llvm-cpu build computes on them."""
    import numpy as np
    rs = np.random.RandomState(0)
    ins = []
    for p in mod["main"].params:
        if params and p.name_hint in params:
            ins.append(np.asarray(params[p.name_hint]))
            continue
        t = p.type_annotation
        shape = tuple(int(d) for d in t.shape)
        ins.append(rs.randint(0, 2, shape).astype(t.dtype) if t.dtype.startswith(("int", "uint"))
                   else rs.uniform(-1, 1, shape).astype(t.dtype))
    got = relay.compile(mod, target="llvm-cpu")(*ins)
    return ins, list(got) if isinstance(got, tuple) else [got]


def generate(out_dir: str) -> None:
    import relay_mlir as relay
    os.makedirs(out_dir, exist_ok=True)
    rows = []
    progs = {}
    for k, ((m, params), d) in _zoo(relay).items():
        progs[k] = (m, d, "zoo")
        EXPECT[k] = _run_ours(relay, m, params) + ((1e-3, 1e-4),)
    progs.update({k: (m, d, "language") for k, (m, d) in _language_programs(relay).items()})
    for name, (mod, desc, kind) in progs.items():
        rows.append((name, kind, desc))
        Path(out_dir, name + ".relay").write_text(mod.astext())
        if name in EXPECT:
            import numpy as np
            ins, outs, *tol = EXPECT[name]
            rtol, atol = tol[0] if tol else (0.0, 0.0)
            np.savez(Path(out_dir, name + ".npz"), rtol=rtol, atol=atol,
                     **{f"in_{i}": a for i, a in enumerate(ins)}, **{f"out_{i}": a for i, a in enumerate(outs)})
    for path in sorted(CORPUS.glob("*.relay")):
        name = "corpus_" + path.stem
        try:
            text = relay.fromtext(path.read_text(), source_name=path.name).astext()
        except Exception as e:  # noqa: BLE001 - recorded in the table
            first = str(e).splitlines()
            rows.append((name, "corpus", "relay-mlir cannot parse it: " + " ".join(first[1:2] or first[:1])))
            continue
        Path(out_dir, name + ".relay").write_text(text)
        rows.append((name, "corpus", f"TVM's {path.name}, parsed and printed by relay-mlir"))
    with open(os.path.join(out_dir, "index.tsv"), "w") as f:
        for r in rows:
            f.write("\t".join(r) + "\n")


# ---- reading, with TVM ----------------------------------------------------------------------

def _first_error(e: Exception) -> str:
    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
    for ln in lines:
        if "rror" in ln and not ln.startswith(("File", "Traceback")) and "note:" not in ln:
            return ln[:160]
    return (lines[-1] if lines else type(e).__name__)[:160]


def _tvm(fn, *args):
    """fn(*args), with what TVM renders on stderr (its diagnostics) captured: returns
    (value, None) or (None, the first error line)."""
    import contextlib
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+b") as err:
        os.dup2(err.fileno(), 2)
        try:
            try:
                return fn(*args), None
            except Exception as e:  # noqa: BLE001
                exc = e
        finally:
            with contextlib.suppress(Exception):
                sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
        err.seek(0)
        rendered = err.read().decode("utf-8", "replace")
    for ln in rendered.splitlines():
        if ln.startswith("error:"):
            return None, ln[len("error:"):].strip()[:160]
    return None, _first_error(exc)


def _check_values(mod, npz) -> str:
    """Runs main with TVM's interpreter: are the constants TVM read the ones we printed?"""
    import numpy as np
    import tvm
    from tvm import relay
    z = np.load(npz)
    ins = [z[f"in_{i}"] for i in range(sum(k.startswith("in_") for k in z.files))]
    want = [z[f"out_{i}"] for i in range(sum(k.startswith("out_") for k in z.files))]
    rtol, atol = float(z["rtol"]), float(z["atol"])
    exact = rtol == 0 and atol == 0
    if exact:  # constants: TVM's interpreter
        ex = relay.create_executor("debug", mod=mod, device=tvm.cpu(), target="llvm")
    else:  # models: TVM's VM at opt_level 3
        target = "llvm -mcpu=" + tvm.target.codegen.llvm_get_system_cpu()
        with tvm.transform.PassContext(opt_level=3):
            ex = relay.create_executor("vm", mod=mod, device=tvm.cpu(), target=target)
    got = ex.evaluate()(*ins)
    got = [g.numpy() for g in got] if isinstance(got, tvm.runtime.container.ADT) else [got.numpy()]
    bad = [i for i, (g, w) in enumerate(zip(got, want))
           if g.dtype != w.dtype or g.shape != w.shape or not np.allclose(g, w, rtol=rtol, atol=atol)]
    if len(got) != len(want) or bad:
        return f"VALUES DIFFER from relay-mlir's (outputs {bad})"
    if exact:
        return "TVM's interpreter gives exactly the printed values and dtypes"
    return f"TVM (VM, opt_level 3) computes relay-mlir's llvm-cpu outputs (rtol {rtol:g}, atol {atol:g})"


def read_all(gen_dir: str):
    import tvm
    from tvm import relay
    rows = []
    for line in Path(gen_dir, "index.tsv").read_text().splitlines():
        name, kind, desc = line.split("\t")
        path = Path(gen_dir, name + ".relay")
        if not path.exists():
            rows.append((name, kind, desc, "n/a", ""))
            continue
        text = path.read_text()
        mod, err = _tvm(relay.fromtext, text)
        if err is not None:
            rows.append((name, kind, desc, "no", err))
            continue
        note = ""
        mod, err = _tvm(relay.transform.InferType(), mod)
        if err is not None:
            rows.append((name, kind, desc, "parses; type check fails", err))
            continue
        if Path(gen_dir, name + ".npz").exists():
            note, err = _tvm(_check_values, mod, Path(gen_dir, name + ".npz"))
            if err is not None:
                note = "TVM cannot run it: " + err
        if kind == "corpus":
            orig_text = (CORPUS / (name[len("corpus_"):] + ".relay")).read_text()
            orig, err = _tvm(lambda t: relay.transform.InferType()(relay.fromtext(t)), orig_text)
            if err is not None:
                note = "TVM cannot read its own text: " + err
            elif tvm.ir.structural_equal(mod["main"], orig["main"], map_free_vars=True):
                note = "structurally equal to TVM's own text (main)"
            else:
                note = "differs structurally from TVM's own text (main)"
        rows.append((name, kind, desc, "yes", note))
    return rows


def table(rows) -> str:
    ok = sum(r[3] == "yes" for r in rows)
    out = ["# Relay text format: does TVM read what relay-mlir prints?", "",
           "Generated by `scripts/tvm_reads_our_text.py` (TVM " + _tvm_version() + "): relay-mlir prints each",
           "program (`mod.astext()`), TVM parses it with `tvm.relay.fromtext` and type checks it",
           "(`InferType`). `corpus_*` are TVM's own printed programs (test/data/relay_text, see",
           "test/python/test_text_corpus.py) read and printed again by relay-mlir; for those the",
           "result is also compared with TVM's parse of its own text (`structural_equal` of `main`).",
           "Zoo models and `attributes` are also run by TVM (VM, opt_level 3) on the inputs",
           "relay-mlir's llvm-cpu build ran them on, and the outputs compared; the constants of",
           "`scalar_literals` and `metadata` are checked exactly with TVM's interpreter.",
           "",
           f"TVM accepts {ok} of {len(rows)}.", "",
           "| program | kind | what | TVM reads it | notes |", "| --- | --- | --- | --- | --- |"]
    for name, kind, desc, res, note in rows:
        note = re.sub(r"0x[0-9a-f]+", "0x...", note)  # pointers in TVM's messages
        out.append(f"| {name} | {kind} | {desc.replace('|', '/')} | {res} | {note.replace('|', '/')} |")
    out += ["", "## What relay-mlir's printer does for TVM's parser", "",
            "* Reference types are never written: TVM prints `ref(T)` but its parser rejects it",
            "  (`failed to parse type ... data=\"ref\"`, see `corpus_lang_refs`), and rejects `_`",
            "  inside a tuple or function type. An annotation that mentions a ref type is left out;",
            "  type inference (ours and TVM's) recovers it.",
            "* Graph temporaries `%N` are numbered across the whole module: TVM's parser keeps one",
            "  `%N` table per module, so a second `def` reusing `%0` referred to the first one's.",
            "* Attributes whose value is None are printed (`units=None`, `axes=None`): TVM requires",
            "  those fields.",
            "* A let that is an operand prints as `(let ...; body)` and a let-bound function in place",
            "  (recursive lets); concatenate/stack/einsum print their one tuple operand.",
            "",
            "## Not accepted, and why", "",
            "* `nn.gelu` (in relay-mlir's BERT) is a relay-mlir operator that TVM 0.19's Relay does",
            "  not have (TVM's frontends expand GELU into erf arithmetic).",
            "* `zoo_lstm` is read and type checked, but TVM cannot build it: its decoder applies",
            "  `nn.dense` to (1, 3, 16) data, which Relay's type relation allows and TVM's x86 dense",
            "  schedule (2-D data only) does not.",
            "* `prelude_full` (all of TVM's Prelude with its tensor-array functions) is not read by",
            "  relay-mlir: `shape_of` is not a relay-mlir operator yet.",
            ""]
    return "\n".join(out) + "\n"


def _tvm_version() -> str:
    import tvm
    return tvm.__version__


def main(argv) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--generate", metavar="DIR", help="(relay-mlir's Python) print the programs into DIR")
    ap.add_argument("--out", default=str(ROOT / "docs" / "text-format.md"))
    ap.add_argument("--print", action="store_true", help="print the table instead of writing --out")
    args = ap.parse_args(argv)
    if args.generate:
        generate(args.generate)
        return 0
    py = os.environ.get("RELAY_MLIR_PYTHON", str(ROOT / ".venv" / "bin" / "python"))
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([py, os.path.abspath(__file__), "--generate", d], check=True)
        rows = read_all(d)
    text = table(rows)
    if args.print:
        print(text)
    else:
        Path(args.out).write_text(text)
        print(f"wrote {args.out}: TVM accepts {sum(r[3] == 'yes' for r in rows)} of {len(rows)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
