"""A dist_sync worker that stops answering (SIGSTOP) or dies (SIGKILL) mid-training: the other
worker raises MXNetError naming its rank, within MXNET_KVSTORE_TIMEOUT plus 10 s."""
import os
import signal
import time

import pytest
import torch.distributed as dist
import torch.multiprocessing as mp

TIMEOUT_S = 4


def _worker(rank, port, outdir, how):
    os.environ.update(MASTER_ADDR='127.0.0.1', MASTER_PORT=str(port), RANK=str(rank),
                      WORLD_SIZE='2', LOCAL_RANK=str(rank), TORCHELASTIC_USE_AGENT_STORE='True',
                      TORCHELASTIC_RESTART_COUNT='0', MXNET_KVSTORE_TIMEOUT=str(TIMEOUT_S),
                      MXNET_KVSTORE_TIMEOUT_GRACE='2', OMP_NUM_THREADS='1')
    import mxcompat as mx
    import mxcompat.kvstore  # noqa: F401
    from mxcompat.base import MXNetError
    kv = mx.kv.create('dist_sync')
    kv.init(3, mx.nd.ones((4,)))
    out = mx.nd.zeros((4,))
    try:
        for step in range(4):
            if rank == 1 and step == 2:
                with open(os.path.join(outdir, 'stopped'), 'w') as f:
                    f.write(repr(time.time()))
                os.kill(os.getpid(), signal.SIGSTOP if how == 'stop' else signal.SIGKILL)
            kv.push(3, mx.nd.ones((4,)))
            kv.pull(3, out=out)
    except MXNetError as err:
        with open(os.path.join(outdir, 'error%d' % rank), 'w') as f:
            f.write('%r\n%s' % (time.time(), err))
    os._exit(0)  # the process group is broken: leave without torch's teardown


@pytest.mark.parametrize('how', ['stop', 'kill'])
def test_unresponsive_worker(how, tmp_path):
    store = dist.TCPStore('127.0.0.1', 0, 2, is_master=True, wait_for_workers=False)
    ctx = mp.start_processes(_worker, args=(store.port, str(tmp_path), how), nprocs=2,
                             join=False, start_method='spawn')
    error = tmp_path / 'error0'
    try:
        deadline = time.time() + 180
        while not error.exists() or not error.read_text().count('\n'):
            assert time.time() < deadline, 'rank 0 did not fail in time'
            time.sleep(0.2)
        stopped = float((tmp_path / 'stopped').read_text())
        failed, message = error.read_text().split('\n', 1)
        print('%s: rank 0 failed %.1f s after rank 1 stopped: %s' % (how, float(failed) - stopped,
                                                                     message))
        assert float(failed) - stopped < TIMEOUT_S + 10
        assert 'rank 1 did not answer' in message, message
        assert 'kvstore all_reduce on rank 0 of 2 failed' in message, message
    finally:
        for p in ctx.processes:
            if p.is_alive():
                p.kill()
                p.join(10)


def _lonely_worker(rank, port, outdir):
    os.environ.update(MASTER_ADDR='127.0.0.1', MASTER_PORT=str(port), RANK='0',
                      WORLD_SIZE='2', LOCAL_RANK='0', TORCHELASTIC_USE_AGENT_STORE='True',
                      TORCHELASTIC_RESTART_COUNT='0', MXNET_KVSTORE_TIMEOUT=str(TIMEOUT_S),
                      OMP_NUM_THREADS='1')
    import mxcompat as mx
    import mxcompat.kvstore  # noqa: F401
    from mxcompat.base import MXNetError
    start = time.time()
    try:
        kv = mx.kv.create('dist_sync')
        kv.init(3, mx.nd.ones((4,)))
        message = 'no error'
    except MXNetError as err:
        message = str(err)
    with open(os.path.join(outdir, 'result'), 'w') as f:
        f.write('%r\n%s' % (time.time() - start, message))
    os._exit(0)


def test_worker_that_never_comes(tmp_path):
    """The process group's start waits MXNET_KVSTORE_TIMEOUT for the other workers."""
    store = dist.TCPStore('127.0.0.1', 0, 2, is_master=True, wait_for_workers=False)
    ctx = mp.start_processes(_lonely_worker, args=(store.port, str(tmp_path)), nprocs=1,
                             join=False, start_method='spawn')
    try:
        assert ctx.join(timeout=120)
        took, message = (tmp_path / 'result').read_text().split('\n', 1)
        assert float(took) < TIMEOUT_S + 10
        assert "kvstore 'dist_sync': the process group did not start within 4 s " \
               '(MXNET_KVSTORE_TIMEOUT): rank 0 of 2' in message, message
    finally:
        for p in ctx.processes:
            if p.is_alive():
                p.kill()


_TORCHRUN_WORKER = '''
import os, signal, sys, time
import mxcompat as mx
import mxcompat.kvstore
from mxcompat.base import MXNetError
rank = int(os.environ['RANK'])
kv = mx.kv.create('dist_sync')
kv.init(3, mx.nd.ones((4,)))
out = mx.nd.zeros((4,))
try:
    for step in range(4):
        if rank == 1 and step == 2:
            print('STOPPED %r' % time.time(), flush=True)
            os.kill(os.getpid(), signal.SIGSTOP)
        kv.push(3, mx.nd.ones((4,)))
        kv.pull(3, out=out)
except MXNetError as err:
    print('FAILED %r %s' % (time.time(), err), flush=True)
    sys.exit(1)
'''


@pytest.mark.slow
def test_unresponsive_worker_under_torchrun(tmp_path):
    """The same with torchrun's own agent: rank 1 stops (SIGSTOP), rank 0 raises MXNetError
    naming it within MXNET_KVSTORE_TIMEOUT plus 10 s, and torchrun ends the job."""
    import socket
    import subprocess
    import sys
    script = tmp_path / 'worker.py'
    script.write_text(_TORCHRUN_WORKER)
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        port = s.getsockname()[1]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, MXNET_KVSTORE_TIMEOUT=str(TIMEOUT_S), MXNET_KVSTORE_TIMEOUT_GRACE='2',
               OMP_NUM_THREADS='1', PYTHONPATH=root)
    proc = subprocess.run([sys.executable, '-m', 'torch.distributed.run', '--nproc_per_node',
                           '2', '--master_addr', '127.0.0.1', '--master_port', str(port),
                           str(script)], env=env, capture_output=True, text=True, timeout=300)
    lines = proc.stdout.splitlines()
    stopped = float(next(l for l in lines if l.startswith('STOPPED')).split()[1])
    failed = next(l for l in lines if l.startswith('FAILED'))
    assert float(failed.split()[1]) - stopped < TIMEOUT_S + 10, failed
    assert 'rank 1 did not answer' in failed, failed
    assert proc.returncode != 0
