"""Optimizers with per-coordinate step sizes: Adam, AdaGrad, RMSProp, AdaDelta, Ftrl, FTML,
Adamax, Nadam and LAMB.

Adam, RMSProp, Ftrl, FTML and LAMB call MXNet's update operators; AdaGrad (dense), AdaDelta,
Adamax and Nadam are written by MXNet in array arithmetic and are here in torch, step by step
in MXNet's order so that float32 rounding matches.
"""
import math
import os

import torch

from ..ndarray import (zeros, adam_update, rmsprop_update, rmspropalex_update, ftrl_update,
                       ftml_update, lamb_update_phase1, lamb_update_phase2,
                       mp_lamb_update_phase1, mp_lamb_update_phase2)
from ..ndarray.contrib import multi_lamb_update, multi_mp_lamb_update
from .optimizer import Optimizer, register, _tensor, _check_arrays, _same_dtype, _uses_mp

__all__ = ['Adam', 'AdaGrad', 'RMSProp', 'AdaDelta', 'Ftrl', 'FTML', 'Adamax', 'Nadam', 'LAMB']


def _zeros_like(weight, same_dtype=True):
    """Zeros shaped like ``weight``: of its dtype, or float32 where MXNet omits the dtype."""
    return zeros(weight.shape, weight.context, dtype=weight.dtype if same_dtype else None)


def _clipped_scaled(opt, grad):
    """rescale_grad * grad clipped to [-clip_gradient, clip_gradient] (a new tensor)."""
    g = _tensor(grad) * opt.rescale_grad
    if opt.clip_gradient is not None:
        g.clamp_(-opt.clip_gradient, opt.clip_gradient)
    return g


@register
class Adam(Optimizer):
    """The Adam optimizer.

    This class implements the optimizer described in *Adam: A Method for
    Stochastic Optimization*, available at http://arxiv.org/abs/1412.6980.

    Updates at step t are applied by::

        rescaled_grad = clip(grad * rescale_grad + wd * weight, clip_gradient)
        m = beta1 * m + (1 - beta1) * rescaled_grad
        v = beta2 * v + (1 - beta2) * (rescaled_grad**2)
        lr = learning_rate * sqrt(1 - beta2**t) / (1 - beta1**t)
        w = w - lr * m / (sqrt(v) + epsilon)

    For details of the update algorithm, see :class:`~mxnet.ndarray.adam_update`.

    Parameters
    ----------
    beta1 : float, optional
        Exponential decay rate for the first moment estimates.
    beta2 : float, optional
        Exponential decay rate for the second moment estimates.
    epsilon : float, optional
        Small value to avoid division by 0.
    lazy_update : bool, optional
       Default is True. If True, lazy updates are applied \
       if the storage types of weight and grad are both ``row_sparse``.
    """
    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 lazy_update=True, **kwargs):
        super(Adam, self).__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.lazy_update = lazy_update

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight))  # mean, variance

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        t = self._index_update_count[index]
        coef1 = 1. - self.beta1 ** t
        coef2 = 1. - self.beta2 ** t
        lr *= math.sqrt(coef2) / coef1
        kwargs = {'beta1': self.beta1, 'beta2': self.beta2, 'epsilon': self.epsilon,
                  'rescale_grad': self.rescale_grad}
        if self.clip_gradient:
            kwargs['clip_gradient'] = self.clip_gradient
        mean, var = state
        adam_update(weight, grad, mean, var, out=weight, lazy_update=self.lazy_update,
                    lr=lr, wd=wd, **kwargs)


