"""MXNet's NumPy-shape switches from real MXNet: the flags that ``set_np_shape``, ``np_shape``,
``np_array``, ``use_np``, ``set_np`` and ``reset_np`` leave behind (nested scopes, scopes left
by an exception, the previous states they return, switching NumPy shapes off under NumPy
arrays), and which array creators accept a shape of ``()`` or with a 0 size outside NumPy-shape
mode (``nd.zeros`` and ``nd.ones`` run an operator whose shape inference takes those sizes as
unknown; ``nd.empty``, ``nd.full`` and ``nd.array`` make the array). The same ``run(mx)``
executes under mxcompat in tests/test_np_shape_state.py."""
import json
import os

import numpy as np


def _outcome(fn, done=lambda a: 'no error'):
    """``done(fn())``, or the name of the exception ``fn()`` raises."""
    try:
        a = fn()
    except Exception as err:  # pylint: disable=broad-except
        return type(err).__name__
    return done(a)


def _made(fn):
    """'shape (...) dtype' of the array ``fn()`` makes, or the name of the exception it
    raises."""
    return _outcome(fn, lambda a: 'shape %s %s' % (tuple(a.shape), np.dtype(a.dtype).name))


def _flags(mx):
    return [bool(mx.util.is_np_shape()), bool(mx.util.is_np_array())]


def _creation(mx, out):
    nd = mx.nd
    makers = {
        'zeros': lambda s: nd.zeros(s),
        'ones': lambda s: nd.ones(s, dtype='int32'),
        'zeros-out': lambda s: nd.zeros(s, out=nd.empty(s)),
        'ones-out': lambda s: nd.ones(s, out=nd.empty(s)),
        'empty': lambda s: nd.empty(s),
        'full': lambda s: nd.full(s, 2.5),
        'array': lambda s: nd.array(np.ones(s)),
    }
    shapes = {'()': (), '(0,)': (0,), '(0,1,3,0)': (0, 1, 3, 0), '(2,0)': (2, 0),
              'int0': 0, 'int3': 3, '(2,3)': (2, 3)}
    for mode in (False, True):
        with mx.np_shape(mode):
            for name, make in makers.items():
                for label, shape in shapes.items():
                    if name.endswith('-out') and label in ('int0', 'int3') or \
                            name == 'full' and label == '()':
                        # (MXNet's nd.full of () fails in its ``out[:] = val``, an assignment
                        # to a 0-d array: a rule of indexing, not of creation)
                        continue
                    out['create/np_shape=%s/%s/%s' % (mode, name, label)] = \
                        _made(lambda: make(shape))


def _scopes(mx):
    util = mx.util
    seen = {}
    seen['initial'] = _flags(mx)
    seen['set_np_shape(True) returns'] = util.set_np_shape(True)
    seen['set_np_shape(True) again returns'] = util.set_np_shape(True)
    with mx.np_shape(True):
        seen['np_shape(True) inside set'] = _flags(mx)
    seen['after np_shape(True) over set'] = _flags(mx)
    with mx.np_shape(False):
        seen['np_shape(False) inside set'] = _flags(mx)
    seen['after np_shape(False) over set'] = _flags(mx)
    seen['set_np_shape(False) returns'] = util.set_np_shape(False)

    with mx.np_shape(True):
        with mx.np_shape(False):
            seen['nested False in True'] = _flags(mx)
            with mx.np_shape(True):
                seen['nested True in False in True'] = _flags(mx)
            seen['back to nested False'] = _flags(mx)
        seen['back to outer True'] = _flags(mx)
    seen['after nested'] = _flags(mx)

    def fail_in_scope():
        with mx.np_shape(True):
            raise KeyError('inside')
    seen['exception in np_shape'] = _outcome(fail_in_scope)
    seen['after exception in np_shape'] = _flags(mx)

    @util.use_np
    def failing():
        seen['inside use_np'] = _flags(mx)
        raise KeyError('inside')
    seen['exception in use_np'] = _outcome(failing)
    seen['after exception in use_np'] = _flags(mx)

    @util.use_np_shape
    def shape_only():
        seen['inside use_np_shape'] = _flags(mx)
        with mx.util.np_array(True):
            seen['np_array inside use_np_shape'] = _flags(mx)
        seen['after np_array inside use_np_shape'] = _flags(mx)
    shape_only()
    seen['after use_np_shape'] = _flags(mx)

    mx.npx.set_np()
    seen['after set_np'] = _flags(mx)
    seen['set_np_shape(False) under np_array'] = _outcome(lambda: util.set_np_shape(False))
    seen['after set_np_shape(False) under np_array'] = _flags(mx)
    with mx.util.np_array(False):
        seen['np_array(False) under set_np'] = _flags(mx)
    seen['after np_array(False) under set_np'] = _flags(mx)
    seen['set_np(shape=False, array=True)'] = \
        _outcome(lambda: mx.npx.set_np(shape=False, array=True))
    mx.npx.reset_np()
    seen['after reset_np'] = _flags(mx)
    return seen


def run(mx):
    """{case id: outcome} (JSON-able)."""
    out = {}
    _creation(mx, out)
    for key, value in _scopes(mx).items():
        out['scope/' + key] = value
    return out


def write(mx, outdir):
    tmp = os.path.join(outdir, 'np_shape_state.json.tmp')
    with open(tmp, 'w') as f:
        json.dump(run(mx), f, indent=1, sort_keys=True)
    os.replace(tmp, os.path.join(outdir, 'np_shape_state.json'))
