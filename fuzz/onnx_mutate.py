#!/usr/bin/env python3
"""ONNX ModelProto mutation fuzzer for ``relay_mlir.frontend.from_onnx`` + ``relay_mlir.compile``.

The importer's contract (issue 13, "never crash, never lie"): a model with
bad contents gives ``relay_mlir.CompileError`` (or a result), never a raw
Python exception, a hang, a MemoryError or a crashed compiler.

Corpus: the ONNX backend node tests of the installed ``onnx``
(``onnx.backend.test.case.node.collect_testcases()``; only those whose
operators the importer converts and whose inputs/outputs are tensors),
cached in ``~/.cache/relay-mlir/onnx-fuzz-corpus/<onnx version>/`` (never
committed), plus a few tiny models built here with ``onnx.helper``
(initializers, Constant nodes, string attributes).

Each mutant is one corpus model with 1-3 mutations (``MUTATIONS``): dims
set to 0, negative, 2^40, 2^62 or symbolic; element types changed (also to
undefined/unknown values); node inputs deleted, emptied or rewired (also to
names produced later or nowhere); attributes set out of range, given the
wrong type, deleted, or given non-UTF-8 bytes; initializers and Constant
tensors truncated or given mismatched dims; duplicate names; opset 1/99.
Mutant ``i`` of seed ``S`` depends only on ``(S, i)`` (``--only I`` reruns it).

Each case runs in a worker process (restarted after a crash or timeout)
under ``RLIMIT_AS`` (``--mem-mb``) and a per-case ``--timeout``, and is
classified as

* ``ok``: imported and compiled;
* ``compile_error``: a clean ``CompileError`` (what bad models should give);
* ``internal_error``: a ``CompileError`` from the importer's last-resort
  wrapper (``UnexpectedImportError``: a converter raised something
  unexpected; counted separately, each one is a bug to fix);
* ``tool_crash``: a ``CompileError`` saying the lowering worker or
  ``iree-compile`` crashed (a bug in C++ code, reported cleanly);
* ``exception``: any other exception escaped (signature: type + innermost frame);
* ``memory_error``: ``MemoryError`` escaped;
* ``crash``: the worker died (signal);
* ``timeout``: no answer within ``--timeout`` seconds.

Usage::

    fuzz/onnx_mutate.py --seed 1 --count 2000 --json /tmp/fuzz.json --save-dir /tmp/fuzz-cases
    fuzz/onnx_mutate.py --seed 1 --only 137 -v          # rerun one mutant, print its mutations
    fuzz/onnx_mutate.py --seed 1 --count 200 --no-compile   # importer only (fast)

Exit status 1 if any case is an ``exception``, ``memory_error``, ``crash``,
``timeout`` or ``internal_error``.
"""
from __future__ import annotations

import argparse
import base64
import collections
import json
import os
import pickle
import random
import re
import select
import signal
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "relay-mlir" / "onnx-fuzz-corpus"
CATEGORIES = ("ok", "compile_error", "internal_error", "tool_crash", "exception", "memory_error",
              "crash", "timeout")
BAD = ("internal_error", "exception", "memory_error", "crash", "timeout")


# ---------------------------------------------------------------------------
# corpus
# ---------------------------------------------------------------------------
def _tensor_only(model) -> bool:
    from onnx import TensorProto
    for vi in list(model.graph.input) + list(model.graph.output):
        if vi.type.WhichOneof("value") != "tensor_type":
            return False
        if vi.type.tensor_type.elem_type in (TensorProto.STRING, TensorProto.UNDEFINED):
            return False
    return True


def node_test_corpus(cache: Path = CACHE) -> List[Tuple[str, bytes]]:
    """(name, serialized model) of the node tests the importer could convert (cached)."""
    import onnx
    path = cache / onnx.__version__ / "corpus.pickle"
    if path.exists():
        with open(path, "rb") as f:
            return pickle.load(f)
    import warnings
    from onnx.backend.test.case.node import collect_testcases
    from relay_mlir.frontend import supported_ops
    ops = supported_ops()
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = collect_testcases()
    for case in cases:
        if case.kind != "node" or case.model is None or not _tensor_only(case.model):
            continue
        if not all(n.op_type in ops and n.domain in ("", "ai.onnx") for n in case.model.graph.node):
            continue
        out.append((case.name, case.model.SerializeToString()))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        pickle.dump(out, f)
    os.replace(tmp, path)
    return out


