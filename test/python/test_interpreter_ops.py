"""The debug interpreter's numpy kernels against the per-op numeric tests.

Every case of test/python/ops/test_*.py and test/python/test_ops.py (their ``CASES`` tables: a Function,
input runs, a numpy reference and a tolerance) is run by the interpreter
and checked

* against the case's own reference with the case's tolerance
  (``test_interpreter_op_vs_reference``; cheap, no compilation), and
* against the compiled result on llvm-cpu (``test_interpreter_op_vs_compiled``;
  each ops file's cases compiled as ONE module, as the ops tests do):
  exact cases must agree exactly; float cases within the case's tolerance
  (both sides are within it of the float64 reference, the compiled one in
  float32 arithmetic).

Shapes and dtypes must agree exactly in both checks.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Callable, Dict, List, Tuple

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.interpreter import Interpreter
from relay_mlir.interpreter_ops import KERNELS

OPS_DIR = Path(__file__).resolve().parent / "ops"
FILES = ["test_ops", "test_elementwise", "test_transform", "test_reduce", "test_index", "test_image", "test_nn",
         "test_conv", "test_pool", "test_norm", "test_dynamic", "test_transform_masks", "test_index_search",
         "test_nn_losses"]

Case = Tuple[relay.Function, List[list], Callable, object]


def _load(name: str):
    if str(OPS_DIR) not in sys.path:
        sys.path.insert(0, str(OPS_DIR))  # for `from _nn_common import ...`
    path = OPS_DIR.parent / "test_ops.py" if name == "test_ops" else OPS_DIR / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_interp_cases_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _normalize(name: str, raw: tuple) -> Case:
    """The four CASES layouts of the ops files as (Function, runs, reference, tol);
    tol None means exact."""
    if name == "test_elementwise":
        build, ref, tol = raw
        fn, runs = build()
        return fn, runs, ref, tol
    if name == "test_ops":
        build, ref, tol = raw
        fn, inputs = build()
        return fn, [inputs], ref, tol
    if name in ("test_index", "test_reduce", "test_image"):
        params, body, runs, ref, tol = raw
        if isinstance(body, relay.TupleWrapper):
            body = body.astuple()
        return relay.Function(params, body), runs, ref, tol
    fn, runs, ref, tol = raw
    return fn, runs, ref, tol


_CASES: Dict[str, Dict[str, Case]] = {}


def _cases(file: str) -> Dict[str, Case]:
    if file not in _CASES:
        m = _load(file)
        _CASES[file] = {n: _normalize(file, c) for n, c in m.CASES.items()}
    return _CASES[file]


ALL = [(f, n) for f in FILES for n in _cases(f)]


def _is_exact(tol) -> bool:
    return tol is None or (isinstance(tol, dict) and tol.get("rtol", 1) == 0 and tol.get("atol", 1) == 0)


def _compare(got, want, tol, what: str) -> None:
    if isinstance(want, tuple) or isinstance(got, tuple):
        assert isinstance(got, tuple) and isinstance(want, tuple) and len(got) == len(want), what
        for g, w in zip(got, want):
            _compare(g, w, tol, what)
        return
    want = np.asarray(want)
    assert isinstance(got, np.ndarray), f"{what}: not an array: {got!r}"
    assert got.shape == want.shape, (what, got.shape, want.shape)
    assert got.dtype == want.dtype, (what, got.dtype, want.dtype)
    if _is_exact(tol):
        np.testing.assert_array_equal(got, want, err_msg=what)
    else:
        np.testing.assert_allclose(got.astype("float64"), want.astype("float64"), err_msg=what, **tol)


def _interp(fn: relay.Function, inputs) -> object:
    it = Interpreter(relay.IRModule())
    return it.apply(it.evaluate(fn), [np.asarray(a) for a in inputs])


@pytest.mark.parametrize("file,name", ALL, ids=[f"{f[5:]}:{n}" for f, n in ALL])
def test_interpreter_op_vs_reference(file, name):
    fn, runs, ref, tol = _cases(file)[name]
    for inputs in runs:
        with np.errstate(all="ignore"):
            want = ref(*inputs)
        if isinstance(want, list):
            want = tuple(want)
        _compare(_interp(fn, inputs), want, tol, f"{file}:{name}")


_COMPILED: Dict[str, object] = {}


def _compiled(file: str):
    if file not in _COMPILED:
        cases = _cases(file)
        names = {n: f"c{i}" for i, n in enumerate(cases)}
        mod = relay.IRModule({names[n]: c[0] for n, c in cases.items()})
        _COMPILED[file] = (relay.compile(mod, target="llvm-cpu"), names)
    return _COMPILED[file]


@pytest.mark.parametrize("file,name", ALL, ids=[f"{f[5:]}:{n}" for f, n in ALL])
def test_interpreter_op_vs_compiled(file, name):
    exe, names = _compiled(file)
    fn, runs, _, tol = _cases(file)[name]
    for inputs in runs:
        got = exe.run(names[name], *inputs)
        _compare(_interp(fn, inputs), got, tol, f"{file}:{name} (interpreter vs llvm-cpu)")


def _op_names_in(fn: relay.Function) -> set:
    names = set()

    class V(relay.ExprVisitor):
        def visit_call(self, call):
            if isinstance(call.op, relay.Op):
                names.add(call.op.name)
            super().visit_call(call)
    V().visit(fn)
    return names


def test_every_documented_op_has_a_kernel_and_a_case():
    """Every operator of docs/ops.md (outside the language sections) has a
    numpy kernel, and the cases above exercise it."""
    import re
    text = (OPS_DIR.parents[2] / "docs" / "ops.md").read_text()
    ops, section = [], None
    for line in text.splitlines():
        if line.startswith("## "):
            section = line
        m = re.match(r"^\| `relay\.([A-Za-z0-9_.]+)` \|", line)
        if m and section and not section.startswith(("## Language", "## Algebraic")):
            ops.append(m.group(1))
    assert len(ops) > 100
    missing = [o for o in ops if o not in KERNELS]
    assert not missing, f"no kernel for {missing}"
    exercised = set()
    for f, n in ALL:
        exercised |= _op_names_in(_cases(f)[n][0])
    # the qnn operators' interpreter cases are ops/test_qnn.py's, bit-exact with TVM 0.19
    qnn_common = _load("_qnn_common")
    for name in _load("qnn_cases").CASES:
        exercised |= _op_names_in(qnn_common.case_function(name))
    # fixed_point_multiply(_per_axis) and qnn.simulated_*: ops/test_qnn_simulated.py's cases
    for fn, _, _ in _load("test_qnn_simulated").CASES.values():
        exercised |= _op_names_in(fn)
    assert not [o for o in ops if o not in exercised], [o for o in ops if o not in exercised]


@pytest.mark.parametrize("method", ["linear", "nearest_neighbor", "cubic"])
def test_resize2d_keeps_float64(method):
    """float64 images are interpolated in float64 (float32 would round away
    the 1e-10 steps; the gradient rules' finite differences need it)."""
    x = (1.0 + 1e-10 * np.arange(12.0)).reshape(1, 1, 3, 4)
    out = KERNELS["image.resize2d"]([x], {"size": [3, 4], "method": method,
                                          "coordinate_transformation_mode": "align_corners"})
    assert out.dtype == np.float64
    np.testing.assert_allclose(out, x, rtol=0, atol=1e-15)
    x32 = x.astype(np.float32)
    out32 = KERNELS["image.resize2d"]([x32], {"size": [3, 4], "method": method})
    assert out32.dtype == np.float32
