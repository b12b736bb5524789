"""Large constants travel to iree-compile in a parameter archive, not as MLIR text (issue 30 §6).

``relay.compile`` moves each constant of at least ``weight_parameters.MIN_BYTES`` into
an ``.irpa`` archive and iree-compile imports it back, so the results are the
same bits as with the constants printed inline. The threshold is lowered here so
that tiny shapes exercise the path.
"""
from contextlib import contextmanager

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir import weight_parameters
from relay_mlir.emit import new_context, parse_module


@contextmanager
def threshold(min_bytes: int):
    """``weight_parameters.MIN_BYTES`` set to ``min_bytes`` for the ``with`` block."""
    saved = weight_parameters.MIN_BYTES
    weight_parameters.MIN_BYTES = min_bytes
    try:
        yield
    finally:
        weight_parameters.MIN_BYTES = saved


@pytest.fixture(scope="module")
def dense_program():
    rs = np.random.RandomState(7)
    w = rs.standard_normal((16, 8)).astype("float32")   # 512 bytes: moved at a 256-byte threshold
    b = rs.standard_normal(16).astype("float32")        # 64 bytes: stays inline
    x = relay.var("x", shape=(2, 8))
    y = relay.nn.relu(relay.nn.dense(x, relay.const(w)) + relay.const(b))
    mod = relay.IRModule.from_expr(relay.Function([x], y))
    return mod, w, b, rs.standard_normal((2, 8)).astype("float32")


@pytest.fixture(scope="module")
def compiled(dense_program):
    """The program compiled with its weight in an archive, and with every constant inline."""
    mod = dense_program[0]
    with threshold(256):
        archived = relay.compile(mod)
    with threshold(1 << 62):
        inline = relay.compile(mod)
    return archived, inline


def test_large_weight_is_not_printed_as_text(compiled):
    archived, inline = compiled
    assert archived.iree_input.count('#flow.parameter.named<"relay"::') == 1
    assert archived.iree_input.count('"util.global.load"') == 1
    assert "util.global" not in inline.iree_input
    # the 512-byte weight is 1024 hex digits inline; only the 64-byte bias is left as text
    assert 'dense<"0x' in inline.iree_input
    hex_digits = sum(len(s.split('"')[0]) for s in archived.iree_input.split('dense<"0x')[1:])
    assert hex_digits <= 2 * 64


def test_results_are_the_same_bits_as_inline_constants(dense_program, compiled):
    _, w, b, xv = dense_program
    archived, inline = compiled
    got = archived(xv)
    assert np.array_equal(got, inline(xv))
    np.testing.assert_allclose(got, np.maximum(xv @ w.T + b, 0), rtol=1e-5, atol=1e-5)


def test_lower_to_iree_input_stays_self_contained(dense_program):
    with threshold(256):
        text = relay.lower_to_iree_input(dense_program[0])
    assert "util.global" not in text and "parameter.named" not in text


def _constants_module():
    f32 = np.arange(64, dtype=np.float32) - 7.5
    i64 = np.arange(64, dtype=np.int64) * -3
    vals = lambda a: ", ".join(str(v) for v in a)  # noqa: E731
    bools = ", ".join("true" if i % 3 else "false" for i in range(300))
    text = f"""
func.func @main() -> (tensor<64xf32>, tensor<64xi64>, tensor<64xf32>, tensor<300xi1>, tensor<4xf32>) {{
  %a = arith.constant dense<[{vals(f32)}]> : tensor<64xf32>
  %b = arith.constant dense<[{vals(i64)}]> : tensor<64xi64>
  %s = arith.constant dense<2.5> : tensor<64xf32>
  %m = arith.constant dense<[{bools}]> : tensor<300xi1>
  %t = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  return %a, %b, %s, %m, %t : tensor<64xf32>, tensor<64xi64>, tensor<64xf32>, tensor<300xi1>, tensor<4xf32>
}}"""
    return text, {"p0": f32, "p1": i64}


def test_which_constants_move_and_their_bytes(tmp_path):
    import iree.runtime as rt

    text, expected = _constants_module()
    ctx = new_context()
    mod = parse_module(ctx, text, "<constants>")
    path = tmp_path / "w.irpa"
    moved = weight_parameters.move_large_constants(ctx, mod.operation, str(path), min_bytes=200)
    assert moved == 2  # the f32 and i64 tensors; not the splat, the i1 mask or the 16-byte tensor
    with ctx:
        out = str(mod)
    assert out.count("arith.constant") == 3 and out.count('"util.global.load"') == 2
    index = rt.ParameterIndex()
    index.load(str(path))
    got = {key: np.frombuffer(entry.file_view, expected[key].dtype) for key, entry in index.items()}
    assert set(got) == set(expected)
    for key, arr in expected.items():
        assert np.array_equal(got[key], arr), key


def test_nothing_to_move_writes_no_archive(tmp_path):
    text, _ = _constants_module()
    ctx = new_context()
    mod = parse_module(ctx, text, "<constants>")
    path = tmp_path / "w.irpa"
    assert weight_parameters.move_large_constants(ctx, mod.operation, str(path), min_bytes=1 << 20) == 0
    assert not path.exists()


def test_host_branches_take_the_vm_path_with_the_archive(dense_program):
    """A program with control flow on the host compiles in two iree-compile steps
    (``compiler._compile_via_vm``); the archive is imported in the first."""
    _, w, _, xv = dense_program
    x = relay.var("x", shape=(2, 8))
    cond = relay.greater(relay.sum(x), relay.const(0.0))
    y = relay.If(cond, relay.nn.dense(x, relay.const(w)), relay.zeros((2, 16), "float32"))
    with threshold(256):
        exe = relay.compile(relay.IRModule.from_expr(relay.Function([x], y)))
    assert "parameter.named" in exe.iree_input and "scf.if" in exe.iree_input
    pos = np.abs(xv)  # sum > 0: the dense branch
    np.testing.assert_allclose(exe(pos), pos @ w.T, rtol=1e-5, atol=1e-5)
    assert np.array_equal(exe(-pos), np.zeros((2, 16), "float32"))


def test_cli_compile_sends_weights_in_the_archive(tmp_path, dense_program):
    """``relay-mlir compile`` (cli.compile_file) takes the same path; ``--emit-iree-input``
    (``inline_weights``) asks for the whole program as text instead."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper as oh, numpy_helper

    from relay_mlir.cli import compile_file
    from relay_mlir.targets import get_target

    _, w, b, x = dense_program
    graph = oh.make_graph([oh.make_node("Gemm", ["x", "w", "b"], ["y"], transB=1)], "dense",
                          [oh.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8])],
                          [oh.make_tensor_value_info("y", TensorProto.FLOAT, [2, 16])],
                          [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    path = tmp_path / "dense.onnx"
    onnx.save(oh.make_model(graph, opset_imports=[oh.make_opsetid("", 13)]), str(path))
    with threshold(256):
        archived = compile_file(str(path), get_target("llvm-cpu"))
        inline = compile_file(str(path), get_target("llvm-cpu"), inline_weights=True)
    assert archived.iree_input.count('#flow.parameter.named<"relay"::') == 1
    assert "util.global" not in inline.iree_input
    np.testing.assert_allclose(archived(x), x @ w.T + b, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(archived(x), inline(x))
