"""Fixtures for MXNet's NDArray file format (mx.nd.save / mx.nd.load), written by real MXNet.

Every case is one file saved by MXNet 1.9.1 plus the arrays it holds (``values.npz``) and a
manifest (``manifest.json``) saying how the file was saved (list, dict or single array; keys,
dtypes, np-shape mode). tests/test_serialization.py loads each file with mxcompat, compares the
values, and saves the same arrays with mxcompat to check the bytes are identical.
"""
import json
import os

import numpy as np

BF16 = np.dtype([('bfloat16', np.uint16)])
# dtypes MXNet 1.9.1 can create from Python; int16/uint16/uint32/uint64 have type flags but its
# NDArray cannot be allocated with them ("Unknown type enum"), so it never writes such files.
DTYPES = ['float32', 'float64', 'float16', 'uint8', 'int8', 'int32', 'int64', 'bool', 'bfloat16']


def _values(dtype, shape, seed):
    rs = np.random.RandomState(seed)
    if dtype == 'bool':
        return rs.randint(0, 2, size=shape).astype(np.bool_)
    if dtype in ('uint8',):
        return rs.randint(0, 256, size=shape).astype(np.uint8)
    if dtype in ('int8',):
        return rs.randint(-128, 128, size=shape).astype(np.int8)
    if dtype in ('int32', 'int64'):
        return rs.randint(-2 ** 31, 2 ** 31 - 1, size=shape).astype(dtype)
    return rs.uniform(-100, 100, size=shape).astype(np.float32 if dtype == 'bfloat16' else dtype)


def _nd(mx, a, dtype):
    if dtype == 'bfloat16':
        return mx.nd.array(a, dtype=np.float32).astype(BF16)
    return mx.nd.array(a, dtype=a.dtype)


def _stored(x):
    """numpy value of an MXNet NDArray as stored in values.npz (bfloat16 as its uint16 bits)."""
    a = x.asnumpy()
    if a.dtype == BF16:
        return a.view(np.uint16)
    return a


