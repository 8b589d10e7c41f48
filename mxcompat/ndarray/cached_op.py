"""CachedOp: a symbol compiled once and called on NDArrays (``mx.nd.CachedOp``)."""
import torch

from ..base import MXNetError
from .ndarray import NDArray, wrap

__all__ = ['CachedOp']


class CachedOp:
    """Cached operator handle: runs ``sym`` on NDArrays given in ``sym.list_inputs()`` order.

    The graph is lowered once (symbol/lowering.py) into direct calls of the operators' torch
    implementations, and recorded by autograd like any other operator.
    """

    def __init__(self, sym, flags=()):
        from ..symbol.lowering import Lowered
        self._sym = sym
        self._graph = Lowered(sym)
        self._inputs = sym.list_inputs()
        self._single = len(sym.list_outputs()) == 1
        self.flags = dict(flags)

    def __call__(self, *args, **kwargs):
        """ctypes implementation of imperative invoke wrapper"""
        out = kwargs.pop('out', None)
        kwargs.pop('default_ctx', None)
        if kwargs:
            raise TypeError('CachedOp.__call__ got unexpected keyword argument(s): %s'
                            % ', '.join(kwargs))
        if len(args) != len(self._inputs):
            raise MXNetError('CachedOp expects %d inputs (%s), got %d'
                             % (len(self._inputs), ', '.join(self._inputs), len(args)))
        for a in args:
            if not isinstance(a, NDArray):
                raise MXNetError('CachedOp inputs must be NDArrays, got %s' % type(a).__name__)
        outs = self._graph([a._t for a in args])
        if out is not None:
            targets = out if isinstance(out, (list, tuple)) else [out]
            with torch.no_grad():
                for t, r in zip(targets, outs):
                    t._t.copy_(r)
            return out
        res = [wrap(o) for o in outs]
        return res[0] if self._single else res
