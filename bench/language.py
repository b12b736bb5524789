#!/usr/bin/env python
"""Dynamic models: TreeLSTM over Rose trees, relay-mlir (compiled once, the tree
an input) vs PyTorch eager (Python recursion), interleaved in one run.

    python bench/language.py [--hidden 64] [--rounds 5] [--md bench/LANGUAGE.md]

The TreeLSTM is ``relay_mlir.testing.programs.tree_lstm_cell`` (a child-sum
TreeLSTM written with the Prelude's map/foldl, recursion through them);
``main(t: Tree[Tensor[(1, d)]])`` takes the tree as an ADT value, so one
compiled module serves every tree. PyTorch runs the same cell with the same
weights by Python recursion (``torch.no_grad``, 2 threads). Outputs are
compared (max abs difference). Timings are medians over interleaved rounds;
compare ratios only, within one run.
"""
from __future__ import annotations

import argparse
import platform
import statistics
import time
from typing import List

import numpy as np

import relay_mlir as relay
from relay_mlir.adt_value import ADT
from relay_mlir.prelude import Prelude
from relay_mlir.testing import programs


def random_tree(rng: np.random.RandomState, n: int, max_kids: int = 4):
    """A random Rose-tree shape with ``n`` nodes: a node is a list of children."""
    nodes = [[] for _ in range(n)]
    for i in range(1, n):  # attach node i under a random earlier node with room
        while True:
            parent = rng.randint(0, i)
            if len(nodes[parent]) < max_kids:
                nodes[parent].append(i)
                break
    return nodes


def to_adt(nodes, xs, i: int = 0) -> ADT:
    """The Prelude value ``Rose(x_i, [children...])`` (built without Python recursion limits
    for these sizes: depth is at most n)."""
    lst = ADT(1, "Nil", [], adt="List")
    for k in reversed(nodes[i]):
        lst = ADT(0, "Cons", [to_adt(nodes, xs, k), lst], adt="List")
    return ADT(0, "Rose", [xs[i], lst], adt="Tree")


def torch_tree_lstm(torch, W, U, nodes, xs):
    Wt = {g: torch.from_numpy(W[g]) for g in W}
    Ut = {g: torch.from_numpy(U[g]) for g in U}
    xt = [torch.from_numpy(x) for x in xs]
    d_h = next(iter(U.values())).shape[0]

    def cell(i):
        kids = [cell(k) for k in nodes[i]]
        x = xt[i]
        hs = torch.zeros(1, d_h)
        for h, _ in kids:
            hs = hs + h
        i_g = torch.sigmoid(x @ Wt["i"].T + hs @ Ut["i"].T)
        o_g = torch.sigmoid(x @ Wt["o"].T + hs @ Ut["o"].T)
        u_g = torch.tanh(x @ Wt["u"].T + hs @ Ut["u"].T)
        c = i_g * u_g
        for h, ck in kids:
            c = c + torch.sigmoid(x @ Wt["f"].T + h @ Ut["f"].T) * ck
        return o_g * torch.tanh(c), c
    return cell(0)[0]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--sizes", default="20,50,100,200")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--md", default=None)
    args = ap.parse_args(argv)

    import torch
    torch.set_num_threads(2)
    d = args.hidden
    mod = relay.IRModule()
    p = Prelude(mod)
    cell, (W, U), _ = programs.tree_lstm_cell(mod, p, d, d, seed=0)
    t = relay.var("t", p.tree(relay.TensorType((1, d))))
    mod["main"] = relay.Function([t], relay.TupleGetItem(cell(t), 0))
    t0 = time.perf_counter()
    exe = relay.compile(mod, target="llvm-cpu")
    compile_s = time.perf_counter() - t0
    # the same module on IREE's synchronous CPU driver: no thread-pool hand-off
    # per dispatch (a TreeLSTM node is ~10 tiny dispatches and a control decision)
    sync = relay.Executable(exe.vmfb, driver="local-sync", result_dtypes=exe.result_dtypes,
                            result_layout=exe.result_layout)

    rng = np.random.RandomState(1)
    sizes = [int(s) for s in args.sizes.split(",")]
    cases = []
    for n in sizes:
        nodes = random_tree(rng, n)
        xs = [rng.uniform(-1, 1, (1, d)).astype("float32") for _ in range(n)]
        cases.append((n, nodes, xs, to_adt(nodes, xs)))
    rows = []
    for n, nodes, xs, tree in cases:  # warm-up (first calls, allocator, thread pools)
        exe(tree)
        sync(tree)
        with torch.no_grad():
            torch_tree_lstm(torch, W, U, nodes, xs)
    encode_ms = {}
    for n, nodes, xs, tree in cases:  # the Python side of a call: the tree to IREE lists
        s = time.perf_counter()
        exe.result_layout.encode_inputs([tree])
        encode_ms[n] = (time.perf_counter() - s) * 1e3
    times = {n: {"relay-mlir": [], "sync": [], "torch": []} for n in sizes}
    errs = {}
    for _ in range(args.rounds):
        for n, nodes, xs, tree in cases:
            s = time.perf_counter()
            out = exe(tree)
            times[n]["relay-mlir"].append(time.perf_counter() - s)
            s = time.perf_counter()
            out_sync = sync(tree)
            times[n]["sync"].append(time.perf_counter() - s)
            with torch.no_grad():
                s = time.perf_counter()
                ref = torch_tree_lstm(torch, W, U, nodes, xs)
                times[n]["torch"].append(time.perf_counter() - s)
            errs[n] = max(float(np.abs(np.asarray(out) - ref.numpy()).max()),
                          float(np.abs(np.asarray(out_sync) - ref.numpy()).max()))
    for n in sizes:
        a = statistics.median(times[n]["relay-mlir"]) * 1e3
        y = statistics.median(times[n]["sync"]) * 1e3
        b = statistics.median(times[n]["torch"]) * 1e3
        rows.append((n, a, y, b, b / y, errs[n], encode_ms[n]))
    cpu = platform.processor() or platform.machine()
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    lines = [f"TreeLSTM (child-sum, hidden {d}, random Rose trees, <= 4 children), batch 1, "
             f"{args.rounds} interleaved rounds; CPU: {cpu}; relay-mlir compile once: {compile_s:.1f} s "
             "(the tree is an input).", "",
             "| nodes | relay-mlir local-task ms | relay-mlir local-sync ms | of which: tree -> IREE "
             "lists (Python) ms | PyTorch eager ms | PyTorch / relay-mlir local-sync | max abs diff |",
             "|---:|---:|---:|---:|---:|---:|---:|"]
    for n, a, y, b, r, e, enc in rows:
        lines.append(f"| {n} | {a:.2f} | {y:.2f} | {enc:.2f} | {b:.2f} | {r:.2f}x | {e:.1e} |")
    text = "\n".join(lines)
    print(text)
    if args.md:
        with open(args.md, "w") as f:
            f.write("# Dynamic models (bench/language.py)\n\n" + text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
