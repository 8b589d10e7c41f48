"""torch.export programs (.pt2) and ONNX files from graphs written by real MXNet 1.9.1.

Fixtures (scripts/fixture_writers/export.py): MXNet's symbol JSON of every
``gluon.model_zoo.vision`` model, two RNN language models and a foreach/while_loop graph, a
Module checkpoint, and MXNet's outputs at two batch sizes, with every parameter from a
generator seeded by its name. Each graph is exported traced at the first batch size, saved,
and run in a separate ``python -I`` process that imports only torch (and cannot import
mxcompat), at both batch sizes and at batch 1.
"""
import gzip
import json
import os
import subprocess
import sys

import numpy as np
import pytest
import torch

import mxcompat as mx
from mxcompat.base import MXNetError
from mxcompat.symbol.export import export_program, save_program, save_onnx
from scripts.fixture_writers.export import ZOO, BATCHES, shapes, data, param_values, seeded

FIX = os.path.join(os.path.dirname(__file__), 'fixtures', 'export')
# atol is relative to the largest magnitude of the output: the deep models' logits reach ~30,
# where float32 sums over 150 layers differ in the 6th digit near 0
RTOL, ATOL = 1e-4, 1e-5
# graphs whose rows depend on each other (the while_loop's condition is a mean over the batch)
_BATCH_COUPLED = ('control_flow',)
# the default run; test_model_zoo_sweep (slow) runs the other models of the zoo
DEFAULT = ['resnet18_v1', 'mobilenet0.25', 'squeezenet1.0', 'lstm_lm', 'gru_lm', 'control_flow',
           'module']

# run by `python -I` (no PYTHONPATH, no cwd on sys.path) with mxcompat and mxnet made
# unimportable (this venv may have mxcompat installed): loads each program and runs it on the
# saved inputs, with nothing but torch imported
_RUNNER = r'''
import sys
sys.modules['mxcompat'] = sys.modules['mxnet'] = None  # any import of them fails
import torch
jobs = torch.load(sys.argv[1])
out = {}
for name, (path, feeds) in jobs.items():
    fn = torch.export.load(path).module()
    out[name] = {b: [t.detach() for t in fn(*xs)] for b, xs in feeds.items()}
assert not [m for m, v in sys.modules.items() if v is not None and
            m.split('.')[0] in ('mxcompat', 'mxnet')]
torch.save(out, sys.argv[2])
'''


def _symbols():
    with gzip.open(os.path.join(FIX, 'symbols.json.gz'), 'rt') as f:
        return json.load(f)


def _expected():
    with np.load(os.path.join(FIX, 'outputs.npz')) as z:
        return {k: z[k] for k in z.files}


def _graph(name, symbols):
    """(symbol, params, data_shapes, inputs by batch) of a fixture graph."""
    if name == 'module':
        sym, arg, aux = mx.model.load_checkpoint(os.path.join(FIX, 'mod'), 0)
        params = dict(arg, **aux)
        data_shapes = {'data': (BATCHES[0],) + shapes(name)[1:], 'softmax_label': (BATCHES[0],)}
        feeds = {b: [torch.from_numpy(data(name, b)), torch.zeros(b)] for b in BATCHES}
        return sym, params, data_shapes, feeds
    sym = mx.sym.load_json(symbols[name])
    params = param_values(sym, name)
    data_shapes = {'data': (BATCHES[0],) + shapes(name)[1:]}
    return sym, params, data_shapes, {b: [torch.from_numpy(data(name, b))] for b in BATCHES}


def _run_torch_only(jobs, tmp):
    """Outputs of each program in a process that imports only torch."""
    torch.save(jobs, str(tmp / 'jobs.pt'))
    env = {k: v for k, v in os.environ.items() if not k.startswith('PYTHON')}
    env['OMP_NUM_THREADS'] = '1'
    subprocess.run([sys.executable, '-I', '-c', _RUNNER, str(tmp / 'jobs.pt'),
                    str(tmp / 'out.pt')], check=True, env=env, cwd=str(tmp), timeout=1800)
    return torch.load(str(tmp / 'out.pt'))


