#!/usr/bin/env python3
"""Token-mutation fuzzer for ``relay-mlir-opt`` (issue 13: never crash, never lie).

Takes the lit inputs under ``test/lit`` as corpus (``.mlir`` files split at
``// -----``, RUN/CHECK/expected-* comment lines stripped), applies 1-3
seeded token mutations per mutant (numbers, shapes, dtypes, relay op names,
attribute array element types, dropped/duplicated lines, deleted
``relay.yield``, ...), and runs ``relay-mlir-opt`` on each mutant in a
subprocess with a timeout and a memory limit, twice: plain parse + verify,
then (if that succeeded) ``--relay-to-iree-input``. Outcomes:

* ``ok``: exit status 0;
* ``diagnosed``: non-zero exit status with an ``error:`` diagnostic;
* ``crash``: killed by a signal, an assertion/``LLVM ERROR``/stack dump, a
  non-zero exit without a diagnostic, or exit status 0 with an error
  (a lie);
* ``timeout``: still running after ``--timeout`` seconds.

``--mode compile`` runs ``relay_mlir.compile(text)`` (llvm-cpu) on each
mutant instead, in a persistent Python worker: the contract of the Python
package (a result or a ``CompileError``; a ``CompileError`` reporting a
crashed tool, any other exception or the worker dying is a ``crash``).

Mutant ``i`` of seed ``s`` depends only on ``(s, i)`` and the corpus, so
``--index i`` regenerates it. Crashing inputs are written to ``--crash-dir``
(one file per mutant, at most ``--keep`` per signature, the command and
signature in a header comment), the summary printed at the end:

    $ python fuzz/mlir_mutate.py --seed 10 --count 3000 --crash-dir /tmp/crashes
    mutants 3000  runs 3238  ok 183  diagnosed 2817  crash 0  timeout 0  (84.2 s)

The tool: ``--opt``, else ``$RELAY_MLIR_BIN_DIR/relay-mlir-opt``, else
``$RELAY_MLIR_OPT``, else the one installed with the ``relay_mlir``
package (``relay_mlir._tools.tool_path``), else ``relay-mlir-opt`` on PATH.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = ROOT / "test" / "lit"

MODES = OrderedDict([
    ("parse", []),                                  # parse + verify (+ print)
    ("pipeline", ["--relay-to-iree-input"]),        # infer, lower, check
])
#: ``--mode compile`` (not in the default modes): ``relay_mlir.compile(text)``
#: for llvm-cpu in a persistent Python worker (``CompileTarget``)
COMPILE_MODE = "compile"

# -- corpus -------------------------------------------------------------------

_STRIP = re.compile(r"^\s*//\s*(RUN|CHECK|expected-|REQUIRES|XFAIL|UNSUPPORTED)")


_TOP = re.compile(r"^(?:func\.func|relay\.adt|module)\b.*?^}[ \t]*$", re.M | re.S)


def load_corpus(root: Path = DEFAULT_CORPUS) -> List[Tuple[str, str]]:
    """``(name, text)`` seeds from the ``.mlir`` files under ``root``.

    Every split-input chunk is a seed; chunks of valid tests (files not named
    ``*-invalid.mlir``) whose functions do not refer to each other (no
    symbol references but their own names) are also split into one seed per
    function, so that a mutant more often stays valid and reaches the
    lowering. Names are ``file#chunk`` or ``file#chunk.function``.
    """
    out: List[Tuple[str, str]] = []
    for path in sorted(root.rglob("*.mlir")):
        if "Inputs" in path.parts:
            continue
        text = path.read_text()
        if "relay-mlir-opt crashed" in text:
            # a reproducer of a known upstream abort (the driver's crash report is its test):
            # unmutated, it is that crash again, not a finding
            continue
        for k, chunk in enumerate(re.split(r"^// -----\s*$", text, flags=re.M)):
            lines = [ln for ln in chunk.splitlines()
                     if not _STRIP.match(ln) and not ln.lstrip().startswith("//")]
            body = "\n".join(lines).strip()
            if not body:
                continue
            name = f"{path.relative_to(root)}#{k}"
            out.append((name, body + "\n"))
            if path.stem.endswith("-invalid") or "relay.adt" in body or "@" not in body:
                continue
            units = _TOP.findall(body)
            refs = set(re.findall(r"(?<!func\.func )@[\w.$-]+", body))
            if len(units) > 1 and not refs:
                out.extend((f"{name}.{j}", u + "\n") for j, u in enumerate(units))
    return out


# -- mutations ----------------------------------------------------------------

INTERESTING_INTS = ["0", "-1", "1", "2", "3", "7", "-2", "64", "2147483648",
                    "4611686018427387904", "-4611686018427387904", "9223372036854775807"]
DTYPES = ["f16", "bf16", "f32", "f64", "i1", "i8", "i16", "i32", "i64", "ui8", "ui32",
          "si32", "index", "i3", "f8E4M3FN", "complex<f32>", "none"]
ARRAY_ELEMS = ["i64", "i32", "i8", "i1", "index", "f32", "f64", "i3", "ui64", "bf16"]
STRINGS = ['"NCHW"', '"NHWC"', '"OIHW"', '"HWIO"', '"NCW"', '""', '"XYZW"', '"NCHW4c"',
           '"SAME"', '"mean"', '"bilinear"', '"nearest_neighbor"', '"ij,jk->ik"', '"i,i->"']

_INT = re.compile(r"(?<![\w.%#@^$])-?\d+(?![\w.])")
_FLOAT = re.compile(r"(?<![\w.%#@^$])-?\d+\.\d*(?:[eE][-+]?\d+)?")
_SHAPE = re.compile(r"(?<=tensor<)((?:(?:\d+|\?)x)*)(\w+)(?=>)")
_DTYPE = re.compile(r"\b(?:bf16|f16|f32|f64|i1|i8|i16|i32|i64|ui8|ui32|si32|index)\b")
_OPNAME = re.compile(r"\brelay\.[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)?\b")
_ARRAY = re.compile(r"array<(\w+)(:?)")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_SSA = re.compile(r"%[\w.$-]+")
_SYMBOL = re.compile(r"@[\w.$-]+")


def _sub_one(rng: random.Random, text: str, pattern: re.Pattern, repl) -> Optional[str]:
    """Replaces one random match of ``pattern`` by ``repl(match)``; None if no match."""
    ms = list(pattern.finditer(text))
    if not ms:
        return None
    m = rng.choice(ms)
    new = repl(m)
    if new is None:
        return None
    return text[:m.start()] + new + text[m.end():]


def m_int(rng, text, ctx):
    def repl(m):
        v = int(m.group(0))
        return rng.choice(INTERESTING_INTS + [str(v + 1), str(v - 1), str(v * 2), str(-v)])
    return _sub_one(rng, text, _INT, repl)


def m_float(rng, text, ctx):
    return _sub_one(rng, text, _FLOAT, lambda m: rng.choice(
        ["0.0", "-1.0", "1.0e+300", "-0.0", "0x7FC00000", "3", "1.5e-45"]))


def m_shape(rng, text, ctx):
    def repl(m):
        dims = [d for d in m.group(1).split("x") if d]
        how = rng.randrange(5)
        if how == 0 and dims:
            del dims[rng.randrange(len(dims))]
        elif how == 1:
            dims.insert(rng.randrange(len(dims) + 1), rng.choice(["1", "2", "3", "0", "?"]))
        elif how == 2 and dims:
            dims[rng.randrange(len(dims))] = rng.choice(["0", "1", "?", "5", "4611686018427387904"])
        elif how == 3 and dims:
            rng.shuffle(dims)
        else:
            dims = [rng.choice(["1", "2", "3", "?"]) for _ in range(rng.randrange(7))]
        return "".join(d + "x" for d in dims) + m.group(2)
    return _sub_one(rng, text, _SHAPE, repl)


def m_type_all(rng, text, ctx):
    """Changes one tensor type (its shape or dtype) at every occurrence, so
    that uses still agree with definitions and the mutant more often
    verifies and reaches the lowering."""
    types = sorted(set(re.findall(r"tensor<[^<>]*>", text)))
    if not types:
        return None
    old = rng.choice(types)
    m = _SHAPE.search(old)
    if m is None:
        return None
    if rng.random() < 0.5:
        new = _sub_one(rng, old, _SHAPE, lambda _: m_shape(rng, old, ctx)[len("tensor<"):-1])
    else:
        new = old[:m.start(2)] + rng.choice(DTYPES[:13]) + old[m.end(2):]
    return None if new is None else text.replace(old, new)


def m_dtype_all(rng, text, ctx):
    """Replaces one dtype by another everywhere (f32 -> f16, i64 -> i32, ...)."""
    found = sorted(set(_DTYPE.findall(text)))
    if not found:
        return None
    old = rng.choice(found)
    return re.sub(rf"\b{old}\b", rng.choice(DTYPES[:13]), text)


def m_dtype(rng, text, ctx):
    return _sub_one(rng, text, _DTYPE, lambda m: rng.choice(DTYPES))


def m_opname(rng, text, ctx):
    names = ctx["opnames"]
    return _sub_one(rng, text, _OPNAME, lambda m: rng.choice(names))


def m_array(rng, text, ctx):
    def repl(m):
        return "array<" + rng.choice(ARRAY_ELEMS) + m.group(2)
    return _sub_one(rng, text, _ARRAY, repl)


def m_array_to_list(rng, text, ctx):
    """``array<i64: 1, 2>`` becomes ``[1, 2]`` or ``dense<[1, 2]> : tensor<2xi64>``."""
    pat = re.compile(r"array<\w+:?\s*([^>]*)>")

    def repl(m):
        items = m.group(1)
        n = len([x for x in items.split(",") if x.strip()])
        return rng.choice([f"[{items}]", f"dense<[{items}]> : tensor<{n}xi64>", "unit", "1 : i64"])
    return _sub_one(rng, text, pat, repl)


def m_string(rng, text, ctx):
    return _sub_one(rng, text, _STRING, lambda m: rng.choice(STRINGS))


def m_ssa(rng, text, ctx):
    names = sorted(set(_SSA.findall(text)))
    if len(names) < 2:
        return None
    return _sub_one(rng, text, _SSA, lambda m: rng.choice(names))


def m_symbol(rng, text, ctx):
    names = sorted(set(_SYMBOL.findall(text))) + ["@main", "@missing"]
    return _sub_one(rng, text, _SYMBOL, lambda m: rng.choice(names))


def _lines(rng, text, fn):
    lines = text.splitlines()
    if not lines:
        return None
    out = fn(lines)
    return None if out is None else "\n".join(out) + "\n"


def m_drop_line(rng, text, ctx):
    def f(lines):
        del lines[rng.randrange(len(lines))]
        return lines
    return _lines(rng, text, f)


def m_dup_line(rng, text, ctx):
    def f(lines):
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
        return lines
    return _lines(rng, text, f)


def m_swap_lines(rng, text, ctx):
    def f(lines):
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return lines
    return _lines(rng, text, f)


def m_dup_block(rng, text, ctx):
    """Duplicates a top-level definition (a symbol defined twice)."""
    starts = [m.start() for m in re.finditer(r"^(?:func\.func|relay\.adt|  relay\.constructor)", text, re.M)]
    if not starts:
        return None
    s = rng.choice(starts)
    if text.startswith("  relay.constructor", s):
        end = text.index("\n", s) + 1
    else:
        m = re.compile(r"^}\s*$", re.M).search(text, s)
        end = m.end() + 1 if m else len(text)
    return text[:end] + text[s:end] + text[end:]


def m_drop_yield(rng, text, ctx):
    def f(lines):
        idx = [i for i, ln in enumerate(lines) if "relay.yield" in ln]
        if not idx:
            return None
        del lines[rng.choice(idx)]
        return lines
    return _lines(rng, text, f)


def m_delete_token(rng, text, ctx):
    toks = list(re.finditer(r"[\w.%@#!]+|[<>(){}\[\],:=]", text))
    if not toks:
        return None
    m = rng.choice(toks)
    return text[:m.start()] + text[m.end():]


MUTATORS = [
    (m_int, 6), (m_float, 1), (m_shape, 3), (m_type_all, 5), (m_dtype, 2), (m_dtype_all, 3), (m_opname, 5), (m_array, 3),
    (m_array_to_list, 1), (m_string, 2), (m_ssa, 2), (m_symbol, 2), (m_drop_line, 2),
    (m_dup_line, 2), (m_swap_lines, 1), (m_dup_block, 1), (m_drop_yield, 2),
    (m_delete_token, 1),
]


def mutate(rng: random.Random, text: str, ctx: dict) -> Tuple[str, List[str]]:
    """1-3 mutations of ``text``; returns the mutant and the mutator names applied."""
    chosen = [(f, w) for f, w in MUTATORS
              if not ctx.get("mutators") or f.__name__[2:] in ctx["mutators"]]
    fns = [f for f, _ in chosen]
    weights = [w for _, w in chosen]
    applied: List[str] = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        for _attempt in range(8):
            fn = rng.choices(fns, weights)[0]
            new = fn(rng, text, ctx)
            if new is not None and new != text:
                text = new
                applied.append(fn.__name__[2:])
                break
    return text, applied


def make_mutant(seed: int, index: int, corpus: Sequence[Tuple[str, str]], ctx: dict
                ) -> Tuple[str, str, List[str]]:
    """Mutant ``index`` of ``seed``: ``(origin, text, mutators)``."""
    rng = random.Random(f"{seed}:{index}")
    # seeds from valid tests 3 times out of 4: their mutants get further
    valid = [c for c in corpus if "-invalid" not in c[0]] or list(corpus)
    name, text = rng.choice(valid if rng.random() < 0.75 else corpus)
    text, applied = mutate(rng, text, ctx)
    return name, text, applied


def make_context(corpus: Sequence[Tuple[str, str]], mutators: Sequence[str] = ()) -> dict:
    """What the mutators share: the relay op names of the corpus, and the
    mutators to use (all when empty)."""
    names = sorted({n for _, t in corpus for n in _OPNAME.findall(t)})
    known = {f.__name__[2:] for f, _ in MUTATORS}
    unknown = set(mutators) - known
    if unknown:
        raise ValueError(f"unknown mutators {sorted(unknown)} (known: {', '.join(sorted(known))})")
    return {"opnames": names, "mutators": list(mutators)}


# -- running ------------------------------------------------------------------

def find_opt() -> str:
    """Path of relay-mlir-opt (see the module docstring)."""
    bin_dir = os.environ.get("RELAY_MLIR_BIN_DIR")
    if bin_dir and os.path.exists(os.path.join(bin_dir, "relay-mlir-opt")):
        return os.path.join(bin_dir, "relay-mlir-opt")
    if os.environ.get("RELAY_MLIR_OPT"):
        return os.environ["RELAY_MLIR_OPT"]
    try:
        from relay_mlir._tools import tool_path
        p = tool_path("relay-mlir-opt")
        if p.exists():
            return str(p)
    except ImportError:
        pass
    found = shutil.which("relay-mlir-opt")
    if found:
        return found
    raise SystemExit("relay-mlir-opt not found: pass --opt or set RELAY_MLIR_BIN_DIR")


_ASSERT = re.compile(r"Assertion `(.*)' failed")
_FATAL = re.compile(r"LLVM ERROR: (.*)")
_ERROR = re.compile(r"(^|: )error: ", re.M)
_CRASH_MARKS = ("PLEASE submit a bug report", "Stack dump:", "LLVM ERROR:", "Assertion `",
                "relay-mlir-opt crashed (signal")


@dataclass
class Outcome:
    kind: str                 # ok | diagnosed | crash | timeout
    signature: str = ""
    stderr: str = ""
    seconds: float = 0.0


def signature_of(stderr: str, rc: int) -> str:
    """A short stable name of a crash: the assertion, the fatal error or the signal."""
    m = _ASSERT.search(stderr)
    if m:
        where = re.search(r"([\w./-]+\.(?:cpp|h)):\d+: ", stderr)
        loc = os.path.basename(where.group(1)) if where else "?"
        return f"{loc}: {m.group(1)}"
    m = _FATAL.search(stderr)
    if m:
        return "LLVM ERROR: " + re.sub(r"\d+", "N", m.group(1).strip())[:120]
    m = re.search(r"relay-mlir-opt crashed \(signal (\d+)", stderr)  # the driver's report of its child
    if rc < 0 or m:
        frames = re.findall(r"\b(mlir::relay::[\w:]+)", stderr)
        return f"signal {-rc if rc < 0 else m.group(1)}" + (f" in {frames[0]}" if frames else "")
    if rc == 0:
        return "exit status 0 with an error diagnostic"
    return f"exit status {rc} without a diagnostic"


def _limit_memory(mb: int):
    def f():
        b = mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (b, b))
    return f


def run_opt(opt: str, path: str, args: Sequence[str], timeout: float, mem_mb: int) -> Outcome:
    """Runs ``opt path args`` and classifies the outcome."""
    t0 = time.perf_counter()
    try:
        p = subprocess.run([opt, path, *args, "-o", os.devnull], stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=timeout,
                           preexec_fn=_limit_memory(mem_mb) if mem_mb else None)
    except subprocess.TimeoutExpired as e:
        err = (e.stderr or b"").decode(errors="replace")
        return Outcome("timeout", f"timeout after {timeout:g} s", err, time.perf_counter() - t0)
    err = p.stderr.decode(errors="replace")
    dt = time.perf_counter() - t0
    crashed = p.returncode < 0 or any(mark in err for mark in _CRASH_MARKS)
    has_error = bool(_ERROR.search(err))
    if not crashed and p.returncode == 0 and not has_error:
        return Outcome("ok", "", err, dt)
    if not crashed and p.returncode > 0 and has_error:
        return Outcome("diagnosed", "", err, dt)
    return Outcome("crash", signature_of(err, p.returncode), err, dt)


class CompileTarget:
    """Runs ``relay_mlir.compile(text)`` on mutants in a persistent Python worker (restarted
    after it dies or times out; address space limited). A ``CompileError`` is ``diagnosed``,
    unless it reports a crashed tool (the lowering worker or iree-compile: a C++ bug reported
    cleanly, counted as a ``crash``); any other exception, or the worker dying, is a ``crash``."""

    _WORKER = r"""
