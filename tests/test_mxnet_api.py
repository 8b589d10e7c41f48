"""MXNet 1.9.1 APIs that mxcompat lacks raise NotImplementedError naming them
(mxcompat/utils/mxnet_api.py), on attribute access, ``import`` and ``from ... import`` alike,
while a missing name stays a missing name to ``hasattr`` / ``getattr(obj, name, default)`` /
``except ImportError``. Which names MXNet 1.9.1 has comes from mxcompat/utils/mxnet_api.json.gz,
written by real MXNet (scripts/make_mxnet_api.py); the names used here are checked against it.
"""
import importlib
import json
import os
import subprocess
import sys

import pytest

import mxcompat as mx
from mxcompat.base import MXNetError
from mxcompat.ops import registry
from mxcompat.utils import mxnet_api

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def alias():
    was = mx.utils.alias.is_installed()
    mx.install()
    yield
    if not was:
        mx.uninstall()


def test_table_is_mxnets():
    # names this file relies on, as MXNet 1.9.1 has them (and not)
    assert mxnet_api.lookup('mxnet', 'rtc') == 'mxnet.rtc'
    assert mxnet_api.lookup('mxnet.base', '_LIB') is True
    assert mxnet_api.lookup('mxnet.contrib', 'tensorboard') == 'mxnet.contrib.tensorboard'
    assert mxnet_api.is_module('mxnet.contrib.svrg_optimization.svrg_module')
    assert mxnet_api.is_operator('_sg_mkldnn_fully_connected')
    for module, name in (('mxnet', 'no_such_name'), ('mxnet.gluon', 'metric'),
                         ('mxnet.symbol', 'array')):
        assert mxnet_api.lookup(module, name) is None
    assert not mxnet_api.is_operator('no_such_op')
    assert os.path.getsize(mxnet_api.DATA) < 100000


@pytest.mark.parametrize('expr, api', [
    ('mx.library', 'mxnet.library'), ('mx.base._LIB', 'mxnet.base._LIB'),
    ('mx.contrib.tensorboard', 'mxnet.contrib.tensorboard'),
    ('mx.np.mirr', 'mxnet.numpy.mirr')])
def test_attribute_of_mxnet_raises_not_implemented(expr, api):
    with pytest.raises(NotImplementedError) as err:
        eval(expr)
    assert isinstance(err.value, AttributeError)
    assert str(err.value) == mxnet_api.message(api)
    assert api in str(err.value) and 'not supported by mxcompat' in str(err.value)
    owner, _, name = expr.rpartition('.')
    owner = eval(owner)
    # feature probing still sees a missing name
    assert not hasattr(owner, name)
    assert getattr(owner, name, 'default') == 'default'


def test_module_aliases_of_mxnet_resolve():
    # MXNet binds some modules under a second name (mx.rnd is mx.random)
    assert mxnet_api.lookup('mxnet', 'rnd') == 'mxnet.random'
    assert mx.rnd is mx.random


def test_names_mxnet_lacks_stay_attribute_errors():
    for owner, name in ((mx, 'no_such_name'), (mx.gluon, 'metric'), (mx.sym, 'array'),
                        (mx.np, 'no_such_name'), (mx, '__wrapped__')):
        with pytest.raises(AttributeError) as err:
            getattr(owner, name)
        assert not isinstance(err.value, NotImplementedError)
        assert name in str(err.value)


def test_module_own_getattr_still_answers():
    # mx.test_utils resolves some names lazily in its own __getattr__; MXNet names it lacks
    # still raise NotImplementedError
    assert mxnet_api.lookup('mxnet.test_utils', 'DummyIter') is True
    assert 'DummyIter' not in vars(mx.test_utils) and mx.test_utils.DummyIter is not None
    assert mxnet_api.lookup('mxnet.test_utils', '_features') is True
    with pytest.raises(NotImplementedError, match='mxnet.test_utils._features'):
        mx.test_utils._features


@pytest.mark.parametrize('stmt, api, cls', [
    ('import mxnet.contrib.tensorboard', 'mxnet.contrib.tensorboard', ModuleNotFoundError),
    ('from mxnet.contrib import tensorboard', 'mxnet.contrib.tensorboard',
     ModuleNotFoundError),
    ('from mxnet.contrib.tensorboard import LogMetricsCallback',
     'mxnet.contrib.tensorboard', ModuleNotFoundError),
    ('import mxnet.tvmop', 'mxnet.tvmop', ModuleNotFoundError),
    ('from mxnet import library', 'mxnet.library', ModuleNotFoundError),
    ('import mxcompat.contrib.tensorboard', 'mxnet.contrib.tensorboard', ModuleNotFoundError),
    ('from mxnet.base import _LIB', 'mxnet.base._LIB', ImportError),
    ('from mxnet.contrib import onnx', 'mxnet.contrib.onnx', ImportError)])
