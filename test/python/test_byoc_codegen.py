"""External codegens on IREE (issue 34, section 2): at compile time each external function goes
to the codegen registered for its ``Compiler``, whose code then runs instead of relay-mlir's.

One partitioned module, built as a TVM script builds it (``relay.build``, ``graph_executor``), has
four external functions: ``cg_mlir`` returns linalg
MLIR, ``cg_c`` C source (linked through IREE's custom dispatch), ``cg_tvm`` is registered with
TVM's spelling (``tvm.register_func("relay.ext.cg_tvm")``) and ``cg_none`` declines (relay-mlir
lowers it). To show whose code runs, the codegens deliberately compute something other than the
Relay operator they replace (add -> a - b, multiply -> a * b + 1, subtract -> a + b); numpy
gives the expected values (float32, rtol 1e-6). Route (c), ``Device("vulkan")``, runs a function
on Vulkan (lavapipe) in a two-device module. Bad codegens are located ``CompileError``s that
name the function and the codegen.
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
import relay_mlir.tvm as tvm
from relay_mlir import byoc
from relay_mlir.byoc import c_compiler
from relay_mlir.byoc.external_code import attach_external_code
from relay_mlir.op import register_op_attr
from relay_mlir.op.op_attr import reset_op_attr

_OPS = {"add": "cg_mlir", "multiply": "cg_c", "subtract": "cg_tvm", "nn.relu": "cg_none"}
_SHAPE = (2, 3)


def _elementwise_mlir(symbol: str, arith_op: str) -> str:
    """linalg MLIR defining ``@symbol(a, b) = a <arith_op> b`` on 2x3 f32 tensors."""
    t = "tensor<2x3xf32>"
    m = "affine_map<(i, j) -> (i, j)>"
    return f"""module {{
  func.func @{symbol}(%a: {t}, %b: {t}) -> {t} {{
    %e = tensor.empty() : {t}
    %r = linalg.generic {{indexing_maps = [{m}, {m}, {m}], iterator_types = ["parallel", "parallel"]}}
        ins(%a, %b : {t}, {t}) outs(%e : {t}) {{
    ^bb0(%x: f32, %y: f32, %o: f32):
      %v = {arith_op} %x, %y : f32
      linalg.yield %v : f32
    }} -> {t}
    return %r : {t}
  }}
}}"""


def _c_multiply_plus_one(func):
    sig = byoc.signature(func)
    return byoc.CSource(f"""
