"""mx.np calls that the generated functions' kernels (the torch function an entry registers)
leave to the entry: a number beyond the array type's range, ``axis=None``, a negative axis, and
products of other than two matrices. Expected values from real MXNet 1.9.1."""
import pytest

import mxcompat as mx


@pytest.fixture(autouse=True)
def np_mode():
    mx.npx.set_np()
    yield
    mx.npx.reset_np()


BIG = 1.1805916207174113e+21  # 2 ** 70 in float32


@pytest.mark.parametrize('name, expected', [
    ('maximum', [[BIG, BIG], [BIG, BIG]]),
    ('minimum', [[-2.5, 0.5], [3.0, -1.0]]),
    ('add', [[BIG, BIG], [BIG, BIG]]),
    ('multiply', [[-2.951479051793528e+21, 5.902958103587057e+20],
                  [3.541774862152234e+21, -1.1805916207174113e+21]]),
])
def test_scalar_beyond_int64(name, expected):
    x = mx.np.array([[-2.5, 0.5], [3.0, -1.0]], dtype='float32')
    r = getattr(mx.np, name)(x, 2 ** 70)
    assert r.dtype == 'float32'
    assert r.asnumpy().tolist() == expected


def test_scalar_comparison_beyond_int64():
    x = mx.np.array([[-2.5, 0.5], [3.0, -1.0]], dtype='float32')
    r = mx.np.greater(x, 2 ** 70)
    assert r.dtype == bool
    assert r.asnumpy().tolist() == [[False, False], [False, False]]


def test_join_axes():
    a = mx.np.array([[1., 2.], [3., 4.]])
    b = mx.np.array([[5., 6.]])
    assert mx.np.concatenate([a, b], axis=None).asnumpy().tolist() == [1, 2, 3, 4, 5, 6]
    assert mx.np.stack([a, a], axis=-1).shape == (2, 2, 2)


def test_dot_other_than_matrices():
    a = mx.np.array([[1., 2.], [3., 4.]])
    v = mx.np.array([1., 2.])
    t3 = mx.np.arange(8).reshape(2, 2, 2)
    assert mx.np.dot(v, a).asnumpy().tolist() == [7.0, 10.0]
    assert mx.np.dot(t3, a).asnumpy().tolist() == [[[3.0, 4.0], [11.0, 16.0]],
                                                   [[19.0, 28.0], [27.0, 40.0]]]
    assert mx.np.dot(v, v).asnumpy().tolist() == 5.0


def test_reflected_scalar_beyond_int64():
    x = mx.np.array([1., 2.])
    assert mx.np.subtract(2 ** 70, x).asnumpy().tolist() == [BIG, BIG]
