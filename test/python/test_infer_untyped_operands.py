"""InferType types untyped operands from their operator, as TVM 0.19's type relations do.

``relay.var("weight")`` (no shape, no dtype) fed to nn.conv2d, nn.dense, nn.bias_add,
nn.batch_norm, ... gets the type the operator implies (the "assign" branch of TVM's
Conv2DRel, DenseRel, BiasAddRel, BatchNormRel, ...). ``TVM_0_19`` holds, per program,
the parameter types and the ``ret_type`` TVM 0.19's ``relay.transform.InferType`` gave
(recorded by running the same ``PROGRAMS`` with ``tvm.relay`` in the side venv);
``None`` marks a program TVM 0.19 rejects.
"""
import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.errors import CompileError
from relay_mlir.ty import TensorType


def _conv2d(**attrs):
    def build(r, v):
        x = v("data", (1, 4, 8, 8))
        return r.nn.conv2d(x, v("weight"), **attrs)
    return build


PROGRAMS = {
    "conv2d": _conv2d(channels=6, kernel_size=(3, 3)),
    "conv2d_f16": lambda r, v: r.nn.conv2d(v("data", (1, 4, 8, 8), "float16"), v("weight"),
                                           channels=6, kernel_size=(3, 3)),
    "conv2d_HWIO": lambda r, v: r.nn.conv2d(v("data", (1, 8, 8, 4)), v("weight"), channels=6,
                                            kernel_size=(3, 2), data_layout="NHWC",
                                            kernel_layout="HWIO"),
    "conv1d": lambda r, v: r.nn.conv1d(v("data", (1, 4, 10)), v("weight"), channels=5,
                                       kernel_size=(3,)),
    "conv1d_groups2": lambda r, v: r.nn.conv1d(v("data", (1, 4, 10)), v("weight"), channels=6,
                                               kernel_size=(3,), groups=2),
    "conv3d": lambda r, v: r.nn.conv3d(v("data", (1, 4, 6, 6, 6)), v("weight"), channels=5,
                                       kernel_size=(3, 3, 2)),
    "conv3d_NDHWC": lambda r, v: r.nn.conv3d(v("data", (1, 6, 6, 6, 4)), v("weight"), channels=5,
                                             kernel_size=(3, 3, 2), data_layout="NDHWC",
                                             kernel_layout="DHWIO"),
    "conv2d_transpose": lambda r, v: r.nn.conv2d_transpose(v("data", (1, 4, 8, 8)), v("weight"),
                                                           channels=6, kernel_size=(3, 3)),
    "conv2d_transpose_groups2": lambda r, v: r.nn.conv2d_transpose(
        v("data", (1, 4, 8, 8)), v("weight"), channels=6, kernel_size=(3, 3), groups=2),
    "conv2d_transpose_OIHW": lambda r, v: r.nn.conv2d_transpose(
        v("data", (1, 4, 8, 8)), v("weight"), channels=6, kernel_size=(3, 2), kernel_layout="OIHW"),
    "dense": lambda r, v: r.nn.dense(v("data", (2, 3, 7)), v("weight"), units=5),
    "matmul": lambda r, v: r.nn.matmul(v("data", (2, 7)), v("weight"), units=5),
    "matmul_tb": lambda r, v: r.nn.matmul(v("data", (2, 7)), v("weight"), units=5, transpose_b=True),
    "matmul_ta": lambda r, v: r.nn.matmul(v("data", (7, 2)), v("weight"), units=5, transpose_a=True),
    "bias_add": lambda r, v: r.nn.bias_add(v("data", (1, 4, 8, 8)), v("bias")),
    "bias_add_axis3": lambda r, v: r.nn.bias_add(v("data", (1, 8, 8, 4)), v("bias"), axis=3),
    "bias_add_axis-1": lambda r, v: r.nn.bias_add(v("data", (1, 8, 8, 4), "float64"), v("bias"),
                                                  axis=-1),
    "prelu": lambda r, v: r.nn.prelu(v("data", (1, 4, 8, 8)), v("alpha")),
    "prelu_axis3": lambda r, v: r.nn.prelu(v("data", (1, 8, 8, 4)), v("alpha"), axis=3),
    "batch_norm": lambda r, v: r.nn.batch_norm(v("data", (1, 4, 8, 8)), v("gamma"), v("beta"),
                                               v("mean"), v("var"))[0],
    "batch_norm_axis3": lambda r, v: r.nn.batch_norm(v("data", (1, 8, 8, 4)), v("gamma"), v("beta"),
                                                     v("mean"), v("var"), axis=3)[0],
    "layer_norm": lambda r, v: r.nn.layer_norm(v("data", (2, 3, 5)), v("gamma"), v("beta")),
    "layer_norm_axis1": lambda r, v: r.nn.layer_norm(v("data", (2, 3, 5)), v("gamma"), v("beta"),
                                                     axis=1),
    "instance_norm": lambda r, v: r.nn.instance_norm(v("data", (1, 4, 8, 8)), v("gamma"), v("beta")),
    "group_norm": lambda r, v: r.nn.group_norm(v("data", (1, 4, 8, 8)), v("gamma"), v("beta"),
                                               num_groups=2),
    "chain": lambda r, v: r.nn.dense(r.nn.batch_flatten(r.nn.relu(r.nn.bias_add(
        r.nn.conv2d(v("data", (1, 3, 8, 8)), v("c_w"), channels=4, kernel_size=(3, 3),
                    padding=(1, 1)), v("c_b")))), v("d_w"), units=10),
    # rejected by TVM 0.19
    "conv2d_groups2": _conv2d(channels=6, kernel_size=(3, 3), groups=2),
    "conv2d_depthwise": _conv2d(channels=4, kernel_size=(3, 3), groups=4),
    "conv2d_no_channels": _conv2d(kernel_size=(3, 3)),
    "conv2d_no_kernel_size": _conv2d(channels=6),
    "conv3d_groups2": lambda r, v: r.nn.conv3d(v("data", (1, 4, 6, 6, 6)), v("weight"), channels=6,
                                               kernel_size=(3, 3, 3), groups=2),
    "conv2d_transpose_no_channels": lambda r, v: r.nn.conv2d_transpose(
        v("data", (1, 4, 8, 8)), v("weight"), kernel_size=(3, 3)),
    "dense_no_units": lambda r, v: r.nn.dense(v("data", (2, 7)), v("weight")),
    "batch_matmul": lambda r, v: r.nn.batch_matmul(v("data", (2, 3, 7)), v("weight")),
    "add": lambda r, v: r.add(v("data", (2, 3)), v("other")),
}

