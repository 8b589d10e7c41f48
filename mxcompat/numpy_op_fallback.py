"""NumPy-interface operators that MXNet runs as Python custom operators (``Custom`` with an
``op_type``), registered with :mod:`mxcompat.operator` as MXNet registers them, and reachable
as ``_npi.<op_type>`` in the NumPy front ends (``mx.np`` and ``mx.sym.np``), as in MXNet:
``mvn_fallback`` (``np.random.multivariate_normal``)."""
import ast
import functools

import numpy as _onp

from . import operator
from .ndarray.ndarray import NDArray
from .ops.custom import Custom, symbol_Custom
from .numpy.multiarray import _npi as _nd_npi
from .symbol.numpy import _npi as _sym_npi


def _nd_custom(*data, **kwargs):
    """``Custom`` with ``mx.np.ndarray`` results (MXNet's ``_npi.Custom``)."""
    out = Custom(*data, **kwargs)
    if isinstance(out, NDArray):
        return out.as_np_ndarray()
    return [o.as_np_ndarray() for o in out]


def register(op_name):
    """Register a CustomOpProp as custom operator ``op_name`` and as ``_npi.<op_name>`` of the
    NumPy front ends."""
    def deco(prop_cls):
        prop_cls = operator.register(op_name)(prop_cls)
        setattr(_nd_npi, op_name, staticmethod(functools.partial(_nd_custom, op_type=op_name)))
        setattr(_sym_npi, op_name, staticmethod(functools.partial(symbol_Custom,
                                                                  op_type=op_name)))
        return prop_cls
    return deco


class MultivariateNormal(operator.CustomOp):
    """Samples of multivariate normal distributions: ``mean + einsum('...jk,...j->...k', L,
    noise)`` with ``L`` the lower Cholesky factor of ``cov`` (computed in float32 for float16)
    and standard normal noise, MXNet 1.9.1's formula (whose samples have the covariance
    ``L.T @ L``, which equals ``cov`` for diagonal ones)."""

    def forward(self, is_train, req, in_data, out_data, aux):
        from . import numpy as np
        loc, cov = in_data[0].as_np_ndarray(), in_data[1].as_np_ndarray()
        if cov.dtype == _onp.float16:
            scale = np.linalg.cholesky(cov.astype('float32')).astype('float16')
        else:
            scale = np.linalg.cholesky(cov)
        noise = np.random.normal(size=out_data[0].shape, dtype=loc.dtype, ctx=loc.ctx)
        self.assign(out_data[0], req[0], loc + np.einsum('...jk,...j->...k', scale, noise))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        raise NotImplementedError('Operator random.multivariate_normal does not support '
                                  'gradient computation')


@register('mvn_fallback')
class MultivariateNormalProp(operator.CustomOpProp):
    """Shapes of ``mvn_fallback``: ``size + broadcast(mean.shape, cov.shape[:-1])``."""

    def __init__(self, size=None):
        super().__init__(need_top_grad=True)
        size = ast.literal_eval(size) if isinstance(size, str) else size
        self._size = (size,) if isinstance(size, int) else size

    def list_arguments(self):
        return ['mean', 'cov']

    def infer_shape(self, in_shape):
        loc_shape, cov_shape = tuple(in_shape[0]), tuple(in_shape[1])
        if len(loc_shape) < 1:
            raise ValueError('mean must be at least 1 dimensional')
        if len(cov_shape) < 2:
            raise ValueError('cov must be at least 2 dimensional')
        if cov_shape[-1] != cov_shape[-2]:
            raise ValueError('the last two dimentions of the parameter cov have to be the same,'
                             ' whereas the shape of cov is {}'.format(cov_shape))
        if cov_shape[-1] != loc_shape[-1]:
            raise ValueError('mean and cov must have same length. The shape of mean is {} but '
                             'the shape of cov is {}'.format(loc_shape[-1:], cov_shape[-2:]))
        out_shape = _onp.broadcast_shapes(loc_shape, cov_shape[:-1])
        if self._size is not None:
            out_shape = tuple(self._size) + out_shape
        return in_shape, (out_shape,), ()

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return MultivariateNormal()