def test_import_of_mxnet_module_raises_not_implemented(alias, stmt, api, cls):
    with pytest.raises(NotImplementedError) as err:
        exec(stmt, {})
    assert isinstance(err.value, cls)
    assert str(err.value) == mxnet_api.message(api)
    try:  # the usual optional-import idiom keeps working
        exec(stmt, {})
    except ImportError:
        pass


def test_imports_mxnet_lacks_stay_import_errors(alias):
    for stmt in ('import mxnet.no_such_module', 'from mxnet import no_such_name',
                 'from mxnet.gluon.metric import EvalMetric'):
        with pytest.raises(ImportError) as err:
            exec(stmt, {})
        assert not isinstance(err.value, NotImplementedError), stmt


def test_operators_of_mxnet_raise_not_implemented():
    assert '_sg_mkldnn_fully_connected' not in registry.all_ops()
    with pytest.raises(NotImplementedError, match='_sg_mkldnn_fully_connected') as err:
        registry.get('_sg_mkldnn_fully_connected')
    assert isinstance(err.value, MXNetError)
    graph = {'nodes': [{'op': 'null', 'name': 'data', 'inputs': []},
                       {'op': '_sg_mkldnn_fully_connected', 'name': 'c', 'inputs': [[0, 0, 0]]}],
             'arg_nodes': [0], 'heads': [[1, 0, 0]]}
    with pytest.raises(NotImplementedError, match='_sg_mkldnn_fully_connected') as err:
        mx.sym.load_json(json.dumps(graph))
    assert isinstance(err.value, MXNetError)
    graph['nodes'][1]['op'] = 'no_such_op'
    with pytest.raises(MXNetError, match='no_such_op') as err:
        mx.sym.load_json(json.dumps(graph))
    assert not isinstance(err.value, NotImplementedError)
    with pytest.raises(MXNetError) as err:
        registry.get('no_such_op')
    assert not isinstance(err.value, NotImplementedError)


def _smooth_l1_graph(attrs):
    return json.dumps({'nodes': [{'op': 'null', 'name': 'x', 'inputs': []},
                                 {'op': 'smooth_l1', 'name': 'z', 'inputs': [[0, 0, 0]],
                                  'attrs': attrs}],
                       'arg_nodes': [0], 'heads': [[1, 0, 0]]})


def test_operator_arguments_of_mxnet_raise_not_implemented():
    # the table holds what MXNet's parser takes: smooth_l1 takes is_int (mxcompat's does not);
    # _linspace documents step but MXNet 1.9.1 rejects it, as mxcompat does
    assert mxnet_api.operator_arguments('smooth_l1') == ['data', 'scalar', 'is_int']
    assert 'step' not in mxnet_api.operator_arguments('_linspace')
    assert mxnet_api.operator_arguments('no_such_op') is None
    assert 'is_int' not in registry.get('smooth_l1').params
    calls = (lambda **kw: mx.nd.smooth_l1(mx.nd.ones((2,)), scalar=1.0, **kw),
             lambda **kw: mx.nd.smooth_l1(scalar=1.0, **kw),  # reported before the input
             lambda **kw: mx.sym.smooth_l1(mx.sym.var('x'), scalar=1.0, **kw),
             lambda **kw: mx.sym.load_json(_smooth_l1_graph(dict(scalar='1', **kw))))
    for call in calls:
        with pytest.raises(NotImplementedError) as err:
            call(is_int='0')
        assert isinstance(err.value, MXNetError)
        assert str(err.value) == mxnet_api.message('argument is_int of operator smooth_l1')
        # an argument MXNet's operator does not take either: MXNet's plain error
        with pytest.raises(MXNetError, match="Cannot find argument 'bogus'") as err:
            call(bogus='0')
        assert not isinstance(err.value, NotImplementedError)
    # mirrored and dunder keys of symbol JSON are attributes, not arguments
    mx.sym.load_json(_smooth_l1_graph({'scalar': '1', 'lr_mult': '2', '__wd_mult__': '1'}))


def test_every_mxnet_name_is_defined_or_not_implemented():
    modules = mxnet_api._api()[0]
    lacking = 0
    for module, (names, submodules) in modules.items():
        try:
            obj = importlib.import_module('mxcompat' + module[len('mxnet'):])
        except NotImplementedError as err:  # naming it, or the parent mxcompat lacks
            parts = module.split('.')
            assert str(err) in [mxnet_api.message('.'.join(parts[:k]))
                                for k in range(2, len(parts) + 1)], module
            continue
        for name in names | set(submodules):
            try:
                getattr(obj, name)
            except NotImplementedError as err:
                assert str(err) == mxnet_api.message('%s.%s' % (module, name))
                lacking += 1
    assert lacking > 0


def test_table_is_read_only_for_a_missing_mxnet_name():
    code = ('import mxcompat as mx; from mxcompat.utils import mxnet_api as a; '
            'getattr(mx, "__wrapped__", None); mx.nd.relu; print(a._table is None); '
            'getattr(mx, "library", None); print(a._table is None)')
    env = dict(os.environ, PYTHONPATH=ROOT, OMP_NUM_THREADS='1')
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                       timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ['True', 'False']
