"""``mxcompat convert`` against files written by real MXNet 1.9.1 (tests/fixtures/convert,
scripts/fixture_writers/convert.py): the outputs hold exactly the arrays MXNet saved (names per
``--names``, values bit-equal by their sha256 under MXNet), PyTorch-named state_dicts load into
the equivalent torch.nn modules and reproduce MXNet's outputs, and bad input or a killed run
leaves no output."""
import hashlib
import json
import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import torch

import mxcompat as mx
from mxcompat.base import MXNetError
from mxcompat.cli import main
from mxcompat.tools import convert
from conftest import FIXTURES, ROOT

safetensors = pytest.importorskip('safetensors.torch')

DIR = os.path.join(FIXTURES, 'convert')
PARAMS = ('cnn.params', 'cnn-prefixed.params', 'cnn-0000.params', 'lstm.params', 'gru.params',
          'gru-prefixed.params', 'mlp-0002.params', 'dict.params', 'list.params')


def _fixture(name):
    path = os.path.join(DIR, name)
    if not os.path.exists(path):
        pytest.skip('fixture missing: run scripts/make_fixtures.py --only convert')
    return path


def _expected():
    with open(_fixture('expected.json')) as f:
        return json.load(f)


def _outputs():
    return np.load(_fixture('outputs.npz'))


def _sha(t):
    if t.dtype == torch.bfloat16:
        t = t.view(torch.int16)
    return hashlib.sha256(t.contiguous().numpy().tobytes()).hexdigest()


def _load(path):
    if path.endswith('.safetensors'):
        return safetensors.load_file(path)
    return torch.load(path, weights_only=True)


def _leftovers(directory):
    return sorted(n for n in os.listdir(directory) if n.endswith('.tmp'))


@pytest.mark.parametrize('ext', ['.safetensors', '.pt'])
@pytest.mark.parametrize('name', PARAMS)
def test_output_holds_exactly_the_arrays(name, ext, tmp_path):
    out = str(tmp_path / ('out' + ext))
    assert main(['convert', _fixture(name), '-o', out, '-q']) == 0
    got = _load(out)
    want = _expected()['params'][name]
    keys = [k if k is not None else str(i) for i, (k, *_) in enumerate(want)]
    assert sorted(got) == sorted(keys)
    if ext == '.pt':
        assert list(got) == keys  # a state_dict keeps the file's order
    for key, (_, shape, dtype, size, sha, _) in zip(keys, want):
        t = got[key]
        assert list(t.shape) == shape and str(t.dtype) == 'torch.' + dtype and t.numel() == size
        assert _sha(t) == sha, key
    assert _leftovers(str(tmp_path)) == []


@pytest.mark.parametrize('name', ['cnn.params', 'cnn-0000.params', 'mlp-0002.params',
                                  'dict.params'])
def test_pt_round_trips_to_the_mxnet_file(name, tmp_path):
    """mx.nd.save of the .pt state_dict writes MXNet's file again, byte for byte."""
    out = str(tmp_path / 'out.pt')
    assert main(['convert', _fixture(name), '-o', out, '-q']) == 0
    again = str(tmp_path / 'again.params')
    mx.nd.save(again, {k: mx.nd.from_torch(v) for k, v in _load(out).items()})
    with open(again, 'rb') as a, open(_fixture(name), 'rb') as b:
        assert a.read() == b.read()


def test_default_output_is_safetensors(tmp_path):
    src = tmp_path / 'model.params'
    with open(_fixture('cnn.params'), 'rb') as f:
        src.write_bytes(f.read())
    assert main(['convert', str(src), '-q']) == 0
    assert sorted(_load(str(tmp_path / 'model.safetensors'))) == \
        sorted(e[0] for e in _expected()['params']['cnn.params'])
    assert os.stat(tmp_path / 'model.safetensors').st_mode & 0o777 == \
        os.stat(src).st_mode & 0o777  # not safetensors' 0600


# ------------------------------------------------------------------------------- torch names
def _torch_sd(name, tmp_path, *extra):
    out = str(tmp_path / 'out.pt')
    assert main(['convert', _fixture(name), '-o', out, '--names', 'torch', '-q'] + list(extra)) \
        == 0
    return _load(out)


