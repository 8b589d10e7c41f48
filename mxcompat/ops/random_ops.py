"""Random sampling operators: ``_random_*`` (scalar parameters), ``_random_*_like``,
``_sample_*`` (parameters given as arrays), ``_sample_multinomial``, ``_shuffle``,
``_sample_unique_zipfian`` and the differentiable densities ``_random_pdf_*``.

Samples come from torch's generators (``mx.random.seed`` seeds them), so values differ from
MXNet's while the distributions, shapes and dtypes are MXNet's. The parameterisations follow
MXNet: gamma's ``beta`` is a scale when sampling and a rate in ``_random_pdf_gamma``; the
negative binomial's ``p`` is the failure probability per experiment.
"""
import math

import numpy as np
import torch

from ..base import MXNetError, dtype_torch, dtype_name, to_dtype
from ..deferred_errors import PARALLEL_RANDOM
from ..util import is_np_shape
from .creation import _device
from .registry import register, REQUIRED, Int, Float, Bool, Shape, Any, Kind

_FLOAT_TORCH = (torch.float16, torch.float32, torch.float64)


def _dtype_kind(*names):
    """A ``dtype`` parameter restricted to ``names`` ('None' allowed: no dtype requested)."""
    allowed = frozenset(names)

    def convert(v):
        if v is None or (isinstance(v, str) and v.strip() in ('None', '')):
            if 'None' in allowed:
                return None
            raise ValueError('dtype must be one of %s' % sorted(allowed))
        name = to_dtype(v.strip().strip("'\"") if isinstance(v, str) else v)
        if name not in allowed:
            raise ValueError("Invalid Input: '%s', valid values are: {%s}"
                             % (name, ', '.join("'%s'" % n for n in names)))
        return name
    # (a name of the set given as such needs no conversion)
    native = 'type(%%(p)s) is str and %%(p)s in %r' % (tuple(n for n in names if n != 'None'),)
    return Kind('{%s}' % ', '.join("'%s'" % n for n in names), convert, native=native)


_REAL_DTYPE = _dtype_kind('None', 'float16', 'float32', 'float64')
_INT_DTYPE = _dtype_kind('None', 'int32', 'int64')

_SCALAR_OPTS = {'shape': (Shape, ()), 'ctx': (Any, ''), 'dtype': (_REAL_DTYPE, None)}


def _shape_of(opname, shape):
    # shape () is unknown in MXNet's legacy shape semantics, a scalar in NumPy's
    if not shape and not is_np_shape():
        raise MXNetError('Operator %s inferring shapes failed: pass shape= (or out=)' % opname)
    return shape


def _fill_dtype(dtype):
    return torch.float32 if dtype is None else dtype_torch(dtype)


def _float_like(opname, data):
    if data.dtype not in _FLOAT_TORCH:
        raise MXNetError('%s: This operation only support floating point types, not %s'
                         % (opname, dtype_name(data.dtype)))
    return data.shape, data.dtype, data.device


# ------------------------------------------------------------------------------ samplers
# A sampler takes the distribution parameters (Python numbers, or float tensors broadcastable
# to the output shape), the output shape, the dtype to compute in and the device, and returns
# its draws in that dtype (the Poisson-based ones: float32); the operators cast them to the
# output dtype. Draws are made in float32 (float64 when that is the output dtype).
def _compute_dtype(dtype):
    return torch.float64 if dtype is torch.float64 else torch.float32


def _cast(out, dtype):
    return out if out.dtype is dtype else out.to(dtype)


# (one kernel for scalar parameters; torch's rand and randn draw what uniform_(0, 1) and
# normal_(0, 1) do, and parse an unpacked shape faster: ``*shape or ((),)``, a 0-d sample)
def draw_uniform(low, high, shape, cdtype, device):
    """Samples of uniform distributions over [low, high) (mx.nd's and mx.np's)."""
    if type(low) is float and type(high) is float and low <= high:
        if low == 0 and high == 1:
            return torch.rand(*shape or ((),), dtype=cdtype, device=device)
        return torch.empty(shape, dtype=cdtype, device=device).uniform_(low, high)
    return low + (high - low) * torch.rand(shape, dtype=cdtype, device=device)


