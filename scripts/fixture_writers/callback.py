"""mx.callback log lines and calls, and mx.monitor.Monitor statistics of a small executor.

``record_callbacks(mx)`` drives every callback with a fake clock (``mx.callback.time`` is
swapped for it) and a seeded Accuracy metric, capturing the log messages and checkpoint calls;
``record_monitor(mx)`` runs Monitor on a bound FullyConnected+relu symbol. The writer runs both
under real MXNet, the test under mxcompat.
"""
import json
import logging
import os
from collections import namedtuple

import numpy as np

BatchEndParam = namedtuple('BatchEndParams', ['epoch', 'nbatch', 'eval_metric', 'locals'])


class _Clock(object):
    """Stands in for the ``time`` module: ``time()`` returns a scripted value."""

    def __init__(self):
        self.now = 100.0

    def time(self):
        return self.now


class _Capture(logging.Handler):
    def __init__(self):
        super(_Capture, self).__init__(logging.INFO)
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


class _FakeModule(object):
    def __init__(self, calls):
        self.calls = calls

    def save_checkpoint(self, prefix, epoch, save_optimizer_states=False):
        self.calls.append(['module', prefix, epoch, save_optimizer_states])


def _batches(mx, metric, callbacks, clock, epochs=(7, 5), dt=(0.5, 0.25, 0.0)):
    r = np.random.RandomState(3)
    step = 0
    for epoch, nbatch in enumerate(epochs):
        for i in range(nbatch):
            if metric is not None:
                label = mx.nd.array(r.randint(0, 3, size=4))
                metric.update([label], [mx.nd.array(r.uniform(size=(4, 3)))])
            clock.now += dt[step % len(dt)]
            step += 1
            for cb in callbacks:
                cb(BatchEndParam(epoch=epoch, nbatch=i, eval_metric=metric, locals=None))


def record_callbacks(mx):
    """Log lines and checkpoint calls of every callback, per scenario."""
    clock, capture, root = _Clock(), _Capture(), logging.getLogger()
    saved_time, saved_save = mx.callback.time, mx.callback.save_checkpoint
    level = root.level
    calls = []
    out = {}
    mx.callback.time = clock
    mx.callback.save_checkpoint = lambda *a: calls.append(['model'] + [str(x) for x in a])
    root.addHandler(capture)
    root.setLevel(logging.INFO)
    try:
        scenarios = {
            'speedometer': (mx.metric.Accuracy(), [mx.callback.Speedometer(4, 2)]),
            'speedometer-no-reset': (mx.metric.Accuracy(),
                                     [mx.callback.Speedometer(4, 3, auto_reset=False)]),
            'speedometer-no-metric': (None, [mx.callback.Speedometer(8, 2)]),
            'speedometer-composite': (mx.metric.create(['acc', 'ce']),
                                      [mx.callback.Speedometer(2, 4)]),
            'log-train-metric': (mx.metric.Accuracy(), [mx.callback.log_train_metric(3)]),
            'log-train-metric-reset': (mx.metric.Accuracy(),
                                       [mx.callback.log_train_metric(2, auto_reset=True)]),
            'progress-bar': (None, [mx.callback.ProgressBar(total=6, length=10)]),
            'validation': (mx.metric.create(['acc', 'ce']),
                           [mx.callback.LogValidationMetricsCallback()]),
            'validation-no-metric': (None, [mx.callback.LogValidationMetricsCallback()]),
        }
        for name, (metric, callbacks) in scenarios.items():
            del capture.lines[:]
            _batches(mx, metric, callbacks, clock)
            out[name] = list(capture.lines)
        module_cb = mx.callback.module_checkpoint(_FakeModule(calls), 'mod', period=2,
                                                 save_optimizer_states=True)
        model_cb = mx.callback.do_checkpoint('net', period=3)
        for epoch in range(7):
            module_cb(epoch)
            model_cb(epoch, 'sym', 'arg', 'aux')
        out['checkpoint-calls'] = calls
    finally:
        mx.callback.time, mx.callback.save_checkpoint = saved_time, saved_save
        root.removeHandler(capture)
        root.setLevel(level)
    return out


def _seeded(name, shape):
    r = np.random.RandomState(sum(map(ord, name)))
    return r.uniform(-1, 1, size=shape).astype(np.float32)


MONITORS = {
    'outputs': dict(interval=2, sort=False),
    'sorted-weights': dict(interval=1, pattern='.*weight|.*output', sort=True),
    'all-inputs': dict(interval=3, pattern='fc.*', monitor_all=True, sort=True),
    'custom-stat': dict(interval=2, pattern='act.*', stat='minmax'),
}


def record_monitor(mx, name):
    """``toc()`` results of Monitor config ``name`` over 4 forward passes, then the lines
    ``toc_print()`` logs after a 5th."""
    kwargs = dict(MONITORS[name])
    if kwargs.pop('stat', None) == 'minmax':
        kwargs['stat_func'] = lambda x: [mx.nd.max(x), mx.nd.min(x)]
    fc = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=4, name='fc')
    net = mx.sym.Activation(fc, act_type='relu', name='act')
    exe = net.simple_bind(mx.cpu(), data=(2, 3))
    for arg, arr in exe.arg_dict.items():
        arr[:] = _seeded(arg, arr.shape)
    mon = mx.monitor.Monitor(**kwargs)
    mon.install(exe)
    toc, printed = [], []
    for step in range(5):
        exe.arg_dict['data'][:] = _seeded('data%d' % step, (2, 3))
        mon.tic()
        exe.forward(is_train=False)
        if step < 4:
            toc.append([list(row) for row in mon.toc()])
            continue
        capture, root = _Capture(), logging.getLogger()
        level = root.level
        root.addHandler(capture)
        root.setLevel(logging.INFO)
        try:
            mon.toc_print()
        finally:
            root.removeHandler(capture)
            root.setLevel(level)
        printed = capture.lines
    return {'toc': toc, 'printed': printed}


def write(mx, outdir):
    out = {'callbacks': record_callbacks(mx),
           'monitor': {name: record_monitor(mx, name) for name in MONITORS}}
    tmp = os.path.join(outdir, 'callback.json.tmp')
    with open(tmp, 'w') as f:
        json.dump(out, f, indent=0, sort_keys=True)
    os.replace(tmp, os.path.join(outdir, 'callback.json'))
