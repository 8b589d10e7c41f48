"""Hostile optimizer-states files: every attack is refused with MXNetError by all five loading
APIs, the process is unharmed, and files written by real MXNet at any pickle protocol load.

The attack pickles are assembled opcode by opcode below (what a hostile file could hold)."""
import copyreg
import ctypes
import os
import pickle
import re
import struct
import tracemalloc
import warnings

import numpy as np
import pytest

import mxcompat as mx
from mxcompat.base import MXNetError
from conftest import FIXTURES

HERE = os.path.join(FIXTURES, 'hostile')


def _need(path):
    if not os.path.exists(path):
        pytest.skip('fixture missing: run scripts/make_fixtures.py --only hostile')
    return path


# ------------------------------------------------------------------ a tiny pickle assembler
def G(module, name):
    """GLOBAL module.name."""
    return b'c%s\n%s\n' % (module.encode(), name.encode())


def V(value):
    """The opcodes that push a plain value (no PROTO, no STOP)."""
    return pickle.dumps(value, protocol=3)[2:-1]


def call(func, *args):
    """func(*args) through REDUCE."""
    return func + b'(' + b''.join(args) + b'tR'


def newobj(cls, state):
    """cls.__new__(cls) and BUILD state, as protocol 2 writes an object."""
    return cls + b')\x81' + state + b'b'


def states_of(value):
    """A states file {0: value}."""
    return b'\x80\x02}' + V(0) + value + b's.'


SGD = G('mxnet.optimizer.optimizer', 'SGD')


def _interface(addr, n=8):
    return V({'__array_interface__': {'data': (addr, False), 'shape': (n,), 'typestr': '|u1',
                                      'version': 3}, 'dtype': 'uint8'})


SECRET = ctypes.create_string_buffer(b'top-secret-bytes', 16)


def _attacks():
    addr = ctypes.addressof(SECRET)
    iface = _interface(addr)
    return {
        # pointer wrapping: an allowed class carrying __array_interface__, handed to NDArray
        'pointer-rebuild': states_of(call(G('mxcompat.ndarray.ndarray', '_rebuild'),
                                          newobj(SGD, iface))),
        'pointer-setstate': states_of(
            call(G('mxnet.ndarray.ndarray', 'NDArray'), V(None))
            + b'}(' + V('array') + newobj(SGD, iface) + V('ctx') + V('cpu(0)') + b'ub'),
        'pointer-reconstructor': states_of(call(G('mxcompat.ndarray.ndarray', '_rebuild'), call(
            G('copyreg', '_reconstructor'), SGD, G('builtins', 'object'), V(None)) + iface
            + b'b')),
        'pointer-optimizer': b'\x80\x02(}' + newobj(SGD, iface) + b't.',
        # memory bombs
        'bytearray-2**31': states_of(call(G('builtins', 'bytearray'), V(2 ** 31))),
        'memo-2**31': b'\x80\x04Nr\xff\xff\xff\x7f.',
        'numpy-2**40': states_of(call(G('numpy.core.multiarray', '_reconstruct'),
                                      G('numpy', 'ndarray'), V((2 ** 40,)), V(b'b'))),
        'numpy-state-2**40': states_of(
            call(G('numpy.core.multiarray', '_reconstruct'), G('numpy', 'ndarray'), V((0,)),
                 V(b'b'))
            + b'(' + V(1) + V((2 ** 40,)) + call(G('numpy', 'dtype'), V('f4'), V(False),
                                                  V(True))
            + V(False) + V(b'') + b'tb'),
        'set-of-range': states_of(call(G('builtins', 'set'), call(G('builtins', 'range'),
                                                                  V(2 ** 40)))),
        'bytes-2**31': states_of(call(G('builtins', 'bytes'), V(2 ** 31))),
        'handle-2**40': states_of(call(G('mxnet.ndarray.ndarray', 'NDArray'), V(None))
                                  + V({'handle': _sparse_handle(2 ** 40)}) + b'b'),
        # code execution
        'os.system': states_of(call(G('os', 'system'), V('echo pwned'))),
        'posix.system': states_of(call(G('posix', 'system'), V('echo pwned'))),
        'eval': states_of(call(G('builtins', 'eval'), V('1+1'))),
        'getattr': states_of(call(G('builtins', 'getattr'), G('builtins', 'object'),
                                  V('__subclasses__'))),
        'dotted': states_of(call(G('builtins', 'bytearray.fromhex'), V('00'))),
        'reconstructor-ctor': states_of(call(G('copyreg', '_reconstructor'),
                                             G('builtins', 'bytearray'), G('builtins', 'object'),
                                             V(None))),
        'class-call': states_of(call(SGD, V(0.1))),
        'optimizer-dunder': b'\x80\x02(}' + newobj(SGD, V({'__class__': 1})) + b't.',
        'optimizer-dict': b'\x80\x02(}' + newobj(SGD, V({'__dict__': {}})) + b't.',
        'class-as-value': states_of(SGD),
        'persid': b'\x80\x02(}' + b'P0\n' + b't.',
        'deep': b'\x80\x02}' + V(0) + b']' * 5000 + b'a' * 4999 + b's.',
    }


def _sparse_handle(rows):
    """MXNet's raw bytes of a row_sparse array claiming ``rows`` x 1 with one stored row."""
    head = struct.pack('<Ii', 0xF993FAC9, 1)
    shape = lambda *d: struct.pack('<i', len(d)) + struct.pack('<%dq' % len(d), *d)  # noqa
    return (head + shape(1, 1) + shape(rows, 1) + struct.pack('<iii', 1, 0, 0)
            + struct.pack('<i', 6) + shape(1) + struct.pack('<f', 1.0) + struct.pack('<q', 0))


