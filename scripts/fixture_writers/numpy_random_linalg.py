"""mx.np.random, mx.npx.random and mx.np.linalg from real MXNet 1.9.1. The same ``run(mx)``
executes under mxcompat in tests/test_numpy_random_linalg.py.

Keys by prefix: ``exact/`` deterministic values (linalg results and gradients; eigenvectors
with each column's sign fixed); ``stat/`` sample moments of large draws (random numbers differ
between MXNet's generator and torch's, their distributions must not) and of reparameterised
gradients; ``shape/`` and ``dtype/`` of samples; ``error/`` the class of the exception a bad
argument raises (``none`` when the call succeeds)."""
import os
import zlib

import numpy as onp

N = 200000  # draws per moment


def _rng(name):
    return onp.random.RandomState(zlib.crc32(name.encode()) & 0x7fffffff)


def _data(shape, name, dtype='float32', low=-2, high=2):
    return _rng(name).uniform(low, high, size=shape).astype(dtype)


def _hybrid(mx, fn):
    """A hybridized block computing ``fn(F, *inputs)``."""
    class Block(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, *args):  # pylint: disable=arguments-differ
            return fn(F, *args)
    blk = Block()
    blk.hybridize()
    return blk


def _moments(x):
    x = x.asnumpy().astype('float64')
    return onp.array([x.mean(), x.std()])


