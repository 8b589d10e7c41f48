"""Cases for mxcompat/ops/random_ops.py and mxcompat/ndarray/random.py.

Samples cannot equal MXNet's (different generators): samplers are checked by shape and dtype
('shape') and by the mean and standard deviation of many draws ('moments'); the densities
(``_random_pdf_*``) are checked by value and gradient.
"""
import numpy as np

from . import case, rng

N = 20000  # draws per moments case
MOM = dict(check='moments', rtol=0.06, atol=0.03)


def f32(cid, *shape, lo=-1, hi=1, dtype=np.float32):
    return rng(cid).uniform(lo, hi, size=shape).astype(dtype)


def const(value, *shape, dtype=np.float32):
    return np.full(shape, value, dtype=dtype)


# distribution, scalar parameters, array parameters (for _sample_*)
DISTS = [
    ('uniform', {'low': -1.0, 'high': 3.0}, {'low': const(-1.0, 2), 'high': const(3.0, 2)}),
    ('normal', {'loc': 1.5, 'scale': 2.0}, {'mu': const(1.5, 2), 'sigma': const(2.0, 2)}),
    ('gamma', {'alpha': 2.5, 'beta': 0.7}, {'alpha': const(2.5, 2), 'beta': const(0.7, 2)}),
    ('exponential', {'lam': 2.0}, {'lam': const(2.0, 2)}),
    ('poisson', {'lam': 4.0}, {'lam': const(4.0, 2)}),
    ('negative_binomial', {'k': 3, 'p': 0.4}, {'k': const(3, 2), 'p': const(0.4, 2)}),
    ('generalized_negative_binomial', {'mu': 2.0, 'alpha': 0.3},
     {'mu': const(2.0, 2), 'alpha': const(0.3, 2)}),
]

