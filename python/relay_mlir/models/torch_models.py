"""Plain ``torch.nn`` twins of the model zoo (needs the optional ``torch`` extra).

Each class computes the same function as the zoo model of the same name,
and its ``state_dict`` keys are the zoo model's weight names, so::

    mod, params = resnet.get_workload(num_layers=18, num_classes=10, width=8)
    net = torch_models.ResNet(18, num_classes=10, width=8)
    torch_models.load_params(net, params)      # now net(x) == compiled mod(x)

The twins exercise both import paths: ``relay_mlir.frontend.from_torch``
(``torch.export``) and ``from_onnx`` on ``export_onnx(net, args)``. They are
written from the papers with ``torch.nn`` only (no torchvision); inputs and
outputs are those of the zoo models (``ResNet``/``MobileNetV2``/``VGG``
return logits of NCHW images; ``DQN`` Q-values; ``Bert`` the pair
``(sequence_output, pooled_output)`` of int64 ``input_ids``,
``token_type_ids``, ``attention_mask``; ``LSTMLanguageModel`` logits of int64
``input_ids``; ``ViT`` logits of NCHW images).

Example::

    >>> import numpy as np, torch
    >>> from relay_mlir.models import dqn, torch_models
    >>> mod, params = dqn.get_workload(num_actions=4, hidden=16)
    >>> net = torch_models.DQN(num_actions=4, hidden=16)
    >>> torch_models.load_params(net, params)
    >>> tuple(net(torch.zeros(1, 4, 84, 84)).shape)
    (1, 4)
"""
from __future__ import annotations

import io
import math
from typing import Dict, Mapping, Optional, Sequence, Tuple

import numpy as np
import torch
from torch import nn

from .dqn import conv_out
from .mobilenet_v2 import INVERTED_RESIDUAL_SETTING, make_divisible
from .resnet import RESNET_SPECS
from .vgg import VGG_CONFIGS

__all__ = ["ResNet", "MobileNetV2", "VGG", "DQN", "Bert", "LSTMLanguageModel", "ViT",
           "load_params", "params_from_torch", "export_onnx"]


# -- weights ------------------------------------------------------------------
def load_params(module: nn.Module, params: Mapping[str, np.ndarray]) -> None:
    """Copies a zoo ``params`` dict into ``module`` (names must match exactly).

    Every parameter and persistent buffer of ``module`` must be in
    ``params`` (batch norm's ``num_batches_tracked`` excepted) and every entry
    of ``params`` must be used. Puts ``module`` in eval mode.
    """
    state = module.state_dict()
    want = {k for k in state if not k.endswith("num_batches_tracked")}
    missing, unused = sorted(want - set(params)), sorted(set(params) - want)
    if missing or unused:
        raise KeyError(f"weights do not match the module: missing {missing[:5]}, unused {unused[:5]}")
    new = {}
    for k, v in state.items():
        if k in params:
            arr = np.asarray(params[k])
            if tuple(arr.shape) != tuple(v.shape):
                raise ValueError(f"'{k}': shape {arr.shape} given, the module has {tuple(v.shape)}")
            new[k] = torch.from_numpy(np.ascontiguousarray(arr)).to(v.dtype)
        else:
            new[k] = v
    module.load_state_dict(new)
    module.eval()


def params_from_torch(module: nn.Module) -> Dict[str, np.ndarray]:
    """``module``'s weights as a zoo ``params`` dict (for a twin trained or initialised in torch)."""
    return {k: v.detach().cpu().numpy().copy() for k, v in module.state_dict().items()
            if not k.endswith("num_batches_tracked")}


def export_onnx(module: nn.Module, args: Sequence[torch.Tensor], input_names: Sequence[str],
                output_names: Sequence[str], opset: int = 17):
    """``module`` exported to an ``onnx.ModelProto`` (TorchScript exporter, ``ir_version`` 10
    so that any onnxruntime loads it)."""
    import warnings

    import onnx
    buf = io.BytesIO()
    module.eval()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(module, tuple(args), buf, dynamo=False, opset_version=opset,
                          input_names=list(input_names), output_names=list(output_names))
    model = onnx.load_from_string(buf.getvalue())
    model.ir_version = 10
    return model


# -- layers -----------------------------------------------------------------------
class _ConvBN(nn.Sequential):
    """conv (no bias) + batch norm [+ activation]; names ``conv``, ``bn``."""

    def __init__(self, cin: int, cout: int, k: int, stride: int = 1, groups: int = 1,
                 act: Optional[nn.Module] = None, eps: float = 1e-5) -> None:
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, stride, (k - 1) // 2, groups=groups, bias=False)
        self.bn = nn.BatchNorm2d(cout, eps=eps)
        if act is not None:
            self.act = act


