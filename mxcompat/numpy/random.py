"""``mx.np.random``: NumPy's random sampling over the operator table's ``_npi_*`` random entries
(``mxcompat/ops/numpy_random.py``; the generator ``mx.random.seed`` seeds). Each distribution
parameter may be a number or an ``ndarray`` (broadcast against the others and against
``size``), as in MXNet. Samples follow torch's generator, not MXNet's: the same distributions,
other numbers."""
from ..context import current_context
from ..ndarray.ndarray import NDArray
from ..util import set_module, np_shape
from .multiarray import _npi

__all__ = ['randint', 'uniform', 'normal', 'choice', 'rand', 'multinomial',
           'multivariate_normal', 'logistic', 'gumbel', 'shuffle', 'randn', 'gamma', 'beta',
           'chisquare', 'exponential', 'lognormal', 'weibull', 'pareto', 'power', 'rayleigh']


def _size(size):
    """MXNet's ``size`` parameter: None for a single value."""
    return None if size == () else size


def _two_params(op, names, a, b, size, **kwargs):
    """``op`` with the parameters ``names`` = (a, b), one of them or both an ndarray: the
    arrays are inputs (their scalar parameter None), a number a scalar parameter. (Where both
    are numbers the front ends call ``op`` with them themselves: a frame less.)"""
    arrays = [v for v in (a, b) if isinstance(v, NDArray)]
    scalars = {n: (None if isinstance(v, NDArray) else v) for n, v in zip(names, (a, b))}
    return op(*arrays, size=_size(size), **scalars, **kwargs)


def _one_param(op, name, a, size, **kwargs):
    if isinstance(a, NDArray):
        return op(a, size=_size(size), **{name: None}, **kwargs)
    return op(size=_size(size), **{name: a}, **kwargs)


@set_module('mxnet.numpy.random')
def randint(low, high=None, size=None, dtype=None, ctx=None, out=None):
    """Return random integers from `low` (inclusive) to `high` (exclusive).

    Parameters
    ----------
    low : int
        Lowest (signed) integer to be drawn (unless ``high=None``: then the highest plus one,
        and 0 is the lowest).
    high : int, optional
        One above the largest (signed) integer to be drawn.
    size : int or tuple of ints, optional
        Output shape (default None: a single value).
    dtype : {'int32', 'int64'}, optional
        Desired dtype of the result (default int64).
    ctx : Context, optional
        Device context of output. Default is current context.
    out : ndarray, optional
        The output ndarray.

    Returns
    -------
    out : ndarray of ints
    """
    if high is None:
        low, high = 0, low
    with np_shape(True):
        return _npi.random_randint(low=low, high=high, shape=() if size is None else size,
                                   ctx=ctx or current_context(), dtype=dtype or 'int64',
                                   out=out)


@set_module('mxnet.numpy.random')
def uniform(low=0.0, high=1.0, size=None, dtype=None, ctx=None, out=None):
    """Draw samples from a uniform distribution over ``[low, high)``.

    Parameters
    ----------
    low, high : float or ndarray, optional
        Boundaries of the output interval (defaults 0 and 1).
    size : int or tuple of ints, optional
        Output shape (default None: a single value for scalar parameters, else their
        broadcast shape).
    dtype : {'float16', 'float32', 'float64'}, optional
        Data type of output samples. Default is 'float32'.
    ctx : Context, optional
        Device context of output. Default is current context.
    out : ndarray, optional
        Store output to an existing ndarray.

    Returns
    -------
    out : ndarray
    """
    ctx = ctx or current_context()
    dtype = dtype or 'float32'
    if isinstance(low, NDArray) or isinstance(high, NDArray):
        return _two_params(_npi.uniform, ('low', 'high'), low, high, size,
                           ctx=ctx, dtype=dtype, out=out)
    return _npi.uniform(low=low, high=high, size=None if size == () else size,  # (_size, inline)
                        ctx=ctx, dtype=dtype, out=out)


@set_module('mxnet.numpy.random')
def normal(loc=0.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):
    """Draw random samples from a normal (Gaussian) distribution.

    Parameters
    ----------
    loc : float or ndarray, optional
        Mean (centre) of the distribution.
    scale : float or ndarray, optional
        Standard deviation (spread or "width") of the distribution (non-negative).
    size : int or tuple of ints, optional
        Output shape (default None: a single value for scalar parameters, else their
        broadcast shape).
    dtype : {'float16', 'float32', 'float64'}, optional
        Data type of output samples. Default is 'float32'.
    ctx : Context, optional
        Device context of output. Default is current context.
    out : ndarray, optional
        Store output to an existing ndarray.

    Returns
    -------
    out : ndarray
        Samples, differentiable in ``loc`` and ``scale``.
    """
    ctx = ctx or current_context()
    dtype = dtype or 'float32'
    if isinstance(loc, NDArray) or isinstance(scale, NDArray):
        return _two_params(_npi.normal, ('loc', 'scale'), loc, scale, size,
                           ctx=ctx, dtype=dtype, out=out)
    return _npi.normal(loc=loc, scale=scale, size=None if size == () else size,  # (_size, inline)
                       ctx=ctx, dtype=dtype, out=out)


