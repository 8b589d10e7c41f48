"""Side-by-side timing of one workload on mxcompat, plain PyTorch and (optionally) real MXNet.

Each framework runs in its own worker process (real MXNet under the interpreter given by
``--mxnet-python``), driven over a pipe. Workloads come from a suite module (e.g.
``bench_ops.py``): each builds a zero-argument callable per framework from the same numpy
inputs. The harness calibrates a repeat count per callable, then runs ``--rounds`` rounds in
which every workload is timed on every framework in turn (interleaved, so that machine noise
hits all of them alike), and prints median per-call times and the ratios to PyTorch.

    python benchmarks/bench_ops.py [--mxnet-python ~/mxnet-oracle/bin/python] [--rounds 5]

The worker protocol (one JSON object per line) is internal: ``--worker`` is not for users.
"""
import argparse
import importlib
import json
import os
import platform
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BACKENDS = ('torch', 'mxcompat', 'base', 'mxnet')


class Workload:
    """One benchmark: numpy inputs, and the code to time on MXNet's API and on torch.

    Parameters
    ----------
    name : str
        Row label.
    inputs : callable(size, numpy.random.RandomState) -> dict of numpy arrays
    mx : callable(mx, **arrays) -> callable
        Builds the timed callable from ``mx`` (mxcompat or real MXNet) and NDArrays.
    torch : callable(torch, **arrays) -> callable
        Builds the equivalent timed callable from ``torch`` and tensors.
    needs : tuple of str
        ``mx.nd`` names the workload calls; where one is missing it is skipped. A dotted name
        (``'gluon.rnn.LSTM'``) is looked up from the ``mx`` package itself.
    items : int, optional
        Items (samples, images) one call processes; adds a throughput table (items/s).
    first_call : bool
        Also report the time of the first call (e.g. ``hybridize``'s graph build).
    """

    def __init__(self, name, inputs, mx, torch, needs=(), items=None, first_call=False):
        self.name, self.inputs, self.mx, self.torch, self.needs = name, inputs, mx, torch, needs
        self.items, self.first_call = items, first_call


def _status_mb(field):
    """A memory figure of this process from /proc/self/status, in MiB (None elsewhere)."""
    try:
        with open('/proc/self/status') as f:
            for line in f:
                if line.startswith(field + ':'):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return None


def reset_peak_rss():
    """Starts a new peak-memory measurement of this process; returns its resident memory
    now, in MiB. On Linux the peak (VmHWM) is reset to the current size; elsewhere the
    peak is the process's own (``ru_maxrss``)."""
    try:
        with open('/proc/self/clear_refs', 'w') as f:
            f.write('5')
    except OSError:
        pass
    now = _status_mb('VmRSS')
    return now if now is not None else peak_rss_mb()


def peak_rss_mb():
    """The peak resident memory of this process since ``reset_peak_rss`` (or its start), in
    MiB: VmHWM, which unlike ``ru_maxrss`` does not carry over the parent's peak into a
    subprocess."""
    peak = _status_mb('VmHWM')
    if peak is None:
        import resource
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    return peak


def _has(root, dotted):
    for part in dotted.split('.'):
        if not hasattr(root, part):
            return False
        root = getattr(root, part)
    return True


