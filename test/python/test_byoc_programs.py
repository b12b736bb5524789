"""Programs written once against the API relay-mlir and TVM 0.19 share, for the dataflow
pattern and BYOC tests (no tests here: test_dataflow_pattern.py and test_byoc.py use them).

Each case is a function of ``env`` (``env.relay``, ``env.dfp`` = the dataflow_pattern module,
``env.transform``, ``env.register_op_attr``) returning what to compare: a bool for a match,
an expression or a module for the rest. ``dump`` turns either side's result into one
canonical text (nodes numbered in post order, shared nodes once, variables by name, function
attributes, the ``compiler`` of annotations), so structures compare as strings.

Run this file with TVM 0.19's Python to record TVM's results::

    TOPHUB_LOCATION=NONE /work/tvmvenv/bin/python test/python/test_byoc_programs.py

which writes test_byoc_tvm019.json beside it (the recorded data the tests compare with).
"""
from __future__ import annotations

import json
import os
import sys
from typing import Callable, Dict

import numpy as np

DATA_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "test_byoc_tvm019.json")


# -- a canonical dump that reads TVM's and relay-mlir's objects alike -------------------------------
# operators TVM gives one tuple argument; relay-mlir's calls have the fields as arguments
_TUPLE_ARG_OPS = ("concatenate", "stack", "einsum")


def _kind(e) -> str:
    return type(e).__name__


def _attr_value(v) -> object:
    if hasattr(v, "value"):
        return v.value
    if isinstance(v, (int, float, str, bool)):
        return v
    return str(v)


def _fn_attrs(fn) -> str:
    attrs = fn.attrs
    if attrs is None:
        return "{}"
    keys = sorted(attrs.keys()) if hasattr(attrs, "keys") else []
    return "{" + ", ".join(f"{k}={_attr_value(attrs[k])!r}" for k in keys) + "}"


class _Dumper:
    def __init__(self) -> None:
        self.ids: Dict[int, str] = {}
        self.extra = []  # the tuples shown for relay-mlir's flattened tuple-argument calls
        self.lines = []
        self.keep = []

    def ref(self, e) -> str:
        key = e.handle.value if hasattr(e, "handle") else id(e)  # TVM's wrappers are transient
        if key in self.ids:
            return self.ids[key]
        self.keep.append(e)
        k = _kind(e)
        if k == "Var":
            text = f"var({e.name_hint})"
        elif k == "Op":
            return e.name
        elif k == "GlobalVar":
            return "@" + e.name_hint
        elif k == "Constant":
            data = e.data.numpy() if hasattr(e.data, "numpy") else e.data
            text = f"const({list(data.shape)}, {data.dtype})"
        else:
            text = self.node(e, k)
        name = f"%{len(self.ids) + len(self.extra)}"
        self.ids[key] = name
        self.lines.append(f"{name} = {text}")
        return name

    def line(self, text: str) -> str:
        name = f"%{len(self.ids) + len(self.extra)}"
        self.extra.append(name)
        self.lines.append(f"{name} = {text}")
        return name

    def node(self, e, k: str) -> str:
        if k == "Call":
            callee = self.ref(e.op)
            args = ", ".join(self.ref(a) for a in e.args)
            if callee in _TUPLE_ARG_OPS and not hasattr(e, "handle"):
                args = self.line("(" + args + ")")  # relay-mlir's flattened form, as TVM's
            extra = ""
            if _kind(e.op) == "Op" and e.op.name.startswith("annotation.compiler_"):
                attrs = e.attrs
                extra = f" [{attrs.compiler if hasattr(attrs, 'compiler') else attrs['compiler']}]"
            return f"{callee}({args}){extra}"
        if k in ("Tuple",):
            return "(" + ", ".join(self.ref(f) for f in e.fields) + ")"
        if k == "TupleGetItem":
            return f"{self.ref(e.tuple_value)}.{e.index}"
        if k == "Function":
            params = ", ".join(self.ref(p) for p in e.params)
            sub = _Dumper()
            sub.ids = dict(self.ids)
            sub.extra = list(self.extra)
            body = sub.ref(e.body)
            inner = [ln for ln in sub.lines]
            self.keep.extend(sub.keep)
            return f"fn({params}) {_fn_attrs(e)} {{ " + "; ".join(inner) + f" -> {body} }}"
        if k == "If":
            return f"if({self.ref(e.cond)}, {self.ref(e.true_branch)}, {self.ref(e.false_branch)})"
        if k == "Let":
            return f"let({self.ref(e.var)} = {self.ref(e.value)}; {self.ref(e.body)})"
        raise TypeError(f"cannot dump {k}")


def dump(obj) -> str:
    """Canonical text of an expression, a module (functions sorted by name) or a bool."""
    if isinstance(obj, (bool, np.bool_)):
        return str(bool(obj))
    if hasattr(obj, "functions") and hasattr(obj, "get_global_vars") or _kind(obj) == "IRModule":
        out = []
        gvs = obj.get_global_vars() if hasattr(obj, "get_global_vars") else list(obj.functions)
        for gv in sorted(gvs, key=lambda g: g.name_hint):
            d = _Dumper()
            out.append(f"def @{gv.name_hint} = " + d.ref(obj[gv]) + " where " + "; ".join(d.lines))
        return "\n".join(out)
    if hasattr(obj, "astuple"):
        obj = obj.astuple()
    d = _Dumper()
    root = d.ref(obj)
    return "; ".join(d.lines) + f" -> {root}"


# -- pattern cases ------------------------------------------------------------------------------
def _vars(relay, *names, shape=(2, 2)):
    return [relay.var(n, shape=shape) for n in names]


def _conv_block(relay, x, w, b):
    return relay.nn.relu(relay.nn.bias_add(relay.nn.conv2d(x, w, padding=(1, 1)), b))


def _conv_inputs(relay, tag=""):
    return (relay.var("x" + tag, shape=(1, 3, 8, 8)), relay.var("w" + tag, shape=(4, 3, 3, 3)),
            relay.var("b" + tag, shape=(4,)))


