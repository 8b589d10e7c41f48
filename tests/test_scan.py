"""`mxcompat scan`: every detection rule on small snippets written for these tests, the
resolution against mxcompat's own tables, the outputs (JSON against its schema, HTML, exit
status).

What the scan reports is mxcompat's own coverage, so the expectations here are facts about
mxcompat (which names it defines, which raise NotImplementedError), checked independently of
the scanner where a test says so; nothing here needs MXNet.
"""
import json
import os
import re
import subprocess
import sys
import textwrap

import pytest

import mxcompat as mx
from mxcompat.tools import scan as scanmod
from mxcompat.utils import mxnet_api

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope='module')
def resolver():
    return scanmod.Resolver()


def _write(tmp_path, files):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text) if isinstance(text, str) else json.dumps(text))
    return tmp_path


def _scan(tmp_path, files, resolver):
    _write(tmp_path, files)
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        return scanmod.scan(['.'], resolver)
    finally:
        os.chdir(cwd)


def _uses(rep):
    """{(file, line, api): (status, kind)} for every location of the report."""
    out = {}
    for e in rep['apis']:
        for loc in e['locations']:
            key = (loc['file'], loc['line'], e['api']) if 'cell' not in loc else \
                (loc['file'], loc['cell'], loc['line'], e['api'])
            out[key] = (e['status'], loc['kind'])
    return out


def _entry(rep, api):
    return next(e for e in rep['apis'] if e['api'] == api)


def test_imports_under_any_alias(tmp_path, resolver):
    rep = _scan(tmp_path, {'a.py': '''\
        import mxnet as mx
        import mxnet
        import mxnet.ndarray as F2
        from mxnet import nd as ndarray_alias, gluon
        from mxnet.gluon import nn
        from mxnet.gluon.nn import Dense as D
        x = mx.nd.ones((2,))
        y = mxnet.sym.var('y')
        z = F2.relu(x) + ndarray_alias.exp(x)
        net = D(3)
        blk = nn.Conv2D(4, 3)
        t = gluon.Trainer
        '''}, resolver)
    u = _uses(rep)
    assert u[('a.py', 1, 'mxnet')] == ('supported', 'import')
    assert u[('a.py', 3, 'mxnet.ndarray')] == ('supported', 'import')
    assert u[('a.py', 6, 'mxnet.gluon.nn.Dense')] == ('supported', 'import')
    assert u[('a.py', 7, 'mxnet.ndarray.ones')] == ('supported', 'attribute')
    assert u[('a.py', 8, 'mxnet.symbol.var')] == ('supported', 'attribute')
    assert u[('a.py', 9, 'mxnet.ndarray.relu')] == ('supported', 'attribute')
    assert u[('a.py', 9, 'mxnet.ndarray.exp')] == ('supported', 'attribute')
    assert u[('a.py', 10, 'mxnet.gluon.nn.Dense')] == ('supported', 'name')
    assert u[('a.py', 11, 'mxnet.gluon.nn.Conv2D')] == ('supported', 'attribute')
    assert u[('a.py', 12, 'mxnet.gluon.Trainer')] == ('supported', 'attribute')
    # aliases of one module are one API: mx.nd and mxnet.ndarray
    assert _entry(rep, 'mxnet.ndarray.ones')['module'] == 'mxnet.ndarray'


def test_not_mxnet_and_shadowed_names_are_not_uses(tmp_path, resolver):
    rep = _scan(tmp_path, {'b.py': '''\
        import numpy as np
        from mxnet.gluon.nn import Dense
        np.ones(3)
        def f(Dense):
            return Dense(3)
        Dense = None
        Dense(4)
        '''}, resolver)
    assert [(loc['line'], loc['kind']) for e in rep['apis'] for loc in e['locations']] == \
        [(2, 'import')]


