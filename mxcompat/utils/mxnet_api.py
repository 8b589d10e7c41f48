"""MXNet 1.9.1's API surface, and the errors for the parts of it mxcompat does not implement.

``mxnet_api.json.gz`` (written from real MXNet by ``scripts/make_mxnet_api.py``; names only)
lists every module of MXNet 1.9.1, the names each one defines, which of those are modules,
MXNet's registered operators with their argument names, and MXNet's classes with the names each
defines (methods, class attributes, attributes its methods set on ``self``). :func:`install` (run once by ``import mxcompat``) gives every
mxcompat module that stands in for an MXNet module a module ``__getattr__`` (PEP 562), and puts
a finder last on ``sys.meta_path``, so that using an MXNet API mxcompat lacks raises
NotImplementedError naming it:

* ``mx.library``, ``getattr(mx.base, '_LIB')``: :class:`UnsupportedAPIError`, also an
  AttributeError, so ``hasattr(mx, 'library')`` is False and ``getattr(mx, 'library', None)``
  is None, as for any missing name;
* ``from mxnet.base import _LIB``: :class:`UnsupportedImportError`, also an ImportError;
* ``import mxnet.contrib.quantization``, ``from mxnet.contrib import tensorboard``:
  :class:`UnsupportedModuleError`, also a ModuleNotFoundError;
* an operator MXNet registers and mxcompat's operator table lacks (``registry.get``, symbol
  JSON), or an argument MXNet's operator takes and mxcompat's lacks
  (``registry.unknown_argument``): :class:`UnsupportedOperatorError`, also an MXNetError.

A name MXNet 1.9.1 does not have either keeps the plain AttributeError, ImportError or
MXNetError. The table is read at the first lookup of a missing name or argument: ``import
mxcompat``, the names mxcompat defines and the arguments its operators take never touch it (a
module ``__getattr__`` runs only for names the module lacks).
``mxcompat scan`` also reads the classes, to tell an attribute of an MXNet class that
mxcompat's class lacks from one MXNet never had (:func:`class_defines`).
"""
import importlib
import importlib.abc
import os
import sys

from ..base import MXNetError

__all__ = ['UnsupportedAPIError', 'UnsupportedImportError', 'UnsupportedModuleError',
           'UnsupportedOperatorError', 'MXNET_VERSION', 'mxnet_name', 'lookup', 'is_module',
           'is_operator', 'operator_arguments', 'class_defines', 'message', 'missing_operator',
           'missing_argument', 'install']

MXNET_VERSION = '1.9.1'
PACKAGE = __name__.split('.', 1)[0]
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'mxnet_api.json.gz')
_table = None  # (modules: {MXNet module: (names, {name: module it names})},
#                  operators: {name: 'argument names'}, classes: {path: {'bases', 'names'}})


class UnsupportedAPIError(NotImplementedError, AttributeError):
    """An attribute of MXNet 1.9.1 that mxcompat does not implement. It is an AttributeError
    too, so ``hasattr`` and ``getattr(obj, name, default)`` treat it as a missing name."""


class UnsupportedImportError(ImportError, NotImplementedError):
    """``from mxnet.x import name`` of a name of MXNet 1.9.1 that mxcompat does not
    implement."""


class UnsupportedModuleError(ModuleNotFoundError, NotImplementedError):
    """``import mxnet.x`` of a module of MXNet 1.9.1 that mxcompat does not implement."""


class UnsupportedOperatorError(MXNetError, NotImplementedError):
    """An operator registered in MXNet 1.9.1 that mxcompat's operator table lacks."""


def _api():
    global _table
    if _table is None:
        import gzip
        import json
        with gzip.open(DATA, 'rb') as f:
            data = json.loads(f.read().decode('utf-8'))
        modules = {name: (frozenset(m['names'].split()), m['submodules'])
                   for name, m in data['modules'].items()}
        for name in data['not_imported']:
            modules.setdefault(name, (frozenset(), {}))
        _table = modules, data['operators'], data['classes']
    return _table


def mxnet_name(name):
    """The MXNet name of the mxcompat module ``name`` ('mxcompat.gluon' -> 'mxnet.gluon')."""
    return 'mxnet' + name[len(PACKAGE):]


def lookup(module, name):
    """What ``name`` is in the MXNet 1.9.1 module ``module`` ('mxnet.contrib'): the MXNet
    module it names, True for another attribute, None when MXNet has no such name."""
    entry = _api()[0].get(module)
    if entry is None:
        return None
    names, submodules = entry
    return submodules.get(name) or (name in names or None)


def is_module(name):
    """Whether ``name`` ('mxnet.contrib.quantization') is a module of MXNet 1.9.1."""
    return name in _api()[0]


def is_operator(name):
    """Whether MXNet 1.9.1 registers an operator ``name``."""
    return name in _api()[1]


