"""Random distribution generator NDArray API of MXNet (``mx.nd.random``).

Scalar distribution parameters draw with the ``_random_*`` operators; NDArray parameters draw
``shape`` samples per distribution with the ``_sample_*`` operators (output shape
``parameters.shape + shape``). ``mx.random.seed`` seeds the torch generators used here.
"""
from ..base import numeric_types, MXNetError, _Null, dtype_name
from ..context import current_context
from . import _internal
from .ndarray import NDArray
from .register import functions as _functions

__all__ = ['uniform', 'normal', 'randn', 'poisson', 'exponential', 'gamma', 'multinomial',
           'negative_binomial', 'generalized_negative_binomial', 'shuffle', 'randint']

# the *_like samplers are generated from the operator table, as MXNet does
for _name, _fn in _functions('random').items():
    if _name.endswith('_like'):
        globals()[_name] = _fn
        __all__.append(_name)
del _name, _fn


def _random_helper(random, sampler, params, shape, dtype, ctx, out, kwargs):
    """Draw with ``sampler`` (a ``_sample_*`` operator) when the distribution parameters are
    NDArrays, with ``random`` (a ``_random_*`` operator) when they are numbers."""
    if isinstance(params[0], NDArray):
        for p in params[1:]:
            if not isinstance(p, NDArray):
                raise AssertionError('Distribution parameters must all have the same type, but '
                                     'got both %s and %s.' % (type(params[0]), type(p)))
        return sampler(*params, shape=() if shape is _Null else shape,
                       dtype=None if dtype is _Null else dtype, out=out, **kwargs)
    if not isinstance(params[0], numeric_types):
        raise ValueError('Distribution parameters must be either NDArray or numbers, but got %s.'
                         % type(params[0]))
    for p in params[1:]:
        if not isinstance(p, numeric_types):
            raise AssertionError('Distribution parameters must all have the same type, but got '
                                 'both %s and %s.' % (type(params[0]), type(p)))
    if ctx is None:
        ctx = current_context()
    if shape is _Null:
        shape = 1 if out is None else out.shape
    if dtype is _Null:
        dtype = None
    if out is not None:
        # the output array decides the dtype, as MXNet's type inference does
        if dtype is None:
            dtype = out.dtype
        elif dtype_name(dtype) != dtype_name(out.dtype):
            raise MXNetError('Output type does not match requested type: %s vs %s'
                             % (dtype_name(out.dtype), dtype_name(dtype)))
    return random(*params, shape=shape, dtype=dtype, ctx=ctx, out=out, **kwargs)


