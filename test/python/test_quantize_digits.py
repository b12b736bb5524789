"""relay.quantize keeps accuracy: the digits MLP and small CNN (relay_mlir.models.digits,
trained in the test from a seed with PyTorch's Adam), quantized to int8 — every conv and
dense layer (skip_conv_layers=[], skip_dense_layer=False), percentile calibration on 360
training images — and compiled for llvm-cpu, stay within 1 point of the float model's
top-1 (PyTorch's) on the 360 held-out images."""
import pytest

import relay_mlir as relay
from relay_mlir.models import digits as D
from relay_mlir.quantize import calls, qconfig, quantize

pytest.importorskip("sklearn", reason="the digits data set ships with scikit-learn (the test extra)")
torch = pytest.importorskip("torch")


@pytest.fixture(scope="module")
def data():
    return D.load()


def _trained(model, x, y):
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # small batches: threads only contend
    try:
        _, net = D.torch_train(model, D.init(model, 0), "adam", 0.01, 120, 64, x, y)
    finally:
        torch.set_num_threads(threads)
    layers = [m for m in net if isinstance(m, (torch.nn.Linear, torch.nn.Conv2d))]
    params = [t.detach().numpy().copy() for m in layers for t in (m.weight, m.bias)]
    return params, net


def _quantized_logits(model, params, x_cal, x_test):
    names = [n for n, _ in (D.MLP_SHAPES if model == "mlp" else D.CNN_SHAPES)]
    pvars = [relay.var(n, shape=p.shape) for n, p in zip(names, params)]
    x = relay.var("x", shape=x_test.shape)
    mod = relay.IRModule.from_expr(relay.Function(pvars + [x], D.relay_forward(model, pvars, x)))
    with qconfig(skip_conv_layers=[], skip_dense_layer=False, calibrate_mode="percentile"):
        q = quantize(mod, params=dict(zip(names, params)), dataset=[{"x": x_cal}])
    int8 = [c for c in calls(q["main"]) if c.op.name in ("nn.dense", "nn.conv2d")
            and c.args[0].checked_type.dtype == "int8"]
    assert len(int8) == 2 and all(c.checked_type.dtype == "int32" for c in int8)
    return relay.compile(q, target="llvm-cpu")(x_test)


@pytest.mark.parametrize("model", ["mlp", "cnn"])
def test_quantized_model_keeps_top1(data, model):
    x_train, y_train, x_test, y_test = data
    params, net = _trained(model, x_train, y_train)
    with torch.no_grad():
        float_acc = D.accuracy(net(torch.from_numpy(x_test)).numpy(), y_test)
    assert float_acc > 0.9
    q_acc = D.accuracy(_quantized_logits(model, params, x_train[:len(x_test)], x_test), y_test)
    assert abs(q_acc - float_acc) <= 0.01, (q_acc, float_acc)
