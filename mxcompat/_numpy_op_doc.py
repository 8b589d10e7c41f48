"""The signatures MXNet 1.9.1 gives the ``mx.np`` / ``mx.npx`` functions of its built-in
``_np_*`` / ``_npx_*`` operators (MXNet's ``mxnet._numpy_op_doc``): one function per operator,
named after it, whose parameters are the ones ``inspect.signature`` reports for the front-end
function (``numpy_op_signature`` attaches them, as MXNet does). The functions only carry
signatures and documentation; the front-end functions in ``mx.np`` / ``mx.npx`` do the work.
"""
# pylint: disable=unused-argument


def _np_all(a, axis=None, keepdims=False, out=None):
    """Whether all array elements along the given axes evaluate to True."""


def _np_any(a, axis=None, keepdims=False, out=None):
    """Whether any array element along the given axes evaluates to True."""


def _np_sometrue(a, axis=None, keepdims=False, out=None):
    """Whether any array element along the given axes evaluates to True (``any``)."""


def _np_cumsum(a, axis=None, dtype=None, out=None):
    """The cumulative sum of the elements along an axis (of the flattened array for None)."""


def _npx_nonzero(a):
    """The indices of the non-zero elements, one row per element."""


def _np_repeat(a, repeats, axis=None):
    """Repeat the elements of an array."""


def _np_transpose(a, axes=None):
    """The array with its axes permuted (reversed without ``axes``)."""


def _np_dot(a, b, out=None):
    """The dot product of two arrays."""


def _np_sum(a, axis=None, dtype=None, keepdims=False, initial=None, out=None):
    """The sum of the array elements over the given axes."""


def _np_copy(a, out=None):
    """A copy of the array."""


def _np_atleast_1d(*arys):
    """The arrays with at least one dimension."""


def _np_atleast_2d(*arys):
    """The arrays with at least two dimensions."""


def _np_atleast_3d(*arys):
    """The arrays with at least three dimensions."""


def _np_reshape(a, newshape, order='C', out=None):
    """The array's data with a new shape."""


def _np_roll(a, shift, axis=None):
    """The array with its elements rolled along an axis."""


def _np_trace(a, offset=0, axis1=0, axis2=1, out=None):
    """The sum along a diagonal of the array."""


def _np_squeeze(a, axis=None, out=None):
    """The array without its axes of length one."""


def _np_max(a, axis=None, keepdims=False, out=None):
    """The maximum of the array or along the given axes."""


def _np_amax(a, axis=None, keepdims=False, out=None):
    """The maximum of the array or along the given axes (``max``)."""


def _np_min(a, axis=None, keepdims=False, out=None):
    """The minimum of the array or along the given axes."""


def _np_amin(a, axis=None, keepdims=False, out=None):
    """The minimum of the array or along the given axes (``min``)."""


def _np_prod(a, axis=None, dtype=None, out=None, keepdims=False):
    """The product of the array elements over the given axes."""


def _np_moveaxis(a, source, destination):
    """The array with axes moved to new positions."""


def _npx_constraint_check(x, msg):
    """True when every element of ``x`` is true; ValueError with ``msg`` otherwise."""


def _npx_reshape(a, newshape, reverse=False, order='C'):
    """The array's data with a new shape, with MXNet's special codes."""


def _np_diag(array, k=0):
    """The k-th diagonal of a 2-D array, or a 2-D array with a 1-D array on its diagonal."""


def _np_diagonal(a, offset=0, axis1=0, axis2=1):
    """The specified diagonals."""


def _np_diagflat(array, k=0):
    """A 2-D array with the flattened input on its k-th diagonal."""
