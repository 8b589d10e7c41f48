"""gluon.Trainer and gluon.utils fixtures: what real MXNet 1.9.1 computes.

``trainer_scenarios(mx, tmpdir)`` trains a small two-layer Dense net from seeded parameters on
fixed inputs for 5 steps under several optimizers, contexts and kvstore settings (and a few
special parameters: grad_req 'add'/'null', Constant, stale gradients) and returns
``{name: numpy array}`` plus ``{name: str}`` (error texts). ``utils_scenarios(mx)`` does the
same for split_data / split_and_load / clip_global_norm. The writer runs them with real MXNet,
the tests with mxcompat. ``resume_states`` continues training from a states file.
"""
import json
import os
import tempfile
import warnings

import numpy as np

STEPS = 5
BATCH = 4
RESUME_AT = 3


def _rand(seed, *shape):
    return np.random.RandomState(seed).uniform(-1, 1, size=shape).astype(np.float32)


X = _rand(1, BATCH, 3)
Y = _rand(2, BATCH, 2)
INIT = {'net_a_weight': _rand(10, 4, 3), 'net_a_bias': _rand(11, 4),
        'net_b_weight': _rand(12, 2, 4), 'net_b_bias': _rand(13, 2)}


def make_net(mx, ctxs):
    """Dense(4, relu) -> Dense(2) with fixed parameters on ``ctxs``."""
    nn = mx.gluon.nn
    net = nn.Sequential(prefix='net_')
    with net.name_scope():
        net.add(nn.Dense(4, in_units=3, activation='relu', prefix='a_'))
        net.add(nn.Dense(2, in_units=4, prefix='b_'))
    net.initialize(ctx=ctxs)
    for name, p in net.collect_params().items():
        p.set_data(mx.nd.array(INIT[name]))
    return net


def _batch_parts(mx, ctxs):
    n = len(ctxs)
    size = BATCH // n
    return [(mx.nd.array(X[i * size:(i + 1) * size], ctx=c),
             mx.nd.array(Y[i * size:(i + 1) * size], ctx=c)) for i, c in enumerate(ctxs)]


def train_step(mx, net, trainer, ctxs, **step_kw):
    """One forward/backward over the batch (split over ``ctxs``) and ``trainer.step``."""
    parts = _batch_parts(mx, ctxs)
    with mx.autograd.record():
        losses = [((net(x) - y) ** 2).sum(axis=1) for x, y in parts]
    for loss in losses:
        loss.backward()
    trainer.step(BATCH, **step_kw)


def _params(net):
    return {k: v for k, v in sorted(net.collect_params().items())}


def _dump(out, prefix, net):
    for name, p in _params(net).items():
        for k, d in enumerate(p.list_data()):
            out['%s/%s/%d' % (prefix, name, k)] = d.asnumpy()


def _optim(mx, kind):
    if kind == 'sgd':
        return 'sgd', {'learning_rate': 0.1, 'momentum': 0.9, 'wd': 0.01}
    if kind == 'adam':
        return 'adam', {'learning_rate': 0.01, 'wd': 0.001}
    if kind == 'sched':
        return 'sgd', {'learning_rate': 0.2, 'momentum': 0.5,
                       'lr_scheduler': mx.lr_scheduler.FactorScheduler(step=2, factor=0.5)}
    if kind == 'plain':
        return 'sgd', {'learning_rate': 0.1}
    raise ValueError(kind)


TRAIN_CASES = [
    # name, optimizer, n contexts, kvstore, update_on_kvstore
    ('sgd-1ctx', 'sgd', 1, 'device', None),
    ('adam-1ctx', 'adam', 1, 'device', None),
    ('sched-1ctx', 'sched', 1, 'device', None),
    ('sgd-2ctx', 'sgd', 2, 'device', None),
    ('sgd-2ctx-kvTrue', 'sgd', 2, 'device', True),
    ('sgd-2ctx-kvFalse', 'sgd', 2, 'device', False),
    ('adam-2ctx-kvTrue', 'adam', 2, 'device', True),
    ('adam-2ctx-kvFalse', 'adam', 2, 'local', False),
    ('sched-2ctx-local', 'sched', 2, 'local', None),
    ('sgd-2ctx-nokv', 'sgd', 2, None, None),
    ('adam-1ctx-local-kvFalse', 'adam', 1, 'local', False),
]