def tiny_models() -> List[Tuple[str, bytes]]:
    """A few hand-built models exercising initializers, Constant nodes and string attributes."""
    import numpy as np
    from onnx import TensorProto as TP, helper as oh, numpy_helper as nh

    def model(name, nodes, inputs, outputs, inits=(), opset=17):
        g = oh.make_graph(nodes, name, inputs, outputs, initializer=list(inits))
        return name, oh.make_model(g, opset_imports=[oh.make_opsetid("", opset)]).SerializeToString()

    f = lambda n, s, t=TP.FLOAT: oh.make_tensor_value_info(n, t, s)  # noqa: E731
    w = nh.from_array(np.arange(12, dtype=np.float32).reshape(3, 4), "w")
    b = nh.from_array(np.ones(4, np.float32), "b")
    shp = nh.from_array(np.array([4, 3], np.int64), "shp")
    return [
        model("tiny_matmul_add", [oh.make_node("MatMul", ["x", "w"], ["m"], name="mm"),
                                  oh.make_node("Add", ["m", "b"], ["y"], name="add")],
              [f("x", [2, 3])], [f("y", [2, 4])], [w, b]),
        model("tiny_reshape", [oh.make_node("Reshape", ["w", "shp"], ["r"], name="rs"),
                               oh.make_node("Mul", ["r", "x"], ["y"], name="mul")],
              [f("x", [4, 3])], [f("y", [4, 3])], [w, shp]),
        model("tiny_constant", [oh.make_node("Constant", [], ["c"], name="const",
                                             value=nh.from_array(np.arange(6, dtype=np.int32).reshape(2, 3))),
                                oh.make_node("Add", ["x", "c"], ["y"], name="add")],
              [f("x", [2, 3], TP.INT32)], [f("y", [2, 3], TP.INT32)]),
        model("tiny_einsum", [oh.make_node("Einsum", ["x", "w"], ["y"], name="es", equation="ij,jk->ik")],
              [f("x", [2, 3])], [f("y", [2, 4])], [w]),
        model("tiny_softmax_uint8", [oh.make_node("Softmax", ["x"], ["s"], name="sm", axis=-1),
                                     oh.make_node("Cast", ["s"], ["y"], name="cast", to=TP.UINT8)],
              [f("x", [2, 5])], [f("y", [2, 5], TP.UINT8)]),
        model("tiny_clip_gather", [oh.make_node("Clip", ["x", "lo", "hi"], ["c"], name="clip"),
                                   oh.make_node("Gather", ["c", "idx"], ["y"], name="gather", axis=1)],
              [f("x", [3, 4])], [f("y", [3, 2])],
              [nh.from_array(np.array(-1, np.float32), "lo"), nh.from_array(np.array(1, np.float32), "hi"),
               nh.from_array(np.array([0, 3], np.int64), "idx")]),
    ]


# ---------------------------------------------------------------------------
# mutations: each takes (model, rng) and returns a description (or None if it did not apply)
# ---------------------------------------------------------------------------
DIM_VALUES = (0, -1, -7, 2 ** 40, 2 ** 62, 2 ** 63 - 1)
INT_VALUES = (99, -99, 2 ** 31, -(2 ** 63), 2 ** 62, 0, -1, 7)
ATTR_NAMES = ("axis", "axes", "perm", "keepdims", "to", "equation", "mode", "pads", "strides",
              "kernel_shape", "dilations", "group", "alpha", "value", "direction", "hidden_size")
BAD_BYTES = (b"\xff\xfe\x80", b"\xc3\x28", b"ij,jk\xe2\x82->ik", b"", b"\x00")


def _all_value_infos(g):
    return list(g.input) + list(g.output) + list(g.value_info)


def _all_tensors(g):
    """Initializers and the tensors of Constant nodes' attributes."""
    out = list(g.initializer)
    for n in g.node:
        for a in n.attribute:
            if a.HasField("t"):
                out.append(a.t)
    return out


def _names(g) -> List[str]:
    names = [vi.name for vi in g.input] + [t.name for t in g.initializer]
    for n in g.node:
        names.extend(o for o in n.output if o)
    return names


