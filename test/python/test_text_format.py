"""Relay's text format: relay_mlir.fromtext / astext / relay-mlir convert."""
import subprocess
import sys

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir import CompileError
from relay_mlir._tvm_ndarray import decode_ndarray, encode_ndarray, parse_metadata, write_metadata


def _mlir(mod, infer=False):
    em = mod.to_mlir(infer=infer)
    if infer:  # scalar constants print inline: compare modulo their sharing
        from relay_mlir.emit import run_passes
        run_passes(em.ctx, em.operation, "builtin.module(cse)", "cse")
    return em.text()


def _roundtrip(mod, infer=False):
    text = mod.astext()
    back = relay.fromtext(text)
    assert _mlir(back, infer) == _mlir(mod, infer)
    assert back.astext() == text
    return back


# -- parsing -------------------------------------------------------------------------
TVM_STYLE = '''#[version = "0.0.5"]
def @main(%data: Tensor[(1, 1, 8, 8), float32] /* ty=Tensor[(1, 1, 8, 8), float32] */, %fc1_weight: Tensor[(16, 64), float32], %fc1_bias: Tensor[(16), float32]) -> Tensor[(1, 16), float32] {
  %0 = nn.batch_flatten(%data) /* ty=Tensor[(1, 64), float32] */;
  %1 = nn.dense(%0, %fc1_weight, units=16) /* ty=Tensor[(1, 16), float32] */;
  %2 = nn.bias_add(%1, %fc1_bias, axis=-1) /* ty=Tensor[(1, 16), float32] */;
  nn.softmax(%2) /* ty=Tensor[(1, 16), float32] */
}
'''


def test_parses_what_tvm_prints_and_runs_it():
    mod = relay.fromtext(TVM_STYLE)
    assert [p.name_hint for p in mod["main"].params] == ["data", "fc1_weight", "fc1_bias"]
    rng = np.random.RandomState(0)
    x, w, b = (rng.rand(1, 1, 8, 8).astype("float32"), rng.rand(16, 64).astype("float32"),
               rng.rand(16).astype("float32"))
    out = relay.compile(mod)(x, w, b)
    logits = x.reshape(1, 64) @ w.T + b
    ref = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-6)


def test_language_constructs():
    mod = relay.fromtext('''
#[version = "0.0.5"]
type Opt[A] {
  Some(A),
  Nothing,
}
def @unwrap[A](%o: Opt[A], %d: A) -> A {
  match (%o) {
    Some(%v) => %v,
    Nothing => %d,
  }
}
def @main(%x: Tensor[(2), float32], %c: bool) {
  let %r = ref(%x);
  %0 = ref_write(%r, %x * 2f);
  let %u = %0;
  let %f = fn (%a: Tensor[(2), float32]) -> Tensor[(2), float32] { %a + ref_read(%r) };
  %1 = if (%c) { Some(%x) } else { Nothing };
  %2 = (%f(%x), @unwrap(%1, %x));
  (%2.0, %2.1, -1.5f64, 3i64, True)
}
''')
    main = mod["main"]
    assert isinstance(main.body, relay.Let)
    r = main.body
    assert isinstance(r.value, relay.RefCreate)
    tup = r.body.body.body
    assert isinstance(tup, relay.Tuple) and len(tup.fields) == 5
    assert tup.fields[2].data.dtype == np.float64 and float(tup.fields[2].data) == -1.5
    assert tup.fields[3].data.dtype == np.int64 and tup.fields[4].data.dtype == np.bool_
    unwrap = mod["unwrap"]
    assert [tp.name_hint for tp in unwrap.type_params] == ["A"]
    assert isinstance(unwrap.body, relay.Match) and unwrap.body.complete
    Opt, Some, Nothing = mod.get_type("Opt")
    assert Some.tag != Nothing.tag and mod.get_constructor(Some.tag) is Some
    _roundtrip(mod)


