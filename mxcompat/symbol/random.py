"""Random distribution generator Symbol API of MXNet (``mx.sym.random``).

Scalar distribution parameters use the ``_random_*`` operators; Symbol parameters draw
``shape`` samples per distribution with the ``_sample_*`` operators, as ``mx.nd.random`` does.
"""
from ..base import numeric_types, _Null
from .. import ops as _ops  # noqa: F401
from . import _internal
from .register import functions as _functions
from .symbol import Symbol

__all__ = ['uniform', 'normal', 'randn', 'poisson', 'exponential', 'gamma', 'multinomial',
           'negative_binomial', 'generalized_negative_binomial', 'shuffle', 'randint']

for _name, _fn in _functions('random').items():
    if _name.endswith('_like'):
        globals()[_name] = _fn
        __all__.append(_name)
del _name, _fn


def _helper(random, sampler, params, shape, dtype, kwargs):
    if isinstance(params[0], Symbol):
        for p in params[1:]:
            if not isinstance(p, Symbol):
                raise AssertionError('Distribution parameters must all have the same type, but '
                                     'got both %s and %s.' % (type(params[0]), type(p)))
        return sampler(*params, shape=() if shape is _Null else shape,
                       dtype=None if dtype is _Null else dtype, **kwargs)
    if not isinstance(params[0], numeric_types):
        raise ValueError('Distribution parameters must be either Symbol or numbers, but got %s.'
                         % type(params[0]))
    for p in params[1:]:
        if not isinstance(p, numeric_types):
            raise AssertionError('Distribution parameters must all have the same type, but got '
                                 'both %s and %s.' % (type(params[0]), type(p)))
    return random(*params, shape=None if shape is _Null else shape,
                  dtype=None if dtype is _Null else dtype, **kwargs)


def uniform(low=0, high=1, shape=_Null, dtype=_Null, **kwargs):
    """Draw random samples from a uniform distribution over [low, high)."""
    return _helper(_internal._random_uniform, _internal._sample_uniform, [low, high], shape,
                   dtype, kwargs)


def normal(loc=0, scale=1, shape=_Null, dtype=_Null, **kwargs):
    """Draw random samples from a normal (Gaussian) distribution."""
    return _helper(_internal._random_normal, _internal._sample_normal, [loc, scale], shape,
                   dtype, kwargs)


def randn(*shape, **kwargs):
    """Draw random samples from a normal (Gaussian) distribution (shape given positionally)."""
    loc = kwargs.pop('loc', 0)
    scale = kwargs.pop('scale', 1)
    dtype = kwargs.pop('dtype', _Null)
    return _helper(_internal._random_normal, _internal._sample_normal, [loc, scale], shape,
                   dtype, kwargs)


def poisson(lam=1, shape=_Null, dtype=_Null, **kwargs):
    """Draw random samples from a Poisson distribution."""
    return _helper(_internal._random_poisson, _internal._sample_poisson, [lam], shape, dtype,
                   kwargs)


def exponential(scale=1, shape=_Null, dtype=_Null, **kwargs):
    """Draw samples from an exponential distribution with scale ``scale`` (1 / lambda)."""
    return _helper(_internal._random_exponential, _internal._sample_exponential, [1.0 / scale],
                   shape, dtype, kwargs)


def gamma(alpha=1, beta=1, shape=_Null, dtype=_Null, **kwargs):
    """Draw random samples from a gamma distribution."""
    return _helper(_internal._random_gamma, _internal._sample_gamma, [alpha, beta], shape,
                   dtype, kwargs)


def negative_binomial(k=1, p=1, shape=_Null, dtype=_Null, **kwargs):
    """Draw random samples from a negative binomial distribution."""
    return _helper(_internal._random_negative_binomial, _internal._sample_negative_binomial,
                   [k, p], shape, dtype, kwargs)


def generalized_negative_binomial(mu=1, alpha=1, shape=_Null, dtype=_Null, **kwargs):
    """Draw random samples from a generalized negative binomial distribution."""
    return _helper(_internal._random_generalized_negative_binomial,
                   _internal._sample_generalized_negative_binomial, [mu, alpha], shape, dtype,
                   kwargs)


def multinomial(data, shape=_Null, get_prob=True, dtype='int32', **kwargs):
    """Concurrent sampling from multiple multinomial distributions."""
    return _internal._sample_multinomial(data, shape=() if shape is _Null else shape,
                                         get_prob=get_prob, dtype=dtype, **kwargs)


def shuffle(data, **kwargs):
    """Shuffle the elements randomly along the first axis."""
    return _internal._shuffle(data, **kwargs)


def randint(low, high, shape=_Null, dtype=_Null, **kwargs):
    """Draw random samples from a discrete uniform distribution over [low, high)."""
    return _helper(_internal._random_randint, None, [low, high], shape, dtype, kwargs)
