"""SGD-family optimizers: SGD (and ccSGD), NAG, Signum, LARS, LBSGD, DCASGD and SGLD.

SGD, NAG, Signum, LARS and LBSGD call MXNet's update operators (``sgd_update``,
``multi_sgd_mom_update``, ``nag_mom_update``, ...), exactly where MXNet's Python optimizer
calls them; DCASGD and SGLD are written by MXNet in array arithmetic and are here in torch.
SGD's dense float32/float64 updates skip the operator layer: the same arithmetic runs in place
on torch's multi-tensor kernels (``optimizer_ops.multi_sgd_inplace``).
"""
import logging
import math
import os
import warnings

import numpy
import torch

from ..ndarray import (NDArray, array, zeros, norm, multiply, sgd_update, sgd_mom_update,
                       mp_sgd_update, mp_sgd_mom_update, nag_mom_update, mp_nag_mom_update,
                       signsgd_update, signum_update, multi_sgd_update, multi_sgd_mom_update,
                       multi_mp_sgd_update, multi_mp_sgd_mom_update, multi_sum_sq, multi_lars,
                       preloaded_multi_sgd_update, preloaded_multi_sgd_mom_update,
                       preloaded_multi_mp_sgd_update, preloaded_multi_mp_sgd_mom_update)
from ..ndarray.random import normal
from ..ops.optimizer_ops import multi_sgd_inplace
from .optimizer import (Optimizer, register, _flatten_list, _tensor, _check_arrays, _mp_state,
                        _uses_mp)

__all__ = ['SGD', 'ccSGD', 'NAG', 'Signum', 'LARS', 'LBSGD', 'DCASGD', 'SGLD']


def _aggregation_size(default):
    return int(os.getenv('MXNET_OPTIMIZER_AGGREGATION_SIZE', default))


def _as_lists(indices, weights, grads, states):
    if isinstance(indices, (tuple, list)):
        return indices, weights, grads, states
    return [indices], [weights], [grads], [states]


def _sgd_kwargs(opt, momentum):
    kwargs = {'rescale_grad': opt.rescale_grad}
    if opt.momentum > 0:
        kwargs['momentum'] = momentum
    if opt.clip_gradient:
        kwargs['clip_gradient'] = opt.clip_gradient
    return kwargs


_INPLACE_DTYPES = (torch.float32, torch.float64)


def _inplace_tensors(weights, grads, states):
    """(weight, gradient, momentum or None) tensor lists where SGD may update ``weights`` in
    place with the multi-tensor kernel: dense float32/float64 NDArrays with gradients (and
    momentum states) of their own dtype and shape, no gradient being its weight; else None,
    and the MXNet operators, which raise MXNet's errors, do the update."""
    ws, gs = [], []
    for w, g in zip(weights, grads):
        if type(w) is not NDArray or type(g) is not NDArray:
            return None
        wt, gt = w._t, g._t
        if gt is not wt.grad:  # torch checked the shape and dtype of the weight's own .grad
            if gt.dtype is not wt.dtype or gt.shape != wt.shape or gt is wt:
                return None
        if wt.dtype not in _INPLACE_DTYPES:
            return None
        ws.append(wt)
        gs.append(gt)
    if states is None:
        return ws, gs, None
    ms = []
    for wt, st in zip(ws, states):
        if type(st) is not NDArray or st._t.dtype is not wt.dtype or st._t.shape != wt.shape:
            return None
        ms.append(st._t)
    return ws, gs, ms


def _sgd_one(weight, grad, state, lr, wd, multi_precision, kwargs, lazy_update=None):
    """One SGD step of one weight with the (mp_)sgd(_mom)_update operators."""
    if lazy_update is not None:
        kwargs = dict(kwargs, lazy_update=lazy_update)
    if not multi_precision:
        if state is not None:
            sgd_mom_update(weight, grad, state, out=weight, lr=lr, wd=wd, **kwargs)
        else:
            sgd_update(weight, grad, out=weight, lr=lr, wd=wd, **kwargs)
    else:
        kwargs.pop('lazy_update', None)
        if state[0] is not None:
            mp_sgd_mom_update(weight, grad, state[0], state[1], out=weight, lr=lr, wd=wd,
                              **kwargs)
        else:
            mp_sgd_update(weight, grad, state[1], out=weight, lr=lr, wd=wd, **kwargs)


