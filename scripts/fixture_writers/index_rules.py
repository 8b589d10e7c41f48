"""Basic and advanced indexing of mx.nd and mx.np arrays, read and assigned, from real MXNet
1.9.1 (tests/test_index_rules.py): integers, negative ones, slices with negative and large
steps, tuples, Ellipsis, None, lists, nested lists, mixed slice/list keys, boolean lists,
out-of-range keys, float keys (ValueError), index arrays and boolean masks, each read, and
assigned a scalar and a row (a value that does not broadcast to the target: ValueError in
mx.nd, MXNetError in mx.np; new axes in an assignment's key select nothing). Stored as
[type, shape, values] or ['ERR', exception class name]. Left out: assignments at lists with
negative indices (they corrupt MXNet's heap) and, in NumPy mode, assignments at a boolean
list, which MXNet 1.9.1 reads as the integers 1 and 0 there (while reading with it masks)."""
import numpy as onp

from .numpy_dtype_rules import save

_KEYS = {
    'int': 1, 'neg': -1, 'slice': slice(1, 3), 'negstep': slice(None, None, -1),
    'step2': slice(0, 4, 2), 'tuple2': (1, 2), 'tuple_slice': (slice(0, 2), 1),
    'ellipsis': (Ellipsis, 1), 'none': (None, 1), 'list': [0, 2], 'list2d': ([0, 1], [1, 2]),
    'nested': [[0, 1], [1, 2]], 'mixed': (slice(0, 2), [0, 2]), 'mixed2': ([0, 2], slice(1, 3)),
    'bool_list': [True, False, True], 'oob_int': 5, 'oob_neg': -5, 'oob_slice': slice(2, 10),
    'empty_slice': slice(3, 1), 'neg_list': [-1, 0], 'tuple_none_ell': (None, Ellipsis, None),
    'int_arr_neg': [-3, 2], 'slice_neg': slice(-2, None), 'bigstep': slice(None, None, 5),
    'negstep2': slice(2, 0, -1), 'float': 1.0}
_NO_ASSIGN = ('neg_list', 'int_arr_neg')


def _record(out, key, fn):
    try:
        r = fn()
        out[key] = [str(onp.dtype(r.dtype)), list(r.shape),
                    [round(float(v), 3) for v in r.asnumpy().ravel()]]
    except Exception as err:  # pylint: disable=broad-except
        out[key] = ['ERR', type(err).__name__]


def _source(ns):
    return ns.array(onp.arange(12, dtype='float32').reshape(3, 4))


def _assigned(ns, key, value):
    a = _source(ns)
    a[key] = value
    return a


def run(mx):
    """{case id: [type, shape, values] or ['ERR', exception class name]}."""
    out = {}
    try:
        for mode in ('nd', 'np'):
            if mode == 'np':
                mx.npx.set_np()
            ns = mx.np if mode == 'np' else mx.nd
            row = ns.array(onp.array([9., 8., 7., 6.], dtype='float32'))
            for name, key in _KEYS.items():
                _record(out, '%s/get/%s' % (mode, name), lambda: _source(ns)[key])  # pylint: disable=cell-var-from-loop
                if isinstance(key, list):
                    _record(out, '%s/get-array/%s' % (mode, name), lambda: _source(ns)[  # pylint: disable=cell-var-from-loop
                        ns.array(onp.array(key), dtype='int32')])  # pylint: disable=cell-var-from-loop
                if name in _NO_ASSIGN or mode == 'np' and name == 'bool_list':
                    continue
                for vname, value in (('scalar', -1.0), ('row', row)):
                    _record(out, '%s/set-%s/%s' % (mode, vname, name),
                            lambda: _assigned(ns, key, value))  # pylint: disable=cell-var-from-loop
            _record(out, '%s/mask' % mode, lambda: _source(ns)[_source(ns) > 5])  # pylint: disable=cell-var-from-loop
            _record(out, '%s/set-mask' % mode, lambda: _assigned(ns, _source(ns) > 5, 0))  # pylint: disable=cell-var-from-loop
    finally:
        mx.npx.reset_np()
    return out


def write(mx, outdir):
    save(outdir, 'index_rules', run(mx))
