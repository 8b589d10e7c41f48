"""``mx.np``: MXNet's NumPy-compatible interface.

Design
------
* **One array class over one tensor.** ``mx.np.ndarray`` subclasses mxcompat's ``NDArray``
  (as MXNet's subclasses its own) and adds no state (``__slots__ = ()``): it wraps the same
  single ``torch.Tensor``. ``x.as_nd_ndarray()`` and ``NDArray.as_np_ndarray()`` rewrap that
  tensor (no copy), so both views see every write. Everything NumPy changes is overridden on the
  subclass: shapes are plain tuples with zero-dimensional and zero-size arrays allowed
  (``x[0]`` of a vector is 0-d, not shape ``(1,)``), indexing is NumPy's as MXNet does it
  (basic indexing gives a view where the result is contiguous in memory and a copy elsewhere,
  integer and boolean arrays index as in NumPy, assignment broadcasts and casts),
  ``reshape`` takes NumPy shapes (MXNet's special codes live in ``npx.reshape``), ``repr`` is
  ``array(...)``, ``item()`` / ``tolist()`` replace ``asscalar()``, and ``__array_ufunc__`` /
  ``__array_function__`` route NumPy's own functions to ``mx.np`` (those of MXNet's dispatch
  lists, ``mxcompat/numpy_dispatch_protocol.py``; any other runs with NumPy on copies, outside
  ``autograd.record()``). ``mx.np.fallback`` (and ``mx.np.linalg``'s ``fallback_linalg``) are
  MXNet's names for NumPy's own functions, run that way. ``NDArray``'s hot paths are
  untouched: its inlined arithmetic checks ``type(other) is NDArray``, so an ``mx.nd`` program
  pays nothing for the subclass.
* **One operator table.** Every ``mx.np`` function is a thin layer over a table entry: the
  NumPy-only operators are entries under MXNet's names (``_npi_add``, ``_npi_add_scalar``,
  ``_np_sum``, ``_npi_zeros``, ``_npx_reshape``, ... in ``mxcompat/ops/numpy_ops.py``), and the
  ``npx`` operators are aliases on the legacy entries they share (``_npx_fully_connected`` on
  ``FullyConnected``). The generator that makes ``mx.nd`` makes
  the ``_npi`` namespace from those entries with ``ndarray`` results, so a symbol graph, the
  JSON loader and ``mx.np`` run the same implementation.
* **Types.** Binary operators broadcast and promote as NumPy does (int with float gives the
  float type, float32 with float64 gives float64) except that MXNet's defaults hold: creation
  functions and Python floats give float32, and math functions of integer arrays give float32.
  Comparisons give bool; ``argmax``/``argmin`` give int64.
* **Autograd** is mxcompat's: ``attach_grad`` / ``grad`` / ``backward`` / ``autograd.record``
  work on ``np.ndarray`` as on ``NDArray`` (``grad`` is an ``np.ndarray``). Integer and boolean
  arrays carry MXNet's gradients (truncated to their type) through a float64 shadow that torch
  differentiates (``autograd._IntegerVariable``).
* **Modes.** ``npx.set_np()`` turns on NumPy shape and array semantics (``mx.util``'s per-thread
  flags); ``is_np_array()`` tells Gluon to give ``np.ndarray`` (``Parameter.data()``, block
  outputs). ``npx.save`` / ``npx.load`` write and read MXNet's ``.params`` format with 0-d and
  zero-size arrays.

* **Symbols.** ``mx.sym.np`` (the ``F.np`` of a hybridized NumPy-mode block) is not a second
  implementation: it runs these functions' code with ``_npi`` naming the symbol front end of
  the same entries (``mxcompat/symbol/numpy``), and its ``_Symbol`` has ``ndarray``'s operators.

Not yet covered (raising NotImplementedError naming the MXNet API, through
``mxcompat/utils/mxnet_api.py``): the ``mx.np`` / ``mx.npx`` names not defined here (the
financial functions NumPy 1.20 dropped, ``mirr``, ``npv``, ``pv``, ...).
"""
from . import random, linalg, fallback
from .multiarray import *  # noqa: F401,F403
from .multiarray import __all__ as _array_names
from .multiarray import _npi as _internal  # MXNet's mx.nd.np._internal: the _npi_* operators
from .utils import *  # noqa: F401,F403
from .utils import __all__ as _util_names
from .io import genfromtxt
from .arrayprint import set_printoptions

# MXNet's fallback names that mx.np does not implement itself: NumPy's own functions
_fallback_names = [n for n in fallback.__all__ if n not in _array_names]
globals().update((n, getattr(fallback, n)) for n in _fallback_names)
__all__ = list(_array_names) + _fallback_names + list(_util_names) + \
    ['genfromtxt', 'set_printoptions', 'random', 'linalg']