class _MomentumSGDBase(Optimizer):
    """State creation shared by SGD, NAG and LARS: a momentum array (or None) and, for
    float16 weights with multi_precision, a float32 master copy after it."""
    _mp_name = 'SGD'  # the optimizer MXNet's float16 warning names

    def create_state_multi_precision(self, index, weight):
        return _mp_state(self, index, weight, self._mp_name)

    def create_state(self, index, weight):
        if self.momentum == 0.0:
            return None
        return zeros(weight.shape, weight.context, dtype=weight.dtype)

    def update(self, index, weight, grad, state):
        self._update_impl(index, weight, grad, state, multi_precision=False)

    def update_multi_precision(self, index, weight, grad, state):
        self._update_impl(index, weight, grad, state, multi_precision=_uses_mp(self, weight))


@register
class SGD(_MomentumSGDBase):
    """The SGD optimizer with momentum and weight decay.

    If the storage types of grad is ``row_sparse`` and ``lazy_update`` is True, \
    **lazy updates** are applied by::

        for row in grad.indices:
            rescaled_grad[row] = lr * (rescale_grad * clip(grad[row], clip_gradient) + wd * weight[row])
            state[row] = momentum[row] * state[row] + rescaled_grad[row]
            weight[row] = weight[row] - state[row]

    Otherwise, **standard updates** are applied by::

        rescaled_grad = lr * (rescale_grad * clip(grad, clip_gradient) + wd * weight)
        state = momentum * state + rescaled_grad
        weight = weight - state

    Dense weights are updated as MXNet's ``multi_sgd_*`` operators update them, up to
    ``MXNET_OPTIMIZER_AGGREGATION_SIZE`` (default 4) of them per call; float32/float64 weights
    in place, all those of one Updater call by one multi-tensor kernel. For details of the
    update algorithm see :class:`~mxnet.ndarray.sgd_update` and
    :class:`~mxnet.ndarray.sgd_mom_update`.

    Parameters
    ----------
    momentum : float, optional
        The momentum value.
    lazy_update : bool, optional
        Default is True. If True, lazy updates are applied \
        if the storage types of weight and grad are both ``row_sparse``.
    multi_precision: bool, optional
        Flag to control the internal precision of the optimizer.
        False: results in using the same precision as the weights (default),
        True: makes internal 32-bit copy of the weights and applies gradients
        in 32-bit precision even if actual weights used in the model have lower precision.
        Turning this on can improve convergence and accuracy when training with float16.
    """
    def __init__(self, momentum=0.0, lazy_update=True, **kwargs):
        super(SGD, self).__init__(**kwargs)
        self.momentum = momentum
        self.lazy_update = lazy_update
        self.aggregate_num = _aggregation_size("4")

    def _update_fused(self, indices, weights, grads, states, chunk):
        """Updates all of ``weights`` (one dtype) with one multi-tensor kernel where the
        Updater would call ``update_multi_precision`` on chunks of ``chunk`` weights; update
        counts, learning rates and weight decays are still taken chunk by chunk, as those
        calls take them. Returns False, having done nothing, where this does not apply
        (a subclass with its own update, multi precision, other dtypes)."""
        cls = type(self)
        if cls.update_multi_precision is not SGD.update_multi_precision or \
                cls._update_impl is not SGD._update_impl:
            return False
        tensors = _inplace_tensors(weights, grads, states if self.momentum > 0 else None)
        if tensors is None:
            return False
        if self.lr_scheduler is None:  # learning rates do not depend on the update count
            self._update_count(indices)
            lrs, wds = self._get_lrs(indices), self._get_wds(indices)
        else:
            lrs, wds = [], []
            for s in range(0, len(indices), chunk):
                part = indices[s:s + chunk]
                self._update_count(part)
                lrs += self._get_lrs(part)
                wds += self._get_wds(part)
        multi_sgd_inplace(*tensors, lrs, wds, self.momentum, self.rescale_grad,
                          self.clip_gradient or -1.0)
        return True

    def _update_impl(self, indices, weights, grads, states, multi_precision=False):
        indices, weights, grads, states = _as_lists(indices, weights, grads, states)
        aggregate = True
        for weight, grad in zip(weights, grads):
            _check_arrays(weight, grad)
            aggregate = aggregate and weight.stype == 'default' and grad.stype == 'default'
        self._update_count(indices)
        lrs = self._get_lrs(indices)
        wds = self._get_wds(indices)
        kwargs = _sgd_kwargs(self, self.momentum)
        if not aggregate:
            for weight, grad, state, lr, wd in zip(weights, grads, states, lrs, wds):
                _sgd_one(weight, grad, state, lr, wd, multi_precision, kwargs,
                         None if multi_precision else self.lazy_update)
            return
        n = len(weights)
        if not multi_precision:
            tensors = _inplace_tensors(weights, grads, states if self.momentum > 0 else None)
            if tensors is not None:
                multi_sgd_inplace(*tensors, lrs, wds, self.momentum, self.rescale_grad,
                                  self.clip_gradient or -1.0)
            elif self.momentum > 0:
                multi_sgd_mom_update(*_flatten_list(zip(weights, grads, states)), out=weights,
                                     num_weights=n, lrs=lrs, wds=wds, **kwargs)
            else:
                multi_sgd_update(*_flatten_list(zip(weights, grads)), out=weights,
                                 num_weights=n, lrs=lrs, wds=wds, **kwargs)
        elif self.momentum > 0:
            multi_mp_sgd_mom_update(*_flatten_list(zip(weights, grads, *zip(*states))),
                                    out=weights, num_weights=n, lrs=lrs, wds=wds, **kwargs)
        else:
            masters = [s[1] for s in states]
            multi_mp_sgd_update(*_flatten_list(zip(weights, grads, masters)), out=weights,
                                num_weights=n, lrs=lrs, wds=wds, **kwargs)


