"""The DCGAN generator (Radford et al. 2015), as TVM 0.19's ``relay.testing.dcgan``.

``data`` (batch, random_len) -> dense ``dense_weight`` (4·4·8·ngf, no bias) -> relu ->
reshape to 4x4 -> three ``gN_deconv`` conv2d_transpose 4x4/2 + ``gN_batch_norm``
(scale=False, eps 1e-5 + 1e-12) + relu (g2..g4: 8·ngf -> 4·ngf -> 2·ngf -> ngf) ->
``g5_deconv`` to ``oshape`` -> tanh. Only 64x64 images, as in TVM.

    >>> mod, params = get_workload(1, ngf=8, random_len=10)
    >>> params["g2_deconv_weight"].shape, params["g5_deconv_weight"].shape
    ((64, 32, 4, 4), (8, 3, 4, 4))
"""
import relay_mlir as relay

from . import layers
from .init import create_workload

__all__ = ["deconv2d", "deconv2d_bn_relu", "get_net", "get_workload"]

_KERNEL_LAYOUT = {"NCHW": "IOHW", "NHWC": "HWOI"}


def deconv2d(data, ishape, oshape, kshape, layout, name, stride=(2, 2)):
    """conv2d_transpose to ``oshape`` (C, H, W): padding (k-1)//2 and the output padding
    that reaches the target size."""
    if layout not in _KERNEL_LAYOUT:
        raise ValueError("Invalid layout: " + layout)
    pad = [(k - 1) // 2 for k in kshape]
    adj = [(t + 2 * p - k) % s for t, p, k, s in zip(oshape[-2:], pad, kshape, stride)]
    return layers.conv2d_transpose(data, kernel_size=kshape, strides=stride, channels=oshape[0],
                                   padding=tuple(pad), output_padding=tuple(adj), data_layout=layout,
                                   kernel_layout=_KERNEL_LAYOUT[layout], name=name)


def deconv2d_bn_relu(data, prefix, **kwargs):
    """deconv2d ``<prefix>_deconv`` + batch_norm ``<prefix>_batch_norm`` (scale=False) + relu."""
    net = deconv2d(data, name=f"{prefix}_deconv", **kwargs)
    net = layers.batch_norm_infer(net, epsilon=1e-5 + 1e-12, scale=False,
                                  axis=kwargs.get("layout", "NCHW").index("C"), name=f"{prefix}_batch_norm")
    return relay.nn.relu(net)


def get_net(batch_size, random_len=100, oshape=(3, 64, 64), ngf=128, code=None, layout="NCHW", dtype="float32"):
    """The generator as a relay Function of ``data`` (or of ``code``'s free variables)."""
    if tuple(oshape[-2:]) != (64, 64):
        raise ValueError(f"Only support 64x64 image, got oshape {tuple(oshape)}")
    if layout not in _KERNEL_LAYOUT:
        raise ValueError("Invalid layout: " + layout)
    code = relay.var("data", dtype=dtype, shape=(batch_size, random_len)) if code is None else code
    net = relay.nn.relu(relay.nn.dense(code, relay.var("dense_weight"), units=4 * 4 * ngf * 8))
    net = relay.reshape(net, (-1, ngf * 8, 4, 4) if layout == "NCHW" else (-1, 4, 4, ngf * 8))
    size = 4
    for prefix, mult in (("g2", 4), ("g3", 2), ("g4", 1)):
        net = deconv2d_bn_relu(net, ishape=(ngf * mult * 2, size, size), oshape=(ngf * mult, 2 * size, 2 * size),
                               kshape=(4, 4), layout=layout, prefix=prefix)
        size *= 2
    net = relay.tanh(deconv2d(net, ishape=(ngf, 32, 32), oshape=tuple(oshape[-3:]), kshape=(4, 4),
                              layout=layout, name="g5_deconv"))
    return relay.Function(relay.analysis.free_vars(net), net)


def get_workload(batch_size, oshape=(3, 64, 64), ngf=128, random_len=100, layout="NCHW", dtype="float32"):
    """``(mod, params)`` of the DCGAN generator (Xavier weights, seed 0)."""
    return create_workload(get_net(batch_size, random_len, oshape=oshape, ngf=ngf, layout=layout, dtype=dtype))