def run_training(mx, name, kind, nctx, kvstore, update_on_kvstore, out):
    ctxs = [mx.cpu(i) for i in range(nctx)]
    net = make_net(mx, ctxs)
    optimizer, oparams = _optim(mx, kind)
    trainer = mx.gluon.Trainer(net.collect_params(), optimizer, oparams, kvstore=kvstore,
                               update_on_kvstore=update_on_kvstore)
    lrs = []
    for _ in range(STEPS):
        train_step(mx, net, trainer, ctxs)
        lrs.append(trainer.learning_rate)
    _dump(out, name, net)
    out[name + '/lr'] = np.array(lrs)
    out[name + '/update_on_kvstore'] = np.array(
        -1 if trainer._update_on_kvstore is None else int(trainer._update_on_kvstore))


def states_run(mx, kind, nctx, update_on_kvstore, fname, out, prefix):
    """RESUME_AT steps, save_states to ``fname``, then the remaining steps."""
    ctxs = [mx.cpu(i) for i in range(nctx)]
    net = make_net(mx, ctxs)
    optimizer, oparams = _optim(mx, kind)
    trainer = mx.gluon.Trainer(net.collect_params(), optimizer, oparams,
                               update_on_kvstore=update_on_kvstore)
    for _ in range(RESUME_AT):
        train_step(mx, net, trainer, ctxs)
    trainer.save_states(fname)
    for _ in range(STEPS - RESUME_AT):
        train_step(mx, net, trainer, ctxs)
    _dump(out, prefix, net)
    return trainer


def resume_states(mx, kind, nctx, update_on_kvstore, fname, out, prefix):
    """RESUME_AT steps with a fresh optimizer, load_states(``fname``), the remaining steps."""
    ctxs = [mx.cpu(i) for i in range(nctx)]
    net = make_net(mx, ctxs)
    optimizer, oparams = _optim(mx, kind)
    trainer = mx.gluon.Trainer(net.collect_params(), optimizer, oparams,
                               update_on_kvstore=update_on_kvstore)
    for _ in range(RESUME_AT):
        train_step(mx, net, trainer, ctxs)
    trainer.load_states(fname)
    for _ in range(STEPS - RESUME_AT):
        train_step(mx, net, trainer, ctxs)
    _dump(out, prefix, net)
    return trainer


STATE_CASES = [('adam', 1, None), ('sgd', 1, None), ('sgd', 2, True), ('adam', 2, False)]


def _error_text(fn):
    try:
        fn()
    except Exception as err:  # the type and text are what is compared
        return '%s: %s' % (type(err).__name__, err)
    return 'none'


