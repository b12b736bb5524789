"""Pictures: `IRModule.visualize()`, `relay_mlir.visualize.to_dot` and `relay-mlir graph`.

SVGs are checked by parsing them (xml.etree) and reading the node texts; the
tests that need Graphviz's `dot` skip without it (install.sh installs it).
"""
from __future__ import annotations

import collections
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

import relay_mlir as relay
from relay_mlir import cli, visualize
from relay_mlir.errors import CompileError
from relay_mlir.prelude import Prelude
from relay_mlir.testing import programs
from relay_mlir.models import resnet

from conftest import cli_command

needs_dot = pytest.mark.skipif(shutil.which("dot") is None,
                               reason="Graphviz's dot is not installed (install.sh installs it)")
SVG = "{http://www.w3.org/2000/svg}"


def svg_texts(path):
    """The text lines of an SVG drawn by Graphviz (node labels, cluster and edge labels)."""
    root = ET.parse(path).getroot()
    assert root.tag == SVG + "svg"
    return [t.text for t in root.iter(SVG + "text") if t.text]


def dot_nodes(dot):
    """{node id: label} of DOT text written by to_dot, and its edges."""
    nodes = dict(re.findall(r'^\s*(n\d+) \[label="((?:[^"\\]|\\.)*)"', dot, re.M))
    edges = re.findall(r"^\s*(n\d+) -> (n\d+)", dot, re.M)
    return nodes, edges


def prelude_module():
    """A Prelude program: a list built with Cons/Nil, map and foldl over it with closures."""
    mod = relay.IRModule()
    p = Prelude(mod)
    x = relay.var("x", shape=(2,))
    e, acc = relay.var("e", shape=(2,)), relay.var("acc", shape=(2,))
    lst = p.cons(x, p.cons(x * x, p.nil()))
    scaled = p.map(relay.Function([e], relay.nn.relu(e)), lst)
    mod["main"] = relay.Function([x], p.foldl(relay.Function([acc, e], acc * relay.const(2.0) - e),
                                              relay.zeros_like(x), scaled))
    return mod


# -- pictures ---------------------------------------------------------------------------
@needs_dot
def test_resnet_svg(tmp_path):
    mod, params = resnet.get_workload(num_layers=18, num_classes=10, width=8, image_shape=(3, 32, 32))
    out = tmp_path / "resnet18.svg"
    dot = mod.visualize(out, params=params)
    texts = svg_texts(out)
    count = collections.Counter(texts)
    assert count["nn.conv2d"] == 20 and count["nn.batch_norm"] == 20 and count["add"] == 8
    for op in ("nn.relu", "nn.max_pool2d", "nn.global_avg_pool2d", "nn.batch_flatten", "nn.dense",
               "nn.bias_add"):
        assert op in count, op
    assert "def @main -> Tensor[(1, 10), float32]" in texts       # the function's cluster
    assert "strides=[2,2] padding=[3,3] channels=8" in texts      # key attributes of the stem
    assert "Tensor[(1, 8, 16, 16), float32]" in texts             # inferred types
    assert "%data" in texts and "%layer4.1.conv2.weight" in texts
    assert "data_layout=NCHW" not in " ".join(texts)              # uninformative defaults hidden
    nodes, edges = dot_nodes(dot)
    # data, weights, conv2d, batch_norm and its .0, relu, add, max_pool2d ... bias_add
    assert len(nodes) == 1 + len(params) + 20 + 2 * 20 + 17 + 8 + 5
    assert all(a in nodes and b in nodes for a, b in edges)


@needs_dot
def test_prelude_program_svg(tmp_path):
    mod = prelude_module()
    out = tmp_path / "prelude.svg"
    mod.visualize(out)
    texts = svg_texts(out)
    joined = "\n".join(texts)
    for want in ("def @main -> Tensor[(2), float32]", "def @foldl[A, B] -> A", "def @map[A, B] -> List[B]",
                 "@foldl", "@map", "Cons", "Nil", "match", "Cons(%x, %rest) =>", "nn.relu", "multiply", "subtract",
                 "zeros_like", "if", "then", "else", "List[Tensor[(2), float32]]"):
        assert want in texts, want
    assert "fn (%acc, %e)" in joined and "fn (%e)" in joined   # closures as clusters
    # only main
    out2 = tmp_path / "main.svg"
    mod.visualize(out2, functions=["main"])
    texts = svg_texts(out2)
    assert "def @main -> Tensor[(2), float32]" in texts and not any(t.startswith("def @foldl") for t in texts)


