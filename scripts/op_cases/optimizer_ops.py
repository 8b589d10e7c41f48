"""Cases for mxcompat/ops/optimizer_ops.py: one update each, comparing the returned weights.

The in-place updates of the state arrays over several steps are compared by
tests/test_optimizer_ops.py (fixtures written by scripts/fixture_writers/optimizer_ops.py).
"""
import numpy as np

from . import case, rng

F16 = dict(rtol=1e-3, atol=1e-3)


def arr(cid, *shape, lo=-1, hi=1, dtype=np.float32):
    return rng(cid).uniform(lo, hi, size=shape).astype(dtype)


def wg(cid, shape=(3, 4), dtype=np.float32):
    """weight, grad."""
    return arr(cid + '/w', *shape, dtype=dtype), arr(cid + '/g', *shape, dtype=dtype)


def state(cid, shape=(3, 4), lo=-1, hi=1, dtype=np.float32):
    return arr(cid, *shape, lo=lo, hi=hi, dtype=dtype)


def mp(cid, shape=(3, 4)):
    """float16 weight and grad with the float32 master copy of the weight."""
    w, g = wg(cid, shape, np.float16)
    return w, g, w.astype(np.float32)


def outs(*shapes, dtype=np.float32):
    """out= arrays (MXNet's multi-tensor operators need them)."""
    return [np.zeros(s, dtype) for s in shapes]


CLIP = {'rescale_grad': 2.0, 'clip_gradient': 0.5}
_w, _g = wg('sgd')
_w64, _g64 = wg('sgd64', dtype=np.float64)
_w16, _g16 = wg('sgd16', dtype=np.float16)
_mpw, _mpg, _mpw32 = mp('mp')