void {sig.symbol}(const float *a, const float *b, float *out) {{
  for (int i = 0; i < {sig.params[0].size}; ++i) out[i] = a[i] * b[i] + 1.0f;
}}""")


SEEN = []  # the functions the codegens were handed


def _cg_mlir(func):
    SEEN.append(("cg_mlir", byoc.signature(func)))
    return byoc.MLIR(_elementwise_mlir(func.attrs["global_symbol"], "arith.subf"))


def _cg_none(func):
    SEEN.append(("cg_none", byoc.signature(func)))
    return None


def _partitioned():
    a, b = relay.var("a", shape=_SHAPE), relay.var("b", shape=_SHAPE)
    y = relay.nn.relu(relay.subtract((a + b) * b, a))
    mod = relay.IRModule.from_expr(relay.Function([a, b], y))
    return relay.transform.Sequential([
        relay.transform.AnnotateTarget(list(_OPS.values())),
        relay.transform.MergeCompilerRegions(),
        relay.transform.PartitionGraph()])(mod)


@pytest.fixture(scope="module")
def codegens():
    for op, compiler in _OPS.items():
        register_op_attr(op, "target." + compiler, lambda call: True)
    byoc.register_codegen("cg_mlir", _cg_mlir)
    byoc.register_codegen("cg_c", _c_multiply_plus_one)
    tvm.register_func("relay.ext.cg_tvm",
                      lambda func: _elementwise_mlir(func.attrs["global_symbol"], "arith.addf"))
    byoc.register_codegen("cg_none", _cg_none)
    yield
    for op, compiler in _OPS.items():
        reset_op_attr(op, "target." + compiler)
        byoc.unregister_codegen(compiler)


@pytest.fixture(scope="module")
def compiled(codegens):
    """The module built as a TVM script builds it (relay.build in a PassContext; the test of
    refacc uses relay_mlir.compile)."""
    from relay_mlir.tvm import relay as tvm_relay
    from relay_mlir.tvm.contrib import graph_executor

    mod = _partitioned()
    with tvm.transform.PassContext(opt_level=3):
        lib = tvm_relay.build(mod, target="llvm")
    return mod, lib, graph_executor.GraphModule(lib["default"](tvm.cpu(0)))


def test_each_route_runs_its_codegens_code(compiled):
    mod, _, gmod = compiled
    assert sorted(fn.attrs["Compiler"] for _, fn in byoc.external_functions(mod)) == sorted(_OPS.values())
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal(_SHAPE).astype("float32") for _ in range(2))
    want = np.maximum((a - b) * b + 1 + a, 0)      # the codegens' semantics
    relay_semantics = np.maximum((a + b) * b - a, 0)
    assert np.abs(want - relay_semantics).max() > 0.1  # so the check below tells them apart
    gmod.set_input("a", a)
    gmod.set_input("b", b)
    gmod.run()
    np.testing.assert_allclose(gmod.get_output(0).numpy(), want, rtol=1e-6, atol=1e-6)


def test_codegens_get_typed_functions_and_c_is_linked_statically(compiled):
    exe = compiled[1].executable
    kinds = {name: sig for name, sig in SEEN}
    assert set(kinds) == {"cg_mlir", "cg_none"}
    sig = kinds["cg_mlir"]
    assert sig.symbol == "tvmgen_default_cg_mlir_main_0"
    assert [(p.shape, p.dtype) for p in sig.params] == [((2, 3), "float32")] * 2
    assert sig.mlir_type == "(tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>"
    text = exe.iree_input
    assert text.count("hal.import.static") == 1 and "hal.executable.objects" in text
    assert "flow.dispatch @tvmgen_default_cg_c_main_2$c::" in text


def test_tvm_spelling_registers_the_codegen(codegens):
    assert tvm.get_global_func("relay.ext.cg_tvm") is byoc.get_codegen("cg_tvm")
    assert tvm.get_global_func("relay.ext.nobody", allow_missing=True) is None
    with pytest.raises(ValueError, match="Cannot find global function relay.ext.nobody"):
        tvm.get_global_func("relay.ext.nobody")
    with pytest.raises(ValueError, match="Global PackedFunc relay.ext.cg_tvm is already registered"):
        tvm.register_func("relay.ext.cg_tvm", lambda f: None)
    with pytest.raises(ValueError, match="only as external codegens"):
        tvm.register_func("relay.ext.cg_tvm.optimize", lambda f: None)


# -- bad codegens: located errors naming the function and the codegen ------------------------------
@pytest.fixture(scope="module")
def lowered(codegens):
    """A module with one external function (Compiler="cg_bad"), lowered once."""
    register_op_attr("add", "target.cg_bad", lambda call: True)
    a, b = relay.var("a", shape=_SHAPE), relay.var("b", shape=_SHAPE)
    mod = relay.IRModule.from_expr(relay.Function([a, b], relay.exp(a + b)))
    mod = relay.transform.Sequential([relay.transform.AnnotateTarget(["cg_bad"]),
                                      relay.transform.PartitionGraph()])(mod)
    yield mod, relay.lower_to_iree_input(mod)
    reset_op_attr("add", "target.cg_bad")
    byoc.unregister_codegen("cg_bad")


def _raise(func):
    raise RuntimeError("the accelerator is busy")


NAME = "'tvmgen_default_cg_bad_main_0'"
BAD = [
    ("raises", _raise, "llvm-cpu", "raised RuntimeError: the accelerator is busy"),
    ("bad MLIR", lambda f: "func.func @x(", "llvm-cpu", "returned MLIR that is not valid"),
    ("unknown op", lambda f: _elementwise_mlir("tvmgen_default_cg_bad_main_0", "arith.nope"),
     "llvm-cpu", "not valid: .*arith.nope"),
    ("wrong symbol", lambda f: _elementwise_mlir("other", "arith.addf"), "llvm-cpu",
     "does not define func.func @tvmgen_default_cg_bad_main_0 \\(it defines: @other\\)"),
    ("wrong type", lambda f: _elementwise_mlir("tvmgen_default_cg_bad_main_0", "arith.addf")
     .replace("2x3", "3x2"), "llvm-cpu", "of type .*3x2.*; the external function's signature is"),
    ("bad C", lambda f: byoc.CSource("void tvmgen_default_cg_bad_main_0(float *a) { return 1 }"),
     "llvm-cpu", "its C source does not compile"),
    ("C on a GPU", _c_multiply_plus_one, "vulkan-spirv", "runs on the CPU only"),
    ("no entry", lambda f: byoc.CSource("void other(void) {}"), "llvm-cpu",
     "does not define the entry point 'tvmgen_default_cg_bad_main_0'"),
    ("not ELF", lambda f: byoc.ObjectFile(b"not an object"), "llvm-cpu", "not an ELF object"),
    ("device", lambda f: byoc.Device("vulkan"), "llvm-cpu", "which only relay_mlir.compile does"),
    ("wrong kind", lambda f: 42, "llvm-cpu", "returned int; expected relay_mlir.byoc.MLIR"),
]


@pytest.mark.parametrize("case, codegen, target, words", BAD, ids=[c[0] for c in BAD])
def test_bad_codegen_is_a_located_error(lowered, case, codegen, target, words):
    mod, text = lowered
    byoc.register_codegen("cg_bad", codegen, override=True)
    with pytest.raises(relay.CompileError, match=f"codegen 'cg_bad' for function {NAME}.*{words}") as e:
        attach_external_code(mod, text, target)
    where = e.value.diagnostics[0]
    assert where.file == __file__ and where.line > 0  # the external function's source
    if case == "bad C":  # the C compiler's own error, with its line
        assert any(d.file == "tvmgen_default_cg_bad_main_0.c" and d.line == 1
                   for d in e.value.diagnostics[1:])


def test_compile_reports_a_raising_codegen(lowered):
    mod, _ = lowered
    byoc.register_codegen("cg_bad", _raise, override=True)
    with pytest.raises(relay.CompileError, match=f"codegen 'cg_bad' for function {NAME} raised"):
        relay.compile(mod)


def test_device_route_runs_the_function_on_another_iree_device():
    """Route (c): the codegen answers Device("vulkan"); compile for llvm-cpu gives one .vmfb
    for both devices, the external function's stage on vulkan (lavapipe here), main's rest
    on the CPU."""
    asked = []
    register_op_attr("exp", "target.cg_gpu", lambda call: True)
    byoc.register_codegen("cg_gpu", lambda f: asked.append(f) or byoc.Device("vulkan"))
    try:
        x = relay.var("x", shape=_SHAPE)
        mod = relay.IRModule.from_expr(relay.Function([x], relay.negative(relay.exp(x))))
        mod = relay.transform.Sequential([relay.transform.AnnotateTarget(["cg_gpu"]),
                                          relay.transform.PartitionGraph()])(mod)
        exe = relay.compile(mod, target="llvm-cpu")
    finally:
        reset_op_attr("exp", "target.cg_gpu")
        byoc.unregister_codegen("cg_gpu")
    assert len(asked) == 1  # once per compile
    assert [dev for _, dev in exe.stages] == ["vulkan", "cpu"]
    v = np.linspace(-1, 1, 6, dtype="float32").reshape(_SHAPE)
    np.testing.assert_allclose(exe(v), -np.exp(v), rtol=1e-5)


def test_device_route_with_code_or_a_bad_device_is_a_located_error(lowered):
    from relay_mlir.byoc.device_route import place_external_functions

    mod, _ = lowered
    byoc.register_codegen("cg_bad", lambda f: byoc.Device(42), override=True)
    with pytest.raises(relay.CompileError, match=f"codegen 'cg_bad' for function {NAME} returned "
                       "Device\\(target=42\\): .*expected a device name"):
        place_external_functions(mod, "llvm-cpu")
    byoc.register_codegen("cg_bad", _c_multiply_plus_one, override=True)
    with pytest.raises(relay.CompileError, match=f"codegen 'cg_bad' for function {NAME} returned "
                       "a C kernel, and the target is a target dict: a C kernel cannot join a "
                       "multi-device build"):
        place_external_functions(mod, {"cpu": "llvm-cpu", "vulkan": "vulkan-spirv"})
    register_op_attr("exp", "target.cg_dev", lambda call: True)
    try:  # one codegen asks for a device, another returns code
        a, b = relay.var("a", shape=_SHAPE), relay.var("b", shape=_SHAPE)
        two = relay.transform.Sequential([relay.transform.AnnotateTarget(["cg_bad", "cg_dev"]),
                                          relay.transform.PartitionGraph()])(
            relay.IRModule.from_expr(relay.Function([a, b], relay.exp(a + b))))
        byoc.register_codegen("cg_dev", lambda f: byoc.Device("vulkan"))
        byoc.register_codegen("cg_bad", _c_multiply_plus_one, override=True)
        with pytest.raises(relay.CompileError, match="codegen 'cg_bad' for function '\\w+' returned "
                           "a C kernel, and another codegen asked for a device"):
            place_external_functions(two, "llvm-cpu")
    finally:
        reset_op_attr("exp", "target.cg_dev")
        byoc.unregister_codegen("cg_dev")


def test_mlir_route_joins_a_two_device_build(codegens):
    """Route (a) in a multi-device build: cg_mlir's linalg (add -> a - b) is compiled for both
    devices and runs in the Vulkan stage (lavapipe here), relay-mlir's multiply on the CPU."""
    a, b = relay.var("a", shape=_SHAPE), relay.var("b", shape=_SHAPE)
    on_gpu = relay.annotation.on_device(relay.exp(a + b), "vulkan")
    out = relay.annotation.on_device(relay.multiply(on_gpu, b), "cpu")
    mod = relay.IRModule.from_expr(relay.Function([a, b], out))
    mod = relay.transform.Sequential([relay.transform.AnnotateTarget(["cg_mlir"]),
                                      relay.transform.PartitionGraph()])(mod)
    SEEN.clear()
    exe = relay.compile(mod, target={"cpu": "llvm-cpu", "vulkan": "vulkan-spirv"})
    assert [name for name, _ in SEEN] == ["cg_mlir"]  # asked once
    assert exe.stages == [("stage0_vulkan", "vulkan"), ("stage1_cpu", "cpu")]
    assert "arith.subf" in exe.iree_input and "stream.affinity = #hal.device.affinity<@vulkan>" in exe.iree_input
    av = np.linspace(-1, 1, 6, dtype="float32").reshape(_SHAPE)
    bv = av[::-1].copy() + 0.5
    np.testing.assert_allclose(exe(av, bv), np.exp(av - bv) * bv, rtol=1e-5)


def test_no_c_compiler_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no cc, gcc or clang there
    assert c_compiler.find_c_compiler() is None
    with pytest.raises(relay.CompileError, match="no C compiler was found: set CC"):
        c_compiler.compile_c("void f(void) {}", "f", "codegen 'x' for function 'f'")


def test_register_codegen_rules():
    with pytest.raises(TypeError, match="non-empty string"):
        byoc.register_codegen("", lambda f: None)
    with pytest.raises(TypeError, match="expected a function"):
        byoc.register_codegen("cg_rules", 3)
    byoc.register_codegen("cg_rules", lambda f: None)
    try:
        with pytest.raises(ValueError, match="already registered"):
            byoc.register_codegen("cg_rules", lambda f: None)
        assert relay.register_codegen is byoc.register_codegen
    finally:
        byoc.unregister_codegen("cg_rules")


@pytest.mark.parametrize("name", ["relay_mlir.byoc.codegen", "relay_mlir.byoc.signature",
                                  "relay_mlir.byoc.refacc.patterns", "relay_mlir.tvm.global_funcs"])
def test_docstring_examples(name):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
