"""The `mxcompat` command: `run` behaves as `python script.py` does, with mxnet aliased."""
import os
import subprocess
import sys
import textwrap

import pytest

import mxcompat

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Prints what a script sees of its own invocation, then exits as its arguments ask.
PROBE = '''\
"""probe docstring"""
import sys
print(__name__, __doc__, __file__, sys.argv, sys.path[0])
print(sys.modules['__main__'].__dict__ is globals())


def fail():
    raise ValueError('boom')


if '--fail' in sys.argv:
    fail()
if '--exit' in sys.argv:
    sys.exit(int(sys.argv[-1]))
'''


def _env():
    env = dict(os.environ)
    env['PYTHONPATH'] = ROOT + os.pathsep + env.get('PYTHONPATH', '')
    return env


def _run(args, cwd):
    return subprocess.run(args, cwd=str(cwd), capture_output=True, text=True, timeout=300,
                          env=_env())


@pytest.fixture(scope='module')
def probe_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp('cli')
    (d / 'probe.py').write_text(PROBE)
    (d / 'uses_mxnet.py').write_text(textwrap.dedent('''
        import sys
        import mxnet as mx
        from mxnet import nd
        print(mx is sys.modules['mxcompat'], mx.__version__, nd.NDArray.__module__)
        '''))
    return d


@pytest.mark.parametrize('args', [['a', '-m', '--flag'], ['--fail'], ['--exit', '3'], []],
                         ids=['args', 'exception', 'exit-code', 'plain'])
def test_run_matches_python(probe_dir, args):
    want = _run([sys.executable, 'probe.py'] + args, probe_dir)
    got = _run([sys.executable, '-m', 'mxcompat', 'run', 'probe.py'] + args, probe_dir)
    assert (got.returncode, got.stdout, got.stderr) == (want.returncode, want.stdout, want.stderr)


def test_run_module_matches_python(probe_dir):
    want = _run([sys.executable, '-m', 'probe', 'x', '--fail'], probe_dir)
    got = _run([sys.executable, '-m', 'mxcompat', 'run', '-m', 'probe', 'x', '--fail'], probe_dir)
    assert (got.returncode, got.stdout) == (want.returncode, want.stdout)
    # python -m shows runpy's frames too; the script's frames and the error are the same
    assert want.stderr.endswith(got.stderr.split('\n', 1)[1])


def test_run_aliases_mxnet(probe_dir):
    res = _run([sys.executable, '-m', 'mxcompat', 'run', 'uses_mxnet.py'], probe_dir)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split() == ['True', '1.9.1', 'mxcompat.ndarray.ndarray']


def test_missing_script(probe_dir):
    res = _run([sys.executable, '-m', 'mxcompat', 'run', 'nope.py'], probe_dir)
    assert res.returncode == 2
    assert "can't open file 'nope.py'" in res.stderr


def test_console_script_version(probe_dir):
    exe = os.path.join(os.path.dirname(sys.executable), 'mxcompat')
    if not os.path.exists(exe):
        pytest.skip('mxcompat is not installed as a console script in this environment')
    import torch
    res = _run([exe, '--version'], probe_dir)
    assert res.returncode == 0, res.stderr
    assert 'MXNet %s API' % mxcompat.__version__ in res.stdout
    assert torch.__version__ in res.stdout


def test_no_command_prints_help(probe_dir):
    res = _run([sys.executable, '-m', 'mxcompat'], probe_dir)
    assert res.returncode == 2
    assert 'run' in res.stdout and 'demo' in res.stdout
