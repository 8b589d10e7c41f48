"""mx.nd.save / load / load_frombuffer against files written by real MXNet 1.9.1
(tests/fixtures/serialization, made by scripts/fixture_writers/serialization.py)."""
import json
import os
import struct
import time

import numpy as np
import pytest
import torch

import mxcompat as mx
from mxcompat.base import MXNetError
from mxcompat.ndarray import serialization as ser
from mxcompat.ndarray.ndarray import NDArray, wrap

from conftest import FIXTURES

FX = os.path.join(FIXTURES, 'serialization')
with open(os.path.join(FX, 'manifest.json')) as _f:
    MANIFEST = json.load(_f)
VALUES = dict(np.load(os.path.join(FX, 'values.npz')))
CASES = sorted(k for k in MANIFEST if not k.startswith('_'))
# files mxcompat never writes: NumPy-shape (V3) files and sparse arrays
WRITABLE = [k for k in CASES if not MANIFEST[k]['np_shape'] and not MANIFEST[k].get('sparse')]


def _expected(entry):
    """[(key, dtype name, numpy value)] of a manifest entry (bfloat16 as uint16 bits)."""
    return [(a['key'], a['dtype'], VALUES[a['key']]) for a in entry['arrays']]


def _bits(x):
    """numpy value of an mxcompat NDArray, bfloat16 as its uint16 bits."""
    t = x.to_torch().detach()
    if t.dtype is torch.bfloat16:
        return t.view(torch.int16).numpy().view(np.uint16)
    return t.numpy()


def _make(dtype, value):
    """The array MXNet saved: on cpu(0), the context its file records."""
    if dtype == 'bfloat16':
        return wrap(torch.from_numpy(value.view(np.int16).copy()).view(torch.bfloat16))
    return mx.nd.array(value, dtype=value.dtype, ctx=mx.cpu(0))


def _check_loaded(entry, loaded):
    if entry['kind'] == 'dict' and entry['keys']:
        assert isinstance(loaded, dict)
        assert list(loaded.keys()) == entry['keys']
        arrays = list(loaded.values())
    else:
        # an empty dict is stored without keys, so MXNet loads it as an empty list
        assert isinstance(loaded, list)
        arrays = loaded
    exp = _expected(entry)
    assert len(arrays) == len(exp)
    for x, (_, dtype, want) in zip(arrays, exp):
        assert isinstance(x, NDArray)
        assert x.context == mx.cpu()
        got = _bits(x)
        if dtype == 'bfloat16':
            assert x.dtype == np.dtype([('bfloat16', np.uint16)])
        else:
            assert np.dtype(x.dtype) == np.dtype(dtype)
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize('name', CASES)
def test_load_mxnet_file(name):
    entry = MANIFEST[name]
    _check_loaded(entry, mx.nd.load(os.path.join(FX, entry['file'])))


@pytest.mark.parametrize('name', CASES)
def test_load_frombuffer_mxnet_file(name):
    entry = MANIFEST[name]
    with open(os.path.join(FX, entry['file']), 'rb') as f:
        buf = f.read()
    _check_loaded(entry, mx.nd.load_frombuffer(buf))
    _check_loaded(entry, mx.nd.load_frombuffer(bytearray(buf)))


def _mapped(path):
    with ser.ParamsFile(path) as pf:
        return list(pf.arrays(mapped=True))


@pytest.mark.parametrize('read', [lambda path: list(ser.iter_params(path)), _mapped],
                         ids=['read', 'mapped'])
@pytest.mark.parametrize('name', CASES)
def test_iter_params_mxnet_file(name, read):
    """The streaming reader yields the keys (None for unnamed arrays) and arrays of MXNet's
    file, in its order; so does it over a memory map of the file (``mapped=True``)."""
    entry = MANIFEST[name]
    got = read(os.path.join(FX, entry['file']))
    exp = _expected(entry)
    assert len(got) == len(exp)
    named = entry['kind'] == 'dict' and entry['keys']
    assert [k for k, _ in got] == (entry['keys'] if named else [None] * len(exp))
    for (_, t), (_, _, want) in zip(got, exp):
        assert isinstance(t, torch.Tensor)
        np.testing.assert_array_equal(_bits(wrap(t)), want)