CASES = []
for dist, sparams, aparams in DISTS:
    # mx.nd.random.exponential takes the scale 1/lam
    wparams = {'scale': 1 / sparams['lam']} if dist == 'exponential' else sparams
    CASES += [
        case('%s-op-shape' % dist, '_internal._random_' + dist,
             kwargs=dict(sparams, shape=(2, 3)), check='shape'),
        case('%s-op-f64' % dist, '_internal._random_' + dist,
             kwargs=dict(sparams, shape=(4,), dtype='float64'), check='shape'),
        case('%s-op-f16' % dist, '_internal._random_' + dist,
             kwargs=dict(sparams, shape=(3, 1), dtype='float16'), check='shape'),
        case('%s-alias' % dist, 'random_' + dist, kwargs=dict(sparams, shape=(5,)),
             check='shape'),
        case('%s-moments' % dist, 'random.' + dist, kwargs=dict(wparams, shape=(N,)), **MOM),
        case('%s-default-shape' % dist, 'random.' + dist, kwargs=dict(wparams), check='shape'),
        case('%s_like-moments' % dist, 'random.%s_like' % dist,
             kwargs=dict(sparams, data=const(0, 100, 200)), **MOM),
        case('%s_like-f64' % dist, 'random.%s_like' % dist,
             kwargs=dict(sparams, data=const(0, 2, 3, dtype=np.float64)), check='shape'),
        case('%s-sample-moments' % dist, '_internal._sample_' + dist,
             kwargs=dict(aparams, shape=(N // 2,)), **MOM),
        case('%s-sample-alias' % dist, 'sample_' + dist, kwargs=dict(aparams),
             check='shape'),
        case('%s-sample-f64' % dist, '_internal._sample_' + dist,
             kwargs=dict(aparams, shape=(2, 3), dtype='float64'), check='shape'),
        case('%s-nd-params' % dist, 'random.' + dist,
             args=[(1 / v if dist == 'exponential' else v).reshape(2, 1)
                   for v in aparams.values()], kwargs={'shape': (3,)},
             check='shape'),
    ]

CASES += [
    case('uniform-top-alias', 'uniform', kwargs={'low': 0.0, 'high': 2.0, 'shape': (N,)}, **MOM),
    case('normal-top-alias', 'normal', kwargs={'loc': 0.0, 'scale': 1.0, 'shape': (N,)}, **MOM),
    case('uniform-int-shape', 'random.uniform', kwargs={'shape': 5}, check='shape'),
    case('normal-f16', 'random.normal', kwargs={'shape': (N,), 'dtype': 'float16'},
         check='moments', rtol=0.06, atol=0.03),
    case('exponential-scale', 'random.exponential', kwargs={'scale': 0.5, 'shape': (N,)}, **MOM),
    case('exponential-nd-scale', 'random.exponential', args=[const(0.5, 3)],
         kwargs={'shape': (N // 3,)}, **MOM),
    case('randn', 'random.randn', args=[2, 3], check='shape'),
    case('randn-moments', 'random.randn', args=[N], kwargs={'loc': 1.0, 'scale': 3.0}, **MOM),
    case('sample-uniform-f64-in', '_internal._sample_uniform',
         kwargs={'low': const(0, 2, dtype=np.float64), 'high': const(1, 2, dtype=np.float64),
                 'shape': (3, 4)}, check='shape'),
    case('sample-poisson-int-in', '_internal._sample_poisson',
         kwargs={'lam': const(2, 3, dtype=np.int32)}, check='shape'),
    case('sample-normal-mixed', '_internal._sample_normal',
         kwargs={'mu': np.array([0., 10.], dtype=np.float32),
                 'sigma': np.array([1., 2.], dtype=np.float32), 'shape': (N // 2,)}, **MOM),
    # randint
    case('randint-op', '_internal._random_randint', kwargs={'low': -3, 'high': 7, 'shape': (2, 3)},
         check='shape'),
    case('randint-alias', 'random_randint', kwargs={'low': 0, 'high': 7, 'shape': (4,),
                                                    'dtype': 'int64'}, check='shape'),
    case('randint-moments', 'random.randint', args=[-5, 15], kwargs={'shape': (N,)}, **MOM),
    case('randint-default', 'random.randint', args=[0, 5], check='shape'),
    # multinomial: one-hot distributions make the draws deterministic
    case('multinomial-onehot', '_internal._sample_multinomial',
         kwargs={'data': np.array([[0, 1, 0], [0, 0, 1]], dtype=np.float32), 'shape': (2,),
                 'get_prob': True}, grad=['data']),
    case('multinomial-onehot-1d', 'random.multinomial',
         kwargs={'data': np.array([0, 0, 1, 0], dtype=np.float64), 'get_prob': True,
                 'dtype': 'float32'}, grad=['data'], grad_outputs=[1]),
    case('multinomial-alias', 'sample_multinomial',
         kwargs={'data': np.array([[0.2, 0.8], [0.5, 0.5], [1, 0]], dtype=np.float32)},
         check='shape'),
    case('multinomial-shape-uint8', 'random.multinomial',
         kwargs={'data': np.array([[0.2, 0.8], [0.5, 0.5]], dtype=np.float32),
                 'shape': (2, 3), 'dtype': 'uint8'}, check='shape'),
    case('multinomial-moments', 'random.multinomial',
         kwargs={'data': np.array([0.2, 0.3, 0.1, 0.4], dtype=np.float32), 'shape': (N,)},
         **MOM),
    # shuffle keeps the multiset of rows: compare moments tightly
    case('shuffle-op', '_internal._shuffle', kwargs={'data': f32('sh', 50, 3)},
         check='moments', rtol=1e-5, atol=1e-6),
    case('shuffle-alias', 'shuffle', args=[np.arange(12, dtype=np.int32).reshape(6, 2)],
         check='moments', rtol=1e-6, atol=1e-6),
    case('shuffle-nd', 'random.shuffle', args=[f32('sh2', 7)], check='moments', rtol=1e-5,
         atol=1e-6),
    case('shuffle-shape', 'random.shuffle', args=[f32('sh3', 4, 2, 3, dtype=np.float64)],
         check='shape'),
    case('unique-zipfian', '_internal._sample_unique_zipfian',
         kwargs={'range_max': 50, 'shape': (3, 10)}, check='shape'),
    # errors
    case('uniform-low-high', 'random.uniform', args=[1, 0], check='error'),
    case('uniform-int-dtype', 'random.uniform', kwargs={'shape': (2,), 'dtype': 'int32'},
         check='error'),
    case('gamma-param-shapes', 'random.gamma', args=[const(1, 2), const(1, 3)], check='error'),
    case('mixed-param-types', 'random.normal', args=[const(0, 2), 1.0], check='error'),
    case('randint-dtype', 'random.randint', args=[0, 3], kwargs={'dtype': 'float32'},
         check='error'),
]

# ------------------------------------------------------------------------------ densities
POS = dict(lo=0.5, hi=3.0)
PDFS = [
    ('uniform', f32('pu-s', 2, 3, **POS), {'low': f32('pu-l', 2, lo=-1, hi=0),
                                            'high': f32('pu-h', 2, lo=4, hi=5)}),
    ('normal', f32('pn-s', 2, 4), {'mu': f32('pn-m', 2), 'sigma': f32('pn-sg', 2, **POS)}),
    ('gamma', f32('pg-s', 3, 2, **POS), {'alpha': f32('pg-a', 3, **POS),
                                          'beta': f32('pg-b', 3, **POS)}),
    ('exponential', f32('pe-s', 2, 3, **POS), {'lam': f32('pe-l', 2, **POS)}),
    ('poisson', np.array([[0, 1, 2, 3], [1, 4, 2, 0]], dtype=np.float32),
     {'lam': f32('pp-l', 2, **POS)}),
    ('negative_binomial', np.array([[0, 1, 2], [3, 1, 5]], dtype=np.float32),
     {'k': f32('pnb-k', 2, **POS), 'p': f32('pnb-p', 2, lo=0.2, hi=0.8)}),
    ('generalized_negative_binomial', np.array([[0, 1, 2], [3, 1, 5]], dtype=np.float32),
     {'mu': f32('pg-mu', 2, **POS), 'alpha': f32('pg-al', 2, lo=0.2, hi=1.5)}),
]
for dist, sample, params in PDFS:
    names = ['sample'] + list(params)
    for is_log in (False, True):
        CASES.append(case('pdf-%s-log%d' % (dist, is_log), '_internal._random_pdf_' + dist,
                          kwargs=dict(params, sample=sample, is_log=is_log), grad=names,
                          rtol=1e-4, atol=1e-5))
    CASES.append(case('pdf-%s-alias-f64' % dist, 'random_pdf_' + dist,
                      kwargs=dict({k: v.astype(np.float64) for k, v in params.items()},
                                  sample=sample.astype(np.float64)), grad=names))
    CASES.append(case('pdf-%s-same-shape' % dist, 'random_pdf_' + dist,
                      kwargs=dict({k: np.repeat(v[:, None], sample.shape[1], 1)
                                   for k, v in params.items()}, sample=sample, is_log=True),
                      grad=names, rtol=1e-4, atol=1e-5))

_dir_sample = rng('pd-s').dirichlet([1.0, 2.0, 3.0], size=(2, 4)).astype(np.float32)
CASES += [
    case('pdf-dirichlet', '_internal._random_pdf_dirichlet',
         kwargs={'sample': _dir_sample, 'alpha': f32('pd-a', 2, 3, **POS)},
         grad=['sample', 'alpha'], rtol=1e-4, atol=1e-5),
    case('pdf-dirichlet-log', 'random_pdf_dirichlet',
         kwargs={'sample': _dir_sample, 'alpha': f32('pd-a', 2, 3, **POS), 'is_log': True},
         grad=['sample', 'alpha'], rtol=1e-4, atol=1e-5),
    case('pdf-dirichlet-1d', 'random_pdf_dirichlet',
         kwargs={'sample': _dir_sample[0, 0], 'alpha': f32('pd-a1', 3, **POS)},
         grad=['sample', 'alpha'], rtol=1e-4, atol=1e-5),
    case('pdf-bad-shape', 'random_pdf_normal',
         kwargs={'sample': f32('pb', 3, 2), 'mu': f32('pb-m', 2), 'sigma': const(1, 2)},
         check='error'),
]
