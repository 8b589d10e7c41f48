"""ResNet-50 v1 training in float32 against the same model under ``mx.contrib.amp``.

    python benchmarks/bench_amp.py --gpu [--batch 64] [--size 224] [--iters 10] [--rounds 3]
                                   [--json PATH]

Both runs are ``gluon.model_zoo.vision.resnet50_v1``, hybridized, trained with SGD (momentum
0.9) from the same initial weights on the same synthetic batches; the AMP run is the loop
GluonCV's and GluonNLP's scripts write (``amp.init()``, ``amp.init_trainer(trainer)``,
``with amp.scale_loss(loss, trainer) as scaled: autograd.backward(scaled)``). The target type
is float16 on the GPU and bfloat16 on the CPU (MXNet's CPU AMP type). Rounds interleave: each
round times ``--iters`` steps of float32, then of AMP, in one process. Prints img/s of both,
their ratio, and the loss of every step of both runs (their curves should follow each other).

``amp.init`` applies to graphs built after it: the float32 network is built and hybridized
(its graph traced) before ``amp.init``, so it stays in float32 in the same process.

CPU dry run: ``python benchmarks/bench_amp.py --batch 2 --size 32 --iters 2 --rounds 1``.
"""
import argparse
import json
import os
import platform
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import torch  # noqa: E402

import mxcompat as mx  # noqa: E402
from mxcompat import autograd, gluon  # noqa: E402
from mxcompat.contrib import amp  # noqa: E402

CLASSES = 1000
N_BATCHES = 4  # distinct synthetic batches, cycled: the losses then fall as the net fits them


def _batches(ctx, batch, size):
    rs = np.random.RandomState(0)
    return [(mx.nd.array(rs.uniform(-1, 1, (batch, 3, size, size)).astype('float32'), ctx=ctx),
             mx.nd.array(rs.randint(0, CLASSES, (batch,)).astype('float32'), ctx=ctx))
            for _ in range(N_BATCHES)]


def _net(ctx, batches, init_from=None):
    net = gluon.model_zoo.vision.resnet50_v1(classes=CLASSES)
    net.initialize(mx.init.Xavier(magnitude=2), ctx=ctx)
    net.hybridize()
    with autograd.record():  # completes deferred shapes and traces the training graph
        net(batches[0][0])
    if init_from is not None:
        for dst, src in zip(net.collect_params().values(), init_from.collect_params().values()):
            dst.set_data(src.data(ctx))
    return net


class _Run(object):
    """One training run: a step function, its losses (kept on the device until the end)."""

    def __init__(self, net, batch, batches, use_amp, lr):
        self.net, self.batch, self.batches, self.use_amp = net, batch, batches, use_amp
        self.loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
        self.trainer = gluon.Trainer(net.collect_params(), 'sgd',
                                     {'learning_rate': lr, 'momentum': 0.9, 'wd': 1e-4})
        if use_amp:
            amp.init_trainer(self.trainer)
        self.losses = []
        self.seconds = []

    def step(self):
        x, y = self.batches[len(self.losses) % len(self.batches)]
        with autograd.record():
            loss = self.loss_fn(self.net(x), y)
            if self.use_amp:
                with amp.scale_loss(loss, self.trainer) as scaled:
                    autograd.backward(scaled)
            else:
                autograd.backward(loss)
        self.trainer.step(self.batch)
        self.losses.append(loss.mean())

    def timed(self, iters, sync):
        sync()
        t0 = time.perf_counter()
        for _ in range(iters):
            self.step()
        sync()
        self.seconds.append(time.perf_counter() - t0)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--gpu', action='store_true', help='run on gpu(0) with float16 AMP')
    ap.add_argument('--batch', type=int, default=64)
    ap.add_argument('--size', type=int, default=224, help='images are SIZE x SIZE')
    ap.add_argument('--iters', type=int, default=10, help='timed steps per run per round')
    ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--warmup', type=int, default=3, help='untimed steps per run first')
    ap.add_argument("--lr", type=float, default=0.02)
    ap.add_argument('--json', metavar='PATH', help='also write the results as JSON')
    args = ap.parse_args(argv)

    if args.gpu:
        if not torch.cuda.is_available():
            ap.error('--gpu given but torch sees no CUDA device')
        ctx, target, sync = mx.gpu(0), 'float16', torch.cuda.synchronize
        device = torch.cuda.get_device_name(0)
    else:
        ctx, target, sync = mx.cpu(), 'bfloat16', (lambda: None)
        device = 'CPU (%s, %d threads)' % (platform.processor() or platform.machine(),
                                           torch.get_num_threads())
    batches = _batches(ctx, args.batch, args.size)

    fp32 = _Run(_net(ctx, batches), args.batch, batches, False, args.lr)
    amp.init(target)  # graphs traced from here on run in mixed precision
    mixed = _Run(_net(ctx, batches, init_from=fp32.net), args.batch, batches, True, args.lr)

    for run in (fp32, mixed):
        for _ in range(args.warmup):
            run.step()
    for _ in range(args.rounds):
        fp32.timed(args.iters, sync)
        mixed.timed(args.iters, sync)

    steps = args.iters * args.rounds
    res = {'device': device, 'target_dtype': target, 'batch': args.batch, 'size': args.size,
           'iters': args.iters, 'rounds': args.rounds, 'warmup': args.warmup,
           'torch': torch.__version__}
    for name, run in (('float32', fp32), ('amp', mixed)):
        res[name] = {'img_per_s': args.batch * steps / sum(run.seconds),
                     'img_per_s_rounds': [args.batch * args.iters / s for s in run.seconds],
                     'loss': [float(l.asscalar()) for l in run.losses]}
    res['amp']['loss_scale'] = mixed.trainer._amp_loss_scaler.loss_scale
    res['ratio'] = res['amp']['img_per_s'] / res['float32']['img_per_s']

    print('ResNet-50 v1 training, batch %d, %dx%d, on %s; AMP target %s; %d rounds x %d steps '
          '(after %d warm-up steps)' % (args.batch, args.size, args.size, device, target,
                                        args.rounds, args.iters, args.warmup))
    print('%-10s %10s' % ('run', 'img/s'))
    print('%-10s %10.1f' % ('float32', res['float32']['img_per_s']))
    print('%-10s %10.1f' % ('amp', res['amp']['img_per_s']))
    print('amp / float32 throughput: %.2fx' % res['ratio'])
    print('final loss scale: %g' % res['amp']['loss_scale'])
    print('%5s %10s %10s' % ('step', 'float32', 'amp'))
    for i, (a, b) in enumerate(zip(res['float32']['loss'], res['amp']['loss'])):
        if i >= 30:
            break
        print('%5d %10.4f %10.4f' % (i, a, b))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(res, f, indent=1)
    return res


if __name__ == '__main__':
    main()
