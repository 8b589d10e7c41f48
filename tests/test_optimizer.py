"""mx.optimizer against real MXNet 1.9.1 (scripts/fixture_writers/optimizer.py): every weight,
state and gradient after each of several steps; Updater state files written by MXNet; the
restricted unpickler; the torch.optim adapter."""
import json
import os
import pickle
import pickletools

import numpy as np
import pytest
import torch

import mxcompat as mx
import mxcompat.lr_scheduler  # noqa: F401  (until mxcompat/__init__ imports them)
import mxcompat.optimizer  # noqa: F401
from mxcompat.base import MXNetError
from scripts.fixture_writers import optimizer as cases

from conftest import FIXTURES

_DIR = os.path.join(FIXTURES, 'optimizer')


def _need(path):
    if not os.path.exists(path):
        pytest.fail('no MXNet fixture: run scripts/make_fixtures.py --only optimizer under '
                    'real MXNet')
    return path


@pytest.fixture(scope='module')
def steps():
    return dict(np.load(_need(os.path.join(_DIR, 'steps.npz'))))


@pytest.fixture(scope='module')
def meta():
    with open(_need(os.path.join(_DIR, 'meta.json'))) as f:
        return json.load(f)


def _same_error(got, want):
    assert got[0] == want[0], (got, want)
    if want[0] != 'MXNetError':  # MXNet's C++ messages carry its own traceback
        assert got[1] == want[1], (got, want)


@pytest.mark.parametrize('sid', sorted(cases.SCENARIOS))
def test_steps(sid, steps, meta):
    got, got_meta = cases.run(mx, sid)
    want_meta = meta['steps'][sid]
    want = {k.split('/', 1)[1]: v for k, v in steps.items() if k.split('/', 1)[0] == sid}
    if 'error' in want_meta:
        assert 'error' in got_meta, 'MXNet fails with %s' % (want_meta['error'],)
        _same_error(got_meta['error'], want_meta['error'])
        assert got_meta.get('error_step') == want_meta.get('error_step')
    else:
        assert 'error' not in got_meta, got_meta['error']
    assert sorted(got) == sorted(want)
    tol = cases.SCENARIOS[sid]['tol']
    for name in sorted(got, key=lambda n: int(n.split('/')[0])):
        g, w = got[name], want[name]
        if name.endswith('delta_moments'):  # SGLD: drift mean and noise std
            # two independent noise draws: their means differ by ~sqrt(2) std / sqrt(n)
            assert g[0] == pytest.approx(w[0], abs=6 * w[1] / np.sqrt(60000)), name
            assert g[1] == pytest.approx(w[1], rel=0.02), name
            continue
        assert g.dtype == w.dtype, name
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=tol,
                                   atol=tol, err_msg='%s/%s' % (sid, name))
    for key in ('num_update', 'counts'):
        if key in want_meta:
            assert json.loads(json.dumps(got_meta[key])) == want_meta[key], key
    if 'learning_rate' in want_meta:
        assert got_meta['learning_rate'] == pytest.approx(want_meta['learning_rate'], rel=1e-12)


# ----------------------------------------------------------------------------- base class
def test_learning_rate():
    o1 = mx.optimizer.Optimizer(learning_rate=0.01)
    o1.set_learning_rate(0.2)
    assert o1.learning_rate == 0.2
    o2 = mx.optimizer.Optimizer(lr_scheduler=mx.lr_scheduler.FactorScheduler(step=1),
                                learning_rate=0.3)
    assert o2.learning_rate == 0.3
    with pytest.raises(UserWarning):
        o2.set_learning_rate(0.5)
    o3 = mx.optimizer.Optimizer(lr_scheduler=mx.lr_scheduler.FactorScheduler(1, base_lr=1024))
    assert o3.learning_rate == 1024


def test_wd_mult_defaults_and_sym():
    opt = mx.optimizer.SGD(param_idx2name={0: 'fc_weight', 1: 'fc_bias', 2: 'bn_gamma',
                                           3: 'bn_beta', 4: 'emb'})
    assert opt.wd_mult == {'fc_bias': 0.0, 'bn_beta': 0.0, 'emb': 0.0}
    lars = mx.optimizer.LARS(param_idx2name={0: 'fc_weight', 1: 'bn_gamma'})
    assert lars.wd_mult == {'bn_gamma': 0.0}
    data = mx.sym.Variable('data')
    fc = mx.sym.FullyConnected(data, mx.sym.Variable('fc_weight', lr_mult=0.5, wd_mult=2),
                               num_hidden=2, name='fc')
    opt = mx.optimizer.SGD(sym=fc, param_idx2name={0: 'fc_weight', 1: 'fc_bias'})
    assert opt.lr_mult == {'fc_weight': 0.5}
    assert opt.wd_mult == {'fc_bias': 0.0, 'fc_weight': 2.0}


def test_param_dict_mults():
    class P(object):
        lr_mult, wd_mult = 0.5, 3.0
    opt = mx.optimizer.SGD(learning_rate=0.2, wd=0.1, param_dict={7: P()})
    assert opt._get_lr(7) == pytest.approx(0.1)
    assert opt._get_wd(7) == pytest.approx(0.3)
    assert 'param_dict' not in opt.__getstate__()