def test_infix_precedence_and_patterns():
    mod = relay.fromtext('''
def @main(%a: int32, %b: int32) {
  let %t = (%a, (%b, %a));
  %0 = match (%t) {
    (%x, (_, %y)) => %x + %y * 2 - 1 == %a,
  };
  %0
}''')
    body = mod["main"].body.body
    assert isinstance(body, relay.Match)
    rhs = body.clauses[0].rhs
    assert rhs.op.name == "equal"
    sub = rhs.args[0]
    assert sub.op.name == "subtract" and sub.args[0].op.name == "add"
    assert sub.args[0].args[1].op.name == "multiply"


def test_expression_with_free_vars():
    mod = relay.fromtext('free_var %x: Tensor[(3), float32];\nexp(%x)')
    assert [p.name_hint for p in mod["main"].params] == ["x"]
    assert mod["main"].body.op.name == "exp"
    e = relay.parse_expr("fn (%y: float32) { %y * %y }")
    assert isinstance(e, relay.Function)


def test_recursive_let_and_local_loop():
    mod = relay.fromtext('''
def @main(%n: int32) -> int32 {
  let %loop = fn (%i: int32, %acc: int32) -> int32 {
    if (%i == 0) { %acc } else { %loop(%i - 1, %acc + %i) }
  };
  %loop(%n, 0)
}''')
    let = mod["main"].body
    assert relay.analysis.free_vars(let.value) == [let.var]  # refers to itself
    text = mod.astext()
    assert "let %loop = fn" in text
    _roundtrip(mod)


@pytest.mark.parametrize("text, line, col, message", [
    ("def @main(%x) { foo(%x) }", 1, 17, "unknown operator 'foo'"),
    ("def @main(%x) {\n  add(%x, %y)\n}", 2, 11, "unbound variable '%y'"),
    ("def @main(%x: Tensor[(1, 2), floot32]) { %x }", 1, 30, "unknown dtype 'floot32'"),
    ("def @main(%x) {\n  nn.conv2d(%x, %x, padding=[1, 1], channels=\"a\")\n}", 2, 3, "channels"),
    ("def @main(%x) { %x", 1, 19, "expected '}'"),
    ("def @main(%x) { meta[relay.Constant][0] }", 1, 17, "no 'relay.Constant'"),
    ("def @main(%x) { 300i8 }", 1, 17, "does not fit in int8"),
    ("def @main(%x) { Cons(%x) }", 1, 17, "unknown operator 'Cons'"),
    ("def @main(%x) { Nil }", 1, 17, "unknown name 'Nil'"),
    ('#[version = "0.0.5"]\ndef @f() { 1 }\ndef @f() { 2 }', 3, 5, "defined twice"),
    ("def @main(%x) { /* unterminated ", 1, 17, "unterminated"),
])
def test_errors_are_located_with_a_caret(text, line, col, message):
    with pytest.raises(CompileError) as info:
        relay.fromtext(text)
    d = info.value.diagnostics[0]
    assert (d.line, d.col) == (line, col)
    assert message in d.message
    caret_line = d.message.splitlines()[-1]
    assert caret_line.strip() == "^" and len(caret_line) == col


def test_mutated_text_never_raises_anything_but_compile_error():
    """Token deletions/duplications of a real program: parse or a CompileError, nothing else."""
    import re

    base = TVM_STYLE + '''
type L[A] { C(A, L[A]), N, }
def @g[A](%l: L[A], %d: A) -> A { match? (%l) { C(%h, _) => %h, N => %d } }
def @h(%x: Tensor[(2), float32]) { let %r = ref(%x); (ref_read(%r), fn (%a) { %a }, if (True) { %x } else { %x }) }
'''
    tokens = re.findall(r"\s+|[A-Za-z_%@][\w.]*|\d+\w*|.", base)
    rng = np.random.RandomState(0)
    outcomes = {"ok": 0, "error": 0}
    for _ in range(300):
        toks = list(tokens)
        for _ in range(rng.randint(1, 4)):
            i = rng.randint(len(toks))
            if rng.rand() < 0.5:
                del toks[i]
            else:
                toks.insert(i, toks[rng.randint(len(toks))])
        try:
            relay.fromtext("".join(toks))
            outcomes["ok"] += 1
        except CompileError as e:
            assert e.diagnostics and e.diagnostics[0].line >= 1
            outcomes["error"] += 1
    assert outcomes["error"] > 100