@register  # pylint: disable=invalid-name
class ccSGD(SGD):
    """[DEPRECATED] Same as `SGD`. Left here for backward compatibility."""
    def __init__(self, *args, **kwargs):
        super(ccSGD, self).__init__(*args, **kwargs)


@register
class NAG(_MomentumSGDBase):
    """Nesterov accelerated gradient.

    This optimizer updates each weight by::

        state = momentum * state + grad + wd * weight
        weight = weight - (lr * (grad + momentum * state))

    Parameters
    ----------
    momentum : float, optional
       The momentum value.
    multi_precision: bool, optional
        Flag to control the internal precision of the optimizer.
        False: results in using the same precision as the weights (default),
        True: makes internal 32-bit copy of the weights and applies gradients
        in 32-bit precision even if actual weights used in the model have lower precision.
        Turning this on can improve convergence and accuracy when training with float16.
    """
    _mp_name = 'NAG'

    def __init__(self, momentum=0.0, **kwargs):
        super(NAG, self).__init__(**kwargs)
        self.momentum = momentum

    def _update_impl(self, index, weight, grad, state, multi_precision=False):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        kwargs = _sgd_kwargs(self, self.momentum)
        if not multi_precision:
            if state is not None:
                nag_mom_update(weight, grad, state, out=weight, lr=lr, wd=wd, **kwargs)
            else:
                sgd_update(weight, grad, out=weight, lr=lr, wd=wd, **kwargs)
        elif state[0] is not None:
            mp_nag_mom_update(weight, grad, state[0], state[1], out=weight, lr=lr, wd=wd,
                              **kwargs)
        else:
            mp_sgd_update(weight, grad, state[1], out=weight, lr=lr, wd=wd, **kwargs)


