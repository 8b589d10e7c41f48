"""Optimizer update operators (``sgd_update``, ``adam_update``, ..., the ``multi_*`` and
``preloaded_multi_*`` forms, LAMB, LARS, AdamW and group AdaGrad).

As in MXNet, each operator reads the weight and gradient, updates its state arrays (momentum,
moving averages, fp32 master weights, ...) in place, and returns the new weight, which callers
usually write back with ``out=weight``. The arithmetic follows MXNet's kernels step by step
(float parameters are rounded to float32 as MXNet stores them): ``rescale_grad`` scales the
gradient, ``clip_gradient`` < 0 disables clipping, and ``lazy_update`` only matters for sparse
gradients, which mxcompat does not support. Inputs are detached: updates are never recorded.
"""
import math
import struct

import numpy as np
import torch

from ..base import MXNetError, dtype_name, to_float, to_float_tuple
from .registry import register, REQUIRED, Int, Float, Bool, Shape, Kind


_F32_PACK = struct.Struct('f').pack
_F32_UNPACK = struct.Struct('f').unpack


def _f32(v):
    """``v`` rounded to float32, as MXNet stores its float parameters."""
    return _F32_UNPACK(_F32_PACK(v))[0]


def _to_f32(v):
    v = to_float(v)
    try:  # (struct's round trip costs a third of numpy's, on every update)
        return _f32(v)
    except OverflowError:  # beyond float32's range: numpy's inf
        return float(np.float32(v))


def _to_f32_tuple(v):
    t = to_float_tuple(v)
    return None if t is None else tuple(float(x) for x in np.asarray(t, dtype=np.float32))


# MXNet stores these parameters as C floats
F32 = Kind('float', _to_f32)
F32Tuple = Kind('tuple of <float>', _to_f32_tuple)


def _p(default):
    """A float parameter with MXNet's float32-rounded default."""
    return (F32, default if default is REQUIRED else _to_f32(default))


_COMMON = {'wd': _p(0.0), 'rescale_grad': _p(1.0), 'clip_gradient': _p(-1.0)}
_SGD = dict({'lr': _p(REQUIRED)}, **_COMMON, lazy_update=(Bool, True))
_SGD_MOM = dict({'lr': _p(REQUIRED), 'momentum': _p(0.0)}, **_COMMON,
                lazy_update=(Bool, True))
_NAG_MOM = dict({'lr': _p(REQUIRED), 'momentum': _p(0.0)}, **_COMMON)


def _check(opname, names, tensors, mp=()):
    """Same shapes for all inputs; fp32 master copies and states where MXNet requires them."""
    shape = tensors[0].shape
    for n, t in zip(names, tensors):
        if t.shape != shape:
            raise MXNetError('%s: %s has shape %s but weight has shape %s'
                             % (opname, n, tuple(t.shape), tuple(shape)))
    for n, t in zip(names, tensors):
        if n in mp and t.dtype is not torch.float32:
            raise MXNetError('%s: %s must be float32, got %s' % (opname, n, dtype_name(t.dtype)))


def _into_weight(out_tensor, weight):
    """Where an update of ``weight`` may be written in place: ``out_tensor`` (detached) when
    it is the weight itself, as the optimizers call the update operators (``out=weight``);
    else None, and the operator returns a new tensor."""
    if out_tensor is None or out_tensor.data_ptr() != weight.data_ptr() or \
            out_tensor.dtype is not weight.dtype or out_tensor.shape != weight.shape or \
            out_tensor.stride() != weight.stride():
        return None
    return out_tensor.detach()


def _clip(g, clip):
    return g.clamp_(-clip, clip) if clip >= 0 else g


def _scaled(grad, rescale, clip):
    """rescale_grad * grad, clipped when clip >= 0 (a new tensor)."""
    return _clip(grad * rescale, clip)


# ------------------------------------------------------------------------------ SGD
@register('sgd_update', monitor_prefix='input',
          inputs=('weight', 'grad'), params=_SGD, aliases=('_sparse_sgd_update',),
          writes_out=True)
def sgd_update(weight, grad, *, lr, wd, rescale_grad, clip_gradient, lazy_update,
               out_tensor=None):
    """Update function for Stochastic Gradient Descent (SGD) optimizer:
    weight = (1 - lr * wd) * weight - lr * clip(rescale_grad * grad)."""
    weight, grad = weight.detach(), grad.detach()
    _check('sgd_update', ('weight', 'grad'), (weight, grad))
    if clip_gradient >= 0:
        g, alpha = _scaled(grad, rescale_grad, clip_gradient), -lr
    else:
        g, alpha = grad, -(lr * rescale_grad)
    dst = _into_weight(out_tensor, weight)
    if dst is None:
        return torch.add(weight * (1 - lr * wd), g, alpha=alpha)
    if 1 - lr * wd != 1.0:  # (x * 1.0 is x: the pass is skipped)
        dst.mul_(1 - lr * wd)
    dst.add_(g, alpha=alpha)
    return out_tensor


def _momentum_step(mom, w, grad, lr, momentum, wd, rescale_grad, clip_gradient):
    """mom = momentum * mom - lr * wd * w - lr * clip(rescale_grad * grad), in place."""
    mom.mul_(momentum).add_(w, alpha=-(lr * wd))
    if clip_gradient >= 0:
        mom.add_(_scaled(grad, rescale_grad, clip_gradient), alpha=-lr)
    else:
        mom.add_(grad, alpha=-(lr * rescale_grad))
    return mom


@register('sgd_mom_update', monitor_prefix='input',
          inputs=('weight', 'grad', 'mom'), params=_SGD_MOM,
          mutate=('mom',), aliases=('_sparse_sgd_mom_update',), writes_out=True)
def sgd_mom_update(weight, grad, mom, *, lr, momentum, wd, rescale_grad, clip_gradient,
                   lazy_update, out_tensor=None):
    """Momentum update function for SGD: mom = momentum * mom - lr * (wd * weight +
    clip(rescale_grad * grad)); weight = weight + mom."""
    weight, grad = weight.detach(), grad.detach()
    _check('sgd_mom_update', ('weight', 'grad', 'mom'), (weight, grad, mom))
    _momentum_step(mom, weight, grad, lr, momentum, wd, rescale_grad, clip_gradient)
    dst = _into_weight(out_tensor, weight)
    if dst is None:
        return weight + mom
    dst.add_(mom)
    return out_tensor


@register('mp_sgd_update', monitor_prefix='input',
          inputs=('weight', 'grad', 'weight32'), params=_SGD,
          mutate=('weight32',))
