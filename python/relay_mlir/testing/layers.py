"""Layer wrappers that create their own weight variables, as TVM 0.19's ``relay.testing.layers``.

Each wrapper takes ``name=`` (required) and makes the missing weights as *untyped*
variables named ``<name>_weight``, ``<name>_bias``, ``<name>_gamma`` ... exactly as TVM
does; InferType (``create_workload``) solves their types from the operator, as TVM's.

    >>> import relay_mlir as relay
    >>> x = relay.var("data", shape=(1, 3, 8, 8))
    >>> y = batch_norm_infer(conv2d(x, channels=4, kernel_size=(3, 3), name="c"), name="bn")
    >>> [v.name_hint for v in relay.analysis.free_vars(y)]
    ['data', 'c_weight', 'bn_gamma', 'bn_beta', 'bn_moving_mean', 'bn_moving_var']
"""
from __future__ import annotations

from typing import Optional

from ..expr import Expr, var
from ..op import nn

__all__ = ["batch_norm_infer", "conv2d", "conv3d", "conv2d_transpose", "dense_add_bias",
           "conv_kernel_layout"]


def _name(kwargs: dict, wrapper: str) -> str:
    name = kwargs.pop("name", None)
    if not isinstance(name, str):
        raise TypeError(f"layers.{wrapper} needs name=<str> to name its weights, got {name!r}")
    return name


def _or_var(given: Optional[Expr], name: str) -> Expr:
    return given if given is not None else var(name)


def batch_norm_infer(data: Expr, gamma: Optional[Expr] = None, beta: Optional[Expr] = None,
                     moving_mean: Optional[Expr] = None, moving_var: Optional[Expr] = None,
                     **kwargs) -> Expr:
    """``nn.batch_norm(...)[0]`` with ``<name>_gamma/_beta/_moving_mean/_moving_var`` made
    when not given; other keyword arguments (axis, epsilon, center, scale) go to batch_norm."""
    name = _name(kwargs, "batch_norm_infer")
    return nn.batch_norm(data, _or_var(gamma, name + "_gamma"), _or_var(beta, name + "_beta"),
                         _or_var(moving_mean, name + "_moving_mean"),
                         _or_var(moving_var, name + "_moving_var"), **kwargs)[0]


def conv2d(data: Expr, weight: Optional[Expr] = None, **kwargs) -> Expr:
    """``nn.conv2d(data, weight or var(<name>_weight), **kwargs)``."""
    name = _name(kwargs, "conv2d")
    return nn.conv2d(data, _or_var(weight, name + "_weight"), **kwargs)


def conv3d(data: Expr, weight: Optional[Expr] = None, **kwargs) -> Expr:
    """``nn.conv3d(data, weight or var(<name>_weight), **kwargs)``."""
    name = _name(kwargs, "conv3d")
    return nn.conv3d(data, _or_var(weight, name + "_weight"), **kwargs)


def conv2d_transpose(data: Expr, weight: Optional[Expr] = None, **kwargs) -> Expr:
    """``nn.conv2d_transpose(data, weight or var(<name>_weight), **kwargs)``."""
    name = _name(kwargs, "conv2d_transpose")
    return nn.conv2d_transpose(data, _or_var(weight, name + "_weight"), **kwargs)


def dense_add_bias(data: Expr, weight: Optional[Expr] = None, bias: Optional[Expr] = None,
                   units: Optional[int] = None, **kwargs) -> Expr:
    """``bias_add(dense(data, <name>_weight, units), <name>_bias, axis=-1)``."""
    name = _name(kwargs, "dense_add_bias")
    out = nn.dense(data, _or_var(weight, name + "_weight"), units, **kwargs)
    return nn.bias_add(out, _or_var(bias, name + "_bias"), axis=-1)


def conv_kernel_layout(data_layout: str, is_depthwise: bool = False) -> str:
    """The kernel layout TVM pairs with ``data_layout``: NCHW -> OIHW; NHWC -> HWIO
    (HWOI when depthwise)."""
    table = {"NCHW": "OIHW", "NHWC": "HWOI" if is_depthwise else "HWIO"}
    if data_layout not in table:
        raise ValueError(f"conv_kernel_layout: data layout must be NCHW or NHWC, got {data_layout!r}")
    return table[data_layout]
