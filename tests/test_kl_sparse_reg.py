"""IdentityAttachKLSparseReg against real MXNet run through a bound symbol."""
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers.kl_sparse_reg import CONFIGS, inputs

from conftest import FIXTURES

PATH = os.path.join(FIXTURES, 'kl_sparse_reg', 'kl_sparse_reg.npz')


@pytest.mark.parametrize('name', sorted(CONFIGS))
def test_kl_sparse_reg(name):
    want = np.load(PATH)
    data, heads, moving_avg = inputs(name)
    avg = mx.nd.array(moving_avg)
    for step in range(2):
        x = mx.nd.array(data[step])
        x.attach_grad()
        with mx.autograd.record():
            y = mx.nd.IdentityAttachKLSparseReg(x, avg, **CONFIGS[name])
        y.backward(mx.nd.array(heads[step]))
        key = '%s/%d/' % (name, step)
        np.testing.assert_allclose(y.asnumpy(), want[key + 'out'], rtol=1e-6)
        np.testing.assert_allclose(x.grad.asnumpy(), want[key + 'grad'], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(avg.asnumpy(), want[key + 'moving_avg'], rtol=1e-6)


def test_kl_sparse_reg_needs_moving_avg():
    with pytest.raises(mx.base.MXNetError):
        mx.nd.IdentityAttachKLSparseReg(mx.nd.ones((2, 3)))


@pytest.mark.parametrize('name', sorted(CONFIGS))
def test_kl_sparse_reg_symbol(name):
    want = np.load(PATH)
    data, heads, moving_avg = inputs(name)
    sym = mx.sym.IdentityAttachKLSparseReg(mx.sym.var('data'), name='kl', **CONFIGS[name])
    assert sym.list_auxiliary_states() == ['kl_moving_avg']
    exe = sym.simple_bind(mx.cpu(), data=(4, 3))
    exe.aux_dict['kl_moving_avg'][:] = moving_avg
    for step in range(2):
        exe.arg_dict['data'][:] = data[step]
        out = exe.forward(is_train=True)[0]
        exe.backward(mx.nd.array(heads[step]))
        key = '%s/%d/' % (name, step)
        np.testing.assert_allclose(out.asnumpy(), want[key + 'out'], rtol=1e-6)
        np.testing.assert_allclose(exe.grad_dict['data'].asnumpy(), want[key + 'grad'],
                                   rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(exe.aux_dict['kl_moving_avg'].asnumpy(),
                                   want[key + 'moving_avg'], rtol=1e-6)
