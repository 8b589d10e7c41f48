"""``mx.optimizer`` optimizers run for several steps, and ``Updater`` state files.

Each scenario creates an optimizer, seeds weights and per-step gradients from its id, and runs
STEPS updates of every weight, either one weight at a time (``create_state_multi_precision`` +
``update_multi_precision``, as Module does) or through ``mx.optimizer.get_updater`` with all
indices in one call (the aggregated path a Gluon Trainer takes). After each step it records
every weight, every state array and every gradient (some optimizers rescale the gradient in
place), and at the end the update counters and learning rate. SGLD adds Gaussian noise, so
only the moments of its updates are recorded; scenarios that fail record the error.

``write`` also stores ``Updater.get_states`` pickles written by real MXNet, with the arrays
needed to check them, and the steps that follow after loading them.
tests/test_optimizer.py replays everything on mxcompat.
"""
import json
import os
import warnings

import numpy as np

from scripts.op_cases import rng

STEPS = 5
SHAPES = [(3, 4), (5,), (2, 3, 2)]
SCENARIOS = {}


def scenario(sid, opt, shapes=SHAPES, dtype='float32', mode='single', tol=1e-5, names=None,
             sched=None, lr_mult=None, wd_mult=None, grad_shift=0.0, **kwargs):
    """Register scenario ``sid``: optimizer ``opt`` with ``kwargs``; ``sched`` is
    (scheduler class name, kwargs); ``names`` the param_idx2name names; ``lr_mult`` /
    ``wd_mult`` dicts given to set_lr_mult / set_wd_mult; ``mode`` 'single' or 'updater';
    gradients are uniform in [-1, 1] plus ``grad_shift``."""
    SCENARIOS[sid] = dict(opt=opt, shapes=shapes, dtype=dtype, mode=mode, tol=tol, names=names,
                          sched=sched, lr_mult=lr_mult, wd_mult=wd_mult, grad_shift=grad_shift,
                          kwargs=kwargs)


def _rand(key, shape, dtype):
    return rng(key).uniform(-1.0, 1.0, size=shape).astype(dtype)


def make_optimizer(mx, sid):
    s = SCENARIOS[sid]
    kwargs = dict(s['kwargs'])
    if s['sched']:
        klass, skw = s['sched']
        kwargs['lr_scheduler'] = getattr(mx.lr_scheduler, klass)(**skw)
    if s['names']:
        kwargs['param_idx2name'] = dict(enumerate(s['names']))
    opt = mx.optimizer.create(s['opt'], **kwargs)
    if s['lr_mult']:
        opt.set_lr_mult(s['lr_mult'])
    if s['wd_mult']:
        opt.set_wd_mult(s['wd_mult'])
    return opt


def _flat_state(prefix, state, out):
    """Store the NDArrays of a (nested) state under prefix, prefix_0, prefix_0_1, ..."""
    if state is None:
        return
    if isinstance(state, (tuple, list)):
        for k, s in enumerate(state):
            _flat_state('%s_%d' % (prefix, k), s, out)
    else:
        out[prefix] = state.asnumpy()


def _error(err):
    return [type(err).__name__, str(err)]


def run(mx, sid):
    """Run scenario ``sid`` with library ``mx``: ({name: numpy array}, {meta})."""
    s = SCENARIOS[sid]
    dtype = s['dtype']
    arrays, meta = {}, {}
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            opt = make_optimizer(mx, sid)
        except Exception as err:  # pylint: disable=broad-except
            return arrays, {'error': _error(err)}
        weights = [mx.nd.array(_rand('%s/w%d' % (sid, i), shape, dtype), dtype=dtype)
                   for i, shape in enumerate(s['shapes'])]
        n = len(weights)
        updater = mx.optimizer.get_updater(opt) if s['mode'] == 'updater' else None
        states = {}
        for step in range(STEPS):
            grads = [mx.nd.array(_rand('%s/g%d/%d' % (sid, step, i), w.shape, dtype)
                                 + s['grad_shift'], dtype=dtype) for i, w in enumerate(weights)]
            before = [w.asnumpy() for w in weights]
            try:
                if updater is not None:
                    updater(list(range(n)), grads, weights)
                    states = updater.states
                else:
                    for i in range(n):
                        if i not in states:
                            states[i] = opt.create_state_multi_precision(i, weights[i])
                        opt.update_multi_precision(i, weights[i], grads[i], states[i])
            except Exception as err:  # pylint: disable=broad-except
                meta['error'] = _error(err)
                meta['error_step'] = step
                break
            for i in range(n):
                if s['opt'] == 'sgld':  # noise: moments only
                    delta = weights[i].asnumpy().astype(np.float64) - before[i]
                    arrays['%d/w%d/delta_moments' % (step, i)] = \
                        np.array([delta.mean(), delta.std()])
                    continue
                arrays['%d/w%d' % (step, i)] = weights[i].asnumpy()
                arrays['%d/g%d' % (step, i)] = grads[i].asnumpy()
                _flat_state('%d/s%d' % (step, i), states[i], arrays)
        meta['num_update'] = opt.num_update
        meta['counts'] = sorted(opt._index_update_count.items())
        meta['learning_rate'] = float(opt.learning_rate)
    return arrays, meta