def test_F_in_hybrid_forward_needs_both_nd_and_sym(tmp_path, resolver):
    rep = _scan(tmp_path, {'c.py': '''\
        from mxnet import gluon

        class Net(gluon.HybridBlock):
            def hybrid_forward(self, G, x):
                a = G.relu(x)
                b = G.contrib.box_nms(a, overlap_thresh=0.5)
                c = G.cast_storage(x, 'csr')
                return G.array(a)

        def helper(F, x):
            return F.broadcast_add(x, x)

        def not_f(G, x):
            return G.relu(x)
        '''}, resolver)
    u = _uses(rep)
    assert u[('c.py', 5, 'F.relu')] == ('supported', 'F')
    assert u[('c.py', 6, 'F.contrib.box_nms')] == ('supported', 'F')
    assert u[('c.py', 6, 'F.contrib.box_nms(overlap_thresh=)')] == ('supported', 'keyword')
    assert u[('c.py', 7, 'F.cast_storage')] == ('unsupported', 'F')
    # mx.nd.array exists, mx.sym.array does not, in MXNet 1.9.1 either: hybridized code fails
    assert hasattr(mx.nd, 'array') and not hasattr(mx.sym, 'array')
    assert mxnet_api.lookup('mxnet.symbol', 'array') is None
    assert u[('c.py', 8, 'F.array')] == ('not_in_mxnet', 'F')
    assert u[('c.py', 11, 'F.broadcast_add')] == ('supported', 'F')
    assert not any(k[1] == 14 for k in u)
    assert _entry(rep, 'F.relu')['module'] == 'F (hybrid_forward)'


def test_subclasses_overrides_and_inherited_attributes(tmp_path, resolver):
    rep = _scan(tmp_path, {
        'pkg/__init__.py': '',
        'pkg/base.py': '''\
            import mxnet as mx

            class Base(mx.gluon.HybridBlock):
                def __init__(self, **kwargs):
                    super(Base, self).__init__(**kwargs)
                    with self.name_scope():
                        self.body = mx.gluon.nn.Dense(2)
                    self.abstract_thing()

                def hybrid_forward(self, F, x):
                    return self.body(x)
            ''',
        'pkg/model.py': '''\
            from .base import Base

            class Model(Base):
                def abstract_thing(self):
                    return self.collect_params()

                def forward(self, x):
                    return self.never_set + self._children
            ''',
        'pkg/other.py': '''\
            class Plain(object):
                def f(self):
                    return self.anything
            ''',
        'pkg/old.py': '''\
            import mxnet as mx

            class Old(mx.gluon.Block):
                def forward(self, x):
                    return self._in_format

            class Up(mx.gluon.nn.Conv2DTranspose):
                def forward(self, x):
                    return self.outpad

            class Store(mx.kv.KVStore):
                def raw(self):
                    return self.handle
            '''}, resolver)
    u = _uses(rep)
    assert u[('pkg/base.py', 3, 'mxnet.gluon.HybridBlock')] == ('supported', 'subclass')
    assert u[('pkg/base.py', 6, 'mxnet.gluon.HybridBlock.name_scope')] == \
        ('supported', 'inherited')
    assert u[('pkg/base.py', 10, 'mxnet.gluon.HybridBlock.hybrid_forward')] == \
        ('supported', 'override')
    # through the project's own base class, in another module
    assert u[('pkg/model.py', 5, 'mxnet.gluon.HybridBlock.collect_params')] == \
        ('supported', 'inherited')
    assert u[('pkg/model.py', 7, 'mxnet.gluon.HybridBlock.forward')] == \
        ('supported', 'override')
    # an attribute mxcompat's Block sets in __init__ (not a class attribute) resolves
    assert u[('pkg/model.py', 8, 'mxnet.gluon.HybridBlock._children')] == \
        ('supported', 'inherited')
    # neither MXNet 1.9.1's HybridBlock (nor its bases) nor mxcompat's defines it
    e = _entry(rep, 'mxnet.gluon.HybridBlock.never_set')
    assert (e['status'], e['raises']) == ('not_in_mxnet', 'AttributeError')
    assert mxnet_api.class_defines('mxnet.gluon.block.HybridBlock', 'never_set') is False
    # a private attribute MXNet 1.9.1's Block sets on self and mxcompat's lacks: internal
    assert mxnet_api.class_defines('mxnet.gluon.block.Block', '_in_format') is True
    assert not hasattr(mx.gluon.Block(), '_in_format')
    e = _entry(rep, 'mxnet.gluon.Block._in_format')
    assert (e['status'], e['raises'], e['count']) == ('internal', 'AttributeError', 1)
    assert 'private attribute' in e['reason']
    # set by a module-level helper of mxcompat's constructors (conv_layers._init)
    assert hasattr(mx.gluon.nn.Conv2DTranspose(2, 3), 'outpad')
    assert _entry(rep, 'mxnet.gluon.nn.Conv2DTranspose.outpad')['status'] == 'supported'
    # a public attribute of MXNet 1.9.1's class that mxcompat's lacks: unsupported
    assert mxnet_api.class_defines('mxnet.kvstore.kvstore.KVStore', 'handle')
    assert not hasattr(mx.kv.create('local'), 'handle')
    e = _entry(rep, 'mxnet.kvstore.KVStore.handle')
    assert (e['status'], e['raises']) == ('unsupported', 'AttributeError')
    # defined by a subclass (abstract_thing) or set on self (body): not inherited uses
    assert not any('abstract_thing' in k[-1] or k[-1].endswith('.body') for k in u)
    assert not any(k[0] == 'pkg/other.py' for k in u)


