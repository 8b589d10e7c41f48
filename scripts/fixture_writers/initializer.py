"""``mx.init`` initializers: filled values, dumps() strings, create(), errors, distributions.

Three kinds of cases, each a function of the library ``mx`` (so the test runs the very same
code on mxcompat):
- VALUES: deterministic fills -> {name: numpy array}, compared by value;
- TEXTS: dumps() strings, created classes, error messages -> JSON values, compared exactly;
- STATS: random fills of large arrays -> [mean, std, min, max] (and Orthogonal's Gram matrix),
  compared within sampling tolerance, since mxcompat draws from torch's generators.
``write`` stores real MXNet's results in tests/fixtures/initializer/.
"""
import json
import os
import warnings

import numpy as np

VALUES, TEXTS, STATS = {}, {}, {}


def _case(table, cid):
    def deco(fn):
        table[cid] = fn
        return fn
    return deco


def _filled(mx, init, name, shape, dtype='float32', legacy=False):
    arr = mx.nd.full(shape, 7.0, dtype=dtype)
    desc = name if legacy else mx.init.InitDesc(name)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        init(desc, arr)
    return arr.asnumpy()


def _error(fn):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            fn()
    except Exception as err:  # pylint: disable=broad-except
        return [type(err).__name__, str(err)]
    return None


# ------------------------------------------------------------------------------ values
@_case(VALUES, 'patterns')
def _patterns(mx):
    """Name-suffix dispatch of InitDesc names with a Uniform global initializer."""
    init = mx.init.Uniform(0.5)
    names = ['fc_bias', 'bn_gamma', 'bn_beta', 'q_min', 'q_max', 'fc_bias_quantize']
    return {n: _filled(mx, init, n, (2, 3)) for n in names}


@_case(VALUES, 'legacy-patterns')
def _legacy_patterns(mx):
    """init(str, arr): MXNet's older table (moving stats, stn_loc, upsampling)."""
    init = mx.init.Zero()
    names = ['fc_bias', 'bn_gamma', 'bn_beta', 'fc_weight', 'bn_moving_mean', 'bn_moving_var',
             'bn_moving_inv_var', 'bn_moving_avg', 'act_min', 'act_max', 'stn_loc_weight']
    out = {n: _filled(mx, init, n, (2, 3), legacy=True) for n in names}
    out['stn_loc_bias'] = _filled(mx, init, 'stn_loc_bias', (6,), legacy=True)
    out['upsampling0_weight'] = _filled(mx, init, 'upsampling0_weight', (2, 1, 4, 4), legacy=True)
    return out


@_case(VALUES, 'constants')
def _constants(mx):
    out = {}
    for dtype in ('float32', 'float16', 'float64', 'int32'):
        out['zero-' + dtype] = _filled(mx, mx.init.Zero(), 'w_weight', (3, 2), dtype)
        out['one-' + dtype] = _filled(mx, mx.init.One(), 'w_weight', (3, 2), dtype)
        out['const-' + dtype] = _filled(mx, mx.init.Constant(3.0), 'w_weight', (3, 2), dtype)
    value = np.arange(6, dtype=np.float32).reshape(3, 2)
    out['const-nd'] = _filled(mx, mx.init.Constant(mx.nd.array(value)), 'w_weight', (3, 2))
    out['const-np'] = _filled(mx, mx.init.Constant(value * 2), 'w_weight', (3, 2))
    out['const-bias'] = _filled(mx, mx.init.Constant(3.0), 'w_bias', (3,))
    out['zeros-alias'] = _filled(mx, mx.init.create('zeros'), 'w_weight', (2, 2))
    out['ones-alias'] = _filled(mx, mx.init.create('ones'), 'w_weight', (2, 2))
    return out


@_case(VALUES, 'bilinear')
def _bilinear(mx):
    out = {}
    for shape in [(1, 1, 4, 4), (2, 3, 3, 3), (1, 2, 5, 6), (3, 1, 7, 2), (1, 1, 1, 1)]:
        key = 'x'.join(map(str, shape))
        out[key] = _filled(mx, mx.init.Bilinear(), 'up_weight', shape)
    return out


