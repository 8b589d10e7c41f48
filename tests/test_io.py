"""mx.io iterators against the batches real MXNet 1.9.1 produced on the same data."""
import gzip
import json
import os
import shutil

import numpy as np
import pytest

import mxcompat as mx
import mxcompat.io  # noqa: F401  (until mxcompat/__init__ imports it)
from scripts.fixture_writers.io_iters import CASES, misc, record

from conftest import FIXTURES

SRC = os.path.join(FIXTURES, 'io_iters')


@pytest.fixture(scope='module')
def want():
    with open(os.path.join(SRC, 'io_iters.json')) as f:
        meta = json.load(f)
    return meta, np.load(os.path.join(SRC, 'io_iters.npz'))


def _compare(name, got, want_meta, want_arrays):
    meta, arrays = got
    assert meta == want_meta
    keys = sorted(k for k in want_arrays.files if k.startswith(name + '/'))
    assert sorted(arrays) == keys
    for k in keys:
        assert arrays[k].dtype == want_arrays[k].dtype, k
        np.testing.assert_array_equal(arrays[k], want_arrays[k], err_msg=k)


@pytest.mark.parametrize('name', sorted(CASES))
def test_iterator(name, want):
    _compare(name, record(mx, name, SRC), want[0][name], want[1])


def test_data_desc_and_batch(want):
    assert misc(mx) == want[0]['_misc']


def test_mnist_reads_gzip(want, tmp_path):
    for f in ('small-idx3', 'small-idx1'):
        with open(os.path.join(SRC, f), 'rb') as src, gzip.open(str(tmp_path / f), 'wb') as dst:
            shutil.copyfileobj(src, dst)
    _compare('mnist-plain', record(mx, 'mnist-plain', str(tmp_path)),
             want[0]['mnist-plain'], want[1])


def test_native_iterator_errors():
    csv = os.path.join(SRC, 'data.csv')
    with pytest.raises(mx.base.MXNetError, match='data_shape'):
        mx.io.CSVIter(data_csv=csv, batch_size=2)
    with pytest.raises(mx.base.MXNetError, match='do not match size of shape'):
        mx.io.CSVIter(data_csv=csv, data_shape=(4,), batch_size=2)
    with pytest.raises(mx.base.MXNetError, match='float64 is not supported'):
        mx.io.CSVIter(data_csv=csv, data_shape=(6,), batch_size=2, dtype='float64')
    with pytest.raises(mx.base.MXNetError, match='bigger than batch size'):
        mx.io.CSVIter(data_csv=csv, data_shape=(6,), batch_size=40)
    with pytest.raises(TypeError, match='keyword arguments'):
        mx.io.CSVIter(csv, data_shape=(6,), batch_size=2)
    with pytest.raises(mx.base.MXNetError, match='No such file'):
        mx.io.MNISTIter(image=os.path.join(SRC, 'missing'), batch_size=2)
    with pytest.raises(StopIteration):   # as MXNet: fewer examples than one batch
        mx.io.MNISTIter(image=os.path.join(SRC, 'small-idx3'),
                        label=os.path.join(SRC, 'small-idx1'), batch_size=50, silent=True)
    with pytest.raises(NotImplementedError, match='LibSVMIter'):
        mx.io.LibSVMIter(data_libsvm=csv, data_shape=(3,), batch_size=2)


def test_mnist_output_dtype(want):
    # MXNet 1.9.1 fails on MNISTIter(dtype='float16'); mxcompat casts its float32 batches
    it = mx.io.MNISTIter(image=os.path.join(SRC, 'small-idx3'),
                         label=os.path.join(SRC, 'small-idx1'), batch_size=5, shuffle=False,
                         silent=True, dtype='float16')
    batch = it.next()
    for got, key in ((batch.data[0], 'data0'), (batch.label[0], 'label0')):
        assert got.dtype == np.float16
        np.testing.assert_array_equal(got.asnumpy(),
                                      want[1]['mnist-plain/0/' + key].astype(np.float16))
