"""Reading and writing MXNet ``.params`` files: mxcompat vs plain torch on the same bytes.

    python benchmarks/bench_params_io.py [--size-mb 1024] [--arrays 256] [--repeat 3]
                                         [--dir DIR]

Generates (once, into ``--dir``, a temporary folder by default) a ``.params`` file of
``--arrays`` float32 arrays of equal size, ``--size-mb`` MiB in all, named as Gluon's
``save_parameters`` names the weights of an ``nn.HybridSequential`` of bias-less
``nn.Dense`` layers, and the same tensors saved by ``torch.save`` as a state dict. Then each
case runs ``--repeat`` times, each time in a fresh subprocess:

* ``nd.load``: ``mx.nd.load`` of the file;
* ``load_parameters``: ``net.load_parameters`` of the file into that (initialised) network;
* ``torch.load``: ``torch.load`` of the torch file (``weights_only=True``);
* ``to safetensors``: the conversion ``safetensors.torch.save_file(dict(iter_params(f)), out)``
  (mxcompat's streaming reader feeding the safetensors package, which writes from the tensors'
  memory without copying them);
* ``convert``: ``mxcompat convert bench.params -o out.safetensors``
  (``mxcompat.tools.convert.convert``, the converter itself: checks, names, an atomic write);
* ``nd.save``: ``mx.nd.save`` of the loaded arrays (loading not timed);
* ``torch.save``: ``torch.save`` of the same tensors (loading not timed).

Reported: the median time, the throughput (file bytes / time, GB/s with GB = 1e9 bytes), the
peak resident memory of the process during the timed step (VmHWM, reset before it), and that
peak above what the process held before the step, relative to the file size. The files are read from the page cache (the
generator has just written them), so the figures are of reading memory-resident files.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from harness import peak_rss_mb, reset_peak_rss

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CASES = ('nd.load', 'load_parameters', 'torch.load', 'to safetensors', 'convert', 'nd.save',
         'torch.save')


def _side(size_mb, arrays):
    """The side of the square float32 arrays that make up ``size_mb`` MiB in ``arrays``."""
    return int(round((size_mb * 2 ** 20 / 4.0 / arrays) ** 0.5))


def _net(mx, arrays, side):
    net = mx.gluon.nn.HybridSequential()
    with net.name_scope():
        for _ in range(arrays):
            net.add(mx.gluon.nn.Dense(side, in_units=side, use_bias=False))
    return net


def generate(folder, size_mb, arrays):
    """Writes ``bench.params`` (mxcompat's ``nd.save``) and ``bench.pt`` (``torch.save``) of
    the same arrays into ``folder``."""
    sys.path.insert(0, ROOT)
    import numpy as np
    import torch
    import mxcompat as mx
    side = _side(size_mb, arrays)
    rs = np.random.RandomState(0)
    tensors = {'%d.weight' % i: torch.from_numpy(rs.standard_normal((side, side))
                                                 .astype(np.float32)) for i in range(arrays)}
    mx.nd.save(os.path.join(folder, 'bench.params'),
               {k: mx.nd.from_torch(v) for k, v in tensors.items()})
    torch.save(tensors, os.path.join(folder, 'bench.pt'))


def worker(case, folder, arrays, side):
    """Runs one case in this process; prints its time and memory as JSON."""
    import time
    sys.path.insert(0, ROOT)
    import torch
    import mxcompat as mx
    from mxcompat.ndarray.serialization import iter_params
    params = os.path.join(folder, 'bench.params')
    pt = os.path.join(folder, 'bench.pt')
    out = os.path.join(folder, 'out-%d' % os.getpid())
    step = None
    if case == 'nd.load':
        step = lambda: mx.nd.load(params)
    elif case == 'load_parameters':
        net = _net(mx, arrays, side)
        net.initialize(mx.init.Zero())
        step = lambda: net.load_parameters(params)
    elif case == 'torch.load':
        step = lambda: torch.load(pt, weights_only=True)
    elif case == 'to safetensors':
        from safetensors.torch import save_file
        step = lambda: save_file(dict(iter_params(params)), out)
    elif case == 'convert':
        from mxcompat.tools.convert import convert
        out += '.safetensors'
        step = lambda: convert([params], out)
    elif case == 'nd.save':
        loaded = mx.nd.load(params)
        step = lambda: mx.nd.save(out, loaded)
    elif case == 'torch.save':
        loaded = torch.load(pt, weights_only=True)
        step = lambda: torch.save(loaded, out)
    before = reset_peak_rss()
    t = time.perf_counter()
    result = step()
    seconds = time.perf_counter() - t
    peak = peak_rss_mb()
    del result
    if os.path.exists(out):
        os.remove(out)
    print(json.dumps({'seconds': seconds, 'peak_mb': peak, 'before_mb': before}))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--size-mb', type=int, default=1024)
    parser.add_argument('--arrays', type=int, default=256)
    parser.add_argument('--repeat', type=int, default=3)
    parser.add_argument('--dir', help='folder for the files (default: a temporary one)')
    parser.add_argument('--cases', default=','.join(CASES))
    parser.add_argument('--worker', nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        case, folder, arrays, side = args.worker
        return worker(case, folder, int(arrays), int(side))
    side = _side(args.size_mb, args.arrays)
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        generate(folder, args.size_mb, args.arrays)
        size = os.path.getsize(os.path.join(folder, 'bench.params'))
        print('.params file: %d arrays of %dx%d float32, %.1f MB; torch file %.1f MB'
              % (args.arrays, side, side, size / 1e6,
                 os.path.getsize(os.path.join(folder, 'bench.pt')) / 1e6))
        print('%-16s %9s %8s %9s %11s' % ('case', 'median s', 'GB/s', 'peak MB',
                                          'added/file'))
        env = dict(os.environ, OMP_NUM_THREADS=os.environ.get('OMP_NUM_THREADS', '1'))
        for case in args.cases.split(','):
            runs = []
            for _ in range(args.repeat):
                proc = subprocess.run([sys.executable, os.path.abspath(__file__), '--worker',
                                       case, folder, str(args.arrays), str(side)],
                                      env=env, capture_output=True, text=True)
                if proc.returncode:
                    raise RuntimeError('%s failed:\n%s' % (case, proc.stderr[-3000:]))
                runs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
            sec = statistics.median(r['seconds'] for r in runs)
            peak = statistics.median(r['peak_mb'] for r in runs)
            added = statistics.median(r['peak_mb'] - r['before_mb'] for r in runs)
            print('%-16s %9.3f %8.2f %9.0f %10.2fx' % (case, sec, size / 1e9 / sec, peak,
                                                      added * 2 ** 20 / size), flush=True)
    print('median of %d runs, each in a fresh process; peak MB: resident memory at the peak '
          'of the timed step; added/file: that peak above the memory held before the step, '
          'over the file size' % args.repeat)


if __name__ == '__main__':
    main()
