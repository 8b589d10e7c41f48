"""Multi-step runs of the optimizer update operators: final weights and every state array.

Each scenario starts from arrays seeded by its id and applies its update several times, with
a new gradient each step, the way MXNet's optimizers call these operators (``out=weight``,
states updated in place). ``write`` stores real MXNet's final arrays in
tests/fixtures/optimizer_ops/; tests/test_optimizer_ops.py runs the same scenarios on
mxcompat and compares.
"""
import os

import numpy as np

from scripts.op_cases import rng

STEPS = 4


def _rand(sid, name, shape, dtype=np.float32, lo=-1.0, hi=1.0):
    return rng('%s/%s' % (sid, name)).uniform(lo, hi, size=shape).astype(dtype)


def _grad(mx, sid, k, shape, dtype=np.float32, name='g'):
    return mx.nd.array(_rand(sid, '%s%d' % (name, k), shape, dtype), dtype=dtype)


def _zeros(shape, dtype=np.float32):
    return np.zeros(shape, dtype)


SHAPE = (3, 4)
SHAPE2 = (5,)
SCENARIOS = {}


def scenario(sid, tol=1e-5, **init):
    """Register ``step(mx, arrays, k)`` under ``sid``, starting from ``init`` (name -> numpy
    array, or a callable(sid) returning one)."""
    def deco(step):
        SCENARIOS[sid] = (init, step, tol)
        return step
    return deco


def _w(dtype=np.float32, shape=SHAPE):
    return lambda sid: _rand(sid, 'w', shape, dtype)


def _w32_of_w16(shape=SHAPE):
    return lambda sid: _rand(sid, 'w', shape, np.float16).astype(np.float32)


def run(mx, sid):
    """Run scenario ``sid`` with library ``mx``; returns {array name: numpy array}."""
    init, step, _ = SCENARIOS[sid]
    arrays = {}
    for name, value in init.items():
        v = value(sid) if callable(value) else value
        arrays[name] = mx.nd.array(v, dtype=v.dtype)
    for k in range(STEPS):
        step(mx, arrays, k)
    return {name: a.asnumpy() for name, a in arrays.items()}


def _rsp(mx, a):
    """MXNet runs group AdaGrad only for row_sparse gradients (mxcompat: dense)."""
    return a.tostype('row_sparse') if mx.__name__ == 'mxnet' else a


# ------------------------------------------------------------------------------ SGD family
@scenario('sgd', w=_w())
def _(mx, a, k):
    mx.nd.sgd_update(a['w'], _grad(mx, 'sgd', k, SHAPE), lr=0.1, wd=0.01, rescale_grad=2.0,
                     clip_gradient=0.8, out=a['w'])


# float64 weights: MXNet holds lr and wd as float32 (0.1 is 0.10000000149...), which shows
# in a float64 update at a tolerance far below float32's
@scenario('sgd_f64_f32_params', tol=1e-13, w=_w(np.float64))
def _(mx, a, k):
    mx.nd.sgd_update(a['w'], _grad(mx, 'sgd_f64_f32_params', k, SHAPE, np.float64), lr=0.1,
                     wd=0.3, out=a['w'])


@scenario('sgd_mom', w=_w(), mom=_zeros(SHAPE))
def _(mx, a, k):
    mx.nd.sgd_mom_update(a['w'], _grad(mx, 'sgd_mom', k, SHAPE), a['mom'], lr=0.1,
                         momentum=0.9, wd=0.01, rescale_grad=0.5, out=a['w'])


@scenario('sgd_mom_no_out', w=_w(), mom=_zeros(SHAPE), ret=_zeros(SHAPE))
def _(mx, a, k):
    res = mx.nd.sgd_mom_update(a['w'], _grad(mx, 'sgd_mom_no_out', k, SHAPE), a['mom'],
                               lr=0.1, momentum=0.9, clip_gradient=0.5)
    a['ret'] = res


@scenario('mp_sgd', tol=1e-3, w=_w(np.float16), w32=_w32_of_w16())
def _(mx, a, k):
    mx.nd.mp_sgd_update(a['w'], _grad(mx, 'mp_sgd', k, SHAPE, np.float16), a['w32'], lr=0.1,
                        wd=0.01, out=a['w'])


