"""mx.kv fixtures: what real MXNet's key-value stores hold after init/push/pull/updates.

``local_scenarios(mx)`` drives single-process stores ('local', 'device', string and integer
keys, several contexts, custom updaters, optimizers, 2-bit compression, error kinds) and
returns ``{name: numpy array}``. ``dist_worker(mx, kv_type)`` is what each of two workers of a
distributed run does; the writer runs it under MXNet's parameter server (a scheduler, one server
and two workers on localhost), the test under torch.distributed (gloo). The writer and the test
call the same functions, with real MXNet and with mxcompat.
"""
import os
import socket
import subprocess
import sys
import tempfile

import numpy as np

SHAPE = (2, 3)


def _vals(mx, seed, n, shape=SHAPE):
    r = np.random.RandomState(seed)
    return [mx.nd.array(r.uniform(-1, 1, size=shape), ctx=mx.cpu(i)) for i in range(n)]


def _error_kind(fn):
    try:
        fn()
    except Exception as err:  # the kind is what is compared
        return type(err).__name__
    return 'none'


def local_scenarios(mx, tmpdir):
    """Results of single-process kvstore scenarios, name -> numpy array."""
    out = {}
    kv = mx.kvstore.create('local')
    kv.init(3, mx.nd.zeros(SHAPE))
    kv.init([5, 7, 11], [mx.nd.ones(SHAPE) * k for k in (1, 2, 3)])
    vals = _vals(mx, 0, 4)
    kv.push(3, vals)
    outs = [mx.nd.empty(SHAPE, mx.cpu(i)) for i in range(4)]
    kv.pull(3, out=outs)
    out['aggregate'] = np.stack([o.asnumpy() for o in outs])
    kv.push([5, 7, 11], [_vals(mx, 1, 2), _vals(mx, 2, 3), _vals(mx, 3, 1)[0]])
    outs = [[mx.nd.empty(SHAPE) for _ in range(2)] for _ in range(3)]
    kv.pull([11, 5, 7], out=outs)
    out['list_keys'] = np.stack([o[1].asnumpy() for o in outs])
    kv.push([7, 7], _vals(mx, 4, 2))
    o = mx.nd.empty(SHAPE)
    kv.pull(7, out=o)
    out['repeated_key'] = o.asnumpy()
    # a single pushed value is stored without a copy
    a = mx.nd.ones(SHAPE)
    kv.push(3, a)
    a[:] = 7
    kv.pull(3, out=o)
    out['single_push_alias'] = o.asnumpy()

    for name, keys in (('int', [1, 2]), ('str', ['w', 'b'])):
        kv = mx.kvstore.create('local')
        kv.init(keys, [mx.nd.ones(SHAPE), mx.nd.zeros(SHAPE)])
        seen = []

        def updater(key, recv, local, seen=seen):
            seen.append(type(key).__name__)
            local *= 0.5
            local += recv * 2

        kv._set_updater(updater)
        for step in range(3):
            kv.push(keys, [_vals(mx, 10 + step, 3), _vals(mx, 20 + step, 1)[0]])
        outs = [mx.nd.empty(SHAPE), mx.nd.empty(SHAPE)]
        kv.pull(keys, out=outs)
        out['updater_%s' % name] = np.stack([x.asnumpy() for x in outs])
        out['updater_%s_keytypes' % name] = np.array(seen)

    for kv_type in ('local', 'device'):
        kv = mx.kvstore.create(kv_type)
        kv.set_optimizer(mx.optimizer.SGD(learning_rate=0.1, momentum=0.9, wd=0.01,
                                          rescale_grad=0.5))
        kv.init(['fc_weight', 'fc_bias'], [mx.nd.ones(SHAPE), mx.nd.ones((3,))])
        outs = [mx.nd.empty(SHAPE, mx.cpu(i)) for i in range(2)]
        for step in range(4):
            kv.pushpull(['fc_weight', 'fc_bias'],
                        [_vals(mx, 30 + step, 2), _vals(mx, 40 + step, 2, (3,))],
                        out=[outs, [mx.nd.empty((3,)), mx.nd.empty((3,))]])
        out['sgd_%s' % kv_type] = np.stack([x.asnumpy() for x in outs])
        states = os.path.join(tmpdir, 'sgd_%s.states' % kv_type)
        kv.save_optimizer_states(states)
        with open(states, 'rb') as f:
            out['sgd_%s_states_bytes' % kv_type] = np.frombuffer(f.read(), dtype=np.uint8)

    kv = mx.kvstore.create('local')
    kv.set_optimizer(mx.optimizer.Adam(learning_rate=0.01, wd=0.1))
    kv.init(0, mx.nd.ones(SHAPE))
    o = mx.nd.empty(SHAPE)
    for step in range(3):
        kv.push(0, _vals(mx, 50 + step, 3))
    kv.pull(0, out=o)
    out['adam'] = o.asnumpy()

    kv = mx.kvstore.create('local')
    outs = [mx.nd.zeros(SHAPE, mx.cpu(i)) for i in range(3)]
    kv.broadcast('x', _vals(mx, 60, 1)[0], out=outs)
    out['broadcast'] = np.stack([x.asnumpy() for x in outs])
    vals = _vals(mx, 61, 2)
    kv.pushpull('x', vals)
    out['pushpull_inplace'] = np.stack([x.asnumpy() for x in vals])

    kv = mx.kvstore.create('device')
    kv.set_gradient_compression({'type': '2bit', 'threshold': 0.3})
    kv.init(2, mx.nd.zeros((8,)))
    steps = []
    r = np.random.RandomState(70)
    for step in range(4):
        kv.push(2, [mx.nd.array(r.uniform(-0.5, 0.5, size=(8,)), ctx=mx.cpu(i))
                    for i in range(2)])
        o = mx.nd.empty((8,))
        kv.pull(2, out=o)
        steps.append(o.asnumpy())
    out['2bit'] = np.stack(steps)

    out['types'] = np.array([mx.kvstore.create(t).type for t in
                             ('local', 'device', 'local_allreduce_cpu', 'Local', 'horovod')])
    out['num_workers_rank'] = np.array([kv.num_workers, kv.rank])
    kv = mx.kvstore.create('local')
    kv.init(3, mx.nd.zeros(SHAPE))
    out['errors'] = np.array([
        _error_kind(lambda: kv.init(3, mx.nd.zeros(SHAPE))),
        _error_kind(lambda: kv.pull(4, out=mx.nd.zeros(SHAPE))),
        _error_kind(lambda: kv.init('a', mx.nd.zeros(SHAPE))),
        _error_kind(lambda: kv.push(3.5, mx.nd.zeros(SHAPE))),
        _error_kind(lambda: kv.set_gradient_compression({'type': '2bit'})),
        _error_kind(lambda: mx.kvstore.create(3)),
    ])
    test_store = mx.kvstore.create('teststore')
    vals = _vals(mx, 80, 3)
    test_store.pushpull(0, vals)
    out['teststore'] = np.stack([v.asnumpy() for v in vals])
    out['teststore_type'] = np.array([test_store.type])
    return out


