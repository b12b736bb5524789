"""torch.nn twins of builder models that have none in ``relay_mlir.testing.torch_models`` (bench only).

``demo_resnet(params)``: ``relay_mlir.testing.resnet`` (the ``relay-mlir demo``
network) with the builder's weights, so every system computes the same
function and outputs can be compared across systems.
"""
from __future__ import annotations

from typing import Mapping

import numpy as np


def demo_resnet(params: Mapping[str, np.ndarray], eps: float = 2e-5):
    import torch
    from torch import nn

    def t(name):
        return torch.from_numpy(np.ascontiguousarray(params[name]))

    class ConvBN(nn.Module):
        def __init__(self, name: str, stride: int, pad: int, relu: bool) -> None:
            super().__init__()
            w = t(f"{name}_weight")
            self.conv = nn.Conv2d(w.shape[1], w.shape[0], w.shape[2], stride=stride, padding=pad, bias=False)
            self.bn = nn.BatchNorm2d(w.shape[0], eps=eps)
            with torch.no_grad():
                self.conv.weight.copy_(w)
                self.bn.weight.copy_(t(f"{name}_bn_gamma"))
                self.bn.bias.copy_(t(f"{name}_bn_beta"))
                self.bn.running_mean.copy_(t(f"{name}_bn_moving_mean"))
                self.bn.running_var.copy_(t(f"{name}_bn_moving_var"))
            self.relu = relu

        def forward(self, x):
            y = self.bn(self.conv(x))
            return torch.relu(y) if self.relu else y

    class DemoResNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.stem = ConvBN("stem", 1, 1, True)
            self.pool = nn.MaxPool2d(3, 2, 1)
            self.s1c1, self.s1c2 = ConvBN("stage1_conv1", 1, 1, True), ConvBN("stage1_conv2", 1, 1, False)
            self.s2c1, self.s2c2 = ConvBN("stage2_conv1", 2, 1, True), ConvBN("stage2_conv2", 1, 1, False)
            self.proj_pool = nn.AvgPool2d(2, 2)
            self.proj = ConvBN("stage2_proj", 1, 0, False)
            w = t("fc_weight")
            self.fc = nn.Linear(w.shape[1], w.shape[0])
            with torch.no_grad():
                self.fc.weight.copy_(w)
                self.fc.bias.copy_(t("fc_bias"))

        def forward(self, x):
            x = self.pool(self.stem(x))
            x = torch.relu(x + self.s1c2(self.s1c1(x)))
            x = torch.relu(self.proj(self.proj_pool(x)) + self.s2c2(self.s2c1(x)))
            x = torch.flatten(torch.mean(x, dim=(2, 3), keepdim=True), 1)
            return torch.softmax(self.fc(x), dim=-1)

    return DemoResNet().eval()