def draw_normal(loc, scale, shape, cdtype, device):
    """Samples of normal distributions of means loc and standard deviations scale (mx.nd's
    and mx.np's)."""
    if type(loc) is float and type(scale) is float:
        if loc == 0 and scale == 1:
            return torch.randn(*shape or ((),), dtype=cdtype, device=device)
        return torch.normal(loc, scale, shape, dtype=cdtype, device=device)
    return loc + scale * torch.randn(shape, dtype=cdtype, device=device)


def _std_gamma(alpha, shape, cdtype, device):
    alpha = torch.as_tensor(alpha, dtype=cdtype, device=device).expand(shape)
    return torch._standard_gamma(alpha.contiguous())


def _gamma(alpha, beta, shape, cdtype, device):
    return _std_gamma(alpha, shape, cdtype, device) * beta


def _exponential(lam, shape, cdtype, device):
    if isinstance(lam, float):
        return torch.empty(shape, dtype=cdtype, device=device).exponential_(lam)
    return torch.empty(shape, dtype=cdtype, device=device).exponential_() / lam


def _poisson(lam, shape, cdtype, device):
    rate = torch.as_tensor(lam, dtype=torch.float32, device=device).expand(shape)
    return torch.poisson(rate.contiguous())


def _negative_binomial(k, p, shape, cdtype, device):
    k = torch.as_tensor(k, dtype=torch.float32, device=device)
    p = torch.as_tensor(p, dtype=torch.float32, device=device)
    rate = _std_gamma(k, shape, torch.float32, device) * ((1 - p) / p)
    return torch.poisson(rate)


def _generalized_negative_binomial(mu, alpha, shape, cdtype, device):
    mu = torch.as_tensor(mu, dtype=torch.float32, device=device)
    alpha = torch.as_tensor(alpha, dtype=torch.float32, device=device)
    # alpha == 0 degenerates to a Poisson distribution of rate mu
    safe_alpha = torch.where(alpha == 0, torch.ones_like(alpha), alpha)
    rate = _std_gamma(1 / safe_alpha, shape, torch.float32, device) * (safe_alpha * mu)
    rate = torch.where(alpha == 0, mu.expand(shape), rate)
    return torch.poisson(rate)


# -------------------------------------------------------------- checks of scalar parameters
# MXNet checks a sampler's parameters in its kernel: a check returns the error (MXNet's
# message), which the array raises when read (see deferred_errors), or None.
def _positive(name, value, dist):
    if not value > 0:
        return MXNetError('%s parameter in %s has to be positive (%s=%s)'
                          % (name, dist, name, value))
    return None


def _non_negative(name, value, dist):
    if not value >= 0:
        return MXNetError('%s parameter in %s has to be non-negative (%s=%s)'
                          % (name, dist, name, value))
    return None


def _check_uniform(low, high):
    if not high >= low:
        return MXNetError('low must be less or equal to high in uniform distribution '
                          '(low=%s, high=%s)' % (low, high))
    return None


def _check_normal(loc, scale):
    return _positive('scale', scale, 'gaussian')


def _check_gamma(alpha, beta):
    return _positive('alpha', alpha, 'gamma distribution') or \
        _positive('beta', beta, 'gamma distribution')


def _check_exponential(lam):
    return _positive('lambda', lam, 'exponential distribution')


def _check_poisson(lam):
    return _non_negative('lambda', lam, 'poisson distribution')


def _check_negative_binomial(k, p):
    return _non_negative('k', k, 'negative binomial distribution') or \
        _non_negative('p', p, 'negative binomial distribution')


def _check_generalized_negative_binomial(mu, alpha):
    return _non_negative('mu', mu, 'generalized negative binomial distribution') or \
        _non_negative('alpha', alpha, 'generalized negative binomial distribution')