# ------------------------------------------------------------------------------ scenarios
NAMES = ['fc_weight', 'fc_bias', 'bn_gamma']
F16 = dict(dtype='float16', tol=2e-3)
MP = dict(F16, multi_precision=True)
FACTOR = ('FactorScheduler', {'step': 2, 'factor': 0.5, 'base_lr': 0.1})
MULTI = ('MultiFactorScheduler', {'step': [2, 4], 'factor': 0.3, 'base_lr': 0.05})

scenario('sgd', 'sgd', learning_rate=0.1)
scenario('sgd-mom', 'sgd', learning_rate=0.1, momentum=0.9)
scenario('sgd-mom-wd', 'sgd', learning_rate=0.1, momentum=0.9, wd=0.01)
scenario('sgd-clip-rescale', 'sgd', learning_rate=0.2, momentum=0.5, clip_gradient=0.3,
         rescale_grad=2.0, wd=0.1)
scenario('sgd-sched', 'sgd', sched=FACTOR, momentum=0.9)
scenario('sgd-sched-lr', 'sgd', sched=MULTI, learning_rate=0.2, wd=0.05)
scenario('sgd-names', 'sgd', names=NAMES, learning_rate=0.1, wd=0.1, momentum=0.9)
scenario('sgd-mults', 'sgd', names=NAMES, lr_mult={'fc_weight': 0.5, 2: 3.0},
         wd_mult={'fc_bias': 2.0, 0: 0.1}, learning_rate=0.1, wd=0.1)
scenario('sgd-begin', 'sgd', sched=FACTOR, begin_num_update=3, momentum=0.9)
scenario('sgd-updater', 'sgd', mode='updater', shapes=SHAPES + [(4,), (2, 2), (3,)],
         learning_rate=0.1, momentum=0.9, wd=0.01, names=NAMES + ['a_weight', 'b_bias', 'c'])
scenario('sgd-updater-nomom', 'sgd', mode='updater', shapes=SHAPES + [(4,), (2, 2)],
         learning_rate=0.1, wd=0.01, clip_gradient=0.5)
scenario('sgd-mp', 'sgd', learning_rate=0.1, momentum=0.9, wd=0.01, **MP)
scenario('sgd-mp-nomom', 'sgd', learning_rate=0.1, wd=0.01, **MP)
scenario('sgd-mp-updater', 'sgd', mode='updater', learning_rate=0.1, momentum=0.9, **MP)
scenario('sgd-f16', 'sgd', learning_rate=0.1, momentum=0.9, **F16)
scenario('ccsgd', 'ccsgd', learning_rate=0.1, momentum=0.8, wd=0.01)
scenario('nag', 'nag', learning_rate=0.1, momentum=0.9)
scenario('nag-wd-clip', 'nag', learning_rate=0.1, momentum=0.9, wd=0.1, clip_gradient=0.5,
         rescale_grad=1.5)
scenario('nag-nomom', 'nag', learning_rate=0.1, wd=0.1)
scenario('nag-mp', 'nag', learning_rate=0.1, momentum=0.9, wd=0.01, **MP)
scenario('nag-mp-nomom', 'nag', learning_rate=0.1, **MP)
scenario('signum', 'signum')
scenario('signum-wd', 'signum', learning_rate=0.05, momentum=0.8, wd=0.1, wd_lh=0.01,
         clip_gradient=0.5, rescale_grad=2.0)