# -- ResNet ------------------------------------------------------------------------
class _BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, cin: int, ch: int, stride: int, eps: float) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(cin, ch, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(ch, eps=eps)
        self.conv2 = nn.Conv2d(ch, ch, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(ch, eps=eps)
        self.relu = nn.ReLU()
        self.downsample = _shortcut(cin, ch, stride, eps)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        s = x if self.downsample is None else self.downsample(x)
        return self.relu(s + y)


class _Bottleneck(nn.Module):
    expansion = 4

    def __init__(self, cin: int, ch: int, stride: int, eps: float) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(cin, ch, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(ch, eps=eps)
        self.conv2 = nn.Conv2d(ch, ch, 3, stride, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(ch, eps=eps)
        self.conv3 = nn.Conv2d(ch, ch * 4, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(ch * 4, eps=eps)
        self.relu = nn.ReLU()
        self.downsample = _shortcut(cin, ch * 4, stride, eps)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.relu(self.bn1(self.conv1(x)))
        y = self.relu(self.bn2(self.conv2(y)))
        y = self.bn3(self.conv3(y))
        s = x if self.downsample is None else self.downsample(x)
        return self.relu(s + y)


def _shortcut(cin: int, cout: int, stride: int, eps: float) -> Optional[nn.Module]:
    if stride == 1 and cin == cout:
        return None
    return nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout, eps=eps))


class ResNet(nn.Module):
    """ResNet v1 (``resnet.get_workload(num_layers=...)``)."""

    def __init__(self, num_layers: int = 18, num_classes: int = 1000, in_channels: int = 3,
                 width: int = 64, eps: float = 1e-5) -> None:
        super().__init__()
        kind, blocks = RESNET_SPECS[num_layers]
        block = _BasicBlock if kind == "basic" else _Bottleneck
        self.conv1 = nn.Conv2d(in_channels, width, 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(width, eps=eps)
        self.relu = nn.ReLU()
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        cin = width
        for stage, n in enumerate(blocks):
            ch = width * 2 ** stage
            layers = []
            for b in range(n):
                layers.append(block(cin, ch, 2 if (stage > 0 and b == 0) else 1, eps))
                cin = ch * block.expansion
            setattr(self, f"layer{stage + 1}", nn.Sequential(*layers))
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(cin, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


# -- MobileNetV2 ----------------------------------------------------------------------
class _InvertedResidual(nn.Module):
    def __init__(self, cin: int, cout: int, stride: int, t: int) -> None:
        super().__init__()
        hidden = cin * t
        if t != 1:
            self.expand = _ConvBN(cin, hidden, 1, act=nn.ReLU6())
        self.depthwise = _ConvBN(hidden, hidden, 3, stride, groups=hidden, act=nn.ReLU6())
        self.project = _ConvBN(hidden, cout, 1)
        self.residual = stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.expand(x) if hasattr(self, "expand") else x
        y = self.project(self.depthwise(y))
        return x + y if self.residual else y


class MobileNetV2(nn.Module):
    """MobileNetV2 (``mobilenet_v2.get_workload``)."""

    def __init__(self, num_classes: int = 1000, in_channels: int = 3, width_mult: float = 1.0,
                 last_channel: Optional[int] = None) -> None:
        super().__init__()
        cin = make_divisible(32 * width_mult)
        feats = [_ConvBN(in_channels, cin, 3, 2, act=nn.ReLU6())]
        for t, c, n, s in INVERTED_RESIDUAL_SETTING:
            cout = make_divisible(c * width_mult)
            for i in range(n):
                feats.append(_InvertedResidual(cin, cout, s if i == 0 else 1, t))
                cin = cout
        last = last_channel if last_channel is not None else make_divisible(1280 * max(1.0, width_mult))
        feats.append(_ConvBN(cin, last, 1, act=nn.ReLU6()))
        self.features = nn.Sequential(*feats)
        self.dropout = nn.Dropout(0.2)
        self.classifier = nn.Linear(last, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = nn.functional.adaptive_avg_pool2d(self.features(x), 1)
        return self.classifier(self.dropout(torch.flatten(x, 1)))


# -- VGG ---------------------------------------------------------------------------------
class VGG(nn.Module):
    """VGG-11/13/16/19 (``vgg.get_workload``)."""

    def __init__(self, num_layers: int = 16, num_classes: int = 1000, in_channels: int = 3,
                 width: int = 64, hidden: int = 4096, pool_size: int = 7,
                 batch_norm: bool = False) -> None:
        super().__init__()
        layers, cin = [], in_channels
        for v in VGG_CONFIGS[num_layers]:
            if v == "M":
                layers.append(nn.MaxPool2d(2, 2))
                continue
            cout = width * int(v)
            layers.append(nn.Conv2d(cin, cout, 3, padding=1))
            if batch_norm:
                layers.append(nn.BatchNorm2d(cout))
            layers.append(nn.ReLU())
            cin = cout
        self.features = nn.Sequential(*layers)
        self.avgpool = nn.AdaptiveAvgPool2d(pool_size)
        self.classifier = nn.Sequential(
            nn.Linear(cin * pool_size * pool_size, hidden), nn.ReLU(), nn.Dropout(),
            nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(),
            nn.Linear(hidden, num_classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.classifier(torch.flatten(self.avgpool(self.features(x)), 1))


# -- DQN -------------------------------------------------------------------------------------
class DQN(nn.Module):
    """The Nature DQN (``dqn.get_workload``)."""

    def __init__(self, num_actions: int = 18, image_shape: Sequence[int] = (4, 84, 84),
                 channels: Sequence[int] = (32, 64, 64), hidden: int = 512) -> None:
        super().__init__()
        c1, c2, c3 = channels
        self.conv1 = nn.Conv2d(image_shape[0], c1, 8, 4)
        self.conv2 = nn.Conv2d(c1, c2, 4, 2)
        self.conv3 = nn.Conv2d(c2, c3, 3, 1)
        h = conv_out(conv_out(conv_out(image_shape[1], 8, 4), 4, 2), 3, 1)
        w = conv_out(conv_out(conv_out(image_shape[2], 8, 4), 4, 2), 3, 1)
        self.fc1 = nn.Linear(c3 * h * w, hidden)
        self.fc2 = nn.Linear(hidden, num_actions)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.conv1(x))
        x = torch.relu(self.conv2(x))
        x = torch.relu(self.conv3(x))
        return self.fc2(torch.relu(self.fc1(x.flatten(1))))


# -- BERT ---------------------------------------------------------------------------------------
class _Embeddings(nn.Module):
    def __init__(self, vocab: int, max_pos: int, types: int, hidden: int, eps: float) -> None:
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden)
        self.position_embeddings = nn.Embedding(max_pos, hidden)
        self.token_type_embeddings = nn.Embedding(types, hidden)
        self.LayerNorm = nn.LayerNorm(hidden, eps=eps)
        self.dropout = nn.Dropout(0.1)

    def forward(self, ids: torch.Tensor, types: torch.Tensor) -> torch.Tensor:
        pos = torch.arange(ids.shape[1], dtype=torch.long, device=ids.device)
        x = self.word_embeddings(ids) + self.position_embeddings(pos) + self.token_type_embeddings(types)
        return self.dropout(self.LayerNorm(x))


class _SelfAttention(nn.Module):
    def __init__(self, hidden: int, heads: int) -> None:
        super().__init__()
        self.heads, self.head_dim = heads, hidden // heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.dropout = nn.Dropout(0.1)

    def _split(self, t: torch.Tensor) -> torch.Tensor:
        b, s, _ = t.shape
        return t.view(b, s, self.heads, self.head_dim).permute(0, 2, 1, 3)

    def forward(self, x: torch.Tensor, add_mask: torch.Tensor) -> torch.Tensor:
        q, k, v = self._split(self.query(x)), self._split(self.key(x)), self._split(self.value(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim) + add_mask
        probs = self.dropout(torch.softmax(scores, dim=-1))
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3)
        return ctx.reshape(x.shape)


class _DenseLN(nn.Module):
    """dense -> dropout -> + residual -> LayerNorm (``dense``, ``LayerNorm``)."""

    def __init__(self, cin: int, hidden: int, eps: float) -> None:
        super().__init__()
        self.dense = nn.Linear(cin, hidden)
        self.LayerNorm = nn.LayerNorm(hidden, eps=eps)
        self.dropout = nn.Dropout(0.1)

    def forward(self, x: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        return self.LayerNorm(self.dropout(self.dense(x)) + residual)


class _Attention(nn.Module):
    def __init__(self, hidden: int, heads: int, eps: float) -> None:
        super().__init__()
        setattr(self, "self", _SelfAttention(hidden, heads))
        self.output = _DenseLN(hidden, hidden, eps)

    def forward(self, x: torch.Tensor, add_mask: torch.Tensor) -> torch.Tensor:
        return self.output(getattr(self, "self")(x, add_mask), x)


class _Intermediate(nn.Module):
    def __init__(self, hidden: int, inner: int) -> None:
        super().__init__()
        self.dense = nn.Linear(hidden, inner)
        self.act = nn.GELU()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.act(self.dense(x))


class _Layer(nn.Module):
    def __init__(self, hidden: int, heads: int, inner: int, eps: float) -> None:
        super().__init__()
        self.attention = _Attention(hidden, heads, eps)
        self.intermediate = _Intermediate(hidden, inner)
        self.output = _DenseLN(inner, hidden, eps)

    def forward(self, x: torch.Tensor, add_mask: torch.Tensor) -> torch.Tensor:
        x = self.attention(x, add_mask)
        return self.output(self.intermediate(x), x)


class _Encoder(nn.Module):
    def __init__(self, n: int, hidden: int, heads: int, inner: int, eps: float) -> None:
        super().__init__()
        self.layer = nn.ModuleList([_Layer(hidden, heads, inner, eps) for _ in range(n)])

    def forward(self, x: torch.Tensor, add_mask: torch.Tensor) -> torch.Tensor:
        for layer in self.layer:
            x = layer(x, add_mask)
        return x


class _Pooler(nn.Module):
    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.dense = nn.Linear(hidden, hidden)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(self.dense(x[:, 0]))


class Bert(nn.Module):
    """A BERT-style encoder (``bert.get_workload``); BERT-tiny sizes by default."""

    def __init__(self, vocab_size: int = 1000, max_position: int = 64, type_vocab_size: int = 2,
                 num_layers: int = 2, hidden: int = 128, num_heads: int = 2,
                 intermediate: int = 512, eps: float = 1e-12) -> None:
        super().__init__()
        self.embeddings = _Embeddings(vocab_size, max_position, type_vocab_size, hidden, eps)
        self.encoder = _Encoder(num_layers, hidden, num_heads, intermediate, eps)
        self.pooler = _Pooler(hidden)

    def forward(self, input_ids: torch.Tensor, token_type_ids: torch.Tensor,
                attention_mask: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        x = self.embeddings(input_ids, token_type_ids)
        add_mask = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * -10000.0
        x = self.encoder(x, add_mask)
        return x, self.pooler(x)


# -- LSTM language model -----------------------------------------------------------------------
class LSTMLanguageModel(nn.Module):
    """Embedding -> ``nn.LSTM`` (batch first) -> decoder (``lstm.get_workload``)."""

    def __init__(self, vocab_size: int = 1000, embed: int = 64, hidden: int = 128,
                 num_layers: int = 1) -> None:
        super().__init__()
        self.encoder = nn.Embedding(vocab_size, embed)
        self.rnn = nn.LSTM(embed, hidden, num_layers, batch_first=True)
        self.decoder = nn.Linear(hidden, vocab_size)

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        out, _ = self.rnn(self.encoder(input_ids))
        return self.decoder(out)


# -- Vision Transformer ------------------------------------------------------------------------
class _ViTAttention(nn.Module):
    def __init__(self, width: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, n, w = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.heads, w // self.heads).permute(2, 0, 3, 1, 4)
        probs = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(w // self.heads), dim=-1)
        return self.proj(torch.matmul(probs, v).permute(0, 2, 1, 3).reshape(b, n, w))


class _ViTMlp(nn.Module):
    def __init__(self, width: int, hidden: int) -> None:
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(width, hidden), nn.Linear(hidden, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.nn.functional.gelu(self.fc1(x)))


class _ViTBlock(nn.Module):
    def __init__(self, width: int, heads: int, mlp: int, eps: float) -> None:
        super().__init__()
        self.norm1, self.attn = nn.LayerNorm(width, eps=eps), _ViTAttention(width, heads)
        self.norm2, self.mlp = nn.LayerNorm(width, eps=eps), _ViTMlp(width, mlp)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class _PatchEmbed(nn.Module):
    def __init__(self, in_channels: int, width: int, patch: int) -> None:
        super().__init__()
        self.proj = nn.Conv2d(in_channels, width, patch, stride=patch)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.proj(x).flatten(2).transpose(1, 2)


class ViT(nn.Module):
    """Pre-norm Vision Transformer (``vit.get_workload``; timm's weight names)."""

    def __init__(self, image_size: int = 224, patch: int = 16, width: int = 192, depth: int = 12,
                 heads: int = 3, mlp: int = 768, num_classes: int = 1000, in_channels: int = 3,
                 eps: float = 1e-6) -> None:
        super().__init__()
        n = (image_size // patch) ** 2 + 1
        self.patch_embed = _PatchEmbed(in_channels, width, patch)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, width))
        self.pos_embed = nn.Parameter(torch.zeros(1, n, width))
        self.blocks = nn.Sequential(*[_ViTBlock(width, heads, mlp, eps) for _ in range(depth)])
        self.norm = nn.LayerNorm(width, eps=eps)
        self.head = nn.Linear(width, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.patch_embed(x)
        x = torch.cat([self.cls_token.expand(x.shape[0], -1, -1), x], dim=1) + self.pos_embed
        return self.head(self.norm(self.blocks(x))[:, 0])