# name, parameters (name, kind, default), sampler, check, docstring
_DISTRIBUTIONS = [
    ('uniform', (('low', Float, 0.0), ('high', Float, 1.0)), draw_uniform, _check_uniform,
     'Draw random samples from a uniform distribution on [low, high).'),
    ('normal', (('loc', Float, 0.0), ('scale', Float, 1.0)), draw_normal, _check_normal,
     'Draw random samples from a normal (Gaussian) distribution with mean loc and standard '
     'deviation scale.'),
    ('gamma', (('alpha', Float, 1.0), ('beta', Float, 1.0)), _gamma, _check_gamma,
     'Draw random samples from a gamma distribution with shape alpha and scale beta.'),
    ('exponential', (('lam', Float, 1.0),), _exponential, _check_exponential,
     'Draw random samples from an exponential distribution with rate lam.'),
    ('poisson', (('lam', Float, 1.0),), _poisson, _check_poisson,
     'Draw random samples from a Poisson distribution with rate lam (floating point output).'),
    ('negative_binomial', (('k', Int, 1), ('p', Float, 1.0)), _negative_binomial,
     _check_negative_binomial,
     'Draw random samples from a negative binomial distribution with failure limit k and '
     'failure probability p (floating point output).'),
    ('generalized_negative_binomial', (('mu', Float, 1.0), ('alpha', Float, 1.0)),
     _generalized_negative_binomial, _check_generalized_negative_binomial,
     'Draw random samples from a generalized negative binomial distribution with mean mu and '
     'dispersion alpha (floating point output).'),
]


def _make_scalar_sampler(dist, pnames, sampler, check, doc):
    opname = '_random_' + dist

    def sample(*, shape, ctx, dtype, **params):
        args = [params[n] for n in pnames]
        shape, dtype, device = _shape_of(opname, shape), _fill_dtype(dtype), _device(ctx)
        error = check(*args)
        if error is not None:
            return PARALLEL_RANDOM.hold(torch.empty(shape, dtype=dtype, device=device), error)
        out = _cast(sampler(*args, shape, _compute_dtype(dtype), device), dtype)
        # (no error pending: the sample as it is, without the frame of hold)
        return out if PARALLEL_RANDOM.pending is None else PARALLEL_RANDOM.hold(out)
    sample.__doc__ = doc
    sample.__name__ = 'random_' + dist
    return sample


def _make_like_sampler(dist, pnames, sampler, check, doc):
    opname = '_random_%s_like' % dist

    def sample_like(data, **params):
        args = [params[n] for n in pnames]
        shape, dtype, device = _float_like(opname, data)
        error = check(*args)
        out = _cast(sampler(*args, shape, _compute_dtype(dtype), device), dtype) \
            if error is None else torch.empty(shape, dtype=dtype, device=device)
        return PARALLEL_RANDOM.hold(out, error)
    sample_like.__doc__ = doc[:-1] + ', with the shape and dtype of the input array.'
    sample_like.__name__ = 'random_%s_like' % dist
    return sample_like


def _check_param_arrays(opname, arrays):
    first = arrays[0]
    for a in arrays[1:]:
        if a.shape != first.shape:
            raise MXNetError('Operator %s inferring shapes failed: distribution parameters must '
                             'have the same shape, got %s and %s'
                             % (opname, tuple(first.shape), tuple(a.shape)))
        if a.dtype != first.dtype:
            raise MXNetError('Operator %s: distribution parameters must have the same dtype, '
                             'got %s and %s' % (opname, dtype_name(first.dtype),
                                                dtype_name(a.dtype)))
    if first.numel() == 0:
        raise MXNetError('Operator %s: distribution parameters must not be empty' % opname)


def _make_array_sampler(dist, pnames, sampler, doc):
    opname = '_sample_' + dist

    def sample(*arrays, shape, dtype):
        _check_param_arrays(opname, arrays)
        if any(s <= 0 for s in shape):
            raise MXNetError('%s: shape parameter must be non-zero within each dimension, got %s'
                             % (opname, shape))
        pshape = tuple(arrays[0].shape)
        trail = (1,) * len(shape)
        cdtype = torch.float64 if dtype == 'float64' else torch.float32
        args = [a.detach().to(cdtype).reshape(pshape + trail) for a in arrays]
        return PARALLEL_RANDOM.hold(_cast(
            sampler(*args, pshape + tuple(shape), cdtype, arrays[0].device), _fill_dtype(dtype)))
    sample.__doc__ = ('Concurrent sampling from multiple %s distributions whose parameters are '
                      'given as arrays; the output has shape parameters.shape + shape.'
                      % dist.replace('_', ' '))
    sample.__name__ = 'sample_' + dist
    return sample


