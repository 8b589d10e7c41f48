"""Import-time guards of MXNet libraries that refuse to import next to mxcompat.

Some libraries built on MXNet check their environment when imported and refuse it for reasons
that do not hold under mxcompat. :func:`install` (run by ``import mxcompat``) puts a finder
first on ``sys.meta_path`` that, for the modules in ``GUARDS`` only, lets the module load as
usual and then wraps the one function concerned, which behaves differently only when
``mxnet`` is mxcompat (``mxcompat.install()``, ``mxcompat run``, or another alias binding the
same module). A real MXNet, or
no ``mxnet`` at all, leaves the library untouched; torch itself is never changed.

* ``gluoncv.check``: GluonCV 0.10 imports its PyTorch half when torch is installed, and its
  version check raises RuntimeError (not ImportError) for any torch >= 2.0, which aborts
  ``import gluoncv``. The guard turns that one error into the ImportError GluonCV expects for a
  missing torch, so GluonCV imports its MXNet half (here: mxcompat) and skips ``gluoncv.torch``,
  as it does on a machine without torch.
"""
import functools
import importlib.abc
import sys

__all__ = ['GUARDS', 'install']


def _mxnet_is_mxcompat():
    mxnet = sys.modules.get('mxnet')
    return mxnet is not None and mxnet is sys.modules.get(__name__.split('.', 1)[0])


def _gluoncv_check(module):
    check = module._require_pytorch_version

    @functools.wraps(check)
    def require_pytorch_version(*args, **kwargs):
        try:
            return check(*args, **kwargs)
        except RuntimeError as err:  # "Legacy torch==2.x detected": torch out of its range
            if not _mxnet_is_mxcompat():
                raise
            raise ImportError('%s (mxcompat: GluonCV runs its MXNet modules on mxcompat; its '
                              'PyTorch modules are not imported)' % err) from None
    module._require_pytorch_version = require_pytorch_version


GUARDS = {'gluoncv.check': _gluoncv_check}


class _GuardedLoader(importlib.abc.Loader):
    """Runs the module's own loader, then its guard."""

    def __init__(self, loader, guard):
        self._loader = loader
        self._guard = guard

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        self._guard(module)


class LibraryGuardFinder(importlib.abc.MetaPathFinder):
    """Finds the modules of ``GUARDS`` through the other finders and guards their loading."""

    def find_spec(self, fullname, path=None, target=None):
        guard = GUARDS.get(fullname)
        if guard is None:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, 'find_spec'):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, 'exec_module'):
                    spec.loader = _GuardedLoader(spec.loader, guard)
                return spec
        return None


def _finders():
    return [f for f in sys.meta_path if isinstance(f, LibraryGuardFinder)]


def install():
    """Guard the modules of ``GUARDS`` imported from now on (once; idempotent)."""
    if not _finders():
        sys.meta_path.insert(0, LibraryGuardFinder())


