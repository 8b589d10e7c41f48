"""Learning-rate sequences of ``mx.lr_scheduler`` schedulers.

Each case builds a scheduler and calls it with a sequence of ``num_update`` values (rising,
with jumps, and going back, since Factor/MultiFactor schedulers keep state); constructor
errors are recorded as (exception type, message). ``write`` stores real MXNet's results in
tests/fixtures/lr_scheduler/cases.json; tests/test_lr_scheduler.py replays them on mxcompat.
"""
import json
import os

RISING = list(range(0, 40))
JUMPS = [0, 1, 5, 30, 31, 12, 3, 45, 44, 100, 7]

CASES = {
    'factor': ('FactorScheduler', {'step': 5, 'factor': 0.5}, RISING),
    'factor-base': ('FactorScheduler', {'step': 3, 'factor': 0.9, 'base_lr': 0.3}, RISING),
    'factor-stop': ('FactorScheduler', {'step': 2, 'factor': 0.1, 'stop_factor_lr': 1e-4,
                                        'base_lr': 1.0}, RISING),
    'factor-jumps': ('FactorScheduler', {'step': 4, 'factor': 0.7}, JUMPS),
    'factor-warmup-linear': ('FactorScheduler', {'step': 5, 'factor': 0.5, 'base_lr': 0.1,
                                                 'warmup_steps': 8, 'warmup_begin_lr': 0.01},
                             RISING),
    'factor-warmup-constant': ('FactorScheduler', {'step': 5, 'factor': 0.5, 'base_lr': 0.1,
                                                   'warmup_steps': 6, 'warmup_begin_lr': 0.02,
                                                   'warmup_mode': 'constant'}, RISING),
    'multifactor': ('MultiFactorScheduler', {'step': [3, 7, 20], 'factor': 0.5}, RISING),
    'multifactor-jumps': ('MultiFactorScheduler', {'step': [3, 7, 20], 'factor': 0.3,
                                                   'base_lr': 2.0}, JUMPS),
    'multifactor-warmup': ('MultiFactorScheduler', {'step': [10, 15], 'factor': 0.1,
                                                    'base_lr': 0.5, 'warmup_steps': 5,
                                                    'warmup_begin_lr': 0.05}, RISING),
    'poly': ('PolyScheduler', {'max_update': 30, 'base_lr': 0.1, 'pwr': 2}, RISING),
    'poly-final': ('PolyScheduler', {'max_update': 25, 'base_lr': 0.2, 'pwr': 3,
                                     'final_lr': 0.01}, JUMPS),
    'poly-warmup': ('PolyScheduler', {'max_update': 30, 'base_lr': 0.1, 'pwr': 1,
                                      'warmup_steps': 5, 'warmup_begin_lr': 0.001}, RISING),
    'cosine': ('CosineScheduler', {'max_update': 30, 'base_lr': 0.1}, RISING),
    'cosine-final': ('CosineScheduler', {'max_update': 20, 'base_lr': 0.4, 'final_lr': 0.05},
                     JUMPS),
    'cosine-warmup': ('CosineScheduler', {'max_update': 30, 'base_lr': 0.1, 'warmup_steps': 10,
                                          'warmup_begin_lr': 0.0, 'warmup_mode': 'constant'},
                      RISING),
    'err-factor-step': ('FactorScheduler', {'step': 0}, []),
    'err-factor-factor': ('FactorScheduler', {'step': 2, 'factor': 1.5}, []),
    'err-warmup-lr': ('FactorScheduler', {'step': 2, 'base_lr': 0.1, 'warmup_begin_lr': 0.2}, []),
    'err-warmup-steps': ('PolyScheduler', {'max_update': 10, 'warmup_steps': -1}, []),
    'err-warmup-mode': ('CosineScheduler', {'max_update': 10, 'warmup_mode': 'cubic'}, []),
    'err-multifactor-order': ('MultiFactorScheduler', {'step': [5, 3]}, []),
    'err-multifactor-step': ('MultiFactorScheduler', {'step': [0, 3]}, []),
    'err-poly-max': ('PolyScheduler', {'max_update': 0}, []),
    'err-cosine-max': ('CosineScheduler', {'max_update': 0}, []),
}


def run(mx, cid):
    """{'lrs': [...], 'base_lr': ...} or {'error': [type name, message]} for case ``cid``."""
    klass, kwargs, updates = CASES[cid]
    try:
        sched = getattr(mx.lr_scheduler, klass)(**kwargs)
    except Exception as err:  # pylint: disable=broad-except
        return {'error': [type(err).__name__, str(err)]}
    lrs = [sched(n) for n in updates]
    return {'lrs': lrs, 'base_lr': sched.base_lr}


def write(mx, outdir):
    out = {cid: run(mx, cid) for cid in CASES}
    tmp = os.path.join(outdir, 'cases.json.tmp')
    with open(tmp, 'w') as f:
        json.dump(out, f, indent=1, sort_keys=True)
    os.replace(tmp, os.path.join(outdir, 'cases.json'))