def _conv_pattern(dfp):
    conv = dfp.is_op("nn.conv2d")(dfp.wildcard(), dfp.wildcard())
    return dfp.is_op("nn.relu")(dfp.is_op("nn.bias_add")(conv, dfp.wildcard()))


def m_add(env):
    relay, dfp = env.relay, env.dfp
    x, y = _vars(relay, "x", "y")
    return dfp.is_op("add")(dfp.wildcard(), dfp.wildcard()).match(x + y)


def m_commutative(env):
    relay, dfp = env.relay, env.dfp
    x, = _vars(relay, "x")
    return dfp.is_op("add")(dfp.wildcard(), dfp.is_op("exp")(dfp.wildcard())).match(relay.exp(x) + x)


def m_not_commutative_subtract(env):
    relay, dfp = env.relay, env.dfp
    x, = _vars(relay, "x")
    p = dfp.is_op("subtract")(dfp.wildcard(), dfp.is_op("exp")(dfp.wildcard()))
    return p.match(relay.subtract(relay.exp(x), x))


def m_var_named(env):
    relay, dfp = env.relay, env.dfp
    x, = _vars(relay, "x")
    return [dfp.is_var("x").match(x), dfp.is_var("y").match(x), dfp.is_var().match(x),
            dfp.is_var().match(relay.exp(x))]


def m_constant(env):
    relay, dfp = env.relay, env.dfp
    x, = _vars(relay, "x")
    return [dfp.is_constant().match(relay.const(1.0)), dfp.is_constant().match(x)]


def m_expr(env):
    relay, dfp = env.relay, env.dfp
    x, x2 = _vars(relay, "x", "x")
    return [dfp.is_expr(x).match(x), dfp.is_expr(x).match(x2),
            dfp.is_expr(relay.const(2.0)).match(relay.const(2.0)),
            dfp.is_expr(relay.const(2.0)).match(relay.const(3.0))]


def m_tuple(env):
    relay, dfp = env.relay, env.dfp
    x, y = _vars(relay, "x", "y")
    w = dfp.wildcard()
    same = dfp.is_tuple([w, w])
    return [same.match(relay.Tuple([x, y])), same.match(relay.Tuple([x, x])),
            dfp.is_tuple(None).match(relay.Tuple([x, y, x])),
            dfp.is_tuple([dfp.wildcard()]).match(relay.Tuple([x, y]))]


def m_tuple_get_item(env):
    relay, dfp = env.relay, env.dfp
    x, y = _vars(relay, "x", "y")
    t = relay.TupleGetItem(relay.Tuple([x, y]), 1)
    tup = dfp.is_tuple(None)
    return [dfp.is_tuple_get_item(tup).match(t), dfp.is_tuple_get_item(tup, 1).match(t),
            dfp.is_tuple_get_item(tup, 0).match(t)]


def m_if_let(env):
    relay, dfp = env.relay, env.dfp
    x, y = _vars(relay, "x", "y")
    c = relay.var("c", shape=(), dtype="bool")
    ite = relay.If(c, x, y)
    v = relay.var("v", shape=(2, 2))
    let = relay.Let(v, x + y, relay.exp(v))
    w = dfp.wildcard()
    return [dfp.is_if(dfp.is_var("c"), w, dfp.wildcard()).match(ite),
            dfp.is_if(dfp.is_var("c"), w, w).match(ite),
            dfp.is_let(dfp.is_var("v"), dfp.is_op("add")(dfp.wildcard(), dfp.wildcard()),
                       dfp.is_op("exp")(dfp.wildcard())).match(let),
            dfp.is_let(dfp.wildcard(), dfp.is_constant(), dfp.wildcard()).match(let)]


def m_attr(env):
    relay, dfp = env.relay, env.dfp
    x, w, b = _conv_inputs(relay)
    conv = relay.nn.conv2d(x, w, padding=(1, 1))
    p = dfp.is_op("nn.conv2d")(dfp.wildcard(), dfp.wildcard())
    return [p.has_attr({"padding": [1, 1, 1, 1]}).match(conv),
            p.has_attr({"padding": [0, 0, 0, 0]}).match(conv),
            p.has_attr({"data_layout": "NCHW"}).match(conv),
            p.has_attr({"data_layout": "NHWC"}).match(conv),
            p.has_attr({"no_such_attr": 1}).match(conv),
            dfp.is_op("nn.bias_add")(dfp.wildcard(), dfp.wildcard()).has_attr({"axis": 1}).match(
                relay.nn.bias_add(conv, b))]


def m_types(env):
    relay, dfp = env.relay, env.dfp
    x, y = _vars(relay, "x", "y")
    e = x + y                                       # untyped: the matcher types it
    return [dfp.has_dtype("float32").match(e), dfp.has_dtype("int32").match(e),
            dfp.has_shape([2, 2]).match(e), dfp.has_shape([2, 3]).match(e),
            dfp.has_type(relay.TensorType((2, 2), "float32")).match(x + y),
            dfp.has_type(relay.TensorType((2, 2), "int32")).match(x + y),
            dfp.is_op("add")(dfp.wildcard(), dfp.wildcard()).has_dtype("float32").match(x * y)]


def m_alternatives(env):
    relay, dfp = env.relay, env.dfp
    x, y = _vars(relay, "x", "y")
    act = (dfp.is_op("nn.relu") | dfp.is_op("sigmoid"))(dfp.wildcard())
    arith = (dfp.is_op("add") | dfp.is_op("subtract"))(dfp.wildcard(), dfp.wildcard())
    opt = dfp.is_op("exp")(dfp.wildcard()).optional(lambda p: dfp.is_op("nn.relu")(p))
    return [act.match(relay.sigmoid(x)), act.match(relay.tanh(x)), arith.match(x - y),
            arith.match(x * y), opt.match(relay.exp(x)), opt.match(relay.nn.relu(relay.exp(x))),
            opt.match(relay.nn.relu(x))]


