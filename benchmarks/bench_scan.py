"""Time ``mxcompat scan`` on a generated MXNet codebase of a given size (one process, one core:
run it under ``taskset -c 0`` to pin it).

    python benchmarks/bench_scan.py                 # 100,000 lines
    python benchmarks/bench_scan.py --lines 250000 --keep /tmp/gen

The code is generated from a template of typical MXNet 1.x code (Gluon blocks with
hybrid_forward, mx.nd / mx.sym calls with keyword arguments, Module training, imports under
aliases), with names varied per copy, in files of about 500 lines. It prints the time of the scan
(parsing and resolving; the report is built in memory) and of writing the JSON and HTML reports.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

TEMPLATE = '''\
import mxnet as mx
from mxnet import gluon, nd, autograd
from mxnet.gluon import nn
from mxnet.gluon.nn import Dense as D{i}


class Block{i}(gluon.HybridBlock):
    """Block number {i}."""

    def __init__(self, channels={i}, **kwargs):
        super(Block{i}, self).__init__(**kwargs)
        with self.name_scope():
            self.conv = nn.Conv2D(channels, kernel_size=3, padding=1, use_bias=False)
            self.bn = nn.BatchNorm(momentum=0.9, epsilon=1e-5)
            self.fc = D{i}(10, flatten=True)

    def hybrid_forward(self, F, x):
        y = F.Activation(self.bn(self.conv(x)), act_type='relu')
        y = F.Pooling(y, kernel=(2, 2), pool_type='max', stride=(2, 2))
        z = F.broadcast_add(y, F.ones_like(y))
        return self.fc(F.flatten(z + F.relu(y)))


def train{i}(data, label, ctx=mx.cpu()):
    net = Block{i}()
    net.initialize(mx.init.Xavier(magnitude=2.24), ctx=ctx)
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {{'learning_rate': 0.1}})
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    with autograd.record():
        loss = loss_fn(net(nd.array(data, ctx=ctx)), nd.array(label, ctx=ctx))
    loss.backward()
    trainer.step(data.shape[0])
    return nd.mean(loss).asscalar()


def symbol{i}(num_classes=10):
    data = mx.sym.Variable('data')
    fc1 = mx.sym.FullyConnected(data=data, num_hidden=128, name='fc1_{i}')
    act1 = mx.sym.Activation(data=fc1, act_type='relu', name='relu1_{i}')
    fc2 = mx.sym.FullyConnected(data=act1, num_hidden=num_classes, name='fc2_{i}')
    out = mx.sym.SoftmaxOutput(data=fc2, name='softmax')
    mod = mx.mod.Module(out, context=mx.cpu())
    it = mx.io.NDArrayIter(nd.zeros((8, 4)), nd.zeros((8,)), batch_size=4)
    mod.fit(it, num_epoch=1, optimizer='sgd', eval_metric=mx.metric.Accuracy())
    return mod

'''


def generate(root, lines):
    """Write files of about 500 lines under ``root`` until ``lines`` lines; returns the
    number of lines written."""
    per = TEMPLATE.count('\n')
    total = i = 0
    while total < lines:
        with open(os.path.join(root, 'mod%04d.py' % (i // 10)), 'a') as f:
            f.write(TEMPLATE.format(i=i))
        total += per
        i += 1
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--lines', type=int, default=100000)
    ap.add_argument('--keep', help='generate into this directory and keep it')
    args = ap.parse_args()
    root = args.keep or tempfile.mkdtemp(prefix='mxscan')
    os.makedirs(root, exist_ok=True)
    try:
        lines = generate(root, args.lines)
        t0 = time.perf_counter()
        from mxcompat.tools import scan
        t1 = time.perf_counter()
        rep = scan.scan([root])
        t2 = time.perf_counter()
        json.dumps(rep)
        scan.format_html(rep)
        t3 = time.perf_counter()
        print(json.dumps({'lines': lines, 'files': rep['files'], 'uses': rep['totals']['uses'],
                          'apis': rep['totals']['apis'],
                          'import_mxcompat_s': round(t1 - t0, 2),
                          'scan_s': round(t2 - t1, 2), 'json_and_html_s': round(t3 - t2, 2)}))
    finally:
        if not args.keep:
            shutil.rmtree(root)


if __name__ == '__main__':
    main()