def test_keyword_arguments(tmp_path, resolver):
    rep = _scan(tmp_path, {'k.py': '''\
        import mxnet as mx
        mx.nd.Convolution(data=None, kernel=(3, 3), num_filter=4, cudnn_tune='off',
                          no_such=1)
        mx.gluon.nn.Dense(3, flatten=False, nonsense=2)
        mx.io.MNISTIter(image='x', batch_size=4)
        mx.nd.cast_storage(None, stype='csr')
        mx.sym.Softmax(mx.sym.var('x'), grad_scale=2, prob_label=1)
        mx.nd._internal._linspace(start=0, stop=1, num=3, step=1)
        mx.nd.smooth_l1(mx.nd.ones((2,)), scalar=1.0, is_int=False)
        '''}, resolver)
    u = _uses(rep)
    assert u[('k.py', 2, 'mxnet.ndarray.Convolution(kernel=)')] == ('supported', 'keyword')
    assert u[('k.py', 2, 'mxnet.ndarray.Convolution(cudnn_tune=)')] == ('supported', 'keyword')
    # a keyword neither MXNet 1.9.1's operator nor mxcompat's takes
    assert u[('k.py', 3, 'mxnet.ndarray.Convolution(no_such=)')] == ('not_in_mxnet', 'keyword')
    assert 'no_such' not in mx.ops.registry.get('Convolution').params
    assert 'no_such' not in mxnet_api.operator_arguments('Convolution')
    with pytest.raises(mx.base.MXNetError, match='no_such') as err:
        mx.nd.Convolution(mx.nd.ones((1, 1, 4, 4)), kernel=(3, 3), num_filter=1, no_such=1)
    assert not isinstance(err.value, NotImplementedError)
    assert u[('k.py', 7, 'mxnet.symbol.Softmax(grad_scale=)')] == ('supported', 'keyword')
    assert u[('k.py', 7, 'mxnet.symbol.Softmax(prob_label=)')] == ('not_in_mxnet', 'keyword')
    assert _entry(rep, 'mxnet.symbol.Softmax(prob_label=)')['raises'] == 'MXNetError'
    # MXNet 1.9.1 documents 'step' for _linspace but its parser rejects it, as mxcompat does
    assert 'step' not in mxnet_api.operator_arguments('_linspace')
    assert _entry(rep, 'mxnet.ndarray._internal._linspace(step=)')['status'] == 'not_in_mxnet'
    # a keyword MXNet 1.9.1's operator takes and mxcompat's does not: the call raises
    # NotImplementedError (also an MXNetError) naming the operator and the argument
    assert 'is_int' in mxnet_api.operator_arguments('smooth_l1')
    assert 'is_int' not in mx.ops.registry.get('smooth_l1').params
    e = _entry(rep, 'mxnet.ndarray.smooth_l1(is_int=)')
    assert (e['status'], e['raises']) == ('unsupported', 'NotImplementedError')
    assert _entry(rep, 'mxnet.ndarray.smooth_l1(scalar=)')['status'] == 'supported'
    for call in (lambda **kw: mx.nd.smooth_l1(mx.nd.ones((2,)), **kw),
                 lambda **kw: mx.sym.smooth_l1(mx.sym.var('x'), **kw)):
        with pytest.raises(NotImplementedError, match='argument is_int of operator smooth_l1') \
                as err:
            call(scalar=1.0, is_int=False)
        assert isinstance(err.value, mx.base.MXNetError)
        assert str(err.value) == e['reason']
    assert u[('k.py', 4, 'mxnet.gluon.nn.Dense(flatten=)')] == ('supported', 'keyword')
    # Dense passes **kwargs on to Block.__init__(prefix, params), which takes no 'nonsense'
    assert u[('k.py', 4, 'mxnet.gluon.nn.Dense(nonsense=)')] == ('unsupported', 'keyword')
    with pytest.raises(TypeError, match='nonsense'):
        mx.gluon.nn.Dense(3, nonsense=2)
    # MNISTIter reads its **kwargs itself
    assert u[('k.py', 5, 'mxnet.io.MNISTIter(image=)')] == ('supported', 'keyword')
    # the keywords of an unsupported callable are reported as the callable
    assert u[('k.py', 6, 'mxnet.ndarray.cast_storage')] == ('unsupported', 'attribute')
    assert not any(k[-1].startswith('mxnet.ndarray.cast_storage(') for k in u)


