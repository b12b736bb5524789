"""relay.transform.CombineParallelConv2D (relay-combine-parallel-conv2d; docs/passes.md).

Programs built with the TVM-style API; each test checks the operators left in ``mod["main"]``
and that the reference interpreter gives the same outputs before and after. ``TVM`` holds the
operator counts TVM 0.19's CombineParallelConv2D leaves for the same programs
(relay.analysis.post_order_visit over main, counting Op calls), measured in the side venv.
"""
from __future__ import annotations

import pytest

import relay_mlir as relay

from pass_checks import assert_same_outputs, function_pass_counts, mod_of as _mod, node_counts


def _programs():
    x = relay.var("x", shape=(1, 4, 8, 8))
    w = [relay.var(f"w{i}", shape=(c, 4, 3, 3)) for i, c in enumerate((2, 3, 4, 2))]
    w1 = relay.var("w1x1", shape=(5, 4, 1, 1))
    b = [relay.var(f"b{i}", shape=(c, 1, 1)) for i, c in enumerate((2, 3, 4))]
    s = relay.var("s", shape=())
    conv = relay.nn.conv2d
    xh = relay.var("xh", shape=(1, 8, 8, 4))
    wh = [relay.var(f"wh{i}", shape=(3, 3, 4, c)) for i, c in enumerate((2, 3, 4))]
    return {
        "three": relay.Tuple([conv(x, w[0]), conv(x, w[1]), conv(x, w[2])]),
        "two": relay.Tuple([conv(x, w[0]), conv(x, w[1])]),
        "four_padded": relay.Tuple([conv(x, wi, padding=(1, 1)) for wi in w]),
        "mixed_kernels": relay.Tuple([conv(x, w[0]), conv(x, w[1]), conv(x, w1), conv(x, w[2])]),
        "mixed_strides": relay.Tuple([conv(x, w[0]), conv(x, w[1], strides=(2, 2)), conv(x, w[2]),
                                      conv(x, w[3])]),
        "relu_follow": relay.Tuple([relay.nn.relu(conv(x, wi)) for wi in w[:3]]),
        "bias_relu": relay.Tuple([relay.nn.relu(relay.add(conv(x, wi), bi)) for wi, bi in zip(w[:3], b)]),
        "scalar_mul": relay.Tuple([relay.multiply(conv(x, wi), s) for wi in w[:3]]),
        "diverging": relay.Tuple([relay.nn.relu(conv(x, w[0])), relay.exp(conv(x, w[1])),
                                  relay.nn.relu(conv(x, w[2]))]),
        "uneven_depth": relay.Tuple([relay.nn.relu(relay.exp(conv(x, w[0]))), relay.exp(conv(x, w[1])),
                                     relay.exp(conv(x, w[2]))]),
        "concat_after": relay.concatenate([conv(x, wi) for wi in w[:3]], axis=1),
        "nhwc": relay.Tuple([conv(xh, wi, data_layout="NHWC", kernel_layout="HWIO") for wi in wh]),
        "groups": relay.Tuple([conv(x, relay.var(f"g{i}", shape=(4, 2, 3, 3)), groups=2) for i in range(3)]),
    }


TVM = {
    "three": {"concatenate": 1, "nn.conv2d": 1, "strided_slice": 3},
    "two": {"nn.conv2d": 2},
    "four_padded": {"concatenate": 1, "nn.conv2d": 1, "strided_slice": 4},
    "mixed_kernels": {"concatenate": 1, "nn.conv2d": 2, "strided_slice": 3},
    "mixed_strides": {"concatenate": 1, "nn.conv2d": 2, "strided_slice": 3},
    "relu_follow": {"concatenate": 1, "nn.conv2d": 1, "nn.relu": 1, "strided_slice": 3},
    "bias_relu": {"add": 1, "concatenate": 2, "nn.conv2d": 1, "nn.relu": 1, "strided_slice": 3},
    "scalar_mul": {"concatenate": 1, "multiply": 3, "nn.conv2d": 1, "strided_slice": 3},
    "diverging": {"concatenate": 1, "exp": 1, "nn.conv2d": 1, "nn.relu": 2, "strided_slice": 3},
    "uneven_depth": {"concatenate": 1, "exp": 1, "nn.conv2d": 1, "nn.relu": 1, "strided_slice": 3},
    "concat_after": {"concatenate": 2, "nn.conv2d": 1, "strided_slice": 3},
    "nhwc": {"concatenate": 1, "nn.conv2d": 1, "strided_slice": 3},
    "groups": {"nn.conv2d": 3},
}


@pytest.mark.parametrize("name", sorted(TVM))
def test_combined_as_tvm(name):
    mod = _mod(_programs()[name])
    out = relay.transform.CombineParallelConv2D()(mod)
    assert node_counts(out) == TVM[name]
    assert_same_outputs(mod, out)


def test_min_num_branches():
    # TVM 0.19 with min_num_branches=2: the two convs combine (concatenate, conv2d, 2 slices).
    mod = _mod(_programs()["two"])
    out = relay.transform.CombineParallelConv2D(min_num_branches=2)(mod)
    assert node_counts(out) == {"concatenate": 1, "nn.conv2d": 1, "strided_slice": 2}
    assert node_counts(relay.transform.CombineParallelConv2D(4)(_mod(_programs()["three"]))) == {"nn.conv2d": 3}
    assert_same_outputs(mod, out, seed=2)
    with pytest.raises(TypeError, match="min_num_branches"):
        relay.transform.CombineParallelConv2D(min_num_branches="3")


def test_pass_info_and_opt_level():
    p = relay.transform.CombineParallelConv2D()
    # TVM 0.19: FunctionPass "CombineParallelConv2d" (lower-case d), opt level 4, requires
    # InferType: a Sequential at opt level 3 leaves the convs.
    skipped, run = function_pass_counts(p, _mod(_programs()["three"]), "CombineParallelConv2d", 4)
    assert (skipped, run) == ({"nn.conv2d": 3}, TVM["three"])
