"""Write tests/fixtures/ from real MXNet 1.9.1.

Run under an interpreter that has real MXNet (never mxcompat):

    ~/mxnet-oracle/bin/python scripts/make_fixtures.py [--only NAME ...]

Operator cases come from scripts/op_cases/*.py; other fixture writers are the modules in
scripts/fixture_writers/, each with a ``write(mx, outdir)`` function.
"""
import argparse
import importlib
import importlib.util
import json
import os
import pkgutil
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FIXTURES = os.path.join(ROOT, 'tests', 'fixtures')
sys.path.insert(0, ROOT)


def _import_real_mxnet():
    import mxnet as mx
    if mx.__name__ != 'mxnet' or 'mxcompat' in (mx.__file__ or ''):
        sys.exit('make_fixtures.py must run under real MXNet 1.9.1, not mxcompat')
    if not mx.__version__.startswith('1.9'):
        sys.exit('make_fixtures.py needs MXNet 1.9.x, found %s' % mx.__version__)
    return mx


def _atomic_savez(path, arrays):
    tmp = path + '.tmp.npz'
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, path)


def _atomic_json(path, obj):
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        json.dump(obj, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


def write_op_cases(mx, only):
    from scripts.op_cases import load_modules
    from scripts.op_cases._run import run_case
    outdir = os.path.join(FIXTURES, 'ops')
    os.makedirs(outdir, exist_ok=True)
    for modname, cases in load_modules().items():
        if only and modname not in only:
            continue
        arrays, manifest = {}, {}
        for c in cases:
            mx.random.seed(0)
            np.random.seed(0)
            try:
                res = run_case(mx, c)
            except Exception as err:
                raise RuntimeError('case %s/%s failed under MXNet: %s' % (modname, c['id'], err))
            entry = {'n_out': len(res['outputs']), 'error': res['error'], 'grads': []}
            for k, o in enumerate(res['outputs']):
                if c['check'] == 'moments':
                    arrays['%s/out%d' % (c['id'], k)] = np.array([o.mean(), o.std()])
                    arrays['%s/out%d/shape' % (c['id'], k)] = np.array(o.shape, dtype=np.int64)
                elif c['check'] == 'shape':
                    arrays['%s/out%d' % (c['id'], k)] = np.zeros(o.shape, dtype=o.dtype)[:0]
                    arrays['%s/out%d/shape' % (c['id'], k)] = np.array(o.shape, dtype=np.int64)
                else:
                    arrays['%s/out%d' % (c['id'], k)] = o
            for key, g in res['grads'].items():
                arrays['%s/grad_%s' % (c['id'], key)] = g
                entry['grads'].append(key)
            manifest[c['id']] = entry
        _atomic_savez(os.path.join(outdir, modname + '.npz'), arrays)
        _atomic_json(os.path.join(outdir, modname + '.json'), manifest)
        print('ops/%s: %d cases' % (modname, len(cases)))


def write_other(mx, only):
    import scripts.fixture_writers as writers
    for info in sorted(pkgutil.iter_modules(writers.__path__), key=lambda m: m.name):
        if info.name.startswith('_') or (only and info.name not in only):
            continue
        mod = importlib.import_module('scripts.fixture_writers.' + info.name)
        library = getattr(mod, 'REQUIRES', None)  # a writer for a library built on MXNet
        if library is not None and importlib.util.find_spec(library) is None:
            if only:
                raise SystemExit('%s needs %s installed next to MXNet' % (info.name, library))
            print('%s: skipped (%s is not installed)' % (info.name, library))
            continue
        outdir = os.path.join(FIXTURES, info.name)
        os.makedirs(outdir, exist_ok=True)
        mod.write(mx, outdir)
        print('%s: written' % info.name)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--only', nargs='*', default=None,
                    help='op case modules or fixture writers to regenerate (default: all)')
    args = ap.parse_args()
    mx = _import_real_mxnet()
    only = set(args.only) if args.only else None
    write_op_cases(mx, only)
    write_other(mx, only)


if __name__ == '__main__':
    main()
