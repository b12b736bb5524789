"""Training compiled into one .vmfb: relay_mlir.training on scikit-learn's digits.

Each model is trained by ``training_loop`` (a tail-recursive Relay loop of
``train_step`` = gradient + optimizer update, run as one call of the
compiled module) from the same seeded initial weights as PyTorch, on the
same mini-batches. Checked: the per-step loss against PyTorch over the
first 20 steps (rtol 1e-4) and the test-set accuracy after training
(>= 90%).
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.models import digits as D
from relay_mlir.training import adam, sgd_momentum, training_loop

pytest.importorskip("sklearn", reason="the digits data set ships with scikit-learn (the test extra)")
torch = pytest.importorskip("torch")

BATCH = 64


@pytest.fixture(scope="module")
def data():
    return D.load()


def _train(model, optimizer, steps, data):
    xtr, ytr, _, _ = data
    p0 = D.init(model)
    mod = training_loop(D.relay_loss(model, BATCH), 4, optimizer, steps, BATCH, dataset_rows=len(xtr))
    exe = relay.compile(mod, target="llvm-cpu")
    params, state, history = exe.run("main", *p0, *optimizer.init_state(p0), xtr, D.one_hot(ytr))
    return p0, list(params), history


def _accuracy(model, params, data):
    _, _, xte, yte = data
    pred = relay.compile(relay.IRModule.from_expr(D.relay_predict(model, len(xte))), target="llvm-cpu")
    return D.accuracy(pred.run("main", *params, xte), yte)


@pytest.mark.parametrize("model,opt_name,lr,steps", [
    ("mlp", "sgd_momentum", 0.1, 300),
    ("mlp", "adam", 0.01, 300),
    ("cnn", "sgd_momentum", 0.1, 300),
])
def test_training_matches_pytorch_and_learns(model, opt_name, lr, steps, data):
    optimizer = sgd_momentum(lr, 0.9) if opt_name == "sgd_momentum" else adam(lr)
    p0, params, history = _train(model, optimizer, steps, data)
    assert history.shape == (steps,) and history.dtype == np.float32
    xtr, ytr, _, _ = data
    torch.manual_seed(0)
    want, _ = D.torch_train(model, p0, opt_name, lr, 20, BATCH, xtr, ytr)
    np.testing.assert_allclose(history[:20], np.array(want, dtype=np.float32), rtol=1e-4,
                               err_msg=f"{model}/{opt_name}: per-step loss vs PyTorch")
    acc = _accuracy(model, params, data)
    assert acc >= 0.90, f"{model}/{opt_name}: test accuracy {acc:.3f} after {steps} steps"


def test_training_loop_is_one_call_with_a_loop(data):
    """The loop runs inside the module: its IREE input has a loop, no recursion."""
    xtr, _, _, _ = data
    mod = training_loop(D.relay_loss("mlp", BATCH), 4, sgd_momentum(0.1), 5, BATCH, dataset_rows=len(xtr))
    exe = relay.compile(mod, target="llvm-cpu")
    assert "cf.cond_br" in exe.iree_input  # the recursion became a loop
    assert exe.driver == "local-sync"


def test_training_loop_bad_input():
    x = relay.var("x", shape=(4, 2))
    w = relay.var("w", shape=(2,))
    loss = relay.Function([w, x], relay.sum(x * w))
    with pytest.raises(relay.CompileError, match="batch_size=8 rows"):
        training_loop(loss, 1, sgd_momentum(0.1), 3, batch_size=8)
    with pytest.raises(relay.CompileError, match="n_params=3"):
        training_loop(loss, 3, sgd_momentum(0.1), 3, batch_size=4)