def mp_sgd_update(weight, grad, weight32, *, lr, wd, rescale_grad, clip_gradient, lazy_update):
    """Updater function for multi-precision SGD: the float32 master copy weight32 is updated
    and returned cast to the weight's dtype."""
    weight, grad = weight.detach(), grad.detach()
    _check('mp_sgd_update', ('weight', 'grad', 'weight32'), (weight, grad, weight32),
           mp=('weight32',))
    g = grad.float()
    weight32.mul_(1 - lr * wd)
    if clip_gradient >= 0:
        weight32.add_(_scaled(g, rescale_grad, clip_gradient), alpha=-lr)
    else:
        weight32.add_(g, alpha=-(lr * rescale_grad))
    return weight32.to(weight.dtype, copy=True)


@register('mp_sgd_mom_update', monitor_prefix='input',
          inputs=('weight', 'grad', 'mom', 'weight32'), params=_SGD_MOM,
          mutate=('mom', 'weight32'))
def mp_sgd_mom_update(weight, grad, mom, weight32, *, lr, momentum, wd, rescale_grad,
                      clip_gradient, lazy_update):
    """Updater function for multi-precision SGD with momentum (float32 mom and weight32)."""
    weight, grad = weight.detach(), grad.detach()
    _check('mp_sgd_mom_update', ('weight', 'grad', 'mom', 'weight32'),
           (weight, grad, mom, weight32), mp=('mom', 'weight32'))
    _momentum_step(mom, weight32, grad.float(), lr, momentum, wd, rescale_grad, clip_gradient)
    weight32.add_(mom)
    return weight32.to(weight.dtype, copy=True)


@register('nag_mom_update', monitor_prefix='input',
          inputs=('weight', 'grad', 'mom'), params=_NAG_MOM, mutate=('mom',))
def nag_mom_update(weight, grad, mom, *, lr, momentum, wd, rescale_grad, clip_gradient):
    """Update function for Nesterov Accelerated Gradient (NAG) optimizer.

    MXNet's kernel writes the new weight before it decays the momentum with the weight; with
    ``out=weight`` (the NAG optimizer's call) that decay sees the new weight, as here."""
    weight, grad = weight.detach(), grad.detach()
    _check('nag_mom_update', ('weight', 'grad', 'mom'), (weight, grad, mom))
    g = _scaled(grad, rescale_grad, clip_gradient)
    mom.mul_(momentum)
    out = (mom - torch.add(g, weight, alpha=wd).mul_(lr)).mul_(momentum + 1).add_(weight)
    out.sub_(mom)
    mom.sub_(torch.add(g, out, alpha=wd).mul_(lr))
    return out


@register('mp_nag_mom_update', monitor_prefix='input',
          inputs=('weight', 'grad', 'mom', 'weight32'), params=_NAG_MOM,
          mutate=('mom', 'weight32'))
def mp_nag_mom_update(weight, grad, mom, weight32, *, lr, momentum, wd, rescale_grad,
                      clip_gradient):
    """Update function for multi-precision Nesterov Accelerated Gradient (NAG) optimizer."""
    weight, grad = weight.detach(), grad.detach()
    _check('mp_nag_mom_update', ('weight', 'grad', 'mom', 'weight32'),
           (weight, grad, mom, weight32), mp=('mom', 'weight32'))
    g = _scaled(grad.float(), rescale_grad, clip_gradient)
    mom.mul_(momentum)
    step = torch.add(g, weight32, alpha=wd).mul_(lr)
    weight32.add_((mom - step).mul_(momentum + 1)).sub_(mom)
    # as in nag_mom_update, the momentum is decayed with the updated weight
    mom.sub_(torch.add(g, weight32, alpha=wd).mul_(lr))
    return weight32.to(weight.dtype, copy=True)


# ------------------------------------------------------------------------------ adaptive
@register('ftml_update', monitor_prefix='input',
          inputs=('weight', 'grad', 'd', 'v', 'z'), mutate=('d', 'v', 'z'),
          params={'lr': _p(REQUIRED), 'beta1': _p(0.6), 'beta2': _p(0.999),
                  'epsilon': (Float, 1e-8), 't': (Int, REQUIRED), 'wd': _p(0.0),
                  'rescale_grad': _p(1.0), 'clip_grad': _p(-1.0)})
def ftml_update(weight, grad, d, v, z, *, lr, beta1, beta2, epsilon, t, wd, rescale_grad,
                clip_grad):
    """The FTML optimizer update (Follow the Moving Leader)."""
    weight, grad = weight.detach(), grad.detach()
    _check('ftml_update', ('weight', 'grad', 'd', 'v', 'z'), (weight, grad, d, v, z))
    g = _clip(torch.add(grad * rescale_grad, weight, alpha=wd), clip_grad)
    v.mul_(beta2).addcmul_(g, g, value=1 - beta2)
    d_t = torch.sqrt(v / (1 - beta2 ** t)).add_(epsilon).mul_((1 - beta1 ** t) / lr)
    z.mul_(beta1).add_(g, alpha=1 - beta1).sub_((d_t - beta1 * d).mul_(weight))
    d.copy_(d_t)
    return -z / d_t


@register('adam_update', monitor_prefix='input',
          inputs=('weight', 'grad', 'mean', 'var'), mutate=('mean', 'var'),
          aliases=('_sparse_adam_update',),
          params=dict({'lr': _p(REQUIRED), 'beta1': _p(0.9), 'beta2': _p(0.999),
                       'epsilon': _p(1e-8)}, **_COMMON, lazy_update=(Bool, True)),
          writes_out=True)
def adam_update(weight, grad, mean, var, *, lr, beta1, beta2, epsilon, wd, rescale_grad,
                clip_gradient, lazy_update, out_tensor=None):
    """Update function for Adam optimizer (without bias correction: the caller folds it into
    lr): mean and var are moving averages of the gradient and of its square."""
    weight, grad = weight.detach(), grad.detach()
    _check('adam_update', ('weight', 'grad', 'mean', 'var'), (weight, grad, mean, var))
    g = _clip(torch.add(grad * rescale_grad, weight, alpha=wd), clip_gradient)
    mean.mul_(beta1).add_(g, alpha=1 - beta1)
    var.mul_(beta2).addcmul_(g, g, value=1 - beta2)
    denom = torch.sqrt(var).add_(epsilon)
    dst = _into_weight(out_tensor, weight)
    if dst is None:
        return torch.addcdiv(weight, mean, denom, value=-lr)
    dst.addcdiv_(mean, denom, value=-lr)
    return out_tensor


_RMSPROP_TAIL = {'epsilon': _p(1e-8), 'wd': _p(0.0), 'rescale_grad': _p(1.0),
                 'clip_gradient': _p(-1.0), 'clip_weights': _p(-1.0)}
