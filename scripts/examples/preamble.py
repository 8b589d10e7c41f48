"""Run one MXNet example script or tutorial unchanged, after the same preamble in real MXNet and
in mxcompat, so that both see the same weights, data order and files.

``scripts/run_examples.py`` starts this file as ``python preamble.py`` (real MXNet) or as
``python -m mxcompat run preamble.py`` (mxcompat); the case comes in ``$MXEX_CASE`` (JSON):
``script`` (the file to run as ``__main__``), ``args`` (its command line) and the preamble's
switches below. The preamble only patches MXNet's public Python API, identically on both sides:

- every random draw an initializer makes (``mx.random.uniform`` / ``normal`` called from an
  ``Initializer``) comes from a numpy generator seeded by the parameter's name, so a parameter
  gets the same values under both frameworks whatever order it is initialised in;
- numpy's, Python's and MXNet's global seeds are set (data shuffling in ``NDArrayIter`` and
  Gluon's ``RandomSampler`` uses numpy's);
- ``mx.gluon.utils.check_sha1`` accepts the files the harness generated (listed in
  ``$MXEX_GENERATED``), so datasets read them instead of downloading the real ones;
- ``matplotlib`` and ``IPython`` (absent from both environments; tutorials use them only to
  show plots and images) are modules that show nothing;
- a tutorial's displayed values (a cell's last expression, as Jupyter shows it) are printed by
  ``__mxex_display__`` (``print(repr(value))`` unless ``None``);
- ``numpy.linalg.svd`` returns its singular vectors with the signs fixed (each column of ``u``
  has a non-negative first entry, ``vh``'s rows follow), since LAPACK builds choose them
  differently (``mx.init.Orthogonal`` takes ``u`` or ``vh`` as the weight);
- ``"random": "numpy"``: ``mx.nd.random.uniform`` / ``normal`` / ``randint`` called by the
  script, or by MXNet's Python modules that import them by name (the SGLD optimizer's noise,
  ``nd.contrib.rand_zipfian``), also draw from numpy (one stream seeded once), for scripts that
  sample in Python (RBMs, MCMC);
- ``"stop"``: a regex; the run ends (exit status 0) once a line printed or logged (stdout or
  stderr) matches it, for scripts whose remaining work only draws pictures (which the harness
  does not compare), or that have no flag to cut their iterations (the match names the first
  report not wanted, e.g. ``Epoch\[1\]``).
"""
import builtins
import json
import os
import random
import re
import sys
import types
import zlib

import numpy as np

import mxnet as mx

CASE = json.loads(os.environ['MXEX_CASE'])
GENERATED = set(os.environ.get('MXEX_GENERATED', '').split(os.pathsep)) - {''}


def _named_draw(kind):
    """Replacement of ``mx.random.<kind>`` that draws from numpy while an initializer runs (or
    always, with ``"random": "numpy"``)."""
    original = getattr(mx.random, kind)
    first, second = ('loc', 'scale') if kind == 'normal' else ('low', 'high')

    def draw(*args, **kwargs):
        if STATE['name'] is None and STATE['stream'] is None:
            return original(*args, **kwargs)
        named = dict(zip((first, second, 'shape', 'dtype', 'ctx', 'out'), args), **kwargs)
        a, b, out = named.get(first, 0.0), named.get(second, 1.0), named.get('out')
        shape = out.shape if out is not None else named.get('shape', ())
        rng = STATE['stream']
        if STATE['name'] is not None:
            key = '%s#%d' % (STATE['name'], STATE['draws'])
            STATE['draws'] += 1
            rng = np.random.RandomState(zlib.crc32(key.encode()))
        values = getattr(rng, kind)(a, b, shape)
        if out is not None:
            out[:] = values.astype(out.dtype)
            return out
        dtype = named.get('dtype') or ('int32' if kind == 'randint' else 'float32')
        return mx.nd.array(values, ctx=named.get('ctx'), dtype=dtype)
    return draw


STATE = {'name': None, 'draws': 0, 'stream': None}


