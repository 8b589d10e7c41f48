"""Write mxcompat/utils/mxnet_api.json.gz: the API surface of real MXNet 1.9.1, names only.

Run under an interpreter that has real MXNet (never mxcompat):

    ~/mxnet-oracle/bin/python scripts/make_mxnet_api.py

Every module of the ``mxnet`` package (``pkgutil.walk_packages``) is imported; those that fail
to import here (a missing optional dependency) are listed with the error. Then, for each
module, the names it defines are recorded: every attribute but dunder names, modules outside
``mxnet`` (``os``, ``np``) and classes or functions imported from other packages under their
own names (``from numpy import float32``).
Attributes that are MXNet modules (``mx.nd``, ``mx.contrib.quantization``) are recorded with
the module they name. The registered operators come from
``mx.operator.get_all_registered_operators()``. mxcompat reads the file in
``mxcompat/utils/mxnet_api.py``.
"""
import gzip
import importlib
import inspect
import json
import os
import pkgutil
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
    surface = {}
    for name in sorted(modules):
        names, submodules = _surface(sys.modules[name])
        surface[name] = {'names': ' '.join(names), 'submodules': submodules}
    data = {'mxnet_version': mx.__version__,
            'modules': surface,
            'not_imported': dict(sorted(failed.items())),
            'operators': ' '.join(sorted(mx.operator.get_all_registered_operators()))}
    tmp = OUT + '.tmp'
    with gzip.GzipFile(tmp, 'wb', mtime=0) as f:
        f.write(json.dumps(data, sort_keys=True, separators=(',', ':')).encode('utf-8'))
    os.replace(tmp, OUT)
    print('%s: %d modules (%d not importable here), %d names, %d operators, %d bytes'
          % (os.path.relpath(OUT, ROOT), len(surface), len(failed),
             sum(len(m['names'].split()) for m in surface.values()),
             len(data['operators'].split()), os.path.getsize(OUT)))
    for name, err in sorted(failed.items()):
        print('  not imported: %s (%s)' % (name, err))


if __name__ == '__main__':
    main()