_RMSPROP = dict({'lr': _p(REQUIRED), 'gamma1': _p(0.95)}, **_RMSPROP_TAIL)


@register('rmsprop_update', monitor_prefix='input',
          inputs=('weight', 'grad', 'n'), params=_RMSPROP, mutate=('n',),
          writes_out=True)
def rmsprop_update(weight, grad, n, *, lr, gamma1, epsilon, wd, rescale_grad, clip_gradient,
                   clip_weights, out_tensor=None):
    """Update function for RMSProp optimizer (Tieleman & Hinton)."""
    weight, grad = weight.detach(), grad.detach()
    _check('rmsprop_update', ('weight', 'grad', 'n'), (weight, grad, n))
    g = _clip(torch.add(grad * rescale_grad, weight, alpha=wd), clip_gradient)
    n.mul_(gamma1).addcmul_(g, g, value=1 - gamma1)
    dst = _into_weight(out_tensor, weight)
    if dst is None:
        return _clip(torch.addcdiv(weight, g, torch.sqrt(n + epsilon), value=-lr), clip_weights)
    _clip(dst.addcdiv_(g, torch.sqrt(n + epsilon), value=-lr), clip_weights)
    return out_tensor


@register('rmspropalex_update', monitor_prefix='input',
          inputs=('weight', 'grad', 'n', 'g', 'delta'),
          params=dict({'lr': _p(REQUIRED), 'gamma1': _p(0.95), 'gamma2': _p(0.9)},
                      **_RMSPROP_TAIL), mutate=('n', 'g', 'delta'))
def rmspropalex_update(weight, grad, n, g, delta, *, lr, gamma1, gamma2, epsilon, wd,
                       rescale_grad, clip_gradient, clip_weights):
    """Update function for RMSProp optimizer, the variant of Alex Graves (centered, with
    momentum)."""
    weight, grad = weight.detach(), grad.detach()
    _check('rmspropalex_update', ('weight', 'grad', 'n', 'g', 'delta'),
           (weight, grad, n, g, delta))
    gr = _clip(torch.add(grad * rescale_grad, weight, alpha=wd), clip_gradient)
    n.mul_(gamma1).addcmul_(gr, gr, value=1 - gamma1)
    g.mul_(gamma1).add_(gr, alpha=1 - gamma1)
    delta.mul_(gamma2).addcdiv_(gr, torch.sqrt((n - g * g).add_(epsilon)), value=-lr)
    return _clip(weight + delta, clip_weights)


@register('ftrl_update', monitor_prefix='input',
          inputs=('weight', 'grad', 'z', 'n'), mutate=('z', 'n'),
          aliases=('_sparse_ftrl_update',),
          params=dict({'lr': _p(REQUIRED), 'lamda1': _p(0.01), 'beta': _p(1.0)}, **_COMMON))
def ftrl_update(weight, grad, z, n, *, lr, lamda1, beta, wd, rescale_grad, clip_gradient):
    """Update function for Ftrl optimizer (Follow the Regularized Leader)."""
    weight, grad = weight.detach(), grad.detach()
    _check('ftrl_update', ('weight', 'grad', 'z', 'n'), (weight, grad, z, n))
    g = _scaled(grad, rescale_grad, clip_gradient)
    g2 = g * g
    z.add_(g).sub_((torch.sqrt(n + g2) - torch.sqrt(n)).mul_(weight).div_(lr))
    n.add_(g2)
    den = torch.sqrt(n).add_(beta).div_(lr).add_(wd)
    return (torch.sign(z) * lamda1 - z).div_(den).mul_(torch.abs(z) > lamda1)


@register('signsgd_update', monitor_prefix='input', inputs=('weight', 'grad'),
          params=dict({'lr': _p(REQUIRED)}, **_COMMON))
def signsgd_update(weight, grad, *, lr, wd, rescale_grad, clip_gradient):
    """Update function for SignSGD optimizer: weight = (1 - lr * wd) * weight -
    lr * sign(grad) (rescale_grad and clip_gradient have no effect)."""
    weight, grad = weight.detach(), grad.detach()
    _check('signsgd_update', ('weight', 'grad'), (weight, grad))
    return torch.add(weight * (1 - lr * wd), torch.sign(grad), alpha=-lr)


@register('signum_update', monitor_prefix='input',
          inputs=('weight', 'grad', 'mom'), mutate=('mom',),
          params=dict({'lr': _p(REQUIRED), 'momentum': _p(0.0)}, **_COMMON, wd_lh=_p(0.0)))
def signum_update(weight, grad, mom, *, lr, momentum, wd, rescale_grad, clip_gradient, wd_lh):
    """SIGN momentUM (Signum) optimizer: mom = momentum * mom - (1 - momentum) * (wd * weight +
    clip(rescale_grad * grad)); weight = (1 - lr * wd_lh) * weight + lr * sign(mom)."""
    weight, grad = weight.detach(), grad.detach()
    _check('signum_update', ('weight', 'grad', 'mom'), (weight, grad, mom))
    mom.mul_(momentum).add_(weight, alpha=-((1 - momentum) * wd))
    if clip_gradient >= 0:
        mom.add_(_scaled(grad, rescale_grad, clip_gradient), alpha=-(1 - momentum))
    else:
        mom.add_(grad, alpha=-((1 - momentum) * rescale_grad))
    return torch.add(weight * (1 - lr * wd_lh), torch.sign(mom), alpha=lr)


# ------------------------------------------------------------------------------ LAMB
_LAMB1 = {'beta1': _p(0.9), 'beta2': _p(0.999), 'epsilon': _p(1e-6), 't': (Int, REQUIRED),
          'bias_correction': (Bool, True), 'wd': _p(REQUIRED), 'rescale_grad': _p(1.0),
          'clip_gradient': _p(-1.0)}
_LAMB2 = {'lr': _p(REQUIRED), 'lower_bound': _p(-1.0), 'upper_bound': _p(-1.0)}


def _lamb_direction(g, mean, var, w, beta1, beta2, epsilon, t, bias_correction, wd):
    """Update mean/var in place; returns mean_hat / (sqrt(var_hat) + eps) + wd * w."""
    mean.mul_(beta1).add_(g, alpha=1 - beta1)
    var.mul_(beta2).addcmul_(g, g, value=1 - beta2)
    if bias_correction:
        m, v = mean / (1 - beta1 ** t), var / (1 - beta2 ** t)
    else:
        m, v = mean, var
    return (m / torch.sqrt(v).add_(epsilon)).add_(w, alpha=wd)