def m_same_node(env):
    relay, dfp = env.relay, env.dfp
    a, b = _vars(relay, "a", "b")
    w = dfp.wildcard()
    p = dfp.is_op("add")(w, w)
    return [p.match(a + a), p.match(a + b), p.match(relay.exp(a) + relay.exp(a)),
            p.match(relay.add(relay.exp(a), relay.exp(a)))]


def m_reassociate(env):
    relay, dfp = env.relay, env.dfp
    a, b, c = _vars(relay, "a", "b", "c")
    p = dfp.is_op("divide")(dfp.is_op("multiply")(dfp.is_var("a"), dfp.is_var("b")), dfp.is_var("c"))
    q = dfp.is_op("multiply")(dfp.is_op("divide")(dfp.is_var("a"), dfp.is_var("c")), dfp.is_var("b"))
    return [p.match((a / c) * b), p.match(b * (a / c)), p.match((a * b) / c),
            q.match((a * b) / c), p.match((a / b) * c)]


def m_dominator(env):
    relay, dfp = env.relay, env.dfp
    x, w, _ = _conv_inputs(relay)
    c = relay.nn.conv2d(x, w, padding=(1, 1))
    parent = dfp.is_op("nn.conv2d")(dfp.wildcard(), dfp.wildcard())
    path = dfp.wildcard()(dfp.wildcard())
    child = dfp.is_op("add")(dfp.wildcard(), dfp.wildcard())
    diamond = dfp.dominates(parent, path, child)
    y = relay.var("y", shape=(1, 4, 8, 8))
    return [diamond.match(relay.nn.relu(c) + relay.sigmoid(c)),
            diamond.match(relay.nn.relu(c) + relay.sigmoid(relay.exp(c))),
            diamond.match(relay.nn.relu(c) + y),
            child.dominates(parent).match(relay.nn.relu(c) + relay.nn.relu(c))]


def m_call_forms(env):
    relay, dfp = env.relay, env.dfp
    x, y = _vars(relay, "x", "y")
    return [dfp.is_op("nn.relu")(None).match(relay.nn.relu(x)),
            dfp.is_op("add")(None).match(x + y),
            dfp.wildcard()(dfp.wildcard(), dfp.wildcard()).match(x * y),
            (dfp.wildcard() + dfp.wildcard()).match(x + y),
            (dfp.wildcard() * dfp.wildcard()).match(x + y),
            (dfp.wildcard() / dfp.wildcard()).match(x / y)]


def m_function(env):
    relay, dfp = env.relay, env.dfp
    x, = _vars(relay, "x")
    fn = relay.Function([x], relay.nn.relu(x)).with_attr("Composite", "ext_a.relu")
    y, = _vars(relay, "y")
    return [dfp.wildcard().has_attr({"Composite": "ext_a.relu"}).match(fn),
            dfp.wildcard().has_attr({"Composite": "ext_a.add"}).match(fn),
            dfp.wildcard().has_attr({"Composite": "ext_a.relu"})(dfp.wildcard()).match(fn(y))]


def m_op_pattern_kind(env):
    relay, dfp = env.relay, env.dfp
    x, w, _ = _conv_inputs(relay)
    c = relay.nn.conv2d(x, w, padding=(1, 1))
    elemwise = dfp.wildcard().has_attr({"TOpPattern": 0})(dfp.wildcard())
    diamond = dfp.dominates(dfp.is_op("nn.conv2d")(dfp.wildcard(), dfp.wildcard()), elemwise,
                            dfp.is_op("add")(dfp.wildcard(), dfp.wildcard()))
    return [elemwise.match(relay.nn.relu(x)), elemwise.match(relay.nn.softmax(x)),
            dfp.is_op("add").has_attr({"TOpPattern": 1})(dfp.wildcard(), dfp.wildcard()).match(x + x),
            dfp.is_op("nn.conv2d").has_attr({"TOpPattern": 4})(None).match(c),
            diamond.match(relay.nn.relu(c) + relay.sigmoid(relay.exp(c))),
            diamond.match(relay.nn.relu(c) + relay.nn.softmax(c))]


# -- partition cases -------------------------------------------------------------------------------
def p_conv_chain(env):
    relay, dfp = env.relay, env.dfp
    x, w, b = _conv_inputs(relay)
    w2, b2 = relay.var("w2", shape=(4, 4, 3, 3)), relay.var("b2", shape=(4,))
    e = _conv_block(relay, _conv_block(relay, x, w, b), w2, b2)
    return _conv_pattern(dfp).partition(e, {"Composite": "conv_bias_relu"})


def p_used_outside(env):
    relay, dfp = env.relay, env.dfp
    x, w, b = _conv_inputs(relay)
    inner = relay.nn.bias_add(relay.nn.conv2d(x, w, padding=(1, 1)), b)
    e = relay.Tuple([relay.nn.relu(inner), relay.exp(inner)])
    return _conv_pattern(dfp).partition(e)


def p_check(env):
    relay, dfp = env.relay, env.dfp
    x, y, z = _vars(relay, "x", "y", "z")
    e = relay.nn.relu(x + y) + relay.nn.relu(y + z)
    p = dfp.is_op("nn.relu")(dfp.is_op("add")(dfp.wildcard(), dfp.wildcard()))
    return p.partition(e, check=lambda root: root.args[0].args[0].name_hint == "y")


def p_constant_embedded(env):
    relay, dfp = env.relay, env.dfp
    x, = _vars(relay, "x")
    e = relay.nn.relu(relay.add(x, relay.const(np.ones((2, 2), "float32"))))
    p = dfp.is_op("nn.relu")(dfp.is_op("add")(dfp.wildcard(), dfp.is_constant()))
    q = dfp.is_op("nn.relu")(dfp.is_op("add")(dfp.wildcard(), dfp.wildcard()))
    return relay.Tuple([p.partition(e), q.partition(e)])


