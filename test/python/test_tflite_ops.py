"""TFLite operators one by one (issue 33 §3): single-operator models built here as
flatbuffers (with the ``tflite`` package's builder functions), run by the TFLite
interpreter's reference kernels (ai-edge-litert) and by relay-mlir's reference
interpreter — integer results bit-exact over every int8/uint8 input value, float
within 1e-4 — and malformed models whose errors must name the operator and tensor.
Operators the committed models of test_tflite.py do not contain are here.
"""
from __future__ import annotations

import numpy as np
import pytest
from ai_edge_litert.interpreter import Interpreter, OpResolverType
from test_tflite import _check, _run

import relay_mlir as relay
from relay_mlir.frontend import UnsupportedError
from relay_mlir.frontend import tflite as T
from relay_mlir.frontend.common import ImportError_

INT8, UINT8, FLOAT32 = 9, 3, 0
_SINGLE_OPS = [  # (opcode, [(name, type, shape, qparams)], inputs): operators the test models lack
    ("QUANTIZE", [("x", INT8, [2, 8, 8], ([0.05], [3])), ("y", UINT8, [2, 8, 8], ([0.037], [120]))], 1),
    ("QUANTIZE", [("x", FLOAT32, [2, 8, 8], None), ("y", INT8, [2, 8, 8], ([0.01], [-5]))], 1),
    ("DEQUANTIZE", [("x", UINT8, [2, 8, 8], ([0.02], [130])), ("y", FLOAT32, [2, 8, 8], None)], 1),
    ("RELU", [("x", INT8, [2, 8, 8], ([0.05], [3])), ("y", INT8, [2, 8, 8], ([0.03], [-128]))], 1),
    ("RELU6", [("x", UINT8, [2, 8, 8], ([0.05], [128])), ("y", UINT8, [2, 8, 8], ([0.05], [128]))], 1),
    ("SQUEEZE", [("x", INT8, [2, 1, 8], ([0.05], [3])), ("y", INT8, [2, 8], ([0.05], [3]))], 1),
    ("SUB", [("a", INT8, [2, 8, 8], ([0.05], [3])), ("b", INT8, [2, 8, 8], ([0.02], [-7])),
             ("y", INT8, [2, 8, 8], ([0.06], [1]))], 2),
    ("ADD", [("a", UINT8, [2, 8, 8], ([0.013], [100])), ("b", UINT8, [2, 8, 8], ([0.07], [140])),
             ("y", UINT8, [2, 8, 8], ([0.05], [128]))], 2),
    ("MUL", [("a", INT8, [2, 8, 8], ([0.05], [3])), ("b", INT8, [2, 8, 8], ([0.02], [-7])),
             ("y", INT8, [2, 8, 8], ([0.011], [2]))], 2),
    ("LOGISTIC", [("x", INT8, [2, 8, 16], ([0.06], [5])), ("y", INT8, [2, 8, 16], ([1 / 256], [-128]))], 1),
    ("TANH", [("x", INT8, [2, 8, 16], ([0.03], [-4])), ("y", INT8, [2, 8, 16], ([1 / 128], [0]))], 1),
    ("HARD_SWISH", [("x", INT8, [2, 8, 16], ([0.05], [10])), ("y", INT8, [2, 8, 16], ([0.03], [-90]))], 1),
    ("HARD_SWISH", [("x", UINT8, [2, 8, 16], ([0.005], [128])), ("y", UINT8, [2, 8, 16], ([0.004], [60]))], 1),
    ("MAXIMUM", [("a", INT8, [2, 8, 16], ([0.05], [3])), ("b", INT8, [2, 8, 16], ([0.05], [3])),
                 ("y", INT8, [2, 8, 16], ([0.05], [3]))], 2),
] + [(op, [("x", FLOAT32, [3, 17], None), ("y", FLOAT32, [3, 17], None)], 1)
     for op in ("EXP", "LOG", "SQRT", "RSQRT", "ABS", "NEG", "FLOOR", "SQUARE")] + [
    (op, [("a", FLOAT32, [3, 17], None), ("b", FLOAT32, [1, 17], None), ("y", FLOAT32, [3, 17], None)], 2)
    for op in ("MAXIMUM", "MINIMUM", "DIV", "POW", "SQUARED_DIFFERENCE")]
