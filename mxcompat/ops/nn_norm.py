"""Normalization layers: BatchNorm(_v1), contrib.SyncBatchNorm, LayerNorm, InstanceNorm, GroupNorm,
L2Normalization, LRN.

BatchNorm follows MXNet exactly where it differs from torch: the batch variance is the biased
one, ``moving_mean``/``moving_var`` are updated in place with
``moving = moving * momentum + batch * (1 - momentum)`` when the backward pass runs through the
operator (a forward in training mode without backward leaves them unchanged, as in MXNet), and
the visible ``var`` output is the inverse standard deviation ``1/sqrt(var + eps)``.
"""
import threading

import torch
import torch.nn.functional as F
from torch.backends import cudnn as _cudnn

from ..autograd import is_training
from ..base import MXNetError
from . import param_shapes
from .registry import register, REQUIRED, Int, Float, Bool, Opt, Enum, Str


def _check_param(op, name, t, channels):
    if t is None:
        raise MXNetError('%s: input %s is missing' % (op, name))
    if t.shape != (channels,):
        raise MXNetError('%s: shape of %s is %s but (%d,) expected (one value per channel)'
                         % (op, name, tuple(t.shape), channels))


# Moving-statistics updates due in the running backward pass; each BatchNorm's gradient hook adds
# one and queues a flush for the end of the pass, which applies all of them with a few
# multi-tensor kernels instead of four small kernels per layer.
_pending_moving = []
_pending_lock = threading.Lock()
_queue_callback = torch.autograd.Variable._execution_engine.queue_callback


def _flush_moving():
    with _pending_lock:
        if not _pending_moving:
            return
        pending = _pending_moving[:]
        del _pending_moving[:]
    groups = {}
    for moving_mean, moving_var, mean, invstd, momentum, eps in pending:
        g = groups.setdefault((momentum, eps), ([], [], [], []))
        g[0].append(moving_mean)
        g[1].append(moving_var)
        g[2].append(mean)
        g[3].append(invstd)
    with torch.no_grad():
        for (momentum, eps), (mm, mv, means, invstds) in groups.items():
            var = torch._foreach_pow(invstds, -2)
            torch._foreach_sub_(var, eps)
            torch._foreach_mul_(mm + mv, momentum)
            torch._foreach_add_(mm + mv, means + list(var), alpha=1.0 - momentum)


def _update_moving_on_backward(out, moving_mean, moving_var, mean, invstd, momentum, eps):
    """Fold the batch statistics into the moving ones when the gradient reaches ``out``:
    ``moving = moving * momentum + batch * (1 - momentum)``, at the end of that backward pass."""
    mean, invstd = mean.detach(), invstd.detach()
    if mean.dtype != moving_mean.dtype:  # (float16 data: torch's statistics are float32)
        mean = mean.to(moving_mean.dtype)
    if invstd.dtype != moving_var.dtype:
        invstd = invstd.to(moving_var.dtype)
    update = (moving_mean.detach(), moving_var.detach(), mean, invstd, momentum, eps)
    if torch.compiler.is_dynamo_compiling():
        # a graph being compiled has no grad_fn to hook: torch.compile replays this append
        # with each call's tensors, and the caller hooks it to the graph's outputs
        _compiled_moving.append(update)
        return
    # a pre-hook of the node that made ``out`` runs when the gradient reaches ``out``, as a
    # tensor hook would, at half its cost to register
    out.grad_fn.register_prehook(_moving_hook([update]))


def _moving_hook(updates):
    def hook(grad_outputs):
        with _pending_lock:
            _pending_moving.extend(updates)
        _queue_callback(_flush_moving)
    return hook


# Moving-statistics updates recorded by the last call of a compiled graph (torch.compile of a
# hybridized block), waiting for hook_compiled_updates to tie them to its outputs.
_compiled_moving = []


