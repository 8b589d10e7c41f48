"""gluon.contrib.estimator fixtures: what real MXNet 1.9.1's fit API computes, logs and saves.

``run(mx, workdir)`` trains a small hybridized net (parameters seeded from the parameter names)
with ``Estimator.fit`` on generated data in seven scenarios, plus bad arguments, and returns ``(arrays, info)``:

- ``fit``: 2 epochs with LoggingHandler (every 2 batches), CheckpointHandler (every epoch,
  save_best on the validation accuracy, max_checkpoints=1, verbose), EarlyStoppingHandler (on
  the validation loss) and a ValidationHandler that also evaluates every 2 batches;
- ``resume``: a fresh net resumed from those checkpoints, trained to 4 epochs;
- ``batches``: 7 batches with a checkpoint every 3 batches (symbol file, max_checkpoints=2),
  then (``batches_resume``) a fresh net resumed from them to 12 batches;
- ``early``: early stopping on the training accuracy in 'min' mode;
- ``multi``: 2 epochs on two contexts [cpu(0), cpu(1)] with a validation set;
- ``reuse``: two fits given the same list of handlers;
- ``errors``: the exception types of bad arguments (and the warnings of redundant ones).

Arrays are the metric values, the final and the '-best' weights; info holds the logged lines
(times and the directory replaced), the checkpoint file names, the saved symbol's arguments
and outputs, the handlers' counters and the warnings the estimator package gave. tests/test_gluon_estimator.py runs the same ``run`` with
mxcompat.
"""
import io
import json
import logging
import os
import re
import shutil
import tempfile
import warnings
import zlib

import numpy as np

N_TRAIN, N_VAL, BATCH, N_IN, N_CLASS = 20, 12, 8, 5, 3


def _data(seed, n):
    rng = np.random.RandomState(seed)
    x = rng.uniform(-1, 1, size=(n, N_IN)).astype(np.float32)
    y = rng.randint(0, N_CLASS, size=(n,)).astype(np.float32)
    return x, y


def _net(mx, ctx=None):
    """Dense(8, relu) -> Dense(3) on `ctx` (default cpu()), hybridized, every parameter drawn
    from a generator seeded by its name."""
    nn = mx.gluon.nn
    net = nn.HybridSequential(prefix='estnet_')
    with net.name_scope():
        net.add(nn.Dense(8, in_units=N_IN, activation='relu'))
        net.add(nn.Dense(N_CLASS, in_units=8))
    net.initialize(ctx=ctx or mx.cpu())
    for name, p in net.collect_params().items():
        rng = np.random.RandomState(zlib.crc32(name.encode()))
        p.set_data(mx.nd.array(rng.uniform(-0.5, 0.5, size=p.shape).astype(np.float32)))
    net.hybridize()
    return net


def _loader(mx, seed, n, batch_size):
    x, y = _data(seed, n)
    dataset = mx.gluon.data.ArrayDataset(mx.nd.array(x), mx.nd.array(y))
    return mx.gluon.data.DataLoader(dataset, batch_size=batch_size, shuffle=False)


_TIMES = [(re.compile(r'time/interval: [0-9.]+s'), 'time/interval: Ts'),
          (re.compile(r'Finished in [0-9.]+s'), 'Finished in Ts'),
          (re.compile(r'using total [0-9]+s'), 'using total Ts')]


def _lines(log, workdir):
    text = log.getvalue().replace(workdir, '<dir>')
    for pattern, repl in _TIMES:
        text = pattern.sub(repl, text)
    return text.splitlines()


def _estimator(mx, optimizer, ctx=None):
    """An Estimator of a fresh `_net` (softmax cross-entropy, Trainer with `optimizer` =
    (name, args)) that also logs into a StringIO, and that StringIO."""
    net = _net(mx, ctx)
    trainer = mx.gluon.Trainer(net.collect_params(), *optimizer)
    est = mx.gluon.contrib.estimator.Estimator(
        net, mx.gluon.loss.SoftmaxCrossEntropyLoss(), trainer=trainer, context=ctx or mx.cpu())
    log = io.StringIO()
    est.logger.addHandler(logging.StreamHandler(log))
    return est, log