def m_dim(m, rng):
    g = m.graph
    dims = []
    for vi in _all_value_infos(g):
        if vi.type.HasField("tensor_type") and vi.type.tensor_type.HasField("shape"):
            dims.extend(("vi", vi.name, d) for d in vi.type.tensor_type.shape.dim)
    for t in _all_tensors(g):
        dims.extend(("tensor", t.name, (t, i)) for i in range(len(t.dims)))
    if not dims:
        return None
    kind, name, d = rng.choice(dims)
    if kind == "vi":
        if rng.random() < 0.15:
            d.dim_param = rng.choice(["N", "batch", "?"])
            return f"dim of {name} -> symbolic"
        v = rng.choice(DIM_VALUES)
        d.dim_value = v
        return f"dim of {name} -> {v}"
    t, i = d
    v = rng.choice(DIM_VALUES + (1, 3))
    t.dims[i] = v
    return f"dim {i} of tensor {name} -> {v}"


def m_elem_type(m, rng):
    g = m.graph
    targets = [("vi", vi) for vi in _all_value_infos(g) if vi.type.HasField("tensor_type")]
    targets += [("tensor", t) for t in _all_tensors(g)]
    if not targets:
        return None
    kind, x = rng.choice(targets)
    v = rng.choice(list(range(0, 24)) + [99])
    if kind == "vi":
        x.type.tensor_type.elem_type = v
    else:
        x.data_type = v
    return f"element type of {x.name} -> {v}"


def m_node_input(m, rng):
    nodes = [n for n in m.graph.node if len(n.input)]
    if not nodes:
        return None
    n = rng.choice(nodes)
    i = rng.randrange(len(n.input))
    r = rng.random()
    if r < 0.3:
        del n.input[i]
        return f"deleted input {i} of {n.op_type}"
    if r < 0.45:
        n.input[i] = ""
        return f"input {i} of {n.op_type} -> ''"
    if r < 0.55:
        n.input[i] = "no_such_value"
        return f"input {i} of {n.op_type} -> undefined name"
    if r < 0.7:
        n.input.append(rng.choice(_names(m.graph)))
        return f"extra input on {n.op_type}"
    n.input[i] = rng.choice(_names(m.graph))
    return f"input {i} of {n.op_type} rewired to {n.input[i]}"


def m_duplicate_name(m, rng):
    g = m.graph
    names = _names(g)
    if not names:
        return None
    r = rng.random()
    if r < 0.4 and g.node and any(n.output for n in g.node):
        n = rng.choice([n for n in g.node if n.output])
        n.output[0] = rng.choice(names)
        return f"output of {n.op_type} renamed to {n.output[0]}"
    if r < 0.7 and g.initializer:
        t = rng.choice(list(g.initializer))
        t.name = rng.choice(names)
        return f"initializer renamed to {t.name}"
    if g.input:
        vi = g.input.add()
        vi.CopyFrom(rng.choice(list(g.input)[:-1]) if len(g.input) > 1 else g.input[0])
        return f"graph input {vi.name} duplicated"
    return None


def _set_attr(a, rng):
    from onnx import AttributeProto as AP, helper as oh
    keep = a.name
    kind = rng.choice(["int", "float", "string", "bad_string", "ints", "floats", "empty_ints",
                       "tensor", "graph", "mistyped"])
    if kind == "mistyped":  # the type field disagrees with the value set
        a.type = rng.choice([AP.INT, AP.FLOAT, AP.STRING, AP.INTS, AP.TENSOR, AP.GRAPH, AP.UNDEFINED])
        return f"attribute {keep}: type field -> {a.type}"
    a.Clear()
    a.name = keep
    if kind == "int":
        a.type, a.i = AP.INT, rng.choice(INT_VALUES)
        return f"attribute {keep} -> {a.i}"
    if kind == "float":
        a.type, a.f = AP.FLOAT, rng.choice([1.5, -1e30, float("nan"), float("inf"), 0.0])
        return f"attribute {keep} -> float {a.f}"
    if kind == "string":
        a.type, a.s = AP.STRING, rng.choice([b"abc", b"", b"NOTSET", b"->", b"ij,jk"])
        return f"attribute {keep} -> string {a.s!r}"
    if kind == "bad_string":
        a.type, a.s = AP.STRING, rng.choice(BAD_BYTES)
        return f"attribute {keep} -> bytes {a.s!r}"
    if kind == "ints":
        a.type = AP.INTS
        a.ints.extend(rng.choice(INT_VALUES) for _ in range(rng.randrange(1, 5)))
        return f"attribute {keep} -> ints {list(a.ints)}"
    if kind == "floats":
        a.type = AP.FLOATS
        a.floats.extend([0.5] * rng.randrange(0, 4))
        return f"attribute {keep} -> floats {list(a.floats)}"
    if kind == "empty_ints":
        a.type = AP.INTS
        return f"attribute {keep} -> ints []"
    if kind == "tensor":
        import numpy as np
        from onnx import numpy_helper as nh
        a.type = AP.TENSOR
        a.t.CopyFrom(nh.from_array(np.zeros(rng.choice([(0,), (2, 2), ()]), np.float32)))
        return f"attribute {keep} -> tensor"
    a.type = AP.GRAPH
    a.g.CopyFrom(oh.make_graph([], "empty", [], []))
    return f"attribute {keep} -> empty graph"


