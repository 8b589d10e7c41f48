"""In-place updates through slices of a Gluon Parameter's data, from real MXNet (the tutorial
gluon/blocks/parameters writes ``net[0].weight.data()[:] += 1``). Outside ``autograd.record()``
each statement updates the parameter in place, visible through ``param.data()`` and in the next
forward and backward; inside ``record()`` MXNet raises MXNetError. The same ``run(mx)`` executes
under mxcompat in tests/test_param_inplace.py."""
import os
import zlib

import numpy as np

# statements run in order on ``w = net[0].weight.data()`` and ``b = net[0].bias.data()``
UPDATES = [
    'net[0].weight.data()[:] += 1',
    'w[0:1] += 1',
    'w[0:1] *= 2',
    'w[1] -= 3',
    'w[:, 1:3] /= 2',
    'w[2:, ::2] += nd.ones((1, 2)) * 0.25',
    'w[:] = nd.array(np.arange(12, dtype=np.float32).reshape(3, 4) / 8) + w',
    'b[:] += 1',
    'b[1:] *= -1',
    'w += 0.5',
]

# statements that fail before writing anything: the parameter keeps its value
BAD = [
    ('shape', 'w[0:1] += nd.ones((2, 4))'),
    ('dtype', 'w[:] += nd.ones((3, 4), dtype="float16")'),
]

# statements inside autograd.record(): MXNet raises (in-place writes to a recorded array)
RECORDED = ['w[:] += 1', 'w[0:1] += 1', 'w[0:1] *= 2', 'w[:] = nd.zeros((3, 4))', 'w += 1']


def _seeded(name, shape):
    r = np.random.RandomState(zlib.crc32(name.encode()) & 0xffffffff)
    return r.uniform(-1, 1, shape).astype(np.float32)


def _net(mx):
    net = mx.gluon.nn.Sequential(prefix='pin_')
    with net.name_scope():
        net.add(mx.gluon.nn.Dense(3, in_units=4))
    net.initialize()
    for name, p in net.collect_params().items():
        p.set_data(mx.nd.array(_seeded(name, p.shape)))
    return net


def _attempt(fn):
    try:
        fn()
        return None
    except Exception as err:  # both libraries must fail on the same cases
        return type(err).__name__


def run(mx):
    """({case id: numpy array}, {case id: error type name or None})."""
    nd = mx.nd
    out, errors = {}, {}
    x = nd.array(_seeded('input', (2, 4)))
    net = _net(mx)
    w = net[0].weight.data()
    b = net[0].bias.data()
    out['initial/weight'] = w.asnumpy()
    env = {'net': net, 'w': w, 'b': b, 'nd': nd, 'np': np}
    for i, stmt in enumerate(UPDATES):
        exec(stmt, env)
        out['update%d/weight' % i] = net[0].weight.data().asnumpy()
        out['update%d/bias' % i] = net[0].bias.data().asnumpy()
        out['update%d/forward' % i] = net(x).asnumpy()
    with mx.autograd.record():
        y = net(x).sum()
    y.backward()
    out['grad/weight'] = net[0].weight.grad().asnumpy()
    out['grad/bias'] = net[0].bias.grad().asnumpy()
    for cid, stmt in BAD:
        errors['bad/' + cid] = _attempt(lambda: exec(stmt, env))
        out['bad/%s/weight' % cid] = net[0].weight.data().asnumpy()
    for i, stmt in enumerate(RECORDED):
        def recorded():
            with mx.autograd.record():
                exec(stmt, env)
        errors['record%d' % i] = _attempt(recorded)
    return out, errors


def write(mx, outdir):
    from scripts.make_fixtures import _atomic_savez, _atomic_json
    out, errors = run(mx)
    _atomic_savez(os.path.join(outdir, 'param_inplace.npz'), out)
    _atomic_json(os.path.join(outdir, 'errors.json'), errors)