def test_create_and_register():
    assert type(mx.optimizer.create('Adam', learning_rate=0.1)) is mx.optimizer.Adam
    assert type(mx.optimizer.Optimizer.create_optimizer('ccsgd')) is mx.optimizer.ccSGD
    assert mx.optimizer.contrib.GroupAdaGrad is mx.optimizer.Optimizer.opt_registry['groupadagrad']
    with pytest.raises(ValueError, match='Cannot find optimizer nope'):
        mx.optimizer.create('nope')

    @mx.optimizer.register
    class MyTestOptimizer(mx.optimizer.Optimizer):
        def update(self, index, weight, grad, state):
            weight[:] -= grad

    assert type(mx.optimizer.create('mytestoptimizer')) is MyTestOptimizer


def test_adadelta_rescales_grad_in_place():
    # as in MXNet (the fixture steps record the gradients after each update, too)
    opt = mx.optimizer.AdaDelta(rescale_grad=2.0)
    w, g = mx.nd.ones((2,)), mx.nd.array([1.0, -3.0])
    opt.update(0, w, g, opt.create_state(0, w))
    np.testing.assert_array_equal(g.asnumpy(), [2.0, -6.0])


# ----------------------------------------------------------------------------- state files
@pytest.fixture(scope='module')
def state_arrays():
    return dict(np.load(_need(os.path.join(_DIR, 'states.npz'))))


def _blob(cid, kind):
    with open(_need(os.path.join(_DIR, '%s-%s.states' % (cid, kind))), 'rb') as f:
        return f.read()


def _flat(updater):
    out = {}
    for idx, state in updater.states.items():
        cases._flat_state('s%d' % idx, state, out)
    return out


@pytest.mark.parametrize('cid', sorted(cases.STATE_CASES))
@pytest.mark.parametrize('kind', ['opt', 'plain'])
def test_load_mxnet_states(cid, kind, state_arrays, meta):
    updater = mx.optimizer.get_updater(mx.optimizer.create('test'))
    updater.set_states(_blob(cid, kind))
    want = {k.split('/', 1)[1]: v for k, v in state_arrays.items()
            if k.split('/', 1)[0] == cid and '/after/' not in k}
    got = _flat(updater)
    assert sorted(got) == sorted(want)
    for name, value in got.items():
        assert value.dtype == want[name].dtype
        np.testing.assert_array_equal(value, want[name], err_msg=name)
    assert updater.states_synced == dict.fromkeys(updater.states, False)
    if kind == 'opt':
        m = meta['states'][cid]
        opt = updater.optimizer
        assert type(opt).__name__ == m['class'] and opt.param_dict == {}
        assert opt.num_update == m['num_update'] and opt.lr == m['lr']
        assert sorted(opt._index_update_count.items()) == [tuple(c) for c in m['counts']]
        assert opt._index_update_count is opt._all_index_update_counts[0]
        assert opt.learning_rate == pytest.approx(m['learning_rate'])


@pytest.mark.parametrize('cid', sorted(cases.STATE_CASES))
def test_continue_after_loading(cid, state_arrays):
    # MXNet's optimizer counts updates per device id: the counts pickled from device 0 go on
    # there, on device 1 (weights on cpu(1)) they start afresh
    dev = 'dev1/' if mx.current_context().device_id == 1 else ''
    got, _ = cases.state_run(mx, cid, blob=_blob(cid, 'opt'))
    for i, w in enumerate(got):
        want = state_arrays['%s/after/%sw%d' % (cid, dev, i)]
        tol = 2e-3 if want.dtype == np.float16 else 1e-5
        np.testing.assert_allclose(w.astype(np.float64), want.astype(np.float64), rtol=tol,
                                   atol=tol)


def _globals(blob):
    """The (module, name) pairs a pickle refers to."""
    strings, out = [], set()
    for op, arg, _ in pickletools.genops(blob):
        if op.name in ('SHORT_BINUNICODE', 'BINUNICODE', 'UNICODE'):
            strings.append(arg)
        elif op.name == 'STACK_GLOBAL':
            out.add(tuple(strings[-2:]))
        elif op.name == 'GLOBAL':
            out.add(tuple(arg.split(' ')))
    return out


@pytest.mark.parametrize('cid', sorted(cases.STATE_CASES))
def test_states_written_as_mxnet_writes_them(cid, state_arrays):
    """get_states names MXNet's classes (so MXNet can load the file) and round-trips."""
    updater = mx.optimizer.get_updater(mx.optimizer.create('test'))
    updater.set_states(_blob(cid, 'opt'))
    blob = updater.get_states(dump_optimizer=True)
    assert _globals(blob) == _globals(_blob(cid, 'opt'))
    again = mx.optimizer.get_updater(mx.optimizer.create('test'))
    again.set_states(blob)
    for name, value in _flat(again).items():
        np.testing.assert_array_equal(value, state_arrays['%s/%s' % (cid, name)])
    assert type(again.optimizer) is type(updater.optimizer)
    assert again.optimizer.__dict__.keys() == updater.optimizer.__dict__.keys()


