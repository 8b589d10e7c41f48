"""Which region of a plain-PyTorch training step torch.compile must cover to beat eager on the CPU.

    python benchmarks/torch_compile_regions.py [--rounds 7] [--only mlp resnet18] [--variants ...]

The models and inputs of bench_hybridize_static.py (MLP 784-256-256-10 batch 64, SGD; ResNet-18
v1 batch 16 x 3x32x32, SGD with momentum), written in plain torch only, with torch.compile
around growing parts of the step:

- ``eager``: no compilation (the baseline of the ratios);
- ``model``: ``torch.compile(net)`` (what ``hybridize(static_alloc=True, static_shape=True)``
  with ``MXCOMPAT_COMPILE_STATIC=1`` does to a Gluon block), loss, backward and
  ``optimizer.step()`` eager;
- ``fwd+loss, step``: forward and loss compiled as one function, ``optimizer.step()`` compiled
  on its own, backward through the autograd engine;
- ``joint``: one compiled function computes forward, loss, gradients (``torch.func``) and the
  SGD update, so that no autograd engine, AccumulateGrad or optimizer loop runs per step
  (ResNet-18's BatchNorm runs without moving statistics there: a functional transform cannot
  update buffers in place).

Every compiled region uses the inductor options mxcompat's compiled hybridize uses on the CPU
(``layout_optimization=False``: channels-last layouts slow convolutions' backward there).
Per-step CPU time of this process (``time.process_time``), median of interleaved rounds, one
intra-op thread; the first-call column is wall time and includes compiling.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_gluon import _inputs, _torch_step  # noqa: E402
from bench_layers import _images, _torch_resnet, OPT  # noqa: E402

F = torch.nn.functional
COMPILE = dict(options={'layout_optimization': False})


def _net_of(step):
    """The torch module a step closure of bench_gluon / bench_layers trains."""
    return next(c.cell_contents for c in step.__closure__
                if isinstance(c.cell_contents, torch.nn.Module))


def _sgd(net, momentum):
    return torch.optim.SGD(net.parameters(), lr=OPT['learning_rate'], momentum=momentum)


def _model(net, x, y, momentum):
    opt, fwd = _sgd(net, momentum), torch.compile(net, **COMPILE)

    def step():
        opt.zero_grad()
        F.cross_entropy(fwd(x), y).backward()
        opt.step()
    return step


def _fwd_loss_step(net, x, y, momentum):
    opt = _sgd(net, momentum)
    fwd_loss = torch.compile(lambda x, y: F.cross_entropy(net(x), y), **COMPILE)
    opt_step = torch.compile(opt.step, **COMPILE)

    def step():
        opt.zero_grad()
        fwd_loss(x, y).backward()
        opt_step()
    return step


def _joint(net, x, y, momentum):
    from torch.func import functional_call, grad_and_value
    for m in net.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.track_running_stats, m.running_mean, m.running_var = False, None, None
    names = [n for n, _ in net.named_parameters()]
    params = [p.detach() for _, p in net.named_parameters()]
    moms = [torch.zeros_like(p) for p in params]
    lr = OPT['learning_rate']
    grads_of = grad_and_value(lambda p, x, y: F.cross_entropy(functional_call(net, p, (x,)), y))

    @torch.compile(**COMPILE)
    def update(params, moms, x, y):
        grads, loss = grads_of(dict(zip(names, params)), x, y)
        grads = [grads[n] for n in names]
        if momentum:
            torch._foreach_mul_(moms, momentum)
            torch._foreach_add_(moms, grads)
            grads = moms
        torch._foreach_add_(params, grads, alpha=-lr)
        return loss
    return lambda: update(params, moms, x, y)


MODELS = {'mlp': (_inputs, _torch_step, 0.0), 'resnet18': (_images, _torch_resnet,
                                                           OPT['momentum'])}
VARIANTS = {'model': _model, 'fwd+loss, step': _fwd_loss_step, 'joint': _joint}


def _build(model, variant):
    inputs, make, momentum = MODELS[model]
    arrays = {k: torch.from_numpy(v) for k, v in inputs(0, np.random.RandomState(0)).items()}
    torch.manual_seed(0)
    eager = make(torch, **arrays)
    if variant == 'eager':
        return eager
    return VARIANTS[variant](_net_of(eager), arrays['x'], arrays['y'].long(), momentum)


def _per_call(fn, seconds):
    number = 1
    while True:
        t0 = time.process_time()
        for _ in range(number):
            fn()
        elapsed = time.process_time() - t0
        if elapsed >= seconds:
            return elapsed / number, number
        number *= 2


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--rounds', type=int, default=7)
    parser.add_argument('--only', nargs='*', default=list(MODELS), choices=list(MODELS))
    parser.add_argument('--variants', nargs='*', default=list(VARIANTS), choices=list(VARIANTS))
    args = parser.parse_args()
    torch.set_num_threads(1)
    rows = [(m, v) for m in args.only for v in ['eager'] + args.variants]
    steps, first, numbers, times = {}, {}, {}, {row: [] for row in rows}
    for row in rows:
        t0 = time.perf_counter()
        steps[row] = _build(*row)
        steps[row]()
        first[row] = time.perf_counter() - t0
        numbers[row] = _per_call(steps[row], 0.2)[1]
    for _ in range(args.rounds):
        for row in rows:
            t0 = time.process_time()
            for _ in range(numbers[row]):
                steps[row]()
            times[row].append((time.process_time() - t0) / numbers[row])
    print('per-step CPU time, median of %d interleaved rounds; load average %s'
          % (args.rounds, ' '.join('%.2f' % a for a in os.getloadavg())))
    print('%-26s %12s %10s %12s' % ('step', 'us', 'x eager', 'first (s)'))
    for model, variant in rows:
        med = statistics.median(times[model, variant])
        base = statistics.median(times[model, 'eager'])
        print('%-26s %12.1f %9.2fx %12.1f' % ('%s %s' % (model, variant), med * 1e6,
                                              med / base, first[model, variant]))


if __name__ == '__main__':
    main()
