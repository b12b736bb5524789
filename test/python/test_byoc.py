"""BYOC passes against TVM 0.19 (MergeComposite, AnnotateTarget, MergeCompilerRegions,
PartitionGraph): the programs of test_byoc_programs.py give TVM's recorded module dumps
(test_byoc_tvm019.json), region numbering and cycle avoidance included. A partitioned
network (conv2d+bias+relu composite, dense+bias composite, an add, relu) compiles through
relay-mlir's own lowering with no codegen registered and matches numpy. Bad input: clear
errors."""
from __future__ import annotations

import json
import types

import numpy as np
import pytest

import relay_mlir as relay
import relay_mlir.byoc  # noqa: F401  (relay.byoc)
from relay_mlir import dataflow_pattern as dfp
from relay_mlir.op import register_op_attr
from relay_mlir.op.contrib import get_pattern_table, register_pattern_table

import test_byoc_programs as programs

with open(programs.DATA_FILE) as _f:
    TVM = json.load(_f)

ENV = types.SimpleNamespace(relay=relay, dfp=dfp, transform=relay.transform,
                            register_op_attr=register_op_attr, IRModule=relay.IRModule)
programs.setup_targets(ENV)

BYOC_CASES = sorted(k for k in programs.cases() if k.startswith("b_"))


def test_every_case_was_recorded():
    assert sorted(k for k in TVM if k.startswith("b_")) == BYOC_CASES


@pytest.mark.parametrize("name", BYOC_CASES)
def test_same_as_tvm(name):
    programs.check_against_tvm(name, ENV, TVM)


# -- a partitioned module runs through relay-mlir's own lowering ------------------------------------
def _np_reference(x, skip, consts):
    w, b, dw, db = consts
    n, c, h, wd = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    conv = np.zeros((1, w.shape[0], h, wd), "float32")
    for i in range(h):
        for j in range(wd):
            conv[0, :, i, j] = np.tensordot(w, xp[0, :, i:i + 3, j:j + 3], axes=([1, 2, 3], [0, 1, 2]))
    h1 = np.maximum(conv + b[None, :, None, None], 0).reshape(1, -1)
    return np.maximum(h1 @ dw.T + db + skip, 0)


@pytest.fixture(scope="module")
def partitioned_net():
    mod = programs.b_pipeline_net(ENV)
    consts = [c.data for c in _constants(programs._net(ENV, True)["main"])]  # w, b, dw, db
    return mod, consts


def _constants(fn):
    out = []

    class Collect(relay.ExprVisitor):
        def visit_constant(self, c):
            out.append(c)
    Collect().visit(fn)
    return out


def test_partitioned_module_has_external_functions(partitioned_net):
    mod, _ = partitioned_net
    externals = {gv.name_hint: fn.attrs for gv, fn in relay.byoc.external_functions(mod)}
    assert externals == {
        name: {"global_symbol": name, "Primitive": 1, "Compiler": "ext_a", "Inline": 1}
        for name in ("tvmgen_default_ext_a_main_0", "tvmgen_default_ext_a_main_3")}
    # typed: the external functions' parameters carry the region inputs' types
    params = mod["tvmgen_default_ext_a_main_3"].params
    assert [p.type_annotation for p in params] == [relay.TensorType((1, 144)), relay.TensorType((1, 10))]


def test_partitioned_module_compiles_and_matches_numpy(partitioned_net):
    mod, consts = partitioned_net
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, 3, 6, 6)).astype("float32")
    skip = rng.standard_normal((1, 10)).astype("float32")
    out = relay.compile(mod, target="llvm-cpu")(x, skip)
    want = _np_reference(x, skip, consts)
    np.testing.assert_allclose(np.asarray(out), want, rtol=1e-4, atol=1e-4)


def test_partitioned_text_round_trips(partitioned_net):
    mod, _ = partitioned_net
    text = mod.astext()
    assert 'Compiler="ext_a"' in text and 'Composite="ext_a.conv_bias_relu"' in text
    assert relay.fromtext(text).astext() == text


# -- registries and bad input -----------------------------------------------------------------------
def test_pattern_table_registry_feeds_merge_composite():
    @register_pattern_table("test_byoc_tbl")
    def _table():
        return [("test_byoc_tbl.relu", dfp.is_op("nn.relu")(dfp.wildcard()))]

    x = relay.var("x", shape=(2,))
    mod = relay.IRModule.from_expr(relay.nn.relu(x))
    out = relay.transform.MergeComposite(get_pattern_table("test_byoc_tbl"))(mod)
    assert out["main"].body.op.attrs["Composite"] == "test_byoc_tbl.relu"
    assert mod["main"].body.op.name == "nn.relu"  # the input module is unchanged


