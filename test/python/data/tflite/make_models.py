"""Makes the small .tflite models of test/python/test_tflite.py (not run by CI).

Run with TensorFlow (2.21 here, in a side venv):
    /work/tfvenv/bin/python test/python/data/tflite/make_models.py
Writes, next to this file, for each network (``cnn``: conv / depthwise conv / pooling / dense /
softmax; ``mbblock``: a MobileNetV2-like inverted residual block with hard-swish, concatenation,
mean, pad and more; ``ops``: transpose, strided slice, squeeze, relu, relu6; ``matmul``:
batch matmul of two inputs, float and int8; ``deconv``: transposed convolutions, float and int8;
``cnn16``: conv and dense for 16x8 quantization;
``dense``, ``mlp``, ``hybrid_cnn``, ``hybrid_convs``: dynamic-range quantization (int8 weights, float activations,
TFLite's hybrid kernels); ``unsupported``: CUMSUM, float only, for the error test):
  <net>_float.tflite   the float32 model
  <net>_int8.tflite    full-integer post-training quantization (int8 in and out, per-channel
                       CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED weights), calibrated on a
                       seeded representative dataset
  <net>_uint8.tflite   the same with uint8 input and output (QUANTIZE ops at both ends)
  cnn_int8_floatio.tflite  int8 inside, float32 input and output (QUANTIZE / DEQUANTIZE)
  cnn_float16.tflite       float16 weights DEQUANTIZE'd to float32
  <net>_dynamic.tflite     dynamic-range quantization (``optimizations=[DEFAULT]`` without a
                           representative dataset): int8 weights (per channel), float32 activations
  hybrid_convs_dynamic_pertensor.tflite  the same with per-tensor weights
  cnn16_int16x8.tflite     16x8 quantization (int16 activations, int8 weights, int64 biases),
                           float32 ends; cnn16_int16x8_bias32.tflite the same with int32 biases
The weights are seeded, so a rerun makes the same networks.
"""
import os

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
L = tf.keras.layers


def cnn() -> tf.keras.Model:
    x = L.Input((16, 16, 3), batch_size=1, name="image")
    y = L.Conv2D(8, 3, strides=2, padding="same", activation="relu")(x)
    y = L.DepthwiseConv2D(3, padding="same", activation="relu6")(y)
    y = L.Conv2D(12, 1, padding="valid")(y)
    y = L.AveragePooling2D(2)(y)
    y = L.MaxPooling2D(2, strides=1, padding="same")(y)
    y = L.Reshape((4 * 4 * 12,))(y)
    y = L.Dense(10)(y)
    y = L.Activation("tanh")(y)
    y = L.Dense(5)(y)
    y = L.Softmax()(y)
    return tf.keras.Model(x, y)


def mbblock() -> tf.keras.Model:
    x = L.Input((8, 8, 8), batch_size=1, name="image")
    y = L.ZeroPadding2D(((1, 0), (0, 1)))(x)
    y = L.Conv2D(16, 2, padding="valid")(y)
    y = L.Activation("hard_swish")(y)
    y = L.DepthwiseConv2D(3, padding="same", depth_multiplier=1)(y)
    y = L.LeakyReLU(0.1)(y)
    y = L.Conv2D(8, 1)(y)
    y = L.Add()([y, x])
    s = L.Activation("sigmoid")(y)
    y = L.Multiply()([y, s])
    z = L.Subtract()([y, x])
    y = L.Concatenate(axis=-1)([y, z])
    g = L.GlobalAveragePooling2D()(y)
    g = L.Dense(16, activation="relu")(g)
    return tf.keras.Model(x, [g])


def ops() -> tf.keras.Model:
    """TRANSPOSE, RELU, STRIDED_SLICE (with shrink_axis_mask), SQUEEZE, RELU6."""
    x = L.Input((6, 4, 4), batch_size=1, name="image")
    y = L.Permute((2, 1, 3))(x)
    y = L.ReLU()(y)
    y = L.Lambda(lambda t: t[:, 1:4, ::2, 1])(y)
    y = L.Reshape((1, 3, 3))(y)
    y = L.Lambda(lambda t: tf.squeeze(t, axis=1))(y)
    y = L.ReLU(max_value=6.0)(y)
    return tf.keras.Model(x, y)


def ops_matmul() -> tf.keras.Model:
    x = L.Input((3, 4), batch_size=2, name="a")
    w = L.Input((4, 5), batch_size=2, name="b")
    return tf.keras.Model([x, w], L.Lambda(lambda t: tf.matmul(t[0], t[1]))([x, w]))


def unsupported() -> tf.keras.Model:
    """CUMSUM, which the importer does not convert (an error test)."""
    x = L.Input((4,), batch_size=1, name="x")
    return tf.keras.Model(x, L.Lambda(lambda t: tf.math.cumsum(t, axis=1))(x))


def deconv() -> tf.keras.Model:
    """TRANSPOSE_CONV with SAME and VALID padding (strides 2)."""
    x = L.Input((5, 6, 4), batch_size=1, name="image")
    y = L.Conv2DTranspose(6, 3, strides=2, padding="same", activation="relu")(x)
    y = L.Conv2DTranspose(3, 2, strides=2, padding="valid")(y)
    return tf.keras.Model(x, y)


def dense() -> tf.keras.Model:
    """FULLY_CONNECTED for dynamic-range quantization (int8 weights, float activations:
    TFLite's hybrid kernel, which the importer refuses; an error test)."""
    x = L.Input((64,), batch_size=1, name="x")
    return tf.keras.Model(x, L.Dense(64)(x))


