"""The PyTorch modules the TorchScript importer is tested on (torchvision-like ResNet
blocks, a MobileNet-like depthwise net, an MLP, a transformer encoder layer, an LSTM),
with seeded weights and inputs; importable without relay_mlir (the side venv records
TVM 0.19's import of them)."""
import torch
from torch import nn


class BasicBlock(nn.Module):
    """torchvision's ResNet-18 BasicBlock (in-place ReLU, += shortcut)."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.downsample = None
        if stride != 1 or cin != cout:
            self.downsample = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)


class ResNetish(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(8)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        self.layer1 = nn.Sequential(BasicBlock(8, 8, 1), BasicBlock(8, 8, 1))
        self.layer2 = nn.Sequential(BasicBlock(8, 16, 2), BasicBlock(16, 16, 1))
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer2(self.layer1(x))
        x = torch.flatten(self.avgpool(x), 1)
        return self.fc(x)


class MobileNetish(nn.Module):
    """Depthwise-separable blocks (groups = channels), ReLU6, dropout, classifier."""

    def __init__(self):
        super().__init__()
        def dw(cin, cout, stride):
            return nn.Sequential(
                nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False), nn.BatchNorm2d(cin), nn.ReLU6(inplace=True),
                nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU6(inplace=True))
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1, bias=False), nn.BatchNorm2d(8), nn.ReLU6(),
                                      dw(8, 16, 1), dw(16, 32, 2))
        self.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(32, 10))

    def forward(self, x):
        x = self.features(x)
        x = nn.functional.adaptive_avg_pool2d(x, 1).reshape(x.shape[0], -1)
        return self.classifier(x)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = nn.Linear(12, 32), nn.Linear(32, 16), nn.Linear(16, 5)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        h = self.drop(nn.functional.gelu(self.fc1(x)))
        h = torch.tanh(self.fc2(h)) * 2.0 - h.mean(dim=1, keepdim=True)
        return torch.softmax(self.fc3(h), dim=-1)


class Encoder(nn.Module):
    """Token embedding + one transformer encoder layer (self-attention, layer norm, FFN)."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 16)
        self.layer = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.1, batch_first=True)
        self.head = nn.Linear(16, 3)

    def forward(self, tokens):
        h = self.layer(self.emb(tokens))
        return self.head(h.permute(1, 0, 2).transpose(0, 1).contiguous()).view(-1, 3)


class LSTMNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(6, 8, batch_first=True)
        self.fc = nn.Linear(8, 2)

    def forward(self, x):
        out, (h, c) = self.lstm(x)
        return self.fc(out[:, -1]), h


def _input(name):
    g = torch.Generator().manual_seed(1)
    if name == "encoder":
        return torch.randint(0, 20, (2, 5), generator=g)
    shape = {"resnet": (1, 3, 32, 32), "mobilenet": (1, 3, 16, 16), "mlp": (4, 12), "lstm": (2, 4, 6)}[name]
    return torch.randn(*shape, generator=g)


MODELS = {"resnet": ResNetish, "mobilenet": MobileNetish, "mlp": MLP, "encoder": Encoder, "lstm": LSTMNet}


def _model(name):
    torch.manual_seed(0)
    m = MODELS[name]()
    for mod in m.modules():  # non-trivial batch-norm statistics
        if isinstance(mod, nn.BatchNorm2d):
            mod.running_mean.uniform_(-0.5, 0.5)
            mod.running_var.uniform_(0.5, 2.0)
    return m.eval()


def _script(name, how):
    m, x = _model(name), _input(name)
    if how == "trace":
        return m, x, torch.jit.trace(m, x, check_trace=False)
    return m, x, torch.jit.script(m)
