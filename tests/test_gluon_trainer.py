"""gluon.Trainer against real MXNet 1.9.1 (tests/fixtures/gluon_trainer/, written by
scripts/fixture_writers/gluon_trainer.py, whose scenarios run here with mxcompat)."""
import json
import os
import pickle
import shutil

import numpy as np
import pytest

import mxcompat as mx
from mxcompat.base import MXNetError
from mxcompat.optimizer.state_file import loads
from scripts.fixture_writers import gluon_trainer as W

from conftest import FIXTURES

HERE = os.path.join(FIXTURES, 'gluon_trainer')
with np.load(os.path.join(HERE, 'trainer.npz')) as _z:
    WANT = dict(_z)
with open(os.path.join(HERE, 'trainer.json')) as _f:
    WANT_TEXT = json.load(_f)


def _check(got, prefix):
    keys = [k for k in WANT if k.startswith(prefix + '/')]
    assert keys, prefix
    for k in keys:
        np.testing.assert_allclose(got[k], WANT[k], rtol=1e-5, atol=1e-6, err_msg=k)


@pytest.fixture(scope='module')
def special():
    out, texts = {}, {}
    W.special_scenarios(mx, out, texts)
    return out, texts


@pytest.mark.parametrize('case', W.TRAIN_CASES, ids=[c[0] for c in W.TRAIN_CASES])
def test_training_matches_mxnet(case):
    out = {}
    W.run_training(mx, *case, out=out)
    _check(out, case[0])


@pytest.mark.parametrize('case', W.STATE_CASES, ids=lambda c: '-'.join(map(str, c)))
def test_resume_from_mxnet_states(case, tmp_path):
    """mxcompat loads MXNet's save_states file and continues exactly as MXNet did."""
    tag = 'states-%s-%d-%s' % case
    out = {}
    trainer = W.resume_states(mx, *case, os.path.join(HERE, tag + '.states'), out, tag)
    _check(out, tag)
    assert trainer.optimizer.param_dict[0] is trainer._params[0]


@pytest.mark.parametrize('case', W.STATE_CASES, ids=lambda c: '-'.join(map(str, c)))
def test_save_states_round_trip(case, tmp_path):
    """mxcompat's own states file resumes training identically (MXNet's numbers)."""
    tag = 'states-%s-%d-%s' % case
    fname = str(tmp_path / 'own.states')
    out = {}
    trainer = W.states_run(mx, *case, fname, out, tag)
    _check(out, tag)
    nodump = os.path.join(HERE, tag + '-nodump.states')
    if os.path.exists(nodump):  # the states alone are byte-identical to MXNet's pickle
        with open(nodump, 'rb') as f:
            want = f.read()
        got = trainer._updaters[0].get_states(dump_optimizer=False)
        # the same pickle, byte for byte, but for float rounding in the state values
        assert len(got) == len(want)
        got_s, want_s = loads(got), loads(want)
        assert got_s.keys() == want_s.keys()
        for k in want_s:
            g, w = got_s[k], want_s[k]
            g, w = (g, w) if isinstance(w, tuple) else ((g,), (w,))
            assert len(g) == len(w)
            for a, b in zip(g, w):
                assert a.shape == b.shape and a.dtype == b.dtype
                np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-7)
    out2 = {}
    W.resume_states(mx, *case, fname, out2, tag)
    _check(out2, tag)


def test_grad_req_add_and_null(special):
    _check(special[0], 'grad_req')
    _check(special[0], 'grad_req-2ctx')


def test_constant_is_ignored(special):
    _check(special[0], 'constant')


def test_stale_gradients(special):
    out, texts = special
    for key in ('stale', 'stale-again', 'stale-2ctx'):
        assert texts[key] == WANT_TEXT[key], key
    _check(out, 'stale-ignored')


def test_allreduce_then_update(special):
    _check(special[0], 'allreduce')
    for key in ('update-on-kv', 'allreduce-on-kv', '1ctx-kvTrue', 'bad-params',
                'bad-params-type'):
        assert special[1][key] == WANT_TEXT[key], key


def test_gradient_compression(special):
    _check(special[0], 'compress-True')
    _check(special[0], 'compress-False')


