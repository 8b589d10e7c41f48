"""Big symbol graphs: loading, binding and running them, mxcompat vs real MXNet.

    python benchmarks/bench_big_graph.py [--mxnet ~/mxnet-oracle/bin/python] [--repeat 3]
                                         [--nodes 100000] [--inputs 50000]

Two graphs, each written once as symbol JSON into a temporary folder:

* ``chain``: one variable ``data`` of shape (1, 16) and ``--nodes`` - 1 ``relu`` nodes, each
  applied to the one before it (a valid graph of ``--nodes`` nodes);
* ``add_n``: ``--inputs`` variables of shape (1, 16) summed by one ``add_n``.

Every case runs in a fresh subprocess (mxcompat under this interpreter, MXNet under
``--mxnet``), which times its phases: ``import``, ``load`` (``mx.sym.load``), ``bind``
(``simple_bind`` with the input shapes, then the inputs set to ones), ``forward`` (the first
``forward`` and reading the output back) and ``forward2`` (a second one); and reports its peak
resident memory (VmHWM). Each case runs ``--repeat`` times, the backends taking turns; the
table shows the medians.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from harness import peak_rss_mb

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WIDTH = 16
PHASES = ('import', 'load', 'bind', 'forward', 'forward2')


def write_chain(path, nodes):
    """A relu chain of ``nodes`` nodes (the variable and ``nodes - 1`` relus) as MXNet's
    symbol JSON."""
    jnodes = [{'op': 'null', 'name': 'data', 'inputs': []}]
    jnodes += [{'op': 'relu', 'name': 'relu%d' % i, 'inputs': [[i, 0, 0]]}
               for i in range(nodes - 1)]
    _dump(path, jnodes, [0])


def write_add_n(path, inputs):
    """``add_n`` of ``inputs`` variables as MXNet's symbol JSON."""
    jnodes = [{'op': 'null', 'name': 'x%d' % i, 'inputs': []} for i in range(inputs)]
    jnodes.append({'op': 'add_n', 'name': 'sum', 'attrs': {'num_args': str(inputs)},
                   'inputs': [[i, 0, 0] for i in range(inputs)]})
    _dump(path, jnodes, list(range(inputs)))


def _dump(path, jnodes, arg_nodes):
    graph = {'nodes': jnodes, 'arg_nodes': arg_nodes,
             'node_row_ptr': list(range(len(jnodes) + 1)),
             'heads': [[len(jnodes) - 1, 0, 0]], 'attrs': {'mxnet_version': ['int', 10901]}}
    with open(path, 'w') as f:
        json.dump(graph, f)


def worker(backend, path):
    """Runs one case in this process and prints its phase times and peak RSS as JSON."""
    import time
    times, cpu = {}, {}
    t, c = time.perf_counter(), time.process_time()
    if backend == 'mxcompat':
        sys.path.insert(0, ROOT)
        import mxcompat as mx
    else:
        import mxnet as mx
    times['import'], cpu['import'] = time.perf_counter() - t, time.process_time() - c
    t, c = time.perf_counter(), time.process_time()
    sym = mx.sym.load(path)
    times['load'], cpu['load'] = time.perf_counter() - t, time.process_time() - c
    t, c = time.perf_counter(), time.process_time()
    shapes = {name: (1, WIDTH) for name in sym.list_arguments()}
    exe = sym.simple_bind(mx.cpu(), grad_req='null', **shapes)
    for a in exe.arg_arrays:
        a[:] = 1
    times['bind'], cpu['bind'] = time.perf_counter() - t, time.process_time() - c
    for phase in ('forward', 'forward2'):
        t, c = time.perf_counter(), time.process_time()
        out = exe.forward(is_train=False)[0].asnumpy()
        times[phase], cpu[phase] = time.perf_counter() - t, time.process_time() - c
    rss = peak_rss_mb()
    print(json.dumps({'times': times, 'cpu': cpu, 'rss_mb': rss, 'out': float(out.sum())}))


def run_case(python, backend, path):
    env = dict(os.environ, OMP_NUM_THREADS=os.environ.get('OMP_NUM_THREADS', '1'))
    proc = subprocess.run([python, os.path.abspath(__file__), '--worker', backend, path],
                          env=env, capture_output=True, text=True)
    if proc.returncode:
        raise RuntimeError('%s on %s failed:\n%s' % (backend, path, proc.stderr[-3000:]))
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--mxnet', help='interpreter with real MXNet installed')
    parser.add_argument('--repeat', type=int, default=3)
    parser.add_argument('--nodes', type=int, default=100000)
    parser.add_argument('--inputs', type=int, default=50000)
    parser.add_argument('--cases', default='chain,add_n')
    parser.add_argument('--worker', nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(*args.worker)
    backends = [('mxcompat', sys.executable)]
    if args.mxnet:
        backends.append(('mxnet', os.path.expanduser(args.mxnet)))
    with tempfile.TemporaryDirectory() as tmp:
        cases = {}
        if 'chain' in args.cases:
            cases['chain'] = os.path.join(tmp, 'chain-symbol.json')
            write_chain(cases['chain'], args.nodes)
        if 'add_n' in args.cases:
            cases['add_n'] = os.path.join(tmp, 'add_n-symbol.json')
            write_add_n(cases['add_n'], args.inputs)
        print('%-8s %-9s %-5s %s %9s %9s' % ('case', 'backend', 'clock',
                                             ' '.join('%9s' % p for p in PHASES), 'total s',
                                             'peak MB'))
        for case, path in cases.items():
            by_backend = {backend: [] for backend, _ in backends}
            for _ in range(args.repeat):  # interleaved: a change of load hits both alike
                for backend, python in backends:
                    by_backend[backend].append(run_case(python, backend, path))
            for backend, runs in by_backend.items():
                rss = statistics.median(r['rss_mb'] for r in runs)
                for clock in ('times', 'cpu'):
                    med = {p: statistics.median(r[clock][p] for r in runs) for p in PHASES}
                    total = statistics.median(sum(r[clock][p] for p in PHASES if p != 'import')
                                              for r in runs)
                    print('%-8s %-9s %-5s %s %9.2f %9.0f' % (
                        case, backend, 'wall' if clock == 'times' else 'cpu',
                        ' '.join('%9.2f' % med[p] for p in PHASES), total, rss), flush=True)
    print('seconds per phase, median of %d runs (wall clock, and CPU time of the process); '
          'total excludes import; peak MB: VmHWM' % args.repeat)


if __name__ == '__main__':
    main()
