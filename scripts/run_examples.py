"""Run MXNet 1.9.1's example scripts and Python tutorials unchanged, under real MXNet or under
mxcompat, on small generated data, and compare the numbers they print.

    # write tests/fixtures/examples/<case>.json from real MXNet 1.9.1
    python scripts/run_examples.py --mxnet-git /work/.mirror/apache+mxnet/repo \\
        --oracle ~/mxnet-oracle/bin/python
    # run every case under mxcompat and compare with those fixtures
    python scripts/run_examples.py --mxnet-git /work/.mirror/apache+mxnet/repo \\
        --python /root/venv/bin/python [--cases NAME,...]

The scripts are read from the MXNet git directory at tag 1.9.1 at run time (nothing of MXNet's
is stored in this repository) into a scratch directory, one copy per run. The cases, their
command lines, data and compared numbers are in ``scripts/examples/manifest.py``; each run goes
through ``scripts/examples/preamble.py``, the same preamble in both interpreters (name-seeded
initializers, seeds, generated files accepted, no plots).
"""
import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from scripts.examples import data as _data  # noqa: E402
from scripts.examples.manifest import CASES, TAG  # noqa: E402

FIXTURES = os.path.join(ROOT, 'tests', 'fixtures', 'examples')
PREAMBLE = os.path.join(HERE, 'examples', 'preamble.py')
# Never compared: timings, speeds, addresses, Python object ids, scratch paths and module reprs
# (which name the installation; deleted from a line), numpy 2's scalar reprs (``np.int32(5)``
# is ``5`` under numpy 1), and warning lines (dropped).
SCRUB = (r'(?i)[-+]?\d+(?:\.\d*)?(?:e[-+]?\d+)?\s*(?:s|ms|sec|secs|seconds|samples/sec)\b'
         r'|(?:time|speed|elapsed)[^=:\n]*[=:]\s*\S+|0x[0-9a-fA-F]+'
         r'|\bnp\.(?:u?int|float|complex|bool_|str_)\d*(?=\()|\S*mxcompat-examples-\S*'
         r"|<module '[^']*'(?: from '[^']*')?>|\bid\(\w+\)[^\d\n]*\d+")
IGNORE = r'(?i)warn'
NUMBER = r'[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)'


def extract(git_dir, paths, dest):
    """Write the files under ``paths`` (repository paths) at ``TAG`` into ``dest``, keeping
    their repository layout; blobs the git directory lacks are skipped."""
    listing = subprocess.run(['git', '--git-dir', git_dir, 'ls-tree', '-r', TAG, '--'] + paths,
                             check=True, capture_output=True, text=True).stdout
    if not listing.strip():
        raise SystemExit('%s has no %s at tag %s' % (git_dir, ' '.join(paths), TAG))
    for line in listing.splitlines():
        meta, path = line.split('\t', 1)
        _, kind, blob = meta.split()
        if kind != 'blob':
            continue
        out = subprocess.run(['git', '--git-dir', git_dir, 'cat-file', 'blob', blob],
                             capture_output=True)
        if out.returncode:
            continue
        target = os.path.join(dest, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, 'wb') as f:
            f.write(out.stdout)


def _displayed(cell):
    """``cell`` with its last statement, when it is an expression Jupyter would display (no
    trailing ``;``), wrapped in ``__mxex_display__(...)``, the preamble's display hook."""
    try:
        body = ast.parse(cell).body
    except SyntaxError:
        return cell
    if not body or not isinstance(body[-1], ast.Expr) or cell.rstrip().endswith(';'):
        return cell
    last = body[-1]
    lines = cell.splitlines()
    first, end = last.lineno - 1, last.end_lineno - 1
    lines[end] = lines[end][:last.end_col_offset] + ')' + lines[end][last.end_col_offset:]
    lines[first] = (lines[first][:last.col_offset] + '__mxex_display__('
                    + lines[first][last.col_offset:])
    return '\n'.join(lines)


def tutorial_script(md_path, skip, replace, out_path):
    """The tutorial's python code blocks, in order, as one script run as Jupyter runs the
    notebook: blocks whose index is in ``skip`` are left out, IPython magics (``%...``,
    ``!...``) are dropped, ``from __future__`` imports come first, a block's last expression is
    displayed, and each (old, new, why) of
    ``replace`` is applied to the text."""
    with open(md_path) as f:
        text = f.read()
    for old, new, _ in replace:
        if old not in text:
            raise SystemExit('%s no longer contains %r' % (md_path, old))
        text = text.replace(old, new)
    blocks = re.findall(r'^```(?:python|\{\.python[^}]*\})[ \t]*\n(.*?)^```', text, re.M | re.S)
    future = sorted(set(re.findall(r'^from __future__ import .*$', '\n'.join(blocks), re.M)))
    parts = future[:]  # a notebook compiles each cell apart; one script needs them first
    for i, block in enumerate(blocks):
        if i in skip:
            parts.append('# cell %d skipped: %s\n' % (i, skip[i]))
            continue
        lines = [ln for ln in block.splitlines()
                 if not ln.lstrip().startswith(('%', '!')) and ln not in future]
        parts.append('# cell %d\n%s\n' % (i, _displayed('\n'.join(lines))))
    with open(out_path, 'w') as f:
        f.write('\n'.join(parts))
    return len(blocks)