# -- metadata --------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int8", "int32", "int64", "uint8", "bool"])
def test_ndarray_blobs_round_trip(dtype):
    a = (np.random.RandomState(1).rand(2, 3, 4) * 100).astype(dtype)
    b = decode_ndarray(encode_ndarray(a))
    assert b.dtype == a.dtype and np.array_equal(a, b)


def test_tvm_printed_metadata_blob_decodes():
    # printed by TVM 0.19 for relay.const(np.ones((2, 3), "float32"))
    blob = ("P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAgAAAAIgAQACAAAAAAAAAAMAAAAAAAAAGAAAAAAAAAAAAIA/AACAPwAAgD8"
            "AAIA/AACAPwAAgD8=")
    np.testing.assert_array_equal(decode_ndarray(blob), np.ones((2, 3), "float32"))


def test_bad_metadata_is_a_clean_error():
    good = encode_ndarray(np.ones((4, 4), "float32"))
    import base64
    truncated = base64.b64encode(base64.b64decode(good)[:-8]).decode()
    for blob in (truncated, "!!!", base64.b64encode(b"\x00" * 10).decode()):
        with pytest.raises(ValueError):
            decode_ndarray(blob)
    meta = write_metadata([np.ones(3, "float32")]).replace(good[:0] or "\"data\": \"0\"", "\"data\": \"7\"")
    with pytest.raises(ValueError, match="missing tensor data"):
        parse_metadata(meta)
    with pytest.raises(CompileError, match="metadata"):
        relay.fromtext('def @main() { meta[relay.Constant][0] }\n#[metadata]\n{"nodes": [}')


def test_attributes_in_the_metadata_section():
    """TVM prints the attributes of operators registered without an attrs type to the
    metadata section (``cumsum(%x, meta[relay.attrs.ScanopAttrs][0])``): read as the call's
    attributes (node references resolved, the null node None); anywhere else a clean error."""
    meta = ('#[metadata]\n{"root": 1, "nodes": [{"type_key": ""}, {"type_key": "Map", "keys": '
            '["relay.attrs.ScanopAttrs"], "data": [2]}, {"type_key": "Array", "data": [3]}, '
            '{"type_key": "relay.attrs.ScanopAttrs", "attrs": {"axis": "4", "dtype": "", '
            '"exclusive": "5"}}, {"type_key": "IntImm", "attrs": {"dtype": "int32", "value": "1"}}, '
            '{"type_key": "IntImm", "attrs": {"dtype": "bool", "value": "1"}}], "b64ndarrays": []}')
    head = 'def @main(%x: Tensor[(2, 3), float32]) { '
    mod = relay.fromtext(head + "cumsum(%x, meta[relay.attrs.ScanopAttrs][0]) }\n" + meta)
    call = mod["main"].body
    assert call.op.name == "cumsum" and call.attrs["axis"] == 1 and call.attrs["exclusive"] is True
    x = np.arange(6, dtype="float32").reshape(2, 3)
    got = relay.create_executor("debug", mod=mod).evaluate()(x)
    np.testing.assert_array_equal(np.asarray(got.numpy() if hasattr(got, "numpy") else got),
                                  np.cumsum(x, 1) - x)  # exclusive
    for bad, msg in [("meta[relay.attrs.ScanopAttrs][0]", "not tensors"),
                     ("add(meta[relay.attrs.ScanopAttrs][0], %x)", "must be the last argument"),
                     ("let %y = meta[relay.attrs.ScanopAttrs][0]; %y", "not tensors")]:
        with pytest.raises(CompileError, match=msg):
            relay.fromtext(head + bad + " }\n" + meta)


