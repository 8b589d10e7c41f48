#!/usr/bin/env python3
"""Run the own test suites of the libraries built on MXNet against mxcompat, in one command.

For each library, ``run_conformance.py`` takes its unit tests from a git directory of the
library at the version its baseline was written for, runs them with ``mxnet`` resolved to
mxcompat, and counts the tests that pass on real MXNet 1.9.1 with the library (the baseline
JSON files next to this script). d2lzh and InsightFace have no suites: their scenario tests
(tests/test_d2lzh.py, tests/test_insightface.py) run under pytest instead. The last lines
printed are one row per suite: passed / total over the baseline.

    python3 conformance/run_libraries.py --python PY --git gluoncv=GLUONCV_GIT \\
        --git gluonnlp=GLUONNLP_GIT --git sockeye=SOCKEYE_GIT --git gluonts=GLUONTS_GIT

``PY`` is an interpreter with mxcompat and the libraries (``pip install --no-deps``, see the
README), pytest, pytest-timeout, nose, scipy and numpy < 1.24. A library without ``--git``
(or its environment variable, e.g. ``GLUONCV_GIT``) is reported as not run. Standard library
only.
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# suite -> (library, tag, test dir, archive paths, baseline, extra runner arguments)
SUITES = {
    'gluoncv/unittests': ('gluoncv', '5677756', 'tests/unittests', ['tests/unittests'],
                          'baseline-gluoncv-0.10.5.json', ['--timeout', '300']),
    'gluoncv/model_zoo': ('gluoncv', '5677756', 'tests/model_zoo',
                          ['tests/__init__.py', 'tests/model_zoo', 'tests/unittests'],
                          'baseline-gluoncv-0.10.5-model_zoo.json',
                          ['--timeout', '600', '--file-timeout', '2400']),
    'gluonnlp': ('gluonnlp', 'v0.10.0', 'tests/unittest', ['tests/unittest'],
                 'baseline-gluonnlp-0.10.0.json', ['--timeout', '300']),
    'sockeye': ('sockeye', '2.3.24', 'test/unit', ['test'], 'baseline-sockeye-2.3.24.json', []),
    'gluonts': ('gluonts', 'v0.8.1', 'test', ['test'], 'baseline-gluonts-0.8.1.json',
                ['--timeout', '120', '--file-timeout', '300']),
}
SCENARIOS = {'d2lzh': 'tests/test_d2lzh.py', 'insightface': 'tests/test_insightface.py'}


def _suite(name, git, args):
    library, tag, test_dir, archive, baseline, extra = SUITES[name]
    out = os.path.join(args.out_dir, name.replace('/', '-') + '.json')
    cmd = [sys.executable, os.path.join(HERE, 'run_conformance.py'), '--mxnet-git', git,
           '--tag', tag, '--test-dir', test_dir, '--python', args.python,
           '--alias', 'mxcompat', '--preload', '--baseline', os.path.join(HERE, baseline),
           '--out', out] + extra
    for path in archive:
        cmd += ['--archive-path', path]
    for path in args.pythonpath:
        cmd += ['--pythonpath', path]
    print('== %s: %s' % (name, ' '.join(cmd)), flush=True)
    subprocess.run(cmd, check=False)
    try:
        with open(out) as f:
            result = json.load(f)['conformance']
    except (OSError, ValueError, KeyError) as err:
        return 'no result (%s)' % err
    return '%d / %d (%.1f%%)' % (result['passed'], result['total'], result['percent'])


def _scenarios(name, args):
    junit = os.path.join(args.out_dir, name + '.xml')
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join(args.pythonpath + [env.get('PYTHONPATH', '')])
    cmd = [args.python, '-m', 'pytest', '-q', '-rs', SCENARIOS[name], '--junitxml', junit]
    print('== %s: %s' % (name, ' '.join(cmd)), flush=True)
    subprocess.run(cmd, cwd=ROOT, env=env, check=False)
    try:
        with open(junit) as f:
            head = f.read(2000)
    except OSError as err:
        return 'no result (%s)' % err

    def count(key):
        mark = ' %s="' % key
        i = head.find(mark)
        return int(head[i + len(mark):head.index('"', i + len(mark))]) if i >= 0 else 0
    total = count('tests') - count('skipped')
    passed = total - count('failures') - count('errors')
    return '%d / %d scenario tests (%d skipped)' % (passed, total, count('skipped'))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--python', required=True, help='interpreter with mxcompat and the libraries')
    ap.add_argument('--git', action='append', default=[], metavar='LIBRARY=DIR',
                    help='git directory of a library (gluoncv, gluonnlp, sockeye, gluonts); '
                         'default: $GLUONCV_GIT, $GLUONNLP_GIT, $SOCKEYE_GIT, $GLUONTS_GIT')
    ap.add_argument('--only', nargs='+', choices=sorted(SUITES) + sorted(SCENARIOS),
                    help='suites to run (default: all)')
    ap.add_argument('--pythonpath', action='append', default=[],
                    help='prepended to the tests\' PYTHONPATH (e.g. a source checkout)')
    ap.add_argument('--out-dir', default='library-results', help='per-suite JSON and XML')
    args = ap.parse_args()
    gits = {}
    for item in args.git:
        library, sep, path = item.partition('=')
        if not sep or library not in {s[0] for s in SUITES.values()}:
            ap.error('--git takes LIBRARY=DIR with LIBRARY one of gluoncv, gluonnlp, sockeye, '
                     'gluonts; got %r' % item)
        gits[library] = path
    os.makedirs(args.out_dir, exist_ok=True)
    rows = []
    start = time.time()
    for name in args.only or list(SUITES) + list(SCENARIOS):
        if name in SCENARIOS:
            rows.append((name, _scenarios(name, args)))
            continue
        library = SUITES[name][0]
        git = gits.get(library) or os.environ.get(library.upper() + '_GIT')
        if not git:
            rows.append((name, 'not run: give --git %s=DIR or %s_GIT' % (library,
                                                                        library.upper())))
            continue
        rows.append((name, _suite(name, git, args)))
    print('\nlibrary suites on mxcompat (passed / tests that pass on MXNet 1.9.1), %.0f s:'
          % (time.time() - start))
    for name, text in rows:
        print('  %-20s %s' % (name, text))


if __name__ == '__main__':
    main()
