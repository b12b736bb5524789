"""relay_mlir's MLIR must not clash with IREE's MLIR in one process."""
from __future__ import annotations

import subprocess
import sys

import pytest

SNIPPET = """
import numpy as np
{first}
import relay_mlir as relay
x = relay.var("x", shape=(2,))
mod = relay.transform.InferType()(relay.IRModule.from_expr(relay.exp(x)))
assert mod["main"].body.checked_type == relay.TensorType((2,))
exe = relay.compile(mod)
np.testing.assert_allclose(exe(np.zeros(2, "float32")), [1, 1], rtol=1e-6)
print("ok")
"""


@pytest.mark.parametrize("first", [
    "import iree.compiler, iree.runtime",
    # loads IREE's own in-process MLIR (a second MLIR copy in the process)
    "from iree.compiler import ir as iree_ir\nwith iree_ir.Context():\n    iree_ir.Module.parse('module {}')",
])
def test_import_after_iree(first):
    r = subprocess.run([sys.executable, "-c", SNIPPET.format(first=first)], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().endswith("ok")


# -- the core modules import one way -------------------------------------------------
# Rank of each core module: a module may import only modules of a lower rank
# (at the top of the file or anywhere else). The MLIR bindings (ir,
# passmanager, dialects, _context, _mlir_libs) are loaded lazily, on first
# emission, and sit outside this order.
LAYERS = {
    "ty": 0, "errors": 0, "narrow_dtypes": 0,  # narrow_dtypes: issue 33 (int4, float8)
    "expr": 1, "adt_value": 1, "interpreter_ops": 1,
    # the interpreter's kernels, one module per op family (a family may use another's helpers)
    "interpreter_ops._registry": 0.1, "interpreter_ops._common": 0.1, "interpreter_ops._layout": 0.1,
    "interpreter_ops._run_time": 0.1, "interpreter_ops.elementwise": 0.2, "interpreter_ops.reduce": 0.3,
    "interpreter_ops.nn": 0.3, "interpreter_ops.conv": 0.3, "interpreter_ops.image": 0.3,
    "interpreter_ops.norm": 0.4, "interpreter_ops.pool": 0.4, "interpreter_ops.transform": 0.4,
    "interpreter_ops.index": 0.3, "interpreter_ops.dynamic": 0.5,
    "adt": 1.5, "scope_builder": 1.5, "loops": 1.7,
    "expr_functor": 2, "expr_api": 2.5,
    "analysis": 3,
    "interpreter": 3.5,
    "op._make": 4, "op.dyn": 4.5, "op.tensor": 5, "op.nn": 6, "op.image": 6, "op.index": 6, "op.reduce": 6,
    "op.transform": 6, "op": 7, "text_forms": 7.5,
    # issue 33: relay.qnn (fixed point arithmetic, interpreter kernels, builders)
    "qnn.fixed_point": 0, "qnn.kernels": 1.2, "qnn.more_kernels": 1.3, "qnn.op.qnn": 6.5, "qnn.op": 6.6,
    "qnn": 6.7, "qnn.simulated_kernels": 1.3,
    "emit": 8, "printer": 8, "visualize": 8,
    "module": 9, "_worker": 9, "runtime": 9, "prelude": 9.5, "parser": 9.5, "mlir_import": 9.5, "_tvm_ndarray": 0,
    "autodiff": 9.7, "pass_infra": 9.8,
    # issue 34: the pattern language and the BYOC passes
    "op.op_attr": 0, "op.contrib.register": 0, "op.contrib": 0.1, "op.annotation": 4.6,
    "dataflow_pattern.pattern": 9.11, "dataflow_pattern.structural": 9.11,
    "dataflow_pattern.attrs": 9.11, "dataflow_pattern.graph": 9.12,
    "dataflow_pattern.pattern_graph": 9.12, "dataflow_pattern.visitor": 9.13,
    "dataflow_pattern.matcher": 9.13, "dataflow_pattern.grouper": 9.14,
    "dataflow_pattern.partition": 9.15, "dataflow_pattern.rewrite": 9.16, "dataflow_pattern": 9.6,
    "byoc.annotations": 9.81, "byoc.regions": 9.82, "byoc.module_pass": 9.82,
    "byoc.merge_composite": 9.83, "byoc.annotate_target": 9.83,
    "byoc.merge_compiler_regions": 9.83, "byoc.partition_graph": 9.83, "byoc": 9.9,
    "byoc.codegen": 0, "byoc.c_compiler": 0.1, "byoc.c_dispatch": 0, "byoc.mlir_check": 0.1,
    "byoc.signature": 1.1, "byoc.generate": 9.85, "byoc.external_code": 10.5, "byoc.device_route": 10.5,
    # issue 34: device annotations and planning (devices.build compiles: above compiler)
    "annotation": 4.5, "targets": 0, "cpu_kernels": 0, "devices.inline_lets": 3.6, "devices.stages": 4.6,
    "devices.executable": 9.1, "devices.config": 9.84, "devices.plan": 9.85, "devices.offload": 9.85,
    "devices": 9.86,
    "transform": 10,
    "lowering_request": 8.5, "weight_parameters": 8.5,
    "devices.build": 10.9,
    "compiler": 11,
    "executor": 11.5,
    # issue 33: relay.quantize (TVM's automatic quantization)
    "quantize.config": 0, "quantize.kl_divergence": 0, "quantize.forward_rewrite": 2.5,
    "quantize.hints": 11.6, "quantize.fixed_point_multiply": 11.6, "quantize.partitioning": 11.65,
    "quantize.annotation": 11.7, "quantize.realization": 11.7, "quantize.calibration": 11.7,
    "quantize.passes": 11.8, "quantize.pipeline": 11.85, "quantize": 11.9,
    "cli_transform": 11.95, "cli": 12,  # cli_transform: `relay-mlir transform` (issue 34)
    "": 13,  # relay_mlir/__init__.py
}
BINDINGS = ("ir", "passmanager", "dialects", "_context", "_mlir_libs")


def _imports(path, module):
    """(target module, line, inside a function?) for every relative import of ``module``."""
    import ast

    package = module.rsplit(".", 1)[0] if "." in module else ""
    if path.name == "__init__.py":
        package = module
    tree = ast.parse(path.read_text())
    funcs = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
             for n in ast.walk(f)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level > 0:
            base = package.split(".") if package else []
            base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
            names = [node.module] if node.module else [a.name for a in node.names]
            for name in names:
                target = ".".join(base + name.split("."))
                # `from . import nn` inside op/ names a submodule; `from .tensor import add` the module
                if node.module is None or target in LAYERS:
                    yield target, node.lineno, id(node) in funcs
                else:
                    yield ".".join(base + node.module.split(".")), node.lineno, id(node) in funcs


def test_core_imports_flow_one_way():
    from pathlib import Path

    import relay_mlir

    root = Path(relay_mlir.__file__).parent
    problems = []
    for module, rank in LAYERS.items():
        path = root / (module.replace(".", "/") + ".py") if module else root / "__init__.py"
        if not path.exists():
            path = root / module.replace(".", "/") / "__init__.py"
        for target, line, in_function in _imports(path, module):
            top = target.split(".")[0]
            if top in BINDINGS:
                continue  # the lazily loaded MLIR bindings
            if target not in LAYERS:
                target = target.rsplit(".", 1)[0] if target.rsplit(".", 1)[0] in LAYERS else target
            if target not in LAYERS:
                if not in_function:
                    problems.append(f"{path.name}:{line}: imports {target}, which has no layer")
                continue  # optional frontends/testing, imported where used
            if LAYERS[target] >= rank:
                problems.append(f"{module or '__init__'}:{line} imports {target} (rank {LAYERS[target]}"
                                f" >= {rank})")
            elif in_function:
                problems.append(f"{module or '__init__'}:{line}: function-local import of {target}")
    assert not problems, "\n".join(problems)


def test_building_expressions_does_not_load_mlir():
    r = subprocess.run([sys.executable, "-c", (
        "import sys, relay_mlir as relay\n"
        "x = relay.var('x', shape=(2,))\n"
        "f = relay.Function([x], relay.nn.relu(x + x))\n"
        "relay.free_vars(f.body); relay.ExprMutator().visit(f)\n"
        "assert not any(m.startswith('relay_mlir._mlir_libs') for m in sys.modules), 'bindings loaded'\n"
        "print('ok')")], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"


# -- the frontends import one way ----------------------------------------------------
def _frontend_imports():
    """``{module: [(imported frontend module, line, inside a function?)]}`` for every module of
    relay_mlir/frontend (packages as their ``__init__``)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "python" / "relay_mlir"   # the sources
    front = root / "frontend"
    files = sorted(front.rglob("*.py"))
    names = {}
    for p in files:
        rel = p.relative_to(root).with_suffix("").parts
        names[".".join(rel[:-1] if rel[-1] == "__init__" else rel)] = p
    graph = {}
    for module, path in names.items():
        edges = []
        typing_only = _type_checking_lines(path)
        for target, line, in_function in _imports(path, module):
            if line in typing_only:
                continue  # `if TYPE_CHECKING:` imports never run
            while target and target not in names:
                target = target.rsplit(".", 1)[0] if "." in target else ""
            if target.startswith("frontend") and target != module:
                edges.append((target, line, in_function))
        graph[module] = edges
    return graph


def _type_checking_lines(path):
    """Lines of the imports under ``if TYPE_CHECKING:``."""
    import ast

    tree = ast.parse(path.read_text())
    return {n.lineno for block in ast.walk(tree)
            if isinstance(block, ast.If) and getattr(block.test, "id", None) == "TYPE_CHECKING"
            for n in ast.walk(block) if isinstance(n, ast.ImportFrom)}


def test_frontend_imports_flow_one_way():
    """No import cycle among the frontend modules (ONNX, its op families, torch.export,
    TorchScript), and no function-local import of one frontend module by another: a local
    import is how a cycle hides (issue 35: {onnx, onnx_loop}, onnx_ops through _symshape)."""
    graph = _frontend_imports()
    assert len(graph) > 30 and "frontend.onnx_ops._symshape" in graph and "frontend.torch_ops.nn" in graph
    problems = [f"{m}:{line}: function-local import of {t}"
                for m, edges in graph.items() for t, line, local in edges if local]
    state = {}

    def visit(m, path):
        state[m] = "open"
        for t, line, _ in graph.get(m, ()):
            if state.get(t) == "open":
                problems.append("import cycle: " + " -> ".join(path[path.index(t):] + [t]))
            elif t not in state:
                visit(t, path + [t])
        state[m] = "done"

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert not problems, "\n".join(problems)