for _dist, _pspecs, _sampler, _check, _doc in _DISTRIBUTIONS:
    _pnames = tuple(p[0] for p in _pspecs)
    _params = {n: (k, d) for n, k, d in _pspecs}
    _aliases = ('random_' + _dist,) + (('uniform',) if _dist == 'uniform' else ()) \
        + (('normal',) if _dist == 'normal' else ())
    register('_random_' + _dist, inputs=(), params=dict(_params, **_SCALAR_OPTS),
             aliases=_aliases, differentiable=False)(
        _make_scalar_sampler(_dist, _pnames, _sampler, _check, _doc))
    register('_random_%s_like' % _dist, inputs=('data',), params=dict(_params),
             differentiable=False, monitor_prefix='input')(
        _make_like_sampler(_dist, _pnames, _sampler, _check, _doc))
    # the array form names the normal's parameters mu and sigma
    register('_sample_' + _dist, inputs=('mu', 'sigma') if _dist == 'normal' else _pnames,
             aliases=('sample_' + _dist,),
             params={'shape': (Shape, ()), 'dtype': (_REAL_DTYPE, None)},
             differentiable=False)(_make_array_sampler(_dist, _pnames, _sampler, _doc))


@register('_random_randint', inputs=(), aliases=('random_randint', '_npi_random_randint'),
          differentiable=False,
          params={'low': (Int, REQUIRED), 'high': (Int, REQUIRED), 'shape': (Shape, ()),
                  'ctx': (Any, ''), 'dtype': (_INT_DTYPE, None)})
def random_randint(*, low, high, shape, ctx, dtype):
    """Draw random samples from a discrete uniform distribution on [low, high)."""
    shape = _shape_of('_random_randint', shape)
    dtype = torch.int32 if dtype is None else dtype_torch(dtype)
    if high < low:  # (MXNet checks in the kernel)
        return PARALLEL_RANDOM.hold(torch.empty(shape, dtype=dtype, device=_device(ctx)),
                                    _check_uniform(low, high))
    if high == low:  # (MXNet 1.9.1 dies of a division by zero)
        raise MXNetError('low must be less than high in randint (low=%d, high=%d)' % (low, high))
    return PARALLEL_RANDOM.hold(torch.randint(low, high, shape, dtype=dtype,
                                              device=_device(ctx)))


# ------------------------------------------------------------------------------ multinomial
_MULTINOMIAL_DTYPE = _dtype_kind('uint8', 'int32', 'float16', 'float32', 'float64')


@register('_sample_multinomial', monitor_prefix='input',
          inputs=('data',), aliases=('sample_multinomial',),
          params={'shape': (Shape, ()), 'get_prob': (Bool, False),
                  'dtype': (_MULTINOMIAL_DTYPE, 'int32')},
          num_outputs=lambda p: 2 if p['get_prob'] else 1)
def sample_multinomial(data, *, shape, get_prob, dtype):
    """Concurrent sampling from multiple multinomial distributions given by the last axis of
    data (probabilities summing to 1); with get_prob, also returns the log likelihood of the
    drawn samples (differentiable with respect to data)."""
    if data.dtype not in _FLOAT_TORCH:
        raise MXNetError('_sample_multinomial: data must be a floating point array, got %s'
                         % dtype_name(data.dtype))
    k = data.shape[-1]
    lead = tuple(data.shape[:-1])
    oshape = (tuple(shape) or (1,)) if data.dim() == 1 else lead + tuple(shape)
    n = max(1, int(np.prod(lead)))
    m = int(np.prod(shape)) if shape else 1
    probs = data.reshape(n, k)
    cdf = torch.cumsum(probs.detach().double(), dim=1).float()
    u = torch.rand(n, m, device=data.device)
    idx = torch.searchsorted(cdf, u).clamp_(max=k - 1)
    out = idx.to(dtype_torch(dtype)).reshape(oshape)
    if not get_prob:
        return out
    prob = torch.log(torch.gather(probs, 1, idx)).reshape(oshape)
    return out, prob


# ------------------------------------------------------------------------------ shuffle
@register('_shuffle', monitor_prefix='input', merges=False,
          inputs=('data',), aliases=('shuffle', '_npi_shuffle'), differentiable=False)
