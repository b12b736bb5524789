//===- RelayTransformOps.td - shape transforms -------------*- tablegen -*-===//
#ifndef RELAY_TRANSFORM_OPS_TD
#define RELAY_TRANSFORM_OPS_TD

include "relay/RelayOpBase.td"
include "relay/RelayAttrConstraints.td"

def Relay_ReshapeOp : Relay_Operator<"reshape"> {
  let typeRule = "inferReshape(site, adaptor.getData().getType(), "
                 "adaptor.getNewshape(), adaptor.getAllowzero())";
  let summary = "reshape with Relay's `newshape` codes";
  let description = [{
    `0` copies the input dim (a literal 0 with `allowzero`), `-1` infers
    one dim, `-2` copies the rest, `-3` merges two dims, `-4` splits one dim
    into the next two values.

    ```mlir
    %y = relay.reshape %x {newshape = array<i64: 0, -1>} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DenseI64ArrayAttr:$newshape,
                       DefaultValuedAttr<BoolAttr, "false">:$allowzero);
}

def Relay_TransposeOp : Relay_Operator<"transpose"> {
  let typeRule = "inferTranspose(site, adaptor.getData().getType(), "
                 "adaptor.getAxes())";
  let summary = "permutes dims (`axes` empty = reverse)";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       OptionalAttr<DenseI64ArrayAttr>:$axes);
}

def Relay_ConcatenateOp : Relay_Operator<"concatenate"> {
  let typeRule = "inferConcatenate(site, adaptor.getData().getTypes(), "
                 "adaptor.getAxis())";
  let summary = "joins tensors along `axis`";
  let description = [{
    Relay passes the inputs as one tuple; here they are the operands.

    ```mlir
    %y = relay.concatenate %a, %b {axis = 1 : i64} : (tensor<1x2xf32>, tensor<1x3xf32>) -> tensor<1x5xf32>
    ```
  }];
  let arguments = (ins Variadic<Relay_AnyTensorOrIncomplete>:$data,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
}

//===----------------------------------------------------------------------===//
// Shape transforms (Relay's python/tvm/relay/op/transform.py)
//===----------------------------------------------------------------------===//

def Relay_ReshapeLikeOp : Relay_Operator<"reshape_like"> {
  let typeRule = "inferReshapeLike(site, adaptor.getData().getType(), "
                 "adaptor.getShapeLike().getType(), adaptor.getLhsBegin(), "
                 "adaptor.getLhsEnd(), adaptor.getRhsBegin(), "
                 "adaptor.getRhsEnd())";
  let summary = "reshapes dims [lhs_begin, lhs_end) of data to dims [rhs_begin, rhs_end) of shape_like";
  let description = [{
    `lhs_end`/`rhs_end` absent mean the rank; negative values count from
    the end.

    ```mlir
    %y = relay.reshape_like %x, %s {lhs_begin = 1 : i64, rhs_end = 3 : i64} : (tensor<1x2x3x4xf32>, tensor<6x2x2x3xf32>) -> tensor<1x6x2x2xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$shape_like,
                       DefaultValuedAttr<I64Attr, "0">:$lhs_begin,
                       OptionalAttr<I64Attr>:$lhs_end,
                       DefaultValuedAttr<I64Attr, "0">:$rhs_begin,
                       OptionalAttr<I64Attr>:$rhs_end);
}

def Relay_SqueezeOp : Relay_Operator<"squeeze"> {
  let typeRule = "inferSqueeze(site, adaptor.getData().getType(), "
                 "adaptor.getAxis())";
  let summary = "removes size-1 dims (`axis` absent: every static 1)";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       OptionalAttr<DenseI64ArrayAttr>:$axis);
}

def Relay_ExpandDimsOp : Relay_Operator<"expand_dims"> {
  let typeRule = "inferExpandDims(site, adaptor.getData().getType(), "
                 "adaptor.getAxis(), adaptor.getNumNewaxis())";
  let summary = "inserts `num_newaxis` unit dims at `axis` (in [-rank-1, rank])";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       I64Attr:$axis,
                       DefaultValuedAttr<I64Attr, "1">:$num_newaxis);
}

