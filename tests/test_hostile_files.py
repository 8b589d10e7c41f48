"""Readers of untrusted bytes fail cleanly: MXNetError naming the file, the entry and the
problem, before allocating or recursing. The inputs are files written by real MXNet 1.9.1
(tests/fixtures/hostile/seeds) with one field changed."""
import json
import os
import struct
import time

import numpy as np
import pytest

import mxcompat as mx
from mxcompat.base import MXNetError
from mxcompat.image import _codec
from conftest import FIXTURES

SEEDS = os.path.join(FIXTURES, 'hostile', 'seeds')


def _seed(name):
    path = os.path.join(SEEDS, name)
    if not os.path.exists(path):
        pytest.skip('fixture missing: run scripts/make_fixtures.py --only hostile')
    with open(path, 'rb') as f:
        return f.read()


def _write(tmp_path, name, data):
    path = str(tmp_path / name)
    with open(path, 'wb' if isinstance(data, bytes) else 'w') as f:
        f.write(data)
    return path


# ------------------------------------------------------------------------------ NDArray files
def _one_array(shape, flag=0, data=b''):
    """An nd.save list file of one V2 dense array, as MXNet writes it."""
    return (struct.pack('<QQQ', 0x112, 0, 1) + struct.pack('<Ii', 0xF993FAC9, 0)
            + struct.pack('<i', len(shape)) + struct.pack('<%dq' % len(shape), *shape)
            + struct.pack('<iii', 1, 0, flag) + data + struct.pack('<Q', 0))


@pytest.mark.parametrize('shape, problem', [
    ((2, -3), 'negative dimension'),
    ((0,) + (2 ** 30,) * 2, 'more than 1099511627776 elements'),
    ((1,) * 33, 'invalid ndim 33'),
    ((2 ** 20, 2 ** 20), 'needs 4398046511104 bytes'),
])
def test_nd_load_bad_shapes(shape, problem, tmp_path):
    path = _write(tmp_path, 'bad.params', _one_array(shape))
    with pytest.raises(MXNetError, match=r'Invalid NDArray file format \(.*bad.params\): '
                                         r'array 0 .*%s' % problem):
        mx.nd.load(path)


def test_nd_load_unknown_dtype_flag():
    with pytest.raises(MXNetError, match=r'\(buffer\): array 0 has unknown type flag 99'):
        mx.nd.load_frombuffer(_one_array((1,), 99, b'\0' * 4))


def _sparse_rows(rows):
    """MXNet's sparse.params seed with the first array's dense row count set to ``rows``."""
    data = bytearray(_seed('sparse.params'))
    # header (24) + magic, stype (8) + storage shape (4 + 16) + dense shape ndim (4)
    assert struct.unpack_from('<q', data, 56)[0] == 4
    struct.pack_into('<q', data, 56, rows)
    return bytes(data)


def test_sparse_not_expanded_beyond_limit(monkeypatch):
    """A row_sparse array claiming 2**40 rows is refused, not densified."""
    got = mx.nd.load_frombuffer(_sparse_rows(4))  # MXNet's file loads
    np.testing.assert_array_equal(got[0].asnumpy(), got[1].asnumpy())
    with pytest.raises(MXNetError, match=r'array 0 is a sparse array of shape \(274877906944, '
                                         r'3\).*MXCOMPAT_MAX_SPARSE_DENSE_BYTES'):
        mx.nd.load_frombuffer(_sparse_rows(2 ** 38))
    with pytest.raises(MXNetError, match=r'array 0 shape \(1099511627776, 3\) has more than'):
        mx.nd.load_frombuffer(_sparse_rows(2 ** 40))
    with pytest.raises(MXNetError, match='array 0 is a sparse array'):
        monkeypatch.setenv('MXCOMPAT_MAX_SPARSE_DENSE_BYTES', '16')
        mx.nd.load_frombuffer(_sparse_rows(4))
    monkeypatch.setenv('MXCOMPAT_MAX_SPARSE_DENSE_BYTES', str(10 ** 6))
    assert mx.nd.load_frombuffer(_sparse_rows(1000))[0].shape == (1000, 3)


def test_load_parameters_bad_files(tmp_path):
    net = mx.gluon.nn.HybridSequential()
    with net.name_scope():
        net.add(mx.gluon.nn.Conv2D(2, 3, strides=(1, 1)), mx.gluon.nn.Dense(3))
    net.load_parameters(_write(tmp_path, 'ok.params', _seed('net.params')))
    path = _write(tmp_path, 'list.params', _seed('list.params'))
    with pytest.raises(MXNetError, match="'.*list.params' holds a list of 4 unnamed arrays"):
        net.load_parameters(path)
    renamed = _seed('net.params').replace(b'0.bias', b'0.bIas')
    path = _write(tmp_path, 'renamed.params', renamed)
    for kind in (MXNetError, AssertionError):  # MXNet raises AssertionError here
        with pytest.raises(kind, match="Parameter '0.bias' is missing in file '.*renamed"):
            net.load_parameters(path)


