"""Write mxcompat/utils/mxnet_api.json.gz: the API surface of real MXNet 1.9.1, names only.

Run under an interpreter that has real MXNet (never mxcompat):

    ~/mxnet-oracle/bin/python scripts/make_mxnet_api.py

Every module of the ``mxnet`` package (``pkgutil.walk_packages``) is imported; those that fail
to import here (a missing optional dependency) are listed with the error. Then, for each
module, the names it defines are recorded: every attribute but dunder names, modules outside
``mxnet`` (``os``, ``np``) and classes or functions imported from other packages under their
own names (``from numpy import float32``).
Attributes that are MXNet modules (``mx.nd``, ``mx.contrib.quantization``) are recorded with
the module they name. The registered operators (``mx.operator.get_all_registered_operators()``)
are recorded with the argument names each accepts: its inputs
(``mx.operator.get_operator_arguments``) and the parameters its parser takes. Those are read
from the parser itself, by creating the operator with an argument no operator has: MXNet's
error lists the parameters it does take (the documented list can differ: ``_linspace``
documents ``step`` and rejects it). An operator without such a parser (``relu``, ``Custom``)
ignores or reads its keywords itself: its documented argument names are recorded. Every class MXNet defines is recorded under
the module that defines it, with its MXNet base classes and the names it defines itself: its
class attributes and methods, its ``__slots__``, and the attributes its methods assign on
``self`` (read from its source with ``ast``), public and private. mxcompat reads the file in
``mxcompat/utils/mxnet_api.py``.
"""
import ast
import ctypes
import gzip
import importlib
import inspect
import json
import os
import pkgutil
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(ROOT, 'mxcompat', 'utils', 'mxnet_api.json.gz')
sys.path.insert(0, ROOT)


def _is_mxnet(name):
    return name == 'mxnet' or name.startswith('mxnet.')


def _imported(name, obj):
    """Whether the class or function ``obj`` is imported from another package under its own
    name (``from numpy import float32``). Its ``__module__`` is an imported non-MXNet package
    (MXNet's generated operators carry 'ndarray' or 'symbol'); an alias MXNet defines
    (``mx_uint = ctypes.c_uint``) is MXNet's name."""
    root = (getattr(obj, '__module__', None) or 'mxnet').partition('.')[0]
    return root != 'mxnet' and root in sys.modules and getattr(obj, '__name__', None) == name


def _surface(mod):
    """(names, {name: module}) of one MXNet module."""
    names, submodules = [], {}
    for name in sorted(dir(mod)):
        if name.startswith('__') and name.endswith('__'):
            continue
        try:
            value = getattr(mod, name)
        except Exception:  # noqa: BLE001 -- a lazy attribute that fails here still is one
            names.append(name)
            continue
        if inspect.ismodule(value):
            if not _is_mxnet(value.__name__):
                continue
            submodules[name] = value.__name__
        elif (inspect.isclass(value) or inspect.isroutine(value)) and _imported(name, value):
            continue
        names.append(name)
    return names, submodules


_PROBE = 'mxcompat_no_such_argument'


def _operator_arguments(mx, name):
    """The argument names MXNet's operator ``name`` accepts (see the module docstring)."""
    from mxnet.base import _LIB, MXNetError, SymbolHandle, c_str, c_str_array, check_call, \
        mx_uint
    info = mx.operator.get_operator_arguments(name)
    handle, out = ctypes.c_void_p(), SymbolHandle()
    check_call(_LIB.NNGetOpHandle(c_str(name), ctypes.byref(handle)))
    try:
        check_call(_LIB.MXSymbolCreateAtomicSymbol(handle, mx_uint(1), c_str_array([_PROBE]),
                                                   c_str_array(['0']), ctypes.byref(out)))
    except MXNetError as err:
        text = str(err)
        if "Cannot find argument '%s'" % _PROBE in text:
            inputs = [n for n, t in zip(info.names, info.types)
                      if t.startswith(('NDArray-or-Symbol', 'Symbol'))]
            listed = text.split('----------------\n', 1)[-1]
            return inputs + re.findall(r'^([A-Za-z_]\w*) : ', listed, re.M)
    else:
        check_call(_LIB.NNSymbolFree(out))
    return list(info.names)