def hook_compiled_updates(outputs):
    """Ties the moving-statistics updates of the compiled graph that just returned ``outputs``
    to the backward pass through those outputs, where the uncompiled graph ties each to its
    BatchNorm's output: they apply at the end of a backward pass that reaches the graph, and
    never without one."""
    if not _compiled_moving:
        return
    updates = _compiled_moving[:]
    del _compiled_moving[:]
    for t in outputs:
        if t.grad_fn is not None:
            t.grad_fn.register_prehook(_moving_hook(updates))
            return


def _meta_norm(x, stat_shape):
    """(out, mean, inverse std) of torch's native batch/layer norm on a meta tensor (shape
    inference), as its CPU kernels shape them, without running it: those meta kernels are written
    in Python, and the first one used imports torch's compiler stack, about a second on a
    model's first forward."""
    return torch.empty_like(x), x.new_empty(stat_shape), x.new_empty(stat_shape)


def _batch_norm(op, data, gamma, beta, moving_mean, moving_var, eps, momentum, fix_gamma,
                use_global_stats, axis):
    """(out, mean, invstd or None) of MXNet's BatchNorm; invstd is None in predict mode."""
    ndim = data.dim()
    if ndim < 2:
        raise MXNetError('%s: data must have at least 2 dimensions (batch, channel, ...), got '
                         'shape %s' % (op, tuple(data.shape)))
    if not -ndim <= axis < ndim:
        raise MXNetError('%s: axis %d is out of range for data of shape %s'
                         % (op, axis, tuple(data.shape)))
    axis %= ndim
    channels = data.shape[axis]
    for name, t in (('gamma', gamma), ('beta', beta), ('moving_mean', moving_mean),
                    ('moving_var', moving_var)):
        _check_param(op, name, t, channels)
    x = data
    if axis != 1:
        x = data.reshape(int(torch.Size(data.shape[:axis]).numel()), channels, -1)
    # fix_gamma scales by a constant 1 that receives no gradient (torch's CUDA kernels need a
    # weight tensor whenever a bias is given)
    weight = torch.ones_like(beta) if fix_gamma else gamma
    if x.is_meta:
        out, mean, invstd = _meta_norm(x, (channels,))
        if not is_training() or use_global_stats:
            mean = invstd = None
    elif is_training() and not use_global_stats:
        # torch's dispatcher picks cuDNN where it applies and returns the batch mean and
        # inverse standard deviation from either kernel
        out, mean, invstd = torch._batch_norm_impl_index(
            x, weight, beta, None, None, True, 0.0, eps, _cudnn.enabled)[:3]
        if out.requires_grad:
            _update_moving_on_backward(out, moving_mean, moving_var, mean, invstd, momentum, eps)
    else:
        out = torch.batch_norm(x, weight, beta, moving_mean, moving_var, False, 0.0, eps,
                               _cudnn.enabled)
        mean = invstd = None
    if axis != 1:
        out = out.reshape(data.shape)
    return out, mean, invstd


def _mean_var_outputs(p):
    return 3 if p['output_mean_var'] else 1


@register('BatchNorm', aliases=('_npx_batch_norm',), named_outputs=True, float32_params=True,
          input_init={'moving_mean': '["zero", {}]', 'moving_var': '["one", {}]'},
          inputs=('data', 'gamma', 'beta', 'moving_mean', 'moving_var'),
          aux=('moving_mean', 'moving_var'), infer_shape=param_shapes.channel_params,
          params={'eps': (Float, 1e-3), 'momentum': (Float, 0.9), 'fix_gamma': (Bool, True),
                  'use_global_stats': (Bool, False), 'output_mean_var': (Bool, False),
                  'axis': (Int, 1), 'cudnn_off': (Bool, False),
                  'min_calib_range': (Opt(Float), None), 'max_calib_range': (Opt(Float), None)},
          num_outputs=3, num_visible_outputs=_mean_var_outputs,
          output_names=('output', 'mean', 'var'))
