"""Module API per-batch training cost: mxcompat vs plain PyTorch (vs real MXNet).

    python benchmarks/bench_module.py [--mxnet-python ~/mxnet-oracle/bin/python] [--rounds 5]

One call is one batch of ``Module.fit``'s inner loop on a 784-128-10 MLP symbol
(``FullyConnected -> relu -> FullyConnected -> SoftmaxOutput``): take the next batch of an
``NDArrayIter`` (reset at the end of the epoch), ``forward_backward``, ``update`` (sgd) and
``update_metric`` (accuracy), as ``BaseModule.fit`` does. The torch loop slices the same
arrays, runs forward / ``F.cross_entropy`` / backward / ``torch.optim.SGD`` and counts correct
predictions.
"""
import sys

from harness import Workload, main

BATCH, IN, HIDDEN, CLASSES, SAMPLES = 64, 784, 128, 10, 640
INPUTS = 'Module MLP %d-%d-%d, batch %d, %d samples per epoch' % (IN, HIDDEN, CLASSES, BATCH,
                                                                 SAMPLES)


def _inputs(size, rs):
    return {'x': rs.uniform(-1, 1, (SAMPLES, IN)).astype('float32'),
            'y': rs.randint(0, CLASSES, (SAMPLES,)).astype('float32')}


def _mx_module(mx, x, y):
    data = mx.sym.Variable('data')
    net = mx.sym.FullyConnected(data, num_hidden=HIDDEN, name='fc1')
    net = mx.sym.Activation(net, act_type='relu', name='relu1')
    net = mx.sym.FullyConnected(net, num_hidden=CLASSES, name='fc2')
    net = mx.sym.SoftmaxOutput(net, name='softmax')
    it = mx.io.NDArrayIter(x, y, batch_size=BATCH, shuffle=False, label_name='softmax_label')
    mod = mx.mod.Module(net, data_names=('data',), label_names=('softmax_label',),
                        context=mx.cpu())
    mod.bind(data_shapes=it.provide_data, label_shapes=it.provide_label)
    mod.init_params(initializer=mx.init.Xavier())
    mod.init_optimizer(optimizer='sgd', optimizer_params={'learning_rate': 0.01})
    metric = mx.metric.create('acc')
    batches = iter(it)

    def step():
        nonlocal batches
        try:
            batch = next(batches)
        except StopIteration:
            it.reset()
            metric.reset()
            batches = iter(it)
            batch = next(batches)
        mod.forward_backward(batch)
        mod.update()
        mod.update_metric(metric, batch.label)
    return step


def _torch_loop(torch, x, y):
    nn = torch.nn
    net = nn.Sequential(nn.Linear(IN, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, CLASSES))
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    cross_entropy = nn.functional.cross_entropy
    label = y.long()
    state = {'start': 0, 'correct': 0}

    def step():
        start = state['start']
        if start >= SAMPLES:
            start = state['correct'] = 0
        state['start'] = start + BATCH
        xb, yb = x[start:start + BATCH], label[start:start + BATCH]
        opt.zero_grad()
        out = net(xb)
        cross_entropy(out, yb).backward()
        opt.step()
        state['correct'] += int((out.argmax(1) == yb).sum())
    return step


WORKLOADS = [
    Workload('module fit batch', _inputs, _mx_module, _torch_loop,
             needs=('mod.Module', 'io.NDArrayIter', 'sym.SoftmaxOutput', 'metric.create'),
             items=BATCH, first_call=True),
]

if __name__ == '__main__':
    sys.exit(main(suite='bench_module'))
