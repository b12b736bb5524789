#!/usr/bin/env python
"""Differential probe of operator configurations against TVM 0.19 (a dev tool, not a test).

    TOPHUB_LOCATION=NONE /work/tvmvenv/bin/python scripts/tvm_op_probe.py run tvm /tmp/tvm.npz
    python scripts/tvm_op_probe.py run ours /tmp/ours.npz        # with relay-mlir's env
    python scripts/tvm_op_probe.py compare /tmp/tvm.npz /tmp/ours.npz

Each case is a one-operator program (TVM 0.19's Python API; ``relay_mlir.tvm`` for ours)
built from seeded inputs and run by the graph executor for ``llvm``. ``compare`` prints the
cases where both systems ran and disagree (relative 1e-4), and the cases only one could run.
Session 25 (2026-12-06): 72 conv2d layout/group/window configurations, 113
pool/conv_transpose/matmul/resize/norm/pad ones and 274 reduction/shape/index/sort/scatter
ones: every case both ran agreed, except NHWC/OHWI depthwise with asymmetric padding, where
TVM 0.19 is wrong (ours equals numpy); see docs/history.md.
"""
from __future__ import annotations

import json
import sys

import numpy as np


def cases(relay):
    """name -> (input shape, builder of the program from the input var)."""
    C = {}
    rng = np.random.default_rng(1)

    def W(*s):
        return relay.const(rng.standard_normal(s).astype("float32"))

    def K(a, dt="float32"):
        return relay.const(np.array(a, dtype=dt))

    # conv2d: data/kernel layouts x groups x windows
    for dl, kl in [("NCHW", "OIHW"), ("NHWC", "HWIO"), ("NHWC", "HWOI"), ("NCHW", "OHWI"), ("NHWC", "OHWI"),
                   ("NCHW", "HWIO")]:
        for (c, o, g) in [(4, 6, 1), (4, 8, 2), (4, 4, 4), (4, 8, 4)]:
            for (st, pad, dil) in [((1, 1), (1, 1), (1, 1)), ((2, 2), (0, 1, 1, 0), (1, 1)),
                                   ((1, 2), (2, 2), (2, 1))]:
                dims = dict(O=o, I=c // g, H=3, W=2)
                dshape = {"NCHW": (2, c, 9, 8), "NHWC": (2, 9, 8, c)}[dl]
                C[f"conv2d_{dl}_{kl}_C{c}O{o}g{g}_s{st}p{pad}d{dil}"] = (
                    dshape, lambda x, w=W(*[dims[k] for k in kl]), a=dict(
                        groups=g, strides=st, padding=pad, dilation=dil, data_layout=dl, kernel_layout=kl,
                        channels=o, kernel_size=(3, 2)): relay.nn.conv2d(x, w, **a))
    # pools
    for lay, shp in [("NCHW", (2,3,9,8)), ("NHWC", (2,9,8,3))]:
        for ceil in (False, True):
            for (ps, st, pad, dil) in [((3,3),(2,2),(1,1),(1,1)), ((2,3),(2,1),(0,1,1,0),(1,1)), ((3,2),(1,2),(1,0),(2,1))]:
                C[f"max_{lay}_c{ceil}_{ps}{st}{pad}{dil}"] = (shp, lambda x, ps=ps, st=st, pad=pad, dil=dil, lay=lay, ceil=ceil: relay.nn.max_pool2d(x, ps, st, dil, pad, lay, ceil_mode=ceil))
                for cip in (False, True):
                    C[f"avg_{lay}_c{ceil}_i{cip}_{ps}{st}{pad}{dil}"] = (shp, lambda x, ps=ps, st=st, pad=pad, dil=dil, lay=lay, ceil=ceil, cip=cip: relay.nn.avg_pool2d(x, ps, st, dil, pad, lay, ceil_mode=ceil, count_include_pad=cip))
        C[f"gavg_{lay}"] = (shp, lambda x, lay=lay: relay.nn.global_avg_pool2d(x, layout=lay))
        C[f"adapt_{lay}"] = (shp, lambda x, lay=lay: relay.nn.adaptive_avg_pool2d(x, (4, 3), layout=lay))
        C[f"adaptmax_{lay}"] = (shp, lambda x, lay=lay: relay.nn.adaptive_max_pool2d(x, (2, 5), layout=lay))
    # conv2d_transpose
    for (dl, kl, dshape, wshape, g) in [("NCHW", "IOHW", (1,4,5,6), (4,3,3,3), 1), ("NCHW", "IOHW", (1,4,5,6), (4,2,3,3), 2),
                                        ("NHWC", "HWOI", (1,5,6,4), (3,3,3,4), 1), ("NCHW", "OIHW", (1,4,5,6), (3,4,3,3), 1)]:
        for (st, pad, op_) in [((1,1),(1,1),(0,0)), ((2,2),(0,1,1,0),(1,1)), ((2,3),(1,1),(1,2))]:
            C[f"convT_{dl}_{kl}_g{g}_{st}{pad}{op_}"] = (dshape, lambda x, dl=dl, kl=kl, w=W(*wshape), st=st, pad=pad, op_=op_, g=g:
                relay.nn.conv2d_transpose(x, w, strides=st, padding=pad, output_padding=op_, groups=g, data_layout=dl, kernel_layout=kl))
    # dense / batch_matmul / matmul
    C["dense"] = ((3,5), lambda x: relay.nn.dense(x, W(7,5)))
    C["dense_units"] = ((2,3,5), lambda x: relay.nn.dense(x, W(7,5), units=7))
    for ta in (False, True):
        for tb in (False, True):
            a = (2,5,4) if ta else (2,4,5); b = (2,6,5) if tb else (2,5,6)
            C[f"bmm_{ta}{tb}"] = (a, lambda x, b=b, ta=ta, tb=tb: relay.nn.batch_matmul(x, W(*b), transpose_a=ta, transpose_b=tb))
            C[f"matmul_{ta}{tb}"] = ((5,4) if ta else (4,5), lambda x, ta=ta, tb=tb: relay.nn.matmul(x, W(*((6,5) if tb else (5,6))), transpose_a=ta, transpose_b=tb))
    C["bmm_bcast"] = ((1,4,5), lambda x: relay.nn.batch_matmul(x, W(3,6,5)))
    # resize / upsampling
    for method in ("nearest_neighbor", "linear", "cubic"):
        for ctm in ("half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel"):
            for rnd in ("round", "floor", "ceil", "round_prefer_floor"):
                if method != "nearest_neighbor" and rnd != "round": continue
                C[f"resize_{method}_{ctm}_{rnd}"] = ((1,2,5,7), lambda x, m=method, c=ctm, r=rnd: relay.image.resize2d(x, (8, 4), method=m, coordinate_transformation_mode=c, rounding_method=r))
    C["upsampling_bilinear"] = ((1,2,5,7), lambda x: relay.nn.upsampling(x, 2, 1.5, method="bilinear"))
    C["upsampling_bilinear_ac"] = ((1,2,5,7), lambda x: relay.nn.upsampling(x, 2, 1.5, method="bilinear", align_corners=True))
    C["upsampling_nearest"] = ((1,2,5,7), lambda x: relay.nn.upsampling(x, 2, 3))
    # norms
    C["layer_norm"] = ((2,3,6), lambda x: relay.nn.layer_norm(x, W(6), W(6), axis=-1, epsilon=1e-3))
    C["group_norm"] = ((2,6,3,4), lambda x: relay.nn.group_norm(x, W(6), W(6), num_groups=3))
    C["instance_norm_nhwc"] = ((2,3,4,6), lambda x: relay.nn.instance_norm(x, W(6), W(6), axis=3))
    C["batch_norm"] = ((2,6,3,4), lambda x: relay.nn.batch_norm(x, W(6), W(6), W(6), relay.const(np.abs(rng.standard_normal(6)).astype('f4')))[0])
    C["lrn"] = ((2,6,3,4), lambda x: relay.nn.lrn(x, size=3, axis=1, bias=2, alpha=1e-3, beta=0.75))
    C["l2norm"] = ((2,6,3,4), lambda x: relay.nn.l2_normalize(x, 1e-4, axis=[1, 2]))
    C["softmax_ax1"] = ((2,6,3), lambda x: relay.nn.softmax(x, axis=1))
    C["log_softmax"] = ((2,6), lambda x: relay.nn.log_softmax(x))
    C["pad_reflect"] = ((1,2,5,6), lambda x: relay.nn.pad(x, ((0,0),(0,0),(2,1),(1,3)), pad_mode="reflect"))
    C["pad_edge"] = ((1,2,5,6), lambda x: relay.nn.pad(x, ((0,0),(1,0),(2,1),(1,3)), pad_mode="edge"))
    C["pad_const"] = ((1,2,5,6), lambda x: relay.nn.pad(x, ((0,0),(1,0),(2,1),(1,3)), pad_value=1.5))
    C["depth_to_space_crd"] = ((1,8,3,2), lambda x: relay.nn.depth_to_space(x, 2, mode="CRD"))
    C["depth_to_space_nhwc"] = ((1,3,2,8), lambda x: relay.nn.depth_to_space(x, 2, layout="NHWC"))
    C["space_to_depth_nhwc"] = ((1,4,6,2), lambda x: relay.nn.space_to_depth(x, 2, layout="NHWC"))
    C["prelu_nhwc"] = ((2,3,4,5), lambda x: relay.nn.prelu(x, W(5), axis=3))
    C["conv1d_nwc_wio"] = ((2,9,3), lambda x: relay.nn.conv1d(x, W(3,3,4), padding=(1,2), strides=2, data_layout="NWC", kernel_layout="WIO"))
    C["conv3d_ndhwc_dhwio_g"] = ((1,4,5,5,4), lambda x: relay.nn.conv3d(x, W(2,2,2,2,6), groups=2, data_layout="NDHWC", kernel_layout="DHWIO", padding=(1,0,1)))
    C["conv1d_transpose"] = ((1,4,7), lambda x: relay.nn.conv1d_transpose(x, W(4,3,3), strides=2, padding=(1,0), output_padding=1))
    C["max_pool1d"] = ((2,3,9), lambda x: relay.nn.max_pool1d(x, 3, 2, padding=1, ceil_mode=True))
    C["avg_pool3d"] = ((1,2,5,6,7), lambda x: relay.nn.avg_pool3d(x, (2,3,2), (2,2,2), padding=(1,1,0), ceil_mode=True, count_include_pad=False))
    C["max_pool3d_ndhwc"] = ((1,5,6,7,2), lambda x: relay.nn.max_pool3d(x, (2,3,2), (1,2,2), padding=(0,1,1), layout="NDHWC"))
    rng5 = np.random.default_rng(5)
    S = (2,3,4,5)
    for ax in [None, 0, -1, (1, 2), (0, 3)]:
        for kd in (False, True):
            for ex in (False, True):
                if ex and ax is None: continue
                for fn in ["sum", "mean", "max", "min", "prod", "variance", "std", "logsumexp", "argmax", "argmin", "all", "any"]:
                    if fn in ("argmax", "argmin") and isinstance(ax, tuple): continue
                    if fn in ("logsumexp",) and ex: continue
                    if fn in ("all", "any"):
                        C[f"{fn}_{ax}_{kd}_{ex}"] = (S, lambda x, fn=fn, ax=ax, kd=kd, ex=ex: getattr(relay, fn)(relay.greater(x, relay.const(0.0)), ax, kd, ex))
                    elif fn == "logsumexp":
                        C[f"{fn}_{ax}_{kd}"] = (S, lambda x, ax=ax, kd=kd: relay.logsumexp(x, ax, kd))
                    elif fn in ("variance", "std"):
                        for unb in (False, True):
                            C[f"{fn}_{ax}_{kd}_{ex}_{unb}"] = (S, lambda x, fn=fn, ax=ax, kd=kd, ex=ex, unb=unb: getattr(relay, fn)(x, ax, kd, ex, unbiased=unb))
                    else:
                        C[f"{fn}_{ax}_{kd}_{ex}"] = (S, lambda x, fn=fn, ax=ax, kd=kd, ex=ex: getattr(relay, fn)(x, ax, kd, ex))
    C["argmax_select_last"] = ((2,6), lambda x: relay.argmax(relay.round(x), axis=1, select_last_index=True))
    # transforms
    C["transpose_none"] = (S, lambda x: relay.transpose(x))
    C["reshape_special"] = (S, lambda x: relay.reshape(x, (0, -1, 5)))
    C["reshape_m2"] = (S, lambda x: relay.reshape(x, (-2,)))
    C["reshape_m3"] = (S, lambda x: relay.reshape(x, (-3, -2)))
    C["reshape_m4"] = (S, lambda x: relay.reshape(x, (-4, 1, 2, -2)))
    C["reverse_reshape"] = (S, lambda x: relay.reverse_reshape(x, (-1, 0)) if hasattr(relay, "reverse_reshape") else None)
    C["squeeze"] = ((1,3,1,5), lambda x: relay.squeeze(x))
    C["squeeze_ax"] = ((1,3,1,5), lambda x: relay.squeeze(x, [2]))
    C["expand_dims"] = (S, lambda x: relay.expand_dims(x, -2, 2))
    C["split_idx"] = (S, lambda x: relay.split(x, (1, 3), axis=3).astuple())
    C["split_n"] = (S, lambda x: relay.Tuple([relay.split(x, 2, axis=0)[1]]))
    C["strided_slice"] = (S, lambda x: relay.strided_slice(x, [1, 0, 3], [2, 3, 0], [1, 2, -1]))
    C["strided_slice_axes"] = (S, lambda x: relay.strided_slice(x, [1, -1], [3, -5], [1, -2], axes=[1, 3]))
    C["strided_slice_size"] = (S, lambda x: relay.strided_slice(x, [0, 1], [-1, 2], slice_mode="size"))
    C["take_clip"] = (S, lambda x: relay.take(x, K([[0, 5], [-1, 2]], 'int32'), axis=3, mode="clip"))
    C["take_wrap"] = (S, lambda x: relay.take(x, K([7, -6], 'int32'), axis=2, mode="wrap"))
    C["take_flat"] = (S, lambda x: relay.take(x, K([3, 100], 'int32'), mode="clip"))
    C["take_batch_dims"] = ((2,3,4), lambda x: relay.take(x, K([[0, 2], [1, 1]], 'int32'), axis=2, batch_dims=1))
    C["gather"] = (S, lambda x: relay.gather(x, 2, K(rng5.integers(0, 4, (2,3,2,5)), 'int64')))
    C["gather_nd"] = (S, lambda x: relay.gather_nd(x, K([[0, 1], [2, 0]], 'int32')))
    C["gather_nd_bd"] = ((2,3,4), lambda x: relay.gather_nd(x, K([[[1], [2]], [[0], [1]]], 'int32'), batch_dims=1))
    C["tile"] = ((2,3), lambda x: relay.tile(x, (2, 1, 3)))
    C["repeat"] = (S, lambda x: relay.repeat(x, 2, axis=1))
    C["reverse"] = (S, lambda x: relay.reverse(x, axis=2))
    C["stack"] = ((2,3), lambda x: relay.stack([x, x * relay.const(2.0)], axis=-1))
    C["concat_neg"] = ((2,3), lambda x: relay.concatenate([x, x], axis=-1))
    C["where_bcast"] = ((2,3), lambda x: relay.where(relay.greater(x, relay.const(0.0)), x, relay.const(-1.0)))
    C["broadcast_to"] = ((3,1), lambda x: relay.broadcast_to(x, (2,3,4)))
    C["one_hot"] = ((2,3), lambda x: relay.one_hot(relay.cast(relay.abs(x) * relay.const(2.0), "int32"), relay.const(1.0), relay.const(0.0), 4, -1, "float32"))
    C["cumsum_excl"] = (S, lambda x: relay.cumsum(x, axis=2, exclusive=True))
    C["cumprod"] = (S, lambda x: relay.cumprod(x, axis=1))
    C["sort_desc"] = ((3,5), lambda x: relay.sort(x, axis=1, is_ascend=False))
    C["argsort"] = ((3,5), lambda x: relay.argsort(x, axis=0, is_ascend=True, dtype="int64"))
    C["topk_both"] = ((3,6), lambda x: relay.topk(x, 2, axis=1, ret_type="both", is_ascend=False).astuple())
    C["topk_idx"] = ((3,6), lambda x: relay.topk(x, 3, axis=0, ret_type="indices", dtype="int32"))
    C["clip"] = (S, lambda x: relay.clip(x, -0.5, 0.7))
    C["scatter_elements"] = ((3,4), lambda x: relay.scatter_elements(x, K([[1, 0], [2, 3], [0, 0]], 'int64'), relay.ones((3,2), 'float32'), axis=1, reduction="add"))
    C["scatter_nd_add"] = ((3,4), lambda x: relay.scatter_nd(x, K([[0, 2], [1, 1]], 'int64'), relay.ones((2,), 'float32'), mode="add"))
    C["arange"] = ((2,), lambda x: relay.arange(relay.const(1.0), relay.const(5.0), relay.const(1.5)) + relay.sum(x))
    C["full_like"] = ((2,3), lambda x: relay.full_like(x, relay.const(3.0)))
    C["layout_transform"] = ((1,8,3,3), lambda x: relay.layout_transform(x, "NCHW", "NCHW4c"))
    C["collapse_sum_like"] = ((2,3,4), lambda x: relay.collapse_sum_like(x, relay.zeros((3,1), 'float32')))
    C["sum_like_bcast"] = ((2,3), lambda x: relay.broadcast_to_like(relay.sum(x, axis=0, keepdims=True), x))
    C["unravel"] = ((2,), lambda x: relay.unravel_index(K([5, 13], 'int32'), K([3, 5], 'int32')) if hasattr(relay, "unravel_index") else None)
    C["matrix_band"] = ((3,), lambda x: relay.trilu(relay.ones((3, 3), 'float32') * relay.sum(x), K(0, 'int32'), True) if hasattr(relay, "trilu") else None)
    # session 26: conv{1,3}d_transpose, mirror_pad, upsampling3d (own rng: earlier cases keep their inputs)
    r26 = np.random.default_rng(26)

    def W26(*s):
        return relay.const(r26.standard_normal(s).astype("float32"))

    for (dl, dshape, wshape, g, st, pad, dil, op_) in [
            ("NCW", (2, 4, 7), (4, 3, 3), 1, (2,), (1, 0), (1,), (1,)),
            ("NCW", (1, 3, 5), (3, 2, 4), 1, (3,), (2, 1), (1,), (2,)),
            ("NCW", (1, 4, 6), (4, 2, 3), 1, (1,), (1,), (2,), (0,)),
            ("NCW", (1, 4, 6), (4, 1, 3), 2, (2,), (0,), (1,), (1,)),
            ("NWC", (2, 7, 4), (4, 3, 3), 1, (2,), (1, 2), (1,), (1,))]:
        C[f"convT1d_{dl}_g{g}_s{st}p{pad}d{dil}o{op_}"] = (dshape, lambda x, w=W26(*wshape), a=dict(
            strides=st, padding=pad, dilation=dil, output_padding=op_, groups=g, data_layout=dl):
            relay.nn.conv1d_transpose(x, w, **a))
    for (dl, dshape, wshape, g, st, pad, dil, op_) in [
            # (cubic kernels: TVM 0.19's Conv3DTransposeRel sizes H and W from the wrong kernel
            # dims otherwise, and its own compute then fails the shape assert)
            ("NCDHW", (1, 3, 3, 4, 5), (3, 2, 2, 2, 2), 1, (2, 1, 2), (1, 0, 1, 1, 0, 1), (1, 1, 1), (1, 0, 0)),
            ("NCDHW", (2, 2, 3, 3, 3), (2, 3, 3, 3, 3), 1, (1, 2, 3), (0, 1, 1, 1, 0, 2), (1, 1, 1), (0, 1, 2)),
            ("NCDHW", (1, 4, 3, 3, 2), (4, 1, 2, 2, 2), 2, (2, 2, 2), (0, 0, 0), (1, 1, 1), (0, 0, 0)),
            ("NCDHW", (1, 2, 3, 3, 3), (2, 2, 2, 2, 2), 1, (1, 1, 1), (0, 0, 0), (2, 1, 2), (0, 0, 0)),
            ("NDHWC", (1, 3, 4, 3, 2), (2, 3, 2, 2, 2), 1, (2, 2, 1), (1, 1, 0, 1, 1, 0), (1, 1, 1), (1, 0, 0))]:
        C[f"convT3d_{dl}_g{g}_s{st}p{pad}d{dil}o{op_}"] = (dshape, lambda x, w=W26(*wshape), a=dict(
            strides=st, padding=pad, dilation=dil, output_padding=op_, groups=g, data_layout=dl):
            relay.nn.conv3d_transpose(x, w, **a))
    for mode in ("SYMMETRIC", "REFLECT"):
        C[f"mirror_pad_{mode}_2d"] = ((3, 5), lambda x, m=mode: relay.nn.mirror_pad(x, ((2, 1), (0, 4)), mode=m))
        C[f"mirror_pad_{mode}_4d"] = ((1, 2, 4, 3), lambda x, m=mode: relay.nn.mirror_pad(
            x, ((0, 0), (1, 1), (3, 2), (2, 2)), mode=m))
    C["mirror_pad_SYMMETRIC_full"] = ((2, 3), lambda x: relay.nn.mirror_pad(x, ((2, 2), (3, 3))))
    for method in ("nearest_neighbor", "trilinear"):
        for ctm in ("half_pixel", "align_corners", "asymmetric"):
            for lay, shp in (("NCDHW", (1, 2, 3, 4, 5)), ("NDHWC", (2, 3, 5, 4, 2))):
                C[f"upsampling3d_{method}_{ctm}_{lay}"] = (shp, lambda x, m=method, c=ctm, lay=lay: relay.nn.upsampling3d(
                    x, 2, 1.5, 2.5, layout=lay, method=m, coordinate_transformation_mode=c))
    C["upsampling3d_down"] = ((1, 2, 5, 6, 7), lambda x: relay.nn.upsampling3d(x, 0.5, 0.7, 1.3, method="trilinear"))
    # session 27: TVM 0.19's operators new to relay-mlir (integer operands as constants)
    r27 = np.random.default_rng(27)

    def I27(lo, hi, *s, dt="int32"):
        return K(r27.integers(lo, hi, size=s), dt)

    for k, up in [(0, True), (1, True), (-1, False), (2, False), (-3, True)]:
        C[f"trilu_k{k}_{up}"] = ((2, 4, 5), lambda x, k=k, up=up: relay.trilu(x, k, upper=up))
    C["trilu_int64_k"] = ((6, 3), lambda x: relay.trilu(x, K(1, "int64"), upper=False))
    C["sequence_mask_ax0"] = ((5, 3, 2), lambda x: relay.sequence_mask(x, K([2, 0, 7], "int32"), -1.5, 0))
    C["sequence_mask_ax1"] = ((3, 5, 2), lambda x: relay.sequence_mask(x, K([4, 1, 5], "int64"), 0.0, 1))
    C["reverse_sequence_10"] = ((3, 6), lambda x: relay.reverse_sequence(x, K([1, 4, 9], "int32"), 1, 0))
    C["reverse_sequence_01"] = ((5, 2, 3), lambda x: relay.reverse_sequence(x, K([3, 0], "int64"), 0, 1))
    C["reverse_sequence_neg"] = ((2, 3, 4), lambda x: relay.reverse_sequence(x, K([2, 3, -1], "int32"), -1, -2))
    for ix in ("ij", "xy"):
        C[f"meshgrid_{ix}"] = ((3,), lambda x, ix=ix: relay.stack(relay.meshgrid(
            [x, relay.sum(x, keepdims=True) * K([1, 2, 3, 4], "float32"), relay.sum(x)], indexing=ix), 0))
    # (the indices depend on x: TVM's FoldConstant would build unravel_index with TIR CSE on)
    C["unravel_vec"] = ((6,), lambda x: relay.unravel_index(
        relay.cast(x * relay.const(0.0), "int32") + K([0, 5, 13, 29, -1, -7], "int32"), K([3, 2, 5], "int32")))
    C["unravel_i64"] = ((2,), lambda x: relay.unravel_index(
        relay.cast(x * relay.const(0.0), "int64") + K([17, -30], "int64"), K([4, 6], "int64")))
    C["invert_permutation"] = ((2,), lambda x: relay.invert_permutation(K([3, 0, 5, 1, 4, 2], "int32")))
    srt = np.sort(r27.standard_normal((2, 6)).astype("float32"), axis=-1)
    srt[0, 2] = srt[0, 3]
    for right in (False, True):
        C[f"searchsorted_2d_{right}"] = ((2, 5), lambda x, r=right: relay.searchsorted(  # with ties
            K(srt), relay.concatenate([x, K(srt)], axis=1), right=r))
        C[f"searchsorted_1d_{right}"] = ((3, 4), lambda x, r=right: relay.searchsorted(
            K(srt[0]), relay.round(x), right=r, dtype="int64"))
    for k, dshape in [(0, (2, 3)), (1, (2, 3)), (-2, (2, 2)), ((-1, 1), (2, 3, 3)), ((0, 2), (2, 3, 3)),
                      ((-2, 0), (2, 3, 3))]:
        for align in ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT"):
            C[f"matrix_set_diag_{k}_{align}"] = ((2, 3, 4), lambda x, k=k, a=align, d=dshape: relay.matrix_set_diag(
                x, K(r27.standard_normal(d).astype("float32")), k=k, align=a))
    C["collapse_sum_to"] = ((2, 3, 4), lambda x: relay.collapse_sum_to(x, (3, 1)))
    C["collapse_sum_to_keep"] = ((2, 3, 4), lambda x: relay.collapse_sum_to(x, (2, 1, 4)))
    C["reinterpret_i32"] = ((3, 4), lambda x: relay.cast(relay.reinterpret(x, "int32"), "float32"))
    C["sliding_window_1"] = ((2, 6, 7), lambda x: relay.sliding_window(x, 1, (3, 2), (2, 1)))
    C["sliding_window_0"] = ((2, 6, 7), lambda x: relay.sliding_window(x, 0, (2, 3, 2), (1, 2, 3)))
    C["dilate"] = ((2, 3, 4), lambda x: relay.nn.dilate(x, (1, 2, 3), 0.5))
    C["dilate_unit"] = ((3, 1), lambda x: relay.nn.dilate(x, (2, 4)))
    C["sparse_to_dense_2d"] = ((3,), lambda x: relay.sparse_to_dense(K([[0, 1], [2, 3], [1, 0]], "int32"), (3, 4), x, relay.const(-1.0)))
    C["sparse_to_dense_1d_scalar"] = ((), lambda x: relay.sparse_to_dense(K([1, 4], "int32"), (6,), x, relay.const(0.5)))
    C["reverse_reshape_m1_0"] = ((10, 5, 4), lambda x: relay.reverse_reshape(x, (-1, 0)))
    C["reverse_reshape_0_m1"] = ((10, 5, 4), lambda x: relay.reverse_reshape(x, (0, -1)))
    C["reverse_reshape_m3"] = ((2, 3, 4), lambda x: relay.reverse_reshape(x, (-3, 4)))
    C["reverse_reshape_lit"] = ((2, 3, 4), lambda x: relay.reverse_reshape(x, (-1, 2)))
    C["cross_entropy"] = ((4, 3), lambda x: relay.nn.cross_entropy(relay.sigmoid(x), K(np.eye(4, 3), "float32")))
    C["cross_entropy_with_logits"] = ((4, 3), lambda x: relay.nn.cross_entropy_with_logits(x, K(np.eye(4, 3), "float32")))
    for red in ("mean", "sum", "none"):
        C[f"nll_loss_{red}"] = ((3, 5), lambda x, red=red: relay.nn.nll_loss(
            x, K([4, 0, 2], "int32"), K([0.5, 1.0, 2.0, 1.5, 3.0], "float32"), red, 2))
        C[f"nll_loss_4d_{red}"] = ((2, 4, 3, 2), lambda x, red=red: relay.nn.nll_loss(
            x, K(r27.integers(0, 4, size=(2, 3, 2)), "int32"), K([1.0, 0.25, 2.0, 0.5], "float32"), red, 1))
    return C


def run(system: str, out: str) -> None:
    if system == "tvm":
        import tvm
        from tvm import relay
    else:
        import relay_mlir.tvm as tvm
        from relay_mlir.tvm import relay
    rng = np.random.default_rng(3)
    results, errors = {}, {}
    for name, (shape, build) in cases(relay).items():
        xv = rng.standard_normal(shape).astype("float32")
        try:
            x = relay.var("x", shape=shape)
            body = build(x)
            mod = tvm.IRModule.from_expr(relay.Function([x], body))
            if system == "tvm" and ("upsampling3d" in name or "unravel" in name):
                # TVM 0.19's LLVM codegen rejects trilinear resize3d's float CSE variable
                # ("location of #dbg_declare must be a pointer or int") unless TIR CSE is off;
                # unravel_index's vectorised floormod likewise.
                with tvm.transform.PassContext(disabled_pass=["tir.CommonSubexprElimTIR"],
                                               config={"tir.disable_vectorize": "unravel" in name}):
                    results[name] = relay.create_executor("graph", mod=mod, target="llvm").evaluate()(xv).numpy()
                continue
            results[name] = relay.create_executor("graph", mod=mod, target="llvm").evaluate()(xv).numpy()
        except Exception as e:  # noqa: BLE001 - a probe records every failure
            text = str(e).strip()
            errors[name] = (text.splitlines()[-1] if text else repr(e))[:300]
    np.savez(out, **results)
    with open(out + ".errors.json", "w") as f:
        json.dump(errors, f, indent=1)
    print(f"{system}: {len(results)} ran, {len(errors)} failed")


def compare(a_path: str, b_path: str) -> None:
    a, b = np.load(a_path), np.load(b_path)
    both = [k for k in a.files if k in b.files]
    for k in both:
        x, y = a[k].astype("float64"), b[k].astype("float64")
        if x.shape != y.shape or np.abs(x - y).max() > 1e-4 * max(1.0, np.abs(x).max()):
            print(f"DIFFER {k}: shapes {x.shape} {y.shape}")
    print(f"{len(both)} both ran; only in {a_path}: {sorted(set(a.files) - set(b.files))}; "
          f"only in {b_path}: {sorted(set(b.files) - set(a.files))}")


if __name__ == "__main__":
    if sys.argv[1] == "run":
        run(sys.argv[2], sys.argv[3])
    else:
        compare(sys.argv[2], sys.argv[3])
