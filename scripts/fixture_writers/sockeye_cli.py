"""Sockeye 2.3.24 trained and decoding through its command line, as real MXNet runs it.

A one-layer transformer learns to reverse short digit sequences: ``python -m sockeye.train``
for a few updates with two checkpoints, then ``python -m sockeye.translate`` on held-out
sentences. Both sides start from the same weights without editing Sockeye: Sockeye's
``--params`` option loads ``init.params``, where every parameter is set from a numpy generator
seeded by its name (model_zoo.seeded); the names and shapes come from the fixture, as MXNet's
Sockeye named them. Dropout is off, so the run is deterministic; batches come in the same order
because Sockeye shuffles with Python's and numpy's generators, seeded by ``--seed``. Recorded:
the metrics file's per-checkpoint numbers (perplexities, learning rate, gradient norm), the
parameters after training and the translations. Run with an interpreter that has MXNet 1.9.1
and sockeye 2.3.24:

    ~/oracle-gluoncv/bin/python scripts/make_fixtures.py --only sockeye_cli

Under mxcompat the same ``run`` launches ``mxcompat run -m sockeye.train`` (and translate).
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

from .model_zoo import seeded

REQUIRES = 'sockeye'

TRAIN_ARGS = [
    '--use-cpu', '--seed', '13', '--encoder', 'transformer', '--decoder', 'transformer',
    '--num-layers', '1', '--transformer-model-size', '16', '--num-embed', '16',
    '--transformer-attention-heads', '2', '--transformer-feed-forward-num-hidden', '32',
    '--transformer-dropout-attention', '0', '--transformer-dropout-act', '0',
    '--transformer-dropout-prepost', '0', '--embed-dropout', '0',
    '--batch-type', 'sentence', '--batch-size', '16', '--max-seq-len', '10',
    '--max-updates', '40', '--checkpoint-interval', '20', '--decode-and-evaluate', '0',
    '--initial-learning-rate', '0.02', '--keep-last-params', '-1', '--no-logfile']
TRANSLATE_ARGS = ['--use-cpu', '--beam-size', '2', '--batch-size', '4', '--output-type',
                  'translation_with_score', '--quiet']
# metrics-file keys that are timings or memory use, not numbers of the model
UNSTABLE = ('time-elapsed', 'used-gpu-memory', 'decode-walltime')


def sentences(name, count):
    """Seeded digit sequences (source) and their reversals (target)."""
    r = np.random.RandomState(sum(map(ord, name)))
    src = [' '.join(str(d) for d in r.randint(0, 10, size=r.randint(3, 8)))
           for _ in range(count)]
    return src, [' '.join(s.split()[::-1]) for s in src]


def write_corpus(workdir):
    for name, count in (('train', 128), ('dev', 16), ('test', 6)):
        src, trg = sentences(name, count)
        for ext, lines in (('src', src), ('trg', trg)):
            with open(os.path.join(workdir, '%s.%s' % (name, ext)), 'w') as fh:
                fh.write('\n'.join(lines) + '\n')


def write_init(mx, shapes, path):
    """init.params: every parameter set from a generator seeded by its name."""
    mx.nd.save(path, {k: mx.nd.array(seeded(k, tuple(s))) for k, s in sorted(shapes.items())})


def launcher(mx):
    """How to run a Sockeye module: ``python -m`` under MXNet, ``mxcompat run -m`` else."""
    if mx.__name__ == 'mxnet':
        return [sys.executable, '-m']
    return [sys.executable, '-m', 'mxcompat', 'run', '-m']


def call(cmd, workdir):
    env = dict(os.environ, OMP_NUM_THREADS='1')
    p = subprocess.run(cmd, cwd=workdir, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=900)
    if p.returncode:
        raise RuntimeError('%s failed (rc=%d):\n%s' % (' '.join(cmd[:6]), p.returncode,
                                                       p.stdout.decode()[-4000:]))


def read_metrics(path):
    """Sockeye's metrics file -> {'checkpoint<N>/<key>': float}."""
    out = {}
    with open(path) as fh:
        for line in fh:
            fields = line.split()
            ckpt = fields[0]
            for kv in fields[1:]:
                k, v = kv.split('=')
                if not k.startswith(UNSTABLE) and v not in ('None', 'True', 'False'):
                    out['checkpoint%s/%s' % (ckpt, k)] = np.float64(v)
    return out


def run(mx, shapes):
    """Train and translate in a scratch directory -> {name: numpy array}."""
    out = {}
    with tempfile.TemporaryDirectory() as workdir:
        write_corpus(workdir)
        write_init(mx, shapes, os.path.join(workdir, 'init.params'))
        call(launcher(mx) + ['sockeye.train', '-s', 'train.src', '-t', 'train.trg',
                             '-vs', 'dev.src', '-vt', 'dev.trg', '-o', 'model',
                             '--params', 'init.params'] + TRAIN_ARGS, workdir)
        call(launcher(mx) + ['sockeye.translate', '-m', 'model', '-i', 'test.src',
                             '-o', 'test.out'] + TRANSLATE_ARGS, workdir)
        out.update(read_metrics(os.path.join(workdir, 'model', 'metrics')))
        for k, v in mx.nd.load(os.path.join(workdir, 'model', 'params.best')).items():
            out['param/' + k] = v.asnumpy()
        with open(os.path.join(workdir, 'test.out')) as fh:
            scored = [line.split('\t') for line in fh.read().splitlines()]
        out['translation_scores'] = np.array([float(score) for score, _ in scored])
        out['translations'] = np.array([text for _, text in scored])
    return out


def param_shapes(mx):
    """Names and shapes of Sockeye's parameters for TRAIN_ARGS (one update, MXNet's init)."""
    with tempfile.TemporaryDirectory() as workdir:
        write_corpus(workdir)
        args = list(TRAIN_ARGS)
        args[args.index('--max-updates') + 1] = '1'
        args[args.index('--checkpoint-interval') + 1] = '1'
        call(launcher(mx) + ['sockeye.train', '-s', 'train.src', '-t', 'train.trg',
                             '-vs', 'dev.src', '-vt', 'dev.trg', '-o', 'model'] + args,
             workdir)
        return {k: list(v.shape) for k, v in
                mx.nd.load(os.path.join(workdir, 'model', 'params.00001')).items()}


def write(mx, outdir):
    shapes = param_shapes(mx)
    with open(os.path.join(outdir, 'param_shapes.json'), 'w') as fh:
        json.dump(shapes, fh, indent=0, sort_keys=True)
    np.savez(os.path.join(outdir, 'run.npz'), **run(mx, shapes))
