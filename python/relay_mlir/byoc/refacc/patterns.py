"""refacc's pattern table: the units the reference accelerator takes.

A vendor's table lists ``(name, pattern, check)``: the name is ``"<compiler>.<unit>"`` (so
``AnnotateTarget(["refacc"])`` sends the composite to refacc), the pattern says which dataflow
forms the unit (``relay_mlir.dataflow_pattern``), and ``check(root)`` refuses matches the
kernels cannot run (here: anything but float32, conv2d layouts other than NCHW/OIHW, grouped
convolutions, broadcasting adds). Everything refused stays with relay-mlir's own lowering.

>>> [name for name, _, _ in pattern_table()]
['refacc.conv2d_bias_relu', 'refacc.dense', 'refacc.add']
"""
from __future__ import annotations

from ...dataflow_pattern import is_op, wildcard
from ...expr import Call

__all__ = ["pattern_table"]


def _float32(*exprs) -> bool:
    return all(e.checked_type.dtype == "float32" for e in exprs)


def _check_conv2d_bias_relu(relu: Call) -> bool:
    bias_add = relu.args[0]
    conv = bias_add.args[0]
    a = conv.attrs
    return (_float32(relu, *conv.args, bias_add.args[1]) and a["groups"] == 1
            and a["data_layout"] == "NCHW" and a["kernel_layout"] == "OIHW"
            and a["out_dtype"] in ("", "float32") and bias_add.attrs["axis"] in (1, -3))


def _check_dense(dense: Call) -> bool:
    return _float32(dense, *dense.args) and dense.attrs["out_dtype"] in ("", "float32")


def _check_add(add: Call) -> bool:
    a, b = add.args  # the kernel adds element by element: no broadcasting
    return _float32(add, a, b) and a.checked_type.shape == b.checked_type.shape


def pattern_table():
    """refacc's ``(name, pattern, check)`` entries, largest unit first (MergeComposite tries
    them in order)."""
    conv = is_op("nn.conv2d")(wildcard(), wildcard())
    conv_bias_relu = is_op("nn.relu")(is_op("nn.bias_add")(conv, wildcard()))
    return [
        ("refacc.conv2d_bias_relu", conv_bias_relu, _check_conv2d_bias_relu),
        ("refacc.dense", is_op("nn.dense")(wildcard(), wildcard()), _check_dense),
        ("refacc.add", is_op("add")(wildcard(), wildcard()), _check_add),
    ]
