"""Variable-length sequence operators: SequenceMask, SequenceLast, SequenceReverse.

The sequence axis is 0 (data laid out as (max_len, batch, ...)) or, where MXNet allows it, 1
((batch, max_len, ...)); ``sequence_length`` holds one length per batch entry and is read only
when ``use_sequence_length`` is true.
"""
import torch

from ..base import MXNetError
from .registry import register, Int, Float, Bool

_INPUTS = ('data', 'sequence_length')


def _input_rule(p):
    return ['data', 'sequence_length'] if p['use_sequence_length'] else ['data']


def _check(opname, data, sequence_length, use_sequence_length, axis, axes=(0, 1)):
    if use_sequence_length and sequence_length is None:
        raise MXNetError('Operator %s expects 2 inputs (data, sequence_length) with '
                         'use_sequence_length=True, but got 1' % opname)
    if not use_sequence_length and sequence_length is not None:
        raise MXNetError('Operator %s expects 1 input, but got 2: pass '
                         'use_sequence_length=True to use sequence_length' % opname)
    if data.dim() < 2:
        raise MXNetError('%s: the data array must be of rank 2 or greater, got shape %s'
                         % (opname, tuple(data.shape)))
    if axis not in axes:
        raise MXNetError('%s: axis=%d is not supported; the implementation expects axis to be %s'
                         % (opname, axis, ' or '.join(str(a) for a in axes)))


def _lengths(sequence_length, lo=None, hi=None):
    """Lengths as int64, truncated toward zero as MXNet reads them; clamped to [lo, hi] where
    the result indexes the sequence axis (MXNet reads outside its buffer there)."""
    out = sequence_length.to(torch.int64)
    return out if lo is None else out.clamp(lo, hi)


@register('SequenceMask', aliases=('_npx_sequence_mask',), named_outputs=True, merges=False, inputs=_INPUTS,
          params={'use_sequence_length': (Bool, False), 'value': (Float, 0.0),
                  'axis': (Int, 0)},
          input_rule=_input_rule)
def sequence_mask(data, sequence_length, *, use_sequence_length, value, axis):
    """Sets all elements outside each sequence (positions >= its length) to ``value``."""
    _check('SequenceMask', data, sequence_length, use_sequence_length, axis)
    if not use_sequence_length:
        return data.clone()
    steps = torch.arange(data.shape[axis], device=data.device)
    lengths = _lengths(sequence_length)
    keep = steps.unsqueeze(1) < lengths.unsqueeze(0)          # (max_len, batch)
    if axis == 1:
        keep = keep.t()
    keep = keep.reshape(keep.shape + (1,) * (data.dim() - 2))
    return torch.where(keep, data, value if data.is_floating_point() else int(value))


@register('SequenceLast', named_outputs=True, merges=False, inputs=_INPUTS,
          params={'use_sequence_length': (Bool, False), 'axis': (Int, 0)},
          input_rule=_input_rule)
def sequence_last(data, sequence_length, *, use_sequence_length, axis):
    """Takes the last element of each sequence (the one at position length - 1).

    Lengths outside ``[1, max_len]`` are clipped into that range."""
    _check('SequenceLast', data, sequence_length, use_sequence_length, axis)
    if not use_sequence_length:
        return data.select(axis, -1).clone()
    steps = data.movedim(axis, 0)                              # (max_len, batch, ...)
    last = _lengths(sequence_length, 1, steps.shape[0]) - 1
    return steps[last, torch.arange(steps.shape[1], device=data.device)]


@register('SequenceReverse', named_outputs=True, merges=False, inputs=_INPUTS,
          params={'use_sequence_length': (Bool, False), 'axis': (Int, 0)},
          input_rule=_input_rule)
def sequence_reverse(data, sequence_length, *, use_sequence_length, axis):
    """Reverses the first ``length`` elements of each sequence; padding stays in place.

    Lengths outside ``[0, max_len]`` are clipped into that range."""
    _check('SequenceReverse', data, sequence_length, use_sequence_length, axis, axes=(0,))
    if not use_sequence_length:
        return data.flip(0)
    steps = torch.arange(data.shape[0], device=data.device).unsqueeze(1)   # (max_len, 1)
    lengths = _lengths(sequence_length, 0, data.shape[0]).unsqueeze(0)      # (1, batch)
    src = torch.where(steps < lengths, lengths - 1 - steps, steps)
    return data[src, torch.arange(data.shape[1], device=data.device)]