def p_same_node(env):
    relay, dfp = env.relay, env.dfp
    a, b = _vars(relay, "a", "b")
    w = dfp.wildcard()
    e = relay.exp(a + a) + relay.exp(b + b)
    return dfp.is_op("exp")(dfp.is_op("add")(w, w)).partition(e, {"Composite": "twice"})


def p_dominator(env):
    relay, dfp = env.relay, env.dfp
    x, w, _ = _conv_inputs(relay)
    c = relay.nn.conv2d(x, w, padding=(1, 1))
    diamond = dfp.dominates(dfp.is_op("nn.conv2d")(dfp.wildcard(), dfp.wildcard()),
                            dfp.wildcard()(dfp.wildcard()),
                            dfp.is_op("add")(dfp.wildcard(), dfp.wildcard()))
    return diamond.partition(relay.nn.relu(c) + relay.sigmoid(relay.exp(c)))


def p_tuple_fields(env):
    relay, dfp = env.relay, env.dfp
    x, y, z = _vars(relay, "x", "y", "z")
    e = relay.exp(relay.TupleGetItem(relay.Tuple([x, relay.exp(y), z]), 1))
    p = dfp.is_op("exp")(dfp.is_tuple_get_item(dfp.is_tuple(None), 1))
    return p.partition(e)


def m_tuple_argument_ops(env):
    relay, dfp = env.relay, env.dfp
    x, y = _vars(relay, "x", "y")
    cat = relay.concatenate(relay.Tuple([x, relay.exp(y)]), axis=0)
    w = dfp.wildcard()
    return [dfp.is_op("concatenate")(dfp.is_tuple(None)).match(cat),
            dfp.is_op("concatenate")(dfp.wildcard()).match(cat),
            dfp.is_op("concatenate")(dfp.is_tuple([w, dfp.is_op("exp")(w)])).match(cat),
            dfp.is_op("concatenate")(dfp.is_tuple([dfp.wildcard()])).match(cat),
            dfp.is_op("stack")(dfp.is_tuple([dfp.wildcard(), dfp.wildcard()])).match(
                relay.stack(relay.Tuple([x, y]), axis=0)),
            dfp.is_op("concatenate")(dfp.wildcard(), dfp.wildcard()).match(cat)]


def p_concatenate(env):
    relay, dfp = env.relay, env.dfp
    x, y, z = _vars(relay, "x", "y", "z")
    e = relay.nn.relu(relay.concatenate(relay.Tuple([x, relay.exp(y), z]), axis=1))
    p = dfp.is_op("nn.relu")(dfp.is_op("concatenate")(dfp.is_tuple(None)))
    q = dfp.is_op("concatenate")(dfp.is_tuple([dfp.wildcard(), dfp.is_op("exp")(dfp.wildcard()),
                                                dfp.wildcard()]))
    return relay.Tuple([p.partition(e, {"Composite": "cat_relu"}), q.partition(e)])


def r_concatenate(env):
    relay, dfp = env.relay, env.dfp
    x, y = _vars(relay, "x", "y")
    t = dfp.is_tuple(None)
    cb = _callback_class(env)(dfp.is_op("concatenate")(t),
                              lambda pre, post, m: relay.stack(m[t][0], axis=0))
    return dfp.rewrite(cb, relay.exp(relay.concatenate(relay.Tuple([relay.exp(x), y]), axis=0)))


def p_tuple_get_item(env):
    relay, dfp = env.relay, env.dfp
    x, y = _vars(relay, "x", "y")
    e = relay.nn.relu(relay.TupleGetItem(relay.Tuple([relay.exp(x), y]), 0))
    p = dfp.is_op("nn.relu")(dfp.is_tuple_get_item(dfp.is_tuple([dfp.wildcard(), dfp.wildcard()]), 0))
    return p.partition(e)


def p_inner_use_dominated(env):
    """an inner node feeding an input that only feeds the root: TVM still partitions"""
    relay, dfp = env.relay, env.dfp
    a, = _vars(relay, "a")
    r = relay.nn.relu(a)
    p = dfp.is_op("add")(dfp.is_op("nn.relu")(dfp.wildcard()), dfp.wildcard())
    return p.partition(relay.add(r, relay.exp(r)))


# -- rewrite cases ---------------------------------------------------------------------------------
def _callback_class(env):
    class Callback(env.dfp.DFPatternCallback):
        def __init__(self, pattern, fn, **kw):
            super().__init__(**kw)
            self.pattern, self.fn = pattern, fn

        def callback(self, pre, post, node_map):
            return self.fn(pre, post, node_map)
    return Callback


def r_exp_to_sigmoid(env):
    relay, dfp = env.relay, env.dfp
    x, y = _vars(relay, "x", "y")
    a = dfp.wildcard()
    cb = _callback_class(env)(dfp.is_op("exp")(a), lambda pre, post, m: relay.sigmoid(m[a][0]))
    return dfp.rewrite(cb, relay.exp(relay.exp(x) + y) * relay.exp(x))


def r_add_chain_to_subtract(env):
    relay, dfp = env.relay, env.dfp
    a, b, c, d = _vars(relay, "a", "b", "c", "d")
    x, y = dfp.wildcard(), dfp.wildcard()
    cb = _callback_class(env)(x + y, lambda pre, post, m: relay.subtract(m[x][0], m[y][0]))
    return dfp.rewrite(cb, ((a + b) + c) + d)


def r_fixed_point(env):
    relay, dfp = env.relay, env.dfp
    a, = _vars(relay, "a")
    x = dfp.wildcard()
    # relu(relu(x)) -> relu(x), to a fixed point: four nested relus become one
    cb = _callback_class(env)(dfp.is_op("nn.relu")(dfp.is_op("nn.relu")(x)),
                              lambda pre, post, m: relay.nn.relu(m[x][0]))
    e = relay.nn.relu(relay.nn.relu(relay.nn.relu(relay.nn.relu(a))))
    return dfp.rewrite(cb, e)