def resume_scenario(mx, states_file):
    """Loads SGD states (as saved in ``local_scenarios``) into a fresh store and continues."""
    kv = mx.kvstore.create('local')
    kv.set_optimizer(mx.optimizer.SGD(learning_rate=0.1, momentum=0.9, wd=0.01,
                                      rescale_grad=0.5))
    kv.init(['fc_weight', 'fc_bias'], [mx.nd.ones(SHAPE), mx.nd.ones((3,))])
    kv.load_optimizer_states(states_file)
    o = mx.nd.empty(SHAPE)
    kv.push('fc_weight', _vals(mx, 90, 2))
    kv.pull('fc_weight', out=o)
    return o.asnumpy()


def dist_worker(mx, kv_type):
    """What one worker of a two-worker run does; returns {name: numpy array}."""
    kv = mx.kvstore.create(kv_type)
    rank = kv.rank
    res = {'rank_workers': np.array([rank, kv.num_workers])}
    if 'async' in kv_type:
        kv.set_optimizer(mx.optimizer.SGD(learning_rate=0.1))
        kv.init('w', mx.nd.ones(SHAPE))
        for step in range(3):
            kv.push('w', _vals(mx, 100 + 10 * rank + step, 2))
        mx.nd.waitall()
        kv._barrier()
        o = mx.nd.empty(SHAPE)
        kv.pull('w', out=o)
        res['async_sgd'] = o.asnumpy()
        return res
    kv.init('c', mx.nd.ones(SHAPE) * (rank + 1))
    o = mx.nd.empty(SHAPE)
    kv.pull('c', out=o)
    res['init_from_rank0'] = o.asnumpy()
    kv.push('c', _vals(mx, 110 + rank, 2))
    kv.pull('c', out=o)
    res['push_sum'] = o.asnumpy()
    kv.set_optimizer(mx.optimizer.SGD(learning_rate=0.1, momentum=0.9, wd=0.01))
    kv.init(['a', 'b'], [mx.nd.ones(SHAPE), mx.nd.zeros((4,))])
    outs = [[mx.nd.empty(SHAPE) for _ in range(2)], [mx.nd.empty((4,))]]
    for step in range(3):
        kv.pushpull(['a', 'b'], [_vals(mx, 120 + 10 * rank + step, 2),
                                 _vals(mx, 140 + 10 * rank + step, 1, (4,))[0]], out=outs)
    res['sgd_a'] = outs[0][1].asnumpy()
    res['sgd_b'] = outs[1][0].asnumpy()
    res.update(_dist_fit(mx, kv, rank))
    return res


