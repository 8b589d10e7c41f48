"""mx.mod (Module, BucketingModule, SequentialModule, PythonLossModule) against training runs
of real MXNet 1.9.1 (tests/fixtures/module/, written by scripts/fixture_writers/module.py).

Each scenario starts from the same seeded parameters and data as MXNet's run; the final
parameters, per-batch metrics, validation metrics, scores and predictions must be MXNet's.
"""
import os
import shutil

import numpy as np
import pytest

import mxcompat as mx
import mxcompat.module  # noqa: F401  (until mxcompat/__init__ imports them)
import mxcompat.model  # noqa: F401
import mxcompat.kvstore  # noqa: F401
from scripts.fixture_writers import module as scenarios

from conftest import FIXTURES

HERE = os.path.join(FIXTURES, 'module')
with np.load(os.path.join(HERE, 'module.npz')) as _z:
    WANT = dict(_z)


def _check(got, prefix):
    names = sorted(k for k in WANT if k.split('/')[0] == prefix)
    assert names
    assert sorted(k for k in got if k.split('/')[0] == prefix) == names
    for name in names:
        assert got[name].shape == WANT[name].shape, name
        if WANT[name].dtype.kind in 'USO':
            assert got[name].tolist() == WANT[name].tolist(), name
        else:
            np.testing.assert_allclose(got[name], WANT[name], rtol=1e-5, atol=1e-6,
                                       err_msg=name)


def _prefixes(*groups):
    return sorted({k.split('/')[0] for k in WANT if k.split('/')[0].startswith(groups)})


@pytest.fixture(scope='module')
def fits():
    return scenarios.fit_scenarios(mx)


@pytest.mark.parametrize('prefix', _prefixes('mlp_', 'conv_'))
def test_fit(prefix, fits):
    _check(fits, prefix)


@pytest.fixture(scope='module')
def buckets():
    return scenarios.bucketing_scenarios(mx)


@pytest.mark.parametrize('prefix', _prefixes('bucket_'))
def test_bucketing_fit(prefix, buckets):
    _check(buckets, prefix)


@pytest.fixture(scope='module')
def api():
    return scenarios.api_scenarios(mx)


@pytest.mark.parametrize('prefix', ['api', 'seq', 'pyloss', 'exec'])
def test_module_api(prefix, api):
    _check(api, prefix)


@pytest.fixture(scope='module')
def ckpt_dir(tmp_path_factory):
    path = tmp_path_factory.mktemp('ckpt')
    for name in os.listdir(HERE):
        if name != 'module.npz':
            shutil.copy(os.path.join(HERE, name), str(path))
    return str(path)


@pytest.mark.parametrize('prefix', ['ckpt_resumed', 'ckpt_predict'])
def test_load_mxnet_checkpoint(prefix, ckpt_dir):
    _check(scenarios.checkpoint_scenarios(mx, ckpt_dir, None), prefix)


def test_module_checkpoint_bytes(ckpt_dir, tmp_path):
    """Files Module writes are byte-identical to MXNet's for the same symbol, parameters and
    optimizer states."""
    mod = mx.module.Module.load(os.path.join(ckpt_dir, 'mlp'), 1, load_optimizer_states=True)
    mod.bind([('data', (5, 5))], [('softmax_label', (5,))])
    mod.init_optimizer(optimizer='sgd', optimizer_params=scenarios.SGD)
    mod.save_checkpoint(str(tmp_path / 'mlp'), 1, save_optimizer_states=True)
    for name in ('mlp-symbol.json', 'mlp-0001.params', 'mlp-0001.states'):
        assert (tmp_path / name).read_bytes() == \
            open(os.path.join(HERE, name), 'rb').read(), name


def test_bucketing_checkpoint_bytes(ckpt_dir, tmp_path):
    """A BucketingModule loaded from MXNet's checkpoint saves the same files again."""
    it = scenarios.bucket_iter(mx, [5, 8, 3])
    mod = mx.module.BucketingModule.load(os.path.join(ckpt_dir, 'bucket'), 1,
                                         sym_gen=scenarios.bucket_sym_gen(mx),
                                         default_bucket_key=8)
    mod.bind(it.provide_data, it.provide_label, for_training=False)
    with mx.cpu(0):  # .buckets records the default context, cpu(0) where MXNet saved it
        mod.save_checkpoint(str(tmp_path / 'bucket'), 1)
    names = sorted(n for n in os.listdir(HERE) if n.startswith('bucket'))
    assert sorted(os.listdir(str(tmp_path))) == names
    for name in names:
        with open(os.path.join(HERE, name), 'rb') as f:
            assert (tmp_path / name).read_bytes() == f.read(), name


def test_bucketing_shares_parameters():
    sym_gen = scenarios.bucket_sym_gen(mx)
    mod = mx.module.BucketingModule(sym_gen, default_bucket_key=8)
    mod.bind([('data', (4, 8, 4))], [('softmax_label', (4,))])
    mod.init_params(initializer=mx.init.Constant(0.1))
    mod.init_optimizer()
    mod.switch_bucket(3, [('data', (4, 3, 4))], [('softmax_label', (4,))])
    small, big = mod._buckets[3], mod._buckets[8]
    for name in ('fc1_weight', 'fc2_bias'):
        assert small._exec_group.execs[0].arg_dict[name] is big._exec_group.execs[0].arg_dict[name]
    assert small._updater is big._updater and small.optimizer_initialized


def test_errors():
    net = scenarios.mlp(mx)
    with pytest.raises(ValueError, match='data_names'):
        mx.module.Module(net, data_names=['x'])
    mod = mx.module.Module(net)
    mod.bind([('data', (5, 5))], [('softmax_label', (5,))])
    with pytest.raises(RuntimeError, match='fc1_bias is not presented'):
        mod.init_params(arg_params={'fc1_weight': mx.nd.zeros((8, 5))})
    with pytest.raises(ValueError, match='Too many slices'):
        mx.executor_manager._split_input_slice(2, [1, 1, 1])