def r_two_callbacks(env):
    relay, dfp = env.relay, env.dfp
    a, b = _vars(relay, "a", "b")
    x, y, z = dfp.wildcard(), dfp.wildcard(), dfp.wildcard()
    cls = _callback_class(env)
    to_mul = cls(dfp.is_op("subtract")(x, y), lambda pre, post, m: relay.multiply(m[x][0], m[y][0]))
    to_exp = cls(dfp.is_op("multiply")(z, z), lambda pre, post, m: relay.exp(m[z][0]))
    return dfp.rewrite([to_mul, to_exp], relay.subtract(a, a) + relay.subtract(a, b))


def r_require_type(env):
    relay, dfp = env.relay, env.dfp
    a, = _vars(relay, "a", shape=(2, 3))
    x = dfp.wildcard()

    def flatten_if_2d(pre, post, m):
        shape = [int(d) for d in pre.checked_type.shape]
        return relay.reshape(m[x][0], newshape=[shape[0] * shape[1]]) if len(shape) == 2 else post
    cb = _callback_class(env)(dfp.is_op("nn.relu")(x), flatten_if_2d, require_type=True)
    return dfp.rewrite(cb, relay.nn.relu(relay.exp(a)))


def r_rewrite_once(env):
    relay, dfp = env.relay, env.dfp
    a, = _vars(relay, "a")
    x = dfp.wildcard()
    cb = _callback_class(env)(dfp.is_op("exp")(x),
                              lambda pre, post, m: relay.exp(relay.exp(m[x][0])), rewrite_once=True)
    return dfp.rewrite(cb, relay.exp(a))


def _bn_pieces(relay):
    x = relay.var("x", shape=(1, 4, 3, 3))
    g, b, m, v = [relay.var(n, shape=(4, 1, 1)) for n in ("gamma", "beta", "mean", "var")]
    eps = relay.const(1e-5)
    return x, g, b, m, v, eps


def _bn_callback(env):
    relay, dfp = env.relay, env.dfp
    x, var, mean, beta, gamma, eps = [dfp.wildcard() for _ in range(6)]
    pattern = gamma * (x - mean) / dfp.is_op("sqrt")(var + eps) + beta

    def fuse(pre, post, m):
        return relay.nn.batch_norm(m[x][0], relay.squeeze(m[gamma][0]), relay.squeeze(m[beta][0]),
                                   relay.squeeze(m[mean][0]), relay.squeeze(m[var][0]),
                                   epsilon=float(m[eps][0].data.numpy() if hasattr(m[eps][0].data, "numpy") else m[eps][0].data))[0]
    return _callback_class(env)(pattern, fuse)


def r_fuse_batchnorm(env):
    """TVM's test_fuse_batchnorm / test_partial_fuse_batchnorm shapes: the same batch norm
    written three ways (commuted, reassociated); the rewrite finds each."""
    relay, dfp = env.relay, env.dfp
    x, g, b, m, v, eps = _bn_pieces(relay)
    plain = g * (x - m) / relay.sqrt(v + eps) + b
    commuted = b + (x - m) * g / relay.sqrt(v + eps)
    reassoc = (x - m) / relay.sqrt(v + eps) * g + b
    cb = _bn_callback(env)
    return relay.Tuple([dfp.rewrite(cb, e) for e in (plain, commuted, reassoc)])


def _adder_and_pattern(env):
    """fn(x, y) { x + y }, variables a and b, and a FunctionPattern matching the function"""
    relay, dfp = env.relay, env.dfp
    x, y, a, b = _vars(relay, "x", "y", "a", "b")
    fp = dfp.FunctionPattern([dfp.wildcard(), dfp.wildcard()],
                             dfp.is_op("add")(dfp.wildcard(), dfp.wildcard()))
    return relay.Function([x, y], relay.add(x, y)), a, b, fp


def m_function_pattern(env):
    dfp = env.dfp
    fn, a, b, fp = _adder_and_pattern(env)
    return [fp.match(fn), fp(dfp.wildcard(), dfp.wildcard()).match(fn(a, b)),
            dfp.FunctionPattern(None, dfp.wildcard()).match(fn),
            dfp.FunctionPattern([dfp.wildcard()], dfp.wildcard()).match(fn)]


def p_function_callee(env):
    relay, dfp = env.relay, env.dfp
    fn, a, b, fp = _adder_and_pattern(env)
    return dfp.is_op("nn.relu")(fp(dfp.wildcard(), dfp.wildcard())).partition(relay.nn.relu(fn(a, b)))


def p_composite_not_reentered(env):
    """partition does not look into functions already partitioned from a pattern"""
    relay, dfp = env.relay, env.dfp
    a, b = _vars(relay, "a", "b")
    p = dfp.is_op("add")(dfp.wildcard(), dfp.wildcard())
    once = p.partition(relay.nn.relu(a + b), {"Composite": "one"})
    return p.partition(relay.exp(once) + b, {"Composite": "two"})


def r_tuple_result(env):
    relay, dfp = env.relay, env.dfp
    a, b = _vars(relay, "a", "b")
    x, y = dfp.wildcard(), dfp.wildcard()
    cb = _callback_class(env)(dfp.is_op("add")(x, y),
                              lambda pre, post, m: relay.TupleGetItem(
                                  relay.Tuple([relay.subtract(m[x][0], m[y][0]), m[x][0]]), 0))
    return dfp.rewrite(cb, relay.exp(a + b))


# -- BYOC cases ------------------------------------------------------------------------------------
def setup_targets(env):
    """ext_a takes add, multiply, nn.relu, exp; ext_b takes add and subtract (once per process)."""
    for op in ("add", "multiply", "nn.relu", "exp"):
        env.register_op_attr(op, "target.ext_a", lambda expr: True)
    for op in ("add", "subtract"):
        env.register_op_attr(op, "target.ext_b", lambda expr: True)
    # only a dense whose weight is a constant
    env.register_op_attr("nn.dense", "target.ext_a", lambda expr: _kind(expr.args[1]) == "Constant")