@set_module('mxnet.numpy.random')
def lognormal(mean=0.0, sigma=1.0, size=None, dtype=None, ctx=None, out=None):
    """Draw samples from a log-normal distribution: ``exp`` of normal samples of mean
    ``mean`` and standard deviation ``sigma`` (the parameters are those of the underlying
    normal distribution; see :func:`normal`)."""
    return _npi.exp(normal(loc=mean, scale=sigma, size=size, dtype=dtype, ctx=ctx, out=out))


@set_module('mxnet.numpy.random')
def logistic(loc=0.0, scale=1.0, size=None, ctx=None, out=None):
    """Draw samples from a logistic distribution with location ``loc`` and scale ``scale``
    (non-negative), numbers or ndarrays; ``size`` as in :func:`normal`. Differentiable in
    both parameters."""
    ctx = ctx or current_context()
    if isinstance(loc, NDArray) or isinstance(scale, NDArray):
        return _two_params(_npi.logistic, ('loc', 'scale'), loc, scale, size,
                           ctx=ctx, out=out)
    return _npi.logistic(loc=loc, scale=scale, size=_size(size),
                         ctx=ctx, out=out)


@set_module('mxnet.numpy.random')
def gumbel(loc=0.0, scale=1.0, size=None, ctx=None, out=None):
    """Draw samples from a Gumbel distribution with location ``loc`` and scale ``scale``
    (non-negative), numbers or ndarrays; ``size`` as in :func:`normal`. Differentiable in
    both parameters."""
    ctx = ctx or current_context()
    if isinstance(loc, NDArray) or isinstance(scale, NDArray):
        return _two_params(_npi.gumbel, ('loc', 'scale'), loc, scale, size,
                           ctx=ctx, out=out)
    return _npi.gumbel(loc=loc, scale=scale, size=_size(size),
                       ctx=ctx, out=out)


@set_module('mxnet.numpy.random')
def multinomial(n, pvals, size=None, **kwargs):
    """Draw samples from a multinomial distribution.

    Parameters
    ----------
    n : int
        Number of experiments.
    pvals : sequence of floats or ndarray
        Probabilities of each of the ``p`` different outcomes.
    size : int or tuple of ints, optional
        Output shape ahead of the outcomes' axis (default None: one sample).

    Returns
    -------
    out : ndarray of int64
        The counts of each outcome, of shape ``size + (p,)``.
    """
    if kwargs:
        raise TypeError('multinomial() got an unexpected keyword argument %r'
                        % next(iter(kwargs)))
    if isinstance(pvals, NDArray):
        return _npi.multinomial(pvals, pvals=None, n=n, size=size)
    if any(isinstance(v, (list, tuple)) for v in pvals):
        raise ValueError('object too deep for desired array')
    return _npi.multinomial(n=n, pvals=tuple(pvals), size=size)


@set_module('mxnet.numpy.random')
def multivariate_normal(mean, cov, size=None, check_valid=None,  # pylint: disable=unused-argument
                        tol=None):
    """Draw samples from multivariate normal distributions.

    Parameters
    ----------
    mean : ndarray
        Means, of shape ``(..., N)``.
    cov : ndarray
        Covariance matrices (symmetric positive-definite), of shape ``(..., N, N)``,
        broadcast with ``mean``.
    size : int or tuple of ints, optional
        Shape ahead of the broadcast shape of ``mean`` and ``cov[..., 0]``.
    check_valid, tol : optional
        Ignored, as MXNet's ``mx.np.random.multivariate_normal`` ignores them.

    Returns
    -------
    out : ndarray
        Samples of shape ``size + broadcast(mean, cov[..., 0]).shape``, drawn as MXNet 1.9.1
        draws them (see :mod:`mxcompat.numpy_op_fallback`).
    """
    return _npi.mvn_fallback(mean, cov, size=size)


@set_module('mxnet.numpy.random')
def choice(a, size=None, replace=True, p=None, ctx=None, out=None):
    """Generates a random sample from a given 1-D array.

    Parameters
    ----------
    a : 1-D ndarray or int
        The population: its elements, or ``np.arange(a)`` for an int.
    size : int or tuple of ints, optional
        Output shape (default None: a single value).
    replace : bool, optional
        Whether the sample is with or without replacement.
    p : 1-D ndarray, optional
        The probabilities of the entries of ``a`` (default: uniform).
    ctx : Context, optional
        Device context of output. Default is current context.

    Returns
    -------
    samples : ndarray
        Elements of ``a`` (int64 indices for an int ``a``).
    """
    size = _size(size)
    weighted = p is not None
    probs = (p,) if weighted else ()
    if isinstance(a, NDArray):
        indices = _npi.choice(a, *probs, a=None, size=size, replace=replace, ctx=None,
                              weighted=weighted)
        return _npi.take(a, indices)
    return _npi.choice(*probs, a=a, size=size, replace=replace, ctx=ctx or current_context(),
                       weighted=weighted, out=out)