def _trust_lr(lr, r1, r2, lower_bound, upper_bound):
    """lr scaled by the LAMB trust ratio r1 / r2 (1 when either norm is 0), as a tensor."""
    if lower_bound >= 0:
        r1 = r1.clamp(min=lower_bound)
    if upper_bound >= 0:
        r1 = r1.clamp(max=upper_bound)
    ratio = torch.where((r1 == 0) | (r2 == 0), torch.ones_like(r1), r1 / r2)
    return ratio * lr


@register('lamb_update_phase1', monitor_prefix='input',
          inputs=('weight', 'grad', 'mean', 'var'), params=_LAMB1,
          mutate=('mean', 'var'))
def lamb_update_phase1(weight, grad, mean, var, *, beta1, beta2, epsilon, t, bias_correction,
                       wd, rescale_grad, clip_gradient):
    """Phase I of the LAMB update: updates mean and var and returns the update direction g."""
    weight, grad = weight.detach(), grad.detach()
    _check('lamb_update_phase1', ('weight', 'grad', 'mean', 'var'), (weight, grad, mean, var))
    g = _scaled(grad, rescale_grad, clip_gradient)
    return _lamb_direction(g, mean, var, weight, beta1, beta2, epsilon, t, bias_correction, wd)


@register('lamb_update_phase2', monitor_prefix='input',
          inputs=('weight', 'g', 'r1', 'r2'), params=_LAMB2)
def lamb_update_phase2(weight, g, r1, r2, *, lr, lower_bound, upper_bound):
    """Phase II of the LAMB update: weight = weight - lr * (r1 / r2) * g, with r1 (the weight
    norm) clipped to [lower_bound, upper_bound] when those are >= 0."""
    weight, g = weight.detach(), g.detach()
    _check('lamb_update_phase2', ('weight', 'g'), (weight, g))
    return weight - _trust_lr(lr, r1.detach(), r2.detach(), lower_bound, upper_bound) * g


@register('mp_lamb_update_phase1', monitor_prefix='input',
          inputs=('weight', 'grad', 'mean', 'var', 'weight32'),
          params=_LAMB1, mutate=('mean', 'var'))
def mp_lamb_update_phase1(weight, grad, mean, var, weight32, *, beta1, beta2, epsilon, t,
                          bias_correction, wd, rescale_grad, clip_gradient):
    """Mixed precision version of Phase I of the LAMB update (float16 weight and grad, float32
    states); returns a float32 direction."""
    weight, grad = weight.detach(), grad.detach()
    _check('mp_lamb_update_phase1', ('weight', 'grad', 'mean', 'var', 'weight32'),
           (weight, grad, mean, var, weight32), mp=('mean', 'var', 'weight32'))
    if weight.dtype is not torch.float16 or grad.dtype is not torch.float16:
        raise MXNetError('mp_lamb_update_phase1: weight and grad must be float16, got %s and %s'
                         % (dtype_name(weight.dtype), dtype_name(grad.dtype)))
    g = _scaled(grad.float(), rescale_grad, clip_gradient)
    return _lamb_direction(g, mean, var, weight32, beta1, beta2, epsilon, t, bias_correction,
                           wd)


@register('mp_lamb_update_phase2', monitor_prefix='input',
          inputs=('weight', 'g', 'r1', 'r2', 'weight32'),
          params=_LAMB2, mutate=('weight32',))
def mp_lamb_update_phase2(weight, g, r1, r2, weight32, *, lr, lower_bound, upper_bound):
    """Mixed precision version of Phase II of the LAMB update: returns
    weight32 - lr * (r1 / r2) * g in the weight's dtype (weight32 itself is left unchanged, as
    in MXNet)."""
    weight, g = weight.detach(), g.detach()
    _check('mp_lamb_update_phase2', ('weight', 'g', 'weight32'), (weight, g, weight32),
           mp=('g', 'weight32'))
    lr_t = _trust_lr(lr, r1.detach(), r2.detach(), lower_bound, upper_bound)
    return (weight32 - lr_t * g).to(weight.dtype)


# ------------------------------------------------------------------------------ multi-tensor
def _groups(opname, data, stride, count, extra=0):
    """Split the flat input list into ``count`` groups of ``stride`` tensors (detached)."""
    if len(data) != stride * count + extra:
        raise MXNetError('%s: expected %d inputs for num_weights=%d, got %d'
                         % (opname, stride * count + extra, count, len(data)))
    data = [t.detach() for t in data]
    return [data[i::stride][:count] for i in range(stride)], data[stride * count:]


def _check_hyper(opname, count, **lists):
    for name, values in lists.items():
        if len(values) != count:
            raise MXNetError('%s: Number of %s is inconsistent with num_weights parameter '
                             'passed. Expected %d, got %d' % (opname, name, count, len(values)))


def _multi_names(*names, extra=(), count='num_weights'):
    def rule(params):
        n = params[count]
        return ['%s_%d' % (name, i) for i in range(n) for name in names] + list(extra)
    return rule


def _multi_mutate(*names, count='num_weights'):
    """Mutated inputs of a multi-tensor operator, for given parameters."""
    return lambda params: ['%s_%d' % (name, i) for i in range(params[count]) for name in names]


def _multi_sgd(weights, grads, moms, lrs, wds, momentum, rescale_grad, clip_gradient):
    """MXNet's multi-SGD kernel: mom = momentum * mom - lr * wd * w - lr * clip(rescale * g);
    w = w + mom, for lists (moms is None without momentum). lrs, wds: numbers or 0-d tensors."""
    g = torch._foreach_mul(grads, rescale_grad)
    if clip_gradient >= 0:
        torch._foreach_clamp_min_(g, -clip_gradient)
        torch._foreach_clamp_max_(g, clip_gradient)
    torch._foreach_mul_(g, [-lr for lr in lrs])
    # without weight decay the decay term is all zeros: adding it changes no value
    decay = None if not any(wds) else \
        torch._foreach_mul(weights, [-lr * wd for lr, wd in zip(lrs, wds)])
    if moms is None:
        step = g if decay is None else torch._foreach_add(decay, g)
    else:
        torch._foreach_mul_(moms, momentum)
        if decay is not None:
            torch._foreach_add_(moms, decay)
        torch._foreach_add_(moms, g)
        step = moms
    return torch._foreach_add(weights, step)


_set_grad_enabled = torch._C._set_grad_enabled