# ---------------------------------------------------------------------------- worker side
class _Framework:
    def __init__(self, backend, gpu, threads, cpu_time=False, base=None):
        self.backend = backend
        self.clock = time.process_time if cpu_time else time.perf_counter
        if backend == 'torch':
            import torch
            if threads:
                torch.set_num_threads(threads)
            self.lib = torch
            self.device = torch.device('cuda' if gpu else 'cpu')
            self.version = torch.__version__
            self.sync = torch.cuda.synchronize if gpu else (lambda: None)
            return
        if backend in ('mxcompat', 'base'):
            root = ROOT if backend == 'mxcompat' else os.path.abspath(base)
            sys.path.insert(0, root)
            import mxcompat as mx
            import torch
            if threads:
                torch.set_num_threads(threads)
            self.version = 'mxcompat from %s on torch %s' % (root, torch.__version__)
        else:
            import mxnet as mx
            if 'mxcompat' in (mx.__file__ or ''):
                raise RuntimeError('--mxnet-python must have real MXNet, not mxcompat')
            self.version = 'MXNet %s' % mx.__version__
        self.lib = mx
        self.ctx = mx.gpu(0) if gpu else mx.cpu()
        self.sync = mx.nd.waitall

    def build(self, wl, arrays):
        # models are built on the device under test: torch modules and Gluon parameters made
        # without an explicit device land there, as in a script that sets its default device
        if self.backend == 'torch':
            t = {k: self.lib.from_numpy(v).to(self.device) for k, v in arrays.items()}
            with self.device:
                return wl.torch(self.lib, **t)
        missing = ['mx.' + n if '.' in n else 'mx.nd.' + n for n in wl.needs
                   if not _has(self.lib if '.' in n else self.lib.nd, n)]
        if missing:
            raise _Skip('%s missing in %s' % (', '.join(missing), self.backend))
        nds = {k: self.lib.nd.array(v, ctx=self.ctx, dtype=v.dtype) for k, v in arrays.items()}
        with self.ctx:
            return wl.mx(self.lib, **nds)

    def time(self, fn, number, clock=None):
        clock = clock or self.clock
        sync = self.sync
        sync()
        t0 = clock()
        for _ in range(number):
            fn()
        sync()
        return clock() - t0


class _Skip(Exception):
    pass


def _worker(args):
    global _OUT
    import numpy as np
    # Replies go to the original stdout; anything the frameworks print goes to stderr.
    _OUT = os.fdopen(os.dup(1), 'w')
    os.dup2(2, 1)
    suite = importlib.import_module(args.suite)
    try:
        fw = _Framework(args.worker, args.gpu, args.threads, args.cpu_time, args.base)
    except Exception as exc:  # reported to the driver, which skips this framework
        _reply({'error': '%s: %s' % (type(exc).__name__, exc)})
        return
    _reply({'version': fw.version})
    fns = {}
    for line in sys.stdin:
        msg = json.loads(line)
        cmd = msg['cmd']
        if cmd == 'quit':
            break
        name = msg['name']
        if cmd == 'setup':
            wl = next(w for w in suite.WORKLOADS if w.name == name)
            arrays = wl.inputs(args.size, np.random.RandomState(0))
            try:
                fn = fw.build(wl, arrays)
                # wall clock even under --cpu-time: compilers work in other processes
                first = fw.time(fn, 1, time.perf_counter)
                # one-off work may be left for the next calls (a compiled static training
                # step compiles its joint function on the second): before calibrating
                then = fw.time(fn, 2, time.perf_counter)
            except _Skip as exc:
                _reply({'skip': str(exc)})
                continue
            except Exception as exc:
                _reply({'skip': 'fails: %s: %s' % (type(exc).__name__, str(exc)[:200])})
                continue
            fns[name] = fn
            _reply({'ok': True, 'first': first, 'then': then})
        elif cmd == 'calibrate':
            number = 1
            while True:
                elapsed = fw.time(fns[name], number)
                if elapsed >= msg['min_time'] or number >= 10 ** 7:
                    break
                number *= 10 if elapsed < msg['min_time'] / 20 else 2
            _reply({'number': number})
        elif cmd == 'time':
            _reply({'seconds': fw.time(fns[name], msg['number'])})


_OUT = None


def _reply(obj):
    _OUT.write(json.dumps(obj) + '\n')
    _OUT.flush()


# ---------------------------------------------------------------------------- driver side
class _Worker:
    def __init__(self, backend, python, args):
        cmd = [python, os.path.abspath(__file__), '--worker', backend, '--suite', args.suite,
               '--size', str(args.size), '--threads', str(args.threads)]
        if args.gpu:
            cmd.append('--gpu')
        if args.cpu_time:
            cmd.append('--cpu-time')
        if args.base:
            cmd += ['--base', args.base]
        env = dict(os.environ, PYTHONPATH=HERE + os.pathsep + os.environ.get('PYTHONPATH', ''))
        if args.threads:
            env.update(OMP_NUM_THREADS=str(args.threads), MKL_NUM_THREADS=str(args.threads),
                       MXNET_CPU_WORKER_NTHREADS=str(args.threads))
        self.backend = backend
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, env=env, cwd=ROOT)
        hello = self._read()
        self.error = hello.get('error')
        self.version = hello.get('version')

    def _read(self):
        line = self.proc.stdout.readline()
        if not line:
            return {'error': 'worker exited with status %s' % self.proc.wait()}
        return json.loads(line)

    def ask(self, **msg):
        self.proc.stdin.write(json.dumps(msg) + '\n')
        self.proc.stdin.flush()
        return self._read()

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write('{"cmd": "quit"}\n')
                self.proc.stdin.close()
            except BrokenPipeError:
                pass
        self.proc.wait()