@scenario('mp_sgd_mom', tol=1e-3, w=_w(np.float16), mom=_zeros(SHAPE), w32=_w32_of_w16())
def _(mx, a, k):
    mx.nd.mp_sgd_mom_update(a['w'], _grad(mx, 'mp_sgd_mom', k, SHAPE, np.float16), a['mom'],
                            a['w32'], lr=0.1, momentum=0.9, wd=0.01, clip_gradient=0.5,
                            out=a['w'])


@scenario('nag', w=_w(), mom=_zeros(SHAPE))
def _(mx, a, k):
    mx.nd.nag_mom_update(a['w'], _grad(mx, 'nag', k, SHAPE), a['mom'], lr=0.1, momentum=0.9,
                         wd=0.01, out=a['w'])


@scenario('mp_nag', tol=1e-3, w=_w(np.float16), mom=_zeros(SHAPE), w32=_w32_of_w16())
def _(mx, a, k):
    mx.nd.mp_nag_mom_update(a['w'], _grad(mx, 'mp_nag', k, SHAPE, np.float16), a['mom'],
                            a['w32'], lr=0.1, momentum=0.9, wd=0.1, rescale_grad=2.0,
                            clip_gradient=1.0, out=a['w'])


@scenario('signsgd', w=_w())
def _(mx, a, k):
    mx.nd.signsgd_update(a['w'], _grad(mx, 'signsgd', k, SHAPE), lr=0.1, wd=0.1, out=a['w'])


@scenario('signum', w=_w(), mom=_zeros(SHAPE))
def _(mx, a, k):
    mx.nd.signum_update(a['w'], _grad(mx, 'signum', k, SHAPE), a['mom'], lr=0.01,
                        momentum=0.9, wd=0.01, wd_lh=0.1, out=a['w'])


# ------------------------------------------------------------------------------ adaptive
@scenario('adam', tol=1e-4, w=_w(), mean=_zeros(SHAPE), var=_zeros(SHAPE))
def _(mx, a, k):
    t = k + 1
    lr = 0.01 * (1 - 0.999 ** t) ** 0.5 / (1 - 0.9 ** t)
    mx.nd.adam_update(a['w'], _grad(mx, 'adam', k, SHAPE), a['mean'], a['var'], lr=lr,
                      wd=0.01, clip_gradient=0.5, out=a['w'])


@scenario('adam_f64', tol=1e-6, w=_w(np.float64), mean=_zeros(SHAPE, np.float64),
          var=_zeros(SHAPE, np.float64))
def _(mx, a, k):
    mx.nd.adam_update(a['w'], _grad(mx, 'adam_f64', k, SHAPE, np.float64), a['mean'],
                      a['var'], lr=0.01, beta1=0.8, rescale_grad=0.5, out=a['w'])


@scenario('ftml', tol=1e-4, w=_w(), d=_zeros(SHAPE), v=_zeros(SHAPE), z=_zeros(SHAPE))
def _(mx, a, k):
    mx.nd.ftml_update(a['w'], _grad(mx, 'ftml', k, SHAPE), a['d'], a['v'], a['z'], lr=0.05,
                      t=k + 1, wd=0.01, clip_grad=0.7, out=a['w'])


@scenario('rmsprop', tol=1e-4, w=_w(), n=_zeros(SHAPE))
def _(mx, a, k):
    mx.nd.rmsprop_update(a['w'], _grad(mx, 'rmsprop', k, SHAPE), a['n'], lr=0.01, gamma1=0.9,
                         wd=0.01, clip_weights=0.9, out=a['w'])


@scenario('rmspropalex', tol=1e-4, w=_w(), n=_zeros(SHAPE), g=_zeros(SHAPE),
          delta=_zeros(SHAPE))
def _(mx, a, k):
    mx.nd.rmspropalex_update(a['w'], _grad(mx, 'rmspropalex', k, SHAPE), a['n'], a['g'],
                             a['delta'], lr=0.01, gamma1=0.9, gamma2=0.9, epsilon=1e-4,
                             clip_gradient=0.8, out=a['w'])


