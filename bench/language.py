#!/usr/bin/env python
"""Dynamic models: a TreeLSTM over Rose trees and a recursive RNN over a List of
time steps, relay-mlir (compiled once, the tree / the list an input) vs PyTorch
eager (Python recursion) and TorchScript, interleaved in one run.

    python bench/language.py [--hidden 64,128] [--rounds 15] [--md bench/LANGUAGE.md]
                             [--results bench/RESULTS.md]

The TreeLSTM is ``relay_mlir.testing.programs.tree_lstm_cell`` (a child-sum
TreeLSTM written with the Prelude's map/foldl, recursion through them);
``main(t: Tree[Tensor[(1, d)]])`` takes the tree as an ADT value. The RNN is
``programs.rnn_cell`` (``h = tanh(x W^T + h U^T)``, tail recursion over the
list); ``main(xs: List[Tensor[(1, d)]], h0)``. One compiled module per model
and hidden size serves every tree / length; it runs on IREE's ``local-task``
(thread pool) and ``local-sync`` (inline; what ``relay.compile`` picks for
these looping programs) drivers. PyTorch twins with the same weights are in
``_language_torch.py`` (``torch.no_grad``, one intra-op thread by default). Outputs are compared
(max abs difference over all systems). Timings are medians over interleaved
rounds; compare ratios only, within one run.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from typing import Callable, Dict, List, NamedTuple, Tuple

import numpy as np

import relay_mlir as relay
from relay_mlir.adt_value import ADT
from relay_mlir.prelude import Prelude
from relay_mlir.testing import programs

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

SYSTEMS = ("local-task", "local-sync", "eager", "script")


def random_tree(rng: np.random.RandomState, n: int, max_kids: int = 4) -> List[List[int]]:
    """A random Rose-tree shape with ``n`` nodes: ``nodes[i]`` lists node i's children."""
    nodes: List[List[int]] = [[] for _ in range(n)]
    for i in range(1, n):  # attach node i under a random earlier node with room
        while True:
            parent = rng.randint(0, i)
            if len(nodes[parent]) < max_kids:
                nodes[parent].append(i)
                break
    return nodes


def list_adt(items) -> ADT:
    lst = ADT(1, "Nil", [], adt="List")
    for it in reversed(items):
        lst = ADT(0, "Cons", [it, lst], adt="List")
    return lst


def tree_adt(nodes, xs, i: int = 0) -> ADT:
    """The Prelude value ``Rose(x_i, [children...])``."""
    return ADT(0, "Rose", [xs[i], list_adt([tree_adt(nodes, xs, k) for k in nodes[i]])], adt="Tree")


class Case(NamedTuple):
    model: str
    hidden: int
    size: int                        # nodes or time steps
    inputs: list                     # relay-mlir's main arguments
    run: Dict[str, Callable[[], np.ndarray]]
    encode: Callable[[], object]     # the Python side of a call: inputs -> IREE lists
    exe: object                      # the local-sync Executable


def _executables(mod):
    t0 = time.perf_counter()
    exe = relay.compile(mod, target="llvm-cpu")
    compile_s = time.perf_counter() - t0
    other = "local-task" if exe.driver == "local-sync" else "local-sync"
    twin = relay.Executable(exe.vmfb, driver=other, result_dtypes=exe.result_dtypes,
                            result_layout=exe.result_layout)
    return {exe.driver: exe, other: twin}, compile_s


def tree_cases(torch, tt, d: int, sizes, rng) -> Tuple[List[Case], float]:
    mod = relay.IRModule()
    p = Prelude(mod)
    cell, (W, U), _ = programs.tree_lstm_cell(mod, p, d, d, seed=0)
    t = relay.var("t", p.tree(relay.TensorType((1, d))))
    mod["main"] = relay.Function([t], relay.TupleGetItem(cell(t), 0))
    exes, compile_s = _executables(mod)
    w = tt.weights(W, U)
    cases = []
    for n in sizes:
        nodes = random_tree(rng, n)
        xs = [rng.uniform(-1, 1, (1, d)).astype("float32") for _ in range(n)]
        txs = [torch.from_numpy(x) for x in xs]
        order = tt.post_order(nodes)
        tree = tree_adt(nodes, xs)
        run = {k: (lambda e=e, tree=tree: e(tree)) for k, e in exes.items()}
        run["eager"] = lambda nodes=nodes, txs=txs: tt.tree_lstm_eager(w, nodes, txs)[0].numpy()
        run["script"] = lambda o=order, nodes=nodes, txs=txs: tt.tree_lstm_scripted(w, o, nodes, txs).numpy()
        cases.append(Case("TreeLSTM", d, n, [tree], run,
                          lambda e=exes["local-sync"], tree=tree: e.result_layout.encode_inputs([tree]),
                          exes["local-sync"]))
    return cases, compile_s