F32 = "float32"
TVM_0_19 = {  # name: ({param: (shape, dtype)}, (ret shape, ret dtype)) or None (an error)
    "conv2d": ({"data": ((1, 4, 8, 8), F32), "weight": ((6, 4, 3, 3), F32)}, ((1, 6, 6, 6), F32)),
    "conv2d_f16": ({"data": ((1, 4, 8, 8), "float16"), "weight": ((6, 4, 3, 3), "float16")},
                   ((1, 6, 6, 6), "float16")),
    "conv2d_HWIO": ({"data": ((1, 8, 8, 4), F32), "weight": ((3, 2, 4, 6), F32)}, ((1, 6, 7, 6), F32)),
    "conv1d": ({"data": ((1, 4, 10), F32), "weight": ((5, 4, 3), F32)}, ((1, 5, 8), F32)),
    "conv1d_groups2": ({"data": ((1, 4, 10), F32), "weight": ((6, 2, 3), F32)}, ((1, 6, 8), F32)),
    "conv3d": ({"data": ((1, 4, 6, 6, 6), F32), "weight": ((5, 4, 3, 3, 2), F32)},
               ((1, 5, 4, 4, 5), F32)),
    "conv3d_NDHWC": ({"data": ((1, 6, 6, 6, 4), F32), "weight": ((3, 3, 2, 4, 5), F32)},
                     ((1, 4, 4, 5, 5), F32)),
    "conv2d_transpose": ({"data": ((1, 4, 8, 8), F32), "weight": ((4, 6, 3, 3), F32)},
                         ((1, 6, 10, 10), F32)),
    "conv2d_transpose_groups2": ({"data": ((1, 4, 8, 8), F32), "weight": ((4, 3, 3, 3), F32)},
                                 ((1, 6, 10, 10), F32)),
    "conv2d_transpose_OIHW": ({"data": ((1, 4, 8, 8), F32), "weight": ((6, 4, 3, 2), F32)},
                              ((1, 6, 10, 9), F32)),
    "dense": ({"data": ((2, 3, 7), F32), "weight": ((5, 7), F32)}, ((2, 3, 5), F32)),
    "matmul": ({"data": ((2, 7), F32), "weight": ((7, 5), F32)}, ((2, 5), F32)),
    "matmul_tb": ({"data": ((2, 7), F32), "weight": ((5, 7), F32)}, ((2, 5), F32)),
    "matmul_ta": ({"data": ((7, 2), F32), "weight": ((7, 5), F32)}, ((2, 5), F32)),
    "bias_add": ({"data": ((1, 4, 8, 8), F32), "bias": ((4,), F32)}, ((1, 4, 8, 8), F32)),
    "bias_add_axis3": ({"data": ((1, 8, 8, 4), F32), "bias": ((4,), F32)}, ((1, 8, 8, 4), F32)),
    "bias_add_axis-1": ({"data": ((1, 8, 8, 4), "float64"), "bias": ((4,), "float64")},
                        ((1, 8, 8, 4), "float64")),
    "prelu": ({"data": ((1, 4, 8, 8), F32), "alpha": ((4,), F32)}, ((1, 4, 8, 8), F32)),
    "prelu_axis3": ({"data": ((1, 8, 8, 4), F32), "alpha": ((4,), F32)}, ((1, 8, 8, 4), F32)),
    "batch_norm": ({"data": ((1, 4, 8, 8), F32), "gamma": ((4,), F32), "beta": ((4,), F32),
                    "mean": ((4,), F32), "var": ((4,), F32)}, ((1, 4, 8, 8), F32)),
    "batch_norm_axis3": ({"data": ((1, 8, 8, 4), F32), "gamma": ((4,), F32), "beta": ((4,), F32),
                          "mean": ((4,), F32), "var": ((4,), F32)}, ((1, 8, 8, 4), F32)),
    "layer_norm": ({"data": ((2, 3, 5), F32), "gamma": ((5,), F32), "beta": ((5,), F32)},
                   ((2, 3, 5), F32)),
    "layer_norm_axis1": ({"data": ((2, 3, 5), F32), "gamma": ((3,), F32), "beta": ((3,), F32)},
                         ((2, 3, 5), F32)),
    "instance_norm": ({"data": ((1, 4, 8, 8), F32), "gamma": ((4,), F32), "beta": ((4,), F32)},
                      ((1, 4, 8, 8), F32)),
    "group_norm": ({"data": ((1, 4, 8, 8), F32), "gamma": ((4,), F32), "beta": ((4,), F32)},
                   ((1, 4, 8, 8), F32)),
    "chain": ({"data": ((1, 3, 8, 8), F32), "c_w": ((4, 3, 3, 3), F32), "c_b": ((4,), F32),
               "d_w": ((10, 256), F32)}, ((1, 10), F32)),
    "conv2d_groups2": None, "conv2d_depthwise": None, "conv2d_no_channels": None,
    "conv2d_no_kernel_size": None, "conv3d_groups2": None, "conv2d_transpose_no_channels": None,
    "dense_no_units": None, "batch_matmul": None, "add": None,
}