@scenario('ftrl', tol=1e-4, w=_w(), z=_zeros(SHAPE), n=_zeros(SHAPE))
def _(mx, a, k):
    mx.nd.ftrl_update(a['w'], _grad(mx, 'ftrl', k, SHAPE), a['z'], a['n'], lr=0.1,
                      lamda1=0.01, beta=1.0, wd=0.01, out=a['w'])


@scenario('group_adagrad', tol=1e-4, w=_w(), history=_zeros((3, 1)))
def _(mx, a, k):
    mx.nd.contrib.group_adagrad_update(a['w'], _rsp(mx, _grad(mx, 'group_adagrad', k, SHAPE)),
                                       a['history'], lr=0.1, rescale_grad=2.0,
                                       clip_gradient=1.5, out=a['w'])


# ------------------------------------------------------------------------------ LAMB
def _norm(mx, x):
    return mx.nd.multi_sum_sq(x, num_arrays=1) ** 0.5


@scenario('lamb', tol=1e-4, w=_w(), mean=_zeros(SHAPE), var=_zeros(SHAPE))
def _(mx, a, k):
    g = mx.nd.lamb_update_phase1(a['w'], _grad(mx, 'lamb', k, SHAPE), a['mean'], a['var'],
                                 t=k + 1, wd=0.01, clip_gradient=0.8)
    mx.nd.lamb_update_phase2(a['w'], g, _norm(mx, a['w']), _norm(mx, g), lr=0.01,
                             lower_bound=0.01, upper_bound=10.0, out=a['w'])


@scenario('mp_lamb', tol=1e-3, w=_w(np.float16), mean=_zeros(SHAPE), var=_zeros(SHAPE),
          w32=_w32_of_w16())
def _(mx, a, k):
    g = mx.nd.mp_lamb_update_phase1(a['w'], _grad(mx, 'mp_lamb', k, SHAPE, np.float16),
                                    a['mean'], a['var'], a['w32'], t=k + 1, wd=0.01)
    mx.nd.mp_lamb_update_phase2(a['w'], g, _norm(mx, a['w32']), _norm(mx, g), a['w32'],
                                lr=0.01, out=a['w'])


# ------------------------------------------------------------------------------ multi-tensor
@scenario('multi_sgd', w0=_w(), w1=_w(shape=SHAPE2))
def _(mx, a, k):
    mx.nd.multi_sgd_update(a['w0'], _grad(mx, 'multi_sgd', k, SHAPE), a['w1'],
                           _grad(mx, 'multi_sgd', k, SHAPE2, name='h'), lrs=(0.1, 0.05),
                           wds=(0.01, 0.1), rescale_grad=0.5, num_weights=2,
                           out=[a['w0'], a['w1']])


@scenario('multi_sgd_mom', w0=_w(), m0=_zeros(SHAPE), w1=_w(shape=SHAPE2), m1=_zeros(SHAPE2))
def _(mx, a, k):
    mx.nd.multi_sgd_mom_update(a['w0'], _grad(mx, 'multi_sgd_mom', k, SHAPE), a['m0'],
                               a['w1'], _grad(mx, 'multi_sgd_mom', k, SHAPE2, name='h'),
                               a['m1'], lrs=(0.1, 0.05), wds=(0.01, 0.1), momentum=0.9,
                               clip_gradient=0.6, num_weights=2, out=[a['w0'], a['w1']])


@scenario('multi_mp_sgd', tol=1e-3, w0=_w(np.float16), w32_0=_w32_of_w16())
def _(mx, a, k):
    mx.nd.multi_mp_sgd_update(a['w0'], _grad(mx, 'multi_mp_sgd', k, SHAPE, np.float16),
                              a['w32_0'], lrs=(0.1,), wds=(0.01,), out=[a['w0']])


@scenario('multi_mp_sgd_mom', tol=1e-3, w0=_w(np.float16), m0=_zeros(SHAPE),
          w32_0=_w32_of_w16(), w1=_w(np.float16, SHAPE2), m1=_zeros(SHAPE2),
          w32_1=_w32_of_w16(SHAPE2))
