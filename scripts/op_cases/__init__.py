"""Operator test cases, shared by scripts/make_fixtures.py (run under real MXNet 1.9.1) and
tests/test_op_fixtures.py (run under mxcompat).

Each module in this package defines ``CASES``, a list built with :func:`case`. Inputs come from
a numpy generator seeded by the case id, so both interpreters see the same arrays; the expected
outputs and gradients are written by real MXNet into tests/fixtures/ops/<module>.npz.
"""
import hashlib

import numpy as np

CHECKS = ('value', 'shape', 'moments', 'error')


class Raw:
    """An argument passed as it is (a numpy array stays numpy, not an NDArray)."""
    __slots__ = ('value',)

    def __init__(self, value):
        self.value = value


def rng(case_id):
    """A numpy generator seeded by a case id."""
    seed = int.from_bytes(hashlib.sha1(case_id.encode()).digest()[:4], 'little')
    return np.random.RandomState(seed)


def case(case_id, func, args=(), kwargs=None, grad=(), train=False, check='value', rtol=1e-5,
         atol=1e-6, grad_outputs=None, record=None):
    """One operator call.

    Parameters
    ----------
    case_id : str
        Unique id within its module, e.g. 'FullyConnected-noflatten'.
    func : str
        What to call: 'FullyConnected' (mx.nd.X), 'random.uniform', 'linalg.gemm',
        'contrib.box_nms', '_internal._plus_scalar' (paths under mx.nd), or 'NDArray.sum'
        (a method of the first positional argument).
    args : sequence
        Positional arguments: numpy arrays become NDArrays of the same dtype; other values pass
        through.
    kwargs : dict
        Keyword arguments: numpy arrays become NDArrays; other values must be JSON-able (tuples
        are kept as tuples).
    grad : sequence of str or int
        Inputs to differentiate: positional indices or keyword names. Empty: forward only.
    train : bool
        Run the forward in training mode (autograd.record(train_mode=True)) even without grad.
    check : {'value', 'shape', 'moments', 'error'}
        'value' compares outputs (and gradients) with rtol/atol; 'shape' compares shape and dtype
        only (random operators); 'moments' compares mean and std within rtol (samplers, given a
        large enough shape); 'error' expects both libraries to raise.
    grad_outputs : sequence of int, optional
        Which outputs receive head gradients (default: all floating point outputs).
    record : bool, optional
        Force recording on/off for the forward (default: on when grad is given).
    """
    assert check in CHECKS, check
    return {'id': case_id, 'func': func, 'args': list(args), 'kwargs': dict(kwargs or {}),
            'grad': list(grad), 'train': bool(train), 'check': check, 'rtol': rtol,
            'atol': atol, 'grad_outputs': None if grad_outputs is None else list(grad_outputs),
            'record': record}


def load_modules():
    """{module name: CASES} for every case module of this package."""
    import importlib
    import pkgutil
    out = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith('_'):
            continue
        mod = importlib.import_module(__name__ + '.' + info.name)
        ids = [c['id'] for c in mod.CASES]
        dup = {i for i in ids if ids.count(i) > 1}
        if dup:
            raise ValueError('duplicate case ids in %s: %s' % (info.name, sorted(dup)))
        out[info.name] = mod.CASES
    return out