@_case(VALUES, 'lstmbias')
def _lstmbias(mx):
    return {'default': _filled(mx, mx.init.LSTMBias(), 'lstm_weight', (12,)),
            'custom': _filled(mx, mx.init.LSTMBias(forget_bias=2.5), 'lstm_weight', (8,)),
            'bias-name': _filled(mx, mx.init.LSTMBias(), 'lstm_i2h_bias', (8,))}


@_case(VALUES, 'variable-init')
def _variable_init(mx):
    """The __init__ attribute (a dumps() string) takes precedence over the name."""
    out = {}
    for key, attr in [('one', '["one", {}]'), ('const', '["constant", {"value": 4.5}]'),
                      ('lstm', '["lstmbias", {"forget_bias": 3.0}]'),
                      ('bilinear', '["bilinear", {}]')]:
        arr = mx.nd.full((1, 1, 4, 4) if key == 'bilinear' else (8,), 7.0)
        mx.init.Xavier()(mx.init.InitDesc('any_bias', attrs={'__init__': attr}), arr)
        out[key] = arr.asnumpy()
    return out


@_case(VALUES, 'load')
def _load(mx):
    params = {'arg:fc_weight': mx.nd.array(np.arange(6).reshape(2, 3)),
              'aux:bn_moving_var': mx.nd.array([1.5, 2.5]), 'plain': mx.nd.array([9.0])}
    init = mx.init.Load(params, default_init=mx.init.One())
    out = {}
    for name, shape in [('fc_weight', (2, 3)), ('bn_moving_var', (2,)), ('plain', (1,)),
                        ('other_weight', (2, 2))]:
        arr = mx.nd.zeros(shape)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            init(name, arr)
        out[name] = arr.asnumpy()
    return out


@_case(VALUES, 'mixed')
def _mixed(mx):
    init = mx.init.Mixed(['.*bias', 'fc2.*', '.*'],
                         [mx.init.Zero(), mx.init.Constant(2.0), mx.init.One()])
    out = {}
    for name in ['fc1_bias', 'fc2_weight', 'fc1_weight', 'fc2_bias']:
        arr = mx.nd.full((2, 2), 7.0)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            init(name, arr)
        out[name] = arr.asnumpy()
    return out


def _name_init_class(mx):
    """An initializer that writes a value derived from each name: shows where FusedRNN puts
    every unpacked piece."""
    class NameInit(mx.init.Initializer):
        def _init_weight(self, name, arr):
            code = sum(ord(c) * (i + 1) for i, c in enumerate(name)) % 997
            arr[:] = np.arange(arr.size, dtype=np.float32).reshape(arr.shape) * 0.001 + code

        def _init_bias(self, name, arr):
            code = sum(ord(c) * (i + 1) for i, c in enumerate(name)) % 997
            arr[:] = -float(code)
    return NameInit


@_case(VALUES, 'fusedrnn')
def _fusedrnn(mx):
    out = {}
    name_init = _name_init_class(mx)
    for mode, layers, bidir, nin in [('lstm', 1, False, 3), ('lstm', 2, True, 3),
                                     ('gru', 2, False, 4), ('rnn_tanh', 1, True, 2),
                                     ('rnn_relu', 3, False, 2)]:
        h = 4
        gates = {'lstm': 4, 'gru': 3}.get(mode, 1)
        b = 2 if bidir else 1
        size = (nin + h + 2) * h * gates * b + (layers - 1) * gates * h * (h + b * h + 2) * b
        key = '%s-%d-%s' % (mode, layers, bidir)
        arr = mx.nd.full((size,), 7.0)
        fused = mx.init.FusedRNN(name_init(), h, layers, mode, bidir, forget_bias=1.5)
        fused._init_weight(mx.init.InitDesc('rnn_parameters'), arr)
        out[key] = arr.asnumpy()
        # no init of its own: the global initializer (the caller) fills the pieces
        arr = mx.nd.full((size,), 7.0)
        fused = mx.init.FusedRNN(None, h, layers, mode, bidir)
        fused._init_weight(mx.init.InitDesc('rnn_parameters', global_init=name_init()), arr)
        out[key + '-global'] = arr.asnumpy()
    return out


