"""Training steps of ``hybridize(static_alloc=True, static_shape=True)`` blocks with a separate
loss block: what real MXNet 1.9.1 computes.

``scenarios(mx, early=False, fresh_loss=False)`` trains small nets from seeded parameters for
a few steps (a classifier, an L2 regression with a head gradient and grad_req 'add', a block
with two outputs, one with inputs nested in a list) and returns ``{name: numpy array}``:
losses and outputs (read after ``backward``, or with ``early`` before it), gradients and the
parameters at the end (``fresh_loss``: the classifier makes its loss block anew every step;
the numbers stay the same). The writer runs them with real MXNet; the tests run them with
mxcompat, where such a step is one compiled function (gluon/fused_step.py) or, read early,
the ordinary way. ``wide(mx)`` trains a classifier whose matrix products are large enough for
a compiled graph to choose between oneDNN's and MKL's kernels (gluon/gemm_choice.py).
"""
import os

import numpy as np

STEPS = 4
BATCH = 8
STATIC = dict(static_alloc=True, static_shape=True)


def _rand(seed, *shape):
    return np.random.RandomState(seed).uniform(-1, 1, size=shape).astype(np.float32)


X = _rand(1, BATCH, 20)
LABEL = np.random.RandomState(2).randint(0, 5, size=BATCH).astype(np.float32)
TARGET = _rand(3, BATCH, 5)
HEAD = _rand(4, BATCH)


def _seed(mx, net):
    for i, (_, p) in enumerate(sorted(net.collect_params().items())):
        p.set_data(mx.nd.array(_rand(100 + i, *p.shape) * 0.3))


def _mlp(mx, prefix):
    nn = mx.gluon.nn
    net = nn.HybridSequential(prefix=prefix)
    with net.name_scope():
        net.add(nn.Dense(16, activation='relu', in_units=20),
                nn.Dense(16, activation='relu', in_units=16),
                nn.Dense(5, in_units=16))
    net.initialize()
    _seed(mx, net)
    net.hybridize(**STATIC)
    return net


def _two_outputs(mx):
    nn = mx.gluon.nn

    class Net(mx.gluon.HybridBlock):
        def __init__(self, **kwargs):
            super(Net, self).__init__(**kwargs)
            with self.name_scope():
                self.hidden = nn.Dense(16, activation='tanh', in_units=20)
                self.head = nn.Dense(5, in_units=16)

        def hybrid_forward(self, F, x):
            h = self.hidden(x)
            return self.head(h), h

    net = Net(prefix='two_')
    net.initialize()
    _seed(mx, net)
    net.hybridize(**STATIC)
    return net


def _nested_inputs(mx):
    nn = mx.gluon.nn

    class Net(mx.gluon.HybridBlock):
        def __init__(self, **kwargs):
            super(Net, self).__init__(**kwargs)
            with self.name_scope():
                self.dense = nn.Dense(5, in_units=20)

        def hybrid_forward(self, F, x, states):
            return self.dense(x + states[0]) - states[1]

    net = Net(prefix='nested_')
    net.initialize()
    _seed(mx, net)
    net.hybridize(**STATIC)
    return net


def _params(out, tag, net, grads=False):
    for name, p in sorted(net.collect_params().items()):
        out['%s/param/%s' % (tag, name)] = p.data().asnumpy()
        if grads and p.grad_req != 'null':
            out['%s/grad/%s' % (tag, name)] = p.grad().asnumpy()


