"""The ``mxnet`` import alias: make ``import mxnet`` resolve to mxcompat.

After :func:`install`, ``import mxnet``, ``import mxnet.gluon.nn`` or ``from mxnet import nd``
(in the caller's code and in every library imported later) bind the very module objects of
``mxcompat``, ``mxcompat.gluon.nn`` and so on: ``sys.modules['mxnet.x']`` is
``sys.modules['mxcompat.x']``. mxcompat is never imported a second time under the name
``mxnet``, so monkeypatching through either name is seen by both.
"""
import importlib
import importlib.abc
import importlib.machinery
import sys

__all__ = ['install', 'uninstall', 'is_installed']

ALIAS = 'mxnet'
TARGET = __name__.split('.', 1)[0]


class _AliasLoader(importlib.abc.Loader):
    """Hands the already imported mxcompat module to importlib under the ``mxnet`` name."""

    def __init__(self, module):
        self._module = module
        self._spec = getattr(module, '__spec__', None)

    def create_module(self, spec):
        return self._module

    def exec_module(self, module):
        # module_from_spec() replaced __spec__ with the alias spec; the module keeps its own
        # (reload(), pickle and inspect read it).
        module.__spec__ = self._spec


class MXNetAliasFinder(importlib.abc.MetaPathFinder):
    """``sys.meta_path`` finder mapping ``alias[.x.y]`` onto ``target[.x.y]``."""

    def __init__(self, alias=ALIAS, target=TARGET):
        self.alias = alias
        self.target = target
        self._busy = set()

    def __repr__(self):
        return '<MXNetAliasFinder %s -> %s>' % (self.alias, self.target)

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.alias and not fullname.startswith(self.alias + '.'):
            return None
        real = self.target + fullname[len(self.alias):]
        outermost = fullname not in self._busy
        self._busy.add(fullname)
        try:
            module = sys.modules.get(real)
            if module is None:
                module = self._import_target(fullname, real)
            self.mirror()
        finally:
            if outermost:
                self._busy.discard(fullname)
        if outermost:
            # A nested `import mxnet.x` while mxcompat.x initialised already bound the alias.
            # importlib would then load the module again from its own spec (a second copy);
            # dropping the entry lets it bind the same object once more instead.
            sys.modules.pop(fullname, None)
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(module),
                                              is_package=hasattr(module, '__path__'))

    def _import_target(self, fullname, real):
        try:
            return importlib.import_module(real)
        except ModuleNotFoundError as exc:
            if exc.name is None or not (real == exc.name or real.startswith(exc.name + '.')):
                raise  # a dependency of mxcompat.x is missing: report that one
            raise ModuleNotFoundError(
                'No module named %r: %s, which stands in for %s, has no module %r'
                % (fullname, self.target, self.alias, real), name=fullname) from None

    def mirror(self):
        """Bind every imported ``mxcompat.x`` as ``mxnet.x`` too, as MXNet has them all."""
        prefix = self.target + '.'
        for name, mod in list(sys.modules.items()):
            if mod is not None and name.startswith(prefix):
                aname = self.alias + name[len(self.target):]
                if aname not in self._busy:
                    sys.modules.setdefault(aname, mod)


def _finder():
    for f in sys.meta_path:
        if isinstance(f, MXNetAliasFinder) and f.alias == ALIAS:
            return f
    return None


def is_installed():
    """Whether ``import mxnet`` currently resolves to mxcompat."""
    return _finder() is not None


def install():
    """Make ``import mxnet`` (and every ``mxnet.x.y``) import mxcompat from now on.

    Call it before the code or library that imports ``mxnet``. Calling it again does nothing.
    Libraries that refuse to import next to torch >= 2 (GluonCV's version check) then import
    (``mxcompat/utils/library_guards.py``).

    Raises
    ------
    RuntimeError
        If a real ``mxnet`` package is already imported in this process: objects of the two
        cannot be mixed.
    """
    if _finder() is not None:
        return
    real = sys.modules.get(ALIAS)
    if real is not None and getattr(real, '__name__', None) != TARGET:
        raise RuntimeError(
            'mxcompat.install(): a real mxnet package (%s) is already imported in this process; '
            'call mxcompat.install() before anything imports mxnet'
            % getattr(real, '__file__', None))
    finder = MXNetAliasFinder()
    sys.meta_path.insert(0, finder)
    finder.mirror()
    sys.modules[ALIAS] = sys.modules[TARGET]


def uninstall():
    """Undo :func:`install`: remove the finder and every ``mxnet`` alias of an mxcompat module."""
    finder = _finder()
    while finder is not None:
        sys.meta_path.remove(finder)
        finder = _finder()
    for name in [n for n in sys.modules if n == ALIAS or n.startswith(ALIAS + '.')]:
        mod = sys.modules[name]
        mname = getattr(mod, '__name__', None) or ''
        if mname == TARGET or mname.startswith(TARGET + '.'):
            del sys.modules[name]
