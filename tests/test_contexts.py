"""Contexts against real MXNet 1.9.1: operator results keep a host context other than cpu(0),
recurrent cells unrolled on cpu(1) run there, pickled and deep-copied arrays come back on
cpu(0); with cpu(1) the default context, loaded arrays and parameters, images, DataLoader
batches and executors land where MXNet puts them, and mixed contexts raise as in MXNet; and
MXNet's errors for GPUs that are absent. Expected values were written by
scripts/fixture_writers/contexts.py under real MXNet."""
import os

import numpy as np
import pytest
import torch

import mxcompat as mx
from mxcompat.base import MXNetError
from scripts.fixture_writers import contexts

from conftest import FIXTURES

WANT = dict(np.load(os.path.join(FIXTURES, 'contexts', 'contexts.npz')))
_GOT = []


def _results():
    if not _GOT:
        with mx.cpu(0):
            _GOT.append(contexts.run(mx))
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(WANT))
def test_contexts(key):
    got, want = _results()[key], WANT[key]
    if want.dtype.kind == 'U':
        assert str(got) == str(want), key
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=key)


@pytest.mark.skipif(torch.cuda.is_available(), reason='a CUDA GPU is present')
def test_absent_gpu_raises_mxneterror():
    ctx = mx.gpu(0)  # making the Context works, as in MXNet
    assert str(ctx) == 'gpu(0)'
    with pytest.raises(MXNetError, match=r'gpu\(0\) is not available'):
        mx.nd.ones((2,), ctx=ctx)
    with pytest.raises(MXNetError, match=r'gpu\(0\) is not available'):
        mx.nd.ones((2,)).as_in_context(ctx)
    with pytest.raises(MXNetError, match=r'gpu\(0\) is not available'):
        mx.gluon.nn.Dense(2, in_units=2).initialize(ctx=ctx)


def test_float32_is_not_tf32_by_default():
    # MXNet 1.9.1 computes float32 convolutions, RNNs and matrix products in float32
    if os.environ.get('MXCOMPAT_ALLOW_TF32'):
        pytest.skip('MXCOMPAT_ALLOW_TF32 is set')
    assert not torch.backends.cudnn.allow_tf32
    assert not torch.backends.cuda.matmul.allow_tf32
    before = mx.context.allow_tf32(True)
    try:
        assert before is False and torch.backends.cudnn.allow_tf32
    finally:
        mx.context.allow_tf32(before)
    assert not torch.backends.cudnn.allow_tf32