class _Named(torch.nn.Module):
    """The CNN with Gluon's prefixed layer names as attribute names."""

    def __init__(self):
        super().__init__()
        self.cnn_conv0 = torch.nn.Conv2d(2, 4, 3)
        self.cnn_batchnorm0 = torch.nn.BatchNorm2d(4)
        self.cnn_dense0 = torch.nn.Linear(64, 3)

    def forward(self, x):
        return self.cnn_dense0(torch.relu(self.cnn_batchnorm0(self.cnn_conv0(x))).flatten(1))


@pytest.mark.parametrize('name', ['cnn.params', 'cnn-prefixed.params', 'cnn-0000.params'])
def test_torch_names_load_into_torch_cnn(name, tmp_path):
    sd = _torch_sd(name, tmp_path)
    if name == 'cnn.params':
        assert list(sd) == ['0.weight', '0.bias', '1.weight', '1.bias', '1.running_mean',
                            '1.running_var', '4.weight', '4.bias']
        model = torch.nn.Sequential(torch.nn.Conv2d(2, 4, 3), torch.nn.BatchNorm2d(4),
                                    torch.nn.ReLU(), torch.nn.Flatten(), torch.nn.Linear(64, 3))
    else:
        assert 'cnn_batchnorm0.running_var' in sd and 'cnn_batchnorm0.weight' in sd
        model = _Named()
    model.load_state_dict(sd, strict=True)
    out = _outputs()
    with torch.no_grad():
        y = model.eval()(torch.from_numpy(out['cnn_x']))
    np.testing.assert_allclose(y.numpy(), out['cnn_y'], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('name, make', [
    ('lstm.params', lambda: torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True)),
    ('gru.params', lambda: torch.nn.GRU(3, 5)),
    ('gru-prefixed.params', lambda: torch.nn.GRU(3, 5)),
])
def test_torch_names_load_into_torch_rnn(name, make, tmp_path):
    sd = _torch_sd(name, tmp_path)
    if name == 'gru-prefixed.params':  # 'gru.weight_ih_l0', ...: strip the layer's prefix
        assert all(k.startswith('gru.') for k in sd)
        sd = _torch_sd(name, tmp_path, '--rename', r'^gru\.=')
    layer = make()
    layer.load_state_dict(sd, strict=True)
    kind = name.split('.')[0].split('-')[0]
    out = _outputs()
    with torch.no_grad():
        y, _ = layer(torch.from_numpy(out[kind + '_x']))
    np.testing.assert_allclose(y.numpy(), out[kind + '_y'], rtol=1e-5, atol=1e-6)


