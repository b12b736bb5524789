"""torch.nn twin of the demo CNN (``relay_mlir.models.resnet.get_workload()``), bench only.

``relay_mlir.models.torch_models`` has twins of the zoo models; the
``relay-mlir demo`` network has none. ``demo_resnet(params)`` builds it with
the builder's weights, so every system computes the same function and
outputs can be compared across systems. The classes are module-level so the
twin can be pickled (``torch.save``) for the PyTorch run process.
"""
from __future__ import annotations

from typing import Mapping

import numpy as np
import torch
from torch import nn


def _t(params: Mapping[str, np.ndarray], name: str) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(params[name]))


class ConvBN(nn.Module):
    def __init__(self, params: Mapping[str, np.ndarray], name: str, stride: int, pad: int, relu: bool,
                 eps: float = 2e-5) -> None:
        super().__init__()
        w = _t(params, f"{name}_weight")
        self.conv = nn.Conv2d(w.shape[1], w.shape[0], w.shape[2], stride=stride, padding=pad, bias=False)
        self.bn = nn.BatchNorm2d(w.shape[0], eps=eps)
        with torch.no_grad():
            self.conv.weight.copy_(w)
            self.bn.weight.copy_(_t(params, f"{name}_bn_gamma"))
            self.bn.bias.copy_(_t(params, f"{name}_bn_beta"))
            self.bn.running_mean.copy_(_t(params, f"{name}_bn_moving_mean"))
            self.bn.running_var.copy_(_t(params, f"{name}_bn_moving_var"))
        self.relu = relu

    def forward(self, x):
        y = self.bn(self.conv(x))
        return torch.relu(y) if self.relu else y


class DemoResNet(nn.Module):
    def __init__(self, params: Mapping[str, np.ndarray]) -> None:
        super().__init__()
        self.stem = ConvBN(params, "stem", 1, 1, True)
        self.pool = nn.MaxPool2d(3, 2, 1)
        self.s1c1 = ConvBN(params, "stage1_conv1", 1, 1, True)
        self.s1c2 = ConvBN(params, "stage1_conv2", 1, 1, False)
        self.s2c1 = ConvBN(params, "stage2_conv1", 2, 1, True)
        self.s2c2 = ConvBN(params, "stage2_conv2", 1, 1, False)
        self.proj_pool = nn.AvgPool2d(2, 2)
        self.proj = ConvBN(params, "stage2_proj", 1, 0, False)
        w = _t(params, "fc_weight")
        self.fc = nn.Linear(w.shape[1], w.shape[0])
        with torch.no_grad():
            self.fc.weight.copy_(w)
            self.fc.bias.copy_(_t(params, "fc_bias"))

    def forward(self, x):
        x = self.pool(self.stem(x))
        x = torch.relu(x + self.s1c2(self.s1c1(x)))
        x = torch.relu(self.proj(self.proj_pool(x)) + self.s2c2(self.s2c1(x)))
        x = torch.flatten(torch.mean(x, dim=(2, 3), keepdim=True), 1)
        return torch.softmax(self.fc(x), dim=-1)


def demo_resnet(params: Mapping[str, np.ndarray]) -> nn.Module:
    return DemoResNet(params).eval()