def _(mx, a, k):
    mx.nd.multi_mp_sgd_mom_update(
        a['w0'], _grad(mx, 'multi_mp_sgd_mom', k, SHAPE, np.float16), a['m0'], a['w32_0'],
        a['w1'], _grad(mx, 'multi_mp_sgd_mom', k, SHAPE2, np.float16, name='h'), a['m1'],
        a['w32_1'], lrs=(0.1, 0.2), wds=(0.01, 0.0), momentum=0.9, num_weights=2,
        out=[a['w0'], a['w1']])


def _lrs_wds(mx):
    return (mx.nd.array(np.array([0.1, 0.05], np.float32)),
            mx.nd.array(np.array([0.01, 0.1], np.float32)))


@scenario('preloaded_sgd', w0=_w(), w1=_w(shape=SHAPE2))
def _(mx, a, k):
    mx.nd.preloaded_multi_sgd_update(a['w0'], _grad(mx, 'preloaded_sgd', k, SHAPE), a['w1'],
                                     _grad(mx, 'preloaded_sgd', k, SHAPE2, name='h'),
                                     *_lrs_wds(mx), num_weights=2, out=[a['w0'], a['w1']])


@scenario('preloaded_sgd_mom', w0=_w(), m0=_zeros(SHAPE), w1=_w(shape=SHAPE2),
          m1=_zeros(SHAPE2))
def _(mx, a, k):
    mx.nd.preloaded_multi_sgd_mom_update(
        a['w0'], _grad(mx, 'preloaded_sgd_mom', k, SHAPE), a['m0'], a['w1'],
        _grad(mx, 'preloaded_sgd_mom', k, SHAPE2, name='h'), a['m1'], *_lrs_wds(mx),
        momentum=0.9, clip_gradient=0.5, num_weights=2, out=[a['w0'], a['w1']])


@scenario('preloaded_mp_sgd', tol=1e-3, w0=_w(np.float16), w32_0=_w32_of_w16(),
          w1=_w(np.float16, SHAPE2), w32_1=_w32_of_w16(SHAPE2))
def _(mx, a, k):
    mx.nd.preloaded_multi_mp_sgd_update(
        a['w0'], _grad(mx, 'preloaded_mp_sgd', k, SHAPE, np.float16), a['w32_0'], a['w1'],
        _grad(mx, 'preloaded_mp_sgd', k, SHAPE2, np.float16, name='h'), a['w32_1'],
        *_lrs_wds(mx), num_weights=2, out=[a['w0'], a['w1']])


@scenario('preloaded_mp_sgd_mom', tol=1e-3, w0=_w(np.float16), m0=_zeros(SHAPE),
          w32_0=_w32_of_w16())
def _(mx, a, k):
    lrs = mx.nd.array(np.array([0.1], np.float32))
    wds = mx.nd.array(np.array([0.01], np.float32))
    mx.nd.preloaded_multi_mp_sgd_mom_update(
        a['w0'], _grad(mx, 'preloaded_mp_sgd_mom', k, SHAPE, np.float16), a['m0'], a['w32_0'],
        lrs, wds, momentum=0.9, out=[a['w0']])


@scenario('lars', tol=1e-4, w0=_w(), m0=_zeros(SHAPE), g0=_zeros(SHAPE), w1=_w(shape=SHAPE2),
          m1=_zeros(SHAPE2), g1=_zeros(SHAPE2), lr_out=_zeros((2,)))
def _(mx, a, k):
    # gradients accumulate into g0/g1, which are reset after each update (as MXNet's LARS)
    a['g0'] += _grad(mx, 'lars', k, SHAPE)
    a['g1'] += _grad(mx, 'lars', k, SHAPE2, name='h')
    wsq = mx.nd.multi_sum_sq(a['w0'], a['w1'], num_arrays=2)
    gsq = mx.nd.multi_sum_sq(a['g0'], a['g1'], num_arrays=2)
    lrs, wds = _lrs_wds(mx)
    mx.nd.multi_lars(lrs, wsq, gsq, wds, eta=0.01, eps=1e-8, rescale_grad=1.0, out=a['lr_out'])
    mx.nd.preloaded_multi_sgd_mom_update(a['w0'], a['g0'], a['m0'], a['w1'], a['g1'], a['m1'],
                                         a['lr_out'], wds, momentum=0.9, num_weights=2,
                                         out=[a['w0'], a['w1']])
    mx.nd.reset_arrays(a['g0'], a['g1'], num_arrays=2)


