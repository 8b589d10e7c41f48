"""Model-zoo and recurrent training steps: mxcompat vs plain PyTorch (vs real MXNet).

    python benchmarks/bench_layers.py [--mxnet-python ~/mxnet-oracle/bin/python] [--rounds 5]

* ResNet-18 v1 (``gluon.model_zoo.vision.resnet18_v1(classes=10)``) on 32x32 inputs, batch 16,
  imperative and hybridized, against the same v1 architecture written in torch below
  (torchvision is not assumed): 7x7/2 stem, 3x3 max pool, BasicBlockV1 stages [2, 2, 2, 2].
* A 2-layer LSTM language model (Embedding 1000x200 -> LSTM(200, 2 layers) -> Dense(1000)),
  sequence 35, batch 20, layout TNC, against nn.Embedding + nn.LSTM + nn.Linear.

Every step: forward under ``autograd.record()``, ``SoftmaxCrossEntropyLoss``, ``backward``,
``gluon.Trainer('sgd', momentum 0.9).step`` (torch: ``F.cross_entropy`` + ``torch.optim.SGD``).
"""
import sys

from harness import Workload, main

BATCH, CLASSES = 16, 10
VOCAB, EMBED, SEQ, LM_BATCH = 1000, 200, 35, 20
INPUTS = ('ResNet-18 v1 batch %d x 3x32x32; LSTM LM vocab %d, %d units x 2 layers, seq %d, '
          'batch %d' % (BATCH, VOCAB, EMBED, SEQ, LM_BATCH))
OPT = {'learning_rate': 0.01, 'momentum': 0.9}


def _images(size, rs):
    return {'x': rs.uniform(-1, 1, (BATCH, 3, 32, 32)).astype('float32'),
            'y': rs.randint(0, CLASSES, (BATCH,)).astype('float32')}


def _tokens(size, rs):
    return {'x': rs.randint(0, VOCAB, (SEQ, LM_BATCH)).astype('float32'),
            'y': rs.randint(0, VOCAB, (SEQ, LM_BATCH)).astype('float32')}


def _mx_train(mx, net, x, y):
    loss_fn = mx.gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = mx.gluon.Trainer(net.collect_params(), 'sgd', OPT)
    autograd, batch = mx.autograd, x.shape[0] if len(x.shape) == 4 else x.shape[1]

    def step():
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(batch)
    return step


def _torch_train(torch, net, x, label):
    opt = torch.optim.SGD(net.parameters(), lr=OPT['learning_rate'], momentum=OPT['momentum'])
    cross_entropy = torch.nn.functional.cross_entropy

    def step():
        opt.zero_grad()
        out = net(x)
        loss = cross_entropy(out.reshape(-1, out.shape[-1]), label.reshape(-1))
        loss.backward()
        opt.step()
    return step


# ---------------------------------------------------------------------------- ResNet-18 v1
def _mx_resnet(**hybridize):
    def build(mx, x, y):
        net = mx.gluon.model_zoo.vision.resnet18_v1(classes=CLASSES)
        net.initialize(mx.init.Xavier())
        if hybridize:
            net.hybridize(**hybridize)
        return _mx_train(mx, net, x, y)
    return build


def _torch_resnet(torch, x, y):
    nn = torch.nn

    class BasicBlockV1(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.body = nn.Sequential(
                nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
                nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout))
            self.downsample = None
            if stride != 1 or cin != cout:
                self.downsample = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                                nn.BatchNorm2d(cout))

        def forward(self, x):
            residual = x if self.downsample is None else self.downsample(x)
            return torch.relu(self.body(x) + residual)

    layers = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(),
              nn.MaxPool2d(3, 2, 1)]
    cin = 64
    for i, cout in enumerate((64, 128, 256, 512)):
        stride = 1 if i == 0 else 2
        layers += [BasicBlockV1(cin, cout, stride), BasicBlockV1(cout, cout, 1)]
        cin = cout
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, CLASSES)]
    return _torch_train(torch, nn.Sequential(*layers), x, y.long())


# ---------------------------------------------------------------------------- LSTM LM
def _mx_lstm_lm(hybridize):
    def build(mx, x, y):
        gluon = mx.gluon

        class LM(gluon.HybridBlock):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                with self.name_scope():
                    self.embed = gluon.nn.Embedding(VOCAB, EMBED)
                    self.rnn = gluon.rnn.LSTM(EMBED, num_layers=2, input_size=EMBED)
                    self.decoder = gluon.nn.Dense(VOCAB, flatten=False, in_units=EMBED)

            def hybrid_forward(self, F, tokens):
                return self.decoder(self.rnn(self.embed(tokens)))

        net = LM()
        net.initialize(mx.init.Xavier())
        if hybridize:
            net.hybridize()
        return _mx_train(mx, net, x, y)
    return build


def _torch_lstm_lm(torch, x, y):
    nn = torch.nn

    class LM(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(VOCAB, EMBED)
            self.rnn = nn.LSTM(EMBED, EMBED, num_layers=2)
            self.decoder = nn.Linear(EMBED, VOCAB)

        def forward(self, tokens):
            return self.decoder(self.rnn(self.embed(tokens))[0])

    return _torch_train(torch, LM(), x.long(), y.long())


RESNET_NEEDS = ('gluon.model_zoo.vision.resnet18_v1', 'gluon.Trainer')
LSTM_NEEDS = ('gluon.rnn.LSTM', 'gluon.nn.Embedding', 'gluon.Trainer')
WORKLOADS = [
    Workload('resnet18_v1 step', _images, _mx_resnet(), _torch_resnet, needs=RESNET_NEEDS,
             items=BATCH, first_call=True),
    Workload('resnet18_v1 step hybridized', _images, _mx_resnet(active=True), _torch_resnet,
             needs=RESNET_NEEDS, items=BATCH, first_call=True),
    Workload('lstm lm step', _tokens, _mx_lstm_lm(False), _torch_lstm_lm, needs=LSTM_NEEDS,
             items=LM_BATCH, first_call=True),
    Workload('lstm lm step hybridized', _tokens, _mx_lstm_lm(True), _torch_lstm_lm,
             needs=LSTM_NEEDS, items=LM_BATCH, first_call=True),
]

if __name__ == '__main__':
    sys.exit(main(suite='bench_layers'))
