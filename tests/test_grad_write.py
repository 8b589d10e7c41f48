"""grad_req semantics of autograd against real MXNet 1.9.1: 'write' buffers overwritten in
place (held references, slices of a larger array, large arrays), 'add' accumulating,
unreached variables keeping their gradients, a retained graph differentiated twice. Expected
arrays were written by scripts/fixture_writers/grad_write.py under real MXNet."""
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers import grad_write

from conftest import FIXTURES

WANT = dict(np.load(os.path.join(FIXTURES, 'grad_write', 'grad_write.npz')))
_GOT = []


def _results():
    if not _GOT:
        _GOT.append(grad_write.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(WANT))
def test_grad_write(key):
    got = _results()[key]
    want = WANT[key]
    assert got.shape == want.shape and got.dtype == want.dtype, key
    np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=key)


def test_torch_backward_writes():
    """A backward run by torch's own API on the variables' tensors (a program that mixes torch
    code with MXNet code) keeps MXNet's 'write': the buffers, held ones included, take each
    pass's gradient in place, and a variable the pass does not reach keeps its gradient. The
    cases of the fixture, with the same values."""
    x = mx.nd.array(np.array([1., 2., 3.], np.float32))
    x.attach_grad()
    held = x.grad
    xt = x.to_torch()
    (xt * xt).sum().backward()
    np.testing.assert_allclose(x.grad.asnumpy(), WANT['write/first'], rtol=1e-6)
    (xt * 3).sum().backward()
    np.testing.assert_allclose(x.grad.asnumpy(), WANT['write/second'], rtol=1e-6)
    np.testing.assert_allclose(held.asnumpy(), WANT['write/held'], rtol=1e-6)

    a = mx.nd.array(np.array([1., -2.], np.float32))
    b = mx.nd.array(np.array([0.5, 4.], np.float32))
    a.attach_grad()
    b.attach_grad()
    (a.to_torch() * b.to_torch()).sum().backward()
    (a.to_torch() ** 3).sum().backward()
    np.testing.assert_allclose(a.grad.asnumpy(), WANT['unreached/a'], rtol=1e-6)
    np.testing.assert_allclose(b.grad.asnumpy(), WANT['unreached/b'], rtol=1e-6)

    e = mx.nd.array(np.linspace(-1, 1, 20000, dtype=np.float32).reshape(200, 100))
    e.attach_grad()
    held, held_part = e.grad, e.grad[10:12]
    et = e.to_torch()
    for k in (1., 0.5):
        (et * et * k).sum().backward()
    np.testing.assert_allclose(e.grad.asnumpy(), WANT['large/grad'], rtol=1e-6)
    np.testing.assert_allclose(held.asnumpy(), WANT['large/held'], rtol=1e-6)
    np.testing.assert_allclose(held_part.asnumpy(), WANT['large/held-slice'], rtol=1e-6)
