"""MXNet's NumPy interface (mx.np / mx.npx) against real MXNet 1.9.1: ndarray semantics (type
promotion, 0-d and zero-size arrays, indexing, assignment, broadcasting), mx.np / np.linalg
functions, npx operators, a NumPy-mode Gluon model trained two steps, and ``npx.save`` files
with 0-d arrays; mx.np operator behaviour MXNet's own test_numpy_op.py leaves open (gradients of
integer arrays, MXNet's own rounding and accumulation rules, ...). Expected values were written
by scripts/fixture_writers/numpy_interface.py and numpy_op_semantics.py under real MXNet."""
import os

import numpy as onp
import pytest

import mxcompat as mx
from scripts.fixture_writers import numpy_interface, numpy_op_semantics

from conftest import FIXTURES

DIR = os.path.join(FIXTURES, 'numpy_interface')
WANT = dict(onp.load(os.path.join(DIR, 'numpy_interface.npz')))
WANT_OPS = dict(onp.load(os.path.join(FIXTURES, 'numpy_op_semantics', 'numpy_op_semantics.npz')))
_GOT = {}


def _results(writer):
    if writer not in _GOT:
        _GOT[writer] = writer.run(mx)
    return _GOT[writer]


@pytest.mark.parametrize('key', sorted(WANT))
def test_numpy_interface(key):
    assert_like_mxnet(key, _results(numpy_interface)[key], WANT[key])


@pytest.mark.parametrize('key', sorted(WANT_OPS))
def test_numpy_op_semantics(key):
    assert_like_mxnet(key, _results(numpy_op_semantics)[key], WANT_OPS[key])


def assert_like_mxnet(key, got, want):
    """``got`` (mxcompat's result for case ``key``) has the shape, dtype and values of
    ``want`` (real MXNet's)."""
    assert got.shape == want.shape, (key, got.shape, want.shape)
    assert got.dtype == want.dtype, (key, got.dtype, want.dtype)
    if want.dtype.kind == 'f':
        onp.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=key)
    else:
        onp.testing.assert_array_equal(got, want, err_msg=key)


def test_npx_load_reads_mxnet_files():
    loaded = mx.npx.load(os.path.join(DIR, 'npx_save.params'))
    want = numpy_interface.saved_arrays(mx)
    assert sorted(loaded) == sorted(want)
    for k, v in loaded.items():
        assert type(v) is mx.np.ndarray
        assert v.shape == want[k].shape and v.dtype == want[k].dtype, k
        onp.testing.assert_array_equal(v.asnumpy(), want[k].asnumpy())
    listed = mx.npx.load(os.path.join(DIR, 'npx_save_list.params'))
    assert [a.shape for a in listed] == [(), (2,)]


@pytest.mark.parametrize('name, data', [
    ('npx_save.params', lambda: numpy_interface.saved_arrays(mx)),
    ('npx_save_list.params', lambda: [mx.np.array(1.0), mx.np.ones((2,))])])
def test_npx_save_writes_mxnet_bytes(tmp_path, name, data):
    # MXNet writes NumPy-shape mode's format (V3 arrays) after npx.set_np(); the arrays' context
    # is in the file: MXNet's were made with cpu(0) as the default context
    path = str(tmp_path / name)
    with mx.util.np_shape(True), mx.cpu(0):
        mx.npx.save(path, data())
    with open(path, 'rb') as f, open(os.path.join(DIR, name), 'rb') as g:
        assert f.read() == g.read()


def test_hybrid_cases_compiled():
    """A compiled graph gives MXNet's relu gradient for an input with a NaN and clips pick's
    indices after a first call without either (the host's tests must not be taken into the
    compiled graph)."""
    got = {}
    mx.npx.set_np()
    try:
        numpy_op_semantics.hybrid_cases(mx, got, backend='eager', fullgraph=True)
    finally:
        mx.npx.reset_np()
    for key, value in got.items():
        assert_like_mxnet(key, value, WANT_OPS[key])