def prepare(case, git_dir, work):
    """Lay out ``work`` for ``case``: the extracted files, the generated data; returns the
    script path, the working directory and the generated files."""
    src = os.path.join(work, 'src')
    home = os.path.join(work, 'home')
    os.makedirs(home)
    if 'tutorial' in case:
        extract(git_dir, [case['tutorial']], src)
        cwd = os.path.join(work, 'run')
        os.makedirs(cwd)
        script = os.path.join(cwd, 'tutorial.py')
        tutorial_script(os.path.join(src, case['tutorial']), case.get('skip', {}),
                        case.get('replace', ()), script)
    else:
        extract(git_dir, case.get('files', [os.path.dirname(case['script'])]), src)
        script = os.path.join(src, case['script'])
        cwd = os.path.join(src, os.path.dirname(case['script']))
    generated = []
    for spec in case.get('data', ()):
        spec = dict(spec)
        gen = _data.GENERATORS[spec.pop('gen')]
        dest = spec.pop('dest').format(home=os.path.join(home, '.mxnet'))
        generated += gen(os.path.join(cwd, dest), **spec)
    return script, cwd, home, generated


def run_case(case, git_dir, python, oracle, work_root, timeout, pythonpath=()):
    """Run one case; returns (returncode, stdout, stderr, seconds)."""
    work = tempfile.mkdtemp(prefix=case['name'] + '-', dir=work_root)
    script, cwd, home, generated = prepare(case, git_dir, work)
    env = {k: v for k, v in os.environ.items() if not k.startswith(('PYTHON', 'MXNET'))}
    spec = {k: case[k] for k in ('args', 'random', 'stop') if k in case}
    spec['script'] = script
    env.update(HOME=home, MXNET_HOME=os.path.join(home, '.mxnet'), OMP_NUM_THREADS='1',
               MXEX_GENERATED=os.pathsep.join(generated), PYTHONHASHSEED='0',
               MXEX_CASE=json.dumps(spec))
    env['PYTHONPATH'] = os.pathsep.join(([] if oracle else [ROOT]) + list(pythonpath))
    cmd = [python, PREAMBLE] if oracle else [python, '-m', 'mxcompat', 'run', PREAMBLE]
    start = time.time()
    try:
        proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=timeout)
        rc, out, err = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired as exc:
        rc, out, err = 'timeout', (exc.stdout or b'').decode(), (exc.stderr or b'').decode()
    seconds = time.time() - start
    shutil.rmtree(work, ignore_errors=True)
    return rc, out, err, seconds


def numbers(case, stdout, stderr):
    """The compared numbers: for each regex in ``case['compare']``, every number inside its
    matches, in order, over the output (stdout only with ``stream='stdout'``) less the lines
    that match ``IGNORE``, and less ``SCRUB``'s matches."""
    output = stdout if case.get('stream') == 'stdout' else stdout + stderr
    output = re.sub(SCRUB, '', '\n'.join(ln for ln in output.splitlines()
                                         if not re.search(IGNORE, ln)))
    found = {}
    for pattern in case['compare']:
        values = []
        for match in re.finditer(pattern, output, re.M):
            text = match.group(1) if match.groups() else match.group(0)
            values += [float(v) for v in re.findall(NUMBER, text)]
        found[pattern] = values
    return found


def compare(case, got, expected):
    """(ok, largest relative difference, reason) of ``got`` against the fixture's numbers."""
    rtol, atol = case.get('rtol', 1e-4), case.get('atol', 1e-6)
    worst, reasons = 0.0, []
    for pattern, want in expected.items():
        have = got.get(pattern, [])
        if len(have) != len(want):
            reasons.append('%r: %d numbers, MXNet printed %d' % (pattern, len(have), len(want)))
            continue
        for a, b in zip(have, want):
            if a == b or (a != a and b != b):
                continue
            diff = abs(a - b) / max(abs(b), atol)
            worst = max(worst, diff)
            if abs(a - b) > atol + rtol * abs(b):
                reasons.append('%r: %r where MXNet printed %r' % (pattern, a, b))
    return not reasons, worst, '; '.join(reasons[:3])