# ------------------------------------------------------------------------------ symbol JSON
def _symbol(change):
    doc = json.loads(_seed('net-symbol.json').decode('utf-8'))
    change(doc)
    return json.dumps(doc).replace('"@DEEP@"', '[' * 990 + ']' * 990)


def _conv(doc):
    return next(n for n in doc['nodes'] if n['op'] == 'Convolution')


def _set(path_fn, key, value):
    def change(doc):
        path_fn(doc)[key] = value
    return change


def _slice_node(doc):
    doc['nodes'].append({'op': 'SliceChannel', 'name': 's', 'inputs': [[0, 0, 0]],
                         'attrs': {'num_outputs': '2147483648'}})
    doc['heads'] = [[len(doc['nodes']) - 1, 0, 0]]


def _concat_node(doc):
    doc['nodes'].append({'op': 'Concat', 'name': 'c', 'inputs': [[0, 0, 0], [0, 0, 0]],
                         'attrs': {'num_args': '2147483648'}})
    doc['heads'] = [[len(doc['nodes']) - 1, 0, 0]]


@pytest.mark.parametrize('change, problem', [
    (_set(_conv, 'attrs', dict(kernel='(3, 3)', stride='(0, 0)', num_filter='2')),
     r'node 3 \("hybridsequential0_conv0_fwd"\): Invalid parameter stride=.* must be at least 1'),
    (_set(_conv, 'op', ['Convolution']), 'node 3 must be an object with string "op"'),
    (_set(_conv, 'inputs', [[5, 0, 0]]), 'node 3 .* input 0 refers to node 5, which does not '
                                         'precede it'),
    (_set(_conv, 'inputs', [[0, 7, 0]]), 'input 0 refers to output 7 of node 0'),
    (_set(_conv, 'inputs', [[0, '1e309', 0]]), 'input 0: bad entry'),
    (_set(_conv, 'attrs', {'kernel': ['(3, 3)']}), '"attrs" must be an object of strings'),
    (_concat_node, r'num_args=2147483648 but the node has 2 inputs'),
    (_slice_node, r'Invalid parameter num_outputs=.*|declares 2147483648 outputs'),
    (_set(lambda d: d['nodes'][1], 'attrs', {'__shape__': '(2, x)'}), 'invalid __shape__'),
    (_set(lambda d: d, 'heads', [[99, 0, 0]]), 'head 0 refers to node 99'),
    (_set(lambda d: d['nodes'][1], 'attrs', {'x': '@DEEP@'}),
     'nested too deeply|"attrs" must be an object of strings'),
])
def test_bad_symbol_json(change, problem, tmp_path):
    text = _symbol(change)
    start = time.time()
    with pytest.raises(MXNetError, match=problem):
        mx.sym.load_json(text)
    path = _write(tmp_path, 'bad-symbol.json', text)
    with pytest.raises(MXNetError, match=r'\(.*bad-symbol.json\): .*(%s)' % problem):
        mx.gluon.SymbolBlock.imports(path, ['data'])
    assert time.time() - start < 5


def test_symbol_json_nesting_and_encoding(tmp_path):
    with pytest.raises(MXNetError, match=r'\(JSON string\): nested too deeply'):
        mx.sym.load_json('[' * 100000 + ']' * 100000)
    data = _seed('net-symbol.json').replace(b'"data"', b'"d\xffta"')
    path = _write(tmp_path, 'latin-symbol.json', data)
    with pytest.raises(MXNetError, match=r'latin-symbol.json\): not UTF-8'):
        mx.sym.load(path)
    with pytest.raises(MXNetError, match=r'latin-symbol.json\): not UTF-8'):
        mx.gluon.SymbolBlock.imports(path, ['data'])


# ------------------------------------------------------------------------------ images
def _huge_jpeg(height, width):
    """The MXNet-packed JPEG record of the seed .rec, its frame header claiming HxW pixels."""
    rec = mx.recordio.MXRecordIO(_write_tmp('img.rec', _seed('img.rec')), 'r')
    record = bytearray(rec.read())
    rec.close()
    sof = record.index(b'\xff\xc0')
    struct.pack_into('>HH', record, sof + 5, height, width)
    return bytes(record)


def _write_tmp(name, data, _dirs=[]):  # noqa: B006  (one directory for the module)
    import tempfile
    if not _dirs:
        _dirs.append(tempfile.mkdtemp())
    path = os.path.join(_dirs[0], name)
    with open(path, 'wb') as f:
        f.write(data)
    return path


def test_unpack_img_pixel_limit(monkeypatch):
    header, img = mx.recordio.unpack_img(_huge_jpeg(6, 5))
    assert img.shape == (6, 5, 3)
    start = time.time()
    with pytest.raises(MXNetError, match='claims 13000x13000 pixels, more than the limit of '
                                         '134217728; set MXCOMPAT_IMAGE_MAX_PIXELS'):
        mx.recordio.unpack_img(_huge_jpeg(13000, 13000))
    assert time.time() - start < 1
    monkeypatch.setattr(_codec, 'MAX_PIXELS', 20)
    with pytest.raises(MXNetError, match='claims 5x6 pixels'):
        mx.recordio.unpack_img(_huge_jpeg(6, 5))
