#!/usr/bin/env python3
"""Writes test/data/relay_testing/: what TVM 0.19's ``relay.testing`` workloads are.

Runs in the TVM 0.19 side venv (relay-mlir never depends on TVM; ``tvm.relay.testing``
needs pytest installed there)::

    TOPHUB_LOCATION=NONE /path/to/tvm-venv/bin/python scripts/tvm_testing_workloads.py

For each case (a workload module and ``get_workload`` keyword arguments) ``workloads.json``
records, from TVM's ``(mod, params)``: ``main``'s parameters (name and type, in order), the
params (name, shape, dtype, in dict order, and the float64 sum and sum of absolute values
of each value: TVM draws them with numpy seeded 0), how many times each operator is
called in ``main``, and each operator call's result type in post order. For the cases in ``RUN`` it also runs the workload with its params in
TVM's graph executor (llvm) on a fixed input and writes ``<case>.npz`` (``data``,
``output``). ``signatures.json`` holds the signatures of the public functions (``API``).
test/python/test_relay_testing_tvm.py builds the same cases with
``relay_mlir.testing`` and compares.
"""
from __future__ import annotations

import collections
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "test", "data", "relay_testing")

CASES = {
    "resnet_default": ("resnet", {}),
    "resnet50": ("resnet", {"num_layers": 50}),
    "resnet34": ("resnet", {"num_layers": 34}),
    "resnet18_b4_cifar": ("resnet", {"num_layers": 18, "batch_size": 4, "image_shape": [3, 32, 32],
                                     "num_classes": 10}),
    "resnet18_fp16": ("resnet", {"num_layers": 18, "dtype": "float16", "image_shape": [3, 32, 32]}),
    "resnet20_28px": ("resnet", {"num_layers": 20, "image_shape": [3, 28, 28], "num_classes": 10}),
    "resnet18_nhwc": ("resnet", {"num_layers": 18, "layout": "NHWC", "image_shape": [32, 32, 3]}),
    "resnet18_small": ("resnet", {"num_layers": 18, "image_shape": [3, 32, 32], "num_classes": 10}),
    "mobilenet_default": ("mobilenet", {}),
    "mobilenet_nhwc_b2": ("mobilenet", {"batch_size": 2, "layout": "NHWC", "image_shape": [224, 224, 3]}),
    "mlp_b1": ("mlp", {"batch_size": 1}),
    "mlp_b8_fp16": ("mlp", {"batch_size": 8, "dtype": "float16", "num_classes": 5}),
    "dqn_b1": ("dqn", {"batch_size": 1}),
    "dqn_nhwc_b2": ("dqn", {"batch_size": 2, "layout": "NHWC", "image_shape": [84, 84, 4]}),
    "lstm_3x8": ("lstm", {"iterations": 3, "num_hidden": 8}),
    "lstm_2x16_b2": ("lstm", {"iterations": 2, "num_hidden": 16, "batch_size": 2}),
    "vgg_b1": ("vgg", {"batch_size": 1}),
    "vgg16_bn": ("vgg", {"batch_size": 1, "num_layers": 16, "batch_norm": True}),
    "inception_v3_default": ("inception_v3", {}),
    "squeezenet_default": ("squeezenet", {}),
    "squeezenet_1_1": ("squeezenet", {"version": "1.1"}),
    "densenet_default": ("densenet", {}),
    "densenet169_b1": ("densenet", {"densenet_size": 169, "batch_size": 1}),
    "synthetic_default": ("synthetic", {}),
    "synthetic_2x4x16x8": ("synthetic", {"input_shape": [2, 4, 16, 8]}),
    "dcgan_b1": ("dcgan", {"batch_size": 1}),
    "dcgan_nhwc_b2": ("dcgan", {"batch_size": 2, "ngf": 16, "random_len": 20, "layout": "NHWC"}),
}
RUN = ["mlp_b1", "dqn_b1", "resnet18_small"]
# module -> the public functions whose signatures relay_mlir.testing mirrors
API = {
    "": ["run_opt_pass", "run_infer_type", "check_grad", "rand", "count_ops", "create_workload"],
    "init": ["create_workload", "Xavier", "Constant", "Initializer"],
    "layers": ["batch_norm_infer", "conv2d", "conv3d", "conv2d_transpose", "dense_add_bias", "conv_kernel_layout"],
    "resnet": ["get_workload", "get_net", "resnet", "residual_unit"],
    "mobilenet": ["get_workload", "mobile_net", "conv_block", "separable_conv_block"],
    "mlp": ["get_workload", "get_net"],
    "dqn": ["get_workload", "get_net"],
    "lstm": ["get_workload", "get_net", "lstm_cell"],
    "vgg": ["get_workload", "get_net", "get_feature", "get_classifier"],
    "inception_v3": ["get_workload", "get_net", "Conv", "Pooling"],
    "squeezenet": ["get_workload", "get_net"],
    "densenet": ["get_workload"],
    "synthetic": ["get_workload", "get_net"],
    "dcgan": ["get_workload", "get_net", "deconv2d", "deconv2d_bn_relu"],
}