@register
class AdaGrad(Optimizer):
    """AdaGrad optimizer.

    This class implements the AdaGrad optimizer described in *Adaptive Subgradient
    Methods for Online Learning and Stochastic Optimization*, and available at
    http://www.jmlr.org/papers/volume12/duchi11a/duchi11a.pdf.

    This optimizer updates each weight by::

        grad = clip(grad * rescale_grad, clip_gradient)
        history += square(grad)
        div = grad / sqrt(history + float_stable_eps)
        weight += (div + weight * wd) * -lr

    Parameters
    ----------
    eps: float, optional
        Initial value of the history accumulator. Avoids division by 0.
    """
    def __init__(self, eps=1e-7, **kwargs):
        super(AdaGrad, self).__init__(**kwargs)
        self.float_stable_eps = eps

    def create_state(self, index, weight):
        return _zeros_like(weight, same_dtype=False)  # history

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        _same_dtype('AdaGrad', weight, (state,))
        g = _clipped_scaled(self, grad)
        history = _tensor(state)
        history.add_(g * g)
        div = g / (history + self.float_stable_eps).sqrt_()
        w = _tensor(weight)
        w.add_((div + w * wd) * -lr)


@register
class RMSProp(Optimizer):
    """The RMSProp optimizer.

    Two versions of RMSProp are implemented:

    If ``centered=False``, we follow
    http://www.cs.toronto.edu/~tijmen/csc321/slides/lecture_slides_lec6.pdf by
    Tieleman & Hinton, 2012.
    For details of the update algorithm see :class:`~mxnet.ndarray.rmsprop_update`.

    If ``centered=True``, we follow http://arxiv.org/pdf/1308.0850v5.pdf (38)-(45)
    by Alex Graves, 2013.
    For details of the update algorithm see :class:`~mxnet.ndarray.rmspropalex_update`.

    Parameters
    ----------
    gamma1: float, optional
        A decay factor of moving average over past squared gradient.
    gamma2: float, optional
        A "momentum" factor. Only used if `centered`=``True``.
    epsilon : float, optional
        Small value to avoid division by 0.
    centered : bool, optional
        Flag to control which version of RMSProp to use.::

            True: will use Graves's version of `RMSProp`,
            False: will use Tieleman & Hinton's version of `RMSProp`.

    clip_weights : float, optional
        Clips weights into range ``[-clip_weights, clip_weights]``.
    """
    def __init__(self, learning_rate=0.001, gamma1=0.9, gamma2=0.9,
                 epsilon=1e-8, centered=False, clip_weights=None, **kwargs):
        super(RMSProp, self).__init__(learning_rate=learning_rate, **kwargs)
        self.gamma1 = gamma1
        self.gamma2 = gamma2
        self.centered = centered
        self.epsilon = epsilon
        self.clip_weights = clip_weights

    def create_state(self, index, weight):
        if self.centered:
            return tuple(_zeros_like(weight, same_dtype=False) for _ in range(3))  # n, g, delta
        return (_zeros_like(weight, same_dtype=False),)  # n

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        kwargs = {'gamma1': self.gamma1, 'epsilon': self.epsilon,
                  'rescale_grad': self.rescale_grad}
        if self.centered:
            kwargs['gamma2'] = self.gamma2
        if self.clip_gradient:
            kwargs['clip_gradient'] = self.clip_gradient
        if self.clip_weights:
            kwargs['clip_weights'] = self.clip_weights
        if not self.centered:
            (n,) = state
            rmsprop_update(weight, grad, n, out=weight, lr=lr, wd=wd, **kwargs)
        else:
            n, g, delta = state
            rmspropalex_update(weight, grad, n, g, delta, out=weight, lr=lr, wd=wd, **kwargs)


