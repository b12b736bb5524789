#!/usr/bin/env python3
"""Reduces a failing program of ``random_programs.py --kind loops`` (issue 29).

The loop generator keeps each program as expressions of its loop language
(``random_programs.E``: ops, tuples, loop calls with their bodies), so a
program can be shrunk structurally and stay well-typed: main's results cut
to one node and the nodes it needs, sub-expressions replaced by one of their
operands of the same type or by a constant, whole loop calls by constants,
``if``s by one of their branches, unused ``let``s and unused loop state
dropped. Every candidate is simulated first (it must still terminate and
stay tame, the generator's rules) and then checked (interpreter against
``relay.compile``, default pipeline) in a forked process with a timeout; it
is kept when it fails the same way (the verdict and the first error line,
digits aside).

Usage::

    python fuzz/reduce_loops.py --seed 0 --index 14 [--timeout 40] [-o fuzz/findings/reduced]

writes ``<out>/loops_s<seed>_<index>.relay`` (the reduced program as Relay
text, its inputs in a header comment) and ``.npz`` (its inputs).
"""
from __future__ import annotations

import argparse
import copy
import multiprocessing as mp
import os
import re
import signal
import sys
import time
from dataclasses import dataclass, field
from typing import List, Tuple

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import random_programs as rp  # noqa: E402


@dataclass
class Prog:
    params: list
    inputs: list
    nodes: List[Tuple[int, object]]          # (pool index, E)
    outputs: List[int]
    tests: int = field(default=0)


# -- building and simulating ---------------------------------------------------------

def all_loops(prog: Prog):
    return [L for _, e in prog.nodes for L in rp._loops_in(e)]


def build(prog: Prog):
    relay = rp._relay()
    for L in all_loops(prog):
        L._fn = L.gv = L.caps = None
    env = {f"a{i}": p for i, p in enumerate(prog.params)}
    helpers, stmts = {}, []
    for idx, e in prog.nodes:
        for L in rp._loops_in(e):
            if L.kind == "global":
                helpers[L.name] = (L.global_fn(), L)
        v = relay.var(f"x{idx}")
        stmts.append((v, e.relay(env)))
        env[f"a{idx}"] = v
    outs = [env[f"a{i}"] for i in prog.outputs]
    body = outs[0] if len(outs) == 1 else relay.Tuple(outs)
    for v, value in reversed(stmts):
        body = relay.Let(v, value, body)
    mod = relay.IRModule()
    for fn, L in helpers.values():
        mod[L.gv] = fn
    mod["main"] = relay.Function(prog.params, body)
    return mod


def simulate(prog: Prog) -> bool:
    vals = {f"a{i}": v for i, v in enumerate(prog.inputs)}
    try:
        with np.errstate(all="ignore"):
            for idx, e in prog.nodes:
                vals[f"a{idx}"] = e.ev(vals)
    except rp.LoopReject:
        return False
    return True


def signature(verdict: str, detail: str) -> str:
    if verdict in ("timeout", "crash", "mismatch", "pass"):
        return verdict
    key = ""
    for ln in detail.splitlines():
        m = re.search(r"error: (.*)", ln)
        if m:
            key = m.group(1)
            break
    if not key:
        key = detail.strip().splitlines()[0] if detail.strip() else ""
    return verdict + ": " + re.sub(r"\d+", "N", key)[:100]


def _child(conn, prog: Prog) -> None:
    os.setsid()
    import relay_mlir._worker as worker
    worker._CLIENT = None         # the parent's compile worker is not this process's
    try:
        mod = build(prog)
        conn.send(rp.check_module(mod, prog.inputs, ("default",)))
    except BaseException as e:  # noqa: BLE001
        conn.send(("exception", f"reduce: {type(e).__name__}: {e}"))


def check(prog: Prog, timeout: float) -> Tuple[str, str]:
    prog.tests += 1
    ctx = mp.get_context("fork")
    r, w = ctx.Pipe(False)
    p = ctx.Process(target=_child, args=(w, prog), daemon=True)
    p.start()
    res = ("timeout", "") if not r.poll(timeout) else None
    if res is None:
        try:
            res = r.recv()
        except EOFError:
            res = ("crash", f"exit {p.exitcode}")
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    p.join(5)
    return res


# -- edits -------------------------------------------------------------------------------

def tget(node, tp):
    for i in tp:
        node = node[i]
    return node


def tset(node, tp, new):
    if not tp:
        return new
    lst = list(node)
    lst[tp[0]] = tset(node[tp[0]], tp[1:], new)
    return tuple(lst) if isinstance(node, tuple) else lst