def _export_all(names, tmp):
    symbols = _symbols()
    jobs = {}
    for name in names:
        sym, params, data_shapes, feeds = _graph(name, symbols)
        path = str(tmp / ('%s.pt2' % name))
        save_program(export_program(sym, params, data_shapes), path)
        if name not in _BATCH_COUPLED:  # batch 1: the first rows of the traced batch
            feeds[1] = [t[:1] for t in feeds[BATCHES[0]]]
        jobs[name] = (path, feeds)
    return _run_torch_only(jobs, tmp)


def _check(name, results, expected):
    """The outputs at both batch sizes, and at batch 1 the first rows of the traced batch's."""
    for b, outs in results[name].items():
        at = BATCHES[0] if b == 1 else b
        want = sorted(k for k in expected if k.startswith('%s/b%d/' % (name, at)))
        assert len(outs) == len(want), name
        for k, got in zip(sorted(want, key=lambda k: int(k.rsplit('/o', 1)[1])), outs):
            ref = expected[k][:1] if b == 1 else expected[k]
            np.testing.assert_allclose(got.numpy(), ref, rtol=RTOL,
                                       atol=ATOL * max(1.0, float(np.abs(ref).max())),
                                       err_msg='%s at batch %d' % (name, b))


@pytest.fixture(scope='module')
def default_results(tmp_path_factory):
    return _export_all(DEFAULT, tmp_path_factory.mktemp('export'))


@pytest.mark.parametrize('name', DEFAULT)
def test_program_torch_only(name, default_results):
    """MXNet's graph as a .pt2 program run where only torch is imported reproduces MXNet's
    outputs, at the traced batch size, another, and 1."""
    _check(name, default_results, _expected())


SWEEP = [n for n in ZOO if n not in DEFAULT]


@pytest.fixture(scope='module')
def sweep_results(tmp_path_factory):
    return _export_all(SWEEP, tmp_path_factory.mktemp('sweep'))


@pytest.mark.slow
@pytest.mark.timeout(3600)  # the first test exports all 31 models
@pytest.mark.parametrize('name', SWEEP)
def test_model_zoo_sweep(name, sweep_results):
    """Every other model of gluon.model_zoo.vision, exported by MXNet."""
    _check(name, sweep_results, _expected())


def _compare(program, name, expected):
    for b in BATCHES:
        outs = program.module()(torch.from_numpy(data(name, b)))
        np.testing.assert_allclose(outs[0].detach().numpy(), expected['%s/b%d/o0' % (name, b)],
                                   rtol=RTOL, atol=ATOL)


def test_hybrid_block_export_program(tmp_path):
    """HybridBlock.export_program: the hybridized model-zoo block with its current parameters
    (seeded as in MXNet) reproduces MXNet's outputs, also after a round trip through a file."""
    name = 'resnet18_v1'
    with mx.name.NameManager():
        net = mx.gluon.model_zoo.vision.get_model(name, classes=10)
    net.initialize()
    net.hybridize()
    x = mx.nd.array(data(name, BATCHES[0]))
    net(x)
    for p in net.collect_params().values():
        p.set_data(mx.nd.array(seeded(p.name, p.shape)))
    path = str(tmp_path / 'net.pt2')
    program = net.export_program(x, path=path)
    expected = _expected()
    _compare(program, name, expected)
    _compare(torch.export.load(path), name, expected)


