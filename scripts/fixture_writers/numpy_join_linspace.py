"""mx.np joins, linspace and dsplit from real MXNet 1.9.1 (tests/test_numpy_join_linspace.py).

* ``concatenate``, ``stack``, ``vstack``, ``hstack``, ``dstack``, ``column_stack`` and ``append``
  of arrays whose shapes, axes or types do not fit (and of no arrays): the exception class MXNet
  raises (MXNetError, from the operator's shape or type inference), imperative and hybridized.
* ``linspace`` over integer and float dtypes, with and without the end point, ``num`` 0, 1 and
  more, ``retstep``: every sample is ``start + i * step`` cast to the dtype (the last need not
  be ``stop``: integers truncate), and the step MXNet returns.
* ``dsplit`` of a symbol in a hybridized block: one section gives the array itself (not a list),
  several a list; a symbol of fewer than three dimensions fails in the operator.
* ``split`` / ``hsplit`` / ``dsplit`` at unsorted or out-of-range indices fail (MXNetError, not
  NumPy's empty parts), and their parts are new arrays, not views of the source (as are the
  results of swapaxes, expand_dims, reshape, ravel, flatten, transpose, squeeze, atleast_*d,
  broadcast_to, diagonal and moveaxis; a basic slice is a view).

Errors are stored as [type name, last line of the message] in ``errors.json``; values in
``numpy_join_linspace.npz``.
"""
import json
import os

import numpy as onp

from ._np_mode import run_cases, save_npz
from .index_bounds import _error


def _f(shape, seed, dtype='float32'):
    return onp.random.RandomState(seed).uniform(-2, 2, size=shape).astype(dtype)


def _joins(mx):
    """{case id: function of ``F`` (mx.np or a hybridized block's F.np)}: joins that fail."""
    a, b, c, d = (2, 3), (2, 4), (3,), (3, 3)
    return {
        'concatenate-shape': lambda F, x: F.np.concatenate([x(a), x(b)], axis=0),
        'concatenate-ndim': lambda F, x: F.np.concatenate([x(a), x(c)], axis=0),
        'concatenate-axis': lambda F, x: F.np.concatenate([x(a), x(a)], axis=2),
        'concatenate-neg-axis': lambda F, x: F.np.concatenate([x(a)], axis=-3),
        'concatenate-dtype': lambda F, x: F.np.concatenate([x(a), x(a, 'int32')]),
        'stack-shape': lambda F, x: F.np.stack([x(a), x(b)]),
        'stack-ndim': lambda F, x: F.np.stack([x(a), x(c)], axis=1),
        'stack-axis': lambda F, x: F.np.stack([x(a), x(a)], axis=3),
        'vstack-shape': lambda F, x: F.np.vstack([x(a), x(b)]),
        'hstack-shape': lambda F, x: F.np.hstack([x(a), x(d)]),
        'hstack-ndim': lambda F, x: F.np.hstack([x(a), x(c)]),
        'dstack-shape': lambda F, x: F.np.dstack([x(a), x(d)]),
        'column_stack-shape': lambda F, x: F.np.column_stack([x(c), x((4,))]),
        'append-shape': lambda F, x: F.np.append(x(a), x(b), axis=0),
    }


def _join_errors(mx, errors):
    np = mx.np

    def imperative(shape, dtype='float32'):
        return np.array(_f(shape, len(shape)), dtype=dtype)

    class Join(mx.gluon.HybridBlock):
        """The join of ``fn`` over the block's inputs (the shapes and types it asks for)."""
        def __init__(self, fn, **kwargs):
            super(Join, self).__init__(**kwargs)
            self.fn = fn

        def hybrid_forward(self, F, *xs):
            it = iter(xs)
            return self.fn(F, lambda shape, dtype='float32': next(it))

    for cid, fn in sorted(_joins(mx).items()):
        try:
            fn(mx, imperative).asnumpy()
            errors['imperative/' + cid] = None
        except Exception as err:  # both libraries must raise the same error
            errors['imperative/' + cid] = _error(err)
        # the arrays the join takes, in the order it asks for them
        shapes = []
        try:
            fn(mx, lambda shape, dtype='float32': shapes.append((shape, dtype)) or
               imperative(shape, dtype))
        except Exception:  # (the imperative call failed as above: only the shapes are wanted)
            pass
        net = Join(fn)
        net.hybridize()
        try:
            net(*[imperative(s, t) for s, t in shapes]).asnumpy()
            errors['hybridized/' + cid] = None
        except Exception as err:
            errors['hybridized/' + cid] = _error(err)
    for cid, fn in (('concatenate-none', lambda: np.concatenate([])),
                    ('stack-none', lambda: np.stack([])),
                    ('vstack-none', lambda: np.vstack([]))):
        try:
            fn()
            errors['imperative/' + cid] = None
        except Exception as err:
            errors['imperative/' + cid] = _error(err)


_LINSPACE_RANGES = [(0, 10), (-3.7, 5.2), (10, 0), (0.1, 1), (0.1, 2), (-5, -1), (2.9, 9.1)]
_LINSPACE_NUMS = [0, 1, 2, 4, 7, 14, 25]
_LINSPACE_DTYPES = [None, 'float64', 'float16', 'int32', 'int64', 'uint8', 'int8']