def _random(mx, out):
    np, npx = mx.np, mx.npx
    stats = {
        'uniform(-1,3)': lambda: np.random.uniform(-1, 3, size=N),
        'normal(1,2)': lambda: np.random.normal(1, 2, size=N),
        'lognormal(0,0.5)': lambda: np.random.lognormal(0, 0.5, size=N),
        'logistic(1,2)': lambda: np.random.logistic(1, 2, size=N),
        'gumbel(1,2)': lambda: np.random.gumbel(1, 2, size=N),
        'exponential(2)': lambda: np.random.exponential(2, size=N),
        'rayleigh(2)': lambda: np.random.rayleigh(2, size=N),
        'weibull(2)': lambda: np.random.weibull(2, size=N),
        'pareto(3)': lambda: np.random.pareto(3, size=N),
        'power(3)': lambda: np.random.power(3, size=N),
        'gamma(2,3)': lambda: np.random.gamma(2, 3, size=N),
        'beta(2,5)': lambda: np.random.beta(2, 5, size=N),
        'chisquare(4)': lambda: np.random.chisquare(4, size=N),
        'bernoulli(0.3)': lambda: npx.random.bernoulli(prob=0.3, size=N),
        'bernoulli(logit=1)': lambda: npx.random.bernoulli(logit=1.0, size=N),
        'normal(array)': lambda: np.random.normal(np.array([0., 10.]), np.array([1., 3.]),
                                                   size=(N // 2, 2))[:, 1],
        'normal_n': lambda: npx.random.normal_n(np.array([5.]), 2., batch_shape=N),
        'uniform_n': lambda: npx.random.uniform_n(np.array([5.]), 7., batch_shape=N),
        'choice-weighted': lambda: np.random.choice(4, N, p=np.array([.1, .2, .3, .4])),
        'choice-uniform': lambda: np.random.choice(5, N),
        'randint': lambda: np.random.randint(-3, 7, size=N),
    }
    for name, draw in stats.items():
        out['stat/' + name] = _moments(draw())
    counts = np.random.multinomial(20, [0.1, 0.6, 0.3], size=N // 10).asnumpy()
    out['stat/multinomial-mean'] = counts.mean(0)
    mvn = np.random.multivariate_normal(np.array([1., -1.]), np.array([[2., 1.], [1., 2.]]),
                                        size=N).asnumpy()
    out['stat/mvn-mean'] = mvn.mean(0)
    out['stat/mvn-cov'] = onp.cov(mvn.T)
    # reparameterised gradients, as moments: d sample / d parameter
    for name, sample in (
            ('normal-scale', lambda p: np.random.normal(0., p, size=N)),
            ('logistic-scale', lambda p: np.random.logistic(0., p, size=N)),
            ('gumbel-scale', lambda p: np.random.gumbel(0., p, size=N)),
            ('exponential', lambda p: np.random.exponential(p, size=N)),
            ('rayleigh', lambda p: np.random.rayleigh(p, size=N)),
            ('weibull', lambda p: np.random.weibull(p, size=N))):
        p = np.array([2.])
        p.attach_grad()
        with mx.autograd.record():
            s = sample(p)
        s.backward(np.abs(np.random.normal(size=N)))  # random weights: per-draw gradients
        out['stat/grad-' + name] = p.grad.asnumpy() / N
    loc, scale = np.zeros((3, 4, 5)), np.ones((4, 1))
    loc.attach_grad()
    scale.attach_grad()
    with mx.autograd.record():
        s = np.random.normal(loc, scale, size=(3, 4, 5))
    s.backward()
    out['exact/grad-normal-loc'] = loc.grad.asnumpy()
    out['shape/grad-normal-scale'] = onp.array(scale.grad.shape)
    for name, fn in (('gamma', lambda a: np.random.gamma(a, 1., size=(4,))),
                     ('uniform', lambda a: np.random.uniform(a, 2., size=(4,))),
                     ('power', lambda a: np.random.power(a + 1, size=(4,)))):
        a = np.ones((4,))
        a.attach_grad()
        with mx.autograd.record():
            s = fn(a)
        s.backward()
        out['exact/zero-grad-' + name] = a.grad.asnumpy()

    cases = {
        'normal()': lambda: np.random.normal(),
        'normal(size=())': lambda: np.random.normal(size=()),
        'normal(arrays)': lambda: np.random.normal(np.zeros((3, 1)), np.ones((4,))),
        'normal(arrays,size)': lambda: np.random.normal(np.zeros((3, 1)), np.ones((4,)),
                                                        size=(2, 3, 4)),
        'normal(f64 loc)': lambda: np.random.normal(np.zeros(2, dtype='float64'), 1.),
        'normal(dtype=f64)': lambda: np.random.normal(0, 1, size=2, dtype='float64'),
        'uniform(f16)': lambda: np.random.uniform(size=(2, 3), dtype='float16'),
        'gamma(array)': lambda: np.random.gamma(np.ones((2, 3))),
        'exponential(f64)': lambda: np.random.exponential(np.ones(2, dtype='float64')),
        'weibull(size)': lambda: np.random.weibull(np.ones(2), size=(3, 2)),
        'pareto(0d)': lambda: np.random.pareto(np.array(1.0), size=6),
        'power(scalar)': lambda: np.random.power(2., size=(4, 0, 5)),
        'rayleigh(array)': lambda: np.random.rayleigh(np.ones((7, 8))),
        'logistic(size)': lambda: np.random.logistic(0., 1., size=(2, 2)),
        'gumbel(array)': lambda: np.random.gumbel(np.zeros(3), 1.),
        'beta(f64)': lambda: np.random.beta(1, 1, size=2, dtype='float64'),
        'chisquare(array)': lambda: np.random.chisquare(np.array([1.]), size=(2, 3)),
        'lognormal': lambda: np.random.lognormal(np.zeros((3, 1)), np.ones((4,)), (3, 4)),
        'choice(int)': lambda: np.random.choice(5, 3),
        'choice(array)': lambda: np.random.choice(np.arange(4, dtype='float64'), (2, 2),
                                                  replace=False),
        'choice(p)': lambda: np.random.choice(4, p=np.array([.1, .2, .3, .4])),
        'randint': lambda: np.random.randint(5, size=3),
        'randint(int32)': lambda: np.random.randint(0, 5, size=(2,), dtype='int32'),
        'multinomial': lambda: np.random.multinomial(5, [0.2, 0.8], size=(3,)),
        'multinomial(array)': lambda: np.random.multinomial(5, np.array([0.2, 0.8])),
        'bernoulli(bool)': lambda: npx.random.bernoulli(logit=np.array([0.3, -2.]),
                                                        size=(3, 2), dtype='bool'),
        'bernoulli(int32)': lambda: npx.random.bernoulli(prob=np.ones(2) * 0.5,
                                                         dtype='int32'),
        'normal_n': lambda: npx.random.normal_n(np.ones((2,)), np.ones((3, 1)),
                                                batch_shape=4),
        'uniform_n': lambda: npx.random.uniform_n(0., 1., batch_shape=(3,)),
        'mvn': lambda: np.random.multivariate_normal(np.zeros((3, 2)),
                                                     np.broadcast_to(np.eye(2), (4, 3, 2, 2)),
                                                     size=(5,)),
        'mvn(f64)': lambda: np.random.multivariate_normal(np.zeros(2, dtype='float64'),
                                                          np.eye(2, dtype='float64')),
        'rand': lambda: np.random.rand(2, 3),
        'randn': lambda: np.random.randn(3),
    }
    for name, fn in cases.items():
        x = fn()
        out['shape/' + name] = onp.array(x.shape, dtype='int64')
        out['dtype/' + name] = onp.array(x.dtype.name)
    net = _hybrid(mx, lambda F, a, b: F.np.random.beta(a, b, size=(2, 3), dtype='float64'))
    x = net(np.array([1.]), np.array([1.]))
    out['shape/hybrid-beta'], out['dtype/hybrid-beta'] = onp.array(x.shape), onp.array(
        x.dtype.name)
    net = _hybrid(mx, lambda F, m, c: F.np.random.multivariate_normal(m, c, (2,)))
    out['shape/hybrid-mvn'] = onp.array(net(np.zeros((3, 2)), np.ones((2, 2)) * 0 +
                                            np.eye(2)).shape)
    net = _hybrid(mx, lambda F, a, b: F.npx.random.normal_n(a, b, batch_shape=(2,)))
    out['shape/hybrid-normal_n'] = onp.array(net(np.ones((2, 2)), np.ones((2, 2))).shape)
    net = _hybrid(mx, lambda F, a: F.np.random.gamma(1., size=(3,)) + a)
    out['shape/hybrid-gamma-shape-param'] = onp.array(net(np.ones(())).shape)

    bad = {
        'gamma(1,0)': lambda: np.random.gamma(1, 0),
        'gamma(arr,-1)': lambda: np.random.gamma(np.array(1), np.array(-1.0)),
        'gamma(0,arr)': lambda: np.random.gamma(0, np.array(1)),
        'exponential(-1)': lambda: np.random.exponential(scale=-1),
        'exponential(arr<0)': lambda: np.random.exponential(scale=np.array([1., -1])),
        'normal(scale<0)': lambda: np.random.normal(scale=-1),
        'normal(arr scale<0)': lambda: np.random.normal(scale=np.array([-1.])),
        'lognormal(sigma<0)': lambda: np.random.lognormal(sigma=-1),
        'rayleigh(-1)': lambda: np.random.rayleigh(scale=-1),
        'logistic(-1)': lambda: np.random.logistic(scale=-1),
        'gumbel(-1)': lambda: np.random.gumbel(scale=-1),
        'pareto(0)': lambda: np.random.pareto(a=0),
        'weibull(-1)': lambda: np.random.weibull(a=-1),
        'power(0)': lambda: np.random.power(a=0),
        'chisquare(0)': lambda: np.random.chisquare(0., size=2),
        'beta(0,1)': lambda: np.random.beta(0., 1., size=2),
        'uniform(2,1)': lambda: np.random.uniform(2, 1),
        'bernoulli(1.5)': lambda: npx.random.bernoulli(prob=1.5),
        'bernoulli(arr>1)': lambda: npx.random.bernoulli(prob=np.array([1.5])),
        'bernoulli(both)': lambda: npx.random.bernoulli(prob=0.5, logit=0.3),
        'randint(int8)': lambda: np.random.randint(0, 5, size=(2,), dtype='int8'),
        'normal(broadcast)': lambda: np.random.normal(np.zeros((3, 1)), np.ones((4,)),
                                                      size=(3, 5)),
        # mx.np's multivariate_normal ignores check_valid and tol (mx.nd.np's refuses them)
        'mvn(check_valid)': lambda: np.random.multivariate_normal(
            np.zeros(2), np.eye(2), check_valid='warn'),
    }
    _errors(out, bad)


def _errors(out, calls):
    """The class of the exception each call raises ('none' for none)."""
    for name, fn in calls.items():
        try:
            fn().asnumpy()
            out['error/' + name] = onp.array('none')
        except Exception as err:  # pylint: disable=broad-except
            out['error/' + name] = onp.array(type(err).__name__)


def _sign_fixed(v):
    """Eigenvectors (columns) with the sign making each column's largest entry positive."""
    v = v.asnumpy()
    idx = onp.abs(v).argmax(axis=-2)
    signs = onp.sign(onp.take_along_axis(v, idx[..., None, :], axis=-2))
    return v * signs


def _linalg(mx, out):
    np = mx.np
    la = np.linalg
    sym = _data((2, 3, 3), 'sym', 'float64')
    sym = np.array(sym + sym.transpose(0, 2, 1), dtype='float64')
    tri = np.array(onp.triu(_data((3, 3), 'tri')) + onp.diag([3., 5., 7.]))
    for upl in ('L', 'U'):
        w, v = la.eigh(sym, UPLO=upl)
        out['exact/eigh-w-' + upl], out['exact/eigh-v-' + upl] = w.asnumpy(), _sign_fixed(v)
        out['exact/eigvalsh-' + upl] = la.eigvalsh(np.array(_data((4, 4), 'any4')),
                                                   UPLO=upl).asnumpy()
    w, v = la.eig(tri)
    order = onp.argsort(w.asnumpy())
    out['exact/eig-w'] = w.asnumpy()[order]
    out['exact/eig-v'] = _sign_fixed(v)[:, order]
    out['exact/eigvals'] = onp.sort(la.eigvals(np.array(_data((2, 2, 2), 'ev') * 0 + onp.array(
        [[1., 2.], [3., 4.]]))).asnumpy(), axis=-1)
    ints = np.array([[2, 1], [1, 3]], dtype='int32')
    out['exact/eigvalsh-int32'] = la.eigvalsh(ints).asnumpy()
    out['exact/eigvals-uint8'] = onp.sort(la.eigvals(ints.astype('uint8')).asnumpy())
    a = np.array(_data((2, 4, 3), 'pinv'))
    out['exact/pinv'] = la.pinv(a).asnumpy()
    out['exact/pinv-rcond'] = la.pinv(a, 0.5).asnumpy()
    out['exact/pinv-rcond-array'] = la.pinv(a, np.array([0.05, 0.6])).asnumpy()
    t = np.array(_data((4, 6, 8, 3), 'tinv') + onp.eye(24).reshape(4, 6, 8, 3) * 4,
                 dtype='float32')
    t.attach_grad()
    with mx.autograd.record():
        inv = la.tensorinv(t, ind=2)
    inv.backward()
    out['exact/tensorinv'], out['exact/tensorinv-grad'] = inv.asnumpy(), t.grad.asnumpy()
    s = np.array(_data((2, 3, 6), 'ts') + onp.eye(6).reshape(6, 2, 3).transpose(1, 2, 0) * 4,
                 dtype='float32')
    b = np.array(_data((6,), 'tsb'))
    s.attach_grad()
    b.attach_grad()
    with mx.autograd.record():
        x = la.tensorsolve(s, b, axes=(0, 1))
    x.backward()
    out['exact/tensorsolve'] = x.asnumpy()
    out['exact/tensorsolve-grad-a'], out['exact/tensorsolve-grad-b'] = (s.grad.asnumpy(),
                                                                       b.grad.asnumpy())
    norms = [((2, 3, 4), None, None), ((2, 3), 2, None), ((2, 3, 4), 2, None),
             ((2, 3, 4), 1, (2, 1)), ((2, 3, 4), 2, (1, 2)), ((2, 3, 4), -2, (0, 2)),
             ((2, 3, 4), 4, 1), ((2, 3, 4), -3.2, 2), ((2, 3, 4), 0, 1),
             ((2, 3, 4), 'inf', 1), ((2, 3, 4), '-inf', (1, 0)), ((2, 3, 4), 'inf', None),
             ((2, 3, 4), 'fro', (0, 2)), ((2, 3, 4), 'nuc', (0, 2)), ((2, 3, 4), -1, (0, 1)),
             ((2, 0, 4), 'fro', (0, 2)), ((3,), None, 0)]
    for k, (shape, order, axis) in enumerate(norms):
        for keep in (False, True):
            x = np.array(_data(shape, 'norm%d' % k))
            x.attach_grad()
            with mx.autograd.record():
                n = la.norm(x, ord=order, axis=axis, keepdims=keep)
            n.backward()
            key = 'exact/norm-%s-%s-%s-%s' % (shape, order, axis, keep)
            out[key] = n.asnumpy()
            if order != -2:  # MXNet's gradient of the -2 norm is not the smallest singular
                out[key + '-grad'] = x.grad.asnumpy()  # value's (mxcompat's is)
    net = _hybrid(mx, lambda F, x: F.np.linalg.norm(x, ord=2, axis=(1, 2)))
    out['exact/norm-hybrid'] = net(np.array(_data((2, 3, 4), 'norm-h'))).asnumpy()
    net = _hybrid(mx, lambda F, x: F.np.linalg.eig(x)[0])
    out['exact/eig-hybrid'] = onp.sort(net(tri).asnumpy())
    out['exact/norm-int32'] = la.norm(np.ones((2, 3), dtype='int32')).asnumpy()
    bad = {
        'eig(float16)': lambda: la.eig(np.ones((2, 2), dtype='float16'))[0],
        'eig(complex)': lambda: la.eig(np.array([[0., 1.], [-1., 0.]]))[0],
        'eigvals(not square)': lambda: la.eigvals(np.ones((1, 3))),
        'norm(nuc vector)': lambda: la.norm(np.ones((3,)), ord='nuc'),
        'norm(axis list)': lambda: la.norm(np.ones((3,)), axis=[0]),
        'pinv(hermitian)': lambda: la.pinv(np.ones((2, 2)), hermitian=True),
    }
    _errors(out, bad)


def run(mx):
    """{case id: numpy array}, computed in NumPy mode (``npx.set_np()``)."""
    out = {}
    mx.npx.set_np()
    try:
        mx.npx.random.seed(7)
        _random(mx, out)
        _linalg(mx, out)
    finally:
        mx.npx.reset_np()
    return out


def write(mx, outdir):
    out = run(mx)
    tmp = os.path.join(outdir, 'numpy_random_linalg.tmp.npz')
    onp.savez_compressed(tmp, **out)
    os.replace(tmp, os.path.join(outdir, 'numpy_random_linalg.npz'))