def test_torch_names_of_module_checkpoint(tmp_path):
    sd = _torch_sd('mlp-0002.params', tmp_path)
    assert list(sd) == ['fc1.weight', 'fc1.bias', 'bn1.weight', 'bn1.bias', 'fc2.weight',
                        'fc2.bias', 'bn1.running_mean', 'bn1.running_var']
    model = torch.nn.Module()  # sym.BatchNorm's eps is 1e-3
    model.fc1, model.bn1, model.fc2 = (torch.nn.Linear(5, 8), torch.nn.BatchNorm1d(8, eps=1e-3),
                                       torch.nn.Linear(8, 3))
    model.load_state_dict(sd, strict=True)
    model.eval()
    out = _outputs()
    with torch.no_grad():
        h = torch.relu(model.bn1(model.fc1(torch.from_numpy(out['mlp_x']))))
        y = torch.softmax(model.fc2(h), dim=1)
    np.testing.assert_allclose(y.numpy(), out['mlp_y'], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('name, want', [
    ('features.3._unfused.2.h2r_weight', 'features.3.weight_hr_l2'),
    ('lstm0_r1_h2h_bias', 'lstm0.bias_hh_l1_reverse'),
    ('l0_i2h_weight', 'weight_ih_l0'),
    ('cell.i2h_bias', 'cell.bias_ih'),
    ('decoder_lstmcell0_h2h_weight', 'decoder_lstmcell0.weight_hh'),
    ('arg:stage1_prelu0_alpha', 'stage1_prelu0.weight'),
    ('aux:bn_data_moving_mean', 'bn_data.running_mean'),
    ('embedding0_weight', 'embedding0.weight'),
    ('lstm_parameters', 'lstm_parameters'),  # a fused RNN op's blob: kept
    ('gamma', 'weight'),
])
def test_torch_name(name, want):
    assert convert.torch_name(name) == want


# ------------------------------------------------------------------------------- rename, dtype
def test_rename_rules_apply_in_order(tmp_path):
    out = str(tmp_path / 'out.pt')
    assert main(['convert', _fixture('mlp-0002.params'), '-o', out, '-q',
                 '--rename', r'^(arg|aux):=', '--rename', r'^fc(\d)=dense\1',
                 '--rename', r'_weight$=.w']) == 0
    assert list(_load(out))[:3] == ['dense1.w', 'dense1_bias', 'bn1_gamma']


def test_rename_collision_and_bad_rule(tmp_path, capsys):
    out = str(tmp_path / 'out.safetensors')
    assert main(['convert', _fixture('cnn.params'), '-o', out, '--rename', r'\d+\.=']) == 1
    err = capsys.readouterr().err
    assert err.count('\n') == 1 and "'0.weight' and '4.weight' would both be named 'weight'" \
        in err
    assert main(['convert', _fixture('cnn.params'), '-o', out, '--rename', 'w(=x']) == 1
    assert 'bad regular expression' in capsys.readouterr().err
    assert os.listdir(str(tmp_path)) == []


@pytest.mark.parametrize('dtype', ['float16', 'bfloat16'])
def test_dtype_casts_floating_arrays(dtype, tmp_path):
    out = str(tmp_path / 'out.safetensors')
    assert main(['convert', _fixture('dict.params'), '-o', out, '--dtype', dtype, '-q']) == 0
    got = _load(out)
    for key, _, src, _, sha, sha16 in _expected()['params']['dict.params']:
        if sha16 is None:  # integer arrays keep their type and values
            assert str(got[key].dtype) == 'torch.' + src and _sha(got[key]) == sha
        else:
            assert got[key].dtype == getattr(torch, dtype)
            if dtype == 'float16':
                assert _sha(got[key]) == sha16, key  # MXNet's astype('float16'), bit for bit


# ------------------------------------------------------------------------------- errors
def _cli(args, capsys):
    code = main(['convert'] + args)
    err = capsys.readouterr().err
    return code, err


@pytest.mark.parametrize('args, problem', [
    (['nope.params'], r'cannot open "nope.params": No such file'),
    (['x-symbol.json'], 'give its parameter file too'),
    (['a.params', 'b.params'], 'INPUT must be one parameter file'),
    (['a', 'b', '--epoch', '1'], '--epoch takes one checkpoint prefix'),
    (['@cnn.params', '-o', 'x.bin'], r'cannot tell the format of x.bin'),
    (['@cnn.params', '-o', 'x.pt2'], "a pt2 output is a program: give the model's "
                                     "-symbol.json"),
    (['@cnn.params', '--check', 'x.npy'], r'--check and --shape apply to \.pt2 and \.onnx'),
    (['@list.params', '@mlp-symbol.json', '-o', 'x.pt2'], 'holds a list of unnamed arrays'),
    (['@cnn-symbol.json', '@cnn.params', '-o', 'x.pt2'], r'cnn.params holds arrays that are no '
     r'inputs of .*cnn-symbol.json \(0.weight, 0.bias, 1.gamma, ...\): give the .params file '
     r'saved with the symbol'),
    (['@cnn-symbol.json', '@mlp-0002.params', '-o', 'x.pt2'], 'holds arrays that are no inputs'),
    (['@cnn.params', '--dtype', 'int8'], 'invalid choice'),
    (['@cnn.params', '-o', 'no/such/dir/x.pt'], r'cannot write "no/such/dir/x.pt": No such '),
])
def test_bad_arguments(args, problem, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = [_fixture(a[1:]) if a.startswith('@') else a for a in args]
    try:
        code, err = _cli(args, capsys)
    except SystemExit as exc:  # argparse
        code, err = exc.code, capsys.readouterr().err
    assert code != 0
    assert len(err.strip().splitlines()) == 1 or 'usage' in err
    assert __import__('re').search(problem, err), err
    assert os.listdir(str(tmp_path)) == []


def test_output_may_not_be_an_input(tmp_path, capsys):
    src = tmp_path / 'w.pt'
    with open(_fixture('cnn.params'), 'rb') as f:
        src.write_bytes(f.read())
    assert _cli([str(src), '-o', str(src)], capsys)[0] == 1
    with open(_fixture('cnn.params'), 'rb') as f:
        assert src.read_bytes() == f.read()


# ------------------------------------------------------------------------------- hostile input
def _hostile_params():
    with open(_fixture('cnn.params'), 'rb') as f:
        good = f.read()
    from test_hostile_files import _one_array
    bad_magic = bytearray(good)
    bad_magic[24:28] = b'\x00\x00\x00\x7f'
    huge_key = good[:-1] + b'\xff'
    return [('truncated', good[:len(good) // 2], 'needs .* bytes'),
            ('truncated-header', good[:10], 'header needs 16 bytes'),
            ('empty', b'', 'header needs 16 bytes'),
            ('bad-magic', bytes(bad_magic), 'unknown magic'),
            ('key-not-utf8', huge_key, 'not valid UTF-8|needs'),
            ('huge-shape', _one_array((2 ** 20, 2 ** 20)), 'needs 4398046511104 bytes'),
            ('negative-dim', _one_array((2, -3)), 'negative dimension'),
            ('many-dims', _one_array((1,) * 33), 'invalid ndim 33'),
            ('bad-dtype', _one_array((1,), 99, b'\0' * 4), 'unknown type flag 99')]


@pytest.mark.parametrize('ext', ['.safetensors', '.pt'])
def test_hostile_params(ext, tmp_path, capsys):
    out = tmp_path / 'out' / ('model' + ext)
    out.parent.mkdir()
    for label, data, problem in _hostile_params():
        src = tmp_path / (label + '.params')
        src.write_bytes(data)
        code, err = _cli([str(src), '-o', str(out)], capsys)
        assert code == 1, label
        assert len(err.splitlines()) == 1 and str(src) in err, err
        assert __import__('re').search(problem, err), (label, err)
        assert os.listdir(str(out.parent)) == [], label


def test_hostile_symbol_json(tmp_path, capsys):
    from test_hostile_files import _symbol, _set, _conv
    cases = [(_set(_conv, 'inputs', [[5, 0, 0]]), 'does not precede it'),
             (_set(lambda d: d, 'heads', [[99, 0, 0]]), 'head 0 refers to node 99'),
             (_set(lambda d: d['nodes'][1], 'attrs', {'x': '@DEEP@'}), 'nested too deeply|'
                                                                       'must be an object')]
    params = _fixture('cnn-0000.params')
    for k, (change, problem) in enumerate(cases):
        sym = tmp_path / ('bad%d-symbol.json' % k)
        sym.write_text(_symbol(change))
        out = tmp_path / 'out.pt2'
        code, err = _cli([str(sym), params, '-o', str(out), '--shape', 'data=1,2,6,6'], capsys)
        assert code == 1 and len(err.splitlines()) == 1, err
        assert str(sym) in err and __import__('re').search(problem, err), err
        assert not out.exists()


def test_error_keeps_existing_output(tmp_path, monkeypatch, capsys):
    out = tmp_path / 'model.safetensors'
    out.write_bytes(b'previous')

    def fail(*args, **kwargs):
        raise KeyboardInterrupt  # Ctrl-C while the file is written

    monkeypatch.setattr(safetensors, 'save_file', fail)
    assert _cli([_fixture('cnn.params'), '-o', str(out)], capsys)[0] == 130
    assert out.read_bytes() == b'previous' and _leftovers(str(tmp_path)) == []


KILLED = textwrap.dedent('''
    import os, sys, time
    real = os.replace
    def replace(src, dst):  # the output is complete aside: stop here until killed
        print('writing', flush=True)
        time.sleep(60)
        real(src, dst)
    os.replace = replace
    from mxcompat.cli import main
    sys.exit(main(['convert', sys.argv[1], '-o', sys.argv[2], '-q']))
''')


def test_killed_conversion_leaves_no_output(tmp_path):
    out = tmp_path / 'model.safetensors'
    env = dict(os.environ, PYTHONPATH=ROOT, OMP_NUM_THREADS='1')
    proc = subprocess.Popen([sys.executable, '-c', KILLED, _fixture('cnn.params'), str(out)],
                            stdout=subprocess.PIPE, env=env)
    try:
        assert proc.stdout.readline().strip() == b'writing'
        assert _leftovers(str(tmp_path))  # the temporary file exists
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)
    finally:
        proc.stdout.close()
        if proc.poll() is None:
            proc.kill()
    assert not out.exists()
    # the next conversion completes and removes the killed run's temporary file
    assert main(['convert', _fixture('cnn.params'), '-o', str(out), '-q']) == 0
    assert _leftovers(str(tmp_path)) == [] and out.exists()


def test_progress_bar(tmp_path, capsys, monkeypatch):
    pytest.importorskip('tqdm')
    monkeypatch.setattr(convert, 'PROGRESS_BYTES', 0)
    out = str(tmp_path / 'a.safetensors')
    assert main(['convert', _fixture('cnn.params'), '-o', out]) == 0
    assert 'reading cnn.params' in capsys.readouterr().err
    assert main(['convert', _fixture('cnn.params'), '-o', out, '--quiet']) == 0
    assert capsys.readouterr().err == ''


# ------------------------------------------------------------------------------- programs
ONLY_TORCH = textwrap.dedent('''
    import sys, numpy as np, torch
    program = torch.export.load(sys.argv[1]).module()
    inputs = np.load(sys.argv[2])
    outs = program(*[torch.from_numpy(inputs[k]) for k in sorted(inputs.files)])
    assert not [m for m in sys.modules if m.startswith(('mxcompat', 'mxnet'))]
    np.save(sys.argv[3], outs[0].detach().numpy())
''')


def _run_program(path, arrays, tmp_path):
    inputs = str(tmp_path / 'inputs.npz')
    np.savez(inputs, **{'%02d' % i: a for i, a in enumerate(arrays)})
    result = str(tmp_path / 'result.npy')
    subprocess.run([sys.executable, '-c', ONLY_TORCH, path, inputs, result], check=True,
                   env=dict(os.environ, PYTHONPATH='', OMP_NUM_THREADS='1'), timeout=300)
    return np.load(result)


@pytest.mark.parametrize('model, inputs', [('cnn', ('@cnn-symbol.json', '@cnn-0000.params')),
                                           ('mlp', ('@mlp-0002.params', '--epoch', '2'))])
def test_pt2_program_runs_with_torch_only(model, inputs, tmp_path, capsys):
    pytest.importorskip('mxcompat.symbol.export')
    out = _outputs()
    x, y = out[model + '_x'], out[model + '_y']
    np.save(str(tmp_path / 'x.npy'), x)
    args = [_fixture(i[1:]) if i[0] == '@' else i for i in inputs]
    if model == 'mlp':  # a checkpoint prefix
        args[0] = args[0][:-len('-0002.params')]
    path = str(tmp_path / (model + '.pt2'))
    assert main(['convert'] + args + ['-o', path, '-q', '--check',
                                      str(tmp_path / 'x.npy')]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 and 'max abs error' in lines[0]
    extra = [np.zeros(len(x) - 1, np.float32)] if model == 'mlp' else []  # softmax_label
    got = _run_program(path, [x[1:]] + extra, tmp_path)  # another batch size
    np.testing.assert_allclose(got, y[1:], rtol=1e-4, atol=1e-5)


def test_onnx_runs_in_onnxruntime(tmp_path):
    pytest.importorskip('mxcompat.symbol.export')
    pytest.importorskip('onnx')
    ort = pytest.importorskip('onnxruntime')
    path = str(tmp_path / 'cnn.onnx')
    assert main(['convert', _fixture('cnn-symbol.json'), _fixture('cnn-0000.params'), '-o',
                 path, '--shape', 'data=2,2,6,6', '-q']) == 0
    out = _outputs()
    session = ort.InferenceSession(path, providers=['CPUExecutionProvider'])
    got = session.run(None, {session.get_inputs()[0].name: out['cnn_x']})[0]
    np.testing.assert_allclose(got, out['cnn_y'], rtol=1e-4, atol=1e-5)


def test_read_params_is_the_reader(tmp_path):
    """Every input goes through read_params (the one place a faster reader replaces)."""
    keys, tensors = convert.read_params(_fixture('list.params'))
    want = _expected()['params']['list.params']
    assert keys is None and [_sha(t) for t in tensors] == [w[4] for w in want]
    with pytest.raises(MXNetError, match=r'Invalid NDArray file format \(.*x.params\)'):
        (tmp_path / 'x.params').write_bytes(b'\x12\x01' + b'\0' * 20)
        convert.read_params(str(tmp_path / 'x.params'))


def test_program_needs_every_parameter(tmp_path, capsys):
    arrays = mx.nd.load(_fixture('mlp-0002.params'))
    del arrays['arg:fc2_bias']
    mx.nd.save(str(tmp_path / 'mlp-0002.params'), arrays)
    code, err = _cli([_fixture('mlp-symbol.json'), str(tmp_path / 'mlp-0002.params'), '-o',
                      str(tmp_path / 'x.pt2'), '--shape', 'data=1,5'], capsys)
    assert code == 1 and 'mlp-0002.params lacks parameters of' in err and 'fc2_bias' in err
    assert not (tmp_path / 'x.pt2').exists()