def _dist_fit(mx, kv, rank):
    """Module.fit on this worker's half of a dataset through the dist kvstore."""
    r = np.random.RandomState(7)
    X = r.uniform(-1, 1, size=(16, 5)).astype(np.float32)
    Y = r.randint(0, 3, size=(16,)).astype(np.float32)
    part = slice(8 * rank, 8 * rank + 8)
    data = mx.sym.Variable('data')
    net = mx.sym.FullyConnected(data, num_hidden=4, name='fc1')
    net = mx.sym.Activation(net, act_type='tanh')
    net = mx.sym.FullyConnected(net, num_hidden=3, name='fc2')
    net = mx.sym.SoftmaxOutput(net, name='softmax')
    shapes = {'fc1_weight': (4, 5), 'fc1_bias': (4,), 'fc2_weight': (3, 4), 'fc2_bias': (3,)}
    params = {k: mx.nd.array(np.random.RandomState(len(k) + rank).uniform(-0.5, 0.5, size=s))
              for k, s in shapes.items()}
    mod = mx.module.Module(net, context=[mx.cpu(0), mx.cpu(1)])
    it = mx.io.NDArrayIter(X[part], Y[part], batch_size=4)
    metric = mx.metric.create('acc')
    mod.fit(it, num_epoch=2, kvstore=kv, arg_params=params, eval_metric=metric,
            optimizer='sgd', optimizer_params={'learning_rate': 0.2, 'momentum': 0.5})
    arg, _ = mod.get_params()
    res = {'fit_' + k: v.asnumpy() for k, v in arg.items()}
    res['fit_acc'] = np.array([metric.get()[1]])
    return res


def _free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def _run_mxnet_dist(kv_type, outdir):
    """Runs ``dist_worker`` in two MXNet workers (with a scheduler and a server)."""
    port = _free_port()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

    def env(role):
        return dict(os.environ, DMLC_ROLE=role, DMLC_PS_ROOT_URI='127.0.0.1',
                    DMLC_PS_ROOT_PORT=str(port), DMLC_NUM_SERVER='1', DMLC_NUM_WORKER='2',
                    PYTHONPATH=root)

    ps = [subprocess.Popen([sys.executable, '-c', 'import mxnet'], env=env(role))
          for role in ('scheduler', 'server')]
    with tempfile.TemporaryDirectory() as tmp:
        code = ('import sys, numpy as np, mxnet as mx\n'
                'from scripts.fixture_writers.kvstore import dist_worker\n'
                'res = dist_worker(mx, %r)\n'
                'np.savez(%r + "/w%%d.npz" %% res["rank_workers"][0], **res)\n'
                % (kv_type, tmp))
        workers = [subprocess.Popen([sys.executable, '-c', code], env=env('worker'))
                   for _ in range(2)]
        for p in workers + ps:
            if p.wait(timeout=300) != 0:
                raise RuntimeError('MXNet %s process failed' % kv_type)
        for rank in range(2):
            with np.load(os.path.join(tmp, 'w%d.npz' % rank)) as z:
                np.savez(os.path.join(outdir, '%s_rank%d.npz' % (kv_type, rank)), **dict(z))


def write(mx, outdir):
    with tempfile.TemporaryDirectory() as tmp:
        res = local_scenarios(mx, tmp)
        res['resume_sgd'] = resume_scenario(mx, os.path.join(tmp, 'sgd_local.states'))
    np.savez(os.path.join(outdir, 'local.npz'), **res)
    for kv_type in ('dist_sync', 'dist_async'):
        _run_mxnet_dist(kv_type, outdir)
