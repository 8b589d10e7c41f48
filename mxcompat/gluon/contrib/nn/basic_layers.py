"""Custom neural network layers: Concurrent, Identity, SyncBatchNorm, PixelShuffle."""
import warnings

import torch

from .... import nd, context
from ....ndarray.ndarray import NDArray, wrap
from ...block import HybridBlock, Block
from ...nn import Sequential, HybridSequential, BatchNorm

__all__ = ['Concurrent', 'HybridConcurrent', 'Identity', 'SparseEmbedding',
           'SyncBatchNorm', 'PixelShuffle1D', 'PixelShuffle2D', 'PixelShuffle3D']


class Concurrent(Sequential):
    """Lays `Block` s concurrently: every child gets the same input and their outputs are
    concatenated along ``axis``.

    Example::

        net = Concurrent()
        # use net's name_scope to give children blocks appropriate names.
        with net.name_scope():
            net.add(nn.Dense(10, activation='relu'))
            net.add(nn.Dense(20))
            net.add(Identity())

    Parameters
    ----------
    axis : int, default -1
        The axis on which to concatenate the outputs.
    """
    def __init__(self, axis=-1, prefix=None, params=None):
        super(Concurrent, self).__init__(prefix=prefix, params=params)
        self.axis = axis

    def forward(self, x):
        return nd.concat(*[block(x) for block in self._children.values()], dim=self.axis)


class HybridConcurrent(HybridSequential):
    """Lays `HybridBlock` s concurrently: every child gets the same input and their outputs
    are concatenated along ``axis``.

    Parameters
    ----------
    axis : int, default -1
        The axis on which to concatenate the outputs.
    """
    def __init__(self, axis=-1, prefix=None, params=None):
        super(HybridConcurrent, self).__init__(prefix=prefix, params=params)
        self.axis = axis

    def hybrid_forward(self, F, x):
        return F.concat(*[block(x) for block in self._children.values()], dim=self.axis)


class Identity(HybridBlock):
    """Block that passes through the input directly.

    This block can be used in conjunction with HybridConcurrent block for residual
    connection.
    """
    def __init__(self, prefix=None, params=None):
        super(Identity, self).__init__(prefix=prefix, params=params)

    def hybrid_forward(self, F, x):
        return x


class SparseEmbedding(Block):
    r"""Turns non-negative integers (indexes/tokens) into dense vectors of fixed size, with
    a row_sparse weight and gradient. mxcompat has no sparse storage: use
    ``gluon.nn.Embedding(..., sparse_grad=False)`` instead."""
    def __init__(self, input_dim, output_dim, dtype='float32', weight_initializer=None,
                 **kwargs):
        raise NotImplementedError(
            'gluon.contrib.nn.SparseEmbedding: row_sparse weights and gradients are not '
            'supported by mxcompat; use gluon.nn.Embedding(input_dim, output_dim) instead')


class SyncBatchNorm(BatchNorm):
    """Cross-GPU Synchronized Batch normalization (SyncBN).

    Standard BN normalizes the data within each device; SyncBN normalizes it over the whole
    mini-batch. mxcompat runs one device per process: without a ``torch.distributed``
    process group it is BatchNorm over axis 1; within one (more than one process), the batch
    statistics are summed over all processes.

    Parameters
    ----------
    in_channels : int, default 0
        Number of channels (feature maps) in input data. If not specified, initialization
        will be deferred to the first time `forward` is called.
    num_devices : int, default number of visible GPUs
    momentum: float, default 0.9
        Momentum for the moving average.
    epsilon: float, default 1e-5
        Small float added to variance to avoid dividing by zero.
    center: bool, default True
        If True, add offset of `beta` to normalized tensor.
    scale: bool, default True
        If True, multiply by `gamma`.
    use_global_stats: bool, default False
        If True, use global moving statistics instead of local batch-norm.
    beta_initializer, gamma_initializer, running_mean_initializer,
    running_variance_initializer : str or `Initializer`
    """
    def __init__(self, in_channels=0, num_devices=None, momentum=0.9, epsilon=1e-5,
                 center=True, scale=True, use_global_stats=False, beta_initializer='zeros',
                 gamma_initializer='ones', running_mean_initializer='zeros',
                 running_variance_initializer='ones', **kwargs):
        super(SyncBatchNorm, self).__init__(
            axis=1, momentum=momentum, epsilon=epsilon, center=center, scale=scale,
            use_global_stats=use_global_stats, beta_initializer=beta_initializer,
            gamma_initializer=gamma_initializer,
            running_mean_initializer=running_mean_initializer,
            running_variance_initializer=running_variance_initializer,
            in_channels=in_channels, **kwargs)
        num_devices = self._get_num_devices() if num_devices is None else num_devices
        self._kwargs = {'eps': epsilon, 'momentum': momentum, 'fix_gamma': not scale,
                        'use_global_stats': use_global_stats, 'ndev': num_devices,
                        'key': self.prefix}

    def _get_num_devices(self):
        warnings.warn('Caution using SyncBatchNorm: if not using all the GPUs, please '
                      'mannually set num_devices', UserWarning)
        num_devices = context.num_gpus()
        return num_devices if num_devices > 0 else 1

    def hybrid_forward(self, F, x, gamma, beta, running_mean, running_var):
        # one device per process: the devices of MXNet's ndev are the processes here
        kwargs = dict(self._kwargs, ndev=1)
        if F is nd and _world_size() > 1 and not self._kwargs['use_global_stats']:
            from ....autograd import is_training
            if is_training():
                return _distributed_batch_norm(x, gamma, beta, running_mean, running_var,
                                               kwargs)
        return F.contrib.SyncBatchNorm(x, gamma, beta, running_mean, running_var, name='fwd',
                                       **kwargs)