def _record(name, est, log, out, workdir):
    """Stores the logged lines, the metric values and the weights under `name`."""
    arrays, info = out
    info[name + '/log'] = _lines(log, workdir)
    for metric in est.train_metrics + est.val_metrics:
        arrays['%s/metric/%s' % (name, metric.get()[0])] = np.array(metric.get()[1], np.float64)
    for pname, p in est.net.collect_params().items():
        for k, value in enumerate(p.list_data()):
            arrays['%s/weight/%s/%d' % (name, pname, k)] = value.asnumpy()


def _fit(mx, name, out, workdir, optimizer, handlers, ctx=None, **fit_args):
    """Trains an `_estimator` with ``handlers(estimator)`` as its event handlers and
    `_record`s it. Returns the estimator and its handlers."""
    est, log = _estimator(mx, optimizer, ctx)
    event_handlers = handlers(est)
    # MXNet adds its default handlers to the list passed to fit
    est.fit(event_handlers=event_handlers and list(event_handlers), **fit_args)
    _record(name, est, log, out, workdir)
    return est, event_handlers


def _errors(mx, train, ckdir):
    """{case: the exception's type name, or None} for bad or redundant arguments."""
    est_mod = mx.gluon.contrib.estimator
    eh = est_mod.event_handler
    loss = mx.gluon.loss.L2Loss()
    net = _net(mx)
    trainer = mx.gluon.Trainer(net.collect_params(), 'sgd')
    est = est_mod.Estimator(net, loss, trainer=trainer, initializer=mx.init.Xavier())
    acc = est.train_metrics[0]
    cases = {
        'no trainer': lambda: est_mod.Estimator(net, loss),
        'loss': lambda: est_mod.Estimator(net, 'mse', trainer=trainer),
        'trainer': lambda: est_mod.Estimator(net, loss, trainer='sgd'),
        'metrics': lambda: est_mod.Estimator(net, loss, train_metrics='acc', trainer=trainer),
        'context': lambda: est_mod.Estimator(net, loss, trainer=trainer, context='cpu'),
        'context gpu': lambda: est_mod.Estimator(net, loss, trainer=trainer,
                                                 context=[mx.gpu(100)]),
        'batch processor': lambda: est_mod.Estimator(net, loss, trainer=trainer,
                                                     batch_processor=object()),
        'train data': lambda: est.fit([mx.nd.ones((4, N_IN))], epochs=1),
        'val data': lambda: est.evaluate([mx.nd.ones((4, N_IN))]),
        'epochs and batches': lambda: est.fit(train, epochs=1, batches=1),
        'neither': lambda: est.fit(train),
        'handlers': lambda: est.fit(train, epochs=1, event_handlers=['logging']),
        'unknown metric': lambda: est.fit(train, epochs=1, event_handlers=[
            eh.LoggingHandler(metrics=[mx.metric.RMSE()])]),
        'log interval': lambda: eh.LoggingHandler(log_interval='batch'),
        'save best': lambda: eh.CheckpointHandler(ckdir, save_best=True),
        'checkpoint mode': lambda: eh.CheckpointHandler(ckdir, monitor=acc, save_best=True,
                                                        mode='biggest'),
        'early monitor': lambda: eh.EarlyStoppingHandler(monitor=None),
        'early composite': lambda: eh.EarlyStoppingHandler(
            monitor=mx.metric.CompositeEvalMetric([mx.metric.Accuracy()])),
        'early mode': lambda: eh.EarlyStoppingHandler(monitor=acc, mode='biggest'),
    }
    out = {}
    for case, call in sorted(cases.items()):
        try:
            call()
            out[case] = None
        except Exception as err:  # the type is what is compared
            out[case] = type(err).__name__
    return out