def ext_a_table(dfp):
    dense = dfp.is_op("nn.dense")(dfp.wildcard(), dfp.is_constant())
    return [("ext_a.conv_bias_relu", _conv_pattern(dfp)),
            ("ext_a.dense_bias", dfp.is_op("nn.bias_add")(dense, dfp.is_constant())),
            ("ext_a.add", dfp.is_op("add")(dfp.wildcard(), dfp.wildcard()))]


def _net(env, bind_weights: bool):
    """conv2d+bias+relu -> reshape -> dense+bias -> + skip; weights constants if bind_weights."""
    relay = env.relay
    rng = np.random.default_rng(0)
    x = relay.var("x", shape=(1, 3, 6, 6))
    if bind_weights:
        w = relay.const(rng.standard_normal((4, 3, 3, 3)).astype("float32"))
        b = relay.const(rng.standard_normal(4).astype("float32"))
        dw = relay.const(rng.standard_normal((10, 144)).astype("float32"))
        db = relay.const(rng.standard_normal(10).astype("float32"))
        params = [x]
    else:
        w, b = relay.var("w", shape=(4, 3, 3, 3)), relay.var("b", shape=(4,))
        dw, db = relay.var("dw", shape=(10, 144)), relay.var("db", shape=(10,))
        params = [x, w, b, dw, db]
    skip = relay.var("skip", shape=(1, 10))
    h = _conv_block(relay, x, w, b)
    h = relay.reshape(h, newshape=(1, 144))
    h = relay.nn.bias_add(relay.nn.dense(h, dw), db)
    out = relay.add(h, skip)
    return env.IRModule.from_expr(relay.Function(params + [skip], relay.nn.relu(out)))


def b_merge_composite(env):
    t = env.transform
    return t.MergeComposite(ext_a_table(env.dfp))(_net(env, True))


def b_merge_composite_vars(env):
    t = env.transform
    return t.MergeComposite(ext_a_table(env.dfp))(_net(env, False))


def b_annotate(env):
    t = env.transform
    mod = t.MergeComposite(ext_a_table(env.dfp))(_net(env, True))
    return t.AnnotateTarget(["ext_a"])(mod)


def _mixed(env):
    relay = env.relay
    a, b, c = _vars(relay, "a", "b", "c")
    s = relay.add(a, b)                 # ext_b first in the list below, ext_a otherwise
    m = relay.multiply(s, c)            # ext_a only
    d = relay.subtract(m, a)            # ext_b only
    e = relay.exp(d)                    # ext_a
    f = relay.nn.softmax(e)             # nobody
    return env.IRModule.from_expr(relay.Function([a, b, c], relay.Tuple([f, relay.exp(s)])))


def b_annotate_order(env):
    t = env.transform
    return [t.AnnotateTarget(["ext_b", "ext_a"])(_mixed(env)),
            t.AnnotateTarget(["ext_a", "ext_b"])(_mixed(env)),
            t.AnnotateTarget(["ext_a"], include_non_call_ops=False)(_mixed(env))]


def b_merge_regions(env):
    t = env.transform
    return t.MergeCompilerRegions()(t.AnnotateTarget(["ext_a", "ext_b"])(_mixed(env)))


def _cycle(env):
    """add and the final multiply are ext_a, the subtract between them ext_b: merging the two
    ext_a regions would make a cycle through the ext_b one."""
    relay = env.relay
    a, b = _vars(relay, "a", "b")
    s = relay.add(a, b)
    d = relay.subtract(s, b)
    r = relay.nn.relu(s)
    return env.IRModule.from_expr(relay.Function([a, b], relay.multiply(r, d)))


def b_merge_no_cycle(env):
    t = env.transform
    return t.MergeCompilerRegions()(t.AnnotateTarget(["ext_a", "ext_b"])(_cycle(env)))


def b_partition_cycle(env):
    t = env.transform
    mod = t.MergeCompilerRegions()(t.AnnotateTarget(["ext_a", "ext_b"])(_cycle(env)))
    return t.PartitionGraph()(mod)


def b_partition_mixed(env):
    t = env.transform
    mod = t.MergeCompilerRegions()(t.AnnotateTarget(["ext_a", "ext_b"])(_mixed(env)))
    return t.PartitionGraph()(mod)


def b_partition_unmerged(env):
    t = env.transform
    return t.PartitionGraph()(t.AnnotateTarget(["ext_a", "ext_b"])(_mixed(env)))


def _multi_output(env):
    relay = env.relay
    a, b = _vars(relay, "a", "b")
    s = relay.add(a, relay.const(np.full((2, 2), 3.0, "float32")))
    e = relay.exp(s)
    m = relay.multiply(s, b)
    return env.IRModule.from_expr(relay.Function([a, b], relay.nn.softmax(e) + relay.nn.softmax(m)))


def b_partition_multi_output(env):
    t = env.transform
    mod = t.MergeCompilerRegions()(t.AnnotateTarget(["ext_a"])(_multi_output(env)))
    return t.PartitionGraph()(mod)


def b_pipeline_net(env):
    t = env.transform
    mod = t.MergeComposite(ext_a_table(env.dfp))(_net(env, True))
    mod = t.MergeCompilerRegions()(t.AnnotateTarget(["ext_a"])(mod))
    return t.PartitionGraph()(mod)


def b_pipeline_net_vars(env):
    t = env.transform
    mod = t.MergeComposite(ext_a_table(env.dfp))(_net(env, False))
    mod = t.MergeCompilerRegions()(t.AnnotateTarget(["ext_a"])(mod))
    return t.PartitionGraph()(mod)


def b_composite_check(env):
    relay, dfp, t = env.relay, env.dfp, env.transform
    a, b, c = _vars(relay, "a", "b", "c")
    add = dfp.is_op("add")(dfp.wildcard(), dfp.wildcard())
    table = [("ext_a.add_from_a", add, lambda root: root.args[0].name_hint == "a")]
    mod = env.IRModule.from_expr(relay.Function([a, b, c], (a + b) * (c + b)))
    return t.MergeComposite(table)(mod)