def _world_size():
    dist = torch.distributed
    return dist.get_world_size() if dist.is_available() and dist.is_initialized() else 1


def _distributed_batch_norm(x, gamma, beta, running_mean, running_var, kw):
    """Training-mode batch norm over axis 1 with mean and (biased) variance over the batches
    of every process, and MXNet's moving-statistics update."""
    from torch.distributed.nn.functional import all_reduce
    t = x._t
    dims = [0] + list(range(2, t.dim()))
    count = torch.tensor(float(t.numel() // t.shape[1]), dtype=t.dtype, device=t.device)
    stats = torch.cat([t.sum(dims), (t * t).sum(dims), count.reshape(1)])
    stats = all_reduce(stats)
    c = t.shape[1]
    n = stats[-1]
    mean, sq = stats[:c] / n, stats[c:2 * c] / n
    var = sq - mean * mean
    shape = [1, c] + [1] * (t.dim() - 2)
    g = torch.ones_like(gamma._t) if kw['fix_gamma'] else gamma._t
    out = (t - mean.reshape(shape)) * torch.rsqrt(var.reshape(shape) + kw['eps'])
    out = out * g.reshape(shape) + beta._t.reshape(shape)
    m = kw['momentum']
    with torch.no_grad():
        running_mean._t.mul_(m).add_(mean.detach() * (1 - m))
        running_var._t.mul_(m).add_(var.detach() * (1 - m))
    return wrap(out) if isinstance(x, NDArray) else out


def _factors(factor, n):
    try:
        return (int(factor),) * n
    except TypeError:
        factors = tuple(int(f) for f in factor)
        assert len(factors) == n, 'wrong length {}'.format(len(factors))
        return factors


class PixelShuffle1D(HybridBlock):
    r"""Pixel-shuffle layer for upsampling in 1 dimension: (N, f*C, W) -> (N, C, f*W).

    Parameters
    ----------
    factor : int or 1-tuple of int
        Upsampling factor, applied to the ``W`` dimension.
    """
    def __init__(self, factor):
        super(PixelShuffle1D, self).__init__()
        self._factor = int(factor)

    def hybrid_forward(self, F, x):
        f = self._factor
        x = F.reshape(x, (0, -4, -1, f, 0))       # (N, C, f, W)
        x = F.transpose(x, (0, 1, 3, 2))          # (N, C, W, f)
        return F.reshape(x, (0, 0, -3))           # (N, C, W*f)

    def __repr__(self):
        return '{}({})'.format(self.__class__.__name__, self._factor)


class PixelShuffle2D(HybridBlock):
    r"""Pixel-shuffle layer for upsampling in 2 dimensions:
    (N, f1*f2*C, H, W) -> (N, C, f1*H, f2*W).

    Parameters
    ----------
    factor : int or 2-tuple of int
        Upsampling factors, applied to the ``H`` and ``W`` dimensions, in that order.
    """
    def __init__(self, factor):
        super(PixelShuffle2D, self).__init__()
        self._factors = _factors(factor, 2)

    def hybrid_forward(self, F, x):
        f1, f2 = self._factors
        x = F.reshape(x, (0, -4, -1, f1 * f2, 0, 0))    # (N, C, f1*f2, H, W)
        x = F.reshape(x, (0, 0, -4, f1, f2, 0, 0))      # (N, C, f1, f2, H, W)
        x = F.transpose(x, (0, 1, 4, 2, 5, 3))          # (N, C, H, f1, W, f2)
        return F.reshape(x, (0, 0, -3, -3))             # (N, C, H*f1, W*f2)

    def __repr__(self):
        return '{}({})'.format(self.__class__.__name__, self._factors)


class PixelShuffle3D(HybridBlock):
    r"""Pixel-shuffle layer for upsampling in 3 dimensions:
    (N, f1*f2*f3*C, D, H, W) -> (N, C, f1*D, f2*H, f3*W).

    Parameters
    ----------
    factor : int or 3-tuple of int
        Upsampling factors, applied to the ``D``, ``H`` and ``W`` dimensions, in that order.
    """
    def __init__(self, factor):
        super(PixelShuffle3D, self).__init__()
        self._factors = _factors(factor, 3)

    def hybrid_forward(self, F, x):
        f1, f2, f3 = self._factors
        x = F.reshape(x, (0, -4, -1, f1 * f2 * f3, 0, 0, 0))   # (N, C, f1*f2*f3, D, H, W)
        x = F.reshape(x, (0, 0, -4, f1, f2 * f3, 0, 0, 0))     # (N, C, f1, f2*f3, D, H, W)
        x = F.reshape(x, (0, 0, 0, -4, f2, f3, 0, 0, 0))       # (N, C, f1, f2, f3, D, H, W)
        x = F.transpose(x, (0, 1, 5, 2, 6, 3, 7, 4))           # (N, C, D, f1, H, f2, W, f3)
        return F.reshape(x, (0, 0, -3, -3, -3))

    def __repr__(self):
        return '{}({})'.format(self.__class__.__name__, self._factors)
