"""mxcompat.install(): `import mxnet` binds mxcompat's own module objects, and only then."""
import importlib
import subprocess
import sys
import textwrap

import pytest

import mxcompat
from mxcompat.utils.alias import MXNetAliasFinder


def _forget(*prefixes):
    for name in list(sys.modules):
        if any(name == p or name.startswith(p + '.') for p in prefixes):
            del sys.modules[name]


@pytest.fixture
def clean_alias():
    """No alias and no `mxnet` module before and after the test."""
    mxcompat.uninstall()
    _forget('mxnet')
    meta_path, path = list(sys.meta_path), list(sys.path)
    yield
    mxcompat.uninstall()
    _forget('mxnet', 'uses_mxnet')
    sys.meta_path[:], sys.path[:] = meta_path, path
    importlib.invalidate_caches()


def _write(root, files):
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    importlib.invalidate_caches()


def test_same_module_objects(clean_alias):
    mxcompat.install()
    import mxnet as mx
    from mxnet import nd, autograd
    import mxnet.ndarray.ndarray
    assert mx is mxcompat
    assert mx.__version__ == '1.9.1'
    assert nd is mxcompat.nd and autograd is mxcompat.autograd
    assert sys.modules['mxnet.ndarray'] is sys.modules['mxcompat.ndarray']
    assert mxnet.ndarray.ndarray is sys.modules['mxcompat.ndarray.ndarray']
    assert mx.nd.NDArray is mxcompat.ndarray.NDArray
    # every imported mxcompat module is visible under the mxnet name, as in MXNet
    for name, mod in list(sys.modules.items()):
        if name.startswith('mxcompat.') and mod is not None:
            assert sys.modules['mxnet' + name[len('mxcompat'):]] is mod, name


def test_monkeypatch_seen_through_both_names(clean_alias, monkeypatch):
    mxcompat.install()
    import mxnet
    monkeypatch.setattr(mxnet.ndarray, '_probe', 1, raising=False)
    assert mxcompat.ndarray._probe == 1


def test_libraries_imported_later(clean_alias, tmp_path):
    _write(tmp_path, {'uses_mxnet.py': '''
        import mxnet as mx
        from mxnet import nd
        from mxnet.ndarray import NDArray
        '''})
    sys.path.insert(0, str(tmp_path))
    mxcompat.install()
    import uses_mxnet
    assert uses_mxnet.mx is mxcompat
    assert uses_mxnet.nd is mxcompat.nd
    assert uses_mxnet.NDArray is mxcompat.nd.NDArray


def test_missing_module_names_mxcompat(clean_alias):
    mxcompat.install()
    with pytest.raises(ModuleNotFoundError, match=r"mxcompat\.no_such_module"):
        import mxnet.no_such_module  # noqa: F401
    with pytest.raises(ImportError, match=r"mxcompat"):
        from mxnet import no_such_module  # noqa: F401


def test_missing_dependency_is_reported_as_itself(clean_alias, tmp_path):
    _write(tmp_path, {'tgt_dep/__init__.py': '', 'tgt_dep/sub.py': 'import not_installed_dep\n'})
    sys.path.insert(0, str(tmp_path))
    sys.meta_path.insert(0, MXNetAliasFinder('ali_dep', 'tgt_dep'))
    with pytest.raises(ModuleNotFoundError) as err:
        import ali_dep.sub  # noqa: F401
    assert err.value.name == 'not_installed_dep'
    _forget('ali_dep', 'tgt_dep')


def test_no_double_import_when_target_imports_its_alias(clean_alias, tmp_path):
    # tgt.sub imports itself through the alias while it initialises, as a library module
    # doing `import mxnet` inside mxcompat's import would.
    _write(tmp_path, {
        'tgt/__init__.py': 'import builtins\nbuiltins._tgt_runs = []\n',
        'tgt/sub.py': '''
            import builtins
            builtins._tgt_runs.append(__name__)
            import ali.sub
            import ali
            from ali import sub as again
            ''',
    })
    sys.path.insert(0, str(tmp_path))
    sys.meta_path.insert(0, MXNetAliasFinder('ali', 'tgt'))
    try:
        import ali.sub
        import builtins
        assert builtins._tgt_runs == ['tgt.sub']
        assert ali.sub is sys.modules['tgt.sub'] is sys.modules['ali.sub']
        assert sys.modules['ali'] is sys.modules['tgt']
        assert ali.sub.__spec__.name == 'tgt.sub'
    finally:
        _forget('ali', 'tgt')


def test_install_is_idempotent_and_uninstall_removes_everything(clean_alias):
    mxcompat.install()
    mxcompat.install()
    assert sum(isinstance(f, MXNetAliasFinder) for f in sys.meta_path) == 1
    import mxnet.ndarray  # noqa: F401
    mxcompat.uninstall()
    assert not any(isinstance(f, MXNetAliasFinder) for f in sys.meta_path)
    assert not [n for n in sys.modules if n == 'mxnet' or n.startswith('mxnet.')]
    with pytest.raises(ModuleNotFoundError):
        import mxnet  # noqa: F401


def test_real_mxnet_untouched_without_install(clean_alias, tmp_path):
    _write(tmp_path, {'mxnet/__init__.py': "__version__ = 'real'\n",
                      'mxnet/ndarray.py': "KIND = 'real'\n"})
    sys.path.insert(0, str(tmp_path))
    import mxnet
    import mxnet.ndarray
    assert mxnet.__version__ == 'real' and mxnet.ndarray.KIND == 'real'
    # mixing a real mxnet and mxcompat in one process is refused
    with pytest.raises(RuntimeError, match='already imported'):
        mxcompat.install()
    _forget('mxnet')
    mxcompat.install()
    import mxnet
    assert mxnet is mxcompat
    mxcompat.uninstall()
    import mxnet
    assert mxnet.__version__ == 'real'


def test_fresh_interpreter_imports_mxcompat_once():
    code = textwrap.dedent('''
        import sys, mxcompat
        mxcompat.install()
        import mxnet.cli, mxnet.utils.alias
        from mxnet import cli
        assert sys.modules['mxnet.cli'] is sys.modules['mxcompat.cli'] is cli
        mods = [m for m in sys.modules.values() if getattr(m, '__name__', '').startswith('mxnet')]
        assert not mods, mods
        print('ok')
        ''')
    res = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == 'ok'