def test_set_learning_rate(special):
    _check(special[0], 'set_lr')


def test_kvstore_choice():
    """update_on_kvstore as MXNet decides it (recorded per training case)."""
    for case in W.TRAIN_CASES:
        out = {}
        ctxs = [mx.cpu(i) for i in range(case[2])]
        net = W.make_net(mx, ctxs)
        trainer = mx.gluon.Trainer(net.collect_params(), 'sgd', kvstore=case[3],
                                   update_on_kvstore=case[4])
        W.train_step(mx, net, trainer, ctxs)
        got = -1 if trainer._update_on_kvstore is None else int(trainer._update_on_kvstore)
        assert got == WANT[case[0] + '/update_on_kvstore'], case[0]
    kv = mx.kv.create('local')
    net = W.make_net(mx, [mx.cpu(0)])
    trainer = mx.gluon.Trainer(net.collect_params(), 'sgd', kvstore=kv)
    W.train_step(mx, net, trainer, [mx.cpu(0)])
    assert trainer._kvstore is kv and trainer._update_on_kvstore


def _trainer(tmp_path):
    net = W.make_net(mx, [mx.cpu(0)])
    trainer = mx.gluon.Trainer(net.collect_params(), *W._optim(mx, 'sgd'))
    W.train_step(mx, net, trainer, [mx.cpu(0)])
    return trainer


class _Boom(object):
    def __reduce__(self):
        return (os.system, ('echo pwned > %s' % self.target,))


@pytest.mark.parametrize('kind', ['hostile', 'truncated', 'garbage', 'not-states', 'empty'])
def test_bad_states_file(kind, tmp_path):
    trainer = _trainer(tmp_path)
    fname = str(tmp_path / 'bad.states')
    marker = tmp_path / 'pwned'
    if kind == 'hostile':
        boom = _Boom()
        boom.target = str(marker)
        data = pickle.dumps(boom)
    elif kind == 'truncated':
        with open(os.path.join(HERE, 'states-adam-1-None.states'), 'rb') as f:
            data = f.read()[:200]
    elif kind == 'garbage':
        data = b'\x00\x01not a pickle at all'
    elif kind == 'not-states':
        data = pickle.dumps([1, 2, 3])
    else:
        data = b''
    with open(fname, 'wb') as f:
        f.write(data)
    before = dict(trainer._updaters[0].states)
    with pytest.raises(MXNetError, match='bad.states: invalid optimizer states file'):
        trainer.load_states(fname)
    assert not marker.exists()
    assert trainer._updaters[0].states.keys() == before.keys()


def test_save_states_is_atomic(tmp_path, monkeypatch):
    trainer = _trainer(tmp_path)
    fname = str(tmp_path / 'x.states')
    shutil.copy(os.path.join(HERE, 'states-sgd-1-None.states'), fname)
    want = open(fname, 'rb').read()

    def fail(*_a, **_k):
        raise RuntimeError('disk full')
    monkeypatch.setattr(trainer._updaters[0], 'get_states', fail)
    with pytest.raises(RuntimeError):
        trainer.save_states(fname)
    assert open(fname, 'rb').read() == want
    assert os.listdir(str(tmp_path)) == ['x.states']


def test_learning_rate_properties():
    net = W.make_net(mx, [mx.cpu(0)])
    trainer = mx.gluon.Trainer(net.collect_params(), *W._optim(mx, 'sched'))
    lrs = []
    for _ in range(W.STEPS):
        W.train_step(mx, net, trainer, [mx.cpu(0)])
        lrs.append(trainer.learning_rate)
    np.testing.assert_allclose(lrs, WANT['sched-1ctx/lr'])
    assert trainer.optimizer is trainer._optimizer
    sgd = mx.optimizer.SGD(learning_rate=0.5)
    with pytest.raises(AssertionError, match='optimizer_params must be None'):
        mx.gluon.Trainer(net.collect_params(), sgd, {'wd': 1})
    trainer = mx.gluon.Trainer(net.collect_params(), sgd)
    assert trainer.learning_rate == 0.5 and trainer.optimizer is sgd