class _Boom(object):
    def __reduce__(self):
        return (os.system, ('touch %s' % _Boom.marker,))


@pytest.mark.parametrize('payload', ['system', 'eval', 'nested'])
def test_hostile_pickle_refused(payload, tmp_path):
    _Boom.marker = str(tmp_path / 'pwned')
    if payload == 'system':
        blob = pickle.dumps(_Boom())
    elif payload == 'eval':
        blob = b'cbuiltins\neval\n(V__import__("os").system("touch %s")\ntR.' % \
            _Boom.marker.encode()
    else:
        blob = pickle.dumps(({0: (_Boom(), None)}, 'x'))
    updater = mx.optimizer.get_updater(mx.optimizer.create('sgd'))
    with pytest.raises(MXNetError, match='refusing to load global'):
        updater.set_states(blob)
    assert not os.path.exists(_Boom.marker)
    assert updater.states == {}


def test_sync_state_context():
    updater = mx.optimizer.get_updater(mx.optimizer.create('adam'))
    w = mx.nd.ones((2,))
    updater(0, mx.nd.ones((2,)), w)
    updater.set_states(updater.get_states())
    updater(0, mx.nd.ones((2,)), w)
    assert updater.states_synced[0] is True
    assert isinstance(updater.states[0], tuple)


# ----------------------------------------------------------------------------- torch adapter
@pytest.mark.parametrize('sid', ['sgd-mom-wd', 'adam-wd-clip', 'lamb', 'rmsprop-centered',
                                 'nadam', 'sgd-mp', 'adagrad'])
def test_torch_optimizer_matches_mxnet(sid, steps, meta):
    """TorchOptimizer steps torch tensors to MXNet's numbers (a scenario run one weight at a
    time, or all at once through an updater, gives the same weights)."""
    s = cases.SCENARIOS[sid]
    dtype = getattr(torch, s['dtype'])
    params = [torch.nn.Parameter(torch.from_numpy(
        cases._rand('%s/w%d' % (sid, i), shape, s['dtype']))) for i, shape in enumerate(s['shapes'])]
    opt = mx.optimizer.TorchOptimizer(params, cases.make_optimizer(mx, sid))
    for step in range(cases.STEPS):
        for i, p in enumerate(params):
            p.grad = torch.from_numpy(cases._rand('%s/g%d/%d' % (sid, step, i), p.shape,
                                                  s['dtype']) + s['grad_shift'])
        opt.step()
        for i, p in enumerate(params):
            want = steps['%s/%d/w%d' % (sid, step, i)]
            assert p.dtype == dtype
            np.testing.assert_allclose(p.detach().double().numpy(), want.astype(np.float64),
                                       rtol=s['tol'], atol=s['tol'])
    assert opt.state[params[0]]['step'] == cases.STEPS


@pytest.mark.parametrize('dtype', [torch.float32, torch.float16])
def test_torch_optimizer_state_dict_round_trip(tmp_path, dtype):
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 2).to(dtype)
    opt = mx.optimizer.Adam(learning_rate=0.01, multi_precision=True).as_torch(
        [{'params': [model.weight]}, {'params': [model.bias], 'wd_mult': 0.0, 'lr_mult': 2.0}])
    x = torch.randn(4, 3).to(dtype)
    for _ in range(2):
        opt.zero_grad()
        model(x).sum().backward()
        opt.step()
    torch.save(opt.state_dict(), tmp_path / 'opt.pt')
    clone = torch.nn.Linear(3, 2).to(dtype)
    clone.load_state_dict(model.state_dict())
    opt2 = mx.optimizer.TorchOptimizer(
        [{'params': [clone.weight]}, {'params': [clone.bias], 'wd_mult': 0.0, 'lr_mult': 2.0}],
        mx.optimizer.Adam(learning_rate=0.01, multi_precision=True))
    opt2.load_state_dict(torch.load(tmp_path / 'opt.pt', weights_only=True))
    assert opt2.mx_optimizer._index_update_count == {0: 2, 1: 2}
    master = opt2.state[clone.weight]['mxnet_state'][0] if dtype == torch.float16 else None
    assert master is None or master.dtype == torch.float32
    for o, m in ((opt, model), (opt2, clone)):
        o.zero_grad()
        m(x).sum().backward()
        o.step()
    torch.testing.assert_close(model.weight, clone.weight, rtol=0, atol=0)
    torch.testing.assert_close(model.bias, clone.bias, rtol=0, atol=0)
    assert opt.mx_optimizer.lr_mult[1] == 2.0


def test_torch_optimizer_rejects_non_optimizer():
    with pytest.raises(TypeError, match='mx.optimizer.Optimizer'):
        mx.optimizer.TorchOptimizer([torch.zeros(1, requires_grad=True)], object())
    with pytest.raises(MXNetError):
        opt = mx.optimizer.AdaGrad()
        w = mx.nd.ones((2,), dtype='float16')
        opt.update(0, w, w, opt.create_state(0, w))
