"""The NumPy interface's random operators (``_npi_uniform``, ``_npi_normal``, ``_npi_gamma``,
..., ``_npi_bernoulli``, ``_npi_choice``, ``_npi_multinomial``), with MXNet 1.9.1's names and
parameters.

As in MXNet, a distribution parameter is either a scalar parameter of the operator or, where
that parameter is None, an array input: the inputs (MXNet names them ``input1``, ``input2``)
are the array-valued parameters in the operator's parameter order, so the number of inputs
depends on the parameters (the entries are variadic, with MXNet's input names from
``input_rule``). Without ``size`` the output has the broadcast shape of the array parameters
(a scalar for scalar parameters); with it, ``size`` (``batch_shape + broadcast shape`` for the
``_n`` variants of ``npx.random``), to which every array parameter must broadcast.

Draws come from torch's generators (``mx.random.seed`` seeds them), so the numbers differ from
MXNet's while distributions, shapes, dtypes and checks are MXNet's: a parameter out of its
domain raises ValueError with MXNet's message. Samples are reparameterised as MXNet's are:
normal, logistic, gumbel, exponential, rayleigh, weibull and pareto samples are differentiable
functions of their parameters (``loc + scale * noise``, ...), the others give zero gradients
(MXNet's MakeZeroGradNodes).
"""
import operator

import torch

from ..base import MXNetError, dtype_torch
from ..deferred_errors import RANDOM
from .indexing import zero_grad_link
from .random_ops import _dtype_kind, _device, draw_normal, draw_uniform
from .registry import register, REQUIRED, Float, FloatTuple, Bool, Shape, Any, Opt, Int

_REAL = _dtype_kind('float16', 'float32', 'float64')
_INPUT_NAMES = ('input1', 'input2')


def _input_rule(pnames):
    """MXNet's input names: one per parameter given as an array (its scalar is None)."""
    def rule(params):
        return list(_INPUT_NAMES[:sum(params[n] is None for n in pnames)])
    return rule


def _params(opname, pnames, arrays, kwargs):
    """The distribution parameters, each a Python float or the array input standing for it."""
    it = iter(arrays)
    out = []
    for n in pnames:
        v = kwargs[n]
        if v is None:
            v = next(it, None)
            if v is None:
                raise MXNetError('Operator %s: parameter %s is None and no array input gives it'
                                 % (opname, n))
        out.append(v)
    return out


def _violates(value, bad):
    """Whether a parameter (number or tensor) has a value for which ``bad`` holds (meta tensors,
    which shape inference runs on, hold no values)."""
    if isinstance(value, torch.Tensor):
        return value.device.type != 'meta' and value.numel() > 0 and bool(bad(value).any())
    return bad(value)


def _out_shape(opname, arrays, size, batch):
    """The output shape (see the module docstring)."""
    shapes = [tuple(a.shape) for a in arrays]
    try:
        pshape = tuple(torch.broadcast_shapes(*shapes)) if shapes else ()
    except RuntimeError:
        raise MXNetError('Operator %s: operands could not be broadcast together with shapes %s'
                         % (opname, ' '.join(str(list(s)) for s in shapes))) from None
    if batch:
        return (tuple(size) if size is not None else ()) + pshape
    if size is None:
        return pshape
    size = tuple(size)
    for s in shapes:
        if len(s) > len(size) or any(p not in (1, o) for p, o in zip(s[::-1], size[::-1])):
            raise MXNetError('Operator %s: operands could not be broadcast together with shapes '
                             '%s %s' % (opname, list(s), list(size)))
    return size


def _float(value, cdtype, grad):
    """A tensor parameter in the compute type (kept in the autograd graph where the sample is
    differentiable in it)."""
    if not isinstance(value, torch.Tensor):
        return value
    value = value if grad else value.detach()
    return value if value.dtype is cdtype else value.to(cdtype)


def _uniform_noise(shape, cdtype, device):
    # in (0, 1]: the logarithms of the transforms below stay finite
    return 1 - torch.rand(shape, dtype=cdtype, device=device)


def _exp_noise(shape, cdtype, device):
    return torch.empty(shape, dtype=cdtype, device=device).exponential_()


def _draw_logistic(loc, scale, shape, cdtype, device):
    u = _uniform_noise(shape, cdtype, device)
    return loc + scale * torch.log(u / (1 - u))