def _name_seeded_initializers():
    call = mx.init.Initializer.__call__

    def seeded_call(self, desc, arr):
        outer = STATE['name'], STATE['draws']
        STATE['name'], STATE['draws'] = str(desc), 0
        try:
            return call(self, desc, arr)
        finally:
            STATE['name'], STATE['draws'] = outer
    mx.init.Initializer.__call__ = seeded_call
    draws = {}
    for kind in ('uniform', 'normal', 'randint'):
        draws[getattr(mx.random, kind)] = draw = _named_draw(kind)
        for module, name in ((mx.random, kind), (mx.nd.random, kind), (mx.nd, 'random_' + kind),
                             (mx.nd, kind)):
            if hasattr(module, name):
                setattr(module, name, draw)
    return draws


def _draw_from_numpy(draws):
    """Rebind, in every module of the MXNet package, the names bound to an original of
    ``draws`` (``from ..random import normal``) to its numpy-drawing replacement."""
    prefix, by_id = mx.__name__ + '.', {id(f): draw for f, draw in draws.items()}
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(prefix):
            continue
        for attr, value in list(vars(module).items()):
            if id(value) in by_id:
                setattr(module, attr, by_id[id(value)])


def _fixed_sign_svd():
    svd = np.linalg.svd

    def fixed(a, full_matrices=True, compute_uv=True, *args, **kwargs):
        result = svd(a, full_matrices, compute_uv, *args, **kwargs)
        if not compute_uv:
            return result
        u, s, vh = result
        k = min(u.shape[-1], vh.shape[-2])
        signs = np.where(u[..., 0, :k] < 0, -1, 1).astype(u.dtype)
        u, vh = u.copy(), vh.copy()
        u[..., :k] *= signs[..., None, :]
        vh[..., :k, :] *= signs[..., :, None]
        return u, s, vh
    np.linalg.svd = fixed


def _accept_generated(filename, sha1_hash):
    return os.path.realpath(filename) in sys.modules['mxex_preamble'].GENERATED or \
        sys.modules['mxex_preamble'].check_sha1(filename, sha1_hash)


def _use_generated_files():
    """Make ``check_sha1`` (wherever a module bound it) accept the generated data files."""
    check = mx.gluon.utils.check_sha1
    sys.modules['mxex_preamble'] = types.ModuleType('mxex_preamble')
    sys.modules['mxex_preamble'].GENERATED = {os.path.realpath(p) for p in GENERATED}
    sys.modules['mxex_preamble'].check_sha1 = types.FunctionType(
        check.__code__, check.__globals__, 'check_sha1')
    check.__code__ = _accept_generated.__code__


class _Nothing(types.ModuleType):
    """A module (and callable, and value) for which every attribute is itself: plots draw
    nothing."""

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        return self

    def __call__(self, *args, **kwargs):
        return self

    def __iter__(self):
        return iter((self, self))

    def __getitem__(self, key):
        return self


def _no_plots():
    for name in ('matplotlib', 'matplotlib.pyplot', 'matplotlib.image', 'matplotlib.cm',
                 'matplotlib.ticker', 'matplotlib.patches', 'matplotlib.colors', 'matplotlib.pylab',
                 'IPython', 'IPython.display'):
        module = _Nothing(name)
        module.__path__ = []
        sys.modules[name] = module


def _display(value):
    """Jupyter's display of a cell's last expression."""
    if value is not None:
        print(repr(value))
    return value


class _StopAt:
    """A stream (stdout, stderr) that ends the process once a written line matches
    ``pattern``."""

    def __init__(self, stream, pattern):
        self._stream, self._pattern = stream, re.compile(pattern)

    def write(self, text):
        self._stream.write(text)
        if self._pattern.search(text):
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(0)
        return len(text)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def main():
    np.random.seed(0)
    random.seed(0)
    mx.random.seed(0)
    draws = _name_seeded_initializers()
    _use_generated_files()
    _fixed_sign_svd()
    _no_plots()
    builtins.__mxex_display__ = _display
    if CASE.get('random') == 'numpy':
        STATE['stream'] = np.random.RandomState(0)
        _draw_from_numpy(draws)
    if CASE.get('stop'):
        sys.stdout = _StopAt(sys.stdout, CASE['stop'])
        sys.stderr = _StopAt(sys.stderr, CASE['stop'])
    script = os.path.abspath(CASE['script'])
    sys.argv = [script] + list(CASE.get('args', ()))
    sys.path[0] = os.path.dirname(script)
    with open(script) as f:
        code = compile(f.read(), script, 'exec')
    main_module = types.ModuleType('__main__')
    main_module.__dict__.update(__file__=script, __builtins__=__builtins__)
    sys.modules['__main__'] = main_module
    exec(code, main_module.__dict__)


main()