def _machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open('/proc/cpuinfo') as f:
            cpu = next(l.split(':', 1)[1].strip() for l in f if l.startswith('model name'))
    except (OSError, StopIteration):
        pass
    return '%s, %d cores, Python %s' % (cpu, os.cpu_count() or 0, platform.python_version())


def _fmt_time(s):
    return '-' if s is None else ('%.2f' % (s * 1e6) if s < 1e-3 else '%.1f' % (s * 1e6))


def run(args):
    suite = importlib.import_module(args.suite)
    workloads = [w for w in suite.WORKLOADS if not args.only or w.name in args.only]
    args.load_at_start = _load()
    pythons = {'torch': sys.executable, 'mxcompat': sys.executable}
    if args.base:
        pythons['base'] = sys.executable
    if args.mxnet_python:
        pythons['mxnet'] = os.path.expanduser(args.mxnet_python)
    workers = {}
    notes = []
    for backend in BACKENDS:
        if backend in pythons:
            w = _Worker(backend, pythons[backend], args)
            if w.error:
                notes.append('%s: not run (%s)' % (backend, w.error))
                w.close()
            else:
                workers[backend] = w
    try:
        numbers, skipped, firsts, thens = {}, {}, {}, {}
        for wl in workloads:
            for backend, w in workers.items():
                res = w.ask(cmd='setup', name=wl.name)
                if 'skip' in res:
                    skipped[wl.name, backend] = res['skip']
                    continue
                firsts[wl.name, backend] = res.get('first')
                thens[wl.name, backend] = res.get('then')
                numbers[wl.name, backend] = w.ask(cmd='calibrate', name=wl.name,
                                                  min_time=args.min_time)['number']
        times = {key: [] for key in numbers}
        order = list(workers)
        for r in range(args.rounds):
            for wl in workloads:
                # rotate the framework order every round so that none is always first
                for backend in order[r % len(order):] + order[:r % len(order)]:
                    key = (wl.name, backend)
                    if key in numbers:
                        sec = workers[backend].ask(cmd='time', name=wl.name,
                                                   number=numbers[key])['seconds']
                        times[key].append(sec / numbers[key])
    finally:
        for w in workers.values():
            w.close()
    medians = {key: statistics.median(v) for key, v in times.items()}
    _print_table(args, workloads, workers, medians, skipped, notes, firsts, thens)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'machine': _machine(), 'size': args.size, 'rounds': args.rounds,
                       'threads': args.threads, 'gpu': args.gpu, 'cpu_time': args.cpu_time,
                       'versions': {b: w.version for b, w in workers.items()},
                       'load_average': {'start': args.load_at_start, 'end': _load()},
                       'median_seconds': {'%s/%s' % k: v for k, v in medians.items()},
                       'first_call_seconds': {'%s/%s' % k: v for k, v in firsts.items()},
                       'second_third_call_seconds': {'%s/%s' % k: v
                                                     for k, v in thens.items()},
                       'all_seconds': {'%s/%s' % k: v for k, v in times.items()},
                       'skipped': {'%s/%s' % k: v for k, v in skipped.items()}}, f, indent=1)
    return 0


def _load():
    try:
        return list(os.getloadavg())
    except (AttributeError, OSError):
        return None


def _table(title, workloads, cols, ratio_cols, value, fmt, width):
    if title:
        print(title)
    head = '%-*s' % (width, 'workload') + ''.join('%12s' % c for c in cols) + \
        ''.join('%16s' % ('%s/torch' % c) for c in ratio_cols)
    print(head)
    print('-' * len(head))
    for wl in workloads:
        row = '%-*s' % (width, wl.name)
        for c in cols:
            v = value(wl, c)
            row += '%12s' % ('-' if v is None else fmt(v))
        for c in ratio_cols:
            a, t = value(wl, c), value(wl, 'torch')
            row += '%16s' % ('-' if a is None or t is None else '%.2fx' % (a / t))
        print(row)