def m_attr(m, rng):
    g = m.graph
    if not g.node:
        return None
    n = rng.choice(list(g.node))
    r = rng.random()
    if n.attribute and r < 0.55:
        return f"{n.op_type}: " + _set_attr(rng.choice(list(n.attribute)), rng)
    if n.attribute and r < 0.7:
        a = rng.choice(list(n.attribute))
        n.attribute.remove(a)
        return f"{n.op_type}: attribute {a.name} deleted"
    if n.attribute and r < 0.85:  # an int attribute out of range
        ints = [a for a in n.attribute if a.type == 2 or a.type == 7]
        if ints:
            a = rng.choice(ints)
            if a.type == 2:
                a.i = rng.choice(INT_VALUES)
                return f"{n.op_type}: attribute {a.name} -> {a.i}"
            if len(a.ints):
                a.ints[rng.randrange(len(a.ints))] = rng.choice(INT_VALUES)
                return f"{n.op_type}: attribute {a.name} -> {list(a.ints)}"
    a = n.attribute.add()
    a.name = rng.choice(ATTR_NAMES)
    if sum(1 for x in n.attribute if x.name == a.name) > 1 and rng.random() < 0.5:
        n.attribute.remove(a)
        return None
    return f"{n.op_type}: added " + _set_attr(a, rng)


def m_truncate(m, rng):
    ts = [t for t in _all_tensors(m.graph)]
    if not ts:
        return None
    t = rng.choice(ts)
    if t.raw_data:
        cut = rng.randrange(0, len(t.raw_data))
        t.raw_data = t.raw_data[:cut]
        return f"raw data of {t.name or 'constant'} truncated to {cut} bytes"
    for field in ("float_data", "int32_data", "int64_data", "double_data", "uint64_data", "string_data"):
        data = getattr(t, field)
        if len(data):
            cut = rng.randrange(0, len(data))
            del data[cut:]
            return f"{field} of {t.name or 'constant'} truncated to {cut}"
    t.raw_data = b"\x01\x02\x03"
    return f"{t.name or 'constant'} given 3 bytes of raw data"


def m_opset(m, rng):
    v = rng.choice([1, 6, 99, 0, -1, 8, 10])
    for imp in m.opset_import:
        if imp.domain in ("", "ai.onnx"):
            imp.version = v
            return f"opset -> {v}"
    return None


def m_delete_node(m, rng):
    if len(m.graph.node) < 2 and rng.random() < 0.5:
        return None
    if not m.graph.node:
        return None
    n = rng.choice(list(m.graph.node))
    m.graph.node.remove(n)
    return f"node {n.op_type} deleted"


MUTATIONS: Dict[str, Tuple[Callable, float]] = {
    "dim": (m_dim, 3.0),
    "elem_type": (m_elem_type, 1.5),
    "node_input": (m_node_input, 2.0),
    "duplicate_name": (m_duplicate_name, 1.0),
    "attr": (m_attr, 3.0),
    "truncate": (m_truncate, 1.5),
    "opset": (m_opset, 0.5),
    "delete_node": (m_delete_node, 0.5),
}


def make_mutant(corpus: Sequence[Tuple[str, bytes]], seed: int, i: int):
    """(base name, mutated ModelProto, [mutation descriptions]) of mutant ``i``."""
    import onnx
    rng = random.Random(f"{seed}:{i}")
    name, data = corpus[rng.randrange(len(corpus))]
    m = onnx.ModelProto()
    m.ParseFromString(data)
    names = list(MUTATIONS)
    weights = [MUTATIONS[k][1] for k in names]
    done: List[str] = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        for _attempt in range(4):
            k = rng.choices(names, weights)[0]
            d = MUTATIONS[k][0](m, rng)
            if d:
                done.append(f"{k}: {d}")
                break
    return name, m, done