def mlp() -> tf.keras.Model:
    """Dynamic-range FULLY_CONNECTED (hybrid kernels): a 3-D input (6 rows of 32, each
    quantized on its own at run time), a fused RELU, then TANH; the last layer's 384
    weights stay float (the converter quantizes weights of 1024 elements or more)."""
    x = L.Input((3, 32), batch_size=2, name="x")
    y = L.Dense(32, activation="relu", bias_initializer="random_uniform")(x)
    y = L.Dense(32, activation="tanh", bias_initializer="random_uniform")(y)
    return tf.keras.Model(x, L.Dense(4)(L.Flatten()(y)))


def hybrid_cnn() -> tf.keras.Model:
    """Dynamic-range CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED, batch 2 (each image
    quantized on its own at run time); every weight tensor has at least 1024 elements, the
    converter's threshold for quantizing it; biases random, not zero."""
    b = "random_uniform"
    x = L.Input((6, 6, 16), batch_size=2, name="image")
    y = L.Conv2D(8, 3, strides=2, padding="same", activation="relu", bias_initializer=b)(x)  # 1152 weights
    y = L.DepthwiseConv2D(3, padding="same", depth_multiplier=16, activation="relu6",
                          bias_initializer=b)(y)                                 # 1152
    y = L.Conv2D(8, 1, padding="valid", bias_initializer=b)(y)                   # 1024
    y = L.Reshape((3 * 3 * 8,))(y)
    return tf.keras.Model(x, L.Dense(16, bias_initializer=b)(y))                 # 1152


def hybrid_convs() -> tf.keras.Model:
    """Dynamic-range CONV_2D and FULLY_CONNECTED for per-tensor weights (TFLite's
    symmetric hybrid conv; its per-tensor hybrid depthwise conv reads past its one scale).
    Images of 5 * 5 * 15 values: not a multiple of 8 (TFLite's x86 quantizer rounds the
    last 375 % 8 values another way)."""
    b = "random_uniform"
    x = L.Input((5, 5, 15), batch_size=2, name="image")
    y = L.Conv2D(8, 3, strides=2, padding="same", activation="relu6", bias_initializer=b)(x)  # 1080 weights
    y = L.Conv2D(16, 3, padding="same", bias_initializer=b)(y)                  # 1152
    y = L.Reshape((3 * 3 * 16,))(y)
    return tf.keras.Model(x, L.Dense(8, activation="relu", bias_initializer=b)(y))  # 1152


def cnn16() -> tf.keras.Model:
    """CONV_2D (3x3 strided, 1x1) and FULLY_CONNECTED for 16x8 quantization."""
    b = "random_uniform"
    x = L.Input((6, 6, 4), batch_size=2, name="image")
    y = L.Conv2D(8, 3, strides=2, padding="same", activation="relu", bias_initializer=b)(x)
    y = L.Conv2D(6, 1, bias_initializer=b)(y)
    y = L.Reshape((3 * 3 * 6,))(y)
    y = L.Dense(10, activation="relu", bias_initializer=b)(y)
    return tf.keras.Model(x, L.Dense(5, bias_initializer=b)(y))


def convert(model: tf.keras.Model, mode: str) -> bytes:
    conv = tf.lite.TFLiteConverter.from_keras_model(model)
    if mode in ("dynamic", "dynamic_pertensor"):  # int8 weights, float activations
        conv.optimizations = [tf.lite.Optimize.DEFAULT]
        conv._experimental_disable_per_channel = mode == "dynamic_pertensor"
    elif mode == "float16":  # float16 weights, DEQUANTIZE'd to float32 in the graph
        conv.optimizations = [tf.lite.Optimize.DEFAULT]
        conv.target_spec.supported_types = [tf.float16]
    elif mode != "float":
        rng = np.random.default_rng(7)

        shapes = {t.name.split(":")[0]: list(t.shape) for t in model.inputs}

        def data():  # by input name: the converter's own input order need not be Keras's
            for _ in range(32):
                yield {n: rng.uniform(-1.0, 1.0, sh).astype("float32") for n, sh in shapes.items()}
        conv.optimizations = [tf.lite.Optimize.DEFAULT]
        conv.representative_dataset = data
        conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        if mode.startswith("int16x8"):  # int16 activations, int8 weights, float ends
            conv.target_spec.supported_ops = [tf.lite.OpsSet.EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8]
            if mode == "int16x8_bias32":  # int32 biases (int64 by default)
                conv._experimental_full_integer_quantization_bias_type = tf.int32
        elif mode != "int8_floatio":  # float input and output: QUANTIZE / DEQUANTIZE at the ends
            conv.inference_input_type = tf.int8 if mode == "int8" else tf.uint8
            conv.inference_output_type = tf.int8 if mode == "int8" else tf.uint8
    return conv.convert()


def main() -> None:
    nets = (("cnn", cnn, ("float", "int8", "uint8", "int8_floatio", "float16")), ("mbblock", mbblock, ("float", "int8", "uint8")),
            ("ops", ops, ("float", "int8")), ("matmul", ops_matmul, ("float", "int8")),
            ("unsupported", unsupported, ("float",)), ("dense", dense, ("dynamic",)),
            ("deconv", deconv, ("float", "int8")), ("mlp", mlp, ("dynamic",)),
            ("hybrid_cnn", hybrid_cnn, ("dynamic",)), ("hybrid_convs", hybrid_convs, ("dynamic_pertensor",)),
            ("cnn16", cnn16, ("int16x8", "int16x8_bias32")))
    for name, make, modes in nets:
        tf.keras.utils.set_random_seed(3)
        model = make()
        for mode in modes:
            data = convert(model, mode)
            path = os.path.join(HERE, f"{name}_{mode}.tflite")
            with open(path, "wb") as f:
                f.write(data)
            print(path, len(data), "bytes")


if __name__ == "__main__":
    main()
