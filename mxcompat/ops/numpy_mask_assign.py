"""Boolean-mask assignment of the NumPy interface (``_npi_boolean_mask_assign_scalar``,
``_npi_boolean_mask_assign_tensor``): ``data[(:,) * start_axis + (mask,)] = value``, with MXNet
1.9.1's inputs and parameters. The result is a new array (MXNet writes in place where the
caller passes ``out=data``, as ``mx.np.ndarray.__setitem__`` does; the front end copies the
result there)."""
import torch

from ..base import MXNetError
from .registry import register, REQUIRED, Float, Int


def _masked(opname, data, mask, start_axis):
    """The index of the masked positions, checked as MXNet checks it."""
    if start_axis < 0 or start_axis + mask.dim() > data.dim() or \
            tuple(data.shape[start_axis:start_axis + mask.dim()]) != tuple(mask.shape):
        raise MXNetError('%s: mask of shape %s does not match data of shape %s from axis %d'
                         % (opname, tuple(mask.shape), tuple(data.shape), start_axis))
    return (slice(None),) * start_axis + (mask.to(torch.bool),)


@register('_npi_boolean_mask_assign_scalar', inputs=('data', 'mask'), differentiable=False,
          params={'value': (Float, REQUIRED), 'start_axis': (Int, REQUIRED)})
def boolean_mask_assign_scalar(data, mask, value, start_axis):
    """``data`` with ``value`` at the positions that ``mask`` (starting at axis
    ``start_axis``) selects."""
    out = data.clone()
    out[_masked('_npi_boolean_mask_assign_scalar', data, mask, start_axis)] = value
    return out


@register('_npi_boolean_mask_assign_tensor', inputs=('data', 'mask', 'value'),
          differentiable=False, params={'start_axis': (Int, REQUIRED)})
def boolean_mask_assign_tensor(data, mask, value, start_axis):
    """``data`` with ``value`` (broadcast to the selection) at the positions that ``mask``
    (starting at axis ``start_axis``) selects."""
    out = data.clone()
    out[_masked('_npi_boolean_mask_assign_tensor', data, mask, start_axis)] = value.to(out.dtype)
    return out