def test_language_constructs_in_dot():
    """Closures, a recursive let, if, refs and tuples: each scope a cluster, values flowing out."""
    dot = programs.get("refs").mod.visualize()
    nodes, edges = dot_nodes(dot)
    labels = {n: lab.split("\\n")[0] for n, lab in nodes.items()}
    by_label = collections.defaultdict(list)
    for n, lab in labels.items():
        by_label[lab].append(n)
    assert "%r = ref" in by_label and "%loop = fn" in by_label and "%inc = fn" in by_label
    assert len(by_label["ref_read"]) == 3 and "if" in by_label
    assert len(by_label["ref_write"]) == 1 and len(by_label["%w = ref_write"]) == 1
    assert re.search(r'label="fn \(%i\)"', dot) and re.search(r'label="then"', dot)
    assert re.search(r'n\d+ -> %s \[label="cond"\]' % by_label["if"][0], dot)
    assert all(a in nodes and b in nodes for a, b in edges)
    # every node is declared once
    assert len(re.findall(r"^\s*n\d+ \[", dot, re.M)) == len(nodes)


def test_match_clusters_and_pattern_variables():
    dot = programs.get("nested_patterns").mod.visualize(functions=["f"])
    assert 'label="(Cons(%a, Cons(%b, _)), Nil) =>"' in dot and 'label="_ =>"' in dot
    nodes, edges = dot_nodes(dot)
    match = [n for n, lab in nodes.items() if lab.startswith("match\\n")]
    assert len(match) == 1
    # the clause values flow into the match, labelled by their patterns
    assert len(re.findall(r"-> %s \[label=" % match[0], dot)) == 4  # data + 3 clauses
    assert len(re.findall(r"style=dashed", dot)) == 3                # %a, %b, %c bound by patterns


def test_expression_and_untyped_drawing():
    x = relay.var("x", shape=(2,))
    y = relay.var("y")  # no type
    dot = visualize.to_dot(relay.Tuple([relay.exp(x), relay.TupleGetItem(relay.Tuple([y, x]), 0)]))
    nodes, _ = dot_nodes(dot)
    assert sorted(nodes.values()) == sorted(["%x\\nTensor[(2), float32]", "%y", "exp", "tuple", "tuple", ".0"])
    assert "subgraph" not in dot  # free variables and no function: no cluster


# -- large graphs -------------------------------------------------------------------------
def test_10000_op_chain_without_recursion():
    x = relay.var("x", shape=(4,))
    y = x
    for i in range(10000):
        y = relay.exp(y) if i % 2 else relay.negative(y)
    dot = relay.IRModule.from_expr(relay.Function([x], y)).visualize()
    nodes, edges = dot_nodes(dot)
    assert len(nodes) == 10001 and len(edges) == 10000
    assert sum(1 for lab in nodes.values() if lab == "exp\\nTensor[(4), float32]") == 5000


def test_deep_lets_ifs_and_closures_without_recursion():
    x = relay.var("x", shape=(2,))
    c = relay.var("c", shape=(), dtype="bool")
    body = x
    for i in range(5000):  # nested scopes: 5000 if-clusters deep
        body = relay.If(c, relay.exp(x), body)
    dot = visualize.to_dot(relay.Function([x, c], body))
    assert dot.count("subgraph cluster_") == 1 + 2 * 5000
    e, lets = x, []
    for i in range(5000):  # a let chain
        v = relay.var(f"v{i}")
        lets.append((v, relay.exp(e)))
        e = v
    for v, val in reversed(lets):
        e = relay.Let(v, val, e)
    nodes, _ = dot_nodes(visualize.to_dot(relay.Function([x], e)))
    assert nodes["n5000"] == "%v4999 = exp"  # the let names its value's node
    body = x
    for i in range(3000):  # closures in closures
        p = relay.var(f"p{i}", shape=(2,))
        body = relay.Function([p], relay.add(body, p))
    assert visualize.to_dot(body).count('label="fn"') == 3000


# -- the command line ----------------------------------------------------------------------
def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600)


@needs_dot
def test_cli_graph_relay_svg_png_dot(tmp_path):
    src = tmp_path / "prelude.relay"
    src.write_text(prelude_module().astext())
    r = run(cli_command("relay-mlir") + ["graph", str(src), "--function", "main", "--function", "foldl"])
    assert r.returncode == 0, r.stderr
    texts = svg_texts(tmp_path / "prelude.svg")  # the default output: INPUT with .svg
    assert "@foldl" in texts and "def @foldl[A, B] -> A" in texts and "match" in texts
    r = run(cli_command("relay-mlir") + ["graph", str(src), "-o", str(tmp_path / "p.png")])
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = run(cli_command("relay-mlir") + ["graph", str(src), "-o", str(tmp_path / "p.dot")])
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "p.dot").read_text().startswith("digraph relay {")


