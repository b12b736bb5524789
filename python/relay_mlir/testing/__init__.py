"""TVM 0.19's ``relay.testing``: its workloads, built as TVM builds them, and its helpers.

Each workload module has TVM's ``get_workload(...)`` (same signature and defaults) giving
``(mod, params)``: ``mod["main"]`` takes ``data`` then the weights, with TVM's
architecture, parameter names, order, shapes and dtypes; ``params`` maps every name but
``data`` to an NDArray (``relay_mlir.tvm.nd``) initialized as TVM does (Xavier uniform,
numpy seeded with 0: the same values as TVM's). Workloads: ``resnet`` (v2,
pre-activation), ``mobilenet``, ``mlp``, ``dqn``, ``lstm``, ``vgg``, ``inception_v3``,
``squeezenet``, ``densenet``, ``synthetic``, ``dcgan``. Also ``layers`` (TVM's layer
wrappers), ``init`` (``Xavier``, ``Constant``, ``create_workload``) and TVM's helpers
``run_opt_pass``, ``run_infer_type``, ``check_grad``, ``rand``, ``count_ops``,
``enabled_targets``, ``gradient``. TVM's other members (resnet_3d, yolo_detection,
darknet, tf, tflite, byoc, nat, py_converter, temp_op_attr) are AttributeErrors saying so.

Not TVM's, kept here: ``numpy_ref`` (numpy references of the operators),
``programs`` (language test programs), ``corpus_inputs``. relay-mlir's own
torchvision-style networks are ``relay_mlir.models``.

    >>> from relay_mlir import testing
    >>> mod, params = testing.mlp.get_workload(batch_size=1)
    >>> [p.name_hint for p in mod["main"].params][:3]
    ['data', 'fc1_weight', 'fc1_bias']
"""
from . import (dcgan, densenet, dqn, inception_v3, init, layers, lstm, mlp,  # noqa: F401
               mobilenet, numpy_ref, resnet, squeezenet, synthetic, vgg)
from .checks import check_grad, count_ops, enabled_targets, rand, run_infer_type, run_opt_pass  # noqa: F401
from .init import create_workload  # noqa: F401
from ..autodiff import gradient  # noqa: F401  (TVM's relay.testing re-exports it)

__all__ = ["dcgan", "densenet", "dqn", "inception_v3", "init", "layers", "lstm", "mlp", "mobilenet",
           "numpy_ref", "resnet", "squeezenet", "synthetic", "vgg", "create_workload", "check_grad", "count_ops",
           "enabled_targets", "gradient", "rand", "run_infer_type", "run_opt_pass"]

# TVM 0.19 relay.testing members relay-mlir does not provide, and what to use instead
_NOT_PROVIDED = {
    "resnet_3d": "relay-mlir has no nn.global_avg_pool3d yet; use testing.resnet (2-D)",
    "yolo_detection": "import a YOLO model with relay_mlir.frontend.from_onnx",
    "darknet": "import the model with relay_mlir.frontend.from_onnx",
    "tf": "import TensorFlow models through ONNX (relay_mlir.frontend.from_onnx)",
    "tflite": "import TFLite models through ONNX (relay_mlir.frontend.from_onnx)",
    "byoc": "see relay_mlir.byoc",
    "temp_op_attr": "see relay_mlir.tvm.ir.register_op_attr",
    "nat": "write the Peano naturals with relay_mlir.adt (TypeData, Constructor)",
    "count": "write the Peano naturals with relay_mlir.adt (TypeData, Constructor)",
    "make_nat_value": "write the Peano naturals with relay_mlir.adt (TypeData, Constructor)",
    "make_nat_expr": "write the Peano naturals with relay_mlir.adt (TypeData, Constructor)",
    "py_converter": "run programs with relay_mlir.create_executor('debug') (the interpreter)",
    "to_python": "run programs with relay_mlir.create_executor('debug') (the interpreter)",
    "run_as_python": "run programs with relay_mlir.create_executor('debug') (the interpreter)",
}


def __getattr__(name: str):
    if name in _NOT_PROVIDED:
        raise AttributeError(f"relay.testing.{name} (TVM 0.19) is not part of relay-mlir: "
                             f"{_NOT_PROVIDED[name]}")
    raise AttributeError(f"module 'relay_mlir.testing' has no attribute {name!r}")