def _draw_gumbel(loc, scale, shape, cdtype, device):
    return loc - scale * torch.log(_exp_noise(shape, cdtype, device))


def _draw_gamma(shape_, scale, shape, cdtype, device):
    alpha = torch.as_tensor(shape_, dtype=cdtype, device=device).expand(shape).contiguous()
    return torch._standard_gamma(alpha) * scale


def _draw_exponential(scale, shape, cdtype, device):
    if type(scale) is float and scale > 0:  # one kernel
        return torch.empty(shape, dtype=cdtype, device=device).exponential_(1 / scale)
    return scale * _exp_noise(shape, cdtype, device)


def _draw_rayleigh(scale, shape, cdtype, device):
    return scale * torch.sqrt(2 * _exp_noise(shape, cdtype, device))


def _draw_weibull(a, shape, cdtype, device):
    return torch.pow(_exp_noise(shape, cdtype, device), 1 / a)


def _draw_pareto(a, shape, cdtype, device):
    return torch.expm1(_exp_noise(shape, cdtype, device) / a)


def _draw_power(a, shape, cdtype, device):
    return torch.pow(torch.rand(shape, dtype=cdtype, device=device), 1 / a)


def _negative(v):
    return v < 0


def _not_positive(v):
    return v <= 0


def _check_each(*rules):
    """A check of the parameters, returning MXNet's error (raised when the samples are read,
    as MXNet checks in the kernel) or None: ``rules`` holds (predicate of a bad value, message
    for a scalar, message for an array) per parameter, None for an unchecked one (None: none
    checked)."""
    checked = [(i, rule) for i, rule in enumerate(rules) if rule is not None]
    if not checked:
        return None

    def check(values):
        for i, (bad, scalar_msg, array_msg) in checked:
            value = values[i]
            # (a float first: isinstance of torch.Tensor costs more than the test itself)
            if type(value) is not float and isinstance(value, torch.Tensor):
                if _violates(value, bad):
                    return ValueError(array_msg)
            elif bad(value):
                return ValueError(scalar_msg)
        return None
    return check


_SCALE_NN = (_negative, 'scale < 0', 'scale < 0')
_SCALE_EXP = (_negative, 'expect scale >= 0', 'expect scale >= 0')
_A_POS = (_not_positive, 'expect a > 0', 'expect a > 0')

# name, parameters, sampler, check, differentiable, has dtype, doc
_DISTS = (
    ('uniform', ('low', 'high'), draw_uniform, _check_each(None, None), False, True,
     'Samples of uniform distributions over [low, high).'),
    ('normal', ('loc', 'scale'), draw_normal, _check_each(None, _SCALE_NN), True, True,
     'Samples of normal distributions with mean loc and standard deviation scale.'),
    ('gamma', ('shape', 'scale'), _draw_gamma,
     _check_each((_not_positive, 'expect shape > 0', 'expect shape and value > 0'),
                 (_not_positive, 'expect scale > 0', 'expect shape and value > 0')),
     False, True, 'Samples of gamma distributions with the given shape and scale.'),
    ('logistic', ('loc', 'scale'), _draw_logistic, _check_each(None, _SCALE_NN), True, False,
     'Samples of logistic distributions with location loc and scale scale.'),
    ('gumbel', ('loc', 'scale'), _draw_gumbel, _check_each(None, _SCALE_NN), True, False,
     'Samples of Gumbel distributions with location loc and scale scale.'),
    ('exponential', ('scale',), _draw_exponential, _check_each(_SCALE_EXP), True, False,
     'Samples of exponential distributions with scale (1 / rate) scale.'),
    ('rayleigh', ('scale',), _draw_rayleigh, _check_each(_SCALE_EXP), True, False,
     'Samples of Rayleigh distributions with scale scale.'),
    ('weibull', ('a',), _draw_weibull, _check_each(_A_POS), True, False,
     'Samples of one-parameter Weibull distributions of shape a.'),
    ('pareto', ('a',), _draw_pareto, _check_each(_A_POS), True, False,
     'Samples of Pareto II (Lomax) distributions of shape a.'),
    ('powerd', ('a',), _draw_power, _check_each(_A_POS), False, False,
     'Samples in [0, 1] of power distributions of parameter a.'),
)