# What relay-mlir's error says for each program TVM 0.19 rejects.
ERRORS = {
    "conv2d_groups2": "with groups = 2",
    "conv2d_depthwise": "with groups = 4",
    "conv3d_groups2": "with groups = 2",
    "conv2d_no_channels": "give the attributes `channels` and `kernel_size`",
    "conv2d_no_kernel_size": "give the attributes `channels` and `kernel_size`",
    "conv2d_transpose_no_channels": "give the attributes `channels` and `kernel_size`",
    "dense_no_units": "give the attribute `units`",
    "batch_matmul": "cannot infer the type of argument #1 of @main",
    "add": "cannot infer the type of argument #1 of @main",
}


def _program(name):
    """(function, its parameters) of PROGRAMS[name] built with relay_mlir."""
    params = []

    def var(n, shape=None, dtype="float32"):
        p = relay.var(n, shape=shape, dtype=dtype) if shape else relay.var(n)
        params.append(p)
        return p

    body = PROGRAMS[name](relay, var)
    return relay.Function(list(params), body), params


def _as_tuple(t):
    assert isinstance(t, TensorType), t
    return tuple(int(d) for d in t.shape), str(t.dtype)


@pytest.mark.parametrize("name", [n for n, v in TVM_0_19.items() if v is not None])
def test_untyped_operands_typed_as_tvm(name):
    fn, params = _program(name)
    assert all(p.type_annotation is None for p in params[1:])
    mod = relay.transform.InferType()(relay.IRModule.from_expr(fn))
    main = mod["main"]
    want_params, want_ret = TVM_0_19[name]
    got = {p.name_hint: _as_tuple(p.checked_type) for p in main.params}
    assert got == want_params
    assert _as_tuple(main.ret_type) == want_ret
    assert _as_tuple(main.checked_type.ret_type) == want_ret
    assert [_as_tuple(t) for t in main.checked_type.arg_types] == list(want_params.values())


