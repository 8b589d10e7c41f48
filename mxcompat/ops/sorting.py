"""Sorting and selection operators: topk, sort, argsort, and the histogram."""
import torch

from ..base import MXNetError, dtype_torch
from .indexing import dtype_choice, zero_grad_link, _axis
from .registry import register, Int, Bool, Opt, Enum, FloatTuple

_INDEX_DTYPES = ('uint8', 'int32', 'int64', 'float16', 'float32', 'float64')


def _flat_or_axis(data, axis, opname):
    if axis is None:
        return data.reshape(-1), 0
    return data, _axis(axis, data.dim(), opname)


def _sorted(x, ax, descending):
    # stable, as MXNet's std::sort (insertion sort) is for the short rows it usually gets
    return torch.sort(x, dim=ax, descending=descending, stable=True)


@register('topk', aliases=('_npx_topk',), monitor_prefix='input', params={'axis': (Opt(Int), -1), 'k': (Int, 1),
                          'ret_typ': (Enum('both', 'indices', 'mask', 'value'), 'indices'),
                          'is_ascend': (Bool, False),
                          'dtype': (dtype_choice(*_INDEX_DTYPES), 'float32')},
          num_outputs=lambda p: 2 if p['ret_typ'] in ('value', 'both') else 1,
          num_visible_outputs=lambda p: 2 if p['ret_typ'] == 'both' else 1)
def topk(data, *, axis, k, ret_typ, is_ascend, dtype):
    """Returns the indices (or values, a mask, or both) of the top k elements along an axis.

    With axis=None the flattened array is used; k < 1 selects the whole axis. Indices are
    returned as ``dtype`` (float32 by default).
    """
    x, ax = _flat_or_axis(data, axis, 'topk')
    n = x.shape[ax]
    kk = n if k <= 0 else k
    if kk > n:
        raise MXNetError('topk: k must be smaller than or equal to %d (the size of the axis), '
                         'got k = %d' % (n, k))
    if kk * 8 > n:
        vals, idx = _sorted(x, ax, not is_ascend)
        vals, idx = vals.narrow(ax, 0, kk), idx.narrow(ax, 0, kk)
    else:
        vals, idx = torch.topk(x, kk, dim=ax, largest=not is_ascend, sorted=True)
    if ret_typ == 'value':
        return vals, idx
    if ret_typ == 'mask':
        mask = torch.zeros_like(x).scatter_(ax, idx, 1).reshape(data.shape)
        return zero_grad_link(mask, data)
    ind = zero_grad_link(idx.to(dtype_torch(dtype)), data)
    return ind if ret_typ == 'indices' else (vals, ind)


@register('sort', monitor_prefix='input', aliases=('_npi_sort',),
          params={'axis': (Opt(Int), -1), 'is_ascend': (Bool, True)},
          num_outputs=2, num_visible_outputs=1)
def sort(data, *, axis, is_ascend):
    """Returns a sorted copy of the array along an axis (the flattened array for axis=None)."""
    x, ax = _flat_or_axis(data, axis, 'sort')
    vals, idx = _sorted(x, ax, not is_ascend)
    return vals, idx


@register('argsort', monitor_prefix='input', aliases=('_npi_argsort',),
          params={'axis': (Opt(Int), -1), 'is_ascend': (Bool, True),
                             'dtype': (dtype_choice(*_INDEX_DTYPES), 'float32')})
def argsort(data, *, axis, is_ascend, dtype):
    """Returns the indices that would sort the array along an axis (as ``dtype``)."""
    x, ax = _flat_or_axis(data, axis, 'argsort')
    idx = _sorted(x, ax, not is_ascend)[1]
    return zero_grad_link(idx.to(dtype_torch(dtype)), data)


@register('_histogram', inputs=('data', 'bins'), aliases=('_npi_histogram',),
          params={'bin_cnt': (Opt(Int), None), 'range': (Opt(FloatTuple), None)},
          input_rule=lambda p: ['data'] if p['bin_cnt'] is not None else ['data', 'bins'],
          num_outputs=2, differentiable=False)
def histogram(data, bins, *, bin_cnt, range):  # noqa: A002 (MXNet's parameter name)
    """Computes the histogram of the flattened input: (counts as int64, bin edges).

    Either ``bins`` (an array of bin edges) or both ``bin_cnt`` and ``range`` are given.
    """
    if (bin_cnt is None) != (range is None):
        raise MXNetError('_histogram: bin_cnt and range should both or neither be specified')
    if bin_cnt is not None:
        if len(range) != 2:
            raise MXNetError('_histogram: range must be a (min, max) pair, got %s' % (range,))
        lo, hi = range
        steps = torch.arange(bin_cnt + 1, dtype=torch.float64, device=data.device)
        edges = ((hi * steps + (bin_cnt - steps) * lo) / bin_cnt).to(data.dtype)
    else:
        if bins is None:
            raise MXNetError('_histogram: pass either bins (an array of edges) or bin_cnt and '
                             'range')
        if bins.dim() != 1 or bins.shape[0] < 2:
            raise MXNetError('_histogram: bins must be a 1-D array of at least 2 edges, got '
                             'shape %s' % (tuple(bins.shape),))
        edges = bins.clone()
    n_bins = edges.shape[0] - 1
    x = data.reshape(-1)
    if x.dtype in (torch.float16, torch.bfloat16):
        x = x.float()
    e = edges.to(x.dtype)
    target = torch.bucketize(x, e, right=True) - 1
    target = target.clamp(max=n_bins - 1)
    valid = (x >= e[0]) & (x <= e[-1])
    counts = torch.bincount(target[valid], minlength=n_bins)
    return counts, edges