def tree_exprs(node, tp=()):
    k = node[0]
    if k == "exit":
        yield tp + (1,), node[1]
    elif k == "rec":
        for i, e in enumerate(node[1]):
            yield tp + (1, i), e
    elif k == "if":
        yield tp + (1,), node[1]
        yield from tree_exprs(node[2], tp + (2,))
        yield from tree_exprs(node[3], tp + (3,))
    elif k == "let":
        yield tp + (2,), node[2]
        yield from tree_exprs(node[3], tp + (3,))
    else:
        for i, e in enumerate(node[1]):
            yield tp + (1, i), e
        yield tp + (3,), node[3]


def tree_nodes(node, tp=()):
    yield tp, node
    if node[0] == "if":
        yield from tree_nodes(node[2], tp + (2,))
        yield from tree_nodes(node[3], tp + (3,))
    elif node[0] == "let":
        yield from tree_nodes(node[3], tp + (3,))


def subexprs(e, path=()):
    yield path, e
    if isinstance(e, rp.Op):
        for i, a in enumerate(e.args):
            yield from subexprs(a, path + (("arg", i),))
    elif isinstance(e, rp.Tup):
        for i, a in enumerate(e.es):
            yield from subexprs(a, path + (("es", i),))
    elif isinstance(e, rp.Proj):
        yield from subexprs(e.e, path + (("e",),))
    elif isinstance(e, rp.Call):
        for i, a in enumerate(e.inits):
            yield from subexprs(a, path + (("init", i),))
        for tp, te in tree_exprs(e.loop.tree):
            yield from subexprs(te, path + (("tree", tp),))


def _copy_loop(L):
    c = copy.copy(L)
    c._fn = c.gv = c.caps = None
    return c


def replace(e, path, new):
    """``e`` with the sub-expression at ``path`` replaced by ``new`` (a function of the old one)."""
    if not path:
        return new(e)
    step, rest = path[0], path[1:]
    c = copy.copy(e)
    if step[0] == "arg":
        c.args = list(e.args)
        c.args[step[1]] = replace(e.args[step[1]], rest, new)
    elif step[0] == "es":
        c.es = list(e.es)
        c.es[step[1]] = replace(e.es[step[1]], rest, new)
    elif step[0] == "e":
        c.e = replace(e.e, rest, new)
    elif step[0] == "init":
        c.inits = list(e.inits)
        c.inits[step[1]] = replace(e.inits[step[1]], rest, new)
    elif step[0] == "tree":
        L = _copy_loop(e.loop)
        L.tree = tset(L.tree, step[1], replace(tget(L.tree, step[1]), rest, new))
        c.loop = L
    return c


def const_of(ty):
    if ty[0] == "tup":
        return rp.Tup([const_of(f) for f in ty[1]])
    shape, dt = ty[1], ty[2]
    if dt == rp.FLOAT:
        return rp.K(np.full(shape, 0.5), dt)
    if dt == rp.BOOL:
        return rp.K(np.zeros(shape, bool), dt)
    return rp.K(np.ones(shape), dt)


def candidates(prog: Prog):
    """Edited programs, biggest simplifications first."""
    # main's results: one node (the nodes it needs are kept by prune())
    if len(prog.outputs) > 1:
        for o in prog.outputs:
            yield "one output", Prog(prog.params, prog.inputs, prog.nodes, [o])
    for idx, _ in prog.nodes:
        if idx not in prog.outputs:
            yield "an earlier output", Prog(prog.params, prog.inputs, prog.nodes, [idx])
    for j, (idx, e) in enumerate(prog.nodes):
        def put(new_e, j=j, idx=idx):
            nodes = list(prog.nodes)
            nodes[j] = (idx, new_e)
            return Prog(prog.params, prog.inputs, nodes, prog.outputs)
        subs = sorted(subexprs(e), key=lambda pe: len(pe[0]))
        # loop bodies: an `if` replaced by a branch, unused lets and state dropped
        for path, sub in subs:
            if not isinstance(sub, rp.Call):
                continue
            L = sub.loop
            for tp, node in tree_nodes(L.tree):
                if node[0] == "if":
                    for b in (2, 3):
                        def f(c, tp=tp, b=b):
                            c = copy.copy(c)
                            c.loop = _copy_loop(c.loop)
                            c.loop.tree = tset(c.loop.tree, tp, tget(c.loop.tree, tp)[b])
                            if c.loop.kind == "while_loop":
                                c.loop.kind = "let"
                            return c
                        yield "if -> branch", put(replace(e, path, f))
                elif node[0] == "let" and not any(node[1] in x.free() for _, x in tree_exprs(node[3])):
                    def f(c, tp=tp):
                        c = copy.copy(c)
                        c.loop = _copy_loop(c.loop)
                        c.loop.tree = tset(c.loop.tree, tp, tget(c.loop.tree, tp)[3])
                        return c
                    yield "drop let", put(replace(e, path, f))
            for s in range(len(L.slots)):
                name = L.slots[s][0]
                users = [x for tp, x in tree_exprs(L.tree) if name in x.free()
                         and not (len(tp) >= 2 and tget(L.tree, tp[:-2])[0] in ("rec", "nontail")
                                  and tp[-1] == s)]
                if users or L.kind == "while_loop":
                    continue

                def f(c, s=s):
                    c = copy.copy(c)
                    c.loop = L2 = _copy_loop(c.loop)
                    L2.slots = L2.slots[:s] + L2.slots[s + 1:]
                    c.inits = c.inits[:s] + c.inits[s + 1:]

                    def drop(node):
                        k = node[0]
                        if k in ("rec", "nontail"):
                            args = list(node[1])
                            del args[s]
                            return (k, args) + tuple(node[2:])
                        if k == "if":
                            return ("if", node[1], drop(node[2]), drop(node[3]))
                        if k == "let":
                            return ("let", node[1], node[2], drop(node[3]))
                        return node
                    L2.tree = drop(L2.tree)
                    return c
                yield "drop state", put(replace(e, path, f))
        # expressions: a constant, or an operand of the same type
        for path, sub in subs:
            if isinstance(sub, rp.K):
                continue
            if isinstance(sub, (rp.Call, rp.Op, rp.Ref, rp.Proj)) and (path or len(prog.nodes) > 1):
                yield f"{type(sub).__name__} -> constant", put(replace(e, path, lambda c: const_of(c.ty)))
            if isinstance(sub, rp.Op):
                for a in sub.args:
                    if a.ty == sub.ty:
                        yield "op -> operand", put(replace(e, path, lambda c, a=a: a))