ATTACKS = sorted(_attacks())


# ------------------------------------------------------------------ the five loading APIs
def _net_trainer(update_on_kvstore):
    net = mx.gluon.nn.Dense(2, in_units=3)
    net.initialize(mx.init.One())
    trainer = mx.gluon.Trainer(net.collect_params(), 'sgd', {'momentum': 0.9},
                               kvstore=mx.kv.create('local'),
                               update_on_kvstore=update_on_kvstore)
    with mx.autograd.record():
        loss = net(mx.nd.ones((1, 3))).sum()
    loss.backward()
    trainer.step(1)
    return trainer


def _loader(api):
    """A function that loads a states file through ``api`` into a freshly set-up object."""
    if api == 'updater':
        updater = mx.optimizer.get_updater(mx.optimizer.create('sgd'))

        def load(fname):
            with open(fname, 'rb') as f:
                updater.set_states(f.read())
        return load
    if api == 'trainer':
        return _net_trainer(False).load_states
    if api == 'trainer-kvstore':
        return _net_trainer(True).load_states
    if api == 'kvstore':
        kv = mx.kv.create('local')
        kv.set_optimizer(mx.optimizer.create('sgd'))
        return kv.load_optimizer_states
    out = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=2, name='fc')
    mod = mx.mod.Module(out, label_names=None)
    mod.bind(data_shapes=[('data', (1, 3))])
    mod.init_params()
    mod.init_optimizer(optimizer='sgd')
    return mod.load_optimizer_states


APIS = ['updater', 'trainer', 'trainer-kvstore', 'kvstore', 'module']


def _check_unharmed():
    """The secret is intact and a real MXNet states file still loads with MXNet's values."""
    assert SECRET.raw == b'top-secret-bytes'
    want = np.load(_need(os.path.join(HERE, 'states.npz')))
    updater = mx.optimizer.get_updater(mx.optimizer.create('sgd'))
    with open(os.path.join(HERE, 'states-p4.states'), 'rb') as f:
        updater.set_states(f.read())
    for idx, state in updater.states.items():
        np.testing.assert_array_equal(state.asnumpy(), want['s%d' % idx])


@pytest.mark.parametrize('api', APIS)
@pytest.mark.parametrize('attack', ATTACKS)
def test_attack_refused(attack, api, tmp_path, capfd):
    fname = str(tmp_path / ('%s.states' % attack))
    with open(fname, 'wb') as f:
        f.write(_attacks()[attack])
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        load = _loader(api)
    tracemalloc.start()
    try:
        with pytest.raises(MXNetError, match=re.escape('%s: invalid optimizer states file' % (
                'Updater.set_states(states)' if api == 'updater' else fname))):
            load(fname)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2 ** 20, 'loading a %d-byte file allocated %d bytes' % (
        os.path.getsize(fname), peak)
    assert 'pwned' not in capfd.readouterr().out
    _check_unharmed()


def test_extension_registry_is_no_way_around(tmp_path):
    """EXT opcodes resolve through the same checked globals."""
    copyreg.add_extension('os', 'system', 0x7e)
    try:
        blob = states_of(b'\x82\x7e' + V(('echo pwned',)) + b'R')
        with pytest.raises(MXNetError, match='refusing to load global os.system'):
            mx.optimizer.get_updater(mx.optimizer.create('sgd')).set_states(blob)
    finally:
        copyreg.remove_extension('os', 'system', 0x7e)


def _mxnet_opt_state(**changes):
    """The attributes of MXNet's pickled SGD in states-p4, with ``changes`` (None: removed)."""
    with open(_need(os.path.join(HERE, 'states-p4.states')), 'rb') as f:
        _, opt = mx.optimizer.state_file.loads(f.read())
    state = opt.__getstate__()
    state['lr_scheduler'] = None
    for key, value in changes.items():
        if value is None:
            del state[key]
        else:
            state[key] = value
    return state


@pytest.mark.parametrize('changes, problem', [
    (dict(momentum=None), r"SGD has no attributes \['momentum'\]"),
    (dict(lr='fast'), "SGD attribute 'lr' is a str"),
    (dict(_index_update_count=[1]), "SGD attribute '_index_update_count' is a list"),
    (dict(extra=1), r"SGD has unknown attributes \['extra'\]"),
])
def test_corrupt_optimizer_attributes(changes, problem):
    blob = b'\x80\x02(}' + newobj(SGD, V(_mxnet_opt_state(**changes))) + b't.'
    with pytest.raises(MXNetError, match=problem):
        mx.optimizer.get_updater(mx.optimizer.create('sgd')).set_states(blob)


@pytest.mark.parametrize('protocol', [0, 2, 4, 5])
def test_mxnet_states_every_protocol(protocol):
    """States pickled by real MXNet at every protocol load with MXNet's values."""
    want = np.load(_need(os.path.join(HERE, 'states.npz')))
    updater = mx.optimizer.get_updater(mx.optimizer.create('sgd'))
    with open(os.path.join(HERE, 'states-p%d.states' % protocol), 'rb') as f:
        updater.set_states(f.read())
    assert sorted(updater.states) == [0, 1]
    for idx, state in updater.states.items():
        np.testing.assert_array_equal(state.asnumpy(), want['s%d' % idx])
    opt = updater.optimizer
    num_update, lr, rescale = want['meta']
    assert type(opt).__name__ == 'SGD' and opt.num_update == num_update
    assert opt.learning_rate == pytest.approx(lr)
    assert type(opt.rescale_grad) is np.float32 and opt.rescale_grad == rescale
    assert type(opt.lr_scheduler).__name__ == 'FactorScheduler'