@_case(VALUES, 'orthogonal-drawn')
def _orthogonal_drawn(mx):
    """Orthogonal with ``mx.random.uniform`` / ``normal`` replaced by fixed numpy draws (as
    scripts/examples/preamble.py replaces them): the matrix is MXNet's. The sign of each
    singular vector is LAPACK's choice, which differs between numpy builds, so each vector
    is given a positive first entry before the comparison."""
    saved = mx.random.uniform, mx.random.normal
    rng = np.random.RandomState(3)

    def fixed(kind):
        def draw(a, b, shape=None, **_):
            return mx.nd.array(getattr(rng, kind)(a, b, shape).astype(np.float32))
        return draw
    mx.random.uniform, mx.random.normal = fixed('uniform'), fixed('normal')
    def signed(init, shape):
        flat = _filled(mx, init, 'c_weight', shape).reshape(shape[0], -1)
        vectors = flat.T if flat.shape[0] >= flat.shape[1] else flat  # u or v
        vectors *= np.where(vectors[:, :1] < 0, -1, 1).astype(np.float32)
        return flat.reshape(shape)
    try:
        return {'tall': signed(mx.init.Orthogonal(), (64, 1, 5, 5)),
                'wide': signed(mx.init.Orthogonal(scale=1), (9, 32, 3, 3)),
                'normal': signed(mx.init.Orthogonal(0.5, 'normal'), (6, 6))}
    finally:
        mx.random.uniform, mx.random.normal = saved


# ------------------------------------------------------------------------------ texts
@_case(TEXTS, 'dumps')
def _dumps(mx):
    inits = [mx.init.Zero(), mx.init.One(), mx.init.Constant(1), mx.init.Constant(0.25),
             mx.init.Constant(mx.nd.array([[1, 2], [3, 4]])),
             mx.init.Constant(np.array([1.5, 2.5])), mx.init.Uniform(), mx.init.Uniform(0.3),
             mx.init.Normal(), mx.init.Normal(sigma=0.5), mx.init.Orthogonal(),
             mx.init.Orthogonal(scale=2, rand_type='normal'), mx.init.Xavier(),
             mx.init.Xavier(rnd_type='gaussian', factor_type='in', magnitude=2.34),
             mx.init.MSRAPrelu(), mx.init.MSRAPrelu('out', 0.1), mx.init.Bilinear(),
             mx.init.LSTMBias(), mx.init.LSTMBias(0.5),
             mx.init.FusedRNN(mx.init.Normal(0.1), 4, 2, 'lstm'),
             mx.init.FusedRNN(None, 8, 1, 'gru', True, 0.0)]
    return [i.dumps() for i in inits]


@_case(TEXTS, 'create')
def _create(mx):
    out = []
    for spec in ['zeros', 'ONES', 'Xavier', 'msraprelu', '["normal", {"sigma": 0.2}]',
                 '{"initializer": "uniform", "scale": 0.3}', {'initializer': 'constant',
                                                              'value': 2}]:
        init = mx.init.create(spec)
        out.append([type(init).__name__, init.dumps()])
    init = mx.init.create('xavier', rnd_type='gaussian', magnitude=2)
    out.append([type(init).__name__, init.dumps()])
    same = mx.init.Normal(0.3)
    out.append(mx.init.create(same) is same)
    out.append(mx.init.create(initializer='one').dumps())
    out.append([mx.init.Normal(0.3) == mx.init.Normal(0.3), mx.init.Normal(0.3) == mx.init.Normal(0.2),
                mx.init.Zero() == mx.init.One()])
    return out


@_case(TEXTS, 'errors')
def _errors(mx):
    arr = mx.nd.zeros((2, 3))
    vec = mx.nd.zeros((5,))
    d = mx.init.InitDesc
    return [
        _error(lambda: mx.init.Uniform()(d('fc_unknown'), arr)),
        _error(lambda: mx.init.Uniform()(d('bn_moving_mean'), arr)),
        _error(lambda: mx.init.Xavier()(d('fc_weight'), vec)),
        _error(lambda: mx.init.Xavier(factor_type='both')(d('fc_weight'), arr)),
        _error(lambda: mx.init.Xavier(rnd_type='beta')(d('fc_weight'), arr)),
        _error(lambda: mx.init.Initializer()(d('fc_weight'), arr)),
        _error(lambda: mx.init.Mixed(['fc.*'], [mx.init.One()])('conv_weight', arr)),
        _error(lambda: mx.init.create('nosuchinit')),
        _error(lambda: mx.init.Load({'w': vec}, None)('missing', arr)),
        _error(lambda: mx.init.Load({'w': vec}, None)('w', arr)),
        _error(lambda: mx.init.Zero()(3, arr)),
        _error(lambda: mx.init.Zero()('w', np.zeros(3))),
    ]


