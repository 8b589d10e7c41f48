"""Broadcasting binary operators (``broadcast_add``, ``broadcast_mod``, ``broadcast_equal``, ...).

Shapes broadcast as in numpy (axes aligned on the right, size-1 axes stretched); both operands
must have the same dtype. The numerics are those of the same-shape operators in
elemwise_arith.py; torch's autograd sums gradients back to each input's shape, as MXNet does.
"""
import torch

from ..base import MXNetError
from . import elemwise_arith as _k
from .registry import register


def _broadcast_error(name, lhs, rhs):
    if lhs.dtype is not rhs.dtype:
        return _k.dtype_mismatch(name, lhs, rhs)
    return MXNetError('%s: operands could not be broadcast together with shapes %s %s; aligned '
                      'from the last axis, each pair of sizes must be equal or contain a 1'
                      % (name, list(lhs.shape), list(rhs.shape)))


def _broadcast(name, kernel, aliases, doc):
    def op(lhs, rhs):
        if lhs.dtype is not rhs.dtype:
            raise _broadcast_error(name, lhs, rhs)
        try:
            return kernel(lhs, rhs)
        except RuntimeError:
            try:
                torch.broadcast_shapes(lhs.shape, rhs.shape)
            except RuntimeError:
                raise _broadcast_error(name, lhs, rhs) from None
            raise
    op.__name__ = name
    op.__doc__ = doc
    register(name, inputs=('lhs', 'rhs'), aliases=aliases, kernel=kernel)(op)


for _name, _kernel, _aliases, _what in (
        ('broadcast_add', _k.add, ('broadcast_plus',), 'sum'),
        ('broadcast_sub', _k.sub, ('broadcast_minus',), 'difference'),
        ('broadcast_mul', _k.mul, (), 'product'),
        ('broadcast_div', _k.div, (), 'division'),
        ('broadcast_mod', _k.mod, (), 'modulo (0 where rhs is 0)'),
        ('broadcast_power', _k.power, (), 'power (lhs ** rhs)'),
        ('broadcast_maximum', _k.maximum, (), 'maximum'),
        ('broadcast_minimum', _k.minimum, (), 'minimum'),
        ('broadcast_hypot', _k.hypot, (), 'hypotenuse'),
        ('broadcast_equal', _k.equal, (), '**equal to** (==) comparison, as 1/0'),
        ('broadcast_not_equal', _k.not_equal, (), '**not equal to** (!=) comparison, as 1/0'),
        ('broadcast_greater', _k.greater, (), '**greater than** (>) comparison, as 1/0'),
        ('broadcast_greater_equal', _k.greater_equal, (),
         '**greater than or equal to** (>=) comparison, as 1/0'),
        ('broadcast_lesser', _k.lesser, (), '**lesser than** (<) comparison, as 1/0'),
        ('broadcast_lesser_equal', _k.lesser_equal, (),
         '**lesser than or equal to** (<=) comparison, as 1/0'),
        ('broadcast_logical_and', _k.logical_and, (), '**logical and**, as 1/0'),
        ('broadcast_logical_or', _k.logical_or, (), '**logical or**, as 1/0'),
        ('broadcast_logical_xor', _k.logical_xor, (), '**logical xor**, as 1/0')):
    _broadcast(_name, _kernel, _aliases,
               'Returns element-wise %s of the input arrays with broadcasting.' % _what)