def write(mx, outdir):
    manifest, values = {}, {}

    def record(name, kind, arrays, keys=None, np_shape=False, fname=None):
        fname = fname or name + '.params'
        entry = {'file': fname, 'kind': kind, 'np_shape': np_shape, 'arrays': []}
        if keys is not None:
            entry['keys'] = keys
        for i, x in enumerate(arrays):
            key = '%s/%d' % (name, i)
            values[key] = _stored(x)
            entry['arrays'].append({'key': key, 'dtype': 'bfloat16' if x.dtype == BF16
                                    else np.dtype(x.dtype).name, 'shape': list(x.shape)})
        manifest[name] = entry

    def save(name, data, kind, np_shape=False):
        path = os.path.join(outdir, name + '.params')
        mx.nd.save(path, data)
        if kind == 'dict':
            record(name, kind, list(data.values()), keys=list(data.keys()), np_shape=np_shape)
        elif kind == 'single':
            record(name, kind, [data], np_shape=np_shape)
        else:
            record(name, kind, data, np_shape=np_shape)

    for seed, dt in enumerate(DTYPES):
        arrays = [_nd(mx, _values(dt, (2, 3), seed), dt), _nd(mx, _values(dt, (4,), seed + 50), dt),
                  _nd(mx, _values(dt, (1, 2, 1, 2), seed + 90), dt)]
        save('list_' + dt, arrays, 'list')
        save('dict_' + dt, {'arg:w_' + dt: arrays[0], 'aux:b': arrays[1]}, 'dict')

    mixed = {'arg:fc1_weight': _nd(mx, _values('float32', (3, 2), 7), 'float32'),
             'arg:fc1_bias': _nd(mx, _values('float64', (3,), 8), 'float64'),
             'aux:bn_moving_mean': _nd(mx, _values('float16', (5,), 9), 'float16'),
             'idx': _nd(mx, _values('int64', (2, 2), 10), 'int64'),
             'w\u00e9ight \u6743\u91cd': _nd(mx, _values('uint8', (3,), 11), 'uint8'),
             '': _nd(mx, _values('int8', (1,), 12), 'int8')}
    save('dict_mixed', mixed, 'dict')
    save('single', _nd(mx, _values('float32', (3, 4), 13), 'float32'), 'single')
    save('empty_list', [], 'list')
    save('empty_dict', {}, 'dict')
    zero_size = [mx.nd.array(np.zeros(s, dtype=np.float32)) for s in [(0,), (2, 0), (0, 3, 1)]]
    save('zero_size', zero_size, 'list')
    save('zero_size_dict', {'a': zero_size[0], 'b': mx.nd.array(np.zeros((3, 0), np.int32),
                                                                    dtype='int32')}, 'dict')
    # legacy mode: a 0-d array is written with ndim 0 (MXNet 1.9.1 cannot read it back)
    scalar = mx.nd.array(np.float32(3.5))
    assert scalar.shape == ()
    save('scalar_legacy', [scalar, mx.nd.array([1.0, 2.0])], 'list')
    save('scalar_legacy_dict', {'s': mx.nd.array(np.float64(-2.25), dtype='float64')}, 'dict')
    with mx.util.np_shape(True):
        v3 = [mx.nd.zeros(()), mx.nd.array(np.arange(6, dtype=np.float32).reshape(2, 3)),
              mx.nd.zeros((0, 3)), mx.nd.ones((), dtype='int32')]
        save('np_shape_v3', v3, 'list', np_shape=True)
    big = _nd(mx, _values('float32', (64, 33), 14), 'float32')
    save('larger', {'big': big}, 'dict')

    # sparse arrays: mxcompat loads them as dense arrays with the same values
    dense = np.zeros((5, 4), dtype=np.float32)
    dense[1] = [1, 2, 3, 4]
    dense[3] = [-1, 0, 5, 6]
    rsp = mx.nd.array(dense).tostype('row_sparse')
    csr = mx.nd.array(dense).tostype('csr')
    mx.nd.save(os.path.join(outdir, 'sparse.params'), {'rsp': rsp, 'csr': csr,
                                                        'dense': mx.nd.array(dense)})
    manifest['sparse'] = {'file': 'sparse.params', 'kind': 'dict', 'np_shape': False,
                          'keys': ['rsp', 'csr', 'dense'], 'sparse': True, 'arrays': []}
    for k in ('rsp', 'csr', 'dense'):
        values['sparse/' + k] = dense
        manifest['sparse']['arrays'].append({'key': 'sparse/' + k, 'dtype': 'float32',
                                             'shape': [5, 4]})

    # pickled NDArray state (MXNDArraySaveRawBytes): one array without the list header
    raw = {}
    for name, x in [('raw_f32', _nd(mx, _values('float32', (2, 2), 15), 'float32')),
                    ('raw_i64', _nd(mx, _values('int64', (3,), 16), 'int64')),
                    ('raw_scalar', mx.nd.array(np.float32(1.5)))]:
        raw[name] = bytes(x.__getstate__()['handle']).hex()
        values[name] = _stored(x)
    manifest['_raw_bytes'] = raw

    # how MXNet 1.9.1 answers files it cannot read
    errors = {}
    good = open(os.path.join(outdir, 'list_float32.params'), 'rb').read()
    for n in (0, 8, 16, 24, 28, 40, len(good) - 10, len(good) - 1):
        errors['truncated_%d' % n] = _load_error(mx, good[:n])
    bad_magic = bytearray(good)
    bad_magic[0] = 0x13
    errors['bad_header'] = _load_error(mx, bytes(bad_magic))
    unknown_type = bytearray(good)
    # the first array (2x3) has its type flag after header(16) + count(8) + magic(4) + stype(4)
    # + shape(4 + 2*8) + context(8)
    flag_at = 16 + 8 + 4 + 4 + 20 + 8
    unknown_type[flag_at:flag_at + 4] = (8).to_bytes(4, 'little')
    errors['type_flag_8'] = _load_error(mx, bytes(unknown_type))
    manifest['_mxnet_errors'] = errors

    np.savez_compressed(os.path.join(outdir, 'values.npz'), **values)
    with open(os.path.join(outdir, 'manifest.json'), 'w') as f:
        json.dump(manifest, f, indent=1, sort_keys=True)


def _load_error(mx, buf):
    try:
        mx.nd.load_frombuffer(buf)
    except mx.base.MXNetError as err:
        return 'MXNetError: ' + str(err).strip().splitlines()[-1]
    return None
