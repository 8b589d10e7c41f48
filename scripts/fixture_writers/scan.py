"""Which APIs of the hand-verified sample of ``mxcompat scan`` (tests/fixtures/scan/
sample_uses.json) exist in real MXNet 1.9.1: ``mxnet.x.y`` as a module or attribute, ``F.x`` in
both ``mx.nd`` and ``mx.sym``, ``op:X`` among the registered operators. An attribute of a class
(read on ``self`` in a subclass) exists when the class has it or a method of the class or of
one of its MXNet base classes assigns it on ``self``. A keyword argument of an operator (``op:X``
or MXNet's generated ``mx.sym.X`` / ``mx.nd.X``) exists when MXNet loads a one-node graph of the
operator with that attribute without "Cannot find argument" (``name``, ``attr`` and ``out`` are
the front end's); a keyword argument of a Python callable is looked up as its callable. tests/test_scan_trees.py checks that every API the scan
marks supported or unsupported exists in MXNet, and every one it marks not_in_mxnet does not."""
import importlib
import inspect
import json
import os


def _get(mx, parts):
    obj = mx
    for p in parts:
        try:
            obj = getattr(obj, p)
        except AttributeError:
            obj = importlib.import_module(obj.__name__ + '.' + p)
    return obj


def _exists(mx, parts):
    try:
        _get(mx, parts)
    except (ImportError, AttributeError):
        return False
    return True


def _member(mx, parts):
    """Whether the MXNet class at ``parts[:-1]`` has the attribute ``parts[-1]``."""
    try:
        cls = _get(mx, parts[:-1])
    except (ImportError, AttributeError):
        return False
    name = parts[-1]
    if not inspect.isclass(cls):
        return hasattr(cls, name)
    if hasattr(cls, name):
        return True
    for klass in cls.__mro__:
        if klass.__module__.startswith('mxnet'):
            src = inspect.getsource(klass).replace(' ', '')
            if 'self.%s=' % name in src:
                return True
    return False


def _takes(mx, op, kw):
    """Whether MXNet's operator ``op`` accepts the attribute ``kw`` (loading a graph)."""
    graph = {'nodes': [{'op': op, 'name': 'n', 'inputs': [], 'attrs': {kw: '1'}}],
             'arg_nodes': [], 'heads': [[0, 0, 0]], 'attrs': {'mxnet_version': ['int', 10901]}}
    try:
        mx.sym.load_json(json.dumps(graph))
    except mx.base.MXNetError as err:
        return "Cannot find argument '%s'" % kw not in str(err)
    return True


def write(mx, outdir):
    with open(os.path.join(outdir, 'sample_uses.json')) as f:
        uses = json.load(f)['uses']
    ops = set(mx.operator.get_all_registered_operators())
    out = {}
    for use in uses:
        api, _, kw = use['api'].partition('(')
        kw = kw[:-2]
        if api.startswith('op:'):
            found = api[3:] in ops and (not kw or _takes(mx, api[3:], kw))
        elif api.startswith('F.'):
            rest = api[2:].split('.')
            found = _exists(mx, ['nd'] + rest) and _exists(mx, ['sym'] + rest)
        elif use['kind'] == 'inherited':
            found = _member(mx, api.split('.')[1:])
        else:
            found = _exists(mx, api.split('.')[1:])
            name = api.rpartition('.')[2]
            if found and kw not in ('', 'name', 'attr', 'out') and name in ops and \
                    api.startswith(('mxnet.symbol.', 'mxnet.ndarray.')):
                found = _takes(mx, name, kw)
        out[use['api']] = found
    with open(os.path.join(outdir, 'in_mxnet.json'), 'w') as f:
        json.dump(dict(sorted(out.items())), f, indent=1)
        f.write('\n')