# ------------------------------------------------------------------------------ AdamW, LAMB
@scenario('adamw', tol=1e-4, w=_w(), mean=_zeros(SHAPE), var=_zeros(SHAPE))
def _(mx, a, k):
    # a NaN scale on the third step skips that update
    scale = float('nan') if k == 2 else 0.5
    mx.nd.contrib.adamw_update(a['w'], _grad(mx, 'adamw', k, SHAPE), a['mean'], a['var'],
                               rescale_grad=scale, lr=0.01, eta=0.8, wd=0.01,
                               clip_gradient=0.4, out=a['w'])


@scenario('mp_adamw', tol=1e-3, w=_w(np.float16), mean=_zeros(SHAPE), var=_zeros(SHAPE),
          w32=_w32_of_w16())
def _(mx, a, k):
    mx.nd.contrib.mp_adamw_update(a['w'], _grad(mx, 'mp_adamw', k, SHAPE, np.float16),
                                  a['mean'], a['var'], a['w32'], rescale_grad=1.0, lr=0.01,
                                  eta=1.0, wd=0.01, out=a['w'])


@scenario('multi_adamw', tol=1e-4, w0=_w(), m0=_zeros(SHAPE), v0=_zeros(SHAPE),
          w1=_w(shape=SHAPE2), m1=_zeros(SHAPE2), v1=_zeros(SHAPE2))
def _(mx, a, k):
    mx.nd.contrib.multi_adamw_update(
        [a['w0'], a['w1']], [_grad(mx, 'multi_adamw', k, SHAPE),
                             _grad(mx, 'multi_adamw', k, SHAPE2, name='h')],
        [a['m0'], a['m1']], [a['v0'], a['v1']], rescale_grad=0.0 if k == 1 else 1.0,
        lrs=[0.01, 0.02], wds=[0.01, 0.0], etas=[1.0, 0.5], out=[a['w0'], a['w1']])


@scenario('multi_mp_adamw', tol=1e-3, w0=_w(np.float16), m0=_zeros(SHAPE), v0=_zeros(SHAPE),
          w32_0=_w32_of_w16())
def _(mx, a, k):
    mx.nd.contrib.multi_mp_adamw_update(
        [a['w0']], [_grad(mx, 'multi_mp_adamw', k, SHAPE, np.float16)], [a['m0']], [a['v0']],
        [a['w32_0']], rescale_grad=2.0, lrs=[0.01], wds=[0.1], etas=[1.0],
        clip_gradient=0.5, out=[a['w0']])


@scenario('multi_lamb', tol=1e-4, w0=_w(), m0=_zeros(SHAPE), v0=_zeros(SHAPE),
          w1=_w(shape=SHAPE2), m1=_zeros(SHAPE2), v1=_zeros(SHAPE2))
def _(mx, a, k):
    mx.nd.contrib.multi_lamb_update(
        [a['w0'], a['w1']], [_grad(mx, 'multi_lamb', k, SHAPE),
                             _grad(mx, 'multi_lamb', k, SHAPE2, name='h')],
        [a['m0'], a['m1']], [a['v0'], a['v1']], step_count=[k + 1, k + 1], lrs=[0.01, 0.02],
        wds=[0.01, 0.0], out=[a['w0'], a['w1']], clip_gradient=0.5)


@scenario('multi_mp_lamb', tol=1e-3, w0=_w(np.float16), m0=_zeros(SHAPE), v0=_zeros(SHAPE),
          w32_0=_w32_of_w16())
def _(mx, a, k):
    mx.nd.contrib.multi_mp_lamb_update(
        [a['w0']], [_grad(mx, 'multi_mp_lamb', k, SHAPE, np.float16)], [a['m0']], [a['v0']],
        [a['w32_0']], step_count=[k + 1], lrs=[0.01], wds=[0.01], out=[a['w0']],
        lower_bound=0.5, upper_bound=5.0)


def write(mx, outdir):
    arrays = {}
    for sid in SCENARIOS:
        for name, value in run(mx, sid).items():
            arrays['%s/%s' % (sid, name)] = value
    tmp = os.path.join(outdir, 'final_states.tmp.npz')
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, os.path.join(outdir, 'final_states.npz'))