def _self_assigned(cls):
    """Attributes the methods of ``cls`` assign on ``self`` (its first parameter)."""
    try:
        src = inspect.getsource(cls)
    except (OSError, TypeError):
        return set()
    lines = src.split('\n')
    indent = len(lines[0]) - len(lines[0].lstrip())
    try:
        tree = ast.parse('\n'.join(ln[indent:] for ln in lines))
    except SyntaxError:
        return set()
    found = set()
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or not fn.args.args:
            continue
        me = fn.args.args[0].arg
        for node in ast.walk(fn):
            if type(node) is ast.Attribute and type(node.ctx) is ast.Store \
                    and type(node.value) is ast.Name and node.value.id == me:
                found.add(node.attr)
    return found


def _classes(modules):
    """{'mxnet.gluon.block.HybridBlock': {'bases': [MXNet bases], 'names': 'a b ...'}} for
    every class an MXNet module defines at its top level."""
    out = {}
    for modname in modules:
        for name, cls in vars(sys.modules[modname]).items():
            if not inspect.isclass(cls) or cls.__module__ != modname or cls.__qualname__ != name:
                continue
            names = {n for n in vars(cls) if not (n.startswith('__') and n.endswith('__'))}
            slots = cls.__dict__.get('__slots__', ())
            names.update([slots] if isinstance(slots, str) else slots)
            names.update(_self_assigned(cls))
            out['%s.%s' % (modname, name)] = {
                'bases': ['%s.%s' % (b.__module__, b.__qualname__) for b in cls.__bases__
                          if _is_mxnet(b.__module__)],
                'names': ' '.join(sorted(names))}
    return dict(sorted(out.items()))


def main():
    from scripts.make_fixtures import _import_real_mxnet
    mx = _import_real_mxnet()
    failed = {}
    modules = ['mxnet']

    def onerror(name):
        failed[name] = '%s: %s' % sys.exc_info()[:2]

    for info in pkgutil.walk_packages(mx.__path__, 'mxnet.', onerror=onerror):
        try:
            importlib.import_module(info.name)
        except (Exception, SystemExit) as err:  # noqa: BLE001 -- a missing optional
            # dependency, or a packaging script (mxnet.onnx.setup runs setup() on import)
            failed[info.name] = '%s: %s' % (type(err).__name__, str(err).split('\n')[0])
            continue
        modules.append(info.name)
    ops = mx.operator.get_all_registered_operators()
    surface = {}
    for name in sorted(modules):
        names, submodules = _surface(sys.modules[name])
        surface[name] = {'names': ' '.join(names), 'submodules': submodules}
    data = {'mxnet_version': mx.__version__,
            'modules': surface,
            'not_imported': dict(sorted(failed.items())),
            'operators': {name: ' '.join(_operator_arguments(mx, name))
                          for name in sorted(ops)},
            'classes': _classes(modules)}
    tmp = OUT + '.tmp'
    with gzip.GzipFile(tmp, 'wb', mtime=0) as f:
        f.write(json.dumps(data, sort_keys=True, separators=(',', ':')).encode('utf-8'))
    os.replace(tmp, OUT)
    print('%s: %d modules (%d not importable here), %d names, %d operators, %d classes, '
          '%d bytes' % (os.path.relpath(OUT, ROOT), len(surface), len(failed),
                        sum(len(m['names'].split()) for m in surface.values()),
                        len(ops), len(data['classes']), os.path.getsize(OUT)))
    for name, err in sorted(failed.items()):
        print('  not imported: %s (%s)' % (name, err))


if __name__ == '__main__':
    main()