def type_repr(t):
    """A type as JSON: {"shape", "dtype"} or {"tuple": [...]}."""
    from tvm import relay
    if isinstance(t, relay.TupleType):
        return {"tuple": [type_repr(f) for f in t.fields]}
    return {"shape": [int(d) for d in t.shape], "dtype": str(t.dtype)}


def op_counts(expr):
    from tvm import relay
    counts = collections.Counter()

    def visit(node):
        if isinstance(node, relay.Call) and isinstance(node.op, tvm_ir_op()):
            counts[node.op.name] += 1
    relay.analysis.post_order_visit(expr, visit)
    return dict(sorted(counts.items()))


def type_str(t):
    """A type as a short string: ``1x64x56x56:float32``, tuples in parentheses."""
    from tvm import relay
    if isinstance(t, relay.TupleType):
        return "(" + ",".join(type_str(f) for f in t.fields) + ")"
    return "x".join(str(int(d)) for d in t.shape) + ":" + str(t.dtype)


def call_sequence(expr):
    """``"<op> <result type>"`` of every operator call, in post order (arguments left to right)."""
    from tvm import relay
    seq = []

    def visit(node):
        if isinstance(node, relay.Call) and isinstance(node.op, tvm_ir_op()):
            seq.append(f"{node.op.name} {type_str(node.checked_type)}")
    relay.analysis.post_order_visit(expr, visit)
    return seq


def tvm_ir_op():
    import tvm
    return tvm.ir.Op


def fixed_input(shape, dtype):
    """The input both sides feed: uniform [0, 1) from numpy's default_rng(2026)."""
    return np.random.default_rng(2026).random(shape).astype(dtype)


def run(mod, params):
    import tvm
    from tvm import relay
    ty = mod["main"].params[0].checked_type
    data = fixed_input(tuple(int(d) for d in ty.shape), str(ty.dtype))
    with tvm.transform.PassContext(opt_level=3):
        f = relay.create_executor("graph", mod=mod, device=tvm.cpu(0), target="llvm",
                                  params=params).evaluate()
    return data, f(data).numpy()


def main() -> None:
    import importlib

    from tvm import relay
    os.makedirs(OUT, exist_ok=True)
    table = {}
    for case, (module, kwargs) in CASES.items():
        m = importlib.import_module(f"tvm.relay.testing.{module}")
        args = {k: tuple(v) if isinstance(v, list) else v for k, v in kwargs.items()}
        mod, params = m.get_workload(**args)
        mod = relay.transform.InferType()(mod)
        main_fn = mod["main"]
        table[case] = {
            "module": module, "kwargs": kwargs,
            "main_params": [[p.name_hint, type_repr(p.checked_type)] for p in main_fn.params],
            "params": [[k, list(v.shape), str(v.dtype),
                        float(v.numpy().astype("float64").sum()), float(np.abs(v.numpy().astype("float64")).sum())]
                       for k, v in params.items()],
            "ops": op_counts(main_fn),
            "calls": call_sequence(main_fn),
        }
        if case in RUN:
            data, out = run(mod, params)
            np.savez(os.path.join(OUT, f"{case}.npz"), data=data, output=out)
        print(case, len(params), "params", sum(table[case]["ops"].values()), "calls")
    write_table(table, os.path.join(OUT, "workloads.json"))
    write_table(signatures(), os.path.join(OUT, "signatures.json"))


def signatures():
    """``{"<module>.<function>": str(inspect.signature)}`` of the API above."""
    import importlib
    import inspect
    out = {}
    for module, names in API.items():
        m = importlib.import_module("tvm.relay.testing" + ("." + module if module else ""))
        for name in names:
            out[f"{module}.{name}" if module else name] = str(inspect.signature(getattr(m, name)))
    return out


def write_table(table, path) -> None:
    """One line per case (compact JSON)."""
    lines = [f" {json.dumps(k)}: {json.dumps(v, separators=(',', ':'))}" for k, v in table.items()]
    with open(path, "w") as f:
        f.write("{\n" + ",\n".join(lines) + "\n}\n")


if __name__ == "__main__":
    main()