# ---------------------------------------------------------------------------
# running one case (inside a worker)
# ---------------------------------------------------------------------------
def _frame_of(tb) -> str:
    """The innermost frame of a traceback, in relay_mlir code if any: ``file:function``."""
    frames = traceback.extract_tb(tb)
    ours = [f for f in frames if "relay_mlir" in f.filename]
    f = (ours or frames)[-1] if frames else None
    if f is None:
        return "?"
    fn = f.filename
    if "relay_mlir" in fn:
        fn = fn[fn.rindex("relay_mlir"):]
    else:
        fn = os.path.basename(fn)
    return f"{fn}:{f.name}"


def _norm(msg: str) -> str:
    """A message with names and numbers replaced, for grouping."""
    msg = msg.strip().splitlines()[0] if msg.strip() else ""
    msg = re.sub(r"'[^']*'", "'_'", msg)
    msg = re.sub(r"-?\d+", "N", msg)
    return msg[:160]


def run_case(data: bytes, do_compile: bool = True) -> dict:
    import onnx
    import relay_mlir
    from relay_mlir.frontend import from_onnx
    from relay_mlir.frontend import common
    UnexpectedImportError = getattr(common, "UnexpectedImportError", ())  # (absent before issue 13)
    m = onnx.ModelProto()
    m.ParseFromString(data)
    try:
        mod = from_onnx(m)
        if do_compile:
            relay_mlir.compile(mod, target="llvm-cpu")
        return {"cat": "ok"}
    except MemoryError as e:
        return {"cat": "memory_error", "sig": f"MemoryError@{_frame_of(e.__traceback__)}"}
    except UnexpectedImportError as e:
        return {"cat": "internal_error", "sig": f"{e.cause_type}@{e.cause_frame}", "msg": str(e)[:400]}
    except relay_mlir.CompileError as e:
        text = str(e)
        if re.search(r"crashed|internal compiler error", text):
            return {"cat": "tool_crash", "sig": _norm(text), "msg": text[:400]}
        return {"cat": "compile_error", "sig": _norm(e.message), "msg": text[:400]}
    except Exception as e:  # noqa: BLE001 - the point: anything escaping is recorded
        return {"cat": "exception", "sig": f"{type(e).__name__}@{_frame_of(e.__traceback__)}",
                "msg": f"{type(e).__name__}: {str(e)[:300]}"}


def worker_main(mem_mb: int, do_compile: bool) -> None:
    """Reads cases (JSON lines) on stdin, writes one JSON result per line."""
    import resource
    if mem_mb > 0:
        lim = mem_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # anything else printed goes to stderr
    import warnings
    warnings.simplefilter("ignore")
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        try:
            res = run_case(base64.b64decode(req["data"]), do_compile)
        except MemoryError:
            res = {"cat": "memory_error", "sig": "MemoryError@run_case"}
        out.write(json.dumps(res) + "\n")


class Worker:
    """A worker process with a per-case timeout; restarted after a crash or timeout."""

    def __init__(self, mem_mb: int, do_compile: bool, stderr) -> None:
        self.args = [sys.executable, os.path.abspath(__file__), "--worker", "--mem-mb", str(mem_mb)]
        if not do_compile:
            self.args.append("--no-compile")
        self.stderr = stderr
        self.proc: Optional[subprocess.Popen] = None

    def _start(self) -> None:
        env = dict(os.environ, RELAY_MLIR_ISOLATE="1")
        self.proc = subprocess.Popen(self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.stderr, text=True, env=env, start_new_session=True)

    def stop(self) -> None:
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)  # the worker and the tools it started
            except ProcessLookupError:
                pass
            self.proc.wait()
            self.proc = None

    def run(self, data: bytes, timeout: float) -> dict:
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        p = self.proc
        try:
            p.stdin.write(json.dumps({"data": base64.b64encode(data).decode()}) + "\n")
            p.stdin.flush()
        except (BrokenPipeError, OSError):
            pass
        ready, _, _ = select.select([p.stdout], [], [], timeout)
        if not ready:
            self.stop()
            return {"cat": "timeout", "sig": "timeout"}
        line = p.stdout.readline()
        if line:
            return json.loads(line)
        rc = p.wait()
        self.stop()
        how = f"signal {signal.Signals(-rc).name}" if rc < 0 else f"exit {rc}"
        return {"cat": "crash", "sig": how}