def batch_norm(data, gamma, beta, moving_mean, moving_var, *, eps, momentum, fix_gamma,
               use_global_stats, output_mean_var, axis, cudnn_off, min_calib_range,
               max_calib_range):
    """Batch normalization.

    Normalizes a data batch by mean and variance, and applies a scale ``gamma`` as well as
    offset ``beta``. In training mode the batch statistics are used and ``moving_mean`` /
    ``moving_var`` are updated (``moving = moving * momentum + batch * (1 - momentum)``);
    otherwise the moving statistics are used. ``fix_gamma`` treats gamma as 1. With
    ``output_mean_var`` the mean and the inverse standard deviation are returned as well.
    """
    out, mean, invstd = _batch_norm('BatchNorm', data, gamma, beta, moving_mean, moving_var,
                                    eps, momentum, fix_gamma, use_global_stats, axis)
    if not output_mean_var:
        return out
    if mean is None:
        mean, invstd = moving_mean.clone(), torch.rsqrt(moving_var + eps)
    return out, mean, invstd


@register('BatchNorm_v1', named_outputs=True, merges=False, float32_params=True,
          input_init={'moving_mean': '["zero", {}]', 'moving_var': '["one", {}]'},
          inputs=('data', 'gamma', 'beta', 'moving_mean', 'moving_var'),
          aux=('moving_mean', 'moving_var'), infer_shape=param_shapes.channel_params,
          params={'eps': (Float, 1e-3), 'momentum': (Float, 0.9), 'fix_gamma': (Bool, True),
                  'use_global_stats': (Bool, False), 'output_mean_var': (Bool, False)},
          num_outputs=3, num_visible_outputs=_mean_var_outputs,
          output_names=('output', 'mean', 'var'))
def batch_norm_v1(data, gamma, beta, moving_mean, moving_var, *, eps, momentum, fix_gamma,
                  use_global_stats, output_mean_var):
    """Batch normalization (deprecated version of BatchNorm); its ``var`` output is the
    variance itself."""
    if data.dim() not in (2, 4):
        raise MXNetError('BatchNorm_v1: data must be 2D (batch, channel) or 4D (batch, '
                         'channel, y, x), got shape %s' % (tuple(data.shape),))
    if moving_mean is None or moving_var is None:
        raise MXNetError('BatchNorm_v1 expects 5 inputs (data, gamma, beta, moving_mean, '
                         'moving_var), but moving_mean or moving_var is missing')
    return _batch_norm_var_outputs('BatchNorm_v1', data, gamma, beta, moving_mean, moving_var,
                                   eps, momentum, fix_gamma, use_global_stats, output_mean_var)


def _batch_norm_var_outputs(op, data, gamma, beta, moving_mean, moving_var, eps, momentum,
                            fix_gamma, use_global_stats, output_mean_var):
    """BatchNorm whose optional outputs are the mean and the variance (legacy operators)."""
    out, mean, invstd = _batch_norm(op, data, gamma, beta, moving_mean, moving_var, eps,
                                    momentum, fix_gamma, use_global_stats, 1)
    if not output_mean_var:
        return out
    if mean is None:
        return out, moving_mean.clone(), moving_var.clone()
    return out, mean, invstd ** -2 - eps


@register('_contrib_SyncBatchNorm', named_outputs=True, merges=False, float32_params=True,
          input_init={'moving_mean': '["zero", {}]', 'moving_var': '["one", {}]'},
          inputs=('data', 'gamma', 'beta', 'moving_mean', 'moving_var'),
          aux=('moving_mean', 'moving_var'), infer_shape=param_shapes.channel_params,
          params={'eps': (Float, 1e-3), 'momentum': (Float, 0.9), 'fix_gamma': (Bool, True),
                  'use_global_stats': (Bool, False), 'output_mean_var': (Bool, False),
                  'ndev': (Int, 1), 'key': (Str, REQUIRED)},
          num_outputs=3, num_visible_outputs=_mean_var_outputs,
          output_names=('output', 'mean', 'var'))