def test_unsupported_names_carry_mxcompat_message(tmp_path, resolver):
    rep = _scan(tmp_path, {'u.py': '''\
        import mxnet as mx
        from mxnet import np
        mx.nd.cast_storage
        mx.nd.contrib.getnnz
        np.mirr
        mx.base._LIB
        mx.nd.contrib.quantized_conv
        import mxnet.contrib.tensorboard
        mx.nd.no_such_operator
        from mxnet.gluon.metric import EvalMetric
        '''}, resolver)
    for api in ('mxnet.ndarray.cast_storage', 'mxnet.ndarray.contrib.getnnz',
                'mxnet.numpy.mirr', 'mxnet.ndarray.contrib.quantized_conv'):
        e = _entry(rep, api)
        assert (e['status'], e['raises']) == ('unsupported', 'NotImplementedError'), api
        name = api.rpartition('.')[2]
        assert name in e['reason']
    key = 'nd:cast_storage'
    assert mx.ndarray.unsupported.UNSUPPORTED[key] in _entry(
        rep, 'mxnet.ndarray.cast_storage')['reason']
    # names of MXNet 1.9.1 that mxcompat does not define: its modules raise NotImplementedError
    for api in ('mxnet.base._LIB', 'mxnet.contrib.tensorboard'):
        e = _entry(rep, api)
        assert (e['status'], e['raises']) == ('unsupported', 'NotImplementedError'), api
        assert e['reason'] == mxnet_api.message(api)
    with pytest.raises(NotImplementedError, match='mxnet.base._LIB'):
        mx.base._LIB
    assert not hasattr(mx.base, '_LIB')
    # names MXNet 1.9.1 does not have either (mx.gluon.metric is MXNet 2's)
    for api in ('mxnet.ndarray.no_such_operator', 'mxnet.gluon.metric.EvalMetric'):
        e = _entry(rep, api)
        assert (e['status'], e['raises']) == ('not_in_mxnet', 'AttributeError'), api
        assert 'not an MXNet 1.9.1 API' in e['reason']


def test_documented_differences(tmp_path, resolver):
    rep = _scan(tmp_path, {'d.py': '''\
        import mxnet as mx
        mx.random.seed(1)
        mx.nd.random.uniform(shape=(2,))
        mx.nd.Dropout(mx.nd.ones((2,)), p=0.5)
        mx.init.Xavier()
        mx.nd.waitall()
        mx.init.Zero()
        mx.nd.relu
        '''}, resolver)
    u = _uses(rep)
    for line, api in ((2, 'mxnet.random.seed'), (3, 'mxnet.ndarray.random.uniform'),
                      (4, 'mxnet.ndarray.Dropout'), (5, 'mxnet.initializer.Xavier'),
                      (6, 'mxnet.ndarray.waitall')):
        assert u[('d.py', line, api)][0] == 'difference', api
    assert _entry(rep, 'mxnet.random.seed')['reason'] == mx.differences.RANDOM
    assert u[('d.py', 4, 'mxnet.ndarray.Dropout(p=)')][0] == 'supported'
    assert u[('d.py', 7, 'mxnet.initializer.Zero')][0] == 'supported'
    assert u[('d.py', 8, 'mxnet.ndarray.relu')][0] == 'supported'


