"""Saves survive kill -9: the target is always a complete old or new file, the temporary files a
killed save leaves (named .<target>.<pid>.<random>.tmp) are removed by the next save of the same
target, and a checkpoint interrupted while its files replace each other is refused on load."""
import os
import random
import signal
import time

import pytest

import mxcompat as mx
from mxcompat.base import MXNetError
from mxcompat.utils import fileio

TRIALS = 6  # per API in the default run; test_kill_trials_long runs 100


def _net(value):
    net = mx.gluon.nn.HybridSequential()
    with net.name_scope():
        net.add(mx.gluon.nn.Dense(64, in_units=256))
    net.initialize(mx.init.Constant(value))
    net.hybridize()
    net(mx.nd.ones((1, 256)))
    return net


def _module(value):
    out = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=64, name='fc')
    mod = mx.mod.Module(out, label_names=None)
    mod.bind(data_shapes=[('data', (1, 256))])
    mod.init_params(mx.init.Constant(value))
    mod.init_optimizer(optimizer='sgd', optimizer_params={'momentum': 0.9})
    return mod


def _trainer(value):
    net = _net(value)
    trainer = mx.gluon.Trainer(net.collect_params(), 'sgd', {'momentum': 0.9,
                                                             'learning_rate': value})
    with mx.autograd.record():
        loss = net(mx.nd.ones((1, 256))).sum()
    loss.backward()
    trainer.step(1)
    return trainer


# api -> (make(value) -> object, save(obj, dir), load(dir))
def _save_nd(obj, d):
    mx.nd.save(os.path.join(d, 'x.params'), obj)


def _load_nd(d):
    mx.nd.load(os.path.join(d, 'x.params'))


def _load_params(d):
    _net(0).load_parameters(os.path.join(d, 'net.params'))


def _load_export(d):
    mx.gluon.SymbolBlock.imports(os.path.join(d, 'net-symbol.json'), ['data'],
                                 os.path.join(d, 'net-0000.params'))


def _load_states(d):
    _trainer(1).load_states(os.path.join(d, 'x.states'))


def _load_checkpoint(d):
    mod = mx.mod.Module.load(os.path.join(d, 'ck'), 1, load_optimizer_states=True,
                             label_names=None)
    return float(mod._arg_params['fc_weight'][0, 0].asscalar())


APIS = {
    'nd.save': (lambda v: {'w': mx.nd.full((2 ** 18,), v)}, _save_nd, _load_nd),
    'save_parameters': (_net, lambda n, d: n.save_parameters(os.path.join(d, 'net.params')),
                        _load_params),
    'export': (_net, lambda n, d: n.export(os.path.join(d, 'net')), _load_export),
    'save_states': (_trainer, lambda t, d: t.save_states(os.path.join(d, 'x.states')),
                    _load_states),
    'save_checkpoint': (_module, lambda m, d: m.save_checkpoint(os.path.join(d, 'ck'), 1,
                                                                save_optimizer_states=True),
                        _load_checkpoint),
}


def _temps(d):
    return sorted(n for n in os.listdir(d) if n.endswith('.tmp') or n.endswith('.saving'))


def _files(d):
    return {n: open(os.path.join(d, n), 'rb').read() for n in sorted(os.listdir(d))
            if not n.startswith('.')}


def _kill_trials(api, tmp_path, trials):
    """Kill a process saving two versions in turn; returns how many kills left temporary
    files behind."""
    make, save, load = APIS[api]
    objs = {1.0: make(1.0), 2.0: make(2.0)}
    want = {}
    for v, obj in objs.items():  # the bytes each version's files have
        os.makedirs(str(tmp_path / str(v)))
        save(obj, str(tmp_path / str(v)))
        want[v] = _files(str(tmp_path / str(v)))
    assert want[1.0] != want[2.0]
    d = str(tmp_path / 'target')
    os.makedirs(d)
    save(objs[1.0], d)
    rng = random.Random(api)
    killed_with_temps = 0
    for _ in range(trials):
        pid = os.fork()
        if pid == 0:  # the child saves the two versions in turn until it is killed
            try:
                while True:
                    save(objs[2.0], d)
                    save(objs[1.0], d)
            finally:
                os._exit(0)
        time.sleep(rng.uniform(0.0, 0.3))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        left = _temps(d)
        killed_with_temps += bool(left)
        got = _files(d)
        assert sorted(got) == sorted(want[1.0])
        for name, data in got.items():  # a complete file of one save or the other
            assert data in (want[1.0][name], want[2.0][name]), name
        if any(n.endswith('.saving') for n in left):  # killed while replacing the set
            with pytest.raises(MXNetError, match='was interrupted while replacing them'):
                load(d)
        else:  # the files of a set come from one save
            assert got in (want[1.0], want[2.0])
            load(d)
        save(objs[1.0], d)  # the next save removes what the killed one left
        assert _temps(d) == []
        assert _files(d) == want[1.0]
    return killed_with_temps


@pytest.mark.parametrize('api', sorted(APIS))
def test_kill_trials(api, tmp_path):
    _kill_trials(api, tmp_path, TRIALS)


@pytest.mark.slow
@pytest.mark.parametrize('api', sorted(APIS))
def test_kill_trials_long(api, tmp_path):
    """100 kill -9 trials per save API (python -m pytest -m slow tests/test_atomic_writes.py)."""
    left = _kill_trials(api, tmp_path, 100)
    print('%s: 100 kill -9 trials, %d left temporary files' % (api, left))
    assert left > 0  # some kills landed while a file was being written


def test_live_writers_temporary_file_is_kept(tmp_path):
    target = str(tmp_path / 'x.params')
    fd, other = fileio.open_aside(target)  # a write in progress in this process
    stale = str(tmp_path / ('.x.params.%d.abc.tmp' % _dead_pid()))
    open(stale, 'w').close()
    mx.nd.save(target, [mx.nd.ones((2,))])
    assert os.path.exists(other) and not os.path.exists(stale)
    os.close(fd)
    fileio.discard(other)


def _dead_pid():
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return pid


def test_interrupted_checkpoint_is_refused(tmp_path, monkeypatch):
    """A crash between the renames of a checkpoint's files leaves a marker: loading refuses
    the mixed set, and the next save repairs it."""
    prefix = str(tmp_path / 'ck')
    _module(1.0).save_checkpoint(prefix, 1, save_optimizer_states=True)
    real_replace = os.replace
    calls = []

    def crash_after_first(src, dst):
        if dst.endswith('.params') and calls:
            raise KeyboardInterrupt('killed')
        calls.append(dst)
        real_replace(src, dst)
    monkeypatch.setattr(os, 'replace', crash_after_first)
    with pytest.raises(KeyboardInterrupt):
        _module(2.0).save_checkpoint(prefix, 1, save_optimizer_states=True)
    monkeypatch.setattr(os, 'replace', real_replace)
    assert _temps(str(tmp_path)) == ['.ck-0001.params.saving']
    with pytest.raises(MXNetError, match=r"load_checkpoint\('.*ck', 1\): the save that wrote "
                                         r'.*ck-symbol.json.*was interrupted'):
        mx.mod.Module.load(prefix, 1, load_optimizer_states=True, label_names=None)
    _module(2.0).save_checkpoint(prefix, 1, save_optimizer_states=True)
    assert _temps(str(tmp_path)) == []
    assert _load_checkpoint(str(tmp_path)) == 2.0