def shuffle(data):
    """Randomly shuffle the elements along the first axis (the order inside each subarray is
    kept)."""
    if data.dim() == 0:
        raise MXNetError('_shuffle: data must have at least one dimension')
    return data.detach()[torch.randperm(data.shape[0], device=data.device)]


# ------------------------------------------------------------------------------ unique zipfian
@register('_sample_unique_zipfian', merges=False, inputs=(), num_outputs=2, differentiable=False,
          params={'range_max': (Int, REQUIRED), 'shape': (Shape, ())})
def sample_unique_zipfian(*, range_max, shape):
    """Draw samples from an approximately log-uniform (Zipfian) distribution over
    [0, range_max) without replacement; shape is (batch_size, num_sampled). Also returns the
    number of trials each row needed."""
    if len(shape) != 2:
        raise MXNetError('_sample_unique_zipfian: shape must be 2-D (batch_size, num_sampled), '
                         'got %s' % (shape,))
    batch, num = shape
    if num > range_max:
        raise MXNetError('_sample_unique_zipfian: Number of samples cannot exceed the number of '
                         'possible classes (%d > %d)' % (num, range_max))
    log_range = math.log(range_max)
    samples = np.empty((batch, num), dtype=np.int64)
    tries = np.empty((batch,), dtype=np.int64)
    chunk = max(2 * num, 64)
    for row in range(batch):
        seen, order, count = set(), [], 0
        while len(order) < num:
            u = torch.rand(chunk, dtype=torch.float64).numpy()
            draws = np.rint(np.exp(u * log_range)).astype(np.int64) - 1
            for v in draws.tolist():
                count += 1
                if v not in seen:
                    seen.add(v)
                    order.append(v)
                    if len(order) == num:
                        break
        samples[row] = order
        tries[row] = count
    return torch.from_numpy(samples), torch.from_numpy(tries)


# ------------------------------------------------------------------------------ densities
def _pdf_params(opname, sample, params, vector=False):
    """Broadcast distribution parameters against ``sample`` (their shape is its leftmost
    subshape; for vector-valued samples the last axis is the sample's last axis too)."""
    first = params[0]
    for p in params[1:]:
        if p.shape != first.shape:
            raise MXNetError('%s: distribution parameters must have the same shape, got %s and %s'
                             % (opname, tuple(first.shape), tuple(p.shape)))
    for p in params:
        if p.dtype != sample.dtype:
            raise MXNetError('%s: all inputs must have the same dtype, got %s and %s'
                             % (opname, dtype_name(sample.dtype), dtype_name(p.dtype)))
    pnd, snd = first.dim(), sample.dim()
    if pnd > snd:
        raise MXNetError('%s: dimension of input samples (%d) must be at least dimension of '
                         'distribution parameters (%d)' % (opname, snd, pnd))
    lead = tuple(sample.shape[:pnd])
    if vector:
        lead = lead[:-1] + (sample.shape[-1],)
    if tuple(first.shape) != lead:
        raise MXNetError('%s: shape of distribution parameters %s must match the leftmost '
                         'subshape %s of the samples' % (opname, tuple(first.shape), lead))
    if vector:
        view = lead[:-1] + (1,) * (snd - pnd) + lead[-1:]
    else:
        view = lead + (1,) * (snd - pnd)
    return [p.reshape(view) for p in params]


def _pdf_result(lpdf, is_log):
    return lpdf if is_log else torch.exp(lpdf)


_PDF_PARAMS = {'is_log': (Bool, False)}


@register('_random_pdf_uniform', inputs=('sample', 'low', 'high'), params=_PDF_PARAMS,
          aliases=('random_pdf_uniform',))
def random_pdf_uniform(sample, low, high, *, is_log):
    """Computes the PDF of samples of uniform distributions on [low, high) (the support is not
    checked)."""
    low, high = _pdf_params('_random_pdf_uniform', sample, [low, high])
    lpdf = (-torch.log(high - low)).expand(sample.shape).contiguous()
    return _pdf_result(lpdf, is_log)


@register('_random_pdf_normal', inputs=('sample', 'mu', 'sigma'), params=_PDF_PARAMS,
          aliases=('random_pdf_normal',))