def test_symbol_json_operators(tmp_path, resolver):
    src = os.path.join(ROOT, 'tests', 'fixtures', 'gluon_block', 'mlp-symbol.json')
    graph = json.load(open(src))  # written by MXNet 1.9.1
    ops = sorted({n['op'] for n in graph['nodes'] if n['op'] != 'null'})
    graph['nodes'].append({'op': '_sg_mkldnn_fully_connected', 'name': 'x', 'inputs': []})
    graph['nodes'].append({'op': 'FullyConnected', 'name': 'y', 'inputs': [],
                           'attrs': {'num_hidden': '2', 'bogus_attr': '1'}})
    graph['nodes'].append({'op': 'smooth_l1', 'name': 'z', 'inputs': [[0, 0, 0]],
                           'attrs': {'scalar': '1.0', 'is_int': 'False'}})
    text = json.dumps(graph, indent=2)
    rep = _scan(tmp_path, {'model-symbol.json': text, 'notes.json': '{"op": "x"}'}, resolver)
    u = _uses(rep)
    lines = text.split('\n')
    found = {k[2]: k[1] for k in u}
    for op in ops:
        status = 'difference' if mx.differences.of_operator(mx.ops.registry.get(op)) \
            else 'supported'
        assert u[('model-symbol.json', found['op:' + op], 'op:' + op)][0] == status
        assert '"op": "%s"' % op in lines[found['op:' + op] - 1]
    assert _entry(rep, 'op:_sg_mkldnn_fully_connected')['status'] == 'unsupported'
    assert _entry(rep, 'op:FullyConnected(num_hidden=)')['status'] == 'supported'
    assert _entry(rep, 'op:FullyConnected(bogus_attr=)')['status'] == 'not_in_mxnet'
    e = _entry(rep, 'op:smooth_l1(is_int=)')
    assert (e['status'], e['raises']) == ('unsupported', 'NotImplementedError')
    assert _entry(rep, 'op:smooth_l1(scalar=)')['status'] == 'supported'
    with pytest.raises(NotImplementedError, match='is_int'):
        mx.sym.load_json(json.dumps({'nodes': [
            {'op': 'null', 'name': 'x', 'inputs': []},
            {'op': 'smooth_l1', 'name': 'z', 'inputs': [[0, 0, 0]],
             'attrs': {'scalar': '1.0', 'is_int': 'False'}}],
            'arg_nodes': [0], 'heads': [[1, 0, 0]]}))
    assert rep['files'] == 1  # notes.json is not a symbol file


def test_notebook_code_cells(tmp_path, resolver):
    nb = {'nbformat': 4, 'nbformat_minor': 2, 'metadata': {}, 'cells': [
        {'cell_type': 'markdown', 'metadata': {}, 'source': ['import mxnet as mx\n']},
        {'cell_type': 'code', 'metadata': {}, 'outputs': [], 'execution_count': 1,
         'source': ['%matplotlib inline\n', 'import mxnet as mx\n', '!ls\n',
                    'x = mx.nd.zeros((2,))']},
        {'cell_type': 'code', 'metadata': {}, 'outputs': [], 'execution_count': 2,
         'source': 'y = mx.nd.contrib.getnnz(x)'}]}
    rep = _scan(tmp_path, {'nb.ipynb': nb}, resolver)
    u = _uses(rep)
    assert u[('nb.ipynb', 1, 2, 'mxnet')] == ('supported', 'import')
    assert u[('nb.ipynb', 1, 4, 'mxnet.ndarray.zeros')] == ('supported', 'attribute')
    assert u[('nb.ipynb', 2, 1, 'mxnet.ndarray.contrib.getnnz')][0] == 'unsupported'
    assert len(u) == 3


def test_relative_imports_inside_mxnet_tree(tmp_path, resolver):
    rep = _scan(tmp_path, {'mxnet/gluon/model_zoo/vision/net.py': '''\
        from ....context import cpu
        from ...block import HybridBlock
        from ... import nn
        class Net(HybridBlock):
            pass
        nn.Dense(2)
        '''}, resolver)
    u = _uses(rep)
    f = os.path.join('mxnet', 'gluon', 'model_zoo', 'vision', 'net.py')
    assert u[(f, 1, 'mxnet.context.cpu')] == ('supported', 'import')
    assert u[(f, 2, 'mxnet.gluon.block.HybridBlock')] == ('supported', 'import')
    assert u[(f, 4, 'mxnet.gluon.block.HybridBlock')] == ('supported', 'subclass')
    assert u[(f, 6, 'mxnet.gluon.nn.Dense')] == ('supported', 'attribute')


def test_unparsable_files_are_reported(tmp_path, resolver):
    rep = _scan(tmp_path, {'py2.py': 'print "hello"\n', 'ok.py': 'import mxnet\n'}, resolver)
    assert [e['file'] for e in rep['errors']] == ['py2.py']
    assert rep['totals']['uses'] == 1