@needs_dot
def test_cli_graph_mlir_and_onnx(tmp_path, capsys):
    x = relay.var("x", shape=(1, 3, 8, 8))
    w = relay.var("w", shape=(4, 3, 3, 3))
    mod = relay.IRModule.from_expr(relay.Function([x, w], relay.nn.relu(relay.nn.conv2d(x, w, padding=1))))
    src = tmp_path / "conv.mlir"
    src.write_text(mod.to_mlir(infer=True).text())
    assert cli.main(["graph", str(src), "-o", str(tmp_path / "conv.svg")]) == 0
    texts = svg_texts(tmp_path / "conv.svg")
    assert "nn.conv2d" in texts and "padding=[1,1] strides=[1,1]" in texts
    assert "def @main -> Tensor[(1, 4, 8, 8), float32]" in texts and "nn.relu" in texts

    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper as oh
    g = oh.make_graph([oh.make_node("Relu", ["x"], ["h"]), oh.make_node("Softmax", ["h"], ["y"], axis=1)],
                      "tiny", [oh.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 5])],
                      [oh.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 5])])
    m = oh.make_model(g, opset_imports=[oh.make_opsetid("", 17)])
    m.ir_version = 10
    onnx.save(m, tmp_path / "tiny.onnx")
    assert cli.main(["graph", str(tmp_path / "tiny.onnx"), "-o", str(tmp_path / "tiny.svg"),
                     "--shape", "x=3,5"]) == 0
    texts = svg_texts(tmp_path / "tiny.svg")
    assert "nn.relu" in texts and "nn.softmax" in texts and "Tensor[(3, 5), float32]" in texts
    assert "wrote" in capsys.readouterr().out


# -- errors ---------------------------------------------------------------------------------
def test_errors_are_compile_errors(tmp_path, monkeypatch):
    mod = prelude_module()
    with pytest.raises(CompileError, match=r"unknown extension '\.jpeg' \(use \.svg"):
        mod.visualize(tmp_path / "m.jpeg")
    with pytest.raises(CompileError, match=r"no global function 'nope' to draw \(the module has id, "):
        mod.visualize(functions=["nope"])
    with pytest.raises(CompileError, match="unknown format 'gif'"):
        mod.visualize(tmp_path / "m.svg", format="gif")
    monkeypatch.setenv("PATH", str(tmp_path))  # no Graphviz
    with pytest.raises(CompileError, match=r"needs Graphviz's 'dot' program, which is not on PATH"):
        mod.visualize(tmp_path / "m.svg")
    mod.visualize(tmp_path / "m.dot", functions=["main"])  # .dot needs no Graphviz
    assert (tmp_path / "m.dot").read_text().startswith("digraph relay {")


def test_cli_errors_without_traceback(tmp_path, monkeypatch, capsys):
    src = tmp_path / "m.relay"
    src.write_text('#[version = "0.0.5"]\ndef @main(%x: Tensor[(2), float32]) { exp(%x) }\n')
    assert cli.main(["graph", str(src), "-o", str(tmp_path / "m.bmpx")]) == 1
    err = capsys.readouterr().err
    assert "relay-mlir: error: cannot draw" in err and "unknown extension '.bmpx'" in err
    assert cli.main(["graph", str(tmp_path / "missing.relay"), "-o", str(tmp_path / "missing.dot")]) == 1
    assert "cannot read" in capsys.readouterr().err
    monkeypatch.setenv("PATH", str(tmp_path))
    assert cli.main(["graph", str(src), "-o", str(tmp_path / "m.svg")]) == 1
    err = capsys.readouterr().err
    assert "relay-mlir: error: drawing" in err and "apt-get install graphviz" in err
    assert "Traceback" not in err
    assert cli.main(["graph", str(src), "-o", str(tmp_path / "m.dot")]) == 0


def test_ill_typed_module_is_drawn_with_a_warning(tmp_path, capsys):
    src = tmp_path / "bad.relay"
    src.write_text('#[version = "0.0.5"]\n'
                   "def @main(%a: Tensor[(2, 3), float32], %b: Tensor[(4), float32]) {\n"
                   "  %0 = exp(%a);\n  add(%0, %b)\n}\n")
    assert cli.main(["graph", str(src), "-o", str(tmp_path / "bad.dot")]) == 0
    err = capsys.readouterr().err
    assert "relay-mlir: warning: type inference failed" in err and "broadcastable" in err
    dot = (tmp_path / "bad.dot").read_text()
    assert re.search(r'label="types not inferred: .*broadcastable', dot)
    nodes, _ = dot_nodes(dot)
    assert sorted(nodes.values()) == ["%a\\nTensor[(2, 3), float32]", "%b\\nTensor[(4), float32]", "add", "exp"]


def test_render_reports_graphviz_failures(tmp_path):
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed (install.sh installs it)")
    with pytest.raises(CompileError, match="Graphviz could not draw"):
        visualize.render("digraph { a -> }", tmp_path / "x.svg")