def test_unknown_pattern_table_is_a_clear_error():
    assert get_pattern_table("no_such_compiler") is None
    with pytest.raises(ValueError, match="pattern table is None.*registered"):
        relay.transform.MergeComposite(get_pattern_table("no_such_compiler"))


@pytest.mark.parametrize("table, words", [
    ([("a", "not a pattern")], "entry 0"),
    ([("a",)], "entry 0"),
    ("nn.relu", "list of"),
])
def test_bad_pattern_table_is_a_clear_error(table, words):
    with pytest.raises(TypeError, match=words):
        relay.transform.MergeComposite(table)


def test_register_op_attr_levels_as_tvm():
    from relay_mlir.op.op_attr import get_op_attr, reset_op_attr
    register_op_attr("nn.softmax", "test_byoc_key", "low", level=5)
    try:
        register_op_attr("nn.softmax", "test_byoc_key", "high", level=20)
        register_op_attr("nn.softmax", "test_byoc_key", "lower", level=1)
        assert get_op_attr("nn.softmax", "test_byoc_key") == "high"
        with pytest.raises(ValueError, match="already registered with same plevel=20"):
            register_op_attr("nn.softmax", "test_byoc_key", "again", level=20)
    finally:
        reset_op_attr("nn.softmax", "test_byoc_key")


def test_annotate_target_bad_targets_and_raising_checker():
    with pytest.raises(TypeError, match="target name"):
        relay.transform.AnnotateTarget([])
    register_op_attr("nn.softmax", "target.test_byoc_raises", lambda call: 1 / 0)
    x = relay.var("x", shape=(2,))
    mod = relay.IRModule.from_expr(relay.nn.softmax(x))
    with pytest.raises(RuntimeError, match="target.test_byoc_raises.*nn.softmax.*ZeroDivisionError"):
        relay.transform.AnnotateTarget(["test_byoc_raises"])(mod)


def test_annotate_target_functions_can_read_checked_type():
    register_op_attr("nn.softmax", "target.test_byoc_f32",
                     lambda call: call.args[0].checked_type.dtype == "float32")
    x, i = relay.var("x", shape=(2,)), relay.var("i", shape=(2,), dtype="int32")
    mod = relay.IRModule.from_expr(relay.Function([x, i], relay.Tuple([
        relay.nn.softmax(x), relay.nn.softmax(relay.cast(i, "float16"))])))
    out = relay.transform.AnnotateTarget(["test_byoc_f32"])(mod)
    ends = [f.args[0].attrs["compiler"] for f in out["main"].body.args[0].fields]  # begin(end(softmax))
    assert ends == ["test_byoc_f32", "default"]


def test_annotated_modules_are_typed_as_in_tvm():
    mod = programs.b_merge_regions(ENV)         # AnnotateTarget + MergeCompilerRegions
    body = mod["main"].body                     # compiler_end[default] of the returned tuple
    t = relay.TensorType((2, 2))
    assert body.checked_type == relay.TupleType([t, t])
    assert relay.transform.InferType()(mod)["main"].body.args[0].fields[0].checked_type == t


def test_annotated_text_round_trips():
    mod = programs.b_merge_no_cycle(ENV)
    text = mod.astext()
    assert 'annotation.compiler_begin(%a, compiler="ext_a")' in text  # as TVM prints it
    again = relay.fromtext(text)
    assert again.astext() == text
    assert programs.dump(relay.transform.PartitionGraph()(again)) == TVM["b_partition_cycle"]


def test_untyped_input_is_partitioned_with_untyped_parameters():
    a, b = relay.var("a"), relay.var("b")       # no types: TVM's InferType would refuse it
    mod = relay.IRModule.from_expr(relay.Function([a, b], relay.nn.softmax(relay.exp(a) + b)))
    t = relay.transform
    out = t.PartitionGraph()(t.MergeCompilerRegions()(t.AnnotateTarget(["ext_a"])(mod)))
    (gv, fn), = relay.byoc.external_functions(out)
    assert gv.name_hint == "tvmgen_default_ext_a_main_0"
    assert [p.name_hint for p in fn.params] == ["ext_a_0_i0", "ext_a_0_i1"]
    assert all(p.type_annotation is None for p in fn.params)
    assert out["main"].body.op.name == "nn.softmax"