scenario('signsgd', 'signum', momentum=0.0, wd=0.1)
scenario('signum-sched', 'signum', sched=FACTOR)
scenario('ftml', 'ftml', learning_rate=0.1)
scenario('ftml-wd-clip', 'ftml', learning_rate=0.1, beta1=0.5, beta2=0.99, epsilon=1e-6,
         wd=0.1, clip_gradient=0.4, rescale_grad=2.0)
scenario('ftml-mp', 'ftml', learning_rate=0.1, **MP)
scenario('lars', 'lars', learning_rate=0.1, momentum=0.9, names=NAMES)
scenario('lars-eta', 'lars', learning_rate=0.1, momentum=0.9, eta=0.01, eps=1e-3, wd=0.01,
         clip_gradient=0.5, rescale_grad=0.5, names=NAMES)
scenario('lars-nomom', 'lars', learning_rate=0.1, wd=0.01)
scenario('lars-sched', 'lars', sched=FACTOR, momentum=0.9, names=NAMES)
scenario('lars-updater', 'lars', mode='updater', shapes=SHAPES + [(4,), (2, 2), (3,)],
         learning_rate=0.1, momentum=0.9, wd=0.01, names=NAMES + ['a_weight', 'b_bias', 'c'])
scenario('lars-mp', 'lars', learning_rate=0.1, momentum=0.9, names=NAMES, **MP)
scenario('lars-mp-nomom', 'lars', mode='updater', learning_rate=0.1, names=NAMES, **MP)
scenario('lbsgd', 'lbsgd', learning_rate=0.1)
scenario('lbsgd-mom', 'lbsgd', learning_rate=0.1, momentum=0.9, wd=0.01, warmup_epochs=1,
         updates_per_epoch=4, batch_scale=3)
scenario('lbsgd-power2', 'lbsgd', learning_rate=0.1, warmup_strategy='power2', warmup_epochs=1,
         updates_per_epoch=8, batch_scale=4, clip_gradient=0.5)
scenario('lbsgd-sqrt', 'lbsgd', learning_rate=0.1, warmup_strategy='sqrt', warmup_epochs=1,
         updates_per_epoch=8, batch_scale=1)
scenario('lbsgd-accum', 'lbsgd', learning_rate=0.1, momentum=0.9, batch_scale=2,
         warmup_epochs=0)
scenario('lbsgd-lars', 'lbsgd', learning_rate=0.1, warmup_strategy='lars', wd=0.01)
scenario('lbsgd-mp', 'lbsgd', learning_rate=0.1, momentum=0.9, **MP)
scenario('dcasgd', 'dcasgd', learning_rate=0.1)
scenario('dcasgd-wd-clip', 'dcasgd', learning_rate=0.1, lamda=0.5, wd=0.1, clip_gradient=0.5,
         rescale_grad=2.0)
scenario('dcasgd-mom', 'dcasgd', learning_rate=0.1, momentum=0.9)
scenario('dcasgd-mom-scalar', 'dcasgd', shapes=[(1,)], learning_rate=0.1, momentum=0.9)
# the shift makes the drift -lr/2 * (grad + wd * weight) large next to the noise's mean
scenario('sgld', 'sgld', shapes=[(200, 300)], learning_rate=0.01, wd=0.1, grad_shift=5.0)
scenario('sgld-clip', 'sgld', shapes=[(200, 300)], learning_rate=0.01, wd=0.5, grad_shift=-3.0,
         clip_gradient=0.5, rescale_grad=0.5)
scenario('adam', 'adam')
scenario('adam-wd-clip', 'adam', learning_rate=0.01, beta1=0.8, beta2=0.99, epsilon=1e-6,
         wd=0.1, clip_gradient=0.3, rescale_grad=2.0)
scenario('adam-sched', 'adam', sched=FACTOR)
scenario('adam-mp', 'adam', learning_rate=0.01, wd=0.01, **MP)
scenario('adam-f16', 'adam', learning_rate=0.01, **F16)
scenario('adam-updater', 'adam', mode='updater', learning_rate=0.01, names=NAMES, wd=0.1)
scenario('adagrad', 'adagrad', learning_rate=0.1)
scenario('adagrad-wd-clip', 'adagrad', learning_rate=0.1, eps=1e-5, wd=0.1, clip_gradient=0.5,
         rescale_grad=2.0)
