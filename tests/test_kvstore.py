"""mx.kv against what real MXNet 1.9.1's key-value stores hold (tests/fixtures/kvstore/).

The scenarios are scripts/fixture_writers/kvstore.py's, run here with mxcompat. The
distributed ones run in two processes on torch.distributed (gloo) and are compared with a
two-worker run of MXNet's parameter server.
"""
import os
import time

import numpy as np
import pytest
import torch.distributed as dist
import torch.multiprocessing as mp

import mxcompat as mx
import mxcompat.kvstore  # noqa: F401  (until mxcompat/__init__ imports it)
import mxcompat.module  # noqa: F401
from mxcompat.base import MXNetError
from mxcompat.optimizer.state_file import loads
from scripts.fixture_writers.kvstore import local_scenarios, resume_scenario, dist_worker

from conftest import FIXTURES

HERE = os.path.join(FIXTURES, 'kvstore')
with np.load(os.path.join(HERE, 'local.npz')) as _z:
    WANT = dict(_z)


def _same(got, want):
    if want.dtype.kind in 'USO':
        assert got.tolist() == want.tolist()
    else:
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.fixture(scope='module')
def got(tmp_path_factory):
    return local_scenarios(mx, str(tmp_path_factory.mktemp('kv')))


def _same_states(got, want):
    """Optimizer states files: the same pickle layout (length, keys, array types and shapes)
    holding the same numbers (float rounding of the update aside)."""
    assert got.shape == want.shape
    g, w = loads(got.tobytes()), loads(want.tobytes())
    assert sorted(g) == sorted(w)
    for key in w:
        assert type(g[key]) is type(w[key]), key
        _same(g[key].asnumpy(), w[key].asnumpy())


@pytest.mark.parametrize('name', sorted(k for k in WANT if k != 'resume_sgd'))
def test_local(name, got):
    if name.endswith('_states_bytes'):
        _same_states(got[name], WANT[name])
    else:
        _same(got[name], WANT[name])


def test_resume_from_mxnet_states(tmp_path):
    states = tmp_path / 'sgd.states'
    states.write_bytes(WANT['sgd_local_states_bytes'].tobytes())
    _same(resume_scenario(mx, str(states)), WANT['resume_sgd'])


def test_sparse_and_dist_errors():
    kv = mx.kvstore.create('local')
    kv.init('w', mx.nd.zeros((2, 2)))
    with pytest.raises(MXNetError, match='row_sparse'):
        kv.row_sparse_pull('w', out=mx.nd.zeros((2, 2)), row_ids=mx.nd.array([0]))
    with pytest.raises(MXNetError, match="doesn't exist"):
        kv.push('v', mx.nd.zeros((2, 2)))
    env = {k: os.environ.pop(k) for k in ('WORLD_SIZE',) if k in os.environ}
    try:
        with pytest.raises(MXNetError, match='torchrun'):
            mx.kvstore.create('dist_sync')
    finally:
        os.environ.update(env)


def _dist_entry(rank, kv_type, port, outdir):
    os.environ.update(MASTER_ADDR='127.0.0.1', MASTER_PORT=str(port), RANK=str(rank),
                      WORLD_SIZE='2', LOCAL_RANK=str(rank), TORCHELASTIC_USE_AGENT_STORE='True',
                      TORCHELASTIC_RESTART_COUNT='0')
    import mxcompat
    import mxcompat.kvstore  # noqa: F401
    import mxcompat.module  # noqa: F401
    import torch.distributed as dist
    res = dist_worker(mxcompat, kv_type)
    np.savez(os.path.join(outdir, 'w%d.npz' % rank), **res)
    dist.barrier()
    dist.destroy_process_group()
    # torch's c10d teardown at interpreter exit aborts now and then (1 run in 8 to 15 here:
    # "terminate called without an active exception", after destroy_process_group returned
    # on both ranks): the results are saved, so the worker leaves without that teardown
    os._exit(0)


@pytest.mark.parametrize('kv_type', ['dist_sync', 'dist_async'])
def test_dist_two_workers(kv_type, tmp_path):
    # the rendezvous store is hosted here, as torchrun's agent hosts it, on a port it holds
    # from the start: the workers only connect to it
    store = dist.TCPStore('127.0.0.1', 0, 2, is_master=True, wait_for_workers=False)
    ctx = mp.start_processes(_dist_entry, args=(kv_type, store.port, str(tmp_path)),
                             nprocs=2, join=False, start_method='spawn')
    deadline = time.time() + 240
    try:
        while not ctx.join(timeout=5):
            assert time.time() < deadline, 'the distributed run did not finish in time'
    finally:
        for p in ctx.processes:
            if p.is_alive():
                p.kill()
    for rank in range(2):
        with np.load(str(tmp_path / ('w%d.npz' % rank))) as got, \
                np.load(os.path.join(HERE, '%s_rank%d.npz' % (kv_type, rank))) as want:
            assert sorted(got.files) == sorted(want.files)
            for name in want.files:
                _same(got[name], want[name])
