"""relay.transform.FoldExplicitPadding (relay-fold-explicit-padding; docs/passes.md).

Programs built with the TVM-style API; each test checks the operators left in ``mod["main"]``,
the ``padding`` (and ``count_include_pad``) of the consumer, and that the reference interpreter
gives the same outputs before and after. ``TVM`` holds what TVM 0.19's FoldExplicitPadding
leaves for the same programs (relay.analysis.post_order_visit over main, counting Op calls;
the consumers' attributes), measured in the side venv.
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.expr import Call
from relay_mlir.expr_functor import ExprVisitor
from relay_mlir.transform import PassContext, Sequential

from pass_checks import mod_of as _mod, node_counts, outputs as _outputs

FEP = relay.transform.FoldExplicitPadding

P2 = ((0, 0), (0, 0), (1, 2), (0, 1))
P1 = ((0, 0), (0, 0), (2, 1))
P3 = ((0, 0), (0, 0), (1, 0), (0, 1), (1, 1))
PM = ((0, 0), (0, 0), (1, 0), (0, 1))
NEG_INF = float("-inf")
LOWEST = float(np.finfo("float32").min)


def _programs():
    x = relay.var("x", shape=(1, 2, 5, 6))
    w = relay.var("w", shape=(3, 2, 3, 3))
    xh, wh = relay.var("x", shape=(1, 5, 6, 2)), relay.var("w", shape=(3, 3, 2, 3))
    x1, w1 = relay.var("x", shape=(1, 2, 7)), relay.var("w", shape=(3, 2, 3))
    x3, w3 = relay.var("x", shape=(1, 2, 4, 5, 6)), relay.var("w", shape=(3, 2, 3, 3, 3))
    xi = relay.var("x", shape=(1, 2, 5, 6), dtype="int8")

    def pad(d, pw=P2, val=0.0, mode="constant"):
        return relay.nn.pad(d, pw, pad_value=val, pad_mode=mode)

    shared = pad(x)
    return {
        "conv2d": relay.nn.conv2d(pad(x), w),
        "conv2d_own_padding": relay.nn.conv2d(pad(x), w, padding=(1, 1), strides=(2, 1), dilation=(1, 2)),
        "conv2d_nhwc": relay.nn.conv2d(pad(xh, ((0, 0), (1, 1), (2, 0), (0, 0))), wh, data_layout="NHWC",
                                       kernel_layout="HWIO"),
        "conv1d": relay.nn.conv1d(pad(x1, P1), w1, padding=(1,)),
        "conv3d": relay.nn.conv3d(pad(x3, P3), w3),
        "groups": relay.nn.conv2d(pad(relay.var("x", shape=(1, 4, 5, 6))), relay.var("w", shape=(4, 1, 3, 3)),
                                  groups=4, channels=4, kernel_size=(3, 3)),
        "conv_int8": relay.nn.conv2d(pad(xi, val=0), relay.var("w", shape=(3, 2, 3, 3), dtype="int8"),
                                     out_dtype="int32"),
        "double_pad": relay.nn.conv2d(pad(pad(x)), w),
        "channel_pad": relay.nn.conv2d(pad(x, ((0, 0), (1, 0), (1, 1), (1, 1))), relay.var("w", shape=(3, 3, 3, 3))),
        "pad_value_one": relay.nn.conv2d(pad(x, val=1.0), w),
        "pad_value_var": relay.nn.conv2d(relay.nn.pad(x, P2, pad_value=relay.var("v", shape=())), w),
        "reflect": relay.nn.conv2d(pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), mode="reflect"), w),
        "edge": relay.nn.conv2d(pad(x, mode="edge"), w),
        "shared_pad": relay.Tuple([relay.nn.conv2d(shared, w), relay.exp(shared)]),
        "two_convs_shared": relay.Tuple([relay.nn.conv2d(shared, w), relay.nn.conv2d(shared, w, strides=(2, 2))]),
        "conv2d_transpose": relay.nn.conv2d_transpose(pad(x), relay.var("w", shape=(2, 3, 3, 3))),
        "avg_exclude_nopad": relay.nn.avg_pool2d(pad(x), pool_size=(2, 2)),
        "avg_exclude_pad": relay.nn.avg_pool2d(pad(x), pool_size=(2, 2), padding=(1, 1)),
        "avg_include_pad": relay.nn.avg_pool2d(pad(x), pool_size=(2, 2), padding=(1, 1), count_include_pad=True),
        "avg1d": relay.nn.avg_pool1d(pad(x1, P1), pool_size=(2,)),
        "avg3d": relay.nn.avg_pool3d(pad(x3, P3), pool_size=(2, 2, 2)),
        "max_zero": relay.nn.max_pool2d(pad(x, PM), pool_size=(2, 2)),
        "max_int8_zero": relay.nn.max_pool2d(pad(xi, PM, val=0), pool_size=(2, 2)),
        "max_neg_inf": relay.nn.max_pool2d(pad(x, PM, val=NEG_INF), pool_size=(2, 2)),
        "max_neg_inf_padding": relay.nn.max_pool2d(pad(x, PM, val=NEG_INF), pool_size=(3, 3), padding=(1, 1)),
        "max_neg_inf_strided": relay.nn.max_pool2d(pad(x, PM, val=NEG_INF), pool_size=(2, 3), strides=(2, 2),
                                                   dilation=(1, 2), ceil_mode=True),
        "max1d_neg_inf": relay.nn.max_pool1d(pad(x1, ((0, 0), (0, 0), (1, 1)), val=NEG_INF), pool_size=(2,)),
        "max3d_neg_inf": relay.nn.max_pool3d(pad(x3, P3, val=NEG_INF), pool_size=(2, 2, 2)),
        "max_neg_inf_pad_window": relay.nn.max_pool2d(pad(x, P2, val=NEG_INF), pool_size=(2, 2)),
        "max_lowest": relay.nn.max_pool2d(pad(x, PM, val=LOWEST), pool_size=(2, 2)),
        "max_lowest_all_pad_window": relay.nn.max_pool2d(pad(x, ((0, 0), (0, 0), (3, 0), (0, 0)), val=LOWEST),
                                                         pool_size=(2, 2)),
        "max_int8_lowest": relay.nn.max_pool2d(pad(xi, PM, val=-128), pool_size=(2, 2)),
    }


# (operator counts, the consumer's padding, count_include_pad) that TVM 0.19 leaves
TVM = {
    "conv2d": ({"nn.conv2d": 1}, [1, 0, 2, 1], None),
    "conv2d_own_padding": ({"nn.conv2d": 1}, [2, 1, 3, 2], None),
    "conv2d_nhwc": ({"nn.conv2d": 1}, [1, 2, 1, 0], None),
    "conv1d": ({"nn.conv1d": 1}, [3, 2], None),
    "conv3d": ({"nn.conv3d": 1}, [1, 0, 1, 0, 1, 1], None),
    "groups": ({"nn.conv2d": 1}, [1, 0, 2, 1], None),
    "conv_int8": ({"nn.conv2d": 1}, [1, 0, 2, 1], None),
    "double_pad": ({"nn.conv2d": 1}, [2, 0, 4, 2], None),
    "channel_pad": ({"nn.conv2d": 1, "nn.pad": 1}, [0, 0, 0, 0], None),
    "pad_value_one": ({"nn.conv2d": 1, "nn.pad": 1}, [0, 0, 0, 0], None),
    "pad_value_var": ({"nn.conv2d": 1, "nn.pad": 1}, [0, 0, 0, 0], None),
    "reflect": ({"nn.conv2d": 1, "nn.pad": 1}, [0, 0, 0, 0], None),
    "edge": ({"nn.conv2d": 1, "nn.pad": 1}, [0, 0, 0, 0], None),
    "shared_pad": ({"exp": 1, "nn.conv2d": 1, "nn.pad": 1}, [0, 0, 0, 0], None),
    "two_convs_shared": ({"nn.conv2d": 2, "nn.pad": 1}, [0, 0, 0, 0], None),
    "conv2d_transpose": ({"nn.conv2d_transpose": 1, "nn.pad": 1}, None, None),
    "avg_exclude_nopad": ({"nn.avg_pool2d": 1}, [1, 0, 2, 1], True),
    "avg_exclude_pad": ({"nn.avg_pool2d": 1, "nn.pad": 1}, [1, 1, 1, 1], False),
    "avg_include_pad": ({"nn.avg_pool2d": 1}, [2, 1, 3, 2], True),
    "avg1d": ({"nn.avg_pool1d": 1}, [2, 1], True),
    "avg3d": ({"nn.avg_pool3d": 1}, [1, 0, 1, 0, 1, 1], True),
    "max_zero": ({"nn.max_pool2d": 1, "nn.pad": 1}, [0, 0, 0, 0], None),
    "max_int8_zero": ({"nn.max_pool2d": 1, "nn.pad": 1}, [0, 0, 0, 0], None),
    # TVM's max pools pad with the lowest finite float: it folds that value, not -inf
    "max_neg_inf": ({"nn.max_pool2d": 1, "nn.pad": 1}, [0, 0, 0, 0], None),
    "max_neg_inf_padding": ({"nn.max_pool2d": 1, "nn.pad": 1}, [1, 1, 1, 1], None),
    "max_neg_inf_strided": ({"nn.max_pool2d": 1, "nn.pad": 1}, [0, 0, 0, 0], None),
    "max1d_neg_inf": ({"nn.max_pool1d": 1, "nn.pad": 1}, [0, 0], None),
    "max3d_neg_inf": ({"nn.max_pool3d": 1, "nn.pad": 1}, [0, 0, 0, 0, 0, 0], None),
    "max_neg_inf_pad_window": ({"nn.max_pool2d": 1, "nn.pad": 1}, [0, 0, 0, 0], None),
    "max_lowest": ({"nn.max_pool2d": 1}, [1, 0, 0, 1], None),
    "max_lowest_all_pad_window": ({"nn.max_pool2d": 1}, [3, 0, 0, 0], None),
    # the Python API makes TVM's pad value -128 an int32 constant, not int8's lowest value
    "max_int8_lowest": ({"nn.max_pool2d": 1, "nn.pad": 1}, [0, 0, 0, 0], None),
}

# Where relay-mlir folds differently, on purpose: its max pools pad with -inf (floats), so a pad
# of -inf folds and one of the lowest finite float does not (a window of -inf data and padding
# would give -inf instead of the lowest float); a max pool window of padding alone is a run-time
# error here, so a pad that would make one (max_neg_inf_pad_window, max_lowest_all_pad_window)
# stays; pad values have the data's dtype, so int8's -128 is its lowest value and folds.
OURS = {
    "max_neg_inf": ({"nn.max_pool2d": 1}, [1, 0, 0, 1], None),
    "max_neg_inf_padding": ({"nn.max_pool2d": 1}, [2, 1, 1, 2], None),
    "max_neg_inf_strided": ({"nn.max_pool2d": 1}, [1, 0, 0, 1], None),
    "max1d_neg_inf": ({"nn.max_pool1d": 1}, [1, 1], None),
    "max3d_neg_inf": ({"nn.max_pool3d": 1}, [1, 0, 1, 0, 1, 1], None),
    "max_lowest": ({"nn.max_pool2d": 1, "nn.pad": 1}, [0, 0, 0, 0], None),
    "max_lowest_all_pad_window": ({"nn.max_pool2d": 1, "nn.pad": 1}, [0, 0, 0, 0], None),
    "max_int8_lowest": ({"nn.max_pool2d": 1}, [1, 0, 0, 1], None),
}
EXPECTED = {**TVM, **OURS}

_CONSUMERS = {"nn.conv1d", "nn.conv2d", "nn.conv3d", "nn.avg_pool1d", "nn.avg_pool2d", "nn.avg_pool3d",
              "nn.max_pool1d", "nn.max_pool2d", "nn.max_pool3d"}


class _Consumers(ExprVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.found = []

    def visit_call(self, call: Call) -> None:
        super().visit_call(call)
        if getattr(call.op, "name", "") in _CONSUMERS:
            self.found.append(call)


def _consumer(mod):
    """(padding as 2n entries, count_include_pad or None) of the first conv/pool in main."""
    v = _Consumers()
    v.visit(mod["main"])
    call = v.found[0]
    n = int(call.op.name[-2])                       # nn.conv2d, nn.max_pool3d, ...
    pad = [int(p) for p in call.attrs["padding"]]
    pad = pad * (2 * n) if len(pad) == 1 else pad + pad if len(pad) == n else pad
    cip = bool(call.attrs["count_include_pad"]) if call.op.name.startswith("nn.avg_pool") else None
    return pad, cip


def _args(mod, rng):
    args = []
    for p in mod["main"].params:
        t = p.type_annotation
        shape = [int(d) for d in t.shape]
        a = rng.integers(-100, 100, shape) if t.dtype.startswith("int") else rng.standard_normal(shape)
        args.append(a.astype(t.dtype))
    return args


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_folded(name):
    mod = _mod(_programs()[name])
    out = FEP()(mod)
    counts, padding, count_include_pad = EXPECTED[name]
    assert node_counts(out) == counts
    if padding is not None:
        assert _consumer(out) == (padding, count_include_pad)
    args = _args(mod, np.random.default_rng(0))
    for before, after in zip(_outputs(mod, args), _outputs(out, args)):
        assert after.shape == before.shape and after.dtype == before.dtype
        np.testing.assert_allclose(after, before, rtol=1e-5, atol=1e-5)


def test_lowest_float_pad_is_not_neg_inf():
    # Why a pad of the lowest finite float stays before a max pool: windows of padding alone
    # (pad 3 > pool 2: rows 0-1) and of padding and -inf data (row 2) give the lowest float;
    # folded, rows 0-1 would be windows of padding alone and row 2 -inf.
    mod = _mod(_programs()["max_lowest_all_pad_window"])
    x = np.full((1, 2, 5, 6), -np.inf, "float32")
    (out,) = _outputs(FEP()(mod), [x])
    assert np.all(out[:, :, :3] == np.float32(LOWEST)) and np.all(out[:, :, 3:] == -np.inf)


def test_avg_pool_ceil_mode():
    # The divisor counts the folded zeros with ceil_mode as well (windows past the end).
    x = relay.var("x", shape=(1, 2, 5, 6))
    y = relay.nn.avg_pool2d(relay.nn.pad(x, P2), pool_size=(3, 3), strides=(2, 2), ceil_mode=True,
                            padding=(0, 1), count_include_pad=True)
    mod = _mod(y)
    out = FEP()(mod)
    assert node_counts(out) == {"nn.avg_pool2d": 1}
    args = _args(mod, np.random.default_rng(1))
    np.testing.assert_allclose(_outputs(out, args)[0], _outputs(mod, args)[0], rtol=1e-6)


def test_pass_info():
    # TVM 0.19: FunctionPass " FoldExplicitPadding" (leading space), opt level 0, requires
    # InferType; disabling it by the API name has no effect, by the PassInfo name it does.
    p = FEP()
    assert isinstance(p, relay.transform.FunctionPass)
    assert (p.info.name, p.info.opt_level, p.info.required) == (" FoldExplicitPadding", 0, ("InferType",))
    mod = _mod(_programs()["conv2d"])
    with PassContext(opt_level=0, disabled_pass=["FoldExplicitPadding"]):
        assert node_counts(Sequential([p])(mod)) == {"nn.conv2d": 1}
    with PassContext(opt_level=0, disabled_pass=[" FoldExplicitPadding"]):
        assert node_counts(Sequential([p])(mod)) == {"nn.conv2d": 1, "nn.pad": 1}
    assert node_counts(mod) == {"nn.conv2d": 1, "nn.pad": 1}                 # the input is unchanged