scenario('adagrad-mp', 'adagrad', learning_rate=0.1, **MP)
scenario('adagrad-f16', 'adagrad', learning_rate=0.1, **F16)
scenario('rmsprop', 'rmsprop')
scenario('rmsprop-centered', 'rmsprop', learning_rate=0.01, centered=True)
scenario('rmsprop-clip', 'rmsprop', learning_rate=0.01, gamma1=0.8, gamma2=0.7, epsilon=1e-6,
         centered=True, clip_weights=0.5, clip_gradient=0.4, wd=0.1, rescale_grad=2.0)
scenario('rmsprop-clipw', 'rmsprop', learning_rate=0.1, clip_weights=0.3)
scenario('rmsprop-mp', 'rmsprop', learning_rate=0.01, **MP)
scenario('adadelta', 'adadelta')
scenario('adadelta-wd-clip', 'adadelta', rho=0.8, epsilon=1e-4, wd=0.1, clip_gradient=0.3,
         rescale_grad=2.0)
scenario('adadelta-mp', 'adadelta', **MP)
scenario('adadelta-f16', 'adadelta', **F16)
scenario('ftrl', 'ftrl')
scenario('ftrl-wd-clip', 'ftrl', learning_rate=0.05, lamda1=0.1, beta=0.5, wd=0.1,
         clip_gradient=0.5, rescale_grad=2.0)
scenario('ftrl-sched', 'ftrl', sched=FACTOR)
scenario('adamax', 'adamax')
scenario('adamax-wd-clip', 'adamax', learning_rate=0.01, beta1=0.8, beta2=0.9, wd=0.1,
         clip_gradient=0.5, rescale_grad=2.0)
scenario('adamax-mp', 'adamax', **MP)
scenario('nadam', 'nadam')
scenario('nadam-wd-clip', 'nadam', learning_rate=0.01, beta1=0.8, beta2=0.99, epsilon=1e-6,
         schedule_decay=0.01, wd=0.1, clip_gradient=0.5, rescale_grad=2.0)
scenario('nadam-mp', 'nadam', **MP)
scenario('lamb', 'lamb')
scenario('lamb-bounds', 'lamb', learning_rate=0.01, beta1=0.8, beta2=0.99, epsilon=1e-5,
         lower_bound=0.1, upper_bound=2.0, wd=0.1, clip_gradient=0.5, rescale_grad=2.0)
scenario('lamb-nobias', 'lamb', learning_rate=0.01, bias_correction=False, wd=0.01)
scenario('lamb-updater', 'lamb', mode='updater', learning_rate=0.01, wd=0.01, names=NAMES)
scenario('lamb-updater-bounds', 'lamb', mode='updater', learning_rate=0.01, lower_bound=0.5,
         upper_bound=1.5, clip_gradient=0.5, bias_correction=False)
scenario('lamb-mp', 'lamb', learning_rate=0.01, wd=0.01, **MP)
scenario('lamb-mp-updater', 'lamb', mode='updater', learning_rate=0.01, **MP)
scenario('test', 'test', rescale_grad=0.5)
scenario('groupadagrad', 'groupadagrad', shapes=[(3, 4), (5, 2)], learning_rate=0.1)
scenario('groupadagrad-clip', 'groupadagrad', shapes=[(3, 4), (5, 2)], learning_rate=0.1,
         eps=1e-3, clip_gradient=0.5, rescale_grad=2.0)
scenario('groupadagrad-wd', 'groupadagrad', shapes=[(3, 4)], wd=0.1)
scenario('err-unknown', 'nosuchopt')
scenario('sgd-sched-overridden', 'sgd', sched=FACTOR, learning_rate=0.3)


# ------------------------------------------------------------------------------ state files
STATE_CASES = {
    'sgd-mom-sched': dict(opt='sgd', kwargs=dict(momentum=0.9, wd=0.01), sched=FACTOR,
                          names=NAMES),
    'adam': dict(opt='adam', kwargs=dict(learning_rate=0.01)),
    'lamb-mp': dict(opt='lamb', kwargs=dict(learning_rate=0.01, multi_precision=True),
                    dtype='float16'),
    'rmsprop-centered': dict(opt='rmsprop', kwargs=dict(centered=True)),
    'dcasgd': dict(opt='dcasgd', kwargs=dict(learning_rate=0.1)),
    'nadam': dict(opt='nadam', kwargs={}),
}
STATE_STEPS = (2, 3)  # steps before get_states, steps after set_states