@register
class AdaDelta(Optimizer):
    """The AdaDelta optimizer.

    This class implements AdaDelta, an optimizer described in  *ADADELTA: An adaptive
    learning rate method*, available at https://arxiv.org/abs/1212.5701.

    This optimizer updates each weight by::

        grad = clip(grad * rescale_grad + wd * weight, clip_gradient)
        acc_grad = rho * acc_grad + (1. - rho) * grad * grad
        delta = sqrt(acc_delta + epsilon) / sqrt(acc_grad + epsilon) * grad
        acc_delta = rho * acc_delta + (1. - rho) * delta * delta
        weight -= (delta + wd * weight)

    Parameters
    ----------
    rho: float
        Decay rate for both squared gradients and delta.
    epsilon : float
        Small value to avoid division by 0.
    """
    def __init__(self, rho=0.90, epsilon=1e-5, **kwargs):
        super(AdaDelta, self).__init__(**kwargs)
        self.rho = rho
        self.epsilon = epsilon

    def create_state(self, index, weight):
        return (_zeros_like(weight, same_dtype=False),  # accumulated g
                _zeros_like(weight, same_dtype=False))  # accumulated delta

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        wd = self._get_wd(index)
        self._update_count(index)
        acc_g, acc_delta = state
        _same_dtype('AdaDelta', weight, state)
        # MXNet rescales the caller's gradient array in place
        g = _tensor(grad)
        g.mul_(self.rescale_grad)
        if self.clip_gradient is not None:
            g = g.clamp(-self.clip_gradient, self.clip_gradient)
        ag, ad = _tensor(acc_g), _tensor(acc_delta)
        ag.mul_(self.rho).add_((1. - self.rho) * g * g)
        delta = (ad + self.epsilon).sqrt_().div_((ag + self.epsilon).sqrt_()).mul_(g)
        ad.mul_(self.rho).add_((1. - self.rho) * delta * delta)
        w = _tensor(weight)
        w.sub_(delta + wd * w)


@register
class Ftrl(Optimizer):
    """The Ftrl optimizer.

    Referenced from *Ad Click Prediction: a View from the Trenches*, available at
    http://dl.acm.org/citation.cfm?id=2488200.

    The optimizer updates the weight by::

        rescaled_grad = clip(grad * rescale_grad, clip_gradient)
        z += rescaled_grad - (sqrt(n + rescaled_grad**2) - sqrt(n)) * weight / learning_rate
        n += rescaled_grad**2
        w = (sign(z) * lamda1 - z) / ((beta + sqrt(n)) / learning_rate + wd) * (abs(z) > lamda1)

    For details of the update algorithm, see :class:`~mxnet.ndarray.ftrl_update`.

    Parameters
    ----------
    lamda1 : float, optional
        L1 regularization coefficient.
    learning_rate : float, optional
        The initial learning rate.
    beta : float, optional
        Per-coordinate learning rate correlation parameter.
    """
    def __init__(self, lamda1=0.01, learning_rate=0.1, beta=1, **kwargs):
        super(Ftrl, self).__init__(**kwargs)
        self.lamda1 = lamda1
        self.beta = beta
        self.lr = learning_rate

    def create_state(self, index, weight):
        return (_zeros_like(weight, same_dtype=False),  # z
                _zeros_like(weight, same_dtype=False))  # n

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        self._update_count(index)
        wd = self._get_wd(index)
        lr = self._get_lr(index)
        kwargs = {'lamda1': self.lamda1, 'beta': self.beta, 'rescale_grad': self.rescale_grad}
        if self.clip_gradient:
            kwargs['clip_gradient'] = self.clip_gradient
        z, n = state
        ftrl_update(weight, grad, z, n, out=weight, lr=lr, wd=wd, **kwargs)


@register
class FTML(Optimizer):
    """The FTML optimizer.

    This class implements the optimizer described in
    *FTML - Follow the Moving Leader in Deep Learning*,
    available at http://proceedings.mlr.press/v70/zheng17a/zheng17a.pdf.

    Denote time step by t. The optimizer updates the weight by::

        rescaled_grad = clip(grad * rescale_grad + wd * weight, clip_gradient)
        v = beta2 * v + (1 - beta2) * square(rescaled_grad)
        d_t = (1 - power(beta1, t)) / lr * square_root(v / (1 - power(beta2, t))) + epsilon)
        z = beta1 * z + (1 - beta1) * rescaled_grad - (d_t - beta1 * d_(t-1)) * weight
        weight = - z / d_t

    For details of the update algorithm, see :class:`~mxnet.ndarray.ftml_update`.

    Parameters
    ----------
    beta1 : float, optional
        0 < beta1 < 1. Generally close to 0.5.
    beta2 : float, optional
        0 < beta2 < 1. Generally close to 1.
    epsilon : float, optional
        Small value to avoid division by 0.
    """
    def __init__(self, beta1=0.6, beta2=0.999, epsilon=1e-8, **kwargs):
        super(FTML, self).__init__(**kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight), _zeros_like(weight))  # d, v, z

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        t = self._index_update_count[index]
        kwargs = {'beta1': self.beta1, 'beta2': self.beta2, 'epsilon': self.epsilon,
                  'rescale_grad': self.rescale_grad, 't': t}
        if self.clip_gradient:
            kwargs['clip_grad'] = self.clip_gradient
        prev_d, prev_v, prev_z = state
        ftml_update(weight, grad, prev_d, prev_v, prev_z, out=weight, lr=lr, wd=wd, **kwargs)


