"""NumPy-mode symbol files: a model exported by real MXNet 1.9.1 under ``npx.set_np()``
(``_npi_*`` operators, ``npx.save`` parameters; scripts/fixture_writers/numpy_export.py) imports
with ``SymbolBlock.imports`` and gives MXNet's outputs, and mxcompat's own export of the same
model writes the graph MXNet wrote; so does each one-operator block of ``OPS``, attribute texts
included."""
import json
import os

import numpy as np
import pytest

import mxcompat as mx
from scripts.fixture_writers.numpy_export import INPUTS, OPS, export_op, inputs, op_input, seeded_net

from conftest import FIXTURES

DIR = os.path.join(FIXTURES, 'numpy_export')


@pytest.fixture
def np_mode():
    mx.npx.set_np()
    yield
    mx.npx.reset_np()


def _check_outputs(outs):
    want = np.load(os.path.join(DIR, 'outputs.npz'))
    assert len(outs) == len(want.files)
    for i, o in enumerate(outs):
        assert isinstance(o, mx.np.ndarray), type(o)
        np.testing.assert_allclose(o.asnumpy(), want['out%d' % i], rtol=1e-5, atol=1e-6)


def test_imports_mxnet_export(np_mode):
    net = mx.gluon.SymbolBlock.imports(os.path.join(DIR, 'npnet-symbol.json'), INPUTS,
                                       os.path.join(DIR, 'npnet-0000.params'),
                                       ctx=mx.current_context())
    _check_outputs(net(*inputs(mx)))


def _graph(path):
    with open(path) as f:
        g = json.load(f)
    return g, [(n['op'], n['name'], n.get('attrs', {}), n['inputs']) for n in g['nodes']]


def test_export_writes_mxnet_graph(np_mode, tmp_path):
    with mx.name.NameManager():
        net = seeded_net(mx)
    net.hybridize()
    _check_outputs(net(*inputs(mx)))
    net.export(str(tmp_path / 'npnet'), epoch=0)
    got, got_nodes = _graph(str(tmp_path / 'npnet-symbol.json'))
    want, want_nodes = _graph(os.path.join(DIR, 'npnet-symbol.json'))
    assert [n[:2] for n in got_nodes] == [n[:2] for n in want_nodes]
    # inputs as [node, output]: MXNet's third field, a mutated variable's version, counts the
    # times its Parameter's symbol was traced (twice here: deferred shape inference, hybridize)
    assert [[e[:2] for e in n[3]] for n in got_nodes] == [[e[:2] for e in n[3]] for n in want_nodes]
    # variables' attributes too: unknown sizes are -1 in NumPy-shape mode
    assert [n[2] for n in got_nodes if n[0] == 'null'] == \
        [n[2] for n in want_nodes if n[0] == 'null']
    assert got['heads'] == want['heads'] and got['attrs'] == want['attrs']
    back = mx.gluon.SymbolBlock.imports(str(tmp_path / 'npnet-symbol.json'), INPUTS,
                                        str(tmp_path / 'npnet-0000.params'),
                                        ctx=mx.current_context())
    _check_outputs(back(*inputs(mx)))
    with open(tmp_path / 'npnet-0000.params', 'rb') as f, \
            open(os.path.join(DIR, 'npnet-0000.params'), 'rb') as g:
        assert f.read() == g.read()


@pytest.mark.parametrize('case', sorted(OPS))
def test_export_op_attributes(np_mode, tmp_path, case):
    want_out = np.load(os.path.join(DIR, 'ops.npz'))[case]
    out = export_op(mx, case, str(tmp_path / case))
    np.testing.assert_allclose(out.asnumpy(), want_out, rtol=1e-5, atol=1e-6)
    got, got_nodes = _graph(str(tmp_path / (case + '-symbol.json')))
    want_file = os.path.join(DIR, 'ops', case + '-symbol.json')
    want, want_nodes = _graph(want_file)
    # an operator that creates an array records the default context in ``ctx`` (MXNet's
    # file: cpu(0); under cpu(1) MXNet writes cpu(1))
    for _, _, attrs, _ in want_nodes:
        if 'ctx' in attrs:
            attrs['ctx'] = str(mx.current_context())
    assert got_nodes == want_nodes  # operators, names, attributes (as text) and inputs
    assert got['heads'] == want['heads']
    back = mx.gluon.SymbolBlock.imports(want_file, ['data'])
    np.testing.assert_allclose(back(op_input(mx)).asnumpy(), want_out, rtol=1e-5, atol=1e-6)
