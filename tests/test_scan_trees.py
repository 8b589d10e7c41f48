"""`mxcompat scan` on real codebases: apache/mxnet 1.9.1 (example/ and the Gluon model zoo)
and GluonCV 0.10.0.

tests/fixtures/scan/sample_uses.json holds uses found in those trees and checked by hand
against their source lines (file, line, API, status); in_mxnet.json says which of those APIs
real MXNet 1.9.1 has (scripts/fixture_writers/scan.py). The default run checks the sample
against mxcompat itself: every API marked supported resolves (imported or looked up here,
independently of the scanner); every API marked unsupported is one of MXNet 1.9.1, and making
the call (the lookup, the import, the call with the keyword argument, loading the operator)
raises NotImplementedError naming the API; every API marked not_in_mxnet is missing from MXNet
1.9.1 too and fails with a plain AttributeError / ImportError / MXNetError / TypeError; every
attribute marked internal is a private attribute of MXNet 1.9.1's class that mxcompat's class
lacks (a plain AttributeError). With the trees at hand, the scan must reproduce every sampled
use, and the same checks run on every API of the full reports:

    git -C mxnet.git archive 1.9.1 example python/mxnet/gluon/model_zoo | tar -x -C /tmp/mx191
    git -C gluon-cv.git archive v0.10.0 gluoncv | tar -x -C /tmp/gcv
    MXCOMPAT_SCAN_MXNET=/tmp/mx191 MXCOMPAT_SCAN_GLUONCV=/tmp/gcv pytest tests/test_scan_trees.py
"""
import importlib
import inspect
import json
import os

import pytest

import mxcompat as mx
from mxcompat.base import MXNetError
from mxcompat.ops import registry
from mxcompat.tools import scan as scanmod
from mxcompat.utils import mxnet_api

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fixtures', 'scan')
SAMPLE = json.load(open(os.path.join(HERE, 'sample_uses.json')))['uses']
IN_MXNET = json.load(open(os.path.join(HERE, 'in_mxnet.json')))
TREES = {'mxnet-1.9.1': ('MXCOMPAT_SCAN_MXNET', ['example', 'python/mxnet/gluon/model_zoo']),
         'gluoncv-0.10.0': ('MXCOMPAT_SCAN_GLUONCV', ['gluoncv'])}


def _lookup(parts, root=mx):
    """The mxcompat object at ``parts`` (after 'mxnet'), importing submodules as needed;
    raises AttributeError / ImportError when there is none (NotImplementedError, also an
    AttributeError, for a name of MXNet 1.9.1 mxcompat lacks)."""
    obj = root
    for p in parts:
        try:
            obj = getattr(obj, p)
        except NotImplementedError:  # an MXNet name mxcompat lacks
            raise
        except AttributeError:
            if not inspect.ismodule(obj):
                raise
            obj = importlib.import_module(obj.__name__ + '.' + p)
    return obj


def _member(cls, name):
    """A class attribute, or an attribute mxcompat's constructors set on instances."""
    try:
        return getattr(cls, name)
    except AttributeError:
        pass
    try:
        return getattr(cls(), name)
    except TypeError:  # needs arguments: an assignment in the sources instead
        if any('self.%s =' % name in inspect.getsource(k) for k in cls.__mro__
               if k.__module__.startswith('mxcompat')):
            return True
        raise AttributeError('%s has no attribute %r' % (cls.__name__, name)) from None


def _targets(api):
    """The mxcompat objects an API names ('F.x' names one in mx.nd and one in mx.sym)."""
    base = api.split('(')[0]
    if base.startswith('op:'):
        return [registry.get(base[3:]).fn]
    if base.startswith('F.'):
        return [_lookup(['ndarray'] + base[2:].split('.')),
                _lookup(['symbol'] + base[2:].split('.'))]
    parts = base.split('.')[1:]
    try:
        return [_lookup(parts)]
    except AttributeError:
        owner = _lookup(parts[:-1])
        if not inspect.isclass(owner):
            raise
        return [_member(owner, parts[-1])]


def _check_supported(api):
    for target in _targets(api):
        assert target is not None, api
        if '(' in api:  # the keyword is a parameter of the operator or the callable
            kw = api[api.index('(') + 1:-2]
            op = registry.all_ops().get(api[3:api.index('(')]) if api.startswith('op:') \
                else None
            if op is not None:
                assert kw in op.params, api


def _names_api(api, msg):
    """Whether the NotImplementedError message ``msg`` names ``api``: its last name, or the
    MXNet module on its path that mxcompat lacks ('mxnet.library' for mxnet.library.load)."""
    parts = api.split('(')[0].split('.')
    name = parts[-1].replace('op:', '').lstrip('_').replace('contrib_', '')
    return name in msg or any(msg.startswith('.'.join(parts[:k]) + ' ')
                              for k in range(2, len(parts)))


def _keyword(api):
    """(callable API, keyword) of a keyword-argument API, else (api, None)."""
    if '(' not in api:
        return api, None
    return api[:api.index('(')], api[api.index('(') + 1:-2]