def multi_sgd_inplace(weights, grads, moms, lrs, wds, momentum, rescale_grad, clip_gradient):
    """MXNet's multi-SGD kernel (``multi_sgd_update`` / ``multi_sgd_mom_update`` with
    ``out=weights``) applied in place to lists of same-dtype, same-shape torch tensors:
    mom = momentum * mom - lr * wd * w - lr * clip(rescale_grad * g); w += mom (``moms`` is
    None without momentum). Hyper-parameters are rounded to float32 as MXNet stores them, and
    ``lr * wd`` and ``lr * rescale_grad`` are formed in float32 as its kernel forms them.
    Weights sharing a (lr, wd) pair are updated together by torch's multi-tensor kernels,
    which fuse each multiply-add (the last bit may differ from MXNet's CPU kernel, as it does
    on MXNet's GPUs); nothing is allocated without clipping and nothing is recorded by
    autograd. The caller checks shapes and dtypes."""
    rescale = _f32(rescale_grad)
    clip = _f32(clip_gradient) if clip_gradient >= 0 else None
    momentum = _f32(momentum)
    prev = torch.is_grad_enabled()
    _set_grad_enabled(False)
    try:
        for (lr, wd), ks in _sgd_chunks(weights, lrs, wds):
            ws, gs = [weights[k] for k in ks], [grads[k] for k in ks]
            if clip is not None:  # lr * clip(rescale * g)
                gs = torch._foreach_mul(gs, rescale)
                torch._foreach_clamp_min_(gs, -clip)
                torch._foreach_clamp_max_(gs, clip)
            lr = _f32(lr)
            decay = _f32(lr * _f32(wd))
            step = -_f32(lr * (1.0 if clip is not None else rescale))
            if moms is None:  # w - lr * wd * w - lr * rescale * g
                if decay:
                    torch._foreach_add_(ws, ws, alpha=-decay)
                torch._foreach_add_(ws, gs, alpha=step)
            else:
                ms = [moms[k] for k in ks]
                torch._foreach_mul_(ms, momentum)
                if decay:
                    torch._foreach_add_(ms, ws, alpha=-decay)
                torch._foreach_add_(ms, gs, alpha=step)
                torch._foreach_add_(ws, ms)
    finally:
        _set_grad_enabled(prev)


# Each multi-tensor pass of an SGD update reads what the previous one wrote: passes over chunks
# of about this many bytes of weights find the data still in cache, where passes over a whole
# model's tensors would stream every pass from memory.
_SGD_CHUNK_BYTES = 4 << 20


def _sgd_chunks(weights, lrs, wds):
    """((lr, wd), indices) for runs of weights that share (lr, wd), split into cache-sized
    chunks on the CPU (a GPU's multi-tensor kernels take each run whole)."""
    groups = {}
    for k, pair in enumerate(zip(lrs, wds)):
        groups.setdefault(pair, []).append(k)
    if weights and weights[0].is_cuda:
        yield from groups.items()
        return
    for pair, ks in groups.items():
        chunk, size = [], 0
        for k in ks:
            w = weights[k]
            chunk.append(k)
            size += w.nbytes
            if size >= _SGD_CHUNK_BYTES:
                yield pair, chunk
                chunk, size = [], 0
        if chunk:
            yield pair, chunk


_MULTI_TAIL = {'rescale_grad': _p(1.0), 'clip_gradient': _p(-1.0), 'num_weights': (Int, 1)}
_MULTI_SGD = dict({'lrs': (F32Tuple, REQUIRED), 'wds': (F32Tuple, REQUIRED)}, **_MULTI_TAIL)
_MULTI_SGD_MOM = dict({'lrs': (F32Tuple, REQUIRED), 'wds': (F32Tuple, REQUIRED),
                       'momentum': _p(0.0)}, **_MULTI_TAIL)


def _cast_like(values, likes):
    return tuple(v.to(w.dtype) for v, w in zip(values, likes))


@register('multi_sgd_update', inputs=('*data',), params=_MULTI_SGD,
          num_outputs=lambda p: p['num_weights'], input_rule=_multi_names('weight', 'grad'))
def multi_sgd_update(*data, lrs, wds, rescale_grad, clip_gradient, num_weights):
    """Update function for Stochastic Gradient Descent (SGD) optimizer on several weights:
    inputs weight_0, grad_0, weight_1, grad_1, ...; returns the new weights."""
    (ws, gs), _ = _groups('multi_sgd_update', data, 2, num_weights)
    _check_hyper('multi_sgd_update', num_weights, learning_rates=lrs, weight_decays=wds)
    return tuple(_multi_sgd(ws, gs, None, lrs, wds, 0.0, rescale_grad, clip_gradient))


@register('multi_sgd_mom_update', inputs=('*data',), params=_MULTI_SGD_MOM,
          num_outputs=lambda p: p['num_weights'], mutate=_multi_mutate('mom'),
          input_rule=_multi_names('weight', 'grad', 'mom'))
def multi_sgd_mom_update(*data, lrs, wds, momentum, rescale_grad, clip_gradient, num_weights):
    """Momentum update function for SGD on several weights: inputs weight_i, grad_i, mom_i;
    updates the moms in place and returns the new weights."""
    (ws, gs, ms), _ = _groups('multi_sgd_mom_update', data, 3, num_weights)
    _check_hyper('multi_sgd_mom_update', num_weights, learning_rates=lrs, weight_decays=wds)
    return tuple(_multi_sgd(ws, gs, ms, lrs, wds, momentum, rescale_grad, clip_gradient))


@register('multi_mp_sgd_update', inputs=('*data',), params=_MULTI_SGD,
          num_outputs=lambda p: p['num_weights'], mutate=_multi_mutate('weight32'),
          input_rule=_multi_names('weight', 'grad', 'weight32'))
def multi_mp_sgd_update(*data, lrs, wds, rescale_grad, clip_gradient, num_weights):
    """Multi-precision SGD on several weights: inputs weight_i, grad_i, weight32_i (float32
    master copies, updated in place); returns the new weights."""
    (ws, gs, w32), _ = _groups('multi_mp_sgd_update', data, 3, num_weights)
    _check_hyper('multi_mp_sgd_update', num_weights, learning_rates=lrs, weight_decays=wds)
    new = _multi_sgd(w32, [g.float() for g in gs], None, lrs, wds, 0.0, rescale_grad,
                     clip_gradient)
    torch._foreach_copy_(w32, new)
    return _cast_like(new, ws)


@register('multi_mp_sgd_mom_update', inputs=('*data',), params=_MULTI_SGD_MOM,
          num_outputs=lambda p: p['num_weights'], mutate=_multi_mutate('mom', 'weight32'),
          input_rule=_multi_names('weight', 'grad', 'mom', 'weight32'))