def test_params_file_reads_into_given_tensors():
    """``ParamsFile.arrays(into=...)`` reads an array straight into the tensor ``into`` gives
    for it, and refuses one of another shape or dtype."""
    entry = MANIFEST['dict_float32']
    path = os.path.join(FX, entry['file'])
    exp = _expected(entry)
    targets = [torch.empty(want.shape, dtype=torch.float32) for _, _, want in exp]
    with ser.ParamsFile(path) as pf:
        assert pf.keys == entry['keys'] and len(pf) == len(exp)
        got = list(pf.arrays(into=lambda i, key, shape, dtype: targets[i]))
    for (_, t), target, (_, _, want) in zip(got, targets, exp):
        assert t is target
        np.testing.assert_array_equal(t.numpy(), want)
    with ser.ParamsFile(path) as pf:
        with pytest.raises(MXNetError, match='contiguous CPU tensor of its shape and dtype'):
            list(pf.arrays(into=lambda i, key, shape, dtype: torch.empty((1, 2, 3, 4, 5))))


@pytest.mark.parametrize('name', WRITABLE)
def test_save_is_byte_identical(name, tmp_path):
    entry = MANIFEST[name]
    arrays = [_make(dtype, value) for _, dtype, value in _expected(entry)]
    if entry['kind'] == 'dict':
        data = dict(zip(entry['keys'], arrays))
    elif entry['kind'] == 'single':
        data = arrays[0]
    else:
        data = arrays
    out = tmp_path / 'out.params'
    mx.nd.save(str(out), data)
    with open(os.path.join(FX, entry['file']), 'rb') as f:
        want = f.read()
    assert out.read_bytes() == want
    assert ser.dumps(data) == want
    assert os.listdir(tmp_path) == ['out.params']  # no temporary file left behind


def test_raw_bytes_match_mxnet_pickle_state():
    for name, hexbytes in MANIFEST['_raw_bytes'].items():
        want = VALUES[name]
        raw = bytes.fromhex(hexbytes)
        t = ser.load_raw_bytes(raw)
        np.testing.assert_array_equal(t.numpy(), want)
        assert t.numpy().dtype == want.dtype
        assert ser.save_raw_bytes(_make(str(want.dtype), want)) == raw


def test_setstate_of_mxnet_gpu_pickle_loads_on_cpu():
    # NDArray state MXNet pickles for mx.nd.arange(1, ctx=mx.gpu()): a V2 array on gpu(0)
    state = {'handle': bytearray(
        b'\xc9\xfa\x93\xf9\x00\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00'
        b'\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00')}
    a = mx.nd.zeros((1,), ctx=mx.cpu(1))  # MXNet 1.9.1 without CUDA: cpu(0), as unpickled
    a.__setstate__(state)
    assert a.shape == (1,) and a.asnumpy()[0] == 0 and a.context == mx.cpu()


def test_empty_dict_and_list_bytes():
    want = struct.pack('<QQQQ', 0x112, 0, 0, 0)
    assert ser.dumps([]) == want
    assert ser.dumps({}) == want


# ------------------------------------------------------------------ older formats, by hand
def _file(arrays, keys=()):
    out = struct.pack('<QQQ', 0x112, 0, len(arrays)) + b''.join(arrays)
    out += struct.pack('<Q', len(keys))
    for k in keys:
        out += struct.pack('<Q', len(k)) + k
    return out


def test_load_pre_v1_legacy_format():
    # before V1 an array began with its ndim and uint32 dims (MXNet's legacy_ndarray.v0)
    data = np.arange(128, dtype=np.float32)
    arr = struct.pack('<II', 1, 128) + struct.pack('<iii', 1, 0, 0) + data.tobytes()
    res = mx.nd.load_frombuffer(_file([arr] * 6))
    assert len(res) == 6
    for x in res:
        np.testing.assert_array_equal(x.asnumpy(), data)
    arr2 = struct.pack('<III', 2, 2, 3) + struct.pack('<iii', 1, 0, 6) \
        + np.arange(6, dtype=np.int64).tobytes()
    res = mx.nd.load_frombuffer(_file([arr2], [b'w']))
    assert list(res) == ['w']
    np.testing.assert_array_equal(res['w'].asnumpy(), np.arange(6).reshape(2, 3))
    assert res['w'].dtype == np.int64


