"""TVM's blocked convolutions ``nn.contrib_conv2d_NCHWc`` / ``nn.contrib_depthwise_conv2d_NCHWc``.

TVM 0.19's AlterOpLayout turns an NCHW ``nn.conv2d`` into one of these on its x86 targets
(python/tvm/topi/x86/conv2d_alter_op.py): the data is ``NCHW{ic}c`` (channels split into
blocks of ``ic``, the block innermost), the kernel ``OIHW{ic}i{oc}o`` (depthwise:
``OIHW1i{oc}o``) and the result ``out_layout`` (``NCHW{oc}c``). The attributes are
``nn.conv2d``'s: ``channels`` is the whole number of output channels, ``groups`` the whole
group count (the input channels for a depthwise conv).

In relay-mlir they are operators of the expression tree (builders ``relay.nn.contrib_conv2d_nchwc``
/ ``contrib_depthwise_conv2d_nchwc`` in relay_mlir.op.nn): users see, count, print and parse
them as TVM's, and the reference interpreter runs them (``layout_transform`` to NCHW/OIHW,
``nn.conv2d``, ``layout_transform`` to ``out_layout``). They have no dialect operator yet:
the emitter writes each call as that same definition (relay_mlir.defined_ops), so a module
holding them types, compiles and runs with TVM's values.

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(1, 2, 5, 5, 4))
    >>> w = relay.var("w", shape=(2, 2, 3, 3, 4, 4))
    >>> y = relay.nn.contrib_conv2d_nchwc(x, w, padding=(1, 1), channels=8, kernel_size=(3, 3),
    ...                                   data_layout="NCHW4c", kernel_layout="OIHW4i4o",
    ...                                   out_layout="NCHW4c")
    >>> y.op.name, relay.transform.InferType()(relay.IRModule.from_expr(y))["main"].body.checked_type
    ('nn.contrib_conv2d_NCHWc', TensorType([1, 2, 5, 5, 4], float32))
"""
from __future__ import annotations

from typing import Optional

from .expr import Call, Expr, Op
from .interpreter_ops import KERNELS
from .op.nn import CONV2D_NCHWC, DEPTHWISE_CONV2D_NCHWC, blocked_out_layout, conv2d
from .op.transform import layout_transform

__all__ = ["definition", "regroup", "DEFINITIONS", "REGROUPS"]


def definition(call: Call, shape_of=None) -> Expr:
    """The call in ordinary operators: ``layout_transform`` of the data to NCHW and of the
    kernel to OIHW, ``nn.conv2d`` with the call's attributes, ``layout_transform`` of the
    result to ``out_layout``."""
    a = call.attrs
    out_layout = blocked_out_layout(call.op.name, a["data_layout"], a["kernel_layout"],
                                    a.get("out_layout", ""))
    x = layout_transform(call.args[0], a["data_layout"], "NCHW")
    w = layout_transform(call.args[1], a["kernel_layout"], "OIHW")
    y = conv2d(x, w, strides=a["strides"], padding=a["padding"], dilation=a["dilation"],
                  groups=a["groups"], channels=a.get("channels"),
                  kernel_size=a.get("kernel_size"), out_dtype=a.get("out_dtype") or "")
    return layout_transform(y, "NCHW", out_layout)


def _unblocked_source(e: Expr, layout: str, plain: str) -> Optional[Expr]:
    """The value the definition's ``layout_transform(value, layout -> plain)`` read, after an
    MLIR round trip (None if a pass changed that transform)."""
    if isinstance(e, Call) and isinstance(e.op, Op) and e.op.name == "layout_transform" \
            and e.attrs.get("src_layout") == layout and e.attrs.get("dst_layout") == plain:
        return e.args[0]
    return None


def regroup(name: str, attrs: dict, final: Call) -> Optional[Expr]:
    """The call again from its definition read back from MLIR (``final``: the last
    ``layout_transform``), if the definition's chain is intact; else None (it then stays
    the ordinary operators it computes with)."""
    conv = final.args[0] if final.args else None
    if not (isinstance(conv, Call) and isinstance(conv.op, Op) and conv.op.name == "nn.conv2d"):
        return None
    out_layout = attrs.get("out_layout") or attrs["data_layout"]
    if (final.attrs.get("src_layout"), final.attrs.get("dst_layout")) != ("NCHW", out_layout):
        return None
    a = conv.attrs  # the conv must still compute what the call's attributes say
    if (a.get("data_layout", "NCHW"), a.get("kernel_layout", "OIHW")) != ("NCHW", "OIHW") or \
            any(a.get(k) != attrs.get(k) for k in ("strides", "padding", "dilation", "groups")):
        return None
    data = _unblocked_source(conv.args[0], attrs["data_layout"], "NCHW")
    kernel = _unblocked_source(conv.args[1], attrs["kernel_layout"], "OIHW")
    if data is None or kernel is None:
        return None
    return Call(Op.get(name), [data, kernel], attrs)


def _kernel(args, attrs):
    """The interpreter's kernel: the definition's three steps with its own kernels."""
    out_layout = blocked_out_layout("blocked conv2d", attrs["data_layout"],
                                    attrs["kernel_layout"], attrs.get("out_layout", ""))
    lt = KERNELS["layout_transform"]
    x = lt([args[0]], {"src_layout": attrs["data_layout"], "dst_layout": "NCHW"})
    w = lt([args[1]], {"src_layout": attrs["kernel_layout"], "dst_layout": "OIHW"})
    conv_attrs = {k: v for k, v in attrs.items() if k not in ("data_layout", "kernel_layout",
                                                               "out_layout")}
    y = KERNELS["nn.conv2d"]([x, w], conv_attrs)
    return lt([y], {"src_layout": "NCHW", "dst_layout": out_layout})


KERNELS[CONV2D_NCHWC] = KERNELS[DEPTHWISE_CONV2D_NCHWC] = _kernel

#: name -> definition(call, shape_of) for the emitter (relay_mlir.defined_ops)
DEFINITIONS = {CONV2D_NCHWC: definition, DEPTHWISE_CONV2D_NCHWC: definition}
#: name -> regroup(name, attrs, final) for the MLIR importer (relay_mlir.defined_ops)
REGROUPS = {CONV2D_NCHWC: regroup, DEPTHWISE_CONV2D_NCHWC: regroup}