def _decayed_grad(opt, weight, grad, wd):
    """grad * rescale_grad + wd * weight, clipped (Adamax and Nadam)."""
    g = _tensor(grad) * opt.rescale_grad + wd * _tensor(weight)
    if opt.clip_gradient is not None:
        g.clamp_(-opt.clip_gradient, opt.clip_gradient)
    return g


@register
class Adamax(Optimizer):
    """The AdaMax optimizer.

    It is a variant of Adam based on the infinity norm
    available at http://arxiv.org/abs/1412.6980 Section 7.

    The optimizer updates the weight by::

        grad = clip(grad * rescale_grad + wd * weight, clip_gradient)
        m = beta1 * m_t + (1 - beta1) * grad
        u = maximum(beta2 * u, abs(grad))
        weight -= lr / (1 - beta1**t) * m / u

    Parameters
    ----------
    beta1 : float, optional
        Exponential decay rate for the first moment estimates.
    beta2 : float, optional
        Exponential decay rate for the second moment estimates.
    """
    def __init__(self, learning_rate=0.002, beta1=0.9, beta2=0.999, **kwargs):
        super(Adamax, self).__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight))  # mean, variance

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        t = self._index_update_count[index]
        lr /= (1. - self.beta1 ** t)
        g = _decayed_grad(self, weight, grad, wd)
        m, u = _tensor(state[0]), _tensor(state[1])
        m.mul_(self.beta1).add_((1. - self.beta1) * g)
        torch.maximum(u * self.beta2, g.abs(), out=u)
        _tensor(weight).sub_(lr * m / u)


@register
class Nadam(Optimizer):
    """The Nesterov Adam optimizer.

    Much like Adam is essentially RMSprop with momentum,
    Nadam is Adam RMSprop with Nesterov momentum available
    at http://cs229.stanford.edu/proj2015/054_report.pdf.

    Parameters
    ----------
    beta1 : float, optional
        Exponential decay rate for the first moment estimates.
    beta2 : float, optional
        Exponential decay rate for the second moment estimates.
    epsilon : float, optional
        Small value to avoid division by 0.
    schedule_decay : float, optional
        Exponential decay rate for the momentum schedule
    """
    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 schedule_decay=0.004, **kwargs):
        super(Nadam, self).__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.schedule_decay = schedule_decay
        # one schedule for the whole optimizer (not per weight), as in MXNet
        self.m_schedule = 1.

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight))  # mean, variance

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        t = self._index_update_count[index]
        g = _decayed_grad(self, weight, grad, wd)
        momentum_t = self.beta1 * (1. - 0.5 * (pow(0.96, t * self.schedule_decay)))
        momentum_t_1 = self.beta1 * (1. - 0.5 * (pow(0.96, (t + 1) * self.schedule_decay)))
        self.m_schedule = self.m_schedule * momentum_t
        m_schedule_next = self.m_schedule * momentum_t_1
        m, v = _tensor(state[0]), _tensor(state[1])
        m.mul_(self.beta1).add_((1. - self.beta1) * g)
        v.mul_(self.beta2).add_((1. - self.beta2) * g * g)
        grad_prime = g / (1. - self.m_schedule)
        m_t_prime = m / (1. - m_schedule_next)
        v_t_prime = v / (1. - pow(self.beta2, t))
        m_t_bar = (1. - momentum_t) * grad_prime + momentum_t_1 * m_t_prime
        _tensor(weight).sub_(lr * m_t_bar / (v_t_prime.sqrt_() + self.epsilon))