def test_symbol_block_imports_export_program(tmp_path):
    """A model loaded with SymbolBlock.imports (MXNet's RNN language model, whose zero begin
    states MXNet leaves batch-sized by inference) exports the same way."""
    name = 'lstm_lm'
    sym_file = str(tmp_path / 'lm-symbol.json')
    with open(sym_file, 'w') as f:
        f.write(_symbols()[name])
    sym = mx.sym.load(sym_file)
    params = {'arg:%s' % k: mx.nd.array(v) for k, v in param_values(sym, name).items()}
    mx.nd.save(str(tmp_path / 'lm-0000.params'), params)
    net = mx.gluon.SymbolBlock.imports(sym_file, ['data'], str(tmp_path / 'lm-0000.params'))
    program = net.export_program(mx.nd.array(data(name, BATCHES[0])))
    _compare(program, name, _expected())


@pytest.mark.parametrize('name', ['lstm_lm', 'control_flow'])
def test_program_of_chunks(name, monkeypatch):
    """A graph lowered in chunks of a few operators (``lowering.CHUNK``, the size above which
    a graph's calls are split into submodules; the LSTM's zero begin states then read the
    batch size inside a chunk) exports to a program that reproduces MXNet's outputs at both
    batch sizes."""
    monkeypatch.setattr(mx.symbol.lowering, 'CHUNK', 4)
    sym, params, data_shapes, feeds = _graph(name, _symbols())
    program = export_program(sym, params, data_shapes).module()
    _check(name, {name: {b: program(*xs) for b, xs in feeds.items()}}, _expected())


def test_static_batch(tmp_path):
    """dynamic_batch=False traces a program of fixed shapes (here the Module checkpoint)."""
    sym, params, data_shapes, feeds = _graph('module', _symbols())
    program = export_program(sym, params, data_shapes, dynamic_batch=False)
    b = BATCHES[0]
    np.testing.assert_allclose(program.module()(*feeds[b])[0].numpy(),
                               _expected()['module/b%d/o0' % b], rtol=RTOL, atol=ATOL)


def test_dtype():
    """dtype= casts the parameters and the data: a float64 program of the Module checkpoint
    matches MXNet's float32 outputs."""
    sym, params, data_shapes, feeds = _graph('module', _symbols())
    program = export_program(sym, params, data_shapes, dtype='float64')
    for b in BATCHES:
        out = program.module()(*[t.double() for t in feeds[b]])[0]
        assert out.dtype == torch.float64
        np.testing.assert_allclose(out.numpy(), _expected()['module/b%d/o0' % b], rtol=RTOL,
                                   atol=ATOL)


def test_onnx(tmp_path):
    """ONNX output (through torch.onnx) runs in onnxruntime and matches MXNet, at both batch
    sizes."""
    pytest.importorskip('onnx')
    pytest.importorskip('onnxscript')
    ort = pytest.importorskip('onnxruntime')
    name = 'mobilenet0.25'
    sym, params, data_shapes, feeds = _graph(name, _symbols())
    path = str(tmp_path / 'net.onnx')
    save_onnx(sym, params, data_shapes, path)
    session = ort.InferenceSession(path, providers=['CPUExecutionProvider'])
    assert [i.name for i in session.get_inputs()] == ['data']
    expected = _expected()
    for b in BATCHES:
        out = session.run(None, {'data': data(name, b)})[0]
        np.testing.assert_allclose(out, expected['%s/b%d/o0' % (name, b)], rtol=RTOL, atol=ATOL)


def test_errors(tmp_path):
    """Bad arguments give MXNetError naming the problem; a failed save leaves no file."""
    sym, params, data_shapes, _ = _graph('module', _symbols())
    with pytest.raises(MXNetError, match="softmax_label"):
        export_program(sym, params, {'data': data_shapes['data']})
    with pytest.raises(MXNetError, match="bogus"):
        export_program(sym, params, dict(data_shapes, bogus=(1,)))
    with pytest.raises(MXNetError, match='example inputs'):
        mx.gluon.nn.Dense(3).export_program()
    path = tmp_path / 'p.pt2'
    with pytest.raises(Exception):
        save_program(object(), str(path))
    assert os.listdir(str(tmp_path)) == []