@register
class Signum(Optimizer):
    r"""The Signum optimizer that takes the sign of gradient or momentum.

    The optimizer updates the weight by::

        rescaled_grad = rescale_grad * clip(grad, clip_gradient) + wd * weight
        state = momentum * state + (1-momentum)*rescaled_grad
        weight = (1 - lr * wd_lh) * weight - lr * sign(state)

    References
    ----------
    Jeremy Bernstein, Yu-Xiang Wang, Kamyar Azizzadenesheli & Anima Anandkumar. (2018).
    signSGD: Compressed Optimisation for Non-Convex Problems. In ICML'18.

    See: https://arxiv.org/abs/1802.04434

    For details of the update algorithm see
    :class:`~mxnet.ndarray.signsgd_update` and :class:`~mxnet.ndarray.signum_update`.

    Parameters
    ----------
    momentum : float, optional
       The momentum value.
    wd_lh : float, optional
       The amount of decoupled weight decay regularization, see details in the original paper at:\
       https://arxiv.org/abs/1711.05101
    """
    def __init__(self, learning_rate=0.01, momentum=0.9, wd_lh=0.0, **kwargs):
        super(Signum, self).__init__(learning_rate=learning_rate, **kwargs)
        self.momentum = momentum
        self.wd_lh = wd_lh

    def create_state(self, index, weight):
        if self.momentum == 0.0:
            return None
        return zeros(weight.shape, weight.context, dtype=weight.dtype)

    def _update_impl(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        kwargs = _sgd_kwargs(self, self.momentum)
        if self.wd_lh:
            kwargs['wd_lh'] = self.wd_lh
        if state is not None:
            signum_update(weight, grad, state, out=weight, lr=lr, wd=wd, **kwargs)
        else:
            signsgd_update(weight, grad, out=weight, lr=lr, wd=wd, **kwargs)

    def update(self, index, weight, grad, state):
        self._update_impl(index, weight, grad, state)


def _no_lars(name):
    return name.endswith('gamma') or name.endswith('beta') or name.endswith('bias')


@register
class LARS(_MomentumSGDBase):
    """the LARS optimizer from 'Large Batch Training of Convolution Networks' \
    (https://arxiv.org/abs/1708.03888)

    Behave mostly like SGD with momentum and weight decay but is scaling \
    adaptively the learning for each layer (except bias and batch norm parameters):
    w_norm = L2norm(weights)
    g_norm = L2norm(gradients)
    if w_norm > 0 and g_norm > 0:
        lr_layer = lr * lr_mult * eta * w_norm / (g_norm + weight_decay * w_norm + eps)
    else:
        lr_layer = lr * lr_mult

    Parameters
    ----------
    momentum : float, optional
        The momentum value.
    lazy_update : bool, optional
        Default is True. If True, lazy updates are applied \
        if the storage types of weight and grad are both ``row_sparse``.
    eta : float, optional
        LARS coefficient used to scale the learning rate. Default set to 0.001.
    eps : float, optional
        Optional epsilon in case of very small gradients. Default set to 0.
    momentum_correction : bool, optional
        If True scale momentum w.r.t global learning rate change (with an lr_scheduler) \
        as indicated in 'Accurate, Large Minibatch SGD: Training ImageNet in 1 Hour` \
        (https://arxiv.org/pdf/1706.02677.pdf)
        Default set to True.
    """
    def __init__(self, momentum=0.0, lazy_update=True, eta=0.001, eps=0,
                 momentum_correction=True, **kwargs):
        super(LARS, self).__init__(**kwargs)
        self.momentum = momentum
        self.momentum_correction = momentum_correction
        self.lazy_update = lazy_update
        self.aggregate_num = _aggregation_size("4")
        self.eta = eta
        self.eps = eps
        self.skip = 0
        self.last_lr = None
        self.cur_lr = None

    def _get_lrs(self, indices):
        """The learning rates of ``indices``; also records the previous and current global
        learning rate for momentum correction."""
        if self.cur_lr is not None:
            self.last_lr = self.cur_lr
        lr = self._scheduled_lr()
        if self.cur_lr is None:
            self.last_lr = lr
        self.cur_lr = lr
        return self._apply_mult(lr, indices, self.lr_mult, 'lr_mult')

    def _wd_exempt(self, name):
        return not name.endswith('_weight')

    def _l2norm(self, v, rescale=False):
        """L2 norm of ``v`` in float32 (of ``v * rescale_grad`` with ``rescale``)."""
        v = v.astype('float32')
        if rescale:
            v *= self.rescale_grad
        return norm(v).asnumpy()[0]

    def _get_lars(self, i, weight, g, lr, wd):
        """The learning rate ``lr`` scaled by this layer's trust ratio."""
        name = self.idx2name[i] if i in self.idx2name else str(i)
        if _no_lars(name):
            return lr
        w_norm = self._l2norm(weight)
        g_norm = self._l2norm(g, rescale=True)
        if w_norm > 0.0 and g_norm > 0.0:
            return self.eta * w_norm / (g_norm + wd * w_norm + self.eps) * lr
        return 1.0 * lr

    def _update_impl(self, indices, weights, grads, states, multi_precision=False):
        indices, weights, grads, states = _as_lists(indices, weights, grads, states)
        aggregate = True
        for weight, grad in zip(weights, grads):
            _check_arrays(weight, grad)
            aggregate = aggregate and weight.stype == 'default' and grad.stype == 'default'
        self._update_count(indices)
        lrs = self._get_lrs(indices)
        wds = self._get_wds(indices)
        momentum = self.momentum
        if self.momentum_correction and self.last_lr != 0:
            momentum = self.momentum * (self.cur_lr / self.last_lr)
        kwargs = _sgd_kwargs(self, momentum)
        if not aggregate:
            lrs = [self._get_lars(i, w, g, lr, wd)
                   for i, w, g, lr, wd in zip(indices, weights, grads, lrs, wds)]
            for weight, grad, state, lr, wd in zip(weights, grads, states, lrs, wds):
                _sgd_one(weight, grad, state, lr, wd, multi_precision, kwargs,
                         None if multi_precision else self.lazy_update)
            return
        names = [self.idx2name[i] if i in self.idx2name else str(i) for i in indices]
        lars_idx = [i for i, n in enumerate(names) if not _no_lars(n)]
        order = lars_idx + [i for i, n in enumerate(names) if _no_lars(n)]
        nb_lars = len(lars_idx)
        ctx = weights[0].context
        new_lrs = array([lrs[i] for i in order], ctx=ctx, dtype='float32')
        new_wds = array([wds[i] for i in order], ctx=ctx, dtype='float32')
        new_weights = [weights[i] for i in order]
        new_grads = [grads[i] for i in order]
        new_states = [states[i] for i in order]
        if nb_lars > 0:
            w_sum_sq = multi_sum_sq(*new_weights[:nb_lars], num_arrays=nb_lars)
            g_sum_sq = multi_sum_sq(*new_grads[:nb_lars], num_arrays=nb_lars)
            multi_lars(new_lrs[:nb_lars], w_sum_sq, g_sum_sq, new_wds[:nb_lars],
                       eta=self.eta, eps=self.eps, rescale_grad=self.rescale_grad,
                       out=new_lrs[:nb_lars])
        for s in range(0, len(indices), self.aggregate_num):
            e = s + len(new_weights[s:s + self.aggregate_num])
            w, g, st = new_weights[s:e], new_grads[s:e], new_states[s:e]
            tail = [new_lrs[s:e], new_wds[s:e]]
            if not multi_precision:
                if self.momentum > 0:
                    preloaded_multi_sgd_mom_update(*(_flatten_list(zip(w, g, st)) + tail),
                                                   out=w, num_weights=len(w), **kwargs)
                else:
                    preloaded_multi_sgd_update(*(_flatten_list(zip(w, g)) + tail),
                                               out=w, num_weights=len(w), **kwargs)
            elif self.momentum > 0:
                preloaded_multi_mp_sgd_mom_update(*(_flatten_list(zip(w, g, *zip(*st))) + tail),
                                                  out=w, num_weights=len(w), **kwargs)
            else:
                masters = [x[1] for x in st]
                preloaded_multi_mp_sgd_update(*(_flatten_list(zip(w, g, masters)) + tail),
                                              out=w, num_weights=len(w), **kwargs)


@register
class LBSGD(Optimizer):
    """The Large Batch SGD optimizer with momentum and weight decay.

    The optimizer updates the weight by::

        state = momentum * state + lr * rescale_grad * clip(grad, clip_gradient) + wd * weight
        weight = weight - state

    For details of the update algorithm see :class:`~mxnet.ndarray.sgd_update`
    and :class:`~mxnet.ndarray.sgd_mom_update`.
    In addition to the SGD updates the LBSGD optimizer uses the LARS, Layer-wise
    Adaptive Rate Scaling, algorithm to have a separate learning rate for each
    layer of the network, which leads to better stability over large batch sizes.

    Parameters
    ----------
    momentum : float, optional
        The momentum value.
    multi_precision: bool, optional
        Flag to control the internal precision of the optimizer.
        False: results in using the same precision as the weights (default),
        True: makes internal 32-bit copy of the weights and applies gradients
        in 32-bit precision even if actual weights used in the model have lower precision.
        Turning this on can improve convergence and accuracy when training with float16.
    warmup_strategy: string ('linear', 'power2', 'sqrt'. , 'lars'   default : 'linear')
    warmup_epochs: unsigned, default: 5
    batch_scale:   unsigned, default: 1 (same as batch size * numworkers)
    updates_per_epoch: updates_per_epoch (default: 32, Default might not reflect true number batches per epoch. Used for warmup.)
    begin_epoch: unsigned, default 0, starting epoch.
    """
    def __init__(self, momentum=0.0, multi_precision=False, warmup_strategy='linear',
                 warmup_epochs=5, batch_scale=1, updates_per_epoch=32, begin_epoch=0,
                 num_epochs=60, **kwargs):
        super(LBSGD, self).__init__(**kwargs)
        logging.info('Running Large-Batch SGD Algorithm')
        logging.info('(Batch_scale=%f, warmup_epochs=%d, warmup_strategy=%s, updates_per_epoch=%d)',
                     batch_scale, warmup_epochs, warmup_strategy, updates_per_epoch)
        self.momentum = momentum
        self.multi_precision = multi_precision
        self.warmup_strategy = warmup_strategy
        self.warmup_epochs = warmup_epochs
        self.batch_scale = batch_scale
        self.updates_per_epoch = updates_per_epoch
        self.init_updates = begin_epoch * updates_per_epoch
        self.num_epochs = num_epochs
        self.lbmult = 1
        self.cumgrads = {}
        self.adaptive = False
        self.admult = 1

    def create_state(self, index, weight):
        momentum = None
        if self.multi_precision and weight.dtype == numpy.float16:
            weight_master_copy = array(weight, ctx=weight.context, dtype=numpy.float32)
            if self.momentum != 0.0:
                momentum = zeros(weight.shape, weight.context, dtype=numpy.float32)
            return (momentum, weight_master_copy)
        if weight.dtype == numpy.float16 and not self.multi_precision:
            warnings.warn("Accumulating with float16 in optimizer can lead to "
                          "poor accuracy or slow convergence. "
                          "Consider using multi_precision=True option of the "
                          "SGD optimizer")
        if self.momentum != 0.0:
            momentum = zeros(weight.shape, weight.context, dtype=weight.dtype)
        return momentum

    def _get_lbmult(self, nup):
        """The learning-rate multiplier at update ``nup`` of the warmup schedule."""
        nwup = self.warmup_epochs * self.updates_per_epoch
        maxmult = float(self.batch_scale)
        if nup >= nwup:
            return maxmult
        if nwup <= 1:
            return 1.0
        if self.warmup_strategy == 'linear':
            return 1.0 + (maxmult - 1) * nup / nwup
        if self.warmup_strategy == 'power2':
            return 1.0 + (maxmult - 1) * (nup * nup) / (nwup * nwup)
        if self.warmup_strategy == 'sqrt':
            return 1.0 + (maxmult - 1) * math.sqrt(float(nup) / nwup)
        return 1.0

    def _get_lars(self, weight, g, wd):
        """The layer-wise rate multiplier sqrt(|w|^2 / (|g|^2 + wd |w|^2)), within [0.01, 100]."""
        weight2 = self._l2norm(weight)
        grad2 = self._l2norm(g)
        lars = math.sqrt(weight2 / (grad2 + wd * weight2 + 1e-18))
        return min(max(lars, 0.01), 100)

    def _l2norm(self, v):
        """Sum of squares of ``v`` (summed in numpy, as MXNet does)."""
        return multiply(v, v).asnumpy().sum()

    def _reset_cum_gradient(self, index):
        self.cumgrads[index]['cum_grad'] = 0

    def _get_cum_gradient(self, index):
        return self.cumgrads.get(index, {})

    def _put_cum_gradient(self, index, cgrad):
        self.cumgrads[index] = cgrad

    def _cumulate_gradient(self, grad, index):
        """Add ``grad`` to the gradient accumulated for ``index`` over a macro-batch."""
        cgrad = self._get_cum_gradient(index)
        if cgrad and cgrad['num_cums'] > 0:
            cgrad = {'cum_grad': cgrad['cum_grad'] + grad, 'num_cums': cgrad['num_cums'] + 1}
        else:
            cgrad = {'cum_grad': grad, 'num_cums': self.init_updates + 1}
        self._put_cum_gradient(index, cgrad)
        return cgrad

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        # MXNet reads the learning rate before counting this update
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        self._update_count(index)
        cgrad = self._cumulate_gradient(grad, index)
        if (cgrad['num_cums'] % self.batch_scale) != 0:
            sgd_update(weight, grad, out=weight, lr=0.0, wd=wd)
            return
        grad = cgrad['cum_grad'] / self.batch_scale
        if self.warmup_strategy == 'lars':
            lbmult = self._get_lars(weight, grad, wd)
        else:
            lbmult = self._get_lbmult(cgrad['num_cums'])
        lr = lr * lbmult
        kwargs = _sgd_kwargs(self, self.momentum)
        _sgd_one(weight, grad, state, lr, wd, isinstance(state, (list, tuple)), kwargs)
        self._reset_cum_gradient(index)


@register
class DCASGD(Optimizer):
    """The DCASGD optimizer.

    This class implements the optimizer described in *Asynchronous Stochastic Gradient Descent
    with Delay Compensation for Distributed Deep Learning*,
    available at https://arxiv.org/abs/1609.08326.

    Parameters
    ----------
    momentum : float, optional
       The momentum value.
    lamda : float, optional
       Scale DC value.
    """
    def __init__(self, momentum=0.0, lamda=0.04, **kwargs):
        super(DCASGD, self).__init__(**kwargs)
        self.momentum = momentum
        self.weight_previous = {}
        self.lamda = lamda

    def create_state(self, index, weight):
        if self.momentum == 0.0:
            return (None, weight.copy())  # previous weight
        return (zeros(weight.shape, weight.context, dtype=weight.dtype),  # momentum
                weight.copy())  # previous weight

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        w = _tensor(weight)
        g = _tensor(grad) * self.rescale_grad
        if self.clip_gradient is not None:
            g.clamp_(-self.clip_gradient, self.clip_gradient)
        mom, previous_weight = state
        prev = _tensor(previous_weight)
        step = (g + wd * w + self.lamda * g * g * (w - prev)) * -lr
        # as in MXNet, the momentum NDArray's truth value is tested: a multi-element one
        # raises ValueError and a zero one-element one fails the assertion below
        if mom:
            m = _tensor(mom)
            m.mul_(self.momentum).add_(step)
            step = m
        else:
            assert self.momentum == 0.0
        prev.copy_(w)
        w.add_(step)


@register
class SGLD(Optimizer):
    """Stochastic Gradient Riemannian Langevin Dynamics.

    This class implements the optimizer described in the paper *Stochastic Gradient
    Riemannian Langevin Dynamics on the Probability Simplex*, available at
    https://papers.nips.cc/paper/4883-stochastic-gradient-riemannian-langevin-dynamics-on-the-probability-simplex.pdf.

    """
    def __init__(self, **kwargs):
        super(SGLD, self).__init__(**kwargs)

    def create_state(self, index, weight):
        return None

    def update(self, index, weight, grad, state):
        _check_arrays(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        w = _tensor(weight)
        g = _tensor(grad) * self.rescale_grad
        if self.clip_gradient is not None:
            g.clamp_(-self.clip_gradient, self.clip_gradient)
        w.add_((g + wd * w) * (-lr / 2))
        # drawn with mx.random.normal, as MXNet does (seeded by mx.random.seed)
        w.add_(_tensor(normal(0, math.sqrt(lr), shape=weight.shape, dtype=weight.dtype,
                              ctx=weight.context)))