def _linspace(mx, out, errors):
    """Per dtype, every case's samples joined in one array, and the steps ``retstep`` gives
    (NaN where it raises; its error under the case id)."""
    np = mx.np
    for dtype in _LINSPACE_DTYPES:
        samples, steps = [], []
        for start, stop in _LINSPACE_RANGES:
            if dtype == 'uint8' and min(start, stop) < 0:
                continue  # (a negative float cast to uint8 is undefined in C++)
            for num in _LINSPACE_NUMS:
                for endpoint in (True, False):
                    samples.append(np.linspace(start, stop, num, endpoint=endpoint,
                                               dtype=dtype).asnumpy())
                    cid = 'linspace/%s/%s/%s/%d/%s/step' % (dtype, start, stop, num, endpoint)
                    try:
                        steps.append(np.linspace(start, stop, num, endpoint=endpoint,
                                                 retstep=True, dtype=dtype)[1])
                    except Exception as err:
                        steps.append(onp.nan)
                        errors[cid] = _error(err)
        out['linspace/%s' % dtype] = onp.concatenate(samples)
        out['linspace/%s/step' % dtype] = onp.array(steps, dtype='float64')
    for cid, kwargs in (('num-negative', {'num': -1}), ('num-float', {'num': 2.5})):
        try:
            np.linspace(0, 1, **kwargs)
            errors['linspace/' + cid] = None
        except Exception as err:
            errors['linspace/' + cid] = _error(err)
    for cid, args in (('step-zero', (0, 5, 0)), ('step-zero-float', (0.5, 2.5, 0.0)),
                      ('step-zero-one-bound', (5, None, 0))):
        for space, fn in (('np', np.arange), ('sym', mx.sym.np.arange)):
            try:
                fn(*args)
                errors['arange/%s/%s' % (space, cid)] = None
            except Exception as err:
                errors['arange/%s/%s' % (space, cid)] = _error(err)


def _dsplit(mx, out, errors):
    class Split(mx.gluon.HybridBlock):
        def __init__(self, sections, **kwargs):
            super(Split, self).__init__(**kwargs)
            self.sections = sections

        def hybrid_forward(self, F, x):
            return F.np.dsplit(x, self.sections)

    x = mx.np.array(onp.arange(24, dtype='float32').reshape(2, 3, 4))
    for cid, sections in (('one', 1), ('two', 2), ('uneven', 3), ('indices', [1, 3])):
        net = Split(sections)
        net.hybridize()
        res = net(x)
        out['dsplit/%s/is-list' % cid] = onp.array(isinstance(res, (list, tuple)))
        for k, part in enumerate(res if isinstance(res, (list, tuple)) else [res]):
            out['dsplit/%s/%d' % (cid, k)] = part.asnumpy()
    net = Split(2)
    net.hybridize()
    try:
        net(x[0])
        errors['dsplit/2-d'] = None
    except Exception as err:
        errors['dsplit/2-d'] = _error(err)
    np = mx.np
    y = np.array(onp.arange(12, dtype='float32').reshape(2, 6))
    for cid, fn in (('unsorted', lambda: np.split(y, [4, 2], axis=1)),
                    ('past-end', lambda: np.split(y, [2, 9], axis=1)),
                    ('hsplit-unsorted', lambda: np.hsplit(y, [4, 2])),
                    ('dsplit-past-end', lambda: np.dsplit(x, [1, 7]))):
        try:
            [p.asnumpy() for p in fn()]
            errors['split/' + cid] = None
        except Exception as err:
            errors['split/' + cid] = _error(err)
    # the parts are new arrays: writing into them leaves the source as it was
    for cid, parts in (('split', np.split(y, 2, axis=1)), ('hsplit', np.hsplit(y, 3)),
                       ('dsplit', np.dsplit(x, 2)), ('array_split', np.array_split(y, 4, 1))):
        parts[0][:] = -1
        out['split/%s/source-after-write' % cid] = (x if cid == 'dsplit' else y).asnumpy()
    # so are the results of the shape functions (a basic slice is a view: written through)
    for cid, fn in (('swapaxes', lambda a: np.swapaxes(a, 0, 1)),
                    ('expand_dims', lambda a: np.expand_dims(a, 0)),
                    ('reshape', lambda a: a.reshape(-1)),
                    ('np.reshape', lambda a: np.reshape(a, (3, 2))),
                    ('npx.reshape', lambda a: mx.npx.reshape(a, (-1, 1))),
                    ('ravel', np.ravel),
                    ('flatten', lambda a: a.flatten()),
                    ('T', lambda a: a.T),
                    ('transpose', lambda a: a.transpose(1, 0)),
                    ('np.transpose', np.transpose),
                    ('squeeze', lambda a: np.squeeze(np.expand_dims(a, 0)[0:1], 0)),
                    ('atleast_1d', np.atleast_1d),
                    ('atleast_2d', np.atleast_2d),
                    ('broadcast_to', lambda a: np.broadcast_to(a[0:1], (2, 3))),
                    ('diagonal', np.diagonal),
                    ('moveaxis', lambda a: np.moveaxis(a, 0, 1)),
                    ('slice', lambda a: a[0:1])):
        z = np.array(onp.arange(6, dtype='float32').reshape(2, 3))
        fn(z)[:] = -1
        out['copy/%s/source-after-write' % cid] = z.asnumpy()


def run(mx):
    """({case id: numpy array}, {case id: [error type, message] or None}), in NumPy mode."""
    errors = {}
    out = run_cases(mx, lambda mx, out: _join_errors(mx, errors),
                    lambda mx, out: _linspace(mx, out, errors),
                    lambda mx, out: _dsplit(mx, out, errors))
    return out, errors


def write(mx, outdir):
    out, errors = run(mx)
    save_npz(outdir, 'numpy_join_linspace', out)
    tmp = os.path.join(outdir, 'errors.json.tmp')
    with open(tmp, 'w') as f:
        json.dump(errors, f, indent=1, sort_keys=True)
    os.replace(tmp, os.path.join(outdir, 'errors.json'))