@register
class LAMB(Optimizer):
    """LAMB Optimizer.

    Layer-wise adaptive moments (https://arxiv.org/abs/1904.00962): an Adam step whose size
    is scaled per weight by ``||weight|| / ||adam step||``, see
    :class:`~mxnet.ndarray.lamb_update_phase1` and :class:`~mxnet.ndarray.lamb_update_phase2`.
    Lists of weights are updated with ``multi_lamb_update``, up to
    ``MXNET_OPTIMIZER_AGGREGATION_SIZE`` (default 45) per call.
    """
    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-6,
                 lower_bound=None, upper_bound=None, bias_correction=True, **kwargs):
        super(LAMB, self).__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound
        self.bias_correction = bias_correction
        self.aggregate_num = max(1, min(45, int(os.getenv('MXNET_OPTIMIZER_AGGREGATION_SIZE',
                                                          "45"))))

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight))  # mean, variance

    def _bounds(self, kwargs):
        if self.lower_bound:
            kwargs['lower_bound'] = self.lower_bound
        if self.upper_bound:
            kwargs['upper_bound'] = self.upper_bound
        return kwargs

    def _update_one(self, index, weight, grad, state, multi_precision, kwargs):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        kwargs['t'] = self._index_update_count[index]
        if self.clip_gradient:
            kwargs['clip_gradient'] = self.clip_gradient
        if multi_precision:
            weight32 = state[0]
            mean, var = state[1]
            g = mp_lamb_update_phase1(weight, grad, mean, var, weight32, wd=wd, **kwargs)
            mp_lamb_update_phase2(weight, g, weight32.norm(), g.norm(), weight32, lr=lr,
                                  out=weight, **self._bounds({}))
        else:
            mean, var = state
            g = lamb_update_phase1(weight, grad, mean, var, wd=wd, **kwargs)
            lamb_update_phase2(weight, g, weight.norm(), g.norm(), lr=lr, out=weight,
                               **self._bounds({}))

    def _update_impl(self, index, weight, grad, state, multi_precision=False):
        kwargs = {'beta1': self.beta1, 'beta2': self.beta2, 'epsilon': self.epsilon,
                  'bias_correction': self.bias_correction, 'rescale_grad': self.rescale_grad}
        if self.aggregate_num <= 1 or not isinstance(index, (tuple, list)):
            if isinstance(index, (tuple, list)):
                assert len(index) == self.aggregate_num
                index, weight, grad, state = index[0], weight[0], grad[0], state[0]
            self._update_one(index, weight, grad, state, multi_precision, kwargs)
            return
        if self.clip_gradient:
            kwargs['clip_gradient'] = self.clip_gradient
        self._bounds(kwargs)
        step_count, lrs, wds = [], [], []
        for i, w_i, g_i in zip(index, weight, grad):
            _check_arrays(w_i, g_i)
            self._update_count(i)
            step_count.append(self._index_update_count[i])
            lrs.append(self._get_lr(i))
            wds.append(self._get_wd(i))
        for s in range(0, len(weight), self.aggregate_num):
            e = min(s + self.aggregate_num, len(weight))
            common = dict(out=weight[s:e], step_count=step_count[s:e], lrs=lrs[s:e],
                          wds=wds[s:e], **kwargs)
            if not multi_precision:
                mean = [st[0] for st in state[s:e]]
                var = [st[1] for st in state[s:e]]
                multi_lamb_update(weight[s:e], grad[s:e], mean, var, **common)
            else:
                mean = [st[1][0] for st in state[s:e]]
                var = [st[1][1] for st in state[s:e]]
                masters = [st[0] for st in state[s:e]]
                multi_mp_lamb_update(weight[s:e], grad[s:e], mean, var, masters, **common)

    def update(self, index, weight, grad, state):
        self._update_impl(index, weight, grad, state, multi_precision=False)

    def update_multi_precision(self, index, weight, grad, state):
        self._update_impl(index, weight, grad, state, multi_precision=_uses_mp(self, weight))