def state_run(mx, cid, blob=None, dump_optimizer=True):
    """Run STATE_STEPS[0] updater steps and return the get_states bytes, or (with ``blob``)
    load it into a fresh updater and run STATE_STEPS[1] more: returns the weights then."""
    c = STATE_CASES[cid]
    dtype = c.get('dtype', 'float32')
    kwargs = dict(c['kwargs'])
    if c.get('sched'):
        kwargs['lr_scheduler'] = getattr(mx.lr_scheduler, c['sched'][0])(**c['sched'][1])
    if c.get('names'):
        kwargs['param_idx2name'] = dict(enumerate(c['names']))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        updater = mx.optimizer.get_updater(mx.optimizer.create(c['opt'], **kwargs))
        weights = [mx.nd.array(_rand('state-%s/w%d' % (cid, i), s, dtype), dtype=dtype)
                   for i, s in enumerate(SHAPES)]
        if blob is None:
            steps = range(STATE_STEPS[0])
        else:
            weights = [mx.nd.array(_rand('state-%s/after/w%d' % (cid, i), s, dtype), dtype=dtype)
                       for i, s in enumerate(SHAPES)]
            updater.set_states(blob)
            steps = range(STATE_STEPS[0], sum(STATE_STEPS))
        for step in steps:
            grads = [mx.nd.array(_rand('state-%s/g%d/%d' % (cid, step, i), w.shape, dtype),
                                 dtype=dtype) for i, w in enumerate(weights)]
            updater(list(range(len(weights))), grads, weights)
    if blob is None:
        return updater.get_states(dump_optimizer=dump_optimizer), updater
    return [w.asnumpy() for w in weights], updater


def write(mx, outdir):
    arrays, meta = {}, {}
    for sid in SCENARIOS:
        a, m = run(mx, sid)
        arrays.update({'%s/%s' % (sid, k): v for k, v in a.items()})
        meta[sid] = m
    tmp = os.path.join(outdir, 'steps.tmp.npz')
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, os.path.join(outdir, 'steps.npz'))
    state_arrays, state_meta = {}, {}
    for cid in STATE_CASES:
        for dump in (True, False):
            blob, updater = state_run(mx, cid, dump_optimizer=dump)
            name = '%s-%s.states' % (cid, 'opt' if dump else 'plain')
            with open(os.path.join(outdir, name + '.tmp'), 'wb') as f:
                f.write(blob)
            os.replace(os.path.join(outdir, name + '.tmp'), os.path.join(outdir, name))
        for idx, state in updater.states.items():
            _flat_state('%s/s%d' % (cid, idx), state, state_arrays)
        opt = updater.optimizer
        state_meta[cid] = {'class': type(opt).__name__, 'num_update': opt.num_update,
                           'counts': sorted(opt._index_update_count.items()),
                           'lr': opt.lr, 'learning_rate': float(opt.learning_rate)}
        with open(os.path.join(outdir, cid + '-opt.states'), 'rb') as f:
            blob = f.read()
        after, _ = state_run(mx, cid, blob=blob)
        for i, w in enumerate(after):
            state_arrays['%s/after/w%d' % (cid, i)] = w
        with mx.cpu(1):  # weights on device 1: the optimizer counts its updates afresh there
            after, _ = state_run(mx, cid, blob=blob)
        for i, w in enumerate(after):
            state_arrays['%s/after/dev1/w%d' % (cid, i)] = w
    tmp = os.path.join(outdir, 'states.tmp.npz')
    np.savez_compressed(tmp, **state_arrays)
    os.replace(tmp, os.path.join(outdir, 'states.npz'))
    tmp = os.path.join(outdir, 'meta.json.tmp')
    with open(tmp, 'w') as f:
        json.dump({'steps': meta, 'states': state_meta}, f, indent=1, sort_keys=True)
    os.replace(tmp, os.path.join(outdir, 'meta.json'))
