"""FlattenAtrousConv (issue 31) against TVM 0.19's recorded results.

test_pass_flatten_atrous_conv_tvm019.json (scripts/tvm_flatten_atrous_conv.py) holds the
modules TVM 0.19 printed: each input (space_to_batch_nd, an NHWC conv2d, batch_to_space_nd),
and FlattenAtrousConv's output, or the error it raised. Where TVM flattens (TensorFlow's SAME
pattern), relay-mlir gives the same single dilated ``nn.conv2d`` (operators, dilation,
padding); where TVM is wrong (a VALID atrous conv: TVM always uses SAME padding and its type
checker rejects the result), relay-mlir flattens with the padding the three operators
compute. Every result computes what its input computes (reference interpreter, rtol 1e-5,
atol 1e-5).
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import relay_mlir as relay

from pass_checks import function_pass_counts, node_counts, outputs, random_args

CASES = json.loads((Path(__file__).parent / "test_pass_flatten_atrous_conv_tvm019.json")
                   .read_text())["cases"]
TOL = dict(rtol=1e-5, atol=1e-5)


def _same_values(before, after) -> None:
    args = random_args(before, np.random.default_rng(0))
    np.testing.assert_allclose(outputs(after, args)[0], outputs(before, args)[0], **TOL)


def _conv_attrs(mod) -> tuple:
    body = mod["main"].body
    return body.op.name, list(body.attrs["dilation"]), list(body.attrs["padding"])


@pytest.mark.parametrize("name", ["same_rate2", "same_rate3_cropped"])
def test_tvm_flattened_cases(name):
    mod = relay.fromtext(CASES[name]["input"])
    out = relay.transform.FlattenAtrousConv()(mod)
    tvm = relay.fromtext(CASES[name]["output"])
    assert node_counts(out) == node_counts(tvm) == {"nn.conv2d": 1}
    assert _conv_attrs(out) == _conv_attrs(tvm)
    _same_values(mod, out)


def test_valid_atrous_conv_where_tvm_fails():
    case = CASES["valid_rate2"]
    assert "error" in case and "output" not in case  # TVM: its type checker rejects its result
    mod = relay.fromtext(case["input"])
    out = relay.transform.FlattenAtrousConv()(mod)
    assert _conv_attrs(out) == ("nn.conv2d", [2, 2], [0, 0, 0, 0])
    _same_values(mod, out)


def test_pass_info_and_opt_level():
    mod = relay.fromtext(CASES["same_rate2"]["input"])
    skipped, ran = function_pass_counts(relay.transform.FlattenAtrousConv(), mod,
                                        "FlattenAtrousConv", 0)
    assert skipped["nn.space_to_batch_nd"] == 1 and ran == {"nn.conv2d": 1}


def _atrous(conv_kw=None, pad_value=0.0, crops=((0, 0), (0, 0))):
    x, w = relay.var("x", shape=(1, 10, 10, 3)), relay.var("w", shape=(3, 3, 3, 4))
    y = relay.nn.space_to_batch_nd(x, [2, 2], [[2, 2], [2, 2]], pad_value=pad_value)
    kw = dict(data_layout="NHWC", kernel_layout="HWIO")
    kw.update(conv_kw or {})
    y = relay.nn.batch_to_space_nd(relay.nn.conv2d(y, w, **kw), [2, 2], [list(c) for c in crops])
    return relay.IRModule.from_expr(relay.Function([x, w], y))


@pytest.mark.parametrize("variant", [
    dict(conv_kw=dict(padding=(1, 1))),   # the conv pads itself
    dict(pad_value=1.0),                  # padding with a value a dilated conv cannot use
    dict(crops=((3, 0), (0, 0))),         # crops into the data: no padding expresses it
])
def test_patterns_that_are_not_atrous_convs_stay(variant):
    mod = _atrous(**variant)
    out = relay.transform.FlattenAtrousConv()(mod)
    assert node_counts(out) == node_counts(mod)
    _same_values(mod, out)
