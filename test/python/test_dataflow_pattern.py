"""relay_mlir.dataflow_pattern against TVM 0.19: the same programs (test_byoc_programs.py) give
the same match tables, partitions and rewrites as TVM's, recorded in test_byoc_tvm019.json by
running that file with TVM 0.19. Plus bad input: clear errors."""
from __future__ import annotations

import json
import types

import pytest

import relay_mlir as relay
from relay_mlir import dataflow_pattern as dfp
from relay_mlir.op import register_op_attr

import test_byoc_programs as programs

with open(programs.DATA_FILE) as _f:
    TVM = json.load(_f)

ENV = types.SimpleNamespace(relay=relay, dfp=dfp, transform=relay.transform,
                            register_op_attr=register_op_attr, IRModule=relay.IRModule)

PATTERN_CASES = sorted(k for k in programs.cases() if k[:2] in ("m_", "p_", "r_"))


def test_every_case_was_recorded():
    assert sorted(k for k in TVM if k[:2] in ("m_", "p_", "r_")) == PATTERN_CASES


@pytest.mark.parametrize("name", PATTERN_CASES)
def test_same_as_tvm(name):
    programs.check_against_tvm(name, ENV, TVM)


def test_star_import_has_tvm_names():
    ns = {}
    exec("from relay_mlir.dataflow_pattern import *", ns)
    for name in ("is_op", "wildcard", "is_var", "is_constant", "is_expr", "is_tuple",
                 "is_tuple_get_item", "is_if", "is_let", "has_attr", "has_type", "has_dtype",
                 "has_shape", "dominates", "rewrite", "partition", "DFPatternCallback",
                 "DFPatternVisitor"):
        assert name in ns, name
    assert relay.dataflow_pattern is dfp


def test_rewrite_callback_sees_pre_post_and_node_map():
    x, y = relay.var("x", shape=(2,)), relay.var("y", shape=(2,))
    seen = []
    a = dfp.wildcard()

    class Record(dfp.DFPatternCallback):
        def __init__(self):
            super().__init__(rewrite_once=True)
            self.pattern = dfp.is_op("nn.relu")(a)

        def callback(self, pre, post, node_map):
            seen.append((pre, post, node_map[a][0]))
            return post

    inner = relay.exp(x)
    e = relay.nn.relu(inner) + y
    dfp.rewrite(Record(), e)
    (pre, post, arg), = seen
    assert pre is e.args[0] and arg is inner and post.op.name == "nn.relu"


def test_dfpattern_visitor_visits_each_node_once():
    class Kinds(dfp.DFPatternVisitor):
        def __init__(self):
            super().__init__()
            self.calls, self.wildcards = 0, 0

        def visit_call(self, p):
            self.calls += 1
            self.visit_children(p)

        def visit_wildcard(self, p):
            self.wildcards += 1

    w = dfp.wildcard()
    v = Kinds()
    v.visit(dfp.is_op("add")(w, dfp.is_op("exp")(w)))
    assert (v.calls, v.wildcards) == (2, 1)


def test_has_attr_on_operator_reads_registered_op_attrs():
    register_op_attr("nn.relu", "TestPatternKind", 7)
    try:
        x = relay.var("x", shape=(2,))
        assert dfp.is_op("nn.relu").has_attr({"TestPatternKind": 7})(dfp.wildcard()).match(relay.nn.relu(x))
        assert not dfp.is_op("nn.relu").has_attr({"TestPatternKind": 8})(dfp.wildcard()).match(relay.nn.relu(x))
    finally:
        from relay_mlir.op.op_attr import reset_op_attr
        reset_op_attr("nn.relu", "TestPatternKind")


def test_is_op_accepts_tvm_operators_relay_mlir_lacks_and_registered_ones():
    dfp.is_op("vision.yolo_reorg")              # TVM registers it (TOpPattern)
    register_op_attr("my.custom_op", "target.test_dfp", True)
    try:
        dfp.is_op("my.custom_op")
    finally:
        from relay_mlir.op.op_attr import reset_op_attr
        reset_op_attr("my.custom_op", "target.test_dfp")


def test_deep_chain_does_not_hit_recursion_limit():
    x = relay.var("x", shape=(2,))
    e = x
    for _ in range(3000):
        e = relay.exp(e)
    p = dfp.is_op("exp")(dfp.is_op("exp")(dfp.wildcard()))
    out = p.partition(e)
    assert out.op.attrs["PartitionedFromPattern"] == "exp_exp_"


@pytest.mark.parametrize("make, words", [
    (lambda: dfp.is_op("add")(relay.var("x")), "dataflow pattern"),
    (lambda: dfp.is_op(3), "operator name"),
    (lambda: dfp.is_op("nn.conv2dd"), "operator nn.conv2dd is not registered"),
    (lambda: dfp.has_shape("2x2"), "list of integers"),
    (lambda: dfp.has_attr(["padding"]), "dict"),
    (lambda: dfp.match(dfp.wildcard(), 3), "relay expression"),
    (lambda: dfp.rewrite(dfp.DFPatternCallback(), relay.var("x")), "pattern must be set"),
    (lambda: dfp.wildcard().partition(relay.var("x"), attrs=["Composite"]), "dict"),
])
def test_bad_input_is_a_clear_error(make, words):
    with pytest.raises((TypeError, ValueError), match=words):
        make()


def test_callback_returning_a_non_expression_is_a_clear_error():
    class Bad(dfp.DFPatternCallback):
        def __init__(self):
            super().__init__()
            self.pattern = dfp.is_op("exp")(dfp.wildcard())

        def callback(self, pre, post, node_map):
            return 3

    with pytest.raises(TypeError, match="Bad.callback returned 3"):
        dfp.rewrite(Bad(), relay.exp(relay.var("x", shape=(2,))))


def test_a_rewrite_that_never_settles_stops_after_100_rounds():
    x = dfp.wildcard()

    class Grow(dfp.DFPatternCallback):
        def __init__(self):
            super().__init__()
            self.pattern = dfp.is_op("exp")(dfp.is_var("a"))   # one new node per round

        def callback(self, pre, post, node_map):
            return relay.log(relay.exp(post.args[0]))

    with pytest.raises(RuntimeError, match="100 rewrite passes"):
        dfp.rewrite(Grow(), relay.exp(relay.var("a", shape=(2,))))


def test_untyped_variable_in_type_pattern_is_a_clear_error():
    e = relay.var("x") + relay.var("y")
    with pytest.raises(Exception, match="type"):
        dfp.has_dtype("float32").match(e)
