"""``mxcompat inspect`` against files written by real MXNet 1.9.1 (tests/fixtures/convert): the
names, shapes, dtypes and sizes MXNet's ``nd.load`` reports, and for symbol JSON MXNet's
``list_arguments`` / ``list_auxiliary_states`` / ``list_outputs`` and the operators of its
nodes."""
import collections
import json
import os
import re

import numpy as np
import pytest

from mxcompat.cli import main
from mxcompat.tools.inspect_files import PARAM_SUFFIXES, format_text, inspect_file
from conftest import FIXTURES
from test_convert import PARAMS, _expected, _fixture, _hostile_params

SYMBOLS = ('cnn-symbol.json', 'mlp-symbol.json', 'unsupported-symbol.json')


@pytest.mark.parametrize('name', PARAMS)
def test_params_report(name, capsys):
    want = _expected()['params'][name]
    rep = inspect_file(_fixture(name))
    assert rep['kind'] == 'params'
    assert rep['layout'] == ('list' if name == 'list.params' else 'checkpoint'
                             if name in ('cnn-0000.params', 'mlp-0002.params') else 'named')
    got = [[a['name'], a['shape'], a['dtype'], a['size']] for a in rep['arrays']]
    assert got == [w[:4] for w in want]
    nbytes = [w[3] * np.dtype(w[2]).itemsize for w in want]
    assert [a['bytes'] for a in rep['arrays']] == nbytes
    assert rep['totals'] == {'count': len(want), 'elements': sum(w[3] for w in want),
                             'bytes': sum(nbytes)}
    assert main(['inspect', _fixture(name), '--json']) == 0
    assert json.loads(capsys.readouterr().out) == rep
    assert main(['inspect', _fixture(name)]) == 0
    text = capsys.readouterr().out
    assert text == format_text(rep) + '\n'
    assert text.rstrip().endswith('total: %d arrays, %d elements, %d bytes'
                                  % (len(want), sum(w[3] for w in want), sum(nbytes)))


@pytest.mark.parametrize('name', SYMBOLS)
def test_symbol_report(name, capsys):
    want = _expected()['symbols'][name]
    rep = inspect_file(_fixture(name))
    inputs = rep['inputs']
    args = want['arguments']
    assert inputs['parameters'] == [a for a in args if a.endswith(PARAM_SUFFIXES)]
    assert inputs['data'] == [a for a in args if not a.endswith(PARAM_SUFFIXES)]
    ops = collections.Counter(op for op in want['ops'] if op != 'null')
    assert rep['operators'] == dict(ops) and rep['nodes'] == len(want['ops'])
    if name == 'unsupported-symbol.json':
        assert rep['unsupported_operators'] == [{'op': '_contrib_getnnz', 'count': 1,
                                                 'in_mxnet': True}]
        assert rep['outputs'] is None
    else:
        assert rep['unsupported_operators'] == []
        assert inputs['auxiliary_states'] == want['aux']
        assert rep['outputs'] == want['outputs']
    assert main(['inspect', _fixture(name), '--json']) == 0
    assert json.loads(capsys.readouterr().out) == rep


def test_symbol_text_and_plugin_operator(tmp_path, capsys):
    with open(_fixture('unsupported-symbol.json')) as f:
        doc = json.load(f)
    for node in doc['nodes']:
        if node['op'] == 'FullyConnected':
            node['op'] = 'MyPluginOp'
    path = tmp_path / 'plugin-symbol.json'
    path.write_text(json.dumps(doc))
    assert main(['inspect', str(path)]) == 0
    text = capsys.readouterr().out
    assert 'data inputs: data\n' in text and 'parameters (2): fc_weight, fc_bias\n' in text
    assert '  MyPluginOp (1 node; not an operator of MXNet 1.9.1 either)\n' in text
    assert '  _contrib_getnnz (1 node)\n' in text
    assert main(['inspect', _fixture('mlp-symbol.json')]) == 0
    text = capsys.readouterr().out
    assert 'auxiliary states (2): bn1_moving_mean, bn1_moving_var\n' in text
    assert 'outputs: softmax_output\n' in text
    assert 'operators mxcompat does not support: none' in text


def _assert_one_error(args, path, problem, capsys):
    assert main(['inspect'] + args) == 1
    cap = capsys.readouterr()
    assert cap.out == '' and len(cap.err.splitlines()) == 1, cap.err
    assert str(path) in cap.err and re.search(problem, cap.err), cap.err


def test_hostile_params(tmp_path, capsys):
    for label, data, problem in _hostile_params():
        path = tmp_path / (label + '.params')
        path.write_bytes(data)
        if data[:8] != b'\x12\x01' + b'\0' * 6:  # not even the header
            problem = 'neither an MXNet parameter file'
        _assert_one_error([str(path)], path, problem, capsys)


def test_hostile_symbol_json(tmp_path, capsys):
    from test_hostile_files import _symbol, _set, _conv
    cases = [(_set(_conv, 'inputs', [[5, 0, 0]]), 'does not precede it'),
             (_set(_conv, 'op', ['Convolution']), 'must be an object with string "op"'),
             (_set(lambda d: d, 'heads', [[99, 0, 0]]), 'head 0 refers to node 99'),
             (_set(lambda d: d['nodes'][1], 'attrs', {'x': '@DEEP@'}),
              'nested too deeply|must be an object')]
    for k, (change, problem) in enumerate(cases):
        path = tmp_path / ('bad%d-symbol.json' % k)
        path.write_text(_symbol(change))
        _assert_one_error([str(path), '--json'], path, problem, capsys)
    path = tmp_path / 'deep-symbol.json'
    path.write_text('{"nodes": ' + '[' * 100000 + ']' * 100000 + '}')
    _assert_one_error([str(path)], path, 'nested too deeply', capsys)
    path.write_text('{"nodes": [{"op": "null", "name": "x", "subgraphs": [' * 40 + ']}]}' * 40)
    _assert_one_error([str(path)], path, 'Failed to parse|nest deeper than', capsys)
    path.write_bytes(b'{"nodes": [{"op": "null", "name": "d\xffta"}]}')
    _assert_one_error([str(path)], path, 'not UTF-8', capsys)
    _assert_one_error([str(tmp_path / 'missing.params')], tmp_path / 'missing.params',
                      'No such file', capsys)


def test_control_flow_symbols(tmp_path):
    """Graphs with foreach / while_loop / cond subgraphs (tests/fixtures/sym_control_flow):
    the arguments MXNet lists, and the operators of the subgraphs counted too."""
    path = os.path.join(FIXTURES, 'sym_control_flow', 'sym_control_flow.json')
    if not os.path.exists(path):
        pytest.skip('fixture missing: run scripts/make_fixtures.py --only sym_control_flow')
    with open(path) as f:
        cases = json.load(f)
    for name, case in cases.items():
        sym = tmp_path / (name + '-symbol.json')
        sym.write_text(case['json'])
        rep = inspect_file(str(sym))
        assert rep['unsupported_operators'] == [], name
        args = case['arguments']
        assert rep['inputs']['parameters'] == [a for a in args if a.endswith(PARAM_SUFFIXES)]
        assert rep['inputs']['data'] == [a for a in args if not a.endswith(PARAM_SUFFIXES)]
        doc = json.loads(case['json'])
        top = collections.Counter(n['op'] for n in doc['nodes'] if n['op'] != 'null')
        assert all(rep['operators'][op] >= n for op, n in top.items()), name
        if any(n.get('subgraphs') for n in doc['nodes']):
            assert sum(rep['operators'].values()) > sum(top.values()), name
