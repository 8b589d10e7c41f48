"""ResNet-50 v1 training step: mxcompat vs plain PyTorch (vs real MXNet), batch 64.

    python benchmarks/bench_resnet50.py --gpu --size 224 --rounds 3     # the ImageNet setting
    python benchmarks/bench_resnet50.py --size 32 --rounds 1             # a quick CPU run

``gluon.model_zoo.vision.resnet50_v1(classes=1000)`` (imperative, hybridized, and hybridized with
``static_alloc=True, static_shape=True``) against the same v1 architecture written in torch below
(torchvision is not assumed): 7x7/2 stem, 3x3 max pool, BottleneckV1 stages [3, 4, 6, 3] whose
1x1 convolutions carry a bias as Gluon's do. Every step: forward under ``autograd.record()``,
``SoftmaxCrossEntropyLoss``, ``backward``, ``gluon.Trainer('sgd', momentum 0.9).step`` (torch:
``F.cross_entropy`` + ``torch.optim.SGD``). Inputs are BATCH x 3 x SIZE x SIZE.
"""
import sys

from bench_layers import _mx_train, _torch_train
from harness import Workload, main

BATCH, CLASSES = 64, 1000
INPUTS = 'ResNet-50 v1, batch %d x 3 x SIZE x SIZE, %d classes' % (BATCH, CLASSES)


def _images(size, rs):
    return {'x': rs.uniform(-1, 1, (BATCH, 3, size, size)).astype('float32'),
            'y': rs.randint(0, CLASSES, (BATCH,)).astype('float32')}


def _mx_resnet50(**hybridize):
    def build(mx, x, y):
        net = mx.gluon.model_zoo.vision.resnet50_v1(classes=CLASSES)
        net.initialize(mx.init.Xavier())
        if hybridize:
            net.hybridize(**hybridize)
        return _mx_train(mx, net, x, y)
    return build


def _torch_resnet50(torch, x, y):
    nn = torch.nn

    class BottleneckV1(nn.Module):
        def __init__(self, cin, cout, stride, down):
            super().__init__()
            m = cout // 4
            self.body = nn.Sequential(
                nn.Conv2d(cin, m, 1, stride), nn.BatchNorm2d(m), nn.ReLU(),
                nn.Conv2d(m, m, 3, 1, 1, bias=False), nn.BatchNorm2d(m), nn.ReLU(),
                nn.Conv2d(m, cout, 1, 1), nn.BatchNorm2d(cout))
            self.downsample = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                            nn.BatchNorm2d(cout)) if down else None

        def forward(self, x):
            residual = x if self.downsample is None else self.downsample(x)
            return torch.relu(self.body(x) + residual)

    channels = (64, 256, 512, 1024, 2048)
    layers = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(),
              nn.MaxPool2d(3, 2, 1)]
    for i, n in enumerate((3, 4, 6, 3)):
        layers.append(BottleneckV1(channels[i], channels[i + 1], 1 if i == 0 else 2, True))
        layers += [BottleneckV1(channels[i + 1], channels[i + 1], 1, False)
                   for _ in range(n - 1)]
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2048, CLASSES)]
    return _torch_train(torch, nn.Sequential(*layers), x, y.long())


NEEDS = ('gluon.model_zoo.vision.resnet50_v1', 'gluon.Trainer', 'autograd.record')
WORKLOADS = [
    Workload('resnet50_v1 step imperative', _images, _mx_resnet50(), _torch_resnet50,
             needs=NEEDS, first_call=True),
    Workload('resnet50_v1 step hybridized', _images, _mx_resnet50(active=True), _torch_resnet50,
             needs=NEEDS, first_call=True),
    Workload('resnet50_v1 step static_alloc', _images,
             _mx_resnet50(static_alloc=True, static_shape=True), _torch_resnet50,
             needs=NEEDS, first_call=True),
]

if __name__ == '__main__':
    sys.exit(main(suite='bench_resnet50'))