def special_scenarios(mx, out, texts):
    """grad_req 'add'/'null', Constant, stale gradients, allreduce_grads + update,
    gradient compression, set_learning_rate."""
    # grad_req: bias of layer a accumulates, bias of layer b is frozen (not the weight: MXNet's
    # CPU FullyConnected then gives the bias a zero gradient)
    ctxs = [mx.cpu(0)]
    net = make_net(mx, ctxs)
    params = net.collect_params()
    params['net_a_bias'].grad_req = 'add'
    params['net_b_bias'].grad_req = 'null'
    trainer = mx.gluon.Trainer(params, *_optim(mx, 'sgd'))
    for _ in range(3):
        train_step(mx, net, trainer, ctxs)
    _dump(out, 'grad_req', net)
    # the same with two contexts and a kvstore
    ctxs = [mx.cpu(0), mx.cpu(1)]
    net = make_net(mx, ctxs)
    params = net.collect_params()
    params['net_a_bias'].grad_req = 'add'
    params['net_b_bias'].grad_req = 'null'
    trainer = mx.gluon.Trainer(params, *_optim(mx, 'sgd'), update_on_kvstore=False)
    for _ in range(3):
        train_step(mx, net, trainer, ctxs)
    _dump(out, 'grad_req-2ctx', net)

    # a Constant among the parameters
    pd = mx.gluon.ParameterDict('p_')
    w = pd.get('w', shape=(3,))
    c = pd.get_constant('c', mx.nd.array([1., 2., 3.]))
    pd.initialize(mx.init.Constant(0.5), ctx=mx.cpu(0))
    trainer = mx.gluon.Trainer(pd, 'sgd', {'learning_rate': 0.1})
    for _ in range(2):
        with mx.autograd.record():
            loss = (w.data() * c.data() * w.data()).sum()
        loss.backward()
        trainer.step(1)
    out['constant/w'] = w.data().asnumpy()
    out['constant/c'] = c.data().asnumpy()

    # stale gradients: layer b is not used in the second loss
    ctxs = [mx.cpu(0)]
    net = make_net(mx, ctxs)
    trainer = mx.gluon.Trainer(net.collect_params(), *_optim(mx, 'plain'))
    x = mx.nd.array(X)
    with mx.autograd.record():
        loss = net[0](x).sum()
    loss.backward()
    texts['stale'] = _error_text(lambda: trainer.step(BATCH))
    trainer.step(BATCH, ignore_stale_grad=True)
    _dump(out, 'stale-ignored', net)
    texts['stale-again'] = _error_text(lambda: trainer.step(BATCH))
    # two contexts: the message names the context
    ctxs = [mx.cpu(0), mx.cpu(1)]
    net = make_net(mx, ctxs)
    trainer = mx.gluon.Trainer(net.collect_params(), *_optim(mx, 'plain'))
    texts['stale-2ctx'] = _error_text(lambda: trainer.step(BATCH))

    # allreduce_grads then update, with gradient clipping in between
    net = make_net(mx, ctxs)
    trainer = mx.gluon.Trainer(net.collect_params(), *_optim(mx, 'sgd'),
                               update_on_kvstore=False)
    for _ in range(2):
        parts = _batch_parts(mx, ctxs)
        with mx.autograd.record():
            losses = [((net(x) - y) ** 2).sum(axis=1) for x, y in parts]
        for loss in losses:
            loss.backward()
        trainer.allreduce_grads()
        for name, p in _params(net).items():
            for k, g in enumerate(p.list_grad()):
                out['allreduce/grad/%s/%d' % (name, k)] = g.asnumpy()
        trainer.update(BATCH)
    _dump(out, 'allreduce', net)
    texts['update-on-kv'] = _error_text(lambda: mx.gluon.Trainer(
        make_net(mx, ctxs).collect_params(), 'sgd', update_on_kvstore=True).update(1))
    texts['allreduce-on-kv'] = _error_text(lambda: mx.gluon.Trainer(
        make_net(mx, ctxs).collect_params(), 'sgd', update_on_kvstore=True).allreduce_grads())

    # 2-bit gradient compression on the kvstore
    for on_kv in (True, False):
        net = make_net(mx, ctxs)
        trainer = mx.gluon.Trainer(net.collect_params(), *_optim(mx, 'sgd'),
                                   compression_params={'type': '2bit', 'threshold': 0.5},
                                   update_on_kvstore=on_kv)
        for _ in range(3):
            train_step(mx, net, trainer, ctxs)
        _dump(out, 'compress-%s' % on_kv, net)

    # set_learning_rate part way
    net = make_net(mx, [mx.cpu(0)])
    trainer = mx.gluon.Trainer(net.collect_params(), *_optim(mx, 'sgd'))
    for i in range(4):
        if i == 2:
            trainer.set_learning_rate(0.03)
        train_step(mx, net, trainer, [mx.cpu(0)])
    out['set_lr/lr'] = np.array(trainer.learning_rate)
    _dump(out, 'set_lr', net)
    net = make_net(mx, [mx.cpu(0)])
    texts['1ctx-kvTrue'] = _error_text(lambda: train_step(mx, net, mx.gluon.Trainer(
        net.collect_params(), 'sgd', kvstore='local', update_on_kvstore=True), [mx.cpu(0)]))
    texts['bad-params'] = _error_text(lambda: mx.gluon.Trainer([1, 2], 'sgd'))
    texts['bad-params-type'] = _error_text(lambda: mx.gluon.Trainer(3, 'sgd'))


def trainer_scenarios(mx, tmpdir):
    """Returns ({name: numpy array}, {name: text}, {name: bytes of a states file})."""
    out, texts, files = {}, {}, {}
    for case in TRAIN_CASES:
        run_training(mx, *case, out=out)
    for kind, nctx, on_kv in STATE_CASES:
        tag = 'states-%s-%d-%s' % (kind, nctx, on_kv)
        fname = os.path.join(tmpdir, tag + '.states')
        trainer = states_run(mx, kind, nctx, on_kv, fname, out, tag)
        with open(fname, 'rb') as f:
            files[tag] = f.read()
        if not trainer._update_on_kvstore:
            files[tag + '-nodump'] = trainer._updaters[0].get_states(dump_optimizer=False)
    special_scenarios(mx, out, texts)
    return out, texts, files


