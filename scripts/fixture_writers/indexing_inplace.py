"""In-place indexing semantics from real MXNet: ``NDArray.__setitem__``, the methods
``slice_assign`` / ``slice_assign_scalar`` (which write into the array and return it) and
``_scatter_set_nd`` with ``out=lhs``. The same ``run(mx)`` executes under mxcompat in
tests/test_indexing_inplace.py."""
import json
import os

import numpy as np


def _base(dtype=np.float32):
    return np.arange(60).reshape(4, 3, 5).astype(dtype)


def _idx(values, dtype=np.float32):
    return np.array(values, dtype=dtype)


# (case id, key, value): keys and values holding numpy arrays are converted to NDArrays where
# the spelling says so ('nd:' prefix in the id); others are passed as they are.
SETITEM = [
    ('int-scalar', 1, 7.0),
    ('negint-scalar', -1, -2.0),
    ('int-array', 2, np.full((3, 5), 9, np.float32)),
    ('int-bcast', 0, np.arange(5, dtype=np.float32)),
    ('slice-all', slice(None), 3.0),
    ('slice', slice(1, 3), 4.0),
    ('slice-step', slice(None, None, 2), np.ones((2, 3, 5), np.float32)),
    ('slice-negstep', slice(None, None, -1), np.arange(60, dtype=np.float32).reshape(4, 3, 5)),
    ('slice-negstep2', (slice(3, 0, -2), 1), np.array([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]],
                                                       np.float32)),
    ('tuple-ints', (1, 2), 5.0),
    ('tuple-full', (1, 2, 3), 6.0),
    ('tuple-full-neg', (-1, -1, -1), 8.0),
    ('tuple-slices', (slice(0, 2), slice(None), slice(1, 4)), -1.0),
    ('tuple-bcast', (slice(None), 1), np.arange(5, dtype=np.float32)),
    ('ellipsis', (Ellipsis, 0), 2.0),
    ('list', [0, 2], 1.5),
    ('list-array', [3, 1], np.ones((2, 3, 5), np.float32) * 2),
    ('nd:float-index', _idx([0, 3]), 4.5),
    ('nd:int-index', _idx([1, 2], np.int32), np.zeros((2, 3, 5), np.float32)),
    ('np-index', _idx([2, 0], np.int64), -3.0),
    ('tuple-np', (_idx([0, 1], np.int64), slice(None), _idx([4, 2], np.int64)), 11.0),
    ('tuple-np-bcast', (slice(1, 3), _idx([0, 2], np.int64)), np.arange(5, dtype=np.float32)),
    ('list-value', (0, 0), [1.0, 2.0, 3.0, 4.0, 5.0]),
    ('int-dtype-float-value', 1, 2.7),
]


def _to_nd(mx, v, as_nd):
    if isinstance(v, np.ndarray):
        return mx.nd.array(v, dtype=v.dtype) if as_nd else v
    if isinstance(v, tuple):
        return tuple(_to_nd(mx, i, as_nd) for i in v)
    return v


def _attempt(fn):
    try:
        return fn(), None
    except Exception as err:  # both libraries must fail on the same cases
        return None, type(err).__name__


def run(mx):
    """{case id: numpy array or None}, {case id: error type name or None}."""
    out, errors = {}, {}
    for cid, key, value in SETITEM:
        dtype = np.int32 if cid.startswith('int-dtype') else np.float32
        x = mx.nd.array(_base(dtype), dtype=dtype)
        k = _to_nd(mx, key, cid.startswith('nd:'))
        v = mx.nd.array(value) if isinstance(value, np.ndarray) else value

        def assign():
            x[k] = v
            return x.asnumpy()
        out['setitem/' + cid], errors['setitem/' + cid] = _attempt(assign)

    x = mx.nd.array(_base())
    rhs = mx.nd.array(-np.ones((2, 3, 2), np.float32))
    y = x.slice_assign(rhs, (None, None, 1), (2, None, 5), (1, None, 2))
    out['slice_assign/self'] = x.asnumpy()
    out['slice_assign/returns_self'] = np.array(y is x)

    x = mx.nd.array(_base())
    y = x.slice_assign_scalar(-5.0, (3, 0), (0, 2), (-1, None))
    out['slice_assign_scalar/self'] = x.asnumpy()
    out['slice_assign_scalar/returns_self'] = np.array(y is x)

    lhs = mx.nd.ones((2, 2))
    res = mx.nd._internal._scatter_set_nd(lhs, mx.nd.array([2, 3, 0]),
                                          mx.nd.array([[1, 1, 0], [0, 1, 0]]), shape=(2, 2),
                                          out=lhs)
    out['scatter_set_nd/lhs'] = lhs.asnumpy()
    out['scatter_set_nd/result'] = res.asnumpy()
    return out, errors


def write(mx, outdir):
    out, errors = run(mx)
    arrays = {k: v for k, v in out.items() if v is not None}
    tmp = os.path.join(outdir, 'indexing_inplace.tmp.npz')
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, os.path.join(outdir, 'indexing_inplace.npz'))
    tmp = os.path.join(outdir, 'errors.json.tmp')
    with open(tmp, 'w') as f:
        json.dump(errors, f, indent=1, sort_keys=True)
    os.replace(tmp, os.path.join(outdir, 'errors.json'))