def b_composite_check_attrs(env):
    """a vendor's check reading the matched calls' attributes as TVM's Attrs objects"""
    relay, dfp, t = env.relay, env.dfp, env.transform
    x, w, _ = _conv_inputs(relay)
    w2 = relay.var("w2", shape=(4, 2, 3, 3))
    grouped = relay.nn.conv2d(relay.nn.conv2d(x, w, padding=(1, 1)), w2, padding=(1, 1), groups=2)

    def plain_nchw(root):
        return root.attrs.data_layout == "NCHW" and int(root.attrs.groups) == 1
    table = [("ext_a.conv", dfp.is_op("nn.conv2d")(dfp.wildcard(), dfp.wildcard()), plain_nchw)]
    return t.MergeComposite(table)(env.IRModule.from_expr(relay.Function([x, w, w2], grouped)))


def b_batch_norm_composite(env):
    relay, dfp, t = env.relay, env.dfp, env.transform
    x = relay.var("x", shape=(1, 4, 3, 3))
    g, be, m, v = [relay.var(n, shape=(4,)) for n in ("g", "be", "m", "v")]
    e = relay.nn.relu(relay.nn.batch_norm(x, g, be, m, v)[0])
    bn = dfp.is_op("nn.batch_norm")(*[dfp.wildcard() for _ in range(5)])
    table = [("ext_a.bn_relu", dfp.is_op("nn.relu")(dfp.is_tuple_get_item(bn, 0)))]
    mod = t.MergeComposite(table)(env.IRModule.from_expr(relay.Function([x, g, be, m, v], e)))
    mod = t.MergeCompilerRegions()(t.AnnotateTarget(["ext_a"])(mod))
    return t.PartitionGraph()(mod)


def b_composite_other_target(env):
    relay, dfp, t = env.relay, env.dfp, env.transform
    a, b = _vars(relay, "a", "b")
    table = [("ext_b.add", dfp.is_op("add")(dfp.wildcard(), dfp.wildcard()))]
    mod = t.MergeComposite(table)(env.IRModule.from_expr(relay.Function([a, b], relay.exp(a + b))))
    return [t.AnnotateTarget(["ext_a"])(mod), t.AnnotateTarget(["ext_a", "ext_b"])(mod)]


def b_annotate_twice(env):
    t = env.transform
    once = t.AnnotateTarget(["ext_b"])(_mixed(env))
    return t.AnnotateTarget(["ext_a"])(once)


def b_let_if(env):
    relay, t = env.relay, env.transform
    a, b = _vars(relay, "a", "b")
    c = relay.var("c", shape=(), dtype="bool")
    v = relay.var("v", shape=(2, 2))
    body = relay.If(c, relay.exp(v), relay.subtract(v, b))
    e = relay.Let(v, relay.add(a, b), body)
    mod = env.IRModule.from_expr(relay.Function([a, b, c], e))
    ann = t.AnnotateTarget(["ext_a", "ext_b"])(mod)
    return ann


def _duplicate_outputs(env):
    """one ext_a value used by three consumers outside the region, and a returned tuple"""
    relay = env.relay
    a, = _vars(relay, "a")
    s = relay.exp(a)
    return env.IRModule.from_expr(relay.Function([a], relay.Tuple([
        relay.nn.softmax(s), relay.nn.softmax(relay.nn.relu(s)), relay.tanh(s)])))


def b_partition_duplicate_outputs(env):
    t = env.transform
    mod = t.MergeCompilerRegions()(t.AnnotateTarget(["ext_a"])(_duplicate_outputs(env)))
    return t.PartitionGraph()(mod)


def b_partition_tuple_output(env):
    relay, t = env.relay, env.transform
    a, b = _vars(relay, "a", "b")
    mod = env.IRModule.from_expr(relay.Function([a, b], relay.Tuple([relay.exp(a), a + b])))
    return t.PartitionGraph()(t.MergeCompilerRegions()(t.AnnotateTarget(["ext_a"])(mod)))


def b_partition_options(env):
    t = env.transform
    mod = t.MergeCompilerRegions()(t.AnnotateTarget(["ext_a"])(_multi_output(env)))
    return [t.PartitionGraph(bind_constants=False)(mod), t.PartitionGraph("mymod")(mod)]


def b_diamond_regions(env):
    """ext_a: exp at the top and the add at the bottom, ext_b on one side of the diamond,
    nothing on the other: the add cannot join the exp's region through the ext_b branch."""
    relay, t = env.relay, env.transform
    a, = _vars(relay, "a")
    top = relay.exp(a)
    left = relay.subtract(top, a)           # ext_b
    right = relay.nn.relu(top)              # ext_a
    out = relay.add(left, right)            # ext_a (and ext_b: first target wins)
    mod = env.IRModule.from_expr(relay.Function([a], relay.multiply(out, top)))
    mod = t.MergeCompilerRegions()(t.AnnotateTarget(["ext_a", "ext_b"])(mod))
    return [mod, t.PartitionGraph()(mod)]


def b_split_outputs(env):
    relay, t = env.relay, env.transform
    a = relay.var("a", shape=(4, 2))
    parts = relay.split(relay.exp(a), 2, axis=0)
    mod = env.IRModule.from_expr(relay.Function([a], relay.multiply(parts[0], parts[1])))
    return t.PartitionGraph()(t.MergeCompilerRegions()(t.AnnotateTarget(["ext_a"])(mod)))


# -- random programs: the whole pipeline on 60 seeded DAGs, partition on 48 --------------------------------------
_UNARY = ("exp", "nn.relu", "tanh", "negative", "sigmoid")
_BINARY = ("add", "multiply", "subtract", "maximum")