def run(mx, workdir):
    """The scenarios in ``workdir`` (a fresh directory): ``(arrays, info)``."""
    eh = mx.gluon.contrib.estimator.event_handler
    out = arrays, info = {}, {}
    train = _loader(mx, 1, N_TRAIN, BATCH)
    val = _loader(mx, 2, N_VAL, 6)
    ckdir = os.path.join(workdir, 'ck')
    sgd = ('sgd', {'learning_rate': 0.5, 'momentum': 0.9, 'wd': 1e-3})
    adam = ('adam', {'learning_rate': 0.05})

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')

        # fit: 2 epochs with all the handlers
        def all_handlers(est):
            val_acc, val_loss = est.val_metrics
            return [eh.LoggingHandler(log_interval=2, metrics=est.train_metrics),
                    eh.CheckpointHandler(ckdir, model_prefix='est', monitor=val_acc, verbose=1,
                                         save_best=True, max_checkpoints=1),
                    eh.EarlyStoppingHandler(monitor=val_loss, patience=2, mode='min'),
                    eh.ValidationHandler(val, est.evaluate, batch_period=2)]
        _, handlers = _fit(mx, 'fit', out, workdir, sgd, all_handlers,
                           train_data=train, val_data=val, epochs=2)
        info['fit/files'] = sorted(os.listdir(ckdir))
        info['fit/checkpoint'] = [handlers[1].current_epoch, handlers[1].current_batch]
        symbol = mx.sym.load(os.path.join(ckdir, 'est-symbol.json'))
        info['fit/symbol'] = [symbol.list_arguments(), symbol.list_outputs()]
        for name, value in mx.nd.load(os.path.join(ckdir, 'est-best.params')).items():
            arrays['fit/best/%s' % name] = value.asnumpy()

        # resume: a fresh net continues from the checkpoint to 4 epochs
        est, _ = _fit(mx, 'resume', out, workdir, sgd, lambda est: [eh.CheckpointHandler(
            ckdir, model_prefix='est', max_checkpoints=1, resume_from_checkpoint=True)],
                      train_data=train, epochs=4)
        info['resume/files'] = sorted(os.listdir(ckdir))
        info['resume/max_epoch'] = est.max_epoch

        # batches: checkpoints every 3 batches of 7, two kept; then a fresh net resumed
        # from them to 12 batches
        shutil.rmtree(ckdir)
        for name, batches, resume in (('batches', 7, False), ('batches_resume', 12, True)):
            est, (ck,) = _fit(mx, name, out, workdir, adam, lambda est: [eh.CheckpointHandler(
                ckdir, model_prefix='b', epoch_period=None, batch_period=3, max_checkpoints=2,
                resume_from_checkpoint=resume)], train_data=train, batches=batches)
            info[name + '/files'] = sorted(os.listdir(ckdir))
            info[name + '/counters'] = [ck.current_epoch, ck.current_batch, est.max_batch]

        # early: stop when the training accuracy does not decrease
        _, (early,) = _fit(mx, 'early', out, workdir, ('sgd', {'learning_rate': 0.5}),
                           lambda est: [eh.EarlyStoppingHandler(monitor=est.train_metrics[0],
                                                                mode='min')],
                           train_data=train, epochs=6)
        info['early/stopped'] = [early.current_epoch, early.stopped_epoch]

        # multi: each batch split over two contexts, validation at every epoch end
        _fit(mx, 'multi', out, workdir, sgd, lambda est: None, ctx=[mx.cpu(0), mx.cpu(1)],
             train_data=train, val_data=val, epochs=2)

        # reuse: one list of handlers passed to two fits (MXNet's fit adds its default
        # handlers to the list, so the second fit runs with those of the first too)
        est, log = _estimator(mx, sgd)
        handlers = [eh.LoggingHandler(metrics=est.train_metrics)]
        est.fit(train, epochs=2, event_handlers=handlers)
        est.fit(train, epochs=2, event_handlers=handlers)
        _record('reuse', est, log, out, workdir)

        # warnings and errors of bad or redundant arguments
        info['errors'] = _errors(mx, train, ckdir)

    info['warnings'] = ['%s: %s' % (w.category.__name__, w.message) for w in caught
                        if 'contrib' in w.filename and 'estimator' in w.filename]
    return arrays, info


def write(mx, outdir):
    workdir = tempfile.mkdtemp()
    try:
        arrays, info = run(mx, workdir)
    finally:
        shutil.rmtree(workdir)
    np.savez_compressed(os.path.join(outdir, 'estimator.npz'), **arrays)
    with open(os.path.join(outdir, 'estimator.json'), 'w') as f:
        json.dump(info, f, indent=1, sort_keys=True)