def _print_table(args, workloads, workers, medians, skipped, notes, firsts=None, thens=None):
    print('machine: %s' % _machine())
    start, end = getattr(args, 'load_at_start', None), _load()
    if end:
        print('load average (1, 5, 15 min): %s at the start, %.2f %.2f %.2f at the end'
              % ('-' if not start else '%.2f %.2f %.2f' % tuple(start), *end))
    for b, w in workers.items():
        print('%-9s %s' % (b + ':', w.version))
    suite = sys.modules.get(args.suite)
    inputs = getattr(suite, 'INPUTS', None) or 'inputs %dx%d float32' % (args.size, args.size)
    print('per-call %s in microseconds, median of %d interleaved rounds; %s on %s, '
          '%s thread(s)' % ('CPU time' if args.cpu_time else 'time', args.rounds, inputs,
                            'GPU' if args.gpu else 'CPU', args.threads or 'default'))
    cols = [b for b in BACKENDS if b in workers]
    ratio_cols = [b for b in ('mxcompat', 'base', 'mxnet') if b in workers and 'torch' in workers]
    width = max([16] + [len(wl.name) + 1 for wl in workloads])
    _table('', workloads, cols, ratio_cols, lambda wl, c: medians.get((wl.name, c)),
           _fmt_time, width)
    counted = [wl for wl in workloads if wl.items]
    if counted:
        def rate(wl, c):
            t = medians.get((wl.name, c))
            return None if t is None else wl.items / t
        _table('\nthroughput in items/s (ratios > 1: faster than torch)', counted, cols,
               ratio_cols, rate, lambda v: '%.0f' % v, width)
    firsts = firsts or {}
    once = [wl for wl in workloads if wl.first_call]
    if once:
        _table('\nfirst call in microseconds (includes one-off work: deferred init, '
               'hybridize graph build)', once, cols, ratio_cols,
               lambda wl, c: firsts.get((wl.name, c)), _fmt_time, width)
        thens = thens or {}
        _table('\nsecond and third calls together, in microseconds (one-off work left for '
               'them: a compiled static training step compiles its joint function)', once,
               cols, ratio_cols, lambda wl, c: thens.get((wl.name, c)), _fmt_time, width)
    for (name, backend), why in sorted(skipped.items()):
        print('note: %s skipped on %s: %s' % (name, backend, why))
    for n in notes:
        print('note: %s' % n)


def main(argv=None, suite=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--suite', default=suite or 'bench_ops',
                    help='module in benchmarks/ that defines WORKLOADS')
    ap.add_argument('--mxnet-python', metavar='PYTHON',
                    help='interpreter with real MXNet 1.x installed; adds an MXNet column')
    ap.add_argument('--base', metavar='DIR',
                    help='folder holding another mxcompat package (e.g. an export of an '
                         'earlier commit: git archive COMMIT mxcompat | tar -x -C DIR); adds a '
                         '"base" column, timed interleaved with the others (A/B of a change)')
    ap.add_argument('--rounds', type=int, default=5, help='interleaved rounds (default 5)')
    ap.add_argument('--size', type=int, default=16, help='inputs are SIZE x SIZE (default 16)')
    ap.add_argument('--threads', type=int, default=1,
                    help='intra-op threads of every framework (0: their defaults; default 1)')
    ap.add_argument('--min-time', type=float, default=0.05,
                    help='seconds one timed batch of calls lasts at least (default 0.05)')
    ap.add_argument('--only', nargs='*', help='workload names to run (default: all)')
    ap.add_argument('--gpu', action='store_true', help='run on GPU 0 instead of the CPU')
    ap.add_argument('--json', metavar='FILE', help='also write all timings to FILE')
    ap.add_argument('--cpu-time', action='store_true',
                    help='time calls with the CPU seconds of each worker process instead of '
                         'the wall clock (first calls stay wall clock): steadier on a shared, '
                         'loaded machine (CPU runs only)')
    ap.add_argument('--worker', choices=BACKENDS, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error('--rounds must be at least 1')
    if HERE not in sys.path:
        sys.path.insert(0, HERE)
    if args.worker:
        _worker(args)
        return 0
    return run(args)


if __name__ == '__main__':
    sys.exit(main())