INT32 = 2
_SINGLE_OPS += [
    ("SLICE", [("x", INT8, [4, 6, 5], ([0.05], [3])), ("begin", INT32, [3], None, np.array([1, 0, 2], "int32")),
               ("size", INT32, [3], None, np.array([2, -1, 3], "int32")), ("y", INT8, [2, 6, 3], ([0.05], [3]))], 3),
    ("TILE", [("x", FLOAT32, [2, 3], None), ("m", INT32, [2], None, np.array([2, 3], "int32")),
              ("y", FLOAT32, [4, 9], None)], 2),
    ("GATHER", [("x", UINT8, [5, 4], ([0.05], [3])), ("i", INT32, [3], None, np.array([4, 0, 2], "int32")),
                ("y", UINT8, [3, 4], ([0.05], [3]))], 2),
    ("CAST", [("x", FLOAT32, [4, 9], None), ("y", INT32, [4, 9], None)], 1),
]
_POSITIVE = ("LOG", "SQRT", "RSQRT", "POW", "DIV")  # float inputs in [0.05, 2] (else [-2, 2])


_SINGLE_OPS_WITH_OPTIONS = [
    ("SOFTMAX", [("x", INT8, [4, 64], ([0.1], [4])), ("y", INT8, [4, 64], ([1 / 256], [-128]))], 1,
     ("SoftmaxOptions", {"Beta": 1.0})),
    ("SOFTMAX", [("x", UINT8, [4, 64], ([0.03], [120])), ("y", UINT8, [4, 64], ([1 / 256], [0]))], 1,
     ("SoftmaxOptions", {"Beta": 0.7})),
    ("LEAKY_RELU", [("x", UINT8, [2, 8, 16], ([0.02], [100])), ("y", UINT8, [2, 8, 16], ([0.015], [70]))], 1,
     ("LeakyReluOptions", {"Alpha": 0.3})),
    ("CONCATENATION", [("a", INT8, [2, 8, 8], ([0.05], [3])), ("b", INT8, [2, 8, 8], ([0.05], [3])),
                       ("y", INT8, [2, 16, 8], ([0.05], [3]))], 2,  # TFLite wants equal parameters
     ("ConcatenationOptions", {"Axis": 1})),
    ("MUL", [("a", UINT8, [2, 8, 8], ([0.05], [128])), ("b", UINT8, [2, 8, 8], ([0.02], [100])),
             ("y", UINT8, [2, 8, 8], ([0.011], [20]))], 2, ("MulOptions", {"FusedActivationFunction": 3})),
    ("SPLIT", [("axis", INT32, [], None, np.array(1, "int32")), ("x", INT8, [2, 6, 4], ([0.05], [3])),
               ("y0", INT8, [2, 2, 4], ([0.05], [3])), ("y1", INT8, [2, 2, 4], ([0.05], [3])),
               ("y2", INT8, [2, 2, 4], ([0.05], [3]))], 2, ("SplitOptions", {"NumSplits": 3})),
    ("PACK", [("a", FLOAT32, [3, 4], None), ("b", FLOAT32, [3, 4], None), ("y", FLOAT32, [3, 2, 4], None)], 2,
     ("PackOptions", {"ValuesCount": 2, "Axis": 1})),
    ("ARG_MAX", [("x", INT8, [3, 7, 5], ([0.05], [3])), ("axis", INT32, [1], None, np.array([1], "int32")),
                 ("y", INT32, [3, 5], None)], 2, ("ArgMaxOptions", {"OutputType": 2})),
    ("SUM", [("x", FLOAT32, [3, 7, 5], None), ("axis", INT32, [2], None, np.array([0, 2], "int32")),
             ("y", FLOAT32, [1, 7, 1], None)], 2, ("ReducerOptions", {"KeepDims": True})),
    ("REDUCE_MAX", [("x", INT8, [3, 7, 5], ([0.05], [3])), ("axis", INT32, [1], None, np.array([-1], "int32")),
                    ("y", INT8, [3, 7], ([0.05], [3]))], 2, ("ReducerOptions", {"KeepDims": False})),
    ("GATHER", [("x", FLOAT32, [5, 4], None), ("i", INT32, [2, 3], None, np.array([[1, 3, 0], [3, 2, 2]], "int32")),
                ("y", FLOAT32, [5, 2, 3], None)], 2, ("GatherOptions", {"Axis": 1})),
] + [(op, [("x", ty, [1, 5, 7, 3], qp), ("size", INT32, [2], None, np.array(size, "int32")),
           ("y", ty, [1] + size + [3], qp)], 2, (kind, flags))
     for op, kind, ty, qp in (("RESIZE_BILINEAR", "ResizeBilinearOptions", FLOAT32, None),
                              ("RESIZE_NEAREST_NEIGHBOR", "ResizeNearestNeighborOptions", INT8, ([0.05], [3])))
     for size in ([9, 4], [10, 14])
     for flags in ({}, {"AlignCorners": True}, {"HalfPixelCenters": True})]


