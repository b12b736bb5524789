"""TVM 0.19's ``relay.testing``: its workloads, built as TVM builds them, and its helpers.

Each workload module has TVM's ``get_workload(...)`` (same signature and defaults) giving
``(mod, params)``: ``mod["main"]`` takes ``data`` then the weights, with TVM's
architecture, parameter names, order, shapes and dtypes; ``params`` maps every name but
``data`` to an NDArray (``relay_mlir.tvm.nd``) initialized as TVM does (Xavier uniform,
numpy seeded with 0: the same values as TVM's). Workloads: ``resnet`` (v2,
pre-activation), ``mobilenet``, ``mlp``, ``dqn``, ``lstm``, ``vgg``, ``inception_v3``,
``squeezenet``, ``densenet``, ``synthetic``. Also ``layers`` (TVM's layer wrappers),
``init`` (``Xavier``, ``Constant``, ``create_workload``) and TVM's helpers
``run_opt_pass``, ``run_infer_type``, ``check_grad``, ``rand``, ``count_ops``,
``enabled_targets``.

Not TVM's, kept here: ``numpy_ref`` (numpy references of the operators),
``programs`` (language test programs), ``corpus_inputs``. relay-mlir's own
torchvision-style networks are ``relay_mlir.models``.

    >>> from relay_mlir import testing
    >>> mod, params = testing.mlp.get_workload(batch_size=1)
    >>> [p.name_hint for p in mod["main"].params][:3]
    ['data', 'fc1_weight', 'fc1_bias']
"""
from . import (densenet, dqn, inception_v3, init, layers, lstm, mlp, mobilenet, numpy_ref,  # noqa: F401
               resnet, squeezenet, synthetic, vgg)
from .checks import check_grad, count_ops, enabled_targets, rand, run_infer_type, run_opt_pass  # noqa: F401
from .init import create_workload  # noqa: F401

__all__ = ["densenet", "dqn", "inception_v3", "init", "layers", "lstm", "mlp", "mobilenet", "numpy_ref",
           "resnet", "squeezenet", "synthetic", "vgg", "create_workload", "check_grad", "count_ops",
           "enabled_targets", "rand", "run_infer_type", "run_opt_pass"]
