#!/usr/bin/env python3
"""Cross-check the debug interpreter against TVM 0.19's own Relay interpreter.

The same programs are built twice through the common builder API (our
``relay_mlir`` mirrors ``tvm.relay``): once in this repo's venv, evaluated
by ``relay_mlir.create_executor("debug")``, once in a TVM 0.19 venv,
evaluated by ``tvm.relay.create_executor("debug")``. Each side prints its
results as JSON; the driver compares them (tensors: same dtype and shape,
values exactly for integer/bool results and within rtol 1e-5 / atol 1e-6
for floats).

    python scripts/interp_vs_tvm.py --tvm-python /work/tvm-venv/bin/python

(TVM side: ``xtc-tvm-python-bindings==0.19.0.12``, see
shared notes; ``TOPHUB_LOCATION=NONE`` is set for it.) Inputs are
deterministic (no RNG), so both sides see identical data.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

import numpy as np


def _val(v):
    """A value as JSON: tensors, tuples, ADT values (both implementations)."""
    if isinstance(v, np.ndarray):
        return {"dtype": str(v.dtype), "shape": list(v.shape),
                "data": [None if (isinstance(x, float) and x != x) else x for x in v.reshape(-1).tolist()]}
    if hasattr(v, "numpy") and callable(v.numpy):  # tvm.nd.NDArray
        return _val(v.numpy())
    if isinstance(v, (tuple, list)):
        return {"tuple": [_val(f) for f in v]}
    cons = getattr(v, "constructor", None)
    if cons is not None and hasattr(v, "fields"):
        name = getattr(cons, "name_hint", cons)
        return {"adt": str(name), "fields": [_val(f) for f in v.fields]}
    if hasattr(v, "fields"):  # a TVM runtime ADT used for tuples
        return {"tuple": [_val(f) for f in v.fields]}
    try:  # tvm.runtime.container.ADT is a sequence
        return {"tuple": [_val(v[i]) for i in range(len(v))]}
    except TypeError:
        pass
    return {"other": repr(v)}


def programs(relay, Prelude):
    """name -> (module, expression) built with ``relay`` (either implementation)."""
    from_adt = relay.adt if hasattr(relay, "adt") else None
    Clause, Match = from_adt.Clause, from_adt.Match
    PC, PV, PW, PT = (from_adt.PatternConstructor, from_adt.PatternVar, from_adt.PatternWildcard,
                      from_adt.PatternTuple)

    def i32(v):
        return relay.const(v, "int32")

    def iv(n):
        return relay.var(n, shape=(), dtype="int32")

    out = {}
    mod = relay.IRModule()
    p = Prelude(mod)
    # TVM 0.19's Prelude has the functions as attributes, the types only in the module
    p.l, p.cons, p.nil = mod.get_type("List")
    p.optional, p.some, p.none = mod.get_type("Option")
    p.tree, p.rose = mod.get_type("Tree")

    def lst(vals):
        e = p.nil()
        for x in reversed(vals):
            e = p.cons(x if isinstance(x, relay.Expr) else i32(x), e)
        return e

    # local recursive loop (the Relay paper's)
    i, acc, loop = iv("i"), iv("acc"), relay.var("loop")
    body = relay.If(relay.equal(i, i32(20)), acc, loop(i + i32(1), acc + i * i))
    out["paper_loop"] = (relay.IRModule(), relay.Let(loop, relay.Function([i, acc], body), loop(i32(0), i32(0))))
    # mutual recursion
    m2 = relay.IRModule()
    ev, od = relay.GlobalVar("ev"), relay.GlobalVar("od")
    n1, n2 = iv("n"), iv("n")
    m2[ev] = relay.Function([n1], relay.If(relay.equal(n1, i32(0)), relay.const(True), od(n1 - i32(1))))
    m2[od] = relay.Function([n2], relay.If(relay.equal(n2, i32(0)), relay.const(False), ev(n2 - i32(1))))
    out["mutual_recursion"] = (m2, relay.Tuple([ev(i32(11)), od(i32(11)), ev(i32(0))]))
    # closures, currying
    x, y, k = iv("x"), iv("y"), iv("k")
    f = relay.var("f", relay.FuncType([relay.TensorType((), "int32")], relay.TensorType((), "int32")))
    twice = relay.Function([f, x], f(f(x)))
    tw = relay.var("tw")
    out["closure_twice"] = (relay.IRModule(), relay.Let(k, i32(5), relay.Let(tw, twice, tw(
        relay.Function([y], y * i32(2) + k), i32(3)))))
    a, b = iv("a"), iv("b")
    add = relay.var("add")
    out["currying"] = (relay.IRModule(), relay.Let(add, relay.Function([a], relay.Function([b], a - b)),
                                                   relay.Tuple([add(i32(3))(i32(4)), add(i32(10))(i32(1))])))
    # Prelude
    xs = lst([1, 2, 3, 4])
    a1, b1 = iv("acc"), iv("x")
    out["prelude_foldl_sub"] = (mod, p.foldl(relay.Function([a1, b1], a1 - b1), i32(100), xs))
    a2, b2 = iv("x"), iv("acc")
    out["prelude_foldr_sub"] = (mod, p.foldr(relay.Function([a2, b2], a2 - b2), i32(100), xs))
    c = iv("c")
    out["prelude_map_capture"] = (mod, relay.Let(k, i32(7), p.map(relay.Function([c], c * k), xs)))
    out["prelude_rev_concat"] = (mod, p.concat(p.rev(xs), lst([9])))
    out["prelude_nth_length"] = (mod, relay.Tuple([p.nth(xs, i32(2)), p.length(xs)]))
    out["prelude_zip"] = (mod, p.zip(xs, lst([7, 8])))
    e = iv("e")
    out["prelude_filter"] = (mod, p.filter(relay.Function([e], relay.greater(e, i32(2))), xs))
    z = iv("z")
    out["prelude_iterate"] = (mod, p.iterate(relay.Function([z], z * i32(3)), i32(3))(i32(2)))
    leaf = lambda v: p.rose(i32(v), p.nil())  # noqa: E731
    tree = p.rose(i32(1), lst([leaf(2), p.rose(i32(3), lst([leaf(4)]))]))
    t = iv("t")
    out["prelude_tree"] = (mod, relay.Tuple([p.size(tree), p.tmap(relay.Function([t], t + i32(10)), tree)]))
    s = iv("s")
    step = relay.Function([s], relay.If(relay.equal(s, i32(0)), p.none(),
                                        p.some(relay.Tuple([s - i32(1), s * i32(10)]))))
    out["prelude_unfoldr"] = (mod, p.unfoldr(step, i32(3)))
    a3, b3 = iv("a3"), iv("b3")
    out["prelude_foldr1_sub"] = (mod, p.foldr1(relay.Function([a3, b3], a3 - b3), xs))
    a4, b4 = iv("a4"), iv("b4")
    out["prelude_map_accumr"] = (mod, p.map_accumr(relay.Function([a4, b4], relay.Tuple([a4 + b4, a4 * b4])),
                                                   i32(1), xs))
    a5, b5 = iv("a5"), iv("b5")
    out["prelude_map_accuml"] = (mod, p.map_accuml(relay.Function([a5, b5], relay.Tuple([a5 + b5, a5 * b5])),
                                                   i32(1), xs))
    out["prelude_update_hd_tl_sum"] = (mod, relay.Tuple([p.update(xs, i32(2), i32(50)), p.hd(xs), p.tl(xs),
                                                         p.sum(xs)]))
    a6, b6, c6 = iv("a6"), iv("b6"), iv("c6")
    out["prelude_compose_flip"] = (mod, relay.Tuple([
        p.compose(relay.Function([a6], a6 * i32(3)), relay.Function([b6], b6 - i32(1)))(i32(5)),
        p.flip(relay.Function([c6, a], c6 - a))(i32(2), i32(9))]))
    # nested patterns with a tuple
    w, rest, q = iv("w"), relay.var("rest", p.l(relay.TensorType((), "int32"))), iv("q")
    d = relay.var("d", relay.TupleType([p.l(relay.TensorType((), "int32")),
                                        p.optional(relay.TensorType((), "int32"))]))
    cls = relay.Function([d], Match(d, [
        Clause(PT([PC(p.cons, [PV(w), PC(p.cons, [PV(q), PW()])]), PC(p.some, [PV(z)])]), w + q + z),
        Clause(PT([PC(p.cons, [PV(x), PV(rest)]), PW()]), x * i32(100) + p.length(rest)),
        Clause(PW(), i32(-7))]))
    cv = relay.var("cls")
    out["nested_patterns"] = (mod, relay.Let(cv, cls, relay.Tuple([
        cv(relay.Tuple([lst([1, 2, 3]), p.some(i32(10))])), cv(relay.Tuple([lst([1, 2, 3]), p.none()])),
        cv(relay.Tuple([lst([4]), p.some(i32(10))])), cv(relay.Tuple([p.nil(), p.some(i32(10))]))])))
    # refs
    r, u, u2, j, lp = relay.var("r"), relay.var("u"), relay.var("u2"), iv("j"), relay.var("lp")
    rbody = relay.If(relay.equal(j, i32(0)), relay.Tuple([]),
                     relay.Let(u, relay.RefWrite(r, relay.RefRead(r) * i32(2) + j), lp(j - i32(1))))
    out["ref_loop"] = (relay.IRModule(), relay.Let(r, relay.RefCreate(i32(1)), relay.Let(
        lp, relay.Function([j], rbody), relay.Let(u2, lp(i32(5)), relay.RefRead(r)))))
    # left-to-right argument order, visible through a reference
    fxy = relay.Function([a, b], a * i32(10) + b)

    def bump(v):
        uu = relay.var("uu")
        return relay.Let(uu, relay.RefWrite(r, i32(v)), relay.RefRead(r))
    out["arg_order"] = (relay.IRModule(), relay.Let(r, relay.RefCreate(i32(0)), relay.Tuple(
        [fxy(bump(1), bump(2)), relay.RefRead(r)])))
    # a shared node (a DAG) holding an effect: one evaluation
    tick, old, u3 = relay.var("tick"), relay.var("old"), relay.var("u3")
    tick_fn = relay.Function([], relay.Let(old, relay.RefRead(r), relay.Let(u3, relay.RefWrite(r, old + i32(1)),
                                                                             old)))
    shared = tick()
    out["shared_effect"] = (relay.IRModule(), relay.Let(r, relay.RefCreate(i32(10)), relay.Let(
        tick, tick_fn, relay.Tuple([shared, shared, relay.RefRead(r)]))))
    return out


def op_cases(relay):
    """name -> (module, expression): operators with fiddly semantics, on fixed inputs."""
    def C(a, dtype=None):
        return relay.const(np.asarray(a, dtype=dtype))

    fx = (np.arange(24, dtype="float32").reshape(2, 3, 4) * 0.37 - 4.1).astype("float32")
    ix = (np.arange(12, dtype="int32").reshape(3, 4) * 7 % 23 - 11).astype("int32")
    ties = np.array([[3, 1, 3, 2, 1, 3], [0, 0, 5, 5, 1, 0]], "float32")
    img = (np.arange(2 * 3 * 5 * 5, dtype="float32").reshape(2, 3, 5, 5) % 7 - 3).astype("float32")
    w = (np.arange(3 * 1 * 3 * 3, dtype="float32").reshape(3, 1, 3, 3) % 5 - 2).astype("float32")
    out = {
        "divide_int": lambda: relay.divide(C(ix), C(np.array([3, -4, 5, -2], "int32"))),
        "floor_divide_int": lambda: relay.floor_divide(C(ix), C(np.array([3, -4, 5, -2], "int32"))),
        "floor_mod_int": lambda: relay.floor_mod(C(ix), C(np.array([3, -4, 5, -2], "int32"))),
        "mod_int": lambda: relay.mod(C(ix), C(np.array([3, -4, 5, -2], "int32"))),
        "right_shift_neg": lambda: relay.right_shift(C(ix), C(np.array([1, 2, 3, 0], "int32"))),
        "clip_int": lambda: relay.clip(C(ix), -3.7, 5.9),
        "cast_f2i": lambda: relay.cast(C(fx), "int32"),
        "cast_f2bool": lambda: relay.cast(C(np.array([0.0, -0.5, 2.0], "float32")), "bool"),
        "round_half_even": lambda: relay.round(C(np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5], "float32"))),
        "sign_abs_int": lambda: relay.Tuple([relay.sign(C(ix)), relay.abs(C(ix))]),
        "mean_int": lambda: relay.mean(C(ix), axis=1),
        "sum_exclude_keep": lambda: relay.sum(C(fx), axis=[1], keepdims=True, exclude=True),
        "argmax_last": lambda: relay.argmax(C(ties), axis=[1], select_last_index=True),
        "argmin_keep": lambda: relay.argmin(C(ties), axis=[1], keepdims=True),
        "variance_unbiased": lambda: relay.variance(C(fx), axis=[2], unbiased=True),
        "argsort_desc_ties": lambda: relay.argsort(C(ties), axis=1, is_ascend=False),
        "sort_ties": lambda: relay.sort(C(ties), axis=1),
        "topk_ties": lambda: relay.topk(C(ties), k=3, axis=1).astuple(),
        "cumsum_excl": lambda: relay.cumsum(C(ix), axis=1, exclusive=True),
        "cumprod_flat": lambda: relay.cumprod(C(np.array([[1, 2], [3, -1]], "int32")), exclusive=False),
        "one_hot": lambda: relay.one_hot(C(np.array([0, 2, -1, 3], "int32")), C(5.0, "float32"), C(-1.0, "float32"),
                                 3, 0, "float32"),
        "take_clip": lambda: relay.take(C(fx), C(np.array([[0, 5], [-3, 2]], "int32")), axis=2, mode="clip"),
        "take_wrap_flat": lambda: relay.take(C(fx), C(np.array([-1, 30, 7], "int32")), mode="wrap"),
        "gather_nd": lambda: relay.gather_nd(C(fx), C(np.array([[1, 0], [2, 1]], "int32"))),
        "scatter_elements_add": lambda: relay.scatter_elements(C(ix), C(np.array([[0, 1], [2, 0]], "int32")),
                                                      C(np.array([[5, 6], [7, 8]], "int32")), axis=1,
                                                      reduction="add"),
        "strided_slice_neg": lambda: relay.strided_slice(C(fx), [1, -1, 3], [-3, 0, 0], [-1, -2, -2]),
        "strided_slice_axes": lambda: relay.strided_slice(C(fx), [1], [3], axes=[2]),
        "strided_slice_size": lambda: relay.strided_slice(C(fx), [0, 1], [1, -1], slice_mode="size"),
        "arange_f": lambda: relay.arange(C(0.5, "float32"), C(3.2, "float32"), C(0.7, "float32")),
        "arange_i": lambda: relay.arange(C(10, "int32"), C(-3, "int32"), C(-4, "int32"), dtype="int32"),
        "split_indices": lambda: relay.split(C(fx), [1, 3], axis=2).astuple(),
        "squeeze_expand": lambda: relay.expand_dims(relay.squeeze(C(np.ones((1, 3, 1), "float32"))), -1, 2),
        "repeat_tile_reverse": lambda: relay.Tuple([relay.repeat(C(ix), 2, 0), relay.tile(C(ix), (2, 1, 2)),
                                            relay.reverse(C(ix), 1)]),
        "reshape_codes": lambda: relay.reshape(C(fx), (0, -3)),
        "reshape_m4": lambda: relay.reshape(C(fx), (-4, 1, 2, -2)),
        "full_cast": lambda: relay.full(C(2.7, "float32"), (2, 2), "int32"),
        "layout_transform_4c": lambda: relay.layout_transform(C(np.arange(2 * 8 * 2 * 2, dtype="float32")
                                                        .reshape(2, 8, 2, 2)), "NCHW", "NCHW4c"),
        "max_pool_ceil": lambda: relay.nn.max_pool2d(C(img), (3, 3), (2, 2), padding=(1, 1), ceil_mode=True),
        "avg_pool_ceil_incl": lambda: relay.nn.avg_pool2d(C(img), (3, 3), (2, 2), padding=(0, 0), ceil_mode=True,
                                                  count_include_pad=True),
        "avg_pool_excl": lambda: relay.nn.avg_pool2d(C(img), (2, 2), (2, 2), padding=(1, 1)),
        "adaptive_avg": lambda: relay.nn.adaptive_avg_pool2d(C(img), (3, 2)),
        "conv2d_groups": lambda: relay.nn.conv2d(C(img), C(w), padding=(1, 0, 0, 1), strides=(2, 1), groups=3,
                                         dilation=(1, 2)),
        "conv2d_transpose": lambda: relay.nn.conv2d_transpose(C(img[:, :2]), C(w[:2, :, :2, :2].repeat(2, 1)),
                                                      strides=(2, 2), padding=(1, 0), output_padding=(1, 1)),
        "upsampling_nn": lambda: relay.nn.upsampling(C(img), 1.5, 2.0),
        "upsampling_bilinear_ac": lambda: relay.nn.upsampling(C(img), 2.0, 2.0, method="bilinear", align_corners=True),
        "resize2d_linear": lambda: relay.image.resize2d(C(img), (7, 3)),
        "resize2d_nearest_ac": lambda: relay.image.resize2d(C(img), (8, 4), method="nearest_neighbor",
                                                    coordinate_transformation_mode="align_corners"),
        "resize2d_cubic": lambda: relay.image.resize2d(C(img), (6, 6), method="cubic",
                                               coordinate_transformation_mode="asymmetric"),
        "depth_to_space_crd": lambda: relay.nn.depth_to_space(C(np.arange(32, dtype="float32").reshape(1, 8, 2, 2)), 2,
                                                      mode="CRD"),
        "space_to_depth": lambda: relay.nn.space_to_depth(C(np.arange(32, dtype="float32").reshape(1, 2, 4, 4)), 2),
        "lrn": lambda: relay.nn.lrn(C(img), size=3, axis=1, bias=1.0, alpha=0.5, beta=0.75),
        "l2_normalize": lambda: relay.nn.l2_normalize(C(fx), 1e-3, axis=[1]),
        "group_norm": lambda: relay.nn.group_norm(C(img[:, :2]), C(np.array([1.0, 2.0], "float32")),
                                          C(np.array([0.5, -0.5], "float32")), num_groups=2),
        "pad_reflect": lambda: relay.nn.pad(C(ix), ((1, 2), (2, 1)), pad_mode="reflect"),
        "log_softmax": lambda: relay.nn.log_softmax(C(fx), axis=1),
        "batch_matmul": lambda: relay.nn.batch_matmul(C(fx), C(fx[:, :2])),
        "einsum": lambda: relay.einsum([C(fx), C(fx)], "bij,bkj->bik"),
        "collapse_sum_like": lambda: relay.collapse_sum_like(C(fx), C(np.zeros((3, 1), "float32"))),
        "where_broadcast": lambda: relay.where(C(np.array([True, False, True, False])), C(ix), C(np.array(0, "int32"))),
    }
    return {k: (relay.IRModule(), v) for k, v in out.items()}


def run_side(backend: str) -> None:
    if backend == "tvm":
        import tvm
        from tvm import relay
        from tvm.relay.prelude import Prelude
        relay.IRModule = tvm.IRModule  # tvm.relay has no IRModule of its own
    else:
        import relay_mlir as relay
        from relay_mlir.prelude import Prelude
    results = {}
    cases = dict(programs(relay, Prelude))
    cases.update(op_cases(relay))
    for name, (mod, expr) in cases.items():
        try:
            if callable(expr) and not isinstance(expr, relay.Expr):
                expr = expr()  # built lazily: a builder error is this case's result
            if backend == "tvm":
                # TVM 0.19 with this LLVM fails to compile some vectorized
                # parallel loops (integer floor_divide, resize); scalar code works
                with tvm.transform.PassContext(opt_level=3, config={"tir.disable_vectorize": True}):
                    v = relay.create_executor("debug", mod=mod).evaluate(expr)
            else:
                v = relay.create_executor("debug", mod=mod).evaluate(expr)
            results[name] = _val(v)
        except Exception as e:  # a failure on one side is reported, not fatal
            lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
            msg = lines[-1] if lines else ""  # TVM puts the message after its traceback
            results[name] = {"error": f"{type(e).__name__}: {msg}"[:300]}
    json.dump(results, sys.stdout)


def same(a, b, path="") -> str:
    """'' if the JSON values agree, else a description of the first difference."""
    if "error" in a or "error" in b:
        return f"{path}: ours {a.get('error', 'ok')!r} / tvm {b.get('error', 'ok')!r}"
    if a.keys() != b.keys():
        return f"{path}: kinds differ {sorted(a)} vs {sorted(b)}"
    if "data" in a:
        if a["dtype"] != b["dtype"] or a["shape"] != b["shape"]:
            return f"{path}: {a['dtype']}{a['shape']} vs {b['dtype']}{b['shape']}"
        x = np.array([np.nan if v is None else v for v in a["data"]], dtype="float64")
        y = np.array([np.nan if v is None else v for v in b["data"]], dtype="float64")
        kind = np.dtype(a["dtype"]).kind
        ok = np.array_equal(x, y, equal_nan=True) if kind in "iub" else np.allclose(
            x, y, rtol=1e-5, atol=1e-6, equal_nan=True)
        return "" if ok else f"{path}: values differ, max |diff| {np.nanmax(np.abs(x - y)) if x.size else 0}"
    if "adt" in a and a["adt"] != b["adt"]:
        return f"{path}: constructor {a['adt']} vs {b['adt']}"
    fa, fb = a.get("tuple", a.get("fields")), b.get("tuple", b.get("fields"))
    if fa is None:
        return "" if a == b else f"{path}: {a} vs {b}"
    if len(fa) != len(fb):
        return f"{path}: {len(fa)} vs {len(fb)} fields"
    for i, (x, y) in enumerate(zip(fa, fb)):
        d = same(x, y, f"{path}[{i}]")
        if d:
            return d
    return ""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--side", choices=["ours", "tvm"])
    ap.add_argument("--tvm-python", default="/work/tvm-venv/bin/python")
    args = ap.parse_args()
    if args.side:
        run_side(args.side)
        return
    here = os.path.abspath(__file__)
    ours = json.loads(subprocess.run([sys.executable, here, "--side", "ours"], check=True,
                                     capture_output=True, text=True).stdout)
    env = dict(os.environ, TOPHUB_LOCATION="NONE")
    env.pop("PYTHONPATH", None)
    tvm = json.loads(subprocess.run([args.tvm_python, here, "--side", "tvm"], check=True, capture_output=True,
                                    text=True, env=env, cwd="/tmp").stdout)
    agree = 0
    for name in ours:
        d = same(ours[name], tvm[name])
        print(f"{'agree' if not d else 'DIFFER':7s} {name}{'' if not d else '  ' + d}")
        agree += not d
    print(f"\n{agree}/{len(ours)} agree")


if __name__ == "__main__":
    main()