@pytest.mark.parametrize("name", [n for n, v in TVM_0_19.items() if v is None])
def test_untyped_operands_tvm_rejects(name):
    fn, _ = _program(name)
    with pytest.raises(CompileError) as err:
        relay.transform.InferType()(relay.IRModule.from_expr(fn))
    assert ERRORS[name] in str(err.value)


def test_every_program_has_tvm_data():
    assert set(PROGRAMS) == set(TVM_0_19) and set(ERRORS) == {n for n, v in TVM_0_19.items() if v is None}


def test_ret_type_of_every_function():
    """TVM 0.19: in the module InferType returns, main and the closure inside it have their
    ret_type (Tensor[(1, 3), float32] both, for this program) and main's parameters their
    types; the functions given to it are not changed (TVM returns a typed copy), and a
    declared ret_type is kept."""
    x = relay.var("data", shape=(1, 4))
    w = relay.var("weight")
    y = relay.var("y")
    inner = relay.Function([y], relay.nn.relu(y))
    fn = relay.Function([x, w], inner(relay.nn.dense(x, w, units=3)))
    main = relay.transform.InferType()(relay.IRModule.from_expr(fn))["main"]
    assert _as_tuple(main.ret_type) == ((1, 3), F32)
    assert _as_tuple(main.checked_type.ret_type) == ((1, 3), F32)
    assert _as_tuple(main.params[1].checked_type) == ((3, 4), F32)
    assert _as_tuple(main.body.op.ret_type) == ((1, 3), F32)
    assert _as_tuple(main.body.checked_type) == ((1, 3), F32)
    assert fn.ret_type is None and inner.ret_type is None
    declared = relay.TensorType((1, 3), "float32")
    w2 = relay.var("w2")
    g = relay.Function([x, w2], relay.nn.relu(relay.nn.dense(x, w2, units=3)), declared)
    assert relay.transform.InferType()(relay.IRModule.from_expr(g))["main"].ret_type is declared


@pytest.fixture(scope="module")
def untyped_mlp():
    """conv2d + bias_add + dense with untyped weights, compiled for the CPU."""
    fn, params = _program("chain")
    return relay.compile(relay.IRModule.from_expr(fn), target="llvm-cpu"), params


def test_untyped_weights_compile_and_run(untyped_mlp):
    """The solved types reach the compiled program: its outputs equal numpy's
    (float32, rtol 1e-4 / atol 1e-5)."""
    exe, _ = untyped_mlp
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 3, 8, 8)).astype("float32")
    cw = rng.standard_normal((4, 3, 3, 3)).astype("float32")
    cb = rng.standard_normal(4).astype("float32")
    dw = rng.standard_normal((10, 256)).astype("float32")
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    conv = np.zeros((1, 4, 8, 8), "float32")
    for i in range(8):
        for j in range(8):
            conv[0, :, i, j] = np.tensordot(cw, xp[0, :, i:i + 3, j:j + 3], axes=3)
    want = np.maximum(conv + cb[None, :, None, None], 0).reshape(1, 256) @ dw.T
    got = np.asarray(exe(x, cw, cb, dw))
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