import json, sys, traceback
import relay_mlir
for line in sys.stdin:
    path = json.loads(line)
    try:
        relay_mlir.compile(open(path).read(), target="llvm-cpu", source_name=path)
        out = {"kind": "ok"}
    except relay_mlir.CompileError as e:
        out = {"kind": "diagnosed", "message": e.message, "text": str(e)}
    except Exception as e:
        tb = traceback.extract_tb(e.__traceback__)
        where = f"{tb[-1].name}" if tb else "?"
        out = {"kind": "exception", "message": f"{type(e).__name__}@{where}: {e}"[:300]}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
"""

    def __init__(self, mem_mb: int) -> None:
        self.mem_mb = mem_mb
        self.proc: Optional[subprocess.Popen] = None

    def _start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", self._WORKER], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     preexec_fn=_limit_memory(self.mem_mb) if self.mem_mb else None)

    def _stop(self) -> int:
        if self.proc is None:
            return 0
        self.proc.kill()
        rc = self.proc.wait()
        self.proc = None
        return rc

    def run(self, path: str, timeout: float) -> Outcome:
        import json
        import select

        t0 = time.perf_counter()
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        self.proc.stdin.write(json.dumps(path) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            self._stop()
            return Outcome("timeout", f"timeout after {timeout:g} s", "", time.perf_counter() - t0)
        line = self.proc.stdout.readline()
        dt = time.perf_counter() - t0
        if not line:
            rc = self.proc.wait()
            err = self.proc.stderr.read()
            self.proc = None
            return Outcome("crash", "python worker died: " + signature_of(err, rc), err, dt)
        out = json.loads(line)
        if out["kind"] == "ok":
            return Outcome("ok", "", "", dt)
        if out["kind"] == "diagnosed" and "crashed" not in out["message"]:
            return Outcome("diagnosed", "", out.get("text", ""), dt)
        msg = re.sub(r"\d+", "N", out["message"])
        return Outcome("crash", f"compile: {msg}", out.get("text", out["message"]), dt)

    def close(self) -> None:
        self._stop()


@dataclass
class Campaign:
    mutants: int = 0
    runs: int = 0
    counts: Counter = field(default_factory=Counter)          # per mutant, worst mode
    mode_counts: Dict[str, Counter] = field(default_factory=dict)
    signatures: Dict[str, List[str]] = field(default_factory=dict)  # sig -> [mode:seed:index]
    seconds: float = 0.0
    interrupted: bool = False

    def summary(self) -> str:
        c = self.counts
        s = ("(interrupted) " if self.interrupted else "") + (f"mutants {self.mutants}  runs {self.runs}  ok {c['ok']}  diagnosed {c['diagnosed']}  "
             f"crash {c['crash']}  timeout {c['timeout']}  ({self.seconds:.1f} s)")
        for mode, mc in self.mode_counts.items():
            s += f"\n  {mode:9s} " + "  ".join(f"{k} {mc[k]}" for k in
                                               ("ok", "diagnosed", "crash", "timeout"))
        for sig, where in self.signatures.items():
            s += f"\n  [{len(where)}x] {sig}\n       e.g. {', '.join(where[:3])}"
        return s


_RANK = {"ok": 0, "diagnosed": 1, "timeout": 2, "crash": 3}


def run_campaign(seed: int, count: int, opt: Optional[str] = None, corpus_dir: Path = DEFAULT_CORPUS,
                 timeout: float = 10.0, mem_mb: int = 2048, crash_dir: Optional[Path] = None,
                 keep: int = 3, start: int = 0, time_budget: Optional[float] = None,
                 modes: Sequence[str] = tuple(MODES), verbose: bool = False,
                 indices: Optional[Sequence[int]] = None, mutators: Sequence[str] = (),
                 progress: int = 0) -> Campaign:
    """Generates and runs mutants ``start .. start+count-1`` of ``seed`` (a progress line on
    stderr every ``progress`` mutants; an interrupt stops the run and keeps its counts)."""
    opt = opt or find_opt()
    corpus = load_corpus(corpus_dir)
    ctx = make_context(corpus, mutators)
    res = Campaign(mode_counts={m: Counter() for m in modes})
    t0 = time.perf_counter()
    if crash_dir:
        crash_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="mlir-mutate-") as tmp:
        path = os.path.join(tmp, "mutant.mlir")
        compile_target = CompileTarget(max(mem_mb, 8192)) if COMPILE_MODE in modes else None
        try:
            _run_mutants(res, seed, indices if indices is not None else range(start, start + count), opt,
                         corpus, ctx, path, timeout, mem_mb, crash_dir, keep, t0, time_budget, modes,
                         verbose, progress, compile_target)
        except KeyboardInterrupt:  # (SIGTERM too, see main): report what ran
            res.interrupted = True
        finally:
            if compile_target is not None:
                compile_target.close()
    res.seconds = time.perf_counter() - t0
    return res


def _run_mutants(res: Campaign, seed: int, indices, opt: str, corpus, ctx, path: str, timeout: float,
                 mem_mb: int, crash_dir: Optional[Path], keep: int, t0: float,
                 time_budget: Optional[float], modes: Sequence[str], verbose: bool,
                 progress: int, compile_target: Optional[CompileTarget] = None) -> None:
    for index in indices:
        if time_budget is not None and time.perf_counter() - t0 > time_budget:
            break
        if progress and res.mutants and res.mutants % progress == 0:
            print(f"[{time.perf_counter() - t0:.0f} s] {res.mutants} mutants (last index {index - 1}): "
                  + ", ".join(f"{k} {v}" for k, v in sorted(res.counts.items())), file=sys.stderr, flush=True)
        origin, text, applied = make_mutant(seed, index, corpus, ctx)
        with open(path, "w") as f:
            f.write(text)
        res.mutants += 1
        worst = "ok"
        for mode in modes:
            if mode == COMPILE_MODE:
                out = compile_target.run(path, timeout)
            else:
                out = run_opt(opt, path, MODES[mode], timeout, mem_mb)
            res.runs += 1
            res.mode_counts[mode][out.kind] += 1
            if _RANK[out.kind] > _RANK[worst]:
                worst = out.kind
            if out.kind in ("crash", "timeout"):
                sig = f"{mode}: {out.signature}"
                where = res.signatures.setdefault(sig, [])
                where.append(f"{seed}:{index}")
                if verbose:
                    print(f"{seed}:{index} {origin} {'+'.join(applied)}: {sig}", file=sys.stderr)
                if crash_dir and len(where) <= keep:
                    h = hashlib.sha1(sig.encode()).hexdigest()[:8]
                    cmd = ("relay_mlir.compile(%s)" if mode == COMPILE_MODE
                           else f"relay-mlir-opt %s {' '.join(MODES[mode])}".rstrip())
                    header = (f"// {cmd}\n// {sig}\n// seed {seed} index {index}, from "
                              f"{origin}, mutations {'+'.join(applied)}\n")
                    (crash_dir / f"{h}-{seed}-{index}.mlir").write_text(header + text)
            if out.kind != "ok":
                break  # a later mode would parse the same broken input again
        res.counts[worst] += 1


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--start", type=int, default=0, help="index of the first mutant")
    ap.add_argument("--index", type=int, action="append",
                    help="only these mutant indices (repeatable); with --print, print them")
    ap.add_argument("--print", action="store_true", help="print the mutant(s) instead of running")
    ap.add_argument("--opt", help="relay-mlir-opt to run")
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per run")
    ap.add_argument("--mem-mb", type=int, default=2048, help="address-space limit per run")
    ap.add_argument("--time-budget", type=float, help="stop after this many seconds")
    ap.add_argument("--crash-dir", type=Path, help="write crashing/timing-out inputs here")
    ap.add_argument("--keep", type=int, default=3, help="inputs kept per signature")
    ap.add_argument("--mode", choices=[*MODES, COMPILE_MODE], action="append",
                    help="run only these modes (default: parse, pipeline; 'compile' runs "
                         "relay_mlir.compile(text) for llvm-cpu in a Python worker)")
    ap.add_argument("--mutator", action="append", default=[],
                    help="use only these mutators (repeatable), e.g. int, shape, drop_yield")
    ap.add_argument("--progress", type=int, default=0, metavar="N",
                    help="print the counts so far every N mutants (long campaigns)")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args(argv)
    if a.print:
        corpus = load_corpus(a.corpus)
        ctx = make_context(corpus, a.mutator)
        for i in a.index or range(a.start, a.start + a.count):
            origin, text, applied = make_mutant(a.seed, i, corpus, ctx)
            print(f"// seed {a.seed} index {i}, from {origin}, mutations {'+'.join(applied)}\n{text}")
        return 0
    import signal

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    res = run_campaign(a.seed, a.count, a.opt, a.corpus, a.timeout, a.mem_mb, a.crash_dir,
                       a.keep, a.start, a.time_budget, a.mode or tuple(MODES), a.verbose, a.index,
                       a.mutator, a.progress)
    print(res.summary())
    return 1 if res.counts["crash"] or res.counts["timeout"] else 0


if __name__ == "__main__":
    sys.exit(main())