def _sampler(opname, pnames, draw, check, grad, batch, doc):
    # (the parameters' values in one C call)
    scalars = operator.itemgetter(*pnames) if len(pnames) > 1 else \
        (lambda kwargs: (kwargs[pnames[0]],))

    def sample(*arrays, size, ctx, dtype='float32', **kwargs):
        out_dtype = dtype_torch(dtype)
        cdtype = torch.float64 if out_dtype is torch.float64 else torch.float32
        if not arrays:
            values = scalars(kwargs)
            if None not in values:  # scalar parameters: the shape is size, the values numbers
                # (size: a tuple once the Shape kind converted it)
                shape, device = () if size is None else size, _device(ctx)
                error = None if check is None else check(values)
                if error is not None:
                    return RANDOM.hold(torch.empty(shape, dtype=out_dtype, device=device), error)
                res = draw(*values, shape, cdtype, device)
                res = res if res.dtype is out_dtype else res.to(out_dtype)
                # (no error pending: the sample as it is, without the frame of hold)
                return res if RANDOM.pending is None else RANDOM.hold(res)
        values = _params(opname, pnames, arrays, kwargs)  # (MXNetError for a missing one)
        error = None if check is None else check(values)
        shape = _out_shape(opname, arrays, size, batch)
        if error is not None:
            return RANDOM.hold(torch.empty(shape, dtype=out_dtype, device=arrays[0].device),
                               error)
        res = draw(*[_float(v, cdtype, grad) for v in values], shape, cdtype, arrays[0].device)
        res = res if res.dtype is out_dtype else res.to(out_dtype)
        return RANDOM.hold(res if grad else zero_grad_link(res, *arrays))
    sample.__doc__ = doc
    sample.__name__ = opname
    return sample


def _register(name, pnames, draw, check, grad, has_dtype, doc, batch=False):
    params = {n: (Opt(Float), REQUIRED) for n in pnames}
    params.update(size=(Opt(Shape), None), ctx=(Any, 'cpu'))
    if has_dtype:
        params['dtype'] = (_REAL, 'float32')
    opname = '_npi_' + name
    register(opname, inputs=('*input',), input_rule=_input_rule(pnames), params=params,
             differentiable=grad, merges=False)(
        _sampler(opname, pnames, draw, check, grad, batch, doc))


for _name, _pnames, _draw, _check, _grad, _has_dtype, _doc in _DISTS:
    _register(_name, _pnames, _draw, _check, _grad, _has_dtype, _doc)
for _name, _draw, _check, _grad, _doc in (
        ('uniform_n', draw_uniform, _check_each(None, None), False,
         'Samples of uniform distributions over [low, high), ``size`` (the batch shape) '
         'ahead of the parameters\' shape.'),
        ('normal_n', draw_normal, _check_each(None, _SCALE_NN), True,
         'Samples of normal distributions, ``size`` (the batch shape) ahead of the '
         'parameters\' shape.')):
    _register(_name, ('low', 'high') if _name == 'uniform_n' else ('loc', 'scale'), _draw,
              _check, _grad, True, _doc, batch=True)


_BERNOULLI_DTYPE = _dtype_kind('uint8', 'int32', 'float32', 'float64', 'float16', 'bool')


def _bernoulli_rule(params):
    return list(_INPUT_NAMES[:int(params['prob'] is None and params['logit'] is None)])


@register('_npi_bernoulli', inputs=('*input',), input_rule=_bernoulli_rule, merges=False,
          differentiable=False,
          params={'prob': (Opt(Float), REQUIRED), 'logit': (Opt(Float), REQUIRED),
                  'is_logit': (Bool, REQUIRED), 'size': (Opt(Shape), None),
                  'ctx': (Any, 'cpu'), 'dtype': (_BERNOULLI_DTYPE, 'float32')})
