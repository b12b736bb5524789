"""Generic (polymorphic) global functions: emitted with ``relay.type_params``,
inferred per use, monomorphized by the pipeline and run on IREE."""
from __future__ import annotations

import numpy as np

import relay_mlir as relay
from relay_mlir import FuncType, TensorType, TupleType
from relay_mlir.ty import TypeVar


def T(*shape, dtype="float32"):
    return TensorType(shape, dtype)


def _generic_module():
    """@id[A](x: A) -> A, @dup[A](x: A) -> (A, A) and a main using them at
    two types each (@dup's result type is left to inference)."""
    mod = relay.IRModule()
    a = TypeVar("A")
    ident = relay.GlobalVar("id")
    x = relay.var("x", type_annotation=a)
    mod[ident] = relay.Function([x], x, ret_type=a, type_params=[a])
    dup = relay.GlobalVar("dup")
    y = relay.var("y", type_annotation=a)
    mod[dup] = relay.Function([y], relay.Tuple([y, y]), type_params=[a])
    p = relay.var("p", shape=(3,))
    q = relay.var("q", shape=(2,), dtype="int32")
    pp = dup(ident(p))
    qq = dup(q)
    mod["main"] = relay.Function(
        [p, q], relay.Tuple([relay.TupleGetItem(pp, 0) + relay.TupleGetItem(pp, 1),
                             relay.TupleGetItem(qq, 1) * ident(q)]))
    return mod, ident, dup


def test_generic_functions_infer_per_use():
    mod, ident, dup = _generic_module()
    relay.transform.InferType()(mod)
    a = TypeVar("A")
    assert mod[ident].checked_type == FuncType([a], a)
    assert mod[dup].checked_type == FuncType([a], TupleType([a, a]))
    assert mod["main"].checked_type == FuncType(
        [T(3), T(2, dtype="int32")], TupleType([T(3), T(2, dtype="int32")]))
    text = mod.mlir()
    assert 'relay.type_params = ["A"]' in text
    assert "relay.global_fn @id : !relay.fn<(tensor<3xf32>) -> tensor<3xf32>>" in text
    assert "relay.global_fn @id : !relay.fn<(tensor<2xi32>) -> tensor<2xi32>>" in text


def test_generic_functions_compile_and_run():
    mod, _, _ = _generic_module()
    exe = relay.compile(mod)
    p = np.array([1, 2, 3], "float32")
    q = np.array([4, -5], "int32")
    r0, r1 = exe(p, q)
    np.testing.assert_array_equal(r0, p + p)
    np.testing.assert_array_equal(r1, q * q)