@pytest.mark.parametrize("opcode, tensors, n_inputs, options",
                         [op + (None,) for op in _SINGLE_OPS] + _SINGLE_OPS_WITH_OPTIONS,
                         ids=lambda v: v if isinstance(v, str) else "")
def test_single_operator_equals_reference_kernel(opcode, tensors, n_inputs, options):
    """One operator on every value of its input type (int8/uint8) or on floats spanning
    the output's range, in the reference interpreter, against TFLite's reference kernel."""
    model = _op_model(opcode, tensors, n_inputs, _options(options[0], **options[1]) if options else None)
    it = Interpreter(model_content=model, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    rng = np.random.default_rng(3)
    xs = []
    for d in it.get_input_details():
        if d["dtype"] == np.float32:
            xs.append(rng.uniform(0.05 if opcode in _POSITIVE else -2.0, 2.0, d["shape"]).astype("float32"))
        else:
            info = np.iinfo(d["dtype"])
            xs.append(rng.permutation(np.resize(np.arange(info.min, info.max + 1), d["shape"])).astype(d["dtype"]))
    mod, _ = T.from_tflite(model)
    got = relay.create_executor("debug", mod=mod).evaluate()(*xs)
    _run(it, xs)
    refs = [it.get_tensor(d["index"]) for d in it.get_output_details()]
    for k, (g, ref) in enumerate(zip(got if len(refs) > 1 else [got], refs)):
        _check(g, ref, f"{opcode} output {k}")


def _hybrid_model(opcode: str, x_shape, w, w_scale, options, y_shape, w_zero_point=0, w_type=INT8,
                  x_type=FLOAT32) -> bytes:
    """One hybrid operator: float32 ``x``, constant int8 weights ``w`` (scales ``w_scale``),
    a float32 bias, float32 ``y``."""
    channels = w.shape[-1] if opcode == "DEPTHWISE_CONV_2D" else w.shape[0]
    bias = np.random.default_rng(5).uniform(-0.5, 0.5, channels).astype("float32")
    scales = list(np.atleast_1d(w_scale))
    return _op_model(opcode, [("x", x_type, list(x_shape), None if x_type == FLOAT32 else ([0.01], [0])),
                              ("w", w_type, list(w.shape), (scales, [w_zero_point] * len(scales),
                                                            3 if opcode == "DEPTHWISE_CONV_2D" else 0), w),
                              ("b", FLOAT32, [channels], None, bias),
                              ("y", x_type, list(y_shape), None if x_type == FLOAT32 else ([0.02], [0]))],
                     3, _options(options[0], **options[1]))


_W = np.random.default_rng(4).integers(-127, 128, (24, 3, 3, 3)).astype("int8")
_W_FC = np.random.default_rng(4).integers(-127, 128, (24, 43)).astype("int8")
_HYBRID_SINGLE_OPS = {  # rows / images of 43 and 147 values: TFLite's x86 quantizer rounds
    # the last size % 8 of them with std::round, the others 8 at a time
    "fc_symmetric_per_channel_relu": ("FULLY_CONNECTED", [3, 43], _W_FC,
                                      np.linspace(0.002, 0.01, 24), ("FullyConnectedOptions", {
                                          "AsymmetricQuantizeInputs": False, "FusedActivationFunction": 1}),
                                      [3, 24]),
    "fc_asymmetric_per_tensor": ("FULLY_CONNECTED", [3, 43], _W_FC, 0.004,
                                 ("FullyConnectedOptions", {"AsymmetricQuantizeInputs": True}), [3, 24]),
    "conv_per_channel_dilated": ("CONV_2D", [2, 7, 7, 3], _W, np.linspace(0.002, 0.01, 24),
                                 ("Conv2DOptions", {"Padding": 0, "StrideH": 1, "StrideW": 1,
                                                    "DilationHFactor": 2, "DilationWFactor": 2,
                                                    "FusedActivationFunction": 3}), [2, 7, 7, 24]),
    "conv_per_tensor_strided": ("CONV_2D", [2, 7, 7, 3], _W, 0.004,
                                ("Conv2DOptions", {"Padding": 0, "StrideH": 2, "StrideW": 2,
                                                   "DilationHFactor": 1, "DilationWFactor": 1}), [2, 4, 4, 24]),
    "depthwise_multiplier_valid": ("DEPTHWISE_CONV_2D", [2, 7, 7, 3], _W.reshape(1, 3, 3, 72)[..., :6],
                                   np.linspace(0.002, 0.01, 6),
                                   ("DepthwiseConv2DOptions", {"Padding": 1, "StrideH": 1, "StrideW": 2,
                                                               "DepthMultiplier": 2, "DilationHFactor": 1,
                                                               "DilationWFactor": 1}), [2, 5, 3, 6]),
}


@pytest.mark.parametrize("name", sorted(_HYBRID_SINGLE_OPS))
def test_hybrid_operator_bit_exact(name):
    """Hybrid (float input, int8 weights) variants the converter's models lack — symmetric
    FULLY_CONNECTED inputs (``asymmetric_quantize_inputs`` false: older converters),
    dilation, strides, VALID padding, a channel multiplier — bit-exact with TFLite's
    reference kernels in the reference interpreter."""
    opcode, x_shape, w, scale, options, y_shape = _HYBRID_SINGLE_OPS[name]
    model = _hybrid_model(opcode, x_shape, w, scale, options, y_shape)
    it = Interpreter(model_content=model, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    x = np.random.default_rng(6).uniform(-1.0, 1.0, x_shape).astype("float32")
    x[0] = 0.0  # a zero row / image: scale 1, TFLite's shortcut to the bias
    ref = _run(it, [x])
    got = relay.create_executor("debug", mod=T.from_tflite(model)[0]).evaluate()(x)
    np.testing.assert_array_equal(np.asarray(got), ref)


@pytest.mark.parametrize("w_type, w_scale, zero_point, options, message", [
    (INT8, 0.004, 0, ("DepthwiseConv2DOptions", {"Padding": 1, "StrideH": 1, "StrideW": 1, "DepthMultiplier": 2}),
     r"a hybrid DEPTHWISE_CONV_2D with one weight scale for 6 output channels is not supported"),
    (INT8, [0.004] * 6, 3, ("DepthwiseConv2DOptions", {"Padding": 1, "StrideH": 1, "StrideW": 1,
                                                        "DepthMultiplier": 2}),
     r"hybrid weights with zero point 3 are not supported"),
    (INT8, [0.004, 0.005] * 3, 0, ("DepthwiseConv2DOptions", {"Padding": 1, "StrideH": 1, "StrideW": 1,
                                                                "DepthMultiplier": 2, "FusedActivationFunction": 4}),
     r"fused activation TANH on a hybrid DEPTHWISE_CONV_2D is not supported"),
    (UINT8, [0.004] * 6, 0, ("DepthwiseConv2DOptions", {"Padding": 1, "StrideH": 1, "StrideW": 1,
                                                         "DepthMultiplier": 2}),
     r"float32 input with uint8 weights is not supported \(hybrid kernels with int8 weights only\)"),
])
def test_refused_hybrid_variants_are_located_errors(w_type, w_scale, zero_point, options, message):
    """Per-tensor hybrid depthwise weights (TFLite's kernel reads one scale per channel past
    the single one: undefined), weights with a zero point (TFLite ignores it), activations
    TFLite's hybrid convolutions do not apply (TANH), uint8 weights."""
    w = _W.reshape(1, 3, 3, 72)[..., :6]
    model = _hybrid_model("DEPTHWISE_CONV_2D", [1, 5, 5, 3], w.astype("uint8") if w_type == UINT8 else w,
                          w_scale, options, [1, 3, 3, 6], w_zero_point=zero_point, w_type=w_type)
    with pytest.raises(UnsupportedError, match=r"TFLite operator #0 \(DEPTHWISE_CONV_2D, tensor '[wy]'\): " + message):
        T.from_tflite(model)


@pytest.mark.parametrize("opcode, options, message", [
    ("DEPTHWISE_CONV_2D", ("DepthwiseConv2DOptions", {"Padding": 1, "StrideH": 1, "StrideW": 1, "DepthMultiplier": 2}),
     r"16x8 quantization \(int16 activations, int8 weights\) of DEPTHWISE_CONV_2D is not supported"),
    ("FULLY_CONNECTED", ("FullyConnectedOptions", {}),  # no quantized_bias_type: TFLite reads int64
     r"a 16x8 bias \(input 2\) must be an int64 constant of 24 elements .*got int32"),
])
def test_refused_16x8_variants_are_located_errors(opcode, options, message):
    """int16 activations with int8 weights: DEPTHWISE_CONV_2D is refused by name, and an
    int32 bias that the options do not declare (TFLite would read it as int64)."""
    w = _W.reshape(1, 3, 3, 72)[..., :6] if opcode == "DEPTHWISE_CONV_2D" else _W_FC
    x_shape, y_shape = ([1, 5, 5, 3], [1, 3, 3, 6]) if opcode == "DEPTHWISE_CONV_2D" else ([3, 43], [3, 24])
    model = _hybrid_model(opcode, x_shape, w, 0.004, options, y_shape, x_type=7)
    if opcode == "FULLY_CONNECTED":  # an int32 bias
        model = _op_model(opcode, [("x", 7, x_shape, ([0.01], [0])), ("w", INT8, list(w.shape), ([0.004], [0]), w),
                                   ("b", INT32, [24], ([0.00004], [0]), np.arange(24, dtype="int32")),
                                   ("y", 7, y_shape, ([0.02], [0]))], 3, _options(options[0], **options[1]))
    with pytest.raises((UnsupportedError, ImportError_), match=rf"TFLite operator #0 \({opcode}, tensor '[wb]'\): "
                                                               + message):
        T.from_tflite(model)


def test_quantized_tensor_without_parameters_is_an_error():
    """An int8 ADD whose tensors carry no scale / zero point: the error names the operator,
    its opcode and the tensor (never integer arithmetic on the raw values)."""
    with pytest.raises(ImportError_, match=r"TFLite operator #0 \(ADD, tensor 'y'\): output 0 \(tensor 'y', "
                                           r"int8\) has no quantization parameters"):
        T.from_tflite(_single_op_model("ADD", 9, quantized=False))


@pytest.mark.parametrize("scale, zero_point, message", [
    ([0.0], [1], r"tensor 'a' has scale 0; scales must be positive and finite"),
    ([float("nan")], [1], r"tensor 'a' has scale nan"),
    ([0.5], [200], r"tensor 'a' \(int8\) has zero point 200, outside int8's range \[-128, 127\]"),
    ([0.5, 0.5, 0.5], [0], r"tensor 'a' of shape \[1, 2, 2\] has 3 per-channel scales along dimension 0"),
])
def test_bad_quantization_parameters_are_located_errors(scale, zero_point, message):
    with pytest.raises(ImportError_, match=r"TFLite operator #0 \(ADD, tensor 'a'\): " + message):
        T.from_tflite(_single_op_model("ADD", 9, quantized=True, scale=scale, zero_point=zero_point))

def test_int16_add_is_refused():
    with pytest.raises(UnsupportedError, match=r"operator #0 \(ADD, tensor 'a'\): input 0 is int16 and the output "
                                               r"int16; int8 or uint8"):
        T.from_tflite(_single_op_model("ADD", 7, quantized=True))


def _single_op_model(opcode: str, ttype: int, quantized: bool, scale=(0.5,), zero_point=(1,)) -> bytes:
    """``y = opcode(a, b)`` on [1, 2, 2] tensors of TFLite type ``ttype`` (with ``scale`` /
    ``zero_point`` on all three when ``quantized``)."""
    q = (list(scale), list(zero_point)) if quantized else None
    return _op_model(opcode, [("a", ttype, [1, 2, 2], q), ("b", ttype, [1, 2, 2], q),
                              ("y", ttype, [1, 2, 2], q)], n_inputs=2)


def _options(kind: str, **fields):
    """``options`` for :func:`_op_model`: the ``tflite`` package's ``<kind>`` table with
    ``fields`` (``Beta=0.5`` calls ``SoftmaxOptionsAddBeta``)."""
    import tflite

    def build(b):
        getattr(tflite, f"{kind}Start")(b)
        for name, value in fields.items():
            getattr(tflite, f"{kind}Add{name}")(b, value)
        return getattr(tflite.BuiltinOptions, kind), getattr(tflite, f"{kind}End")(b)
    return build


def _op_model(opcode: str, tensors, n_inputs: int, options=None) -> bytes:
    """A flatbuffer of one builtin operator: ``tensors`` are ``(name, TFLite type, shape,
    (scales, zero points[, quantized dimension]) or None[, constant data])``, the first
    ``n_inputs`` its inputs
    (those without data also the subgraph's), the rest its outputs; ``options`` a
    :func:`_options` builder or None."""
    import flatbuffers
    import tflite
    b = flatbuffers.Builder(1024)

    def vector(start, values, prepend):
        start(b, len(values))
        for v in reversed(values):
            prepend(v)
        return b.EndVector()

    def quant(scale, zero_point, axis=0):
        scales = vector(tflite.QuantizationParametersStartScaleVector, scale, b.PrependFloat32)
        zps = vector(tflite.QuantizationParametersStartZeroPointVector, zero_point, b.PrependInt64)
        tflite.QuantizationParametersStart(b)
        tflite.QuantizationParametersAddScale(b, scales)
        tflite.QuantizationParametersAddZeroPoint(b, zps)
        tflite.QuantizationParametersAddQuantizedDimension(b, axis)
        return tflite.QuantizationParametersEnd(b)

    offsets, datas = [], []
    for name, ttype, dims, qp, *data in tensors:
        q = quant(*qp) if qp is not None else None
        n = b.CreateString(name)
        shape = vector(tflite.TensorStartShapeVector, dims, b.PrependInt32)
        if data:
            datas.append(b.CreateNumpyVector(np.frombuffer(np.ascontiguousarray(data[0]).tobytes(), np.uint8)))
        tflite.TensorStart(b)
        tflite.TensorAddName(b, n)
        tflite.TensorAddShape(b, shape)
        tflite.TensorAddType(b, ttype)
        tflite.TensorAddBuffer(b, len(datas) if data else 0)
        if q is not None:
            tflite.TensorAddQuantization(b, q)
        offsets.append(tflite.TensorEnd(b))
    ins, outs = list(range(n_inputs)), list(range(n_inputs, len(tensors)))
    graph_ins = [i for i in ins if len(tensors[i]) < 5]
    ops_in = vector(tflite.OperatorStartInputsVector, ins, b.PrependInt32)
    ops_out = vector(tflite.OperatorStartOutputsVector, outs, b.PrependInt32)
    opts = options(b) if options is not None else None
    tflite.OperatorStart(b)
    if opts is not None:
        tflite.OperatorAddBuiltinOptionsType(b, opts[0])
        tflite.OperatorAddBuiltinOptions(b, opts[1])
    tflite.OperatorAddOpcodeIndex(b, 0)
    tflite.OperatorAddInputs(b, ops_in)
    tflite.OperatorAddOutputs(b, ops_out)
    op = tflite.OperatorEnd(b)
    sg_tensors = vector(tflite.SubGraphStartTensorsVector, offsets, b.PrependUOffsetTRelative)
    sg_in = vector(tflite.SubGraphStartInputsVector, graph_ins, b.PrependInt32)
    sg_out = vector(tflite.SubGraphStartOutputsVector, outs, b.PrependInt32)
    sg_ops = vector(tflite.SubGraphStartOperatorsVector, [op], b.PrependUOffsetTRelative)
    tflite.SubGraphStart(b)
    tflite.SubGraphAddTensors(b, sg_tensors)
    tflite.SubGraphAddInputs(b, sg_in)
    tflite.SubGraphAddOutputs(b, sg_out)
    tflite.SubGraphAddOperators(b, sg_ops)
    subgraph = tflite.SubGraphEnd(b)
    code = getattr(tflite.BuiltinOperator, opcode)
    tflite.OperatorCodeStart(b)
    tflite.OperatorCodeAddDeprecatedBuiltinCode(b, min(code, 127))
    tflite.OperatorCodeAddBuiltinCode(b, code)
    tflite.OperatorCodeAddVersion(b, 1)
    opcode_t = tflite.OperatorCodeEnd(b)
    buffers_t = []
    for data in [None] + datas:
        tflite.BufferStart(b)
        if data is not None:
            tflite.BufferAddData(b, data)
        buffers_t.append(tflite.BufferEnd(b))
    codes = vector(tflite.ModelStartOperatorCodesVector, [opcode_t], b.PrependUOffsetTRelative)
    subgraphs = vector(tflite.ModelStartSubgraphsVector, [subgraph], b.PrependUOffsetTRelative)
    buffers = vector(tflite.ModelStartBuffersVector, buffers_t, b.PrependUOffsetTRelative)
    tflite.ModelStart(b)
    tflite.ModelAddVersion(b, 3)
    tflite.ModelAddOperatorCodes(b, codes)
    tflite.ModelAddSubgraphs(b, subgraphs)
    tflite.ModelAddBuffers(b, buffers)
    b.Finish(tflite.ModelEnd(b), file_identifier=b"TFL3")
    return bytes(b.Output())