def multi_mp_sgd_mom_update(*data, lrs, wds, momentum, rescale_grad, clip_gradient,
                            num_weights):
    """Multi-precision SGD with momentum on several weights: inputs weight_i, grad_i, mom_i,
    weight32_i (float32 states, updated in place); returns the new weights."""
    (ws, gs, ms, w32), _ = _groups('multi_mp_sgd_mom_update', data, 4, num_weights)
    _check_hyper('multi_mp_sgd_mom_update', num_weights, learning_rates=lrs,
                 weight_decays=wds)
    new = _multi_sgd(w32, [g.float() for g in gs], ms, lrs, wds, momentum, rescale_grad,
                     clip_gradient)
    torch._foreach_copy_(w32, new)
    return _cast_like(new, ws)


_PRELOADED = _MULTI_TAIL
_PRELOADED_MOM = dict({'momentum': _p(0.0)}, **_MULTI_TAIL)


def _preloaded(opname, extra, num_weights):
    lrs, wds = extra
    if lrs.numel() != num_weights or wds.numel() != num_weights:
        raise MXNetError('%s: Number of learning rates (%d) and weight decays (%d) must equal '
                         'num_weights (%d)' % (opname, lrs.numel(), wds.numel(), num_weights))
    return lrs.reshape(-1).unbind(), wds.reshape(-1).unbind()


@register('preloaded_multi_sgd_update', inputs=('*data',), params=_PRELOADED,
          num_outputs=lambda p: p['num_weights'],
          input_rule=_multi_names('weight', 'grad', extra=('lrs', 'wds')))
def preloaded_multi_sgd_update(*data, rescale_grad, clip_gradient, num_weights):
    """SGD on several weights with learning rates and weight decays given as arrays (the last
    two inputs, float32, one entry per weight)."""
    (ws, gs), extra = _groups('preloaded_multi_sgd_update', data, 2, num_weights, 2)
    lrs, wds = _preloaded('preloaded_multi_sgd_update', extra, num_weights)
    return tuple(_multi_sgd(ws, gs, None, lrs, wds, 0.0, rescale_grad, clip_gradient))


@register('preloaded_multi_sgd_mom_update', inputs=('*data',), params=_PRELOADED_MOM,
          num_outputs=lambda p: p['num_weights'], mutate=_multi_mutate('mom'),
          input_rule=_multi_names('weight', 'grad', 'mom', extra=('lrs', 'wds')))
def preloaded_multi_sgd_mom_update(*data, momentum, rescale_grad, clip_gradient, num_weights):
    """SGD with momentum on several weights, learning rates and weight decays given as
    arrays."""
    (ws, gs, ms), extra = _groups('preloaded_multi_sgd_mom_update', data, 3, num_weights, 2)
    lrs, wds = _preloaded('preloaded_multi_sgd_mom_update', extra, num_weights)
    return tuple(_multi_sgd(ws, gs, ms, lrs, wds, momentum, rescale_grad, clip_gradient))


@register('preloaded_multi_mp_sgd_update', inputs=('*data',), params=_PRELOADED,
          num_outputs=lambda p: p['num_weights'], mutate=_multi_mutate('weight32'),
          input_rule=_multi_names('weight', 'grad', 'weight32', extra=('lrs', 'wds')))
def preloaded_multi_mp_sgd_update(*data, rescale_grad, clip_gradient, num_weights):
    """Multi-precision SGD on several weights, learning rates and weight decays given as
    arrays."""
    (ws, gs, w32), extra = _groups('preloaded_multi_mp_sgd_update', data, 3, num_weights, 2)
    lrs, wds = _preloaded('preloaded_multi_mp_sgd_update', extra, num_weights)
    new = _multi_sgd(w32, [g.float() for g in gs], None, lrs, wds, 0.0, rescale_grad,
                     clip_gradient)
    torch._foreach_copy_(w32, new)
    return _cast_like(new, ws)


@register('preloaded_multi_mp_sgd_mom_update', inputs=('*data',), params=_PRELOADED_MOM,
          num_outputs=lambda p: p['num_weights'], mutate=_multi_mutate('mom', 'weight32'),
          input_rule=_multi_names('weight', 'grad', 'mom', 'weight32', extra=('lrs', 'wds')))
def preloaded_multi_mp_sgd_mom_update(*data, momentum, rescale_grad, clip_gradient,
                                      num_weights):
    """Multi-precision SGD with momentum on several weights, learning rates and weight decays
    given as arrays."""
    (ws, gs, ms, w32), extra = _groups('preloaded_multi_mp_sgd_mom_update', data, 4,
                                       num_weights, 2)
    lrs, wds = _preloaded('preloaded_multi_mp_sgd_mom_update', extra, num_weights)
    new = _multi_sgd(w32, [g.float() for g in gs], ms, lrs, wds, momentum, rescale_grad,
                     clip_gradient)
    torch._foreach_copy_(w32, new)
    return _cast_like(new, ws)


@register('multi_sum_sq', inputs=('*data',), params={'num_arrays': (Int, REQUIRED)},
          input_rule=_multi_names('array', count='num_arrays'), differentiable=False)
def multi_sum_sq(*data, num_arrays):
    """Compute the sums of squares of multiple arrays (a float32 array of num_arrays
    entries)."""
    if len(data) != num_arrays:
        raise MXNetError('multi_sum_sq: expected num_arrays=%d inputs, got %d'
                         % (num_arrays, len(data)))
    return torch.stack([torch.sum(torch.square(t.detach().float())) for t in data])


@register('multi_lars', inputs=('lrs', 'weights_sum_sq', 'grads_sum_sq', 'wds'),
          params={'eta': _p(REQUIRED), 'eps': _p(REQUIRED), 'rescale_grad': _p(1.0)},
          differentiable=False)
def multi_lars(lrs, weights_sum_sq, grads_sum_sq, wds, *, eta, eps, rescale_grad):
    """Compute the LARS coefficients of multiple weights and grads from their sums of squares:
    lr * eta * |w| / (|g| * rescale_grad + wd * |w| + eps), or lr where a norm is 0."""
    if lrs.dtype is not torch.float32:
        raise MXNetError('multi_lars: MultiLARS only support float, got %s'
                         % dtype_name(lrs.dtype))
    w_norm = torch.sqrt(weights_sum_sq)
    scaled = lrs * eta * w_norm / (torch.sqrt(grads_sum_sq) * rescale_grad + wds * w_norm + eps)
    return torch.where((w_norm > 0) & (grads_sum_sq > 0), scaled, lrs)


@register('reset_arrays', inputs=('*data',), params={'num_arrays': (Int, REQUIRED)},
          num_outputs=0, input_rule=_multi_names('array', count='num_arrays'),
          mutate=_multi_mutate('array', count='num_arrays'), differentiable=False)
