"""Views and copies of legacy ``NDArray`` indexing and ``reshape`` from real MXNet: which
results share memory with their source (a write through the result changes the source) and
which are copies, with the values and shapes of the results. The same ``run(mx)`` executes
under mxcompat in tests/test_nd_views.py."""
import os

import numpy as np


def _base():
    return np.arange(60).reshape(4, 3, 5).astype(np.float32)


# (case id, key): MXNet 1.9.1 returns a view where the indexed region is contiguous in memory
# and a copy elsewhere (steps, a partial inner axis under a sliced outer one)
GETITEM = [
    ('int', 1),
    ('negint', -1),
    ('slice', slice(1, 3)),
    ('slice-open', slice(2, None)),
    ('slice-step1', slice(1, 3, 1)),
    ('slice-step2', slice(None, None, 2)),
    ('slice-negstep', slice(3, 0, -1)),
    ('tuple-slice-all', (slice(1, 3), slice(None))),
    ('tuple-slice-int', (slice(1, 3), 1)),
    ('tuple-int-slice', (1, slice(0, 2))),
    ('tuple-ints', (1, 2)),
    ('tuple-all-ints', (1, 2, 3)),
    ('tuple-inner-slice', (slice(None), slice(None), slice(1, 3))),
    ('tuple-unit-slices', (slice(0, 1), slice(1, 2))),
    ('tuple-int-unit', (2, slice(1, 2), slice(0, 5))),
    ('tuple-step', (1, slice(None, None, 2))),
    ('ellipsis-int', (Ellipsis, 0)),
    ('newaxis-int', (None, 1)),
    ('int-newaxis-slice', (0, None, slice(1, 3))),
    ('empty-slice', (slice(2, 2), slice(None))),
]

# (case id, positional arguments, keyword arguments) of x.reshape
RESHAPE = [
    ('flat', ((-1,),), {}),
    ('ints', (6, 10), {}),
    ('list', ([6, -1],), {}),
    ('kw-shape', (), {'shape': (12, 5)}),
    ('keep0', ((0, -1),), {}),
    ('merge-3', ((-3, -2),), {}),
    ('split-4', ((-4, 2, 2, -2),), {}),
    ('copy-rest-2', ((2, -2),), {}),
    ('reverse', ((-1, 0),), {'reverse': True}),
    ('bad-size', ((7, -1),), {}),
    ('two-unknown', ((-1, -1),), {}),
    ('bad-keyword', ((-1,),), {'order': 'C'}),
]


def _attempt(fn):
    try:
        return fn(), None
    except Exception as err:  # both libraries must fail on the same cases
        return None, type(err)


def _write_through(mx, make):
    """(result values, result shape, source after writing -1 through the result)."""
    x = mx.nd.array(_base())
    y = make(x)
    got = y.asnumpy()
    y[:] = -1
    return got, np.array(y.shape), x.asnumpy()


def run(mx):
    """{case id: numpy array}, {case id: the type of the error raised, or None}."""
    out, errors = {}, {}
    cases = [('getitem/' + cid, lambda x, k=key: x[k]) for cid, key in GETITEM]
    cases += [('reshape/' + cid, lambda x, a=args, kw=kwargs: x.reshape(*a, **kw))
              for cid, args, kwargs in RESHAPE]
    for cid, make in cases:
        res, errors[cid] = _attempt(lambda m=make: _write_through(mx, m))
        if res is not None:
            out[cid + '/value'], out[cid + '/shape'], out[cid + '/source'] = res
    return out, errors


def write(mx, outdir):
    from scripts.make_fixtures import _atomic_savez, _atomic_json
    out, errors = run(mx)
    _atomic_savez(os.path.join(outdir, 'nd_views.npz'), out)
    _atomic_json(os.path.join(outdir, 'errors.json'),
                 {k: e and e.__name__ for k, e in errors.items()})
