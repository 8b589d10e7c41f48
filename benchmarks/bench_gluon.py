"""Gluon MLP training step: mxcompat vs the same model in plain PyTorch (vs real MXNet).

    python benchmarks/bench_gluon.py [--mxnet-python ~/mxnet-oracle/bin/python] [--rounds 5]

One training step of a 784-256-256-10 MLP on a batch of 64, written as the Gluon tutorials
write it (forward under ``autograd.record()``, ``SoftmaxCrossEntropyLoss``, ``backward``,
``gluon.Trainer('sgd').step``), imperative and after ``net.hybridize()``, against
``nn.Sequential`` + ``F.cross_entropy`` + ``torch.optim.SGD``. The first-call table shows what
``hybridize`` costs once (graph build) next to the imperative first call.
"""
import sys

from harness import Workload, main

BATCH, IN, HIDDEN, CLASSES = 64, 784, 256, 10
INPUTS = 'MLP %d-%d-%d-%d, batch %d, float32' % (IN, HIDDEN, HIDDEN, CLASSES, BATCH)
NEEDS = ('gluon.nn.HybridSequential', 'gluon.Trainer', 'gluon.loss.SoftmaxCrossEntropyLoss')


def _inputs(size, rs):
    return {'x': rs.uniform(-1, 1, (BATCH, IN)).astype('float32'),
            'y': rs.randint(0, CLASSES, (BATCH,)).astype('float32')}


def _mx_step(**hybridize):
    def build(mx, x, y):
        gnn = mx.gluon.nn
        net = gnn.HybridSequential()
        with net.name_scope():
            net.add(gnn.Dense(HIDDEN, activation='relu', in_units=IN),
                    gnn.Dense(HIDDEN, activation='relu', in_units=HIDDEN),
                    gnn.Dense(CLASSES, in_units=HIDDEN))
        net.initialize(mx.init.Xavier())
        if hybridize:
            net.hybridize(**hybridize)
        loss_fn = mx.gluon.loss.SoftmaxCrossEntropyLoss()
        trainer = mx.gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.01})
        autograd = mx.autograd

        def step():
            with autograd.record():
                loss = loss_fn(net(x), y)
            loss.backward()
            trainer.step(BATCH)
        return step
    return build


def _torch_step(torch, x, y):
    nn = torch.nn
    net = nn.Sequential(nn.Linear(IN, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, HIDDEN), nn.ReLU(),
                        nn.Linear(HIDDEN, CLASSES))
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    label = y.long()
    cross_entropy = nn.functional.cross_entropy

    def step():
        opt.zero_grad()
        loss = cross_entropy(net(x), label)
        loss.backward()
        opt.step()
    return step


WORKLOADS = [
    Workload('mlp step imperative', _inputs, _mx_step(), _torch_step, needs=NEEDS,
             first_call=True),
    Workload('mlp step hybridized', _inputs, _mx_step(active=True), _torch_step, needs=NEEDS,
             first_call=True),
]

if __name__ == '__main__':
    sys.exit(main(suite='bench_gluon'))
