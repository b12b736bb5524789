"""Operator attributes: ``register_op_attr(op_name, attr_key, value=None, level=10)``.

TVM 0.19's ``tvm.ir.register_op_attr`` (also ``relay.op.register_op_attr``): attaches a
value to an operator under a key. BYOC uses the key ``"target.<compiler>"`` with a function
of the call that says whether that compiler takes it (``AnnotateTarget`` asks it); the
dataflow patterns' ``has_attr`` on an operator reads these values. Called with a value it
registers it; without, it is a decorator. As in TVM, a second registration at the same
level is an error, a higher level replaces the value and a lower one is ignored.

>>> from relay_mlir.op import register_op_attr
>>> @register_op_attr("nn.relu", "target.doc_example")
... def _relu(expr):
...     return True
>>> get_op_attr("nn.relu", "target.doc_example") is _relu
True
>>> reset_op_attr("nn.relu", "target.doc_example")

Every operator TVM 0.19 gives a ``TOpPattern`` (its fusion kind, ``OpPattern``) has the same
value here, so ``is_op("exp").has_attr({"TOpPattern": OpPattern.ELEMWISE})`` works as in TVM:

>>> get_op_attr("exp", "TOpPattern"), get_op_attr("add", "TOpPattern"), get_op_attr("nn.conv2d", "TOpPattern")
(0, 1, 4)
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple

__all__ = ["register_op_attr", "get_op_attr", "reset_op_attr", "has_op_attr_key", "op_has_attrs",
           "OpPattern"]

# (op name, attribute key) -> (value, level)
_ATTRS: Dict[Tuple[str, str], Tuple[Any, int]] = {}


def _check_names(op_name: object, attr_key: object) -> None:
    if not isinstance(op_name, str) or not op_name:
        raise TypeError(f"register_op_attr: the operator name must be a string such as "
                        f"'nn.conv2d', got {op_name!r}")
    if not isinstance(attr_key, str) or not attr_key:
        raise TypeError(f"register_op_attr: the attribute key must be a string such as "
                        f"'target.dnnl', got {attr_key!r}")


def register_op_attr(op_name: str, attr_key: str, value: Optional[Any] = None,
                     level: int = 10) -> Any:
    """Registers ``value`` as ``op_name``'s attribute ``attr_key`` (or returns a decorator
    that registers the function it decorates)."""
    _check_names(op_name, attr_key)

    def _register(v: Any) -> Any:
        old = _ATTRS.get((op_name, attr_key))
        if old is not None and old[1] == level:
            raise ValueError(f"Attribute {attr_key} of {op_name} is already registered with "
                             f"same plevel={level}")
        if old is None or old[1] < level:
            _ATTRS[(op_name, attr_key)] = (v, level)
        return v

    return _register(value) if value is not None else _register


def get_op_attr(op_name: str, attr_key: str, default: Any = None) -> Any:
    """The value registered as ``op_name``'s ``attr_key``, or ``default``."""
    entry = _ATTRS.get((op_name, attr_key))
    return default if entry is None else entry[0]


def op_has_attrs(op_name: str) -> bool:
    """Whether any attribute is registered for ``op_name`` (every operator TVM 0.19 knows has
    ``TOpPattern`` or another attribute)."""
    return any(name == op_name for name, _ in _ATTRS)


def has_op_attr_key(attr_key: str) -> bool:
    """Whether any operator has attribute ``attr_key`` (TVM's ``Op::HasAttrMap``)."""
    return any(key == attr_key for _, key in _ATTRS)


def reset_op_attr(op_name: str, attr_key: str) -> None:
    """Removes ``op_name``'s ``attr_key`` (TVM's ``Op.reset_attr``)."""
    _ATTRS.pop((op_name, attr_key), None)


class OpPattern:
    """TVM's operator pattern kinds (``relay.op.OpPattern``), the values of ``TOpPattern``."""

    ELEMWISE = 0
    BROADCAST = 1
    INJECTIVE = 2
    COMM_REDUCE = 3
    OUT_ELEMWISE_FUSABLE = 4
    TUPLE = 7
    OPAQUE = 8