def sync_batch_norm(data, gamma, beta, moving_mean, moving_var, *, eps, momentum, fix_gamma,
                    use_global_stats, output_mean_var, ndev, key):
    """Batch normalization with statistics synchronized across devices. mxcompat runs one
    process per device set: with ``ndev=1`` this is BatchNorm over axis 1, whose ``var``
    output is the variance itself."""
    if ndev != 1:
        raise NotImplementedError('contrib.SyncBatchNorm(ndev=%d): statistics synchronized '
                                  'across devices are not supported by mxcompat; use ndev=1 '
                                  '(or torch.nn.SyncBatchNorm with torch.distributed)' % ndev)
    if moving_mean is None or moving_var is None:
        raise MXNetError('SyncBatchNorm expects 5 inputs (data, gamma, beta, moving_mean, '
                         'moving_var), but moving_mean or moving_var is missing')
    return _batch_norm_var_outputs('SyncBatchNorm', data, gamma, beta, moving_mean, moving_var,
                                   eps, momentum, fix_gamma, use_global_stats, output_mean_var)


@register('LayerNorm', aliases=('_npx_layer_norm',), named_outputs=True,
          inputs=('data', 'gamma', 'beta'), infer_shape=param_shapes.norm_params,
          params={'axis': (Int, -1), 'eps': (Float, 1e-5), 'output_mean_var': (Bool, False)},
          num_outputs=3, num_visible_outputs=_mean_var_outputs,
          output_names=('output', 'mean', 'std'))
def layer_norm(data, gamma, beta, *, axis, eps, output_mean_var):
    """Layer normalization.

    Normalizes the channels of the input tensor by mean and variance, and applies a scale
    ``gamma`` as well as offset ``beta``:
    ``out = (data - mean(data, axis)) / sqrt(var(data, axis) + eps) * gamma + beta``.
    With ``output_mean_var`` the mean and the standard deviation ``sqrt(var + eps)`` are
    returned as well (keeping ``axis`` with size 1).
    """
    ndim = data.dim()
    if not -ndim <= axis < ndim:
        raise MXNetError('LayerNorm: channel axis out of range: axis=%d for data of shape %s'
                         % (axis, tuple(data.shape)))
    axis %= ndim
    channels = data.shape[axis]
    _check_param('LayerNorm', 'gamma', gamma, channels)
    _check_param('LayerNorm', 'beta', beta, channels)
    last = axis == ndim - 1
    x = data if last else data.movedim(axis, -1)
    if x.is_meta:
        out, mean, rstd = _meta_norm(x, x.shape[:-1] + (1,))
    else:
        out, mean, rstd = torch.native_layer_norm(x, (channels,), gamma, beta, eps)
    if not last:
        out = out.movedim(-1, axis)
    if not output_mean_var:
        return out
    std = (1.0 / rstd).to(data.dtype)
    mean = mean.to(data.dtype)
    if not last:
        mean, std = mean.movedim(-1, axis), std.movedim(-1, axis)
    return out, mean, std


@register('InstanceNorm', named_outputs=True, merges=False,
          inputs=('data', 'gamma', 'beta'), params={'eps': (Float, 1e-3)},
          num_outputs=3, num_visible_outputs=1,
          infer_shape=param_shapes.norm_params)