def prune(prog: Prog) -> Prog:
    """Drops the nodes main's results do not need."""
    need = set(prog.outputs)
    for idx, e in reversed(prog.nodes):
        if idx in need:
            need |= {int(n[1:]) for n in e.free()}
    return Prog(prog.params, prog.inputs, [(i, e) for i, e in prog.nodes if i in need], prog.outputs, prog.tests)


def size(prog: Prog) -> int:
    n = 0
    for _, e in prog.nodes:
        for _, sub in subexprs(e):
            n += 1
            if isinstance(sub, rp.Call):
                n += sum(1 for _ in tree_nodes(sub.loop.tree)) + len(sub.loop.slots)
    return n


def reduce(prog: Prog, want: str, timeout: float, log=print, budget: int = 400) -> Prog:
    prog = prune(prog)
    changed = True
    while changed and prog.tests < budget:
        changed = False
        for what, cand in candidates(prog):
            cand = prune(cand)
            cand.tests = prog.tests
            if size(cand) >= size(prog) or not simulate(cand):
                continue
            try:
                build(cand)
            except Exception:  # noqa: BLE001 - an edit the builders refuse
                continue
            v, d = check(cand, timeout)
            prog.tests = cand.tests
            got = signature(v, d)
            if got == want:
                log(f"  [{prog.tests}] {what}: size {size(prog)} -> {size(cand)}")
                prog = cand
                changed = True
                break
            if prog.tests >= budget:
                break
    return prog


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--index", type=int, required=True)
    ap.add_argument("--ops", type=int, default=None)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--budget", type=int, default=400, help="most checks to run")
    ap.add_argument("-o", "--out", default=os.path.join(HERE, "findings", "reduced"))
    a = ap.parse_args(argv)
    gen = rp.LoopGenerator(a.seed, a.index, n_ops=a.ops or rp.KINDS["loops"][1])
    gen.generate()
    prog = Prog(gen.params, gen.inputs, list(gen.nodes), list(gen.outputs))
    t0 = time.time()
    v, d = check(prog, a.timeout * 3)
    want = signature(v, d)
    print(f"seed {a.seed} program {a.index}: {want}")
    if v == "pass":
        return 0
    prog = reduce(prog, want, a.timeout, budget=a.budget)
    mod = build(prog)
    os.makedirs(a.out, exist_ok=True)
    base = os.path.join(a.out, f"loops_s{a.seed}_{a.index}")
    inputs = [prog.inputs[i] for i in range(len(prog.params))]
    with open(base + ".relay", "w") as fh:
        fh.write(f"// seed {a.seed} program {a.index} (--kind loops), reduced: {want}\n")
        for i, x in enumerate(inputs):
            fh.write(f"// input {i} ({prog.params[i].name_hint}): {x.dtype} {x.tolist()!r}\n")
        fh.write(mod.astext())
    np.savez(base + ".npz", *inputs)
    print(mod.astext())
    print(f"inputs: {[x.tolist() for x in inputs]}")
    print(f"{prog.tests} checks, {time.time() - t0:.0f} s; written to {base}.relay")
    return 1


if __name__ == "__main__":
    sys.exit(main())
