"""Out-of-range indices from real MXNet: the error type and message of the error cases in
scripts/op_cases/index_bounds.py (their values and gradients are op fixtures),
``_scatter_set_nd`` with multi-indices whose flat offsets alias other elements, and
``NDArray.__getitem__`` with index arrays, lists and numpy arrays holding negative and
out-of-range indices. The same ``run(mx)`` executes under mxcompat in
tests/test_index_bounds.py."""
import json
import os

import numpy as np

from scripts.fixture_writers.indexing_inplace import _to_nd
from scripts.op_cases import index_bounds
from scripts.op_cases._run import run_case


def _base():
    return np.arange(24, dtype=np.float32).reshape(3, 4, 2)


# (case id, key): 'nd:' in the id makes NDArrays of the numpy arrays in the key
GETITEM = [
    ('nd:neg', np.array([-1, -3, 0], np.float32)),
    ('nd:past', np.array([0, 3], np.float32)),
    ('nd:below', np.array([-4, 1], np.int32)),
    ('nd:tuple-neg', (np.array([0, -1], np.int64), np.array([-4, 3], np.int64))),
    ('nd:tuple-past-axis1', (np.array([0, 1], np.int64), np.array([1, 4], np.int64))),
    ('nd:slice-then-past', (slice(None), np.array([2, -5], np.int32))),
    ('nd:ellipsis-past', (Ellipsis, np.array([1, 2], np.int32))),
    ('nd:none-neg', (None, np.array([-2], np.int32))),
    ('list-neg', [-1, 0]),
    ('list-past', [5, 0]),
    ('np-past', np.array([1, 3], np.int64)),
    ('np-tuple-below', (1, np.array([-5, 0], np.int64))),
]


def _error(err):
    """(type name, last line of the message)."""
    lines = [ln.strip() for ln in str(err).splitlines() if ln.strip()]
    return [type(err).__name__, lines[-1] if lines else '']


def run(mx):
    """{case id: numpy array}, {case id: [error type, message] or None}."""
    out, errors = {}, {}
    for c in index_bounds.ERRORS:
        cid = 'op/' + c['id']
        try:
            run_case(mx, dict(c, check='value'))
            errors[cid] = None
        except Exception as err:  # both libraries must raise the same error
            errors[cid] = _error(err)
    # _scatter_set_nd (what MXNet's x[index arrays] = v runs) writes into its lhs
    x = mx.nd.array(np.arange(12, dtype=np.float32).reshape(3, 4))
    mx.nd._internal._scatter_set_nd(x, mx.nd.array([7, 8, 9]),
                                    mx.nd.array([[1, 0, 2], [-1, 6, -3]]), shape=(3, 4), out=x)
    out['scatter_set_nd/alias'] = x.asnumpy()
    for cid, key in GETITEM:
        x = mx.nd.array(_base())
        k = _to_nd(mx, key, cid.startswith('nd:'))
        try:
            out['getitem/' + cid] = x[k].asnumpy()
            errors['getitem/' + cid] = None
        except Exception as err:
            errors['getitem/' + cid] = _error(err)
    return out, errors


def write(mx, outdir):
    out, errors = run(mx)
    tmp = os.path.join(outdir, 'index_bounds.tmp.npz')
    np.savez_compressed(tmp, **out)
    os.replace(tmp, os.path.join(outdir, 'index_bounds.npz'))
    tmp = os.path.join(outdir, 'errors.json.tmp')
    with open(tmp, 'w') as f:
        json.dump(errors, f, indent=1, sort_keys=True)
    os.replace(tmp, os.path.join(outdir, 'errors.json'))