def rnn_cases(torch, tt, d: int, sizes, rng) -> Tuple[List[Case], float]:
    mod = relay.IRModule()
    p = Prelude(mod)
    # weights in [-1/sqrt(d), 1/sqrt(d)]: a contracting RNN (spectral radius ~0.6), so
    # float rounding differences between the systems do not grow over the steps
    cell, (W, U), _ = programs.rnn_cell(mod, p, d, d, seed=0, scale=1 / np.sqrt(d))
    xs_v = relay.var("xs", p.l(relay.TensorType((1, d))))
    h0 = relay.var("h0", shape=(1, d))
    mod["main"] = relay.Function([xs_v, h0], cell(xs_v, h0))
    exes, compile_s = _executables(mod)
    w, u = torch.from_numpy(W), torch.from_numpy(U)
    cases = []
    for n in sizes:
        xs = [rng.uniform(-1, 1, (1, d)).astype("float32") for _ in range(n)]
        h = rng.uniform(-1, 1, (1, d)).astype("float32")
        lst, txs, th = list_adt(xs), [torch.from_numpy(x) for x in xs], torch.from_numpy(h)
        run = {k: (lambda e=e, lst=lst, h=h: e(lst, h)) for k, e in exes.items()}
        run["eager"] = lambda txs=txs, th=th: tt.rnn_eager(w, u, txs, th).numpy()
        run["script"] = lambda txs=txs, th=th: tt.rnn_scripted(w, u, txs, th).numpy()
        cases.append(Case("RNN", d, n, [lst, h], run,
                          lambda e=exes["local-sync"], lst=lst, h=h: e.result_layout.encode_inputs([lst, h]),
                          exes["local-sync"]))
    return cases, compile_s


def measure(cases: List[Case], rounds: int, warmup: int = 3, extra=None):
    """Medians (ms) per case of every system, of the input encoding and of the
    ``extra`` timers (``{id(case): {name: callable}}``), all interleaved."""
    import torch
    extra = extra or {}
    times = {id(c): {s: [] for s in SYSTEMS + ("encode",) + tuple(extra.get(id(c), ()))} for c in cases}
    errs: Dict[int, float] = {}
    with torch.no_grad():
        for _ in range(warmup):  # first calls, allocators, thread pools, TorchScript profiling
            for c in cases:
                for s in SYSTEMS:
                    c.run[s]()
        for _ in range(rounds):
            for c in cases:
                outs = {}
                for s in SYSTEMS:
                    t0 = time.perf_counter()
                    outs[s] = np.asarray(c.run[s]())
                    times[id(c)][s].append(time.perf_counter() - t0)
                for name, fn in [("encode", c.encode), *extra.get(id(c), {}).items()]:
                    t0 = time.perf_counter()
                    fn()
                    times[id(c)][name].append(time.perf_counter() - t0)
                ref = outs["eager"]
                errs[id(c)] = max([errs.get(id(c), 0.0)] +
                                  [float(np.abs(outs[s] - ref).max()) for s in SYSTEMS])
    return {k: {s: statistics.median(v) * 1e3 for s, v in d.items()} for k, d in times.items()}, errs


def breakdown_timers(c: Case) -> Dict[str, Callable[[], object]]:
    """Timers for where a local-sync call of ``c`` spends its time beyond our Python
    encoding: IREE's invoker packing the encoded inputs into VM lists and buffers,
    and the execution of the packed call (IREE's private ``FunctionInvoker``
    pieces, as its ``__call__`` uses them)."""
    import iree.runtime as rt
    from iree.runtime.function import InvokeContext

    ctx = c.exe._load()
    fn = ctx.modules[c.exe._module_name]["main"]
    dev = ctx.config.device
    args = tuple(c.exe.result_layout.encode_inputs(c.inputs))
    packed = fn._arg_packer.pack(InvokeContext(dev), args, {})

    def execute():
        fn._invoke(packed, rt.VmVariantList(1))
    return {"pack": lambda: fn._arg_packer.pack(InvokeContext(dev), args, {}), "execute": execute}


