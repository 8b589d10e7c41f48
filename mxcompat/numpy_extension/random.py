"""``mx.npx.random``: the NumPy extension's random functions (the ``_npi_bernoulli``,
``_npi_uniform_n`` and ``_npi_normal_n`` entries of the operator table)."""
from .. import random as _random
from ..context import current_context
from ..ndarray.ndarray import NDArray
from ..numpy.multiarray import _npi
from ..numpy.random import _size, _two_params
from ..util import set_module

__all__ = ['seed', 'bernoulli', 'normal_n', 'uniform_n']


@set_module('mxnet.numpy_extension.random')
def seed(seed, ctx='all'):  # pylint: disable=redefined-outer-name
    """``mx.random.seed`` under the NumPy extension's argument name ``seed``."""
    _random.seed(seed_state=seed, ctx=ctx)


@set_module('mxnet.numpy_extension.random')
def bernoulli(prob=None, logit=None, size=None, dtype=None, ctx=None, out=None):
    """Draw samples (0 or 1) from Bernoulli distributions given by :attr:`prob` or
    :attr:`logit` (but not both).

    Parameters
    ----------
    prob : float or ndarray
        The probability of sampling '1' (in [0, 1]).
    logit : float or ndarray
        The log-odds of sampling '1'.
    size : int or tuple of ints, optional
        Output shape (default None: a single value for a scalar parameter, else its shape).
    dtype : {'float16', 'float32', 'float64', 'int32', 'uint8', 'bool'}, optional
        Data type of the samples. Default is 'float32'.
    ctx : Context, optional
        Device context of output. Default is current context.
    out : ndarray, optional
        Store output to an existing ndarray.

    Returns
    -------
    out : ndarray
    """
    if (prob is None) == (logit is None):
        raise ValueError('Either `prob` or `logit` must be specified, but not both. '
                         'Received prob={}, logit={}'.format(prob, logit))
    is_logit = prob is None
    value = logit if is_logit else prob
    kwargs = dict(is_logit=is_logit, size=None if size == () else size,
                  ctx=ctx or current_context(), dtype=dtype or 'float32', out=out)
    if isinstance(value, NDArray):
        return _npi.bernoulli(value, prob=None, logit=None, **kwargs)
    return _npi.bernoulli(prob=None if is_logit else value, logit=value if is_logit else None,
                          **kwargs)


@set_module('mxnet.numpy_extension.random')
def uniform_n(low=0.0, high=1.0, batch_shape=None, dtype=None, ctx=None):
    """Draw samples from uniform distributions over ``[low, high)`` (numbers or ndarrays):
    ``batch_shape`` samples of each, so the output has shape
    ``batch_shape + broadcast(low, high).shape``; ``dtype`` ('float16', 'float32' (default)
    or 'float64') and ``ctx`` as in ``np.random.uniform``."""
    ctx = ctx or current_context()
    dtype = dtype or 'float32'
    if isinstance(low, NDArray) or isinstance(high, NDArray):
        return _two_params(_npi.uniform_n, ('low', 'high'), low, high, batch_shape,
                           ctx=ctx, dtype=dtype)
    return _npi.uniform_n(low=low, high=high, size=_size(batch_shape),
                          ctx=ctx, dtype=dtype)


@set_module('mxnet.numpy_extension.random')
def normal_n(loc=0.0, scale=1.0, batch_shape=None, dtype=None, ctx=None):
    """Draw samples from normal distributions of means ``loc`` and standard deviations
    ``scale`` (numbers or ndarrays): ``batch_shape`` samples of each, so the output has shape
    ``batch_shape + broadcast(loc, scale).shape``; ``dtype`` and ``ctx`` as in
    ``np.random.normal``. Differentiable in ``loc`` and ``scale``."""
    ctx = ctx or current_context()
    dtype = dtype or 'float32'
    if isinstance(loc, NDArray) or isinstance(scale, NDArray):
        return _two_params(_npi.normal_n, ('loc', 'scale'), loc, scale, batch_shape,
                           ctx=ctx, dtype=dtype)
    return _npi.normal_n(loc=loc, scale=scale, size=_size(batch_shape),
                         ctx=ctx, dtype=dtype)