def utils_scenarios(mx):
    """split_data / split_and_load / clip_global_norm: ({name: array}, {name: text})."""
    gu = mx.gluon.utils
    out, texts = {}, {}
    data = mx.nd.array(np.arange(7 * 6, dtype=np.float32).reshape(7, 6))
    for n in (1, 2, 3, 7):
        for k, s in enumerate(gu.split_data(data, n, even_split=False)):
            out['split/uneven/%d/%d' % (n, k)] = s.asnumpy()
    for k, s in enumerate(gu.split_data(data, 3, batch_axis=1)):
        out['split/axis1/%d' % k] = s.asnumpy()
    for k, s in enumerate(gu.split_data(data, 4, batch_axis=1, even_split=False)):
        out['split/axis1-uneven/%d' % k] = s.asnumpy()
    d3 = mx.nd.array(np.arange(2 * 4 * 5, dtype=np.float32).reshape(2, 4, 5))
    for k, s in enumerate(gu.split_data(d3, 2, batch_axis=2, even_split=False)):
        out['split/axis2/%d' % k] = s.asnumpy()
    texts['split/error'] = _error_text(lambda: gu.split_data(data, 3))
    texts['split/error-axis1'] = _error_text(lambda: gu.split_data(data, 4, batch_axis=1))
    ctxs = [mx.cpu(0), mx.cpu(1)]
    for k, s in enumerate(gu.split_and_load(np.arange(8.).reshape(4, 2), ctxs)):
        out['sal/numpy/%d' % k] = s.asnumpy()
        texts['sal/numpy/%d/ctx' % k] = str(s.context)
        texts['sal/numpy/%d/dtype' % k] = str(np.dtype(s.dtype))
    for k, s in enumerate(gu.split_and_load(data, ctxs, batch_axis=1)):
        out['sal/axis1/%d' % k] = s.asnumpy()
        texts['sal/axis1/%d/ctx' % k] = str(s.context)
    one = gu.split_and_load(data, [mx.cpu(1)])
    out['sal/one'] = one[0].asnumpy()
    texts['sal/one/ctx'] = str(one[0].context)
    texts['sal/error'] = _error_text(lambda: gu.split_and_load(data, ctxs))

    def arrays(scale):
        return [mx.nd.array(_rand(20, 3, 2) * scale), mx.nd.array(_rand(21, 4) * scale),
                mx.nd.array(_rand(22, 2, 2, 2) * scale, ctx=mx.cpu(1))]
    for tag, scale, max_norm in (('clip', 3., 1.), ('noclip', 0.1, 5.)):
        arrs = arrays(scale)
        norm = gu.clip_global_norm(arrs, max_norm)
        out['clip/%s/norm' % tag] = np.array(norm)
        texts['clip/%s/norm-type' % tag] = type(norm).__name__
        for k, a in enumerate(arrs):
            out['clip/%s/%d' % (tag, k)] = a.asnumpy()
    arrs = arrays(3.)
    norm = gu.clip_global_norm(arrs, 1., check_isfinite=False)
    out['clip/nocheck/norm'] = norm.asnumpy()
    texts['clip/nocheck/norm-ctx'] = str(norm.context)
    for k, a in enumerate(arrs):
        out['clip/nocheck/%d' % k] = a.asnumpy()
    nan_arrs = [mx.nd.array([1., np.nan]), mx.nd.array([2., 3.])]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        norm = gu.clip_global_norm(nan_arrs, 1.)
    out['clip/nan/norm'] = np.array(norm)
    texts['clip/nan/warning'] = ' | '.join(str(w.message) for w in caught)
    for k, a in enumerate(nan_arrs):
        out['clip/nan/%d' % k] = a.asnumpy()
    texts['repo_url'] = gu._get_repo_url()
    texts['repo_file_url'] = gu._get_repo_file_url('gluon/dataset', 'x.zip')
    return out, texts


def write(mx, outdir):
    with tempfile.TemporaryDirectory() as tmp:
        out, texts, files = trainer_scenarios(mx, tmp)
    np.savez(os.path.join(outdir, 'trainer.npz'), **out)
    with open(os.path.join(outdir, 'trainer.json'), 'w') as f:
        json.dump(texts, f, indent=1, sort_keys=True)
    for tag, data in files.items():
        with open(os.path.join(outdir, tag + '.states'), 'wb') as f:
            f.write(data)
    uout, utexts = utils_scenarios(mx)
    np.savez(os.path.join(outdir, 'utils.npz'), **uout)
    with open(os.path.join(outdir, 'utils.json'), 'w') as f:
        json.dump(utexts, f, indent=1, sort_keys=True)