@set_module('mxnet.numpy.random')
def rayleigh(scale=1.0, size=None, ctx=None, out=None):
    """Draw samples from a Rayleigh distribution of scale ``scale`` (non-negative, a number or
    an ndarray); ``size`` as in :func:`normal`. Differentiable in ``scale``."""
    return _one_param(_npi.rayleigh, 'scale', scale, size, ctx=ctx or current_context(),
                      out=out)


@set_module('mxnet.numpy.random')
def rand(*size, **kwargs):
    """Random values of the given shape, uniform over [0, 1)."""
    return uniform(0, 1, size=size, **kwargs)


@set_module('mxnet.numpy.random')
def exponential(scale=1.0, size=None, ctx=None, out=None):
    """Draw samples from an exponential distribution of scale ``scale`` (``1 / rate``,
    non-negative, a number or an ndarray); ``size`` as in :func:`normal`. Differentiable in
    ``scale``."""
    return _one_param(_npi.exponential, 'scale', scale, size, ctx=ctx or current_context(),
                      out=out)


@set_module('mxnet.numpy.random')
def weibull(a, size=None, ctx=None, out=None):
    """Draw samples from a one-parameter Weibull distribution of shape ``a`` (positive, a
    number or an ndarray); ``size`` as in :func:`normal`. Differentiable in ``a``."""
    return _one_param(_npi.weibull, 'a', a, size, ctx=ctx or current_context(), out=out)


@set_module('mxnet.numpy.random')
def pareto(a, size=None, ctx=None, out=None):
    """Draw samples from a Pareto II (Lomax) distribution of shape ``a`` (positive, a number
    or an ndarray); ``size`` as in :func:`normal`. Differentiable in ``a``."""
    return _one_param(_npi.pareto, 'a', a, size, ctx=ctx or current_context(), out=out)


@set_module('mxnet.numpy.random')
def power(a, size=None):
    """Draw samples in [0, 1] from a power distribution of parameter ``a`` (positive, a
    number or an ndarray); ``size`` as in :func:`normal`."""
    return _one_param(_npi.powerd, 'a', a, size)


@set_module('mxnet.numpy.random')
def shuffle(x):
    """Shuffle an array in place along its first axis."""
    _npi.shuffle(x, out=x)


@set_module('mxnet.numpy.random')
def gamma(shape, scale=1.0, size=None, dtype=None, ctx=None, out=None):  # pylint: disable=redefined-outer-name
    """Draw samples from a Gamma distribution.

    Parameters
    ----------
    shape : float or ndarray
        The shape of the gamma distribution (positive).
    scale : float or ndarray, optional
        The scale of the gamma distribution (positive). Default is 1.
    size : int or tuple of ints, optional
        Output shape (default None: a single value for scalar parameters, else their
        broadcast shape).
    dtype : {'float16', 'float32', 'float64'}, optional
        Data type of output samples. Default is 'float32'.
    ctx : Context, optional
        Device context of output. Default is current context.
    out : ndarray, optional
        Store output to an existing ndarray.

    Returns
    -------
    out : ndarray
    """
    if out is not None:
        size = out.shape
    ctx = ctx or current_context()
    dtype = dtype or 'float32'
    if isinstance(shape, NDArray) or isinstance(scale, NDArray):
        return _two_params(_npi.gamma, ('shape', 'scale'), shape, scale, size,
                           ctx=ctx, dtype=dtype, out=out)
    return _npi.gamma(shape=shape, scale=scale, size=_size(size),
                      ctx=ctx, dtype=dtype, out=out)


@set_module('mxnet.numpy.random')
def beta(a, b, size=None, dtype=None, ctx=None):
    """Draw samples from a Beta distribution of parameters ``a`` and ``b`` (positive, numbers
    or ndarrays): ``X / (X + Y)`` of gamma samples drawn in float64, as MXNet does; ``size``
    and ``dtype`` as in :func:`gamma`."""
    x = gamma(a, 1, size=size, dtype='float64', ctx=ctx)
    y = gamma(b, 1, size=size, dtype='float64', ctx=ctx)
    return (x / (x + y)).astype(dtype or 'float32')


@set_module('mxnet.numpy.random')
def chisquare(df, size=None, dtype=None, ctx=None):
    """Draw samples from a chi-square distribution of ``df`` degrees of freedom (positive, a
    number or an ndarray); ``size`` and ``dtype`` as in :func:`gamma`. ValueError for
    ``df <= 0``.

    As MXNet 1.9.1 does, these are gamma samples of shape ``df / 2`` and scale 1/2 (so their
    mean is ``df / 4``, where NumPy's, of scale 2, is ``df``).
    """
    return gamma(df / 2, 1 / 2, size=size, dtype=dtype, ctx=ctx)


@set_module('mxnet.numpy.random')
def randn(*size, **kwargs):
    """Samples of the standard normal distribution of the given shape."""
    return normal(0, 1, size=size, **kwargs)
