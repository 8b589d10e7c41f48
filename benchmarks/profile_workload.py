"""cProfile one benchmark workload on mxcompat (or torch) to see where the overhead goes.

    python benchmarks/profile_workload.py bench_layers "resnet18_v1 step" [--calls 20]
        [--backend mxcompat|torch] [--sort cumulative|tottime] [--top 15]

Builds the workload exactly as the harness does (1 intra-op thread by default), makes the
first call outside the profile (deferred init, hybridize), then profiles ``--calls`` calls.
"""
import argparse
import cProfile
import importlib
import os
import pstats
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

from harness import _Framework  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('suite', help='module in benchmarks/ that defines WORKLOADS')
    ap.add_argument('workload', help='workload name')
    ap.add_argument('--backend', default='mxcompat', choices=('mxcompat', 'torch'))
    ap.add_argument('--calls', type=int, default=20)
    ap.add_argument('--size', type=int, default=16)
    ap.add_argument('--threads', type=int, default=1)
    ap.add_argument('--sort', default='cumulative')
    ap.add_argument('--top', type=int, default=15)
    args = ap.parse_args(argv)
    import numpy as np
    suite = importlib.import_module(args.suite)
    wl = next(w for w in suite.WORKLOADS if w.name == args.workload)
    fw = _Framework(args.backend, False, args.threads)
    fn = fw.build(wl, wl.inputs(args.size, np.random.RandomState(0)))
    print('first call: %.1f ms' % (fw.time(fn, 1) * 1e3))
    per_call = fw.time(fn, args.calls) / args.calls
    print('mean of %d calls without profiling: %.1f us' % (args.calls, per_call * 1e6))
    prof = cProfile.Profile()
    prof.enable()
    fw.time(fn, args.calls)
    prof.disable()
    pstats.Stats(prof).strip_dirs().sort_stats(args.sort).print_stats(args.top)
    return 0


if __name__ == '__main__':
    sys.exit(main())