def Relay_StackOp : Relay_Operator<"stack"> {
  let typeRule = "inferStack(site, adaptor.getData().getTypes(), "
                 "adaptor.getAxis())";
  let summary = "joins same-shaped tensors along a new `axis`";
  let description = [{
    Relay passes the inputs as one tuple; here they are the operands.

    ```mlir
    %y = relay.stack %a, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2x3xf32>
    ```
  }];
  let arguments = (ins Variadic<Relay_AnyTensorOrIncomplete>:$data,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
}

def Relay_SplitOp : Relay_Operator<"split"> {
  let typeRule = "inferSplit(site, adaptor.getData().getType(), "
                 "splitIndicesOrSections(adaptor.getIndicesOrSections()), "
                 "adaptor.getAxis())";
  let summary = "splits along `axis` into a tuple";
  let description = [{
    `indices_or_sections` is an integer (that many equal sections) or an
    array of ascending split indices (one more piece than indices).

    ```mlir
    %t = relay.split %x {indices_or_sections = 2 : i64, axis = 1 : i64} : (tensor<2x4xf32>) -> tuple<tensor<2x2xf32>, tensor<2x2xf32>>
    %u = relay.split %x {indices_or_sections = array<i64: 1, 3>, axis = 1 : i64} : (tensor<2x4xf32>) -> tuple<tensor<2x1xf32>, tensor<2x2xf32>, tensor<2x1xf32>>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       AnyAttrOf<[I64Attr, DenseI64ArrayAttr]>:$indices_or_sections,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
}

def Relay_StridedSliceOp : Relay_Operator<"strided_slice"> {
  let typeRule = "inferStridedSlice(site, adaptor.getData().getType(), "
                 "adaptor.getBegin(), adaptor.getEnd(), adaptor.getStrides(), "
                 "adaptor.getAxes(), adaptor.getSliceMode())";
  let summary = "numpy-style slice with Relay's clamping";
  let description = [{
    Without `axes`, entry i of `begin`/`end`/`strides` applies to dim i and
    missing entries mean the whole dim (stride 1); with `axes`, entry i
    applies to dim `axes[i]`. Negative indices count from the end; indices
    are clamped to the dim. `slice_mode = "size"`: `end` holds sizes (-1 =
    to the end) and strides are 1.

    ```mlir
    %y = relay.strided_slice %x {begin = array<i64: 0, 1>, end = array<i64: 2, 4>} : (tensor<3x4xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DenseI64ArrayAttr:$begin,
                       DenseI64ArrayAttr:$end,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$axes,
                       DefaultValuedAttr<Relay_SliceModeAttr, "\"end\"">:$slice_mode);
}

def Relay_StridedSetOp : Relay_Operator<"strided_set"> {
  let typeRule = "inferStridedSet(site, adaptor.getData().getType(), "
                 "adaptor.getV().getType(), adaptor.getBegin().getType(), "
                 "adaptor.getEnd().getType(), adaptor.getStrides().getType())";
  let summary = "`data` with the strided slice [begin:end:strides] replaced by `v`";
  let description = [{
    `begin` and `end` are 1-d integer tensors of one static length k (at
    most the rank), `strides` has k entries or one (as in TVM, for dim 0:
    the others take 1); entry i applies to dim i and dims k.. are whole.
    The slice follows
    `relay.strided_slice` (negative indices count from the end, all are
    clamped to the dim); `v` must have the slice's shape (checked at run
    time where a size is `?`); a stride of 0 is a run-time error. The
    result has `data`'s type. With constant positive strides the lowering
    is a `tensor.insert_slice` (IREE updates it in place when `data` is not
    used again).

    ```mlir
    %y = relay.strided_set %x, %v, %b, %e, %s : (tensor<4x3xf32>, tensor<1x3xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$v,
                       Relay_AnyTensorOrIncomplete:$begin,
                       Relay_AnyTensorOrIncomplete:$end,
                       Relay_AnyTensorOrIncomplete:$strides);
}

def Relay_TileOp : Relay_Operator<"tile"> {
  let typeRule = "inferTile(site, adaptor.getData().getType(), "
                 "adaptor.getReps())";
  let summary = "repeats the whole tensor `reps` times per dim (numpy.tile)";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DenseI64ArrayAttr:$reps);
}

def Relay_RepeatOp : Relay_Operator<"repeat"> {
  let typeRule = "inferRepeat(site, adaptor.getData().getType(), "
                 "adaptor.getRepeats(), adaptor.getAxis())";
  let summary = "repeats each element `repeats` times along `axis`";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       I64Attr:$repeats,
                       I64Attr:$axis);
}

def Relay_ReverseOp : Relay_Operator<"reverse", [Relay_AxisOfData]> {
  let typeRule = "inferAxisIdentity(site, adaptor.getData().getType(), "
                 "adaptor.getAxis())";
  let summary = "reverses the order of elements along `axis`";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data, I64Attr:$axis);
}

def Relay_BroadcastToOp : Relay_Operator<"broadcast_to"> {
  let typeRule = "inferBroadcastTo(site, adaptor.getData().getType(), "
                 "adaptor.getShape())";
  let summary = "numpy-broadcasts data to `shape`";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DenseI64ArrayAttr:$shape);
}

def Relay_BroadcastToLikeOp
    : Relay_Operator<"broadcast_to_like"> {
  let typeRule = "inferBroadcastToLike(site, adaptor.getData().getType(), "
                 "adaptor.getBroadcastType().getType())";
  let summary = "numpy-broadcasts data to the shape of `broadcast_type`";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$broadcast_type);
}

def Relay_CollapseSumLikeOp
    : Relay_Operator<"collapse_sum_like"> {
  let typeRule = "inferCollapseSumLike(site, adaptor.getData().getType(), "
                 "adaptor.getCollapseType().getType())";
  let summary = "sums data down to the shape of `collapse_type` (the inverse of broadcasting)";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$collapse_type);
}

def Relay_ZerosOp : Relay_Operator<"zeros"> {
  let typeRule = "inferZeros(site, adaptor.getShape(), adaptor.getDtype())";
  let summary = "a tensor of zeros of `shape` and `dtype`";
  let description = [{
    ```mlir
    %z = relay.zeros {shape = array<i64: 2, 3>, dtype = f32} : () -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins DenseI64ArrayAttr:$shape, TypeAttr:$dtype);
}

def Relay_OnesOp : Relay_Operator<"ones"> {
  let typeRule = "inferZeros(site, adaptor.getShape(), adaptor.getDtype())";
  let summary = "a tensor of ones of `shape` and `dtype`";
  let arguments = (ins DenseI64ArrayAttr:$shape, TypeAttr:$dtype);
}

def Relay_FullOp : Relay_Operator<"full"> {
  let typeRule = "inferFull(site, adaptor.getFillValue().getType(), "
                 "adaptor.getShape(), adaptor.getDtype())";
  let summary = "a tensor of `shape` filled with the 0-d `fill_value`";
  let description = [{
    `dtype` absent means the dtype of `fill_value`; otherwise the value is
    cast to `dtype`.
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$fill_value,
                       DenseI64ArrayAttr:$shape,
                       OptionalAttr<TypeAttr>:$dtype);
}

def Relay_ZerosLikeOp : Relay_UnaryOp<"zeros_like"> {
  let summary = "zeros of the shape and dtype of data";
}

def Relay_OnesLikeOp : Relay_UnaryOp<"ones_like"> {
  let summary = "ones of the shape and dtype of data";
}

def Relay_FullLikeOp : Relay_Operator<"full_like"> {
  let typeRule = "inferFullLike(site, adaptor.getData().getType(), "
                 "adaptor.getFillValue().getType())";
  let summary = "the 0-d `fill_value` (cast to data's dtype) in data's shape";
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$fill_value);
}

def Relay_ArangeOp : Relay_Operator<"arange"> {
  let typeRule = "inferArange(site, adaptor.getStart().getType(), "
                 "adaptor.getStop().getType(), adaptor.getStep().getType(), "
                 "adaptor.getDtype(), "
                 "constantArangeBounds(adaptor.getStart(), adaptor.getStop(), "
                 "adaptor.getStep()))";
  let summary = "evenly spaced values in [start, stop) by step";
  let description = [{
    `start`, `stop` and `step` are 0-d tensors of `dtype`. When all three
    are `relay.constant`s the length ceil((stop - start) / step) is static,
    otherwise it is `?`.

    ```mlir
    %r = relay.arange %start, %stop, %step {dtype = f32} : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<5xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$start,
                       Relay_AnyTensorOrIncomplete:$stop,
                       Relay_AnyTensorOrIncomplete:$step,
                       TypeAttr:$dtype);
}

def Relay_LayoutTransformOp
    : Relay_Operator<"layout_transform"> {
  let typeRule = "inferLayoutTransform(site, adaptor.getData().getType(), "
                 "adaptor.getSrcLayout(), adaptor.getDstLayout())";
  let summary = "converts between layouts such as NCHW, NHWC and NCHW16c";
  let description = [{
    Upper-case letters are whole (primal) axes, a number and a lower-case
    letter (`16c`) an inner block of that axis, as in Relay.

    ```mlir
    %y = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW4c"} : (tensor<1x8x2x2xf32>) -> tensor<1x2x2x2x4xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       StrAttr:$src_layout,
                       StrAttr:$dst_layout);
}

def Relay_EinsumOp : Relay_Operator<"einsum"> {
  let typeRule = "inferEinsum(site, adaptor.getData().getTypes(), "
                 "adaptor.getEquation())";
  let summary = "Einstein summation (numpy.einsum equations, with `...`)";
  let description = [{
    Relay passes the inputs as one tuple; here they are the operands.

    ```mlir
    %y = relay.einsum %a, %b {equation = "bij,bjk->bik"} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
    ```
  }];
  let arguments = (ins Variadic<Relay_AnyTensorOrIncomplete>:$data,
                       StrAttr:$equation);
}

//===----------------------------------------------------------------------===//
// TVM 0.19's masks, diagonals, grids and index maps (transform.py)
//===----------------------------------------------------------------------===//

def Relay_TriluOp : Relay_Operator<"trilu"> {
  let typeRule = "inferTrilu(site, adaptor.getData().getType(), "
                 "adaptor.getK().getType())";
  let summary = "keeps the upper (or lower) triangle of the last two dims";
  let description = [{
    `k` is a 0-d integer tensor: the diagonal offset. With `upper` the
    elements `data[..., i, j]` with `j - i >= k` are kept, else those with
    `j - i <= k`; the others become 0.

    ```mlir
    %y = relay.trilu %x, %k {upper = false} : (tensor<2x3x4xf32>, tensor<i32>) -> tensor<2x3x4xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$k,
                       DefaultValuedAttr<BoolAttr, "true">:$upper);
}

def Relay_SequenceMaskOp : Relay_Operator<"sequence_mask"> {
  let typeRule = "inferSequenceMask(site, adaptor.getData().getType(), "
                 "adaptor.getValidLength().getType(), adaptor.getAxis())";
  let summary = "replaces the steps past each sequence's length by `mask_value`";
  let description = [{
    `axis` (0 or 1) is the time axis, the other of the first two dims the
    batch; `valid_length` is a 1-D integer tensor with one length per batch
    entry.

    ```mlir
    %y = relay.sequence_mask %x, %l {mask_value = -1.0 : f64} : (tensor<5x2x3xf32>, tensor<2xi32>) -> tensor<5x2x3xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$valid_length,
                       DefaultValuedAttr<F64Attr, "0.0">:$mask_value,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
}

def Relay_ReverseSequenceOp : Relay_Operator<"reverse_sequence"> {
  let typeRule = "inferReverseSequence(site, adaptor.getData().getType(), "
                 "adaptor.getSeqLengths().getType(), adaptor.getSeqAxis(), "
                 "adaptor.getBatchAxis())";
  let summary = "reverses the first `seq_lengths[b]` steps of each batch entry";
  let description = [{
    Along `seq_axis`, for each index `b` of `batch_axis`; `seq_lengths` is
    a 1-D integer tensor of the batch size. Lengths above the dim reverse
    the whole dim, lengths below 1 nothing.

    ```mlir
    %y = relay.reverse_sequence %x, %l : (tensor<2x5xf32>, tensor<2xi64>) -> tensor<2x5xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$seq_lengths,
                       DefaultValuedAttr<I64Attr, "1">:$seq_axis,
                       DefaultValuedAttr<I64Attr, "0">:$batch_axis);
}

def Relay_MeshgridOp : Relay_Operator<"meshgrid"> {
  let typeRule = "inferMeshgrid(site, adaptor.getData().getTypes(), "
                 "adaptor.getIndexing())";
  let summary = "coordinate grids of 0-d or 1-D tensors (a tuple, numpy.meshgrid)";
  let description = [{
    Relay passes the inputs as one tuple; here they are the operands. Each
    result has the lengths of all inputs as dims (`xy`: the first two
    swapped).

    ```mlir
    %t = relay.meshgrid %a, %b {indexing = "xy"} : (tensor<3xf32>, tensor<4xf32>) -> tuple<tensor<4x3xf32>, tensor<4x3xf32>>
    ```
  }];
  let arguments = (ins Variadic<Relay_AnyTensorOrIncomplete>:$data,
                       DefaultValuedAttr<Relay_MeshgridIndexingAttr, "\"ij\"">:$indexing);
}

def Relay_UnravelIndexOp : Relay_Operator<"unravel_index"> {
  let typeRule = "inferUnravelIndex(site, adaptor.getIndices().getType(), "
                 "adaptor.getShape().getType())";
  let summary = "flat indices into coordinates of the 1-D `shape` (numpy.unravel_index)";
  let description = [{
    `indices` is 0-d or 1-D, `shape` 1-D, both integers of one dtype; the
    result is `[len(shape)]` or `[len(shape), len(indices)]`. Indices are
    taken modulo the number of elements, as Relay's.

    ```mlir
    %y = relay.unravel_index %i, %s : (tensor<5xi32>, tensor<3xi32>) -> tensor<3x5xi32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$indices,
                       Relay_AnyTensorOrIncomplete:$shape);
}

def Relay_InvertPermutationOp : Relay_Operator<"invert_permutation"> {
  let typeRule = "inferInvertPermutation(site, adaptor.getData().getType())";
  let summary = "the inverse of a permutation: `y[x[i]] = i`";
  let description = [{
    `data` is a 1-D integer tensor holding a permutation of `0 .. n-1`.

    ```mlir
    %y = relay.invert_permutation %p : (tensor<4xi32>) -> tensor<4xi32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data);
}

def Relay_MatrixSetDiagOp : Relay_Operator<"matrix_set_diag"> {
  let typeRule = "inferMatrixSetDiag(site, adaptor.getData().getType(), "
                 "adaptor.getDiagonal().getType(), adaptor.getK1(), "
                 "adaptor.getK2())";
  let summary = "writes the diagonals `k1 .. k2` of the last two dims";
  let description = [{
    Relay's MatrixSetDiagAttrs (the builder's `k`, `align`). With one
    diagonal (`k1 == k2`) `diagonal` is `batch + [len]`, else
    `batch + [k2 - k1 + 1, max_len]`, the diagonals from `k2` down, each
    aligned right or left (`super_diag_right_align` above the main
    diagonal, `sub_diag_right_align` below), as TensorFlow's
    MatrixSetDiagV3.

    ```mlir
    %y = relay.matrix_set_diag %x, %d {k1 = -1 : i64, k2 = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x3x3xf32>) -> tensor<2x3x4xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       Relay_AnyTensorOrIncomplete:$diagonal,
                       DefaultValuedAttr<I64Attr, "0">:$k1,
                       DefaultValuedAttr<I64Attr, "0">:$k2,
                       DefaultValuedAttr<BoolAttr, "true">:$super_diag_right_align,
                       DefaultValuedAttr<BoolAttr, "false">:$sub_diag_right_align);
}

def Relay_CollapseSumToOp : Relay_Operator<"collapse_sum_to"> {
  let typeRule = "inferCollapseSumTo(site, adaptor.getData().getType(), "
                 "adaptor.getShape())";
  let summary = "sums data down to `shape` (the inverse of broadcasting)";
  let description = [{
    `collapse_sum_like` with the target shape as an attribute (Relay
    passes it also as a constant operand, read into `shape`).

    ```mlir
    %y = relay.collapse_sum_to %x {shape = array<i64: 3, 1>} : (tensor<2x3x4xf32>) -> tensor<3x1xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DenseI64ArrayAttr:$shape);
}

def Relay_ReverseReshapeOp : Relay_Operator<"contrib_reverse_reshape"> {
  let typeRule = "inferReverseReshape(site, adaptor.getData().getType(), "
                 "adaptor.getNewshape())";
  let summary = "reshape whose `newshape` codes are read from the right";
  let description = [{
    `reshape` of the reversed shape by the reversed `newshape`, reversed
    (Relay's `reverse_reshape`): `0` copies the dim at the same position
    from the end.

    ```mlir
    %y = relay.contrib_reverse_reshape %x {newshape = array<i64: -1, 0>} : (tensor<10x5x4xf32>) -> tensor<50x4xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       DenseI64ArrayAttr:$newshape);
}

def Relay_SlidingWindowOp : Relay_Operator<"sliding_window"> {
  let typeRule = "inferSlidingWindow(site, adaptor.getData().getType(), "
                 "adaptor.getAxis(), adaptor.getWindowShape(), "
                 "adaptor.getStrides())";
  let summary = "the windows of `window_shape` over the dims from `axis` on";
  let description = [{
    One window size and stride per dim from `axis`: the result is
    `data.shape[:axis] + [(d - w) / s + 1 ...] + window_shape`.

    ```mlir
    %y = relay.sliding_window %x {axis = 1 : i64, window_shape = array<i64: 3, 2>, strides = array<i64: 2, 1>} : (tensor<2x6x7xf32>) -> tensor<2x2x6x3x2xf32>
    ```
  }];
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data,
                       I64Attr:$axis,
                       DenseI64ArrayAttr:$window_shape,
                       DenseI64ArrayAttr:$strides);
}

#endif // RELAY_TRANSFORM_OPS_TD