# ---------------------------------------------------------------------------
def load_corpus(cache: Path = CACHE) -> List[Tuple[str, bytes]]:
    return node_test_corpus(cache) + tiny_models()


def campaign(seed: int, count: int, start: int = 0, timeout: float = 60.0, mem_mb: int = 4096,
             do_compile: bool = True, save_dir: Optional[Path] = None, verbose: bool = False,
             corpus: Optional[List[Tuple[str, bytes]]] = None, log=None) -> dict:
    corpus = corpus if corpus is not None else load_corpus()
    stderr = open(os.devnull, "w") if not verbose else None
    w = Worker(mem_mb, do_compile, stderr)
    counts = collections.Counter()
    sigs: Dict[str, Dict[str, dict]] = collections.defaultdict(dict)
    cases = []
    t0 = time.time()
    try:
        for i in range(start, start + count):
            base, m, muts = make_mutant(corpus, seed, i)
            data = m.SerializeToString()
            t = time.time()
            res = w.run(data, timeout)
            res.update(i=i, base=base, mutations=muts, s=round(time.time() - t, 2))
            cat = res["cat"]
            counts[cat] += 1
            if cat != "ok":
                entry = sigs[cat].setdefault(res.get("sig", "?"), {"count": 0, "example": i, "base": base,
                                                                    "mutations": muts, "msg": res.get("msg", "")})
                entry["count"] += 1
            if cat in BAD and save_dir is not None:
                save_dir.mkdir(parents=True, exist_ok=True)
                (save_dir / f"seed{seed}_{i}_{cat}.onnx").write_bytes(data)
            cases.append(res)
            if log is not None and (verbose or cat in BAD):
                log(f"[{i}] {cat} {res.get('sig', '')} ({base}: {'; '.join(muts)}) {res['s']}s")
    finally:
        w.stop()
        if stderr is not None:
            stderr.close()
    return {"seed": seed, "start": start, "count": count, "compile": do_compile,
            "seconds": round(time.time() - t0, 1), "counts": {c: counts.get(c, 0) for c in CATEGORIES},
            "signatures": sigs, "cases": cases}


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--count", type=int, default=100)
    p.add_argument("--start", type=int, default=0, help="first mutant index")
    p.add_argument("--only", type=int, help="run just mutant ONLY (with -v: print its mutations)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per case (default 60)")
    p.add_argument("--mem-mb", type=int, default=4096, help="RLIMIT_AS of the worker (default 4096)")
    p.add_argument("--no-compile", action="store_true", help="import only (no relay_mlir.compile)")
    p.add_argument("--save-dir", type=Path, help="write the models of bad cases here")
    p.add_argument("--write", type=Path, help="with --only: write the mutant model to this path")
    p.add_argument("--json", type=Path, help="write counts, signatures and cases here")
    p.add_argument("-v", "--verbose", action="store_true")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.worker:
        worker_main(a.mem_mb, not a.no_compile)
        return 0
    corpus = load_corpus()
    if a.only is not None:
        base, m, muts = make_mutant(corpus, a.seed, a.only)
        print(f"mutant {a.only} of seed {a.seed}: {base}: {'; '.join(muts)}")
        if a.write:
            a.write.write_bytes(m.SerializeToString())
        a.start, a.count = a.only, 1
    res = campaign(a.seed, a.count, a.start, a.timeout, a.mem_mb, not a.no_compile, a.save_dir, a.verbose,
                   corpus, log=lambda s: print(s, flush=True))
    print(f"seed {a.seed}, mutants {a.start}..{a.start + a.count - 1}, {res['seconds']} s, corpus {len(corpus)}")
    for c in CATEGORIES:
        print(f"  {c:15s} {res['counts'][c]}")
    for cat in BAD + ("tool_crash",):
        for sig, e in sorted(res["signatures"].get(cat, {}).items(), key=lambda kv: -kv[1]["count"]):
            print(f"  {cat}: {sig} x{e['count']} (e.g. #{e['example']} {e['base']}: {'; '.join(e['mutations'])})")
    if a.json:
        a.json.write_text(json.dumps(res, indent=1))
    return 1 if any(res["counts"][c] for c in BAD) else 0


if __name__ == "__main__":
    sys.exit(main())
