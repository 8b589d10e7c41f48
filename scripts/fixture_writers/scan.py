"""Which APIs of the hand-verified sample of ``mxcompat scan`` (tests/fixtures/scan/
sample_uses.json) exist in real MXNet 1.9.1: ``mxnet.x.y`` as a module or attribute, ``F.x`` in
both ``mx.nd`` and ``mx.sym``, ``op:X`` among the registered operators. Keyword arguments are
looked up as their callable. Attributes a subclass reads on ``self`` that are not class
attributes are null (they exist only on instances). tests/test_scan_trees.py checks that every
API the scan marks supported exists in MXNet."""
import importlib
import json
import os


def _exists(mx, parts):
    obj = mx
    for p in parts:
        try:
            obj = getattr(obj, p)
        except AttributeError:
            try:
                obj = importlib.import_module(obj.__name__ + '.' + p)
            except (ImportError, AttributeError):
                return False
    return True


def write(mx, outdir):
    with open(os.path.join(outdir, 'sample_uses.json')) as f:
        uses = json.load(f)['uses']
    ops = set(mx.operator.get_all_registered_operators())
    out = {}
    for use in uses:
        api = use['api'].split('(')[0]
        if api.startswith('op:'):
            found = api[3:] in ops
        elif api.startswith('F.'):
            rest = api[2:].split('.')
            found = _exists(mx, ['nd'] + rest) and _exists(mx, ['sym'] + rest)
        else:
            found = _exists(mx, api.split('.')[1:])
        if not found and use['kind'] == 'inherited':
            found = None
        out[use['api']] = found
    with open(os.path.join(outdir, 'in_mxnet.json'), 'w') as f:
        json.dump(dict(sorted(out.items())), f, indent=1)
        f.write('\n')
