"""relay-mlir's own model zoo: torchvision-style test networks with PyTorch twins.

TVM 0.19's ``relay.testing`` workloads (same architectures and parameter names as
TVM) are ``relay_mlir.testing``; these are the project's own networks.

Model zoo - each ``get_workload(...)`` returns ``(IRModule, params)``:
``main`` takes the model inputs then every weight, and ``params`` holds
seeded random weights to bind with ``relay_mlir.compile(mod, params=params)``.
Sizes are configurable; the defaults are the published architectures
(except vocabularies), tests use small ones.

* ``resnet`` - the small demo CNN (default) and ResNet-18/34/50/101/152
  (``num_layers=``);
* ``mobilenet_v2`` - MobileNetV2 (``width_mult``);
* ``vgg`` - VGG-11/13/16/19 (``num_layers=16`` by default);
* ``dqn`` - the Nature DQN;
* ``bert`` - a BERT-tiny-style transformer encoder;
* ``lstm`` - an LSTM language model unrolled over a fixed sequence length;
* ``vit`` - a Vision Transformer (ViT-Tiny/16 by default).

Every zoo model has a plain ``torch.nn`` twin in ``torch_models`` (imported
on demand: PyTorch is an optional dependency) whose ``state_dict`` keys are
the weight names, so ``torch_models.load_params(module, params)`` gives the
twin the zoo model's weights.

Also ``layers`` (the shared building blocks); independent numpy
implementations of the operators and of the demo CNN are
``relay_mlir.testing.numpy_ref``.
"""
from . import bert, dqn, layers, lstm, mobilenet_v2, resnet, vgg, vit  # noqa: F401

__all__ = ["bert", "dqn", "layers", "lstm", "mobilenet_v2", "resnet", "vgg", "vit"]