def uniform(low=0, high=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Draw random samples from a uniform distribution.

    Samples are uniformly distributed over the half-open interval *[low, high)*
    (includes *low*, but excludes *high*).

    Parameters
    ----------
    low : float or NDArray, optional
        Lower boundary of the output interval. The default value is 0.
    high : float or NDArray, optional
        Upper boundary of the output interval. The default value is 1.0.
    shape : int or tuple of ints, optional
        The number of samples to draw. With scalar `low` and `high` the output has shape
        `shape`; with NDArrays of shape `(x, y)` it has shape `(x, y) + shape`.
    dtype : {'float16', 'float32', 'float64'}, optional
        Data type of output samples. Default is 'float32'.
    ctx : Context, optional
        Device context of output. Default is the current context; with NDArray parameters,
        their context.
    out : NDArray, optional
        Store output to an existing NDArray.

    Returns
    -------
    NDArray
    """
    return _random_helper(_internal._random_uniform, _internal._sample_uniform, [low, high], shape,
                          dtype, ctx, out, kwargs)


def normal(loc=0, scale=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Draw random samples from a normal (Gaussian) distribution.

    Parameters
    ----------
    loc : float or NDArray, optional
        Mean (centre) of the distribution.
    scale : float or NDArray, optional
        Standard deviation (spread or width) of the distribution.
    shape : int or tuple of ints, optional
        The number of samples to draw (per distribution when the parameters are NDArrays).
    dtype : {'float16', 'float32', 'float64'}, optional
        Data type of output samples. Default is 'float32'.
    ctx : Context, optional
        Device context of output. Default is the current context.
    out : NDArray, optional
        Store output to an existing NDArray.

    Returns
    -------
    NDArray
    """
    return _random_helper(_internal._random_normal, _internal._sample_normal, [loc, scale], shape,
                          dtype, ctx, out, kwargs)


def randn(*shape, **kwargs):
    """Draw random samples from a normal (Gaussian) distribution, the shape given as
    positional arguments: ``randn(2, 3, loc=0, scale=1)``.

    Parameters
    ----------
    *shape : ints
        The shape of the output.
    loc : float or NDArray, optional
        Mean (centre) of the distribution.
    scale : float or NDArray, optional
        Standard deviation (spread or width) of the distribution.
    dtype : {'float16', 'float32', 'float64'}, optional
        Data type of output samples. Default is 'float32'.
    ctx : Context, optional
        Device context of output. Default is the current context.
    out : NDArray, optional
        Store output to an existing NDArray.

    Returns
    -------
    NDArray
    """
    loc = kwargs.pop('loc', 0)
    scale = kwargs.pop('scale', 1)
    dtype = kwargs.pop('dtype', _Null)
    ctx = kwargs.pop('ctx', None)
    out = kwargs.pop('out', None)
    if not isinstance(loc, (int, float, NDArray)) or not isinstance(scale, (int, float, NDArray)):
        raise AssertionError('randn: loc and scale must be numbers or NDArrays')
    return _random_helper(_internal._random_normal, _internal._sample_normal, [loc, scale], shape,
                          dtype, ctx, out, kwargs)


def poisson(lam=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Draw random samples from a Poisson distribution with rate `lam` (floating point
    output).

    Parameters
    ----------
    lam : float or NDArray, optional
        Expectation of interval, should be >= 0.
    shape : int or tuple of ints, optional
        The number of samples to draw (per distribution when `lam` is an NDArray).
    dtype : {'float16', 'float32', 'float64'}, optional
        Data type of output samples. Default is 'float32'.
    ctx : Context, optional
        Device context of output. Default is the current context.
    out : NDArray, optional
        Store output to an existing NDArray.

    Returns
    -------
    NDArray
    """
    return _random_helper(_internal._random_poisson, _internal._sample_poisson, [lam], shape,
                          dtype, ctx, out, kwargs)


def exponential(scale=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    r"""Draw samples from an exponential distribution with scale parameter
    :math:`\beta = 1/\lambda`.

    Parameters
    ----------
    scale : float or NDArray, optional
        The scale parameter, \beta = 1/\lambda.
    shape : int or tuple of ints, optional
        The number of samples to draw (per distribution when `scale` is an NDArray).
    dtype : {'float16', 'float32', 'float64'}, optional
        Data type of output samples. Default is 'float32'.
    ctx : Context, optional
        Device context of output. Default is the current context.
    out : NDArray, optional
        Store output to an existing NDArray.

    Returns
    -------
    NDArray
    """
    return _random_helper(_internal._random_exponential, _internal._sample_exponential,
                          [1.0 / scale], shape, dtype, ctx, out, kwargs)


def gamma(alpha=1, beta=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Draw random samples from a gamma distribution with shape `alpha` and scale `beta`.

    Parameters
    ----------
    alpha : float or NDArray, optional
        The shape of the gamma distribution. Should be greater than zero.
    beta : float or NDArray, optional
        The scale of the gamma distribution. Should be greater than zero. Default is 1.
    shape : int or tuple of ints, optional
        The number of samples to draw (per distribution when the parameters are NDArrays).
    dtype : {'float16', 'float32', 'float64'}, optional
        Data type of output samples. Default is 'float32'.
    ctx : Context, optional
        Device context of output. Default is the current context.
    out : NDArray, optional
        Store output to an existing NDArray.

    Returns
    -------
    NDArray
    """
    return _random_helper(_internal._random_gamma, _internal._sample_gamma, [alpha, beta], shape,
                          dtype, ctx, out, kwargs)


def negative_binomial(k=1, p=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Draw random samples from a negative binomial distribution: the number of successes
    before `k` failures, each experiment failing with probability `p` (floating point output).

    Parameters
    ----------
    k : int or NDArray, optional
        Limit of unsuccessful experiments, > 0.
    p : float or NDArray, optional
        Failure probability in each experiment, >= 0 and <=1.
    shape : int or tuple of ints, optional
        The number of samples to draw (per distribution when the parameters are NDArrays).
    dtype : {'float16', 'float32', 'float64'}, optional
        Data type of output samples. Default is 'float32'.
    ctx : Context, optional
        Device context of output. Default is the current context.
    out : NDArray, optional
        Store output to an existing NDArray.

    Returns
    -------
    NDArray
    """
    return _random_helper(_internal._random_negative_binomial, _internal._sample_negative_binomial,
                          [k, p], shape, dtype, ctx, out, kwargs)


def generalized_negative_binomial(mu=1, alpha=1, shape=_Null, dtype=_Null, ctx=None,
                                  out=None, **kwargs):
    """Draw random samples from a generalized negative binomial distribution with mean `mu`
    and dispersion `alpha` (`alpha` = 1/k; floating point output).

    Parameters
    ----------
    mu : float or NDArray, optional
        Mean of the negative binomial distribution.
    alpha : float or NDArray, optional
        Alpha (dispersion) parameter of the negative binomial distribution.
    shape : int or tuple of ints, optional
        The number of samples to draw (per distribution when the parameters are NDArrays).
    dtype : {'float16', 'float32', 'float64'}, optional
        Data type of output samples. Default is 'float32'.
    ctx : Context, optional
        Device context of output. Default is the current context.
    out : NDArray, optional
        Store output to an existing NDArray.

    Returns
    -------
    NDArray
    """
    return _random_helper(_internal._random_generalized_negative_binomial,
                          _internal._sample_generalized_negative_binomial, [mu, alpha], shape,
                          dtype, ctx, out, kwargs)


def multinomial(data, shape=_Null, get_prob=False, out=None, dtype='int32', **kwargs):
    """Concurrent sampling from multiple multinomial distributions.

    .. note:: The input distribution must be normalized, i.e. `data` must sum to
              1 along its last dimension.

    Parameters
    ----------
    data : NDArray
        An *n* dimensional array whose last dimension has length `k`, where `k` is the number
        of possible outcomes of each multinomial distribution.
    shape : int or tuple of ints, optional
        The number of samples to draw from each distribution. If shape is empty one sample
        will be drawn from each distribution.
    get_prob : bool, optional
        If true, a second array containing log likelihood of the drawn samples will also be
        returned (differentiable with respect to `data`).
    out : NDArray, optional
        Store output to an existing NDArray.
    dtype : str or numpy.dtype, optional
        Data type of the sample output array. The default is int32. The log likelihood has the
        dtype of `data`.

    Returns
    -------
    NDArray or list of two NDArrays
        Samples of shape `data.shape[:-1] + shape`, and with `get_prob` their log likelihood.
    """
    return _internal._sample_multinomial(data, shape=() if shape is _Null else shape,
                                            get_prob=get_prob, out=out, dtype=dtype, **kwargs)


def shuffle(data, **kwargs):
    """Shuffle the elements randomly along the first axis; the input is not modified.

    Parameters
    ----------
    data : NDArray
        Input data array.
    out : NDArray, optional
        Array to store the result.

    Returns
    -------
    NDArray
        A new NDArray with the same shape and type as `data`, with the items of its first
        axis in random order.
    """
    return _internal._shuffle(data, **kwargs)


def randint(low, high, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Draw random samples from a discrete uniform distribution on *[low, high)*.

    Parameters
    ----------
    low : int
        Lower boundary of the output interval (included).
    high : int
        Upper boundary of the output interval (excluded).
    shape : int or tuple of ints, optional
        The number of samples to draw.
    dtype : {'int32', 'int64'}, optional
        Data type of output samples. Default is 'int32'.
    ctx : Context, optional
        Device context of output. Default is the current context.
    out : NDArray, optional
        Store output to an existing NDArray.

    Returns
    -------
    NDArray
    """
    return _random_helper(_internal._random_randint, None, [low, high], shape, dtype, ctx, out,
                          kwargs)
