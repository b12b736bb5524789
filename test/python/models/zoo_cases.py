"""The model-zoo cases shared by the model tests: small configurations, inputs, tolerances.

Each case builds the zoo model (``get_workload``) and its ``torch.nn`` twin
with the same seeded weights. Sizes are CI-small (every model compiles in
seconds) but keep each architecture's structure: every stage/block kind,
depthwise convs, attention with a padding mask, stacked LSTM layers.

Tolerances compare float32 results with ``|got - want| <= atol * max|want|
+ rtol * |want|``: the reference's scale sets the absolute part, so a
deep network's accumulated rounding is judged relative to its output size.
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Dict, List, Sequence

import numpy as np

F32 = "float32"


@dataclasses.dataclass
class Case:
    name: str
    workload: Callable[[], tuple]          # () -> (IRModule, params)
    twin: Callable[[], object]             # () -> torch.nn.Module (weights loaded by the test)
    inputs: Callable[[np.random.Generator], List[np.ndarray]]
    input_names: Sequence[str]
    output_names: Sequence[str]
    rtol: float = 1e-4
    atol: float = 1e-4                     # times max|reference|


def _image(shape):
    return lambda rng: [rng.standard_normal(shape).astype(F32)]


def _bert_inputs(rng: np.random.Generator) -> List[np.ndarray]:
    b, s = 2, 8
    ids = rng.integers(0, 100, size=(b, s)).astype("int64")
    types = (np.arange(s)[None, :] >= s // 2).astype("int64").repeat(b, 0)
    mask = np.ones((b, s), "int64")
    mask[1, -3:] = 0  # the second sequence is padded
    return [ids, types, mask]


def cases() -> Dict[str, Case]:
    from relay_mlir.models import bert, dqn, lstm, mobilenet_v2, resnet, vgg, vit

    def tm():
        from relay_mlir.models import torch_models
        return torch_models

    img = ["data"]
    return {c.name: c for c in [
        Case("resnet18",
             lambda: resnet.get_workload(num_layers=18, num_classes=10, image_shape=(3, 32, 32), width=8),
             lambda: tm().ResNet(18, num_classes=10, width=8), _image((1, 3, 32, 32)), img, ["logits"]),
        Case("resnet50",
             lambda: resnet.get_workload(num_layers=50, num_classes=10, image_shape=(3, 32, 32), width=4),
             lambda: tm().ResNet(50, num_classes=10, width=4), _image((1, 3, 32, 32)), img, ["logits"]),
        Case("mobilenet_v2",
             lambda: mobilenet_v2.get_workload(num_classes=10, image_shape=(3, 32, 32), width_mult=0.25,
                                               last_channel=64),
             lambda: tm().MobileNetV2(num_classes=10, width_mult=0.25, last_channel=64),
             _image((1, 3, 32, 32)), img, ["logits"]),
        Case("vgg16",
             lambda: vgg.get_workload(num_classes=10, image_shape=(3, 64, 64), num_layers=16, width=4,
                                      hidden=32, pool_size=1),
             lambda: tm().VGG(16, num_classes=10, width=4, hidden=32, pool_size=1),
             _image((1, 3, 64, 64)), img, ["logits"]),
        Case("dqn",
             lambda: dqn.get_workload(num_actions=6, channels=(8, 16, 16), hidden=64),
             lambda: tm().DQN(num_actions=6, channels=(8, 16, 16), hidden=64),
             _image((1, 4, 84, 84)), img, ["q_values"]),
        Case("bert_tiny",
             lambda: bert.get_workload(batch_size=2, seq_len=8, vocab_size=100, max_position=16),
             lambda: tm().Bert(vocab_size=100, max_position=16),
             _bert_inputs, ["input_ids", "token_type_ids", "attention_mask"],
             ["sequence_output", "pooled_output"]),
        # batch 2, 8 steps: the steps' input slices are strided and made contiguous
        # (relay-contiguous-slices takes 8 or more)
        Case("lstm",
             lambda: lstm.get_workload(batch_size=2, seq_len=8, vocab_size=50, embed=16, hidden=32,
                                       num_layers=2),
             lambda: tm().LSTMLanguageModel(vocab_size=50, embed=16, hidden=32, num_layers=2),
             lambda rng: [rng.integers(0, 50, size=(2, 8)).astype("int64")], ["input_ids"], ["logits"]),
        Case("vit",
             lambda: vit.get_workload(image_size=32, patch=8, width=16, depth=1, heads=2, mlp=32,
                                      num_classes=10),
             lambda: tm().ViT(image_size=32, patch=8, width=16, depth=1, heads=2, mlp=32, num_classes=10),
             _image((1, 3, 32, 32)), img, ["logits"]),
    ]}


def as_list(out) -> List[np.ndarray]:
    if isinstance(out, (tuple, list)):
        return [np.asarray(o) for o in out]
    return [np.asarray(out)]


def rel_error(got: np.ndarray, want: np.ndarray) -> float:
    """max |got - want| / max |want|."""
    scale = float(np.max(np.abs(want))) or 1.0
    return float(np.max(np.abs(got.astype(np.float64) - want.astype(np.float64)))) / scale


def assert_close(got, want, rtol: float, atol: float, what: str) -> List[float]:
    """Checks every output; returns the relative errors (for the record in -s output)."""
    got, want = as_list(got), as_list(want)
    assert len(got) == len(want), f"{what}: {len(got)} outputs, expected {len(want)}"
    errs = []
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.shape == w.shape, f"{what} output {i}: shape {g.shape}, expected {w.shape}"
        scale = float(np.max(np.abs(w))) or 1.0
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol * scale,
                                   err_msg=f"{what} output {i} (max|ref| {scale:.3g})")
        errs.append(rel_error(g, w))
    print(f"{what}: max|err|/max|ref| = {', '.join(f'{e:.2e}' for e in errs)}")
    return errs