def test_json_matches_schema_and_totals(tmp_path, resolver):
    jsonschema = pytest.importorskip('jsonschema')
    rep = _scan(tmp_path, {'a.py': '''\
        import mxnet as mx
        mx.nd.relu(mx.nd.ones((1,)))
        mx.random.seed(0)
        mx.nd.cast_storage
        ''', 'nb.ipynb': {'nbformat': 4, 'nbformat_minor': 2, 'metadata': {}, 'cells': [
            {'cell_type': 'code', 'metadata': {}, 'outputs': [], 'execution_count': 1,
             'source': 'import mxnet'}]}}, resolver)
    schema = json.load(open(scanmod.SCHEMA))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(json.loads(json.dumps(rep)), schema)
    t = rep['totals']
    assert (t['supported']['uses'], t['difference']['uses'], t['unsupported']['uses']) == \
        (4, 1, 1)
    assert t['not_in_mxnet']['uses'] == 0
    assert t['uses'] == sum(m['uses'] for m in rep['modules']) == 6
    assert [e['status'] for e in rep['apis']] == sorted(
        (e['status'] for e in rep['apis']),
        key=['unsupported', 'not_in_mxnet', 'internal', 'difference', 'supported'].index)


def test_cli_outputs_and_exit_status(tmp_path, monkeypatch, capsys):
    from mxcompat.cli import main
    _write(tmp_path, {'good.py': 'import mxnet as mx\nmx.nd.relu\n',
                      'rand.py': 'import mxnet as mx\nmx.random.seed(1)\n',
                      'bad.py': 'import mxnet as mx\nmx.nd.cast_storage(None)\n'})
    monkeypatch.chdir(tmp_path)
    assert main(['scan', 'good.py', 'rand.py', 'bad.py', '--html', 'r.html',
                 '--json', 'r.json']) == 1
    out = capsys.readouterr().out
    assert 'Unsupported (1 APIs):' in out and 'bad.py:2' in out
    rep = json.load(open(tmp_path / 'r.json'))
    assert rep['totals']['unsupported']['uses'] == 1
    page = (tmp_path / 'r.html').read_text()
    assert page.startswith('<!DOCTYPE html>') and 'mxnet.ndarray.cast_storage' in page
    # self-contained: no scripts, stylesheets, images or fonts fetched from anywhere
    assert not re.search(r'<script|<link|<img|@import|url\(|https?://', page)
    assert page.index('mxnet.ndarray.cast_storage') < page.index('mxnet.random.seed') < \
        page.index('>mxnet.ndarray.relu<')
    assert main(['scan', 'good.py', 'rand.py', 'bad.py', '--fail-on', 'never']) == 0
    assert main(['scan', 'good.py', 'rand.py', '--fail-on', 'unsupported']) == 0
    assert main(['scan', 'good.py', 'rand.py', '--fail-on', 'differences']) == 1
    assert main(['scan', 'good.py', '--fail-on', 'differences']) == 0
    # an MXNet internal (a private attribute of MXNet's Block) is listed, never failing
    _write(tmp_path, {'internal.py': '''\
        import mxnet as mx
        class Old(mx.gluon.Block):
            def forward(self, x):
                return self._in_format
        '''})
    capsys.readouterr()
    assert main(['scan', 'good.py', 'internal.py', '--html', 'i.html']) == 0
    out = capsys.readouterr().out
    assert 'MXNet internals (' in out and 'internal.py:4' in out
    assert 'mxnet.gluon.Block._in_format' in (tmp_path / 'i.html').read_text()
    assert main(['scan', 'good.py', 'internal.py', '--fail-on', 'differences']) == 0
    capsys.readouterr()
    assert main(['scan', 'missing.py']) == 2
    assert 'missing.py' in capsys.readouterr().err


def test_python_m_mxcompat_scan_json(tmp_path):
    _write(tmp_path, {'good.py': 'import mxnet as mx\nmx.nd.relu\n'})
    env = dict(os.environ, PYTHONPATH=ROOT, OMP_NUM_THREADS='1')
    r = subprocess.run([sys.executable, '-m', 'mxcompat', 'scan', 'good.py', '--json'],
                       cwd=str(tmp_path), capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)['totals']['uses'] == 2