def operator_arguments(name):
    """The argument names (inputs and parameters) of MXNet 1.9.1's operator ``name``, or
    None when MXNet registers no such operator."""
    args = _api()[1].get(name)
    return None if args is None else args.split()


def class_defines(cls, name):
    """Whether MXNet 1.9.1's class ``cls`` ('mxnet.gluon.block.HybridBlock', the module
    that defines it) or one of its MXNet base classes defines the attribute ``name``: as a
    method or class attribute, in ``__slots__``, or by assigning it on ``self``. None when
    MXNet defines no class ``cls``."""
    classes = _api()[2]
    if cls not in classes:
        return None
    todo, seen = [cls], set()
    while todo:
        entry = classes.get(todo.pop())
        if entry is None:
            continue
        if name in entry['names'].split():
            return True
        todo.extend(b for b in entry['bases'] if b not in seen)
        seen.update(entry['bases'])
    return False


def message(api):
    """The NotImplementedError message for the MXNet API ``api``."""
    return '%s is not supported by mxcompat (an MXNet %s API it does not implement)' % (
        api, MXNET_VERSION)


def missing_operator(name):
    """The error for an operator mxcompat's table lacks: UnsupportedOperatorError when MXNet
    registers it, else MXNetError (as MXNet raises for an unknown operator)."""
    if is_operator(name):
        return UnsupportedOperatorError(message('operator %s' % name))
    return MXNetError('Operator %s is not registered' % name)


def missing_argument(op, name, plain):
    """The error for an argument ``name`` mxcompat's operator ``op`` does not take:
    UnsupportedOperatorError when MXNet's operator takes it, else MXNetError(``plain``) (as
    MXNet raises for an unknown argument)."""
    if name in (operator_arguments(op) or ()):
        return UnsupportedOperatorError(message('argument %s of operator %s' % (name, op)))
    return MXNetError(plain)


def _import_from():
    """Whether the code that looked the name up (the caller of the module ``__getattr__``)
    executes ``from module import name``, which turns any AttributeError into a plain
    ImportError."""
    import opcode
    frame = sys._getframe(3)
    return frame.f_lasti >= 0 and frame.f_code.co_code[frame.f_lasti] == \
        opcode.opmap['IMPORT_FROM']


def _missing(module, name):
    """The module ``__getattr__`` body: ``name`` is not an attribute of ``module``."""
    if not (name.startswith('__') and name.endswith('__')):  # copy, pickle, inspect probes
        mx = mxnet_name(module.__name__)
        found = lookup(mx, name)
        if isinstance(found, str):  # an MXNet module (mx.rnd is mx.random): mxcompat's one
            try:
                value = importlib.import_module(PACKAGE + found[len('mxnet'):])
            except UnsupportedModuleError:
                pass
            else:
                setattr(module, name, value)
                return value
        if found is not None:
            api = '%s.%s' % (mx, name)
            if _import_from():
                raise UnsupportedImportError(message(api), name=mx)
            err = UnsupportedAPIError(message(api))
            err.name, err.obj = name, module
            raise err
    raise AttributeError('module %r has no attribute %r' % (module.__name__, name),
                         name=name, obj=module)


def _add_getattr(module):
    own = module.__dict__.get('__getattr__')

    if own is None:
        def __getattr__(name):
            return _missing(module, name)
    else:
        def __getattr__(name):
            try:
                return own(name)
            except AttributeError:
                return _missing(module, name)

    module.__getattr__ = __getattr__


class _UnsupportedModuleFinder(importlib.abc.MetaPathFinder):
    """Last on ``sys.meta_path``: an ``mxcompat.x`` no other finder found that is a module
    of MXNet 1.9.1 raises UnsupportedModuleError. Its ``name`` is the MXNet module, so that
    ``from mxcompat.x import y`` reports it instead of falling back to ``getattr``."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname.startswith(PACKAGE + '.'):
            mx = mxnet_name(fullname)
            if is_module(mx):
                raise UnsupportedModuleError(message(mx), name=mx)
        return None


def install():
    """Give every imported mxcompat module that mirrors an MXNet module (all of them are
    imported by ``import mxcompat``, as MXNet imports its own) a module ``__getattr__``
    raising UnsupportedAPIError for MXNet names it lacks, and add the finder for MXNet modules
    mxcompat lacks. Calling it again does nothing."""
    if any(isinstance(f, _UnsupportedModuleFinder) for f in sys.meta_path):
        return
    prefix = PACKAGE + '.'
    for name, module in list(sys.modules.items()):
        if module is not None and (name == PACKAGE or name.startswith(prefix)) and \
                getattr(module, '__name__', None) == name:
            _add_getattr(module)
    sys.meta_path.append(_UnsupportedModuleFinder())