def render_breakdown(cases, med) -> str:
    lines = ["Where a local-sync call's time goes (the largest case of each model and size; µs, "
             "medians of the same interleaved rounds):", "",
             "| model | hidden | nodes / steps | call | Python encoding (ours) | IREE invoker packing | "
             "execution | execution per node / step |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for c in cases:
        b = {k: v * 1e3 for k, v in med[id(c)].items()}
        lines.append(f"| {c.model} | {c.hidden} | {c.size} | {b['local-sync']:.0f} | {b['encode']:.0f} | "
                     f"{b['pack']:.0f} | {b['execute']:.0f} | {b['execute'] / c.size:.1f} |")
    return "\n".join(lines)


def cpu_name() -> str:
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def render(cases, med, errs, compile_s, args, script_note) -> str:
    import torch
    lines = [
        f"Generated by `python bench/language.py --hidden {args.hidden} --rounds {args.rounds} "
        f"--torch-threads {args.torch_threads}` on "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.  ",
        f"CPU: {cpu_name()}, {os.cpu_count()} cores (shared with other jobs); torch {torch.__version__} "
        f"({args.torch_threads} thread(s), no_grad); batch 1; median of interleaved rounds, ms.  ",
        "relay-mlir compiles once per model and hidden size (" +
        ", ".join(f"{m} {d}: {s:.1f} s" for (m, d), s in compile_s.items()) + "); the tree / list is "
        "an input. TreeLSTM: child-sum, random Rose trees with <= 4 children; RNN: "
        "`h = tanh(x W^T + h U^T)` by tail recursion over a List of steps.  ",
        f"TorchScript: `torch.jit.script` refuses the recursive forms (\"{script_note}\"), so its column "
        "runs scripted loops with the same ops (the RNN's loop over the steps; the TreeLSTM as one loop "
        "over the nodes in post-order).",
        "",
        "| model | hidden | nodes / steps | relay-mlir local-task | relay-mlir local-sync | of which: "
        "inputs -> IREE lists (Python) | PyTorch eager | TorchScript (loop) | eager / local-sync | "
        "TorchScript / local-sync | max abs diff |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for c in cases:
        m = med[id(c)]
        lines.append(
            f"| {c.model} | {c.hidden} | {c.size} | {m['local-task']:.2f} | {m['local-sync']:.2f} | "
            f"{m['encode']:.2f} | {m['eager']:.2f} | {m['script']:.2f} | "
            f"{m['eager'] / m['local-sync']:.2f}x | {m['script'] / m['local-sync']:.2f}x | {errs[id(c)]:.1e} |")
    return "\n".join(lines)


def update_results(path: str, text: str) -> None:
    begin, end = "<!-- language.py:begin -->", "<!-- language.py:end -->"
    block = f"{begin}\n\n{text}\n\n{end}"
    doc = open(path).read() if os.path.exists(path) else "# Dynamic models (bench/language.py)\n"
    if begin in doc:
        doc = doc[:doc.index(begin)] + block + doc[doc.index(end) + len(end):]
    else:
        doc = doc.rstrip() + "\n\n## Dynamic models (the language)\n\n" + block + "\n"
    with open(path, "w") as f:
        f.write(doc)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hidden", default="64,128")
    ap.add_argument("--tree-sizes", default="20,50,100,200")
    ap.add_argument("--steps", default="10,30,100")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--torch-threads", type=int, default=1,
                    help="PyTorch intra-op threads (1: fastest for these batch-1 ops; with 2 on a "
                         "loaded 2-core machine OpenMP's spin-waits made eager up to 100x slower)")
    ap.add_argument("--md", default=None, help="update the table in this file (bench/LANGUAGE.md)")
    ap.add_argument("--results", default=None, help="and in this one's language section (bench/RESULTS.md)")
    args = ap.parse_args(argv)

    import torch
    import _language_torch as tt
    torch.set_num_threads(args.torch_threads)
    rng = np.random.RandomState(1)
    cases, compile_s = [], {}
    for d in (int(h) for h in args.hidden.split(",")):
        c, compile_s[("TreeLSTM", d)] = tree_cases(torch, tt, d, [int(s) for s in args.tree_sizes.split(",")], rng)
        cases += c
        c, compile_s[("RNN", d)] = rnn_cases(torch, tt, d, [int(s) for s in args.steps.split(",")], rng)
        cases += c
    largest = {}
    for c in cases:
        if c.size >= largest.get((c.model, c.hidden), c).size:
            largest[(c.model, c.hidden)] = c
    largest = list(largest.values())
    med, errs = measure(cases, args.rounds, extra={id(c): breakdown_timers(c) for c in largest})
    text = render(cases, med, errs, compile_s, args, tt.recursion_error())
    text += "\n\n" + render_breakdown(largest, med)
    print(text)
    for path in filter(None, (args.md, args.results)):
        update_results(path, text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