def scenarios(mx, early=False, fresh_loss=False):
    out = {}
    x, label, target = mx.nd.array(X), mx.nd.array(LABEL), mx.nd.array(TARGET)

    # a classifier: SoftmaxCrossEntropyLoss, SGD with momentum and weight decay
    net = _mlp(mx, 'ce_')
    loss_fn = mx.gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = mx.gluon.Trainer(net.collect_params(), 'sgd',
                               {'learning_rate': 0.1, 'momentum': 0.9, 'wd': 1e-3})
    for step in range(STEPS):
        if fresh_loss:
            loss_fn = mx.gluon.loss.SoftmaxCrossEntropyLoss()
        with mx.autograd.record():
            pred = net(x)
            loss = loss_fn(pred, label)
        if early:
            out['ce/loss%d' % step] = loss.asnumpy()
        loss.backward()
        trainer.step(BATCH)
        out['ce/loss%d' % step] = loss.asnumpy()
        out['ce/pred%d' % step] = pred.asnumpy()
    _params(out, 'ce', net)

    # L2Loss with a head gradient, one weight accumulating its gradient (grad_req 'add')
    net = _mlp(mx, 'l2_')
    first = net.collect_params()['l2_dense0_weight']
    first.grad_req = 'add'
    first.zero_grad()
    loss_fn = mx.gluon.loss.L2Loss()
    trainer = mx.gluon.Trainer(net.collect_params(), 'adam', {'learning_rate': 0.01})
    for step in range(STEPS):
        with mx.autograd.record():
            loss = loss_fn(net(x), target)
        if early:
            out['l2/loss%d' % step] = loss.asnumpy()
        loss.backward(mx.nd.array(HEAD))
        out['l2/loss%d' % step] = loss.asnumpy()
        out['l2/accumulated%d' % step] = first.grad().asnumpy()
        trainer.step(BATCH)
    _params(out, 'l2', net)

    # a block with two outputs, the loss on one; autograd.backward on a list of heads
    net = _two_outputs(mx)
    loss_fn = mx.gluon.loss.SoftmaxCrossEntropyLoss()
    for step in range(2):
        with mx.autograd.record():
            pred, hidden = net(x)
            loss = loss_fn(pred, label)
        if early:
            out['two/hidden%d' % step] = hidden.asnumpy()
        mx.autograd.backward([loss])
        out['two/hidden%d' % step] = hidden.asnumpy()
        out['two/loss%d' % step] = loss.asnumpy()
    _params(out, 'two', net, grads=True)

    # inputs nested in a list (as an RNN layer takes its states)
    net = _nested_inputs(mx)
    loss_fn = mx.gluon.loss.L2Loss()
    states = [mx.nd.array(_rand(5, BATCH, 20)), mx.nd.array(_rand(6, BATCH, 5))]
    for step in range(3):
        with mx.autograd.record():
            loss = loss_fn(net(x, states), target)
        if early:
            out['nested/loss%d' % step] = loss.asnumpy()
        loss.backward()
        out['nested/loss%d' % step] = loss.asnumpy()
    _params(out, 'nested', net, grads=True)
    return out


WIDE_X = _rand(7, 32, 256)
WIDE_LABEL = np.random.RandomState(8).randint(0, 10, size=32).astype(np.float32)


def wide(mx):
    """A classifier 256-128-10 on a batch of 32 (products of 32x256 by 256x128 and 128x32 by
    32x256), SGD: its losses and parameters after STEPS steps."""
    nn = mx.gluon.nn
    net = nn.HybridSequential(prefix='wide_')
    with net.name_scope():
        net.add(nn.Dense(128, activation='relu', in_units=256), nn.Dense(10, in_units=128))
    net.initialize()
    _seed(mx, net)
    net.hybridize(**STATIC)
    loss_fn = mx.gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = mx.gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
    x, label = mx.nd.array(WIDE_X), mx.nd.array(WIDE_LABEL)
    out = {}
    for step in range(STEPS):
        with mx.autograd.record():
            loss = loss_fn(net(x), label)
        loss.backward()
        trainer.step(32)
        out['wide/loss%d' % step] = loss.asnumpy()
    _params(out, 'wide', net)
    return out


def write(mx, outdir):
    np.savez(os.path.join(outdir, 'fused_step.npz'), **scenarios(mx))
    np.savez(os.path.join(outdir, 'fused_step_wide.npz'), **wide(mx))