# TVM 0.19's TOpPattern of each operator that has one (read from TVM's registry with
# tvm.ir.Op.get(name).get_attr("TOpPattern")), by kind.
_TVM_OP_PATTERNS = {
    0: """
        abs acos acosh asin asinh atan atanh bitwise_not cast cast_like ceil clip copy cos cosh
        dyn.full dyn.ones dyn.zeros erf exp fast_erf fast_exp fast_tanh fixed_point_multiply floor
        full full_like isfinite isinf isnan log log10 log2 logical_not negative nn.leaky_relu
        nn.relu ones ones_like qnn.dequantize qnn.quantize qnn.requantize qnn.simulated_dequantize
        qnn.simulated_quantize qnn.tanh reinterpret relay.op.annotation.simulated_quantize round
        rsqrt sigmoid sign sin sinh sqrt tan tanh trilu trunc zeros zeros_like
    """,  # ELEMWISE
    1: """
        add bitwise_and bitwise_or bitwise_xor broadcast_to broadcast_to_like divide
        dyn.broadcast_to equal expand_dims fixed_point_multiply_per_axis floor_divide floor_mod
        greater greater_equal left_shift less less_equal logical_and logical_or logical_xor maximum
        minimum mod multiply nn.bias_add nn.prelu not_equal power qnn.add qnn.mul qnn.subtract
        repeat right_shift subtract tile trunc_divide trunc_mod where
    """,  # BROADCAST
    2: """
        adv_index auto_scheduler_layout_transform concatenate contrib_reverse_reshape
        dyn.expand_dims dyn.image.resize2d dyn.nn.pad dyn.nn.upsampling dyn.nn.upsampling3d
        dyn.reshape dyn.squeeze dyn.strided_slice dyn.tile einsum gather gather_nd image.affine_grid
        image.crop_and_resize image.grid_sample image.resize1d image.resize2d image.resize3d
        invert_permutation layout_transform matrix_set_diag meshgrid meta_schedule_layout_transform
        ndarray_size nn.batch_flatten nn.batch_to_space_nd nn.bitpack nn.depth_to_space nn.dilate
        nn.mirror_pad nn.pad nn.space_to_batch_nd nn.space_to_depth nn.upsampling nn.upsampling3d
        qnn.concatenate reshape reshape_like reverse reverse_sequence sequence_mask slice_like
        sparse_reshape split squeeze stack strided_set strided_slice take transpose unravel_index
        vision.yolo_reorg
    """,  # INJECTIVE
    3: """
        all any argmax argmin collapse_sum_like collapse_sum_to max mean min prod sum variance
    """,  # COMM_REDUCE
    4: """
        dyn.one_hot image.dilation2d nn.adaptive_avg_pool1d nn.adaptive_avg_pool2d
        nn.adaptive_avg_pool3d nn.adaptive_max_pool1d nn.adaptive_max_pool2d nn.adaptive_max_pool3d
        nn.avg_pool1d nn.avg_pool2d nn.avg_pool2d_grad nn.avg_pool3d nn.batch_matmul nn.batch_norm
        nn.bitserial_conv2d nn.bitserial_dense nn.contrib_conv2d_NCHWc
        nn.contrib_conv2d_gemm_weight_transform nn.contrib_conv2d_gemm_without_weight_transform
        nn.contrib_conv2d_winograd_weight_transform
        nn.contrib_conv2d_winograd_without_weight_transform
        nn.contrib_conv3d_winograd_weight_transform
        nn.contrib_conv3d_winograd_without_weight_transform nn.contrib_dense_pack
        nn.contrib_depthwise_conv2d_NCHWc nn.conv1d nn.conv1d_transpose nn.conv2d
        nn.conv2d_backward_weight nn.conv2d_transpose nn.conv3d nn.conv3d_transpose nn.correlation
        nn.deformable_conv2d nn.dense nn.fast_softmax nn.global_avg_pool2d nn.global_max_pool2d
        nn.internal.sparse_dense_padded nn.log_softmax nn.matmul nn.max_pool1d nn.max_pool2d
        nn.max_pool2d_grad nn.max_pool3d nn.nll_loss nn.softmax nn.sparse_conv2d nn.sparse_dense
        nn.sparse_transpose one_hot qnn.avg_pool2d qnn.batch_matmul qnn.contrib_dense_pack
        qnn.conv2d qnn.dense vision.roi_align vision.roi_pool
    """,  # OUT_ELEMWISE_FUSABLE
    8: """
        annotation.bitpack_end annotation.bitpack_start annotation.cast_hint annotation.checkpoint
        annotation.compiler_begin annotation.compiler_end annotation.stop_fusion arange argsort
        argwhere call_lowered cumprod cumsum debug device_copy dft dyn.sparse_to_dense dyn.topk
        memory.alloc_storage memory.alloc_tensor memory.kill
        nn.contrib_conv2d_winograd_nnpack_weight_transform nn.cross_entropy
        nn.cross_entropy_with_logits nn.dropout nn.fifo_buffer nn.lrn nn.sparse_add on_device
        random.multinomial random.normal random.threefry_generate random.threefry_split
        random.uniform scatter_elements scatter_nd searchsorted shape_of sliding_window sort
        sparse_fill_empty_rows sparse_to_dense stft topk unique vision.all_class_non_max_suppression
        vision.get_valid_counts vision.multibox_prior vision.multibox_transform_loc
        vision.non_max_suppression vision.proposal vision.regular_non_max_suppression
        vm.invoke_tvm_op vm.reshape_tensor vm.shape_of
    """,  # OPAQUE
}


for _kind, _names in _TVM_OP_PATTERNS.items():
    for _name in _names.split():
        register_op_attr(_name, "TOpPattern", _kind)


def annotate_function(op_name: str, target: str) -> Optional[Callable[..., Any]]:
    """The ``"target.<target>"`` attribute of ``op_name`` (None if it has none)."""
    return get_op_attr(op_name, "target." + target)
