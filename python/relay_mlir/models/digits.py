"""Models trained on scikit-learn's bundled digits (8x8 images, 10 classes): an MLP and a
small CNN as Relay losses, the same models in PyTorch, seeded initial weights and the
data split. Used by test/python/test_training.py and bench/training.py.

``load()`` needs scikit-learn (the data set ships inside it: no download).
"""
from __future__ import annotations

from typing import Dict, List, Tuple

import numpy as np

import relay_mlir as relay

N_CLASSES = 10


def load(seed: int = 0) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(x_train, y_train, x_test, y_test)``: pixels scaled to [0, 1] (float32, shape
    [n, 64]), labels int64; 80% / 20% of a seeded permutation."""
    from sklearn.datasets import load_digits

    d = load_digits()
    order = np.random.default_rng(seed).permutation(len(d.target))
    x = (d.data[order] / 16.0).astype("float32")
    y = d.target[order].astype("int64")
    cut = int(0.8 * len(y))
    return x[:cut], y[:cut], x[cut:], y[cut:]


def one_hot(y: np.ndarray) -> np.ndarray:
    return np.eye(N_CLASSES, dtype="float32")[y]


def _uniform(rng, shape, fan_in):
    bound = 1.0 / np.sqrt(fan_in)
    return rng.uniform(-bound, bound, size=shape).astype("float32")


# ---- the models ------------------------------------------------------------------
# Each model: parameter shapes (PyTorch's layouts: dense [out, in], conv OIHW),
# a Relay forward(params, x) -> logits, and the same in PyTorch.

MLP_SHAPES = [("w1", (32, 64)), ("b1", (32,)), ("w2", (10, 32)), ("b2", (10,))]
CNN_SHAPES = [("w1", (8, 1, 3, 3)), ("b1", (8,)), ("w2", (10, 128)), ("b2", (10,))]


def init(model: str, seed: int = 0) -> List[np.ndarray]:
    """Seeded initial parameters (PyTorch's default uniform(±1/sqrt(fan_in)))."""
    rng = np.random.default_rng(seed)
    shapes = MLP_SHAPES if model == "mlp" else CNN_SHAPES
    fans = {"mlp": [64, 64, 32, 32], "cnn": [9, 9, 128, 128]}[model]
    return [_uniform(rng, s, f) for (_, s), f in zip(shapes, fans)]


def relay_forward(model: str, params: List[relay.Var], x: relay.Expr) -> relay.Expr:
    if model == "mlp":
        w1, b1, w2, b2 = params
        h = relay.nn.relu(relay.nn.bias_add(relay.nn.dense(x, w1), b1))
        return relay.nn.bias_add(relay.nn.dense(h, w2), b2)
    w1, b1, w2, b2 = params
    img = relay.reshape(x, (-1, 1, 8, 8))
    c = relay.nn.relu(relay.nn.bias_add(relay.nn.conv2d(img, w1, padding=(1, 1)), b1))
    p = relay.nn.max_pool2d(c, (2, 2), strides=(2, 2))
    return relay.nn.bias_add(relay.nn.dense(relay.nn.batch_flatten(p), w2), b2)


def relay_loss(model: str, batch: int) -> relay.Function:
    """``loss(params..., x[batch, 64], y_onehot[batch, 10])``: mean softmax cross-entropy."""
    shapes = MLP_SHAPES if model == "mlp" else CNN_SHAPES
    params = [relay.var(n, shape=s) for n, s in shapes]
    x = relay.var("x", shape=(batch, 64))
    y = relay.var("y", shape=(batch, N_CLASSES))
    logp = relay.nn.log_softmax(relay_forward(model, params, x), axis=1)
    loss = relay.negative(relay.mean(relay.sum(y * logp, axis=1)))
    return relay.Function(params + [x, y], loss)


def relay_predict(model: str, n: int) -> relay.Function:
    """``logits(params..., x[n, 64])``."""
    shapes = MLP_SHAPES if model == "mlp" else CNN_SHAPES
    params = [relay.var(n_, shape=s) for n_, s in shapes]
    x = relay.var("x", shape=(n, 64))
    return relay.Function(params + [x], relay_forward(model, params, x))


def torch_model(model: str, params: List[np.ndarray]):
    """The same model in PyTorch with the same initial weights."""
    import torch

    if model == "mlp":
        net = torch.nn.Sequential(torch.nn.Linear(64, 32), torch.nn.ReLU(), torch.nn.Linear(32, 10))
        layers = [net[0], net[2]]
    else:
        net = torch.nn.Sequential(torch.nn.Unflatten(1, (1, 8, 8)), torch.nn.Conv2d(1, 8, 3, padding=1),
                                  torch.nn.ReLU(), torch.nn.MaxPool2d(2), torch.nn.Flatten(),
                                  torch.nn.Linear(128, 10))
        layers = [net[1], net[5]]
    with torch.no_grad():
        for layer, (w, b) in zip(layers, [(params[0], params[1]), (params[2], params[3])]):
            layer.weight.copy_(torch.from_numpy(w))
            layer.bias.copy_(torch.from_numpy(b))
    return net


def torch_train(model: str, params: List[np.ndarray], optimizer: str, lr: float, steps: int,
                batch: int, x: np.ndarray, y: np.ndarray, net=None) -> Tuple[List[float], object]:
    """PyTorch training on the same mini-batches as ``relay_mlir.training.training_loop``
    (rows ``(i * batch + k) mod n``); returns (per-step losses, the trained module)."""
    import torch

    net = net if net is not None else torch_model(model, params)
    opt = (torch.optim.SGD(net.parameters(), lr=lr, momentum=0.9) if optimizer == "sgd_momentum"
           else torch.optim.Adam(net.parameters(), lr=lr))
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    n = len(x)
    losses = []
    for i in range(steps):
        rows = torch.from_numpy((i * batch + np.arange(batch)) % n)
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(net(xt[rows]), yt[rows])
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, net


def accuracy(logits: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean(np.argmax(logits, axis=1) == y))


def named(model: str, arrays: List[np.ndarray]) -> Dict[str, np.ndarray]:
    shapes = MLP_SHAPES if model == "mlp" else CNN_SHAPES
    return {n: a for (n, _), a in zip(shapes, arrays)}