def test_load_v1_format():
    data = np.array([[1.5, -2], [3, 4]], dtype=np.float64)
    arr = struct.pack('<Ii', 0xF993FAC8, 2) + struct.pack('<qq', 2, 2) \
        + struct.pack('<iii', 2, 1, 1) + data.tobytes()
    scalar = struct.pack('<Ii', 0xF993FAC8, 0) + struct.pack('<iii', 1, 0, 4) \
        + struct.pack('<i', -7)
    res = mx.nd.load_frombuffer(_file([arr, scalar]))
    np.testing.assert_array_equal(res[0].asnumpy(), data)
    assert res[0].context == mx.cpu()  # saved on gpu(1): loads on the CPU
    assert res[1].shape == () and res[1].asnumpy() == -7 and res[1].dtype == np.int32


def test_v2_empty_entry_from_cpp_api():
    # MXNet's C++ API can write an array of ndim 0 with nothing after it ("none" array)
    none = struct.pack('<Iii', 0xF993FAC9, 0, 0)
    ones = struct.pack('<Iii', 0xF993FAC9, 0, 1) + struct.pack('<q', 2) \
        + struct.pack('<iii', 1, 0, 0) + np.ones(2, np.float32).tobytes()
    res = mx.nd.load_frombuffer(_file([none, ones]))
    assert res[0].shape == (0,)
    np.testing.assert_array_equal(res[1].asnumpy(), [1, 1])


@pytest.mark.parametrize('dtype,flag', [('int16', 8), ('uint16', 9), ('uint32', 10),
                                        ('uint64', 11)])
def test_dtypes_mxnet_1_9_cannot_allocate(dtype, flag, tmp_path):
    # MXNet 1.9.1 has type flags 8-11 but refuses them ("Unknown type enum"); mxcompat writes
    # them in the same layout and reads them back
    assert MANIFEST['_mxnet_errors']['type_flag_8'].endswith('Unknown type enum 8')
    value = np.array([[0, 1, 2], [3, 200, np.iinfo(dtype).max]], dtype=dtype)
    want = _file([struct.pack('<Iii', 0xF993FAC9, 0, 2) + struct.pack('<qq', 2, 3)
                  + struct.pack('<iii', 1, 0, flag) + value.tobytes()])
    x = _make(dtype, value)
    assert ser.dumps([x]) == want
    mx.nd.save(str(tmp_path / 'f'), [x])
    back = mx.nd.load(str(tmp_path / 'f'))[0]
    assert back.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(back.asnumpy(), value)


def test_save_writes_context_and_handles_views(tmp_path):
    base = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = mx.nd.array(base, ctx=mx.cpu(1))
    t = wrap(x.to_torch().t())  # non-contiguous view
    x.attach_grad()
    buf = ser.dumps([x, t])
    ctx = struct.unpack_from('<ii', buf, 24 + 4 + 4 + 4 + 16)
    assert ctx == (1, 1)
    back = mx.nd.load_frombuffer(buf)
    np.testing.assert_array_equal(back[0].asnumpy(), base)
    np.testing.assert_array_equal(back[1].asnumpy(), base.T)


# ------------------------------------------------------------------ errors
def test_argument_errors_match_mxnet(tmp_path):
    x = mx.nd.ones((2,))
    with pytest.raises(ValueError):
        mx.nd.save(str(tmp_path / 'a'), (x,))
    with pytest.raises(TypeError):
        mx.nd.save(str(tmp_path / 'a'), {1: x})
    with pytest.raises(TypeError):
        mx.nd.save(str(tmp_path / 'a'), [1])
    with pytest.raises(TypeError):
        mx.nd.load(5)
    with pytest.raises(TypeError):
        mx.nd.load_frombuffer(5)
    with pytest.raises(MXNetError):
        mx.nd.load(str(tmp_path / 'missing'))
    with pytest.raises(MXNetError):
        mx.nd.save(str(tmp_path / 'no' / 'dir'), [x])
    assert os.listdir(tmp_path) == []