def test_partition_graph_rejects_a_dangling_compiler_end():
    from relay_mlir.op.annotation import compiler_end
    x = relay.var("x", shape=(2,))
    mod = relay.IRModule.from_expr(relay.Function([x], compiler_end(relay.exp(x), "ext_a")))
    with pytest.raises(relay.CompileError, match="compiler_end\\[ext_a\\].*no compiler_begin"):
        relay.transform.PartitionGraph()(mod)


@pytest.mark.parametrize("name", [
    "relay_mlir.dataflow_pattern", "relay_mlir.dataflow_pattern.pattern",
    "relay_mlir.dataflow_pattern.matcher", "relay_mlir.dataflow_pattern.partition",
    "relay_mlir.dataflow_pattern.rewrite", "relay_mlir.dataflow_pattern.visitor",
    "relay_mlir.dataflow_pattern.structural", "relay_mlir.dataflow_pattern.attrs",
    "relay_mlir.byoc.annotate_target", "relay_mlir.byoc.annotations",
    "relay_mlir.byoc.merge_composite", "relay_mlir.op.op_attr", "relay_mlir.op.contrib.register",
    "relay_mlir.op.annotation"])
def test_docstring_examples(name):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(name),
                             optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def _softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# (case, inputs, numpy reference of the unpartitioned program)
RUNS = {
    "b_partition_cycle": (2, lambda a, b: np.maximum(a + b, 0) * ((a + b) - b)),
    "b_partition_multi_output": (2, lambda a, b: _softmax(np.exp(a + 3)) + _softmax((a + 3) * b)),
    "b_split_outputs": (1, lambda a: np.exp(a)[:2] * np.exp(a)[2:]),
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_partitioned_regions_run_and_match_numpy(name):
    n_in, ref = RUNS[name]
    mod = programs.cases()[name](ENV)
    assert any("Compiler" in fn.attrs for fn in mod.functions.values())
    shapes = [p.type_annotation.shape for p in mod["main"].params]
    rng = np.random.default_rng(2)
    args = [rng.standard_normal(tuple(s)).astype("float32") for s in shapes]
    assert len(args) == n_in
    out = relay.compile(mod, target="llvm-cpu")(*args)
    np.testing.assert_allclose(np.asarray(out), ref(*args), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("non_call", [True, False])
def test_concatenate_of_a_tuple_between_regions_runs(non_call):
    """The fields' tuple of a concatenate is annotated as TVM annotates its tuple operand (the
    structures are TVM's: test_byoc_heldout_scripts CONCATENATE_TARGETS); the partitioned module
    gives numpy's values in the reference interpreter."""
    for op in ("add", "subtract", "multiply"):
        if op not in _CAT_REGISTERED:
            register_op_attr(op, "target.cat_a", lambda call: True)
    for op in ("exp", "concatenate"):
        if op not in _CAT_REGISTERED:
            register_op_attr(op, "target.cat_b", lambda call: True)
    _CAT_REGISTERED.update(("add", "subtract", "multiply", "exp", "concatenate"))
    a, b = relay.var("a", shape=(2, 3)), relay.var("b", shape=(2, 3))
    s = a + b
    d = relay.exp(s * b) - s
    out = relay.Tuple([relay.nn.relu(relay.concatenate(relay.Tuple([s, d]), axis=0)), relay.exp(d)])
    mod = relay.IRModule.from_expr(relay.Function([a, b], out))
    t = relay.transform
    part = t.PartitionGraph()(t.MergeCompilerRegions()(t.AnnotateTarget(["cat_a", "cat_b"], non_call)(mod)))
    cat = [fn for _, fn in relay.byoc.external_functions(part) if "concatenate" in fn.astext()]
    assert len(cat) == 1 and len(cat[0].params) == 1  # one tuple operand, as TVM's
    av = np.linspace(-1, 1, 6, dtype="float32").reshape(2, 3)
    bv = av[::-1].copy()
    got = relay.create_executor("debug", mod=part).evaluate()(av, bv)
    sv = av + bv
    dv = np.exp(sv * bv) - sv
    np.testing.assert_allclose(got[0], np.maximum(np.concatenate([sv, dv]), 0), rtol=1e-5)
    np.testing.assert_allclose(got[1], np.exp(dv), rtol=1e-5)


_CAT_REGISTERED: set = set()