def npi_bernoulli(*arrays, prob, logit, is_logit, size, ctx, dtype):
    """Samples (0 or 1) of Bernoulli distributions given by the probability ``prob`` or, with
    ``is_logit``, by the log-odds ``logit`` of a one."""
    value = (logit if is_logit else prob)
    if value is None:
        if not arrays:
            raise MXNetError('Operator _npi_bernoulli: pass prob or logit, as a number or an '
                             'array')
        value = arrays[0].detach()
    shape = _out_shape('_npi_bernoulli', arrays, size, False)
    device = arrays[0].device if arrays else _device(ctx)
    if not is_logit and _violates(value, lambda p: (p < 0) | (p > 1)):
        return RANDOM.hold(torch.empty(shape, dtype=dtype_torch(dtype), device=device),
                           ValueError('expect probs >= 0 && probs <= 1'))
    p = torch.as_tensor(value, dtype=torch.float32, device=device)
    if is_logit:
        p = torch.sigmoid(p)
    return RANDOM.hold(zero_grad_link((torch.rand(shape, device=device) < p).to(
        dtype_torch(dtype)), *arrays))


def _choice_rule(params):
    return list(_INPUT_NAMES[:int(params['a'] is None) + int(params['weighted'])])


@register('_npi_choice', inputs=('*input',), input_rule=_choice_rule, merges=False,
          differentiable=False,
          params={'a': (Opt(Int), REQUIRED), 'size': (Opt(Shape), REQUIRED),
                  'ctx': (Any, 'cpu'), 'replace': (Bool, True), 'weighted': (Bool, False)})
def npi_choice(*arrays, a, size, ctx, replace, weighted):
    """Indices (int64) drawn from ``range(a)`` (``a`` given as an array: its length), uniformly
    or, with ``weighted``, with the probabilities of the last input; with or without
    replacement."""
    if a is None:
        a = arrays[0].shape[0]
    device = arrays[0].device if arrays else _device(ctx)
    shape = tuple(size) if size is not None else ()
    n = 1
    for d in shape:
        n *= d
    if not replace and n > a:
        raise ValueError("Cannot take a larger sample than population when 'replace=False'")
    if weighted:
        p = arrays[-1].detach().to(torch.float64)
        if p.shape != (a,):
            raise ValueError('a and p must have same size')
        if n == 0:
            return torch.zeros(shape, dtype=torch.int64, device=device)
        return torch.multinomial(p, n, replacement=replace).reshape(shape)
    if replace:
        return torch.randint(0, a, shape, dtype=torch.int64, device=device)
    return torch.randperm(a, device=device)[:n].reshape(shape)


def _multinomial_rule(params):
    return ['a'] if params['pvals'] is None else []


@register('_npi_multinomial', inputs=('*a',), input_rule=_multinomial_rule, merges=False,
          differentiable=False, monitor_prefix='input',
          params={'n': (Int, REQUIRED), 'pvals': (Opt(FloatTuple), None),
                  'size': (Opt(Shape), None)})
def npi_multinomial(*arrays, n, pvals, size):
    """Counts (int64) of each of the k outcomes in ``n`` experiments, per sample; the output
    has shape ``size + (k,)``. As in MXNet, an experiment takes the first outcome whose running
    sum of ``pvals`` exceeds a uniform draw, or else the last outcome (which so takes
    ``1 - sum(pvals[:-1])``); a running sum above 1 is an error."""
    if pvals is None:
        p = arrays[0].detach()
    else:
        p = torch.tensor(pvals, dtype=torch.float64)
    if p.dim() != 1:
        raise ValueError('object too deep for desired array')
    k = p.shape[0]
    shape = tuple(size) if size is not None else ()
    m = 1
    for d in shape:
        m *= d
    counts = torch.zeros((m, k), dtype=torch.int64, device=p.device)
    if m and k:
        acc = torch.cumsum(p, 0)  # in the type of pvals, as MXNet sums them
        top = float(acc.max())
        if top > 1.0 + 1e-12:
            return RANDOM.hold(counts.reshape(shape + (k,)), MXNetError(
                '_npi_multinomial: sum(pvals[:-1]) > 1.0: the running sum of pvals reaches %s; '
                'pass probabilities that sum to at most 1' % top))
        edges = acc.to(torch.float64).cummax(0).values.clamp_(0, 1)
        edges[-1] = 1
        if n:
            probs = torch.diff(edges, prepend=edges.new_zeros(1))
            draws = torch.multinomial(probs, m * n, replacement=True).reshape(m, n)
            counts.scatter_add_(1, draws, torch.ones_like(draws))
    return RANDOM.hold(counts.reshape(shape + (k,)))
