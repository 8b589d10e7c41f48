"""``mx.np.random``: NumPy's random sampling over the operator table's random entries (the
generator ``mx.random.seed`` seeds). Samples follow torch's generator, not MXNet's: the same
distributions, other numbers."""
import numbers

from ..context import current_context
from ..util import set_module, np_shape
from .multiarray import NDArray, _np_function

__all__ = ['randint', 'uniform', 'normal', 'rand', 'randn', 'shuffle', 'exponential', 'gamma']

_uniform = _np_function('_random_uniform')
_normal = _np_function('_random_normal')
_sample_uniform = _np_function('_sample_uniform')
_sample_normal = _np_function('_sample_normal')
_randint = _np_function('_random_randint')
_exponential = _np_function('_random_exponential')
_gamma = _np_function('_random_gamma')
_shuffle = _np_function('_shuffle')


def _size(size):
    if size is None:
        return ()
    return (size,) if isinstance(size, numbers.Integral) else tuple(size)


def _two_params(scalar_fn, array_fn, names, a, b, size, dtype, ctx, out):
    if isinstance(a, NDArray) or isinstance(b, NDArray):
        if size is not None or not (isinstance(a, NDArray) and isinstance(b, NDArray)):
            raise NotImplementedError('mx.np.random: array-valued %s with size= or mixed with '
                                      'scalars are not supported by mxcompat yet'
                                      % ' and '.join(names))
        return array_fn(a, b, dtype=dtype or 'float32', out=out)
    with np_shape(True):
        return scalar_fn(**{names[0]: a, names[1]: b}, shape=_size(size),
                         ctx=ctx or current_context(), dtype=dtype or 'float32', out=out)


@set_module('mxnet.numpy.random')
def uniform(low=0.0, high=1.0, size=None, dtype=None, ctx=None, out=None):
    """Draw samples from a uniform distribution over [low, high)."""
    return _two_params(_uniform, _sample_uniform, ('low', 'high'), low, high, size, dtype, ctx,
                       out)


@set_module('mxnet.numpy.random')
def normal(loc=0.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):
    """Draw random samples from a normal (Gaussian) distribution."""
    return _two_params(_normal, _sample_normal, ('loc', 'scale'), loc, scale, size, dtype, ctx,
                       out)


@set_module('mxnet.numpy.random')
def randint(low, high=None, size=None, dtype=None, ctx=None, out=None):
    """Random integers from [low, high) (from [0, low) without ``high``); int64 by default."""
    if high is None:
        low, high = 0, low
    with np_shape(True):
        return _randint(low=low, high=high, shape=_size(size), ctx=ctx or current_context(),
                        dtype=dtype or 'int64', out=out)


@set_module('mxnet.numpy.random')
def rand(*size, **kwargs):
    """Random values of the given shape, uniform over [0, 1)."""
    return uniform(0.0, 1.0, size=size, **kwargs)


@set_module('mxnet.numpy.random')
def randn(*size, **kwargs):
    """Samples of the standard normal distribution of the given shape."""
    return normal(0.0, 1.0, size=size, **kwargs)


@set_module('mxnet.numpy.random')
def exponential(scale=1.0, size=None, ctx=None, out=None):
    """Draw samples from an exponential distribution with the given scale."""
    with np_shape(True):
        return _exponential(lam=1.0 / scale, shape=_size(size), ctx=ctx or current_context(),
                            dtype='float32', out=out)


@set_module('mxnet.numpy.random')
def gamma(shape, scale=1.0, size=None, dtype=None, ctx=None, out=None):  # pylint: disable=redefined-outer-name
    """Draw samples from a Gamma distribution."""
    with np_shape(True):
        return _gamma(alpha=shape, beta=scale, shape=_size(size), ctx=ctx or current_context(),
                      dtype=dtype or 'float32', out=out)


@set_module('mxnet.numpy.random')
def shuffle(x):
    """Shuffle an array in place along its first axis."""
    _shuffle(x, out=x)