def _random_program(env, seed: int):
    """A DAG of 4-11 elementwise operations on 2-3 (2, 2) inputs; values are reused at random,
    some are returned in a tuple."""
    import random
    relay = env.relay
    rng = random.Random(seed)
    params = _vars(relay, *"abc"[:rng.choice((2, 3))])
    values = list(params)
    for _ in range(rng.randint(4, 11)):
        if rng.random() < 0.4:
            name = rng.choice(_UNARY)
            args = [rng.choice(values[-4:])]
        else:
            name = rng.choice(_BINARY)
            args = [rng.choice(values[-4:]), rng.choice(values)]
        fn = {"nn.relu": relay.nn.relu}.get(name) or getattr(relay, name)
        values.append(fn(*args))
    outs = [values[-1]] + [v for v in values[len(params):-1] if rng.random() < 0.2]
    body = outs[0] if len(outs) == 1 else relay.Tuple(outs)
    return env.IRModule.from_expr(relay.Function(params, body))


def _random_table(dfp):
    w = dfp.wildcard
    return [("ext_a.add_relu", dfp.is_op("nn.relu")(dfp.is_op("add")(w(), w()))),
            ("ext_b.mul_exp", dfp.is_op("exp")(dfp.is_op("multiply")(w(), w()))),
            ("ext_a.tanh_any", dfp.is_op("tanh")(w()(w(), w())))]


def _random_case(seed: int) -> Callable:
    def case(env):
        t = env.transform
        mod = t.MergeComposite(_random_table(env.dfp))(_random_program(env, seed))
        targets = ["ext_a", "ext_b"] if seed % 2 else ["ext_b", "ext_a"]
        mod = t.MergeCompilerRegions()(t.AnnotateTarget(targets)(mod))
        return t.PartitionGraph()(mod)
    return case


def _random_patterns(dfp):
    w = dfp.wildcard
    x = w()
    elem = w().has_attr({"TOpPattern": 0})(w())
    return [
        dfp.is_op("nn.relu")(dfp.is_op("add")(w(), w())),
        dfp.is_op("add")(x, x),
        (dfp.is_op("exp") | dfp.is_op("tanh"))(dfp.is_op("multiply")(w(), w())),
        dfp.is_op("add")(w(), w()).optional(lambda p: dfp.is_op("nn.relu")(p)),
        dfp.dominates(w()(w(), w()), elem, dfp.is_op("add")(w(), w())),
        dfp.dominates(dfp.is_op("subtract")(w(), w()), w(), dfp.is_op("maximum")(w(), w())),
        dfp.is_op("multiply")(dfp.is_var("a"), w()),
        elem(elem(w())),
    ]


def _random_partition(seed: int) -> Callable:
    def case(env):
        main = _random_program(env, seed)["main"]
        pattern = _random_patterns(env.dfp)[seed % 8]
        return pattern.partition(main.body, {"Composite": f"p{seed % 8}"})
    return case


def _random_rewrite(seed: int) -> Callable:
    def case(env):
        relay, dfp = env.relay, env.dfp
        cls = _callback_class(env)
        x, y, z, u = dfp.wildcard(), dfp.wildcard(), dfp.wildcard(), dfp.wildcard()
        add_to_mul = cls(dfp.is_op("add")(x, y), lambda pre, post, m: relay.multiply(m[x][0], m[y][0]))
        exp_mul = cls(dfp.is_op("exp")(dfp.is_op("multiply")(z, u)),
                      lambda pre, post, m: relay.tanh(relay.subtract(m[z][0], m[u][0])))
        main = _random_program(env, seed)["main"]
        return dfp.rewrite([add_to_mul, exp_mul] if seed % 2 else [exp_mul, add_to_mul], main.body)
    return case


for _seed in range(24):
    globals()[f"r_random_{_seed:02d}"] = _random_rewrite(_seed)
for _seed in range(60):
    globals()[f"b_random_{_seed:02d}"] = _random_case(_seed)
for _seed in range(48):
    globals()[f"p_random_{_seed:02d}"] = _random_partition(_seed)


def b_annotate_tuple_get_item(env):
    relay, t = env.relay, env.transform
    x = relay.var("x", shape=(1, 4, 3, 3))
    g, be, m, v = [relay.var(n, shape=(4,)) for n in ("g", "be", "m", "v")]
    bn = relay.nn.batch_norm(relay.exp(x), g, be, m, v)
    mod = env.IRModule.from_expr(relay.Function([x, g, be, m, v], relay.Tuple([relay.nn.relu(bn[0]), bn[1]])))
    return [t.AnnotateTarget(["ext_a"])(mod), t.AnnotateTarget(["ext_a"], False)(mod),
            t.PartitionGraph()(t.MergeCompilerRegions()(t.AnnotateTarget(["ext_a"])(mod)))]


def cases() -> Dict[str, Callable]:
    """Every case by name (m_: match tables, p_: partition, r_: rewrite, b_: BYOC passes)."""
    g = globals()
    return {k: v for k, v in g.items() if callable(v) and k[:2] in ("m_", "p_", "r_", "b_")}


def result_text(value) -> object:
    if isinstance(value, list):
        return [result_text(v) for v in value]
    return dump(value)


def check_against_tvm(name: str, env, recorded: dict) -> None:
    """Asserts that case ``name`` run with ``env`` gives TVM's recorded result."""
    expected = recorded[name]
    assert not isinstance(expected, dict), f"TVM failed on {name}: {expected}"
    assert result_text(cases()[name](env)) == expected


class TVMEnv:
    def __init__(self) -> None:
        import tvm
        from tvm import relay
        from tvm.relay import dataflow_pattern
        self.relay, self.dfp, self.transform = relay, dataflow_pattern, relay.transform
        self.register_op_attr = tvm.ir.register_op_attr
        self.IRModule = tvm.IRModule


def record() -> None:
    env = TVMEnv()
    setup_targets(env)
    out = {}
    for name, case in sorted(cases().items()):
        try:
            out[name] = result_text(case(env))
        except Exception as err:  # recorded: relay-mlir must fail too
            out[name] = {"error": f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"}
    with open(DATA_FILE, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print(f"wrote {len(out)} cases to {DATA_FILE}")


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    record()