CASES = [
    # SGD family
    case('sgd', 'sgd_update', kwargs={'weight': _w, 'grad': _g, 'lr': 0.1}),
    case('sgd-wd-clip', 'sgd_update', [_w, _g], dict(CLIP, lr=0.2, wd=0.05)),
    case('sgd-lazy-off', 'sgd_update', [_w, _g], {'lr': 0.1, 'wd': 0.1, 'rescale_grad': 0.5,
                                                  'lazy_update': False}),
    case('sgd-f64', 'sgd_update', [_w64, _g64], {'lr': 0.3, 'wd': 0.01}),
    case('sgd-f16', 'sgd_update', [_w16, _g16], {'lr': 0.3, 'wd': 0.01}, **F16),
    case('sgd-sparse-alias', 'sparse.sgd_update', [_w, _g], {'lr': 0.1, 'wd': 0.1}),
    case('sgd-mom', 'sgd_mom_update', [_w, _g, state('sgdm-m')],
         {'lr': 0.1, 'momentum': 0.9, 'wd': 0.01}),
    case('sgd-mom-clip', 'sgd_mom_update', [_w, _g, state('sgdm-m2')],
         dict(CLIP, lr=0.1, momentum=0.5, wd=0.02)),
    case('sgd-mom-sparse-alias', 'sparse.sgd_mom_update', [_w, _g, state('sgdm-m3')],
         {'lr': 0.05, 'momentum': 0.9}),
    case('sgd-mom-f16', 'sgd_mom_update', [_w16, _g16, state('sgdm-m4', dtype=np.float16)],
         {'lr': 0.1, 'momentum': 0.9, 'wd': 0.01}, **F16),
    case('mp-sgd', 'mp_sgd_update', [_mpw, _mpg, _mpw32], {'lr': 0.1, 'wd': 0.01}, **F16),
    case('mp-sgd-clip', 'mp_sgd_update', [_mpw, _mpg, _mpw32], dict(CLIP, lr=0.1), **F16),
    case('mp-sgd-f32', 'mp_sgd_update', [_w, _g, _w.copy()], {'lr': 0.1, 'wd': 0.01}),
    case('mp-sgd-mom', 'mp_sgd_mom_update', [_mpw, _mpg, state('mpm'), _mpw32],
         {'lr': 0.1, 'momentum': 0.9, 'wd': 0.01}, **F16),
    case('mp-sgd-mom-clip', 'mp_sgd_mom_update', [_mpw, _mpg, state('mpm2'), _mpw32],
         dict(CLIP, lr=0.1, momentum=0.9)),
    case('nag', 'nag_mom_update', [_w, _g, state('nag-m')],
         {'lr': 0.1, 'momentum': 0.9, 'wd': 0.01}),
    case('nag-clip', 'nag_mom_update', [_w, _g, state('nag-m2')],
         dict(CLIP, lr=0.1, momentum=0.7, wd=0.1)),
    case('mp-nag', 'mp_nag_mom_update', [_mpw, _mpg, state('mpnag'), _mpw32],
         {'lr': 0.1, 'momentum': 0.9, 'wd': 0.1}, **F16),
    case('mp-nag-clip', 'mp_nag_mom_update', [_w, _g, state('mpnag2'), _w.copy()],
         dict(CLIP, lr=0.1, momentum=0.9, wd=0.1)),
    # adaptive methods
    case('ftml', 'ftml_update', [_w, _g, state('ftml-d', lo=0.1, hi=1), state('ftml-v', lo=0,
                                                                              hi=1),
                                 state('ftml-z')], {'lr': 0.1, 't': 3}, rtol=1e-4, atol=1e-5),
    case('ftml-clip', 'ftml_update', [_w, _g, state('ftml-d2', lo=0.1, hi=1),
                                      state('ftml-v2', lo=0, hi=1), state('ftml-z2')],
         {'lr': 0.05, 't': 1, 'beta1': 0.5, 'beta2': 0.9, 'epsilon': 1e-6, 'wd': 0.1,
          'rescale_grad': 2.0, 'clip_grad': 0.5}, rtol=1e-4, atol=1e-5),
    case('adam', 'adam_update', [_w, _g, state('adam-m'), state('adam-v', lo=0, hi=1)],
         {'lr': 0.01}, rtol=1e-4, atol=1e-6),
    case('adam-all', 'adam_update', [_w, _g, state('adam-m2'), state('adam-v2', lo=0, hi=1)],
         dict(CLIP, lr=0.01, beta1=0.8, beta2=0.99, epsilon=1e-6, wd=0.1), rtol=1e-4,
         atol=1e-6),
    case('adam-sparse-alias', 'sparse.adam_update',
         [_w, _g, state('adam-m3'), state('adam-v3', lo=0, hi=1)], {'lr': 0.01, 'wd': 0.1},
         rtol=1e-4, atol=1e-6),
    case('adam-f64', 'adam_update', [_w64, _g64, state('adam-m4', dtype=np.float64),
                                     state('adam-v4', lo=0, hi=1, dtype=np.float64)],
         {'lr': 0.01}, rtol=1e-6),
    case('rmsprop', 'rmsprop_update', [_w, _g, state('rms-n', lo=0, hi=1)], {'lr': 0.01},
         rtol=1e-4, atol=1e-6),
    case('rmsprop-all', 'rmsprop_update', [_w, _g, state('rms-n2', lo=0, hi=1)],
         dict(CLIP, lr=0.5, gamma1=0.9, epsilon=1e-6, wd=0.1, clip_weights=0.6), rtol=1e-4,
         atol=1e-6),
    case('rmspropalex', 'rmspropalex_update',
         [_w, _g, state('rmsa-n', lo=1, hi=2), state('rmsa-g', lo=-0.5, hi=0.5),
          state('rmsa-d')], {'lr': 0.01}, rtol=1e-4, atol=1e-6),
    case('rmspropalex-all', 'rmspropalex_update',
         [_w, _g, state('rmsa-n2', lo=1, hi=2), state('rmsa-g2', lo=-0.5, hi=0.5),
          state('rmsa-d2')],
         dict(CLIP, lr=0.1, gamma1=0.9, gamma2=0.8, epsilon=1e-6, wd=0.1, clip_weights=0.9),
         rtol=1e-4, atol=1e-6),
    case('ftrl', 'ftrl_update', [_w, _g, state('ftrl-z'), state('ftrl-n', lo=0, hi=1)],
         {'lr': 0.1}, rtol=1e-4, atol=1e-6),
    case('ftrl-all', 'ftrl_update', [_w, _g, state('ftrl-z2'), state('ftrl-n2', lo=0, hi=1)],
         dict(CLIP, lr=0.1, lamda1=0.3, beta=0.5, wd=0.1), rtol=1e-4, atol=1e-6),
    case('ftrl-sparse-alias', 'sparse.ftrl_update',
         [_w, _g, state('ftrl-z3'), state('ftrl-n3', lo=0, hi=1)], {'lr': 0.2, 'lamda1': 0.1},
         rtol=1e-4, atol=1e-6),
    case('signsgd', 'signsgd_update', [_w, _g], {'lr': 0.1, 'wd': 0.1}),
    case('signsgd-zero-grad', 'signsgd_update', [_w, np.zeros_like(_g)], {'lr': 0.1}),
    case('signum', 'signum_update', [_w, _g, state('signum-m')],
         {'lr': 0.1, 'momentum': 0.9, 'wd': 0.01}),
    case('signum-all', 'signum_update', [_w, _g, state('signum-m2')],
         dict(CLIP, lr=0.1, momentum=0.5, wd=0.1, wd_lh=0.2)),
    # LAMB
    case('lamb1', 'lamb_update_phase1', [_w, _g, state('lamb-m'), state('lamb-v', lo=0, hi=1)],
         {'t': 2, 'wd': 0.01}, rtol=1e-4, atol=1e-6),
    case('lamb1-nobias-clip', 'lamb_update_phase1',
         [_w, _g, state('lamb-m2'), state('lamb-v2', lo=0, hi=1)],
         dict(CLIP, t=1, wd=0.1, bias_correction=False, beta1=0.8, beta2=0.9, epsilon=1e-5),
         rtol=1e-4, atol=1e-6),
    case('lamb2', 'lamb_update_phase2', [_w, _g, np.array([2.0], np.float32),
                                         np.array([0.5], np.float32)], {'lr': 0.1}),
    case('lamb2-bounds', 'lamb_update_phase2', [_w, _g, np.array([2.0], np.float32),
                                                np.array([0.5], np.float32)],
         {'lr': 0.1, 'lower_bound': 0.1, 'upper_bound': 1.0}),
    case('lamb2-zero-r2', 'lamb_update_phase2', [_w, _g, np.array([2.0], np.float32),
                                                 np.array([0.0], np.float32)], {'lr': 0.1}),
    case('mp-lamb1', 'mp_lamb_update_phase1',
         [_mpw, _mpg, state('mplamb-m'), state('mplamb-v', lo=0, hi=1), _mpw32],
         {'t': 3, 'wd': 0.01}, rtol=1e-4, atol=1e-5),
    case('mp-lamb2', 'mp_lamb_update_phase2',
         [_mpw, _g, np.array([1.5], np.float32), np.array([3.0], np.float32), _mpw32],
         {'lr': 0.1, 'upper_bound': 1.0}, **F16),
    case('mp-lamb1-f32-weight', 'mp_lamb_update_phase1',
         [_w, _g, state('mplamb-m3'), state('mplamb-v3', lo=0, hi=1), _w.copy()],
         {'t': 3, 'wd': 0.01}, check='error'),
    # multi-tensor SGD
    case('multi-sgd', 'multi_sgd_update',
         [*wg('ms0'), *wg('ms1', (2, 5))], {'lrs': (0.1, 0.2), 'wds': (0.01, 0.0),
                                             'num_weights': 2, 'out': outs((3, 4), (2, 5))}),
    case('multi-sgd-clip-single', 'multi_sgd_update', [*wg('ms2')],
         dict(CLIP, lrs=(0.1,), wds=(0.1,), out=outs((3, 4)))),
    case('multi-sgd-mom', 'multi_sgd_mom_update',
         [*wg('msm0'), state('msm0-m'), *wg('msm1', (5,)), state('msm1-m', (5,))],
         dict(CLIP, lrs=(0.1, 0.2), wds=(0.01, 0.02), momentum=0.9, num_weights=2,
              out=outs((3, 4), (5,)))),
    case('multi-mp-sgd', 'multi_mp_sgd_update',
         [*mp('mms0'), *mp('mms1', (4,))],
         {'lrs': (0.1, 0.2), 'wds': (0.01, 0.0), 'num_weights': 2,
          'out': outs((3, 4), (4,), dtype=np.float16)}, **F16),
    case('multi-mp-sgd-mom', 'multi_mp_sgd_mom_update',
         [_mpw, _mpg, state('mmsm-m'), _mpw32],
         dict(CLIP, lrs=(0.1,), wds=(0.01,), momentum=0.9,
              out=outs((3, 4), dtype=np.float16)), **F16),
    case('preloaded-sgd', 'preloaded_multi_sgd_update',
         [*wg('ps0'), *wg('ps1', (3,)), np.array([0.1, 0.2], np.float32),
          np.array([0.0, 0.1], np.float32)], dict(CLIP, num_weights=2, out=outs((3, 4), (3,)))),
    case('preloaded-sgd-mom', 'preloaded_multi_sgd_mom_update',
         [*wg('psm0'), state('psm0-m'), np.array([0.1], np.float32),
          np.array([0.01], np.float32)], {'momentum': 0.9, 'out': outs((3, 4))}),
    case('preloaded-mp-sgd', 'preloaded_multi_mp_sgd_update',
         [*mp('pms0'), *mp('pms1', (2, 2)), np.array([0.1, 0.2], np.float32),
          np.array([0.0, 0.1], np.float32)],
         {'num_weights': 2, 'out': outs((3, 4), (2, 2), dtype=np.float16)}, **F16),
    case('preloaded-mp-sgd-mom', 'preloaded_multi_mp_sgd_mom_update',
         [_mpw, _mpg, state('pmsm-m'), _mpw32, np.array([0.1], np.float32),
          np.array([0.01], np.float32)],
         dict(CLIP, momentum=0.9, out=outs((3, 4), dtype=np.float16)), **F16),
    case('multi-sgd-bad-count', 'multi_sgd_update', [*wg('msb')],
         {'lrs': (0.1, 0.2), 'wds': (0.0, 0.0), 'num_weights': 2}, check='error'),
    # norms, LARS, reset
    case('multi-sum-sq', 'multi_sum_sq', [arr('mss0', 3, 4), arr('mss1', 7)],
         {'num_arrays': 2}, rtol=1e-5),
    case('multi-sum-sq-f16', 'multi_sum_sq', [arr('mss2', 10, dtype=np.float16)],
         {'num_arrays': 1}, rtol=1e-3),
    case('multi-lars', 'multi_lars',
         [np.array([0.1, 0.2, 0.3, 0.4], np.float32), np.array([4.0, 0.0, 2.0, 1.0], np.float32),
          np.array([1.0, 1.0, 0.0, 9.0], np.float32), np.array([0.01, 0.0, 0.1, 0.2],
                                                               np.float32)],
         {'eta': 0.001, 'eps': 1e-8, 'rescale_grad': 0.5}),
    case('reset-arrays', 'reset_arrays', [arr('ra0', 2, 3), arr('ra1', 4)], {'num_arrays': 2}),
    # AdamW
    case('adamw', '_internal._adamw_update',
         [_w, _g, state('aw-m'), state('aw-v', lo=0, hi=1), np.array([1.0], np.float32)],
         {'lr': 0.01, 'eta': 0.5, 'wd': 0.1}, rtol=1e-4, atol=1e-6),
    case('adamw-contrib', 'contrib.adamw_update',
         [_w, _g, state('aw-m2'), state('aw-v2', lo=0, hi=1), 0.5],
         {'lr': 0.01, 'eta': 1.0, 'beta1': 0.8, 'beta2': 0.9, 'epsilon': 1e-6,
          'clip_gradient': 0.3}, rtol=1e-4, atol=1e-6),
    case('mp-adamw', '_internal._mp_adamw_update',
         [_mpw, _mpg, state('maw-m'), state('maw-v', lo=0, hi=1), _mpw32,
          np.array([2.0], np.float32)], {'lr': 0.01, 'eta': 1.0, 'wd': 0.01}, **F16),
    case('mp-adamw-contrib', 'contrib.mp_adamw_update',
         [_w, _g, state('maw-m2'), state('maw-v2', lo=0, hi=1), _w.copy(), 1.0],
         {'lr': 0.01, 'eta': 0.7}, rtol=1e-4, atol=1e-6),
    case('multi-adamw', '_internal._multi_adamw_update',
         [*wg('maw0'), state('maw0-m'), state('maw0-v', lo=0, hi=1),
          *wg('maw1', (5,)), state('maw1-m', (5,)), state('maw1-v', (5,), lo=0, hi=1),
          np.array([1.0], np.float32)],
         {'lrs': (0.01, 0.02), 'wds': (0.1, 0.0), 'etas': (1.0, 0.5), 'num_weights': 2,
          'clip_gradient': 0.5, 'out': outs((3, 4), (5,))}, rtol=1e-4, atol=1e-6),
    case('multi-mp-adamw', '_internal._multi_mp_adamw_update',
         [_mpw, _mpg, state('mmaw-m'), state('mmaw-v', lo=0, hi=1), _mpw32,
          np.array([0.5], np.float32)],
         {'lrs': (0.01,), 'wds': (0.1,), 'etas': (1.0,),
          'out': outs((3, 4), dtype=np.float16)}, **F16),
    case('multi-adamw-contrib', 'contrib.multi_adamw_update',
         [[_w, _w[:2]], [_g, _g[:2]], [state('mawc-m'), state('mawc-m2', (2, 4))],
          [state('mawc-v', lo=0, hi=1), state('mawc-v2', (2, 4), lo=0, hi=1)], 0.5],
         {'lrs': [0.01, 0.02], 'wds': [0.0, 0.1], 'etas': [1.0, 0.9], 'beta1': 0.8,
          'out': outs((3, 4), (2, 4))}, rtol=1e-4, atol=1e-6),
    case('multi-mp-adamw-contrib', 'contrib.multi_mp_adamw_update',
         [[_mpw], [_mpg], [state('mmawc-m')], [state('mmawc-v', lo=0, hi=1)], [_mpw32], 2.0],
         {'lrs': [0.01], 'wds': [0.01], 'etas': [1.0], 'clip_gradient': 0.5,
          'out': outs((3, 4), dtype=np.float16)}, **F16),
    case('adamw-skip-nan', '_internal._adamw_update',
         [_w, _g, state('aw-m3'), state('aw-v3', lo=0, hi=1), np.array([np.nan], np.float32)],
         {'lr': 0.01, 'eta': 1.0}, record=False, check='shape'),
    # multi LAMB
    case('multi-lamb', '_internal._multi_lamb_update',
         [*wg('mlb0'), state('mlb0-m'), state('mlb0-v', lo=0, hi=1),
          *wg('mlb1', (6,)), state('mlb1-m', (6,)), state('mlb1-v', (6,), lo=0, hi=1)],
         {'learning_rates': (0.01, 0.02), 'wds': (0.01, 0.1), 'step_count': (1, 3),
          'num_tensors': 2, 'out': outs((3, 4), (6,))}, rtol=1e-4, atol=1e-6),
    case('multi-lamb-contrib', 'contrib.multi_lamb_update',
         [[_w], [_g], [state('mlb2-m')], [state('mlb2-v', lo=0, hi=1)]],
         {'step_count': [2], 'lrs': [0.05], 'wds': [0.01], 'bias_correction': False,
          'lower_bound': 0.1, 'upper_bound': 2.0, 'rescale_grad': 2.0, 'clip_gradient': 0.5,
          'out': outs((3, 4))},
         rtol=1e-4, atol=1e-6),
    case('multi-mp-lamb', '_internal._multi_mp_lamb_update',
         [_mpw, _mpg, state('mmlb-m'), state('mmlb-v', lo=0, hi=1), _mpw32],
         {'learning_rates': (0.01,), 'wds': (0.01,), 'step_count': (4,),
          'out': outs((3, 4), dtype=np.float16)}, **F16),
    case('multi-mp-lamb-contrib', 'contrib.multi_mp_lamb_update',
         [[_mpw], [_mpg], [state('mmlb2-m')], [state('mmlb2-v', lo=0, hi=1)], [_mpw32]],
         {'step_count': [1], 'lrs': [0.05], 'wds': [0.0], 'out': outs((3, 4), dtype=np.float16)},
         **F16),
    # AdaGrad (sparse-only in MXNet: dense calls fail; values are in test_optimizer_ops.py)
    case('group-adagrad-bad-history', 'contrib.group_adagrad_update',
         [_w, _g, np.zeros((5, 1), np.float32)], {'lr': 0.1}, check='error'),
    case('sparse-adagrad-dense', 'sparse.adagrad_update',
         [_w, _g, np.zeros_like(_w)], {'lr': 0.1}, check='error'),
]