def _last_error(output):
    lines = [ln for ln in output.strip().splitlines() if ln.strip()]
    return lines[-1][:300] if lines else '(no output)'


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--mxnet-git', required=True, help='git directory of apache/mxnet (has tag '
                    '%s), e.g. /work/.mirror/apache+mxnet/repo' % TAG)
    which = ap.add_mutually_exclusive_group(required=True)
    which.add_argument('--oracle', metavar='PY', help='interpreter with real MXNet 1.9.1: run '
                       'the cases and write tests/fixtures/examples/')
    which.add_argument('--python', metavar='PY', help='interpreter with torch: run the cases '
                       'under mxcompat (this repository) and compare with the fixtures')
    which.add_argument('--list', action='store_true', help='list the cases and exit')
    ap.add_argument('--cases', help='comma-separated case names (default: all)')
    ap.add_argument('--timeout', type=float, default=180,
                    help='seconds per case run')
    ap.add_argument('--pythonpath', metavar='DIR', action='append', default=[],
                    help='directory put on the scripts\' PYTHONPATH (optional packages a case '
                         'requires, e.g. Pillow installed with pip install --target DIR)')
    ap.add_argument('--json', metavar='FILE', help='write the per-case results here')
    ap.add_argument('--verbose', action='store_true', help="print a failing case's output tail")
    args = ap.parse_args(argv)
    cases = CASES
    if args.cases:
        wanted = args.cases.split(',')
        unknown = set(wanted) - {c['name'] for c in CASES}
        if unknown:
            ap.error('unknown cases: %s' % ', '.join(sorted(unknown)))
        cases = [c for c in CASES if c['name'] in wanted]
    if args.list:
        for c in cases:
            print('%-40s %s %s' % (c['name'], c.get('script') or c['tutorial'],
                                   ' '.join(c.get('args', ()))))
        return 0
    os.makedirs(FIXTURES, exist_ok=True)
    work_root = tempfile.mkdtemp(prefix='mxcompat-examples-')
    results, start = [], time.time()
    try:
        for case in cases:
            python = args.oracle or args.python
            missing = [m for m in case.get('requires', ()) if subprocess.run(
                [python, '-c', 'import ' + m], capture_output=True,
                env=dict(os.environ, PYTHONPATH=os.pathsep.join(args.pythonpath))).returncode]
            if missing:
                reason = 'needs ' + ', '.join(missing)
                print('SKIP %-40s %s (see --pythonpath)' % (case['name'], reason))
                results.append({'case': case['name'], 'ok': None, 'reason': reason})
                continue
            rc, out, err, seconds = run_case(case, args.mxnet_git, python, bool(args.oracle),
                                             work_root, max(args.timeout, case.get('timeout', 0)),
                                             args.pythonpath)
            got = numbers(case, out, err)
            path = os.path.join(FIXTURES, case['name'] + '.json')
            result = {'case': case['name'], 'seconds': round(seconds, 1)}
            if args.oracle:
                ok = rc == 0 and all(got.values())
                result.update(ok=ok, reason='' if ok else 'exit status %s, %s numbers: %s' % (
                    rc, sum(map(len, got.values())), _last_error(out + err)))
                if ok:
                    tmp = path + '.tmp'
                    with open(tmp, 'w') as f:
                        json.dump({'case': case['name'], 'source': 'MXNet 1.9.1',
                                   'stdout': out, 'stderr': err}, f, indent=1, sort_keys=True)
                    os.replace(tmp, path)
                print('%s %-40s %5.1fs %s' % ('WROTE' if ok else 'ERROR', case['name'],
                                              seconds, result['reason']), flush=True)
            else:
                if not os.path.exists(path):
                    result.update(ok=False, max_diff=None, reason='no fixture (run --oracle)')
                elif rc != 0:
                    result.update(ok=False, max_diff=None,
                                  reason='exit status %s: %s' % (rc, _last_error(out + err)))
                else:
                    with open(path) as f:
                        fixture = json.load(f)
                    expected = numbers(case, fixture['stdout'], fixture['stderr'])
                    ok, worst, reason = compare(case, got, expected)
                    result.update(ok=ok, max_diff=worst, reason=reason)
                diff = result['max_diff']
                print('%s %-40s %5.1fs max rel diff %-8s %s' % (
                    'PASS' if result['ok'] else 'FAIL', case['name'], seconds,
                    '-' if diff is None else '%.1e' % diff, result['reason']), flush=True)
            if args.verbose and not result['ok']:
                print('\n'.join('    | ' + ln for ln in (out + err).strip().splitlines()[-25:]))
            results.append(result)
    finally:
        shutil.rmtree(work_root, ignore_errors=True)
    ran = [(r, c) for r, c in zip(results, cases) if r['ok'] is not None]
    kinds = {'example': [r for r, c in ran if 'script' in c],
             'tutorial': [r for r, c in ran if 'tutorial' in c]}
    print('total: %d/%d pass (examples %d/%d, tutorials %d/%d), %d skipped, in %.0fs' % (
        sum(r['ok'] for r, _ in ran), len(ran),
        sum(r['ok'] for r in kinds['example']), len(kinds['example']),
        sum(r['ok'] for r in kinds['tutorial']), len(kinds['tutorial']),
        len(results) - len(ran), time.time() - start))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(results, f, indent=1)
    return 0 if all(r['ok'] is not False for r in results) else 1


if __name__ == '__main__':
    sys.exit(main())
