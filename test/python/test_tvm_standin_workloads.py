"""A TVM 0.19 script over ``relay.testing``, ported by changing its imports only.

The script builds TVM's ResNet-18 workload (CIFAR size, 10 classes) with ``relay.build`` at
opt level 3 inside a ``PassContext``, binds the params at build time, runs it through
``graph_executor.GraphModule`` and reads the output: TVM 0.19's graph-executor output on the
same input was recorded in the side venv by scripts/tvm_testing_workloads.py
(test/data/relay_testing/resnet18_small.npz); rtol 1e-4, atol 1e-6 as in
test_relay_testing_tvm.py.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

import relay_mlir.tvm as tvm                            # was: import tvm
from relay_mlir.tvm import relay                        # was: from tvm import relay
from relay_mlir.tvm.contrib import graph_executor       # was: from tvm.contrib import graph_executor
from relay_mlir.tvm.relay import testing                # was: from tvm.relay import testing

RECORDED = Path(__file__).resolve().parent.parent / "data" / "relay_testing" / "resnet18_small.npz"


def test_relay_testing_resnet_through_relay_build_and_graph_executor():
    ref = np.load(RECORDED)
    mod, params = testing.resnet.get_workload(num_layers=18, image_shape=(3, 32, 32), num_classes=10)
    with tvm.transform.PassContext(opt_level=3):
        lib = relay.build(mod, target="llvm", params=params)
    dev = tvm.cpu(0)
    module = graph_executor.GraphModule(lib["default"](dev))
    assert module.get_num_inputs() == 1        # the weights were bound at build time
    module.set_input("data", tvm.nd.array(ref["data"]))
    module.run()
    out = module.get_output(0)
    assert out.shape == (1, 10) and out.dtype == "float32"
    np.testing.assert_allclose(out.numpy(), ref["output"], rtol=1e-4, atol=1e-6)