def instance_norm(data, gamma, beta, *, eps):
    """Applies instance normalization to the n-dimensional input array.

    ``out = (data - mean(data, axis=(2, ...))) / sqrt(var(data, axis=(2, ...)) + eps) * gamma
    + beta``, with per-channel gamma and beta.
    """
    if data.dim() < 3:
        raise MXNetError('InstanceNorm only accepts input tensors of at least 3 dimensions '
                         '(batch, channel, spatial...), got shape %s' % (tuple(data.shape),))
    channels = data.shape[1]
    _check_param('InstanceNorm', 'gamma', gamma, channels)
    _check_param('InstanceNorm', 'beta', beta, channels)
    n = data.shape[0]
    return torch.native_group_norm(data, gamma, beta, n, channels,
                                   data.numel() // max(n * channels, 1), channels, eps)[0]


@register('GroupNorm', named_outputs=True,
          inputs=('data', 'gamma', 'beta'), infer_shape=param_shapes.group_norm,
          params={'num_groups': (Int, 1), 'eps': (Float, 1e-5),
                  'output_mean_var': (Bool, False)},
          num_outputs=3, num_visible_outputs=_mean_var_outputs,
          output_names=('output', 'mean', 'std'))
def group_norm(data, gamma, beta, *, num_groups, eps, output_mean_var):
    """Group normalization.

    The input channels are separated into ``num_groups`` groups, each normalized by its own
    mean and variance; ``gamma`` and ``beta`` have one value per group, shape
    ``(num_groups,)``. With ``output_mean_var`` the mean and the standard deviation
    ``sqrt(var + eps)``, of shape ``(batch, num_groups)``, are returned as well.
    """
    if data.dim() < 3:
        raise MXNetError('GroupNorm: data should have at least 3 dimensions (batch, channel, '
                         '...), got shape %s' % (tuple(data.shape),))
    n, c = data.shape[0], data.shape[1]
    if num_groups < 1 or c % num_groups:
        raise MXNetError('GroupNorm: number of channels (%d) must be divisible by num_groups '
                         '(%d)' % (c, num_groups))
    _check_param('GroupNorm', 'gamma', gamma, num_groups)
    _check_param('GroupNorm', 'beta', beta, num_groups)
    per = c // num_groups
    out, mean, rstd = torch.native_group_norm(
        data, gamma.repeat_interleave(per), beta.repeat_interleave(per), n, c,
        data.numel() // max(n * c, 1), num_groups, eps)
    if not output_mean_var:
        return out
    return out, mean.to(data.dtype), (1.0 / rstd).to(data.dtype)


@register('L2Normalization', named_outputs=True, merges=False, num_outputs=2, num_visible_outputs=1,
          params={'eps': (Float, 1e-10), 'mode': (Enum('instance', 'spatial', 'channel'),
                                                  'instance')})
def l2_normalization(data, *, eps, mode):
    """Normalize the input array using the L2 norm.

    For 1-D NDArray, it computes ``out = data / sqrt(sum(data ** 2) + eps)``; ``mode``
    selects the axes of the sum: 'instance' all but the first, 'channel' axis 1, 'spatial'
    axes 2 and beyond.
    """
    ndim = data.dim()
    if mode == 'instance':
        dims = tuple(range(1, ndim))
    else:
        if ndim < 3:
            raise MXNetError('L2Normalization: at least 3 dimensions required in %s mode, got '
                             'shape %s' % (mode, tuple(data.shape)))
        dims = (1,) if mode == 'channel' else tuple(range(2, ndim))
    sq = data * data
    if dims:
        sq = sq.sum(dims, keepdim=True)
    return data / torch.sqrt(sq + eps)


@register('LRN', named_outputs=True, num_outputs=2, num_visible_outputs=1,
          params={'alpha': (Float, 1e-4), 'beta': (Float, 0.75), 'knorm': (Float, 2.0),
                  'nsize': (Int, REQUIRED)})
def lrn(data, *, alpha, beta, knorm, nsize):
    """Applies local response normalization to the input across channels:
    ``out = data / (knorm + alpha / nsize * sum(data ** 2 over nsize channels)) ** beta``."""
    if data.dim() != 4:
        raise MXNetError('LRN: data should be 4D in (batch, channel, y, x), got shape %s'
                         % (tuple(data.shape),))
    if nsize % 2 != 1:
        raise MXNetError('LRN only supports odd values for nsize, got %d' % nsize)
    return F.local_response_norm(data, nsize, alpha, beta, knorm)