def reset_arrays(*data, num_arrays):
    """Set to zero multiple arrays (in place; no outputs)."""
    if len(data) != num_arrays:
        raise MXNetError('reset_arrays: expected num_arrays=%d inputs, got %d'
                         % (num_arrays, len(data)))
    torch._foreach_zero_([t.detach() for t in data])
    return ()


# ------------------------------------------------------------------------------ AdamW
_ADAMW = {'lr': _p(REQUIRED), 'beta1': _p(0.9), 'beta2': _p(0.999), 'epsilon': _p(1e-8),
          'wd': _p(0.0), 'eta': _p(REQUIRED), 'clip_gradient': _p(-1.0)}


def _scale_of(rescale_grad):
    """The rescale_grad input as a float; None when the update must be skipped (NaN, Inf, 0).
    This reads the value back from the device, as MXNet does."""
    scale = float(rescale_grad.detach().reshape(-1)[0])
    return scale if math.isfinite(scale) and scale != 0 else None


@register('_adamw_update', monitor_prefix='input',
          inputs=('weight', 'grad', 'mean', 'var', 'rescale_grad'),
          params=_ADAMW, mutate=('mean', 'var'))
def adamw_update(weight, grad, mean, var, rescale_grad, *, lr, beta1, beta2, epsilon, wd, eta,
                 clip_gradient):
    """Update function for AdamW optimizer: weight -= eta * (lr * mean / (sqrt(var) + epsilon)
    + wd * weight). The update is skipped when rescale_grad is NaN, Inf or 0."""
    weight, grad = weight.detach(), grad.detach()
    _check('_adamw_update', ('weight', 'grad', 'mean', 'var'), (weight, grad, mean, var))
    scale = _scale_of(rescale_grad)
    if scale is None:
        return weight
    g = _scaled(grad, scale, clip_gradient)
    mean.mul_(beta1).add_(g, alpha=1 - beta1)
    var.mul_(beta2).addcmul_(g, g, value=1 - beta2)
    step = torch.div(mean, torch.sqrt(var).add_(epsilon)).mul_(lr).add_(weight, alpha=wd)
    return torch.add(weight, step, alpha=-eta)


@register('_mp_adamw_update', monitor_prefix='input',
          inputs=('weight', 'grad', 'mean', 'var', 'weight32',
                                      'rescale_grad'),
          params=_ADAMW, mutate=('mean', 'var', 'weight32'))
def mp_adamw_update(weight, grad, mean, var, weight32, rescale_grad, *, lr, beta1, beta2,
                    epsilon, wd, eta, clip_gradient):
    """Multi-precision AdamW update (float32 mean, var and master weight32)."""
    weight, grad = weight.detach(), grad.detach()
    _check('_mp_adamw_update', ('weight', 'grad', 'mean', 'var', 'weight32'),
           (weight, grad, mean, var, weight32), mp=('mean', 'var', 'weight32'))
    scale = _scale_of(rescale_grad)
    if scale is None:
        return weight
    g = _scaled(grad.float(), scale, clip_gradient)
    mean.mul_(beta1).add_(g, alpha=1 - beta1)
    var.mul_(beta2).addcmul_(g, g, value=1 - beta2)
    step = torch.div(mean, torch.sqrt(var).add_(epsilon)).mul_(lr).add_(weight32, alpha=wd)
    weight32.sub_(step, alpha=eta)
    return weight32.to(weight.dtype, copy=True)


_MULTI_ADAMW = {'lrs': (F32Tuple, REQUIRED), 'beta1': _p(0.9), 'beta2': _p(0.999),
                'epsilon': _p(1e-8), 'wds': (F32Tuple, REQUIRED), 'etas': (F32Tuple, REQUIRED),
                'clip_gradient': _p(-1.0), 'num_weights': (Int, 1)}


def _multi_adamw(opname, data, stride, num_weights, lrs, beta1, beta2, epsilon, wds, etas,
                 clip_gradient):
    groups, extra = _groups(opname, data, stride, num_weights, 1)
    _check_hyper(opname, num_weights, learning_rates=lrs, weight_decays=wds, etas=etas)
    ws, gs, means, vars_ = groups[:4]
    mp = stride == 5
    scale = _scale_of(extra[0])
    if scale is None:
        return tuple(ws)
    masters = groups[4] if mp else ws
    gs = [g.float() for g in gs] if mp else gs
    g = torch._foreach_mul(gs, scale)
    if clip_gradient >= 0:
        torch._foreach_clamp_min_(g, -clip_gradient)
        torch._foreach_clamp_max_(g, clip_gradient)
    # MXNet's multi-tensor kernel: mean = beta1 * (mean - g) + g, var likewise with g^2
    torch._foreach_sub_(means, g)
    torch._foreach_mul_(means, beta1)
    torch._foreach_add_(means, g)
    g2 = torch._foreach_mul(g, g)
    torch._foreach_sub_(vars_, g2)
    torch._foreach_mul_(vars_, beta2)
    torch._foreach_add_(vars_, g2)
    den = torch._foreach_sqrt(vars_)
    torch._foreach_add_(den, epsilon)
    step = torch._foreach_div(means, den)
    torch._foreach_mul_(step, list(lrs))
    torch._foreach_add_(step, torch._foreach_mul(masters, list(wds)))
    torch._foreach_mul_(step, [-e for e in etas])
    new = torch._foreach_add(masters, step)
    if mp:
        torch._foreach_copy_(masters, new)
        return _cast_like(new, ws)
    return tuple(new)


@register('_multi_adamw_update', inputs=('*data',), params=_MULTI_ADAMW,
          num_outputs=lambda p: p['num_weights'], mutate=_multi_mutate('mean', 'var'),
          input_rule=_multi_names('weight', 'grad', 'mean', 'var', extra=('rescale_grad',)))
def multi_adamw_update(*data, lrs, beta1, beta2, epsilon, wds, etas, clip_gradient,
                       num_weights):
    """AdamW update of several weights: inputs weight_i, grad_i, mean_i, var_i, then
    rescale_grad (skipped when NaN, Inf or 0); returns the new weights."""
    return _multi_adamw('_multi_adamw_update', data, 4, num_weights, lrs, beta1, beta2,
                        epsilon, wds, etas, clip_gradient)


@register('_multi_mp_adamw_update', inputs=('*data',), params=_MULTI_ADAMW,
          num_outputs=lambda p: p['num_weights'], mutate=_multi_mutate('mean', 'var', 'weight32'),
          input_rule=_multi_names('weight', 'grad', 'mean', 'var', 'weight32',
                                  extra=('rescale_grad',)))