def test_constants_go_through_metadata():
    x = relay.var("x", shape=(2, 3))
    w = relay.const(np.arange(6, dtype="float32").reshape(2, 3))
    i = relay.const([1, 2], "int64")
    mod = relay.IRModule.from_expr(relay.Function([x], relay.Tuple([x + w, i, relay.const(2.5)])))
    text = mod.astext()
    assert "meta[relay.Constant][0]" in text and "meta[relay.Constant][1]" in text and "2.5f" in text
    back = _roundtrip(mod)
    np.testing.assert_array_equal(back["main"].body.fields[0].args[1].data, w.data)
    assert "metadata section has been omitted" in mod.astext(show_meta_data=False)


# -- round trips -----------------------------------------------------------------------
@pytest.mark.parametrize("name", ["resnet", "mobilenet_v2", "vgg", "dqn", "bert", "lstm"])
def test_zoo_round_trips(name):
    import importlib

    m = importlib.import_module(f"relay_mlir.models.{name}")
    out = m.get_workload()
    mod = out[0] if isinstance(out, tuple) else out
    _roundtrip(mod, infer=True)


def test_prelude_round_trips():
    from relay_mlir.prelude import Prelude

    mod = relay.IRModule()
    Prelude(mod)
    back = _roundtrip(mod)
    assert [g.name_hint for g in back.get_global_type_vars()] == ["List", "Option", "Tree"]


def test_deep_chain_prints_and_parses():
    x = relay.var("x", shape=(2,))
    y = x
    for _ in range(20000):
        y = relay.nn.relu(y)
    mod = relay.IRModule.from_expr(relay.Function([x], y))
    back = relay.fromtext(mod.astext())
    assert back.astext() == mod.astext()


# -- command line -----------------------------------------------------------------------
def test_cli_convert_and_compile(tmp_path):
    src = tmp_path / "m.relay"
    src.write_text(TVM_STYLE)
    cli = [sys.executable, "-m", "relay_mlir.cli"]
    r = subprocess.run(cli + ["convert", str(src), "-o", str(tmp_path / "m.mlir")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "relay.nn.dense" in (tmp_path / "m.mlir").read_text()
    r = subprocess.run(cli + ["convert", str(tmp_path / "m.mlir"), "-o", str(tmp_path / "back.relay")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    back = relay.fromtext((tmp_path / "back.relay").read_text())
    assert _mlir(relay.transform.InferType()(back)) == _mlir(relay.transform.InferType()(relay.fromtext(TVM_STYLE)))
    r = subprocess.run(cli + ["compile", str(src), "-o", str(tmp_path / "m.vmfb"), "-q"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    bad = tmp_path / "bad.relay"
    bad.write_text("def @main(%x) {\n  add(%x, %y)\n}\n")
    r = subprocess.run(cli + ["compile", str(bad), "-q"], capture_output=True, text=True)
    assert r.returncode == 1
    assert f"{bad}:2:11: error: unbound variable '%y'" in r.stderr
    assert "Traceback" not in r.stderr


def test_str_of_an_expression_is_tvms_text():
    """``print(expr)`` prints the text as TVM 0.19 does (recorded there): free variables
    declared first, no version line; a function as its text; Op and GlobalVar as their repr."""
    x = relay.var("x", shape=(2,))
    assert str(x) == "free_var %x: Tensor[(2), float32];\n%x"
    assert str(relay.exp(x)) == "free_var %x: Tensor[(2), float32];\nexp(%x)"
    assert str(relay.Tuple([x, x])) == "free_var %x: Tensor[(2), float32];\n(%x, %x)"
    assert str(relay.Function([x], relay.exp(x))) == "fn (%x: Tensor[(2), float32]) {\n  exp(%x)\n}"
    assert str(relay.exp(x).op) == "Op(exp)"
    assert "Call(Op(exp)" in repr(relay.exp(x))  # repr stays short (TVM: CallNode(...))