def _call_with_keyword(api):
    """Make the call of a keyword-argument API: pass the keyword to the callable (to both the
    mx.nd and the mx.sym function of F.X), or load a symbol JSON graph whose operator node has
    that attribute (op:X)."""
    base, kw = _keyword(api)
    if base.startswith('op:'):
        mx.sym.load_json(json.dumps({
            'nodes': [{'op': base[3:], 'name': 'n', 'inputs': [], 'attrs': {kw: '1'}}],
            'arg_nodes': [], 'heads': [[0, 0, 0]]}))
        return
    for target in _targets(base):
        target(**{kw: 1})


def _check_unsupported(entry):
    """An unsupported API: making the call raises NotImplementedError naming the API."""
    api = entry['api']
    assert entry['raises'] == 'NotImplementedError', api
    base, kw = _keyword(api)
    with pytest.raises(NotImplementedError) as err:
        if kw is not None:
            _call_with_keyword(api)
        else:
            for target in _targets(api):
                target()
    assert _names_api(api, str(err.value)), (api, err.value)
    if kw is not None:
        assert 'argument %s of operator' % kw in str(err.value), (api, err.value)


def _check_internal(entry):
    """A private attribute of MXNet 1.9.1's class that mxcompat's class lacks."""
    api = entry['api']
    assert api.rpartition('.')[2].startswith('_') and entry['raises'] == 'AttributeError'
    with pytest.raises(AttributeError) as err:
        _targets(api)
    assert not isinstance(err.value, NotImplementedError), (api, err.value)
    owner = _lookup(api.split('.')[1:-1])
    mx_class = 'mxnet' + ('%s.%s' % (owner.__module__, owner.__qualname__))[len('mxcompat'):]
    assert mxnet_api.class_defines(mx_class, api.rpartition('.')[2]), api


def _check_not_in_mxnet(entry):
    """A name (or keyword argument) neither MXNet 1.9.1 nor mxcompat has: the plain error of
    a missing name or argument."""
    api = entry['api']
    with pytest.raises((AttributeError, ImportError, MXNetError, TypeError)) as err:
        if '(' in api:
            _call_with_keyword(api)
        else:
            _targets(api)
    assert not isinstance(err.value, NotImplementedError), (api, err.value)


def _entry(api, status, raises=None):
    return {'api': api, 'status': status, 'raises': raises}


def test_sample_is_large_and_covers_every_rule():
    assert len(SAMPLE) >= 50
    assert {u['kind'] for u in SAMPLE} == {'import', 'attribute', 'name', 'F', 'subclass',
                                           'override', 'inherited', 'keyword', 'symbol-json'}
    # (the sample's one internal use, GluonCV's read of _MultiWorkerIter._worker_pool, became
    # supported when mxcompat defined it; test_scan.py covers the internal rule)
    assert {u['status'] for u in SAMPLE} == {'supported', 'difference', 'unsupported',
                                             'not_in_mxnet'}
    assert {u['tree'] for u in SAMPLE} == set(TREES)
    assert any('cell' in u for u in SAMPLE)
    assert any('model_zoo' in u['file'] and u['tree'] == 'mxnet-1.9.1' for u in SAMPLE)


def test_sample_supported_apis_resolve_in_mxcompat_and_exist_in_mxnet():
    for u in SAMPLE:
        if u['status'] in ('supported', 'difference'):
            _check_supported(u['api'])
            assert IN_MXNET[u['api']] is True, u['api']  # real MXNet 1.9.1 has it too


def test_sample_unsupported_apis_fail_as_reported():
    resolver = scanmod.Resolver()
    for u in SAMPLE:
        if u['status'] in ('unsupported', 'not_in_mxnet', 'internal'):
            api, _, status, _, raises = resolver.resolve(u['api'], u['kind'])
            assert (api, status) == (u['api'], u['status']), u
            if status == 'not_in_mxnet':  # real MXNet 1.9.1 lacks it too
                assert IN_MXNET[api] is False, api
                _check_not_in_mxnet(_entry(api, status, raises))
                continue
            assert IN_MXNET[api] is True, api  # an MXNet 1.9.1 API
            if status == 'internal':
                _check_internal(_entry(api, status, raises))
            else:
                _check_unsupported(_entry(api, status, raises))


def _tree_report(tree):
    env, paths = TREES[tree]
    root = os.environ.get(env)
    if not root or not all(os.path.isdir(os.path.join(root, p)) for p in paths):
        pytest.skip('%s is not set to a checkout of %s (with %s)' % (env, tree, ', '.join(paths)))
    cwd = os.getcwd()
    os.chdir(root)
    try:
        return scanmod.scan(paths)
    finally:
        os.chdir(cwd)


@pytest.mark.parametrize('tree', sorted(TREES))
def test_scan_of_real_tree(tree):
    rep = _tree_report(tree)
    found = {}
    for e in rep['apis']:
        for loc in e['locations']:
            found[(loc['file'], loc.get('cell'), loc['line'], e['api'], loc['kind'])] = \
                e['status']
    sample = [u for u in SAMPLE if u['tree'] == tree]
    for u in sample:
        key = (u['file'], u.get('cell'), u['line'], u['api'], u['kind'])
        assert found.get(key) == u['status'], u
    # every API of the whole report, checked against mxcompat
    for e in rep['apis']:
        if e['status'] == 'unsupported':  # NotImplementedError naming it, for every one
            _check_unsupported(e)
        elif e['status'] == 'not_in_mxnet':
            _check_not_in_mxnet(e)
        elif e['status'] == 'internal':
            _check_internal(e)
        else:
            _check_supported(e['api'])