# ------------------------------------------------------------------------------ stats
def _stat_fill(mx, init, shape, name='fc_weight', dtype='float32'):
    arr = mx.nd.zeros(shape, dtype=dtype)
    init(mx.init.InitDesc(name), arr)
    return arr.asnumpy().astype(np.float64)


def _moments(a):
    return np.array([a.mean(), a.std(), a.min(), a.max()])


STAT_SPECS = {
    'uniform-default': (lambda mx: mx.init.Uniform(), (200, 300)),
    'uniform-0.5': (lambda mx: mx.init.Uniform(0.5), (100, 100, 3)),
    'uniform-f16': (lambda mx: mx.init.Uniform(2.0), (300, 200), 'fc_weight', 'float16'),
    'normal-default': (lambda mx: mx.init.Normal(), (200, 300)),
    'normal-2': (lambda mx: mx.init.Normal(2.0), (300, 200)),
    'xavier-default': (lambda mx: mx.init.Xavier(), (64, 32, 3, 3)),
    'xavier-in': (lambda mx: mx.init.Xavier(factor_type='in', magnitude=2.34), (256, 400)),
    'xavier-out-gauss': (lambda mx: mx.init.Xavier('gaussian', 'out', 2), (300, 50, 2)),
    'xavier-avg-gauss': (lambda mx: mx.init.Xavier('gaussian', 'avg', 3), (20, 80, 5, 5)),
    'msraprelu': (lambda mx: mx.init.MSRAPrelu(), (64, 128, 3, 3)),
    'msraprelu-in': (lambda mx: mx.init.MSRAPrelu('in', 0.0), (500, 300)),
    'uniform-for-bias-name': (lambda mx: mx.init.Uniform(), (60000,), 'fc_bias'),
    'orthogonal-wide': (lambda mx: mx.init.Orthogonal(), (64, 256)),
    'orthogonal-tall': (lambda mx: mx.init.Orthogonal(scale=0.5, rand_type='normal'),
                        (256, 16, 2, 2)),
    'orthogonal-square': (lambda mx: mx.init.Orthogonal(scale=1.0), (100, 100)),
}


def stat(mx, sid):
    """{'moments': [mean, std, min, max]} (+ 'gram' for Orthogonal) of case ``sid``."""
    spec = STAT_SPECS[sid]
    make, shape = spec[0], spec[1]
    name = spec[2] if len(spec) > 2 else 'fc_weight'
    dtype = spec[3] if len(spec) > 3 else 'float32'
    mx.random.seed(0)
    a = _stat_fill(mx, make(mx), shape, name, dtype)
    out = {'moments': _moments(a)}
    if sid.startswith('orthogonal'):
        m = a.reshape(shape[0], -1)
        out['gram'] = m @ m.T if m.shape[0] <= m.shape[1] else m.T @ m
    return out


def write(mx, outdir):
    arrays = {}
    for cid, fn in VALUES.items():
        for name, value in fn(mx).items():
            arrays['%s/%s' % (cid, name)] = value
    for sid in STAT_SPECS:
        for name, value in stat(mx, sid).items():
            arrays['stat:%s/%s' % (sid, name)] = value
    tmp = os.path.join(outdir, 'values.tmp.npz')
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, os.path.join(outdir, 'values.npz'))
    texts = {cid: fn(mx) for cid, fn in TEXTS.items()}
    tmp = os.path.join(outdir, 'texts.json.tmp')
    with open(tmp, 'w') as f:
        json.dump(texts, f, indent=1, sort_keys=True)
    os.replace(tmp, os.path.join(outdir, 'texts.json'))
