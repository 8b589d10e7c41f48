"""Element-wise binary arithmetic operators (same-shape and scalar forms)."""
import torch

from .registry import register, Float


@register('elemwise_add', inputs=('lhs', 'rhs'), aliases=('_add', '_plus', '_Plus'))
def elemwise_add(lhs, rhs):
    """Adds arguments element-wise."""
    return torch.add(lhs, rhs)