def random_pdf_normal(sample, mu, sigma, *, is_log):
    """Computes the PDF of samples of normal distributions with mean mu and standard deviation
    sigma."""
    mu, sigma = _pdf_params('_random_pdf_normal', sample, [mu, sigma])
    lpdf = -0.5 * ((sample - mu) / sigma) ** 2 - torch.log(math.sqrt(2 * math.pi) * sigma)
    return _pdf_result(lpdf, is_log)


@register('_random_pdf_gamma', inputs=('sample', 'alpha', 'beta'), params=_PDF_PARAMS,
          aliases=('random_pdf_gamma',))
def random_pdf_gamma(sample, alpha, beta, *, is_log):
    """Computes the PDF of samples of gamma distributions with shape alpha and rate beta."""
    alpha, beta = _pdf_params('_random_pdf_gamma', sample, [alpha, beta])
    lpdf = alpha * torch.log(beta) + (alpha - 1) * torch.log(sample) - beta * sample \
        - torch.lgamma(alpha)
    return _pdf_result(lpdf, is_log)


@register('_random_pdf_exponential', inputs=('sample', 'lam'), params=_PDF_PARAMS,
          aliases=('random_pdf_exponential',))
def random_pdf_exponential(sample, lam, *, is_log):
    """Computes the PDF of samples of exponential distributions with rate lam."""
    lam, = _pdf_params('_random_pdf_exponential', sample, [lam])
    return _pdf_result(torch.log(lam) - lam * sample, is_log)


# For the discrete distributions MXNet's gradient with respect to the sample is zero.
@register('_random_pdf_poisson', inputs=('sample', 'lam'), params=_PDF_PARAMS,
          aliases=('random_pdf_poisson',))
def random_pdf_poisson(sample, lam, *, is_log):
    """Computes the PDF of samples of Poisson distributions with rate lam."""
    lam, = _pdf_params('_random_pdf_poisson', sample, [lam])
    x = sample.detach()
    return _pdf_result(x * torch.log(lam) - torch.lgamma(x + 1) - lam, is_log)


def _negative_binomial_lpdf(x, limit, prob):
    return torch.lgamma(x + limit) - torch.lgamma(x + 1) - torch.lgamma(limit) \
        + limit * torch.log(prob) + x * torch.log(1 - prob)


@register('_random_pdf_negative_binomial', inputs=('sample', 'k', 'p'), params=_PDF_PARAMS,
          aliases=('random_pdf_negative_binomial',))
def random_pdf_negative_binomial(sample, k, p, *, is_log):
    """Computes the PDF of samples of negative binomial distributions with failure limit k and
    failure probability p."""
    k, p = _pdf_params('_random_pdf_negative_binomial', sample, [k, p])
    return _pdf_result(_negative_binomial_lpdf(sample.detach(), k, p), is_log)


@register('_random_pdf_generalized_negative_binomial', inputs=('sample', 'mu', 'alpha'),
          params=_PDF_PARAMS, aliases=('random_pdf_generalized_negative_binomial',))
def random_pdf_generalized_negative_binomial(sample, mu, alpha, *, is_log):
    """Computes the PDF of samples of generalized negative binomial distributions with mean mu
    and dispersion alpha (k = 1 / alpha, p = 1 / (mu * alpha + 1))."""
    mu, alpha = _pdf_params('_random_pdf_generalized_negative_binomial', sample, [mu, alpha])
    lpdf = _negative_binomial_lpdf(sample.detach(), 1 / alpha, 1 / (mu * alpha + 1))
    return _pdf_result(lpdf, is_log)


@register('_random_pdf_dirichlet', inputs=('sample', 'alpha'), params=_PDF_PARAMS,
          aliases=('random_pdf_dirichlet',))
def random_pdf_dirichlet(sample, alpha, *, is_log):
    """Computes the PDF of vector samples (last axis) of Dirichlet distributions with
    concentration alpha."""
    alpha, = _pdf_params('_random_pdf_dirichlet', sample, [alpha], vector=True)
    lpdf = ((alpha - 1) * torch.log(sample)).sum(-1) + torch.lgamma(alpha.sum(-1)) \
        - torch.lgamma(alpha).sum(-1)
    if sample.dim() == 1:
        lpdf = lpdf.reshape(1)
    return _pdf_result(lpdf, is_log)