def test_mxnet_rejected_prefixes_are_rejected():
    with open(os.path.join(FX, 'list_float32.params'), 'rb') as f:
        good = f.read()
    for key, err in MANIFEST['_mxnet_errors'].items():
        if key.startswith('truncated_'):
            assert err.startswith('MXNetError')
            with pytest.raises(MXNetError):
                mx.nd.load_frombuffer(good[:int(key.split('_')[1])])
    bad = bytearray(good)
    bad[0] = 0x13
    with pytest.raises(MXNetError):
        mx.nd.load_frombuffer(bytes(bad))


def test_every_truncation_raises_quickly():
    with open(os.path.join(FX, 'dict_mixed.params'), 'rb') as f:
        good = f.read()
    start = time.time()
    for n in range(len(good)):
        with pytest.raises(MXNetError):
            mx.nd.load_frombuffer(good[:n])
    assert time.time() - start < 5


def test_random_byte_flips_never_crash():
    with open(os.path.join(FX, 'dict_mixed.params'), 'rb') as f:
        good = f.read()
    rs = np.random.RandomState(0)
    start = time.time()
    for _ in range(3000):
        bad = bytearray(good)
        for pos in rs.randint(0, len(bad), size=rs.randint(1, 4)):
            bad[pos] = rs.randint(0, 256)
        try:
            res = mx.nd.load_frombuffer(bytes(bad))
        except MXNetError:
            continue
        assert isinstance(res, (list, dict))
    assert time.time() - start < 30


@pytest.mark.parametrize('buf', [
    struct.pack('<QQQ', 0x112, 0, 2 ** 62),                                  # array count
    struct.pack('<QQQIii', 0x112, 0, 1, 0xF993FAC9, 0, 2 ** 30),             # ndim
    struct.pack('<QQQIiiqq', 0x112, 0, 1, 0xF993FAC9, 0, 2, 2 ** 40, 2 ** 40)
    + struct.pack('<iii', 1, 0, 0),                                          # data size
    struct.pack('<QQQIi', 0x112, 0, 1, 0x7FFFFFFF, 0),                       # legacy ndim
    struct.pack('<QQQQQ', 0x112, 0, 0, 1, 2 ** 63),                          # key length
    struct.pack('<QQQQ', 0x112, 0, 0, 2 ** 60),                              # key count
    struct.pack('<QQQIiiq', 0x112, 0, 1, 0xF993FAC9, 0, 1, -5) + struct.pack('<iii', 1, 0, 0),
    struct.pack('<QQQIii', 0x112, 0, 1, 0xF993FAC9, 7, 1),                   # storage type
    struct.pack('<QQQIiiq', 0x112, 0, 1, 0xF993FAC9, 0, 1, 1) + struct.pack('<iii', 1, 0, 99),
])
def test_lengths_are_checked_before_allocating(buf):
    start = time.time()
    with pytest.raises(MXNetError):
        mx.nd.load_frombuffer(buf)
    assert time.time() - start < 1


def test_failed_save_keeps_old_file_and_leaves_no_temp(tmp_path, monkeypatch):
    path = tmp_path / 'model.params'
    mx.nd.save(str(path), {'w': mx.nd.ones((3,))})
    old = path.read_bytes()
    real = ser._array_chunks
    calls = []

    def failing(x, *args):
        calls.append(x)
        if len(calls) == 2:
            raise KeyboardInterrupt  # an interruption half way through the write
        return real(x, *args)

    monkeypatch.setattr(ser, '_array_chunks', failing)
    with pytest.raises(KeyboardInterrupt):
        mx.nd.save(str(path), [mx.nd.zeros((1000,)), mx.nd.zeros((5,))])
    assert path.read_bytes() == old
    assert os.listdir(tmp_path) == ['model.params']


def test_load_accepts_pathlike(tmp_path):
    path = tmp_path / 'p.params'
    mx.nd.save(path, [mx.nd.array([1, 2])])
    np.testing.assert_array_equal(mx.nd.load(path)[0].asnumpy(), [1, 2])