def multi_mp_adamw_update(*data, lrs, beta1, beta2, epsilon, wds, etas, clip_gradient,
                          num_weights):
    """Multi-precision AdamW update of several weights: inputs weight_i, grad_i, mean_i, var_i,
    weight32_i, then rescale_grad; returns the new weights."""
    return _multi_adamw('_multi_mp_adamw_update', data, 5, num_weights, lrs, beta1, beta2,
                        epsilon, wds, etas, clip_gradient)


# ------------------------------------------------------------------------------ multi LAMB
_MULTI_LAMB = {'learning_rates': (F32Tuple, REQUIRED), 'beta1': _p(0.9), 'beta2': _p(0.999),
               'epsilon': _p(1e-6), 'wds': (F32Tuple, REQUIRED), 'rescale_grad': _p(1.0),
               'lower_bound': _p(-1.0), 'upper_bound': _p(-1.0), 'clip_gradient': _p(-1.0),
               'bias_correction': (Bool, True), 'step_count': (Shape, REQUIRED),
               'num_tensors': (Int, 1)}


def _multi_lamb(opname, data, stride, num_tensors, learning_rates, beta1, beta2, epsilon, wds,
                rescale_grad, lower_bound, upper_bound, clip_gradient, bias_correction,
                step_count):
    groups, _ = _groups(opname, data, stride, num_tensors)
    _check_hyper(opname, num_tensors, learning_rates=learning_rates, weight_decays=wds,
                 step_counts=step_count)
    ws, gs, means, vars_ = groups[:4]
    mp = stride == 5
    masters = groups[4] if mp else ws
    # the trust ratio uses the norms of the (possibly float16) weights, as MXNet does
    r1 = [torch.sqrt(torch.sum(torch.square(w.float()))) for w in ws]
    new = []
    for i in range(num_tensors):
        g = _scaled(gs[i].float() if mp else gs[i], rescale_grad, clip_gradient)
        d = _lamb_direction(g, means[i], vars_[i], masters[i], beta1, beta2, epsilon,
                            step_count[i], bias_correction, wds[i])
        r2 = torch.sqrt(torch.sum(torch.square(d.float())))
        lr_t = _trust_lr(learning_rates[i], r1[i], r2, lower_bound, upper_bound)
        new.append(masters[i] - lr_t.to(d.dtype) * d)
    if mp:
        torch._foreach_copy_(masters, new)
        return _cast_like(new, ws)
    return tuple(new)


@register('_multi_lamb_update', inputs=('*data',), params=_MULTI_LAMB,
          num_outputs=lambda p: p['num_tensors'],
          mutate=_multi_mutate('mean', 'var', count='num_tensors'),
          input_rule=_multi_names('weight', 'grad', 'mean', 'var', count='num_tensors'))
def multi_lamb_update(*data, learning_rates, beta1, beta2, epsilon, wds, rescale_grad,
                      lower_bound, upper_bound, clip_gradient, bias_correction, step_count,
                      num_tensors):
    """LAMB update of several weights: inputs weight_i, grad_i, mean_i, var_i; returns the new
    weights."""
    return _multi_lamb('_multi_lamb_update', data, 4, num_tensors, learning_rates, beta1,
                       beta2, epsilon, wds, rescale_grad, lower_bound, upper_bound,
                       clip_gradient, bias_correction, step_count)


@register('_multi_mp_lamb_update', inputs=('*data',), params=_MULTI_LAMB,
          num_outputs=lambda p: p['num_tensors'],
          mutate=_multi_mutate('mean', 'var', 'weight32', count='num_tensors'),
          input_rule=_multi_names('weight', 'grad', 'mean', 'var', 'weight32',
                                  count='num_tensors'))
def multi_mp_lamb_update(*data, learning_rates, beta1, beta2, epsilon, wds, rescale_grad,
                         lower_bound, upper_bound, clip_gradient, bias_correction, step_count,
                         num_tensors):
    """Multi-precision LAMB update of several weights: inputs weight_i, grad_i, mean_i, var_i,
    weight32_i (float32 states); returns the new weights."""
    return _multi_lamb('_multi_mp_lamb_update', data, 5, num_tensors, learning_rates, beta1,
                       beta2, epsilon, wds, rescale_grad, lower_bound, upper_bound,
                       clip_gradient, bias_correction, step_count)


# ------------------------------------------------------------------------------ AdaGrad
@register('_contrib_group_adagrad_update', monitor_prefix='input',
          inputs=('weight', 'grad', 'history'),
          mutate=('history',),
          params={'lr': _p(REQUIRED), 'rescale_grad': _p(1.0), 'clip_gradient': _p(-1.0),
                  'epsilon': _p(1e-5)})
def group_adagrad_update(weight, grad, history, *, lr, rescale_grad, clip_gradient, epsilon):
    """Update function for Group AdaGrad optimizer: one accumulated squared-gradient per row,
    history += mean(square(grad), axis=1); weight -= lr * grad / sqrt(history + epsilon).
    (MXNet runs it only for row_sparse gradients; here a dense gradient is every row.)"""
    weight, grad = weight.detach(), grad.detach()
    if weight.dim() < 1 or grad.shape != weight.shape or history.numel() != weight.shape[0]:
        raise MXNetError('_contrib_group_adagrad_update: weight %s, grad %s and history %s '
                         'must have the same shape, history one entry per row'
                         % (tuple(weight.shape), tuple(grad.shape), tuple(history.shape)))
    rows = weight.shape[0]
    g = _scaled(grad, rescale_grad, clip_gradient).reshape(rows, -1)
    h = history.view(rows)
    h.add_(torch.mean(g * g, dim=1))
    div = g.mul(lr).div_(torch.sqrt(h + epsilon).unsqueeze(1))
    return weight - div.reshape(weight.shape)


@register('_sparse_adagrad_update', monitor_prefix='input',
          inputs=('weight', 'grad', 'history'), mutate=('history',),
          params={'lr': _p(REQUIRED), 'epsilon': _p(1e-7), 'wd': _p(0.0),
                  'rescale_grad': _p(1.0), 'clip_gradient': _p(-1.0)})
def sparse_adagrad_update(weight, grad, history, *, lr, epsilon, wd, rescale_grad,
                          clip_gradient):
    """Update function for AdaGrad optimizer with row_sparse gradients. MXNet has no kernel
    for dense inputs, and mxcompat has no sparse storage: every call fails, as MXNet's does for
    dense arrays."""
    raise MXNetError('_sparse_adagrad_update (mx.nd.sparse.adagrad_update): operator not '
                     'implemented for dense weight, grad and history (MXNet runs it only for a '
                     'row_sparse grad, which mxcompat does not support); update dense arrays '
                     'with mx.optimizer.AdaGrad instead')
