"""Matrix products and their relatives: dot, batch_dot, khatri_rao, im2col, col2im."""
import torch
import torch.nn.functional as F

from ..base import MXNetError
from .registry import register, REQUIRED, Int, Bool, Shape, Enum

_FLOATS = frozenset([torch.float32, torch.float64, torch.float16, torch.bfloat16])
_mm = torch.mm  # a module global: looking names up in torch's namespace costs on every call
_STYPE = Enum(None, 'csr', 'default', 'row_sparse')
_DOT_PARAMS = {'transpose_a': (Bool, False), 'transpose_b': (Bool, False),
               'forward_stype': (_STYPE, None)}


def _check_operands(opname, lhs, rhs, forward_stype):
    if forward_stype not in (None, 'default'):
        raise NotImplementedError("%s(forward_stype='%s'): sparse storage is not supported by "
                                  'mxcompat' % (opname, forward_stype))
    if lhs.dtype is not rhs.dtype:
        raise MXNetError('%s: operands have different dtypes (%s and %s); cast one with '
                         'astype()' % (opname, lhs.dtype, rhs.dtype))
    if lhs.dtype not in _FLOATS:
        raise MXNetError('%s only supports floating point arrays, got %s; cast with '
                         "astype('float32')" % (opname, lhs.dtype))


def _shape_error(opname, lhs, rhs, ta, tb):
    return MXNetError('%s shape error: %s X %s (transpose_a=%s, transpose_b=%s)'
                      % (opname, tuple(lhs.shape), tuple(rhs.shape), ta, tb))


@register('dot', inputs=('lhs', 'rhs'), params=_DOT_PARAMS)
def dot(lhs, rhs, transpose_a, transpose_b, forward_stype):
    """Dot product of two arrays.

    1-D x 1-D gives the inner product (shape (1,)); otherwise the last axis of ``lhs`` (the first
    with transpose_a) is contracted with the first axis of ``rhs`` (the last with transpose_b),
    and the output shape is the remaining axes of lhs followed by those of rhs.
    """
    if lhs.dim() == 2 and rhs.dim() == 2 and not (transpose_a or transpose_b) and \
            forward_stype is None:
        # the common case in one call: torch checks the dtypes and the inner dimension, and
        # only the failure path works out which of MXNet's errors to raise
        try:
            res = _mm(lhs, rhs)
        except RuntimeError:
            _check_operands('dot', lhs, rhs, forward_stype)
            raise _shape_error('dot', lhs, rhs, transpose_a, transpose_b) from None
        if res.dtype in _FLOATS:
            return res
    _check_operands('dot', lhs, rhs, forward_stype)
    ld, rd = lhs.dim(), rhs.dim()
    if ld == 0 or rd == 0:
        raise MXNetError('dot: scalar tensors are not supported by this operator')
    if ld == 1 and rd == 1:
        if transpose_a or transpose_b:
            raise MXNetError('dot: cannot transpose vectors')
        if lhs.shape[0] != rhs.shape[0]:
            raise _shape_error('dot', lhs, rhs, transpose_a, transpose_b)
        return torch.dot(lhs, rhs).reshape(1)
    if ld == 2 and rd == 2:
        a = lhs.t() if transpose_a else lhs
        b = rhs.t() if transpose_b else rhs
        if a.shape[1] != b.shape[0]:
            raise _shape_error('dot', lhs, rhs, transpose_a, transpose_b)
        return torch.mm(a, b)
    if transpose_a:
        a = lhs.reshape(lhs.shape[0], -1).t()
        lout = lhs.shape[1:]
    else:
        a = lhs.reshape(-1, lhs.shape[-1])
        lout = lhs.shape[:-1]
    if transpose_b:
        b = rhs.reshape(-1, rhs.shape[-1]).t()
        rout = rhs.shape[:-1]
    else:
        b = rhs.reshape(rhs.shape[0], -1)
        rout = rhs.shape[1:]
    if a.shape[1] != b.shape[0]:
        raise _shape_error('dot', lhs, rhs, transpose_a, transpose_b)
    shape = (lout if ld > 1 else ()) + (rout if rd > 1 else ())
    return torch.mm(a, b).reshape(shape)


@register('batch_dot', aliases=('_npx_batch_dot',), inputs=('lhs', 'rhs'), params=_DOT_PARAMS)
def batch_dot(lhs, rhs, *, transpose_a, transpose_b, forward_stype):
    """Batchwise dot product: ``out[i] = dot(lhs[i], rhs[i])`` over the leading axes of N-D
    (N >= 3) arrays, on their last two axes."""
    _check_operands('batch_dot', lhs, rhs, forward_stype)
    if lhs.dim() < 3 or lhs.dim() != rhs.dim():
        raise MXNetError('batch_dot currently only supports N-D x N-D arrays (N >= 3), got %s '
                         'X %s' % (tuple(lhs.shape), tuple(rhs.shape)))
    a = lhs.transpose(-1, -2) if transpose_a else lhs
    b = rhs.transpose(-1, -2) if transpose_b else rhs
    if a.shape[:-2] != b.shape[:-2] or a.shape[-1] != b.shape[-2]:
        raise _shape_error('batch_dot', lhs, rhs, transpose_a, transpose_b)
    return torch.matmul(a, b)


@register('khatri_rao', monitor_prefix='arg', inputs=('*args',), key_var_num_args='num_args',
          params={'num_args': (Int, REQUIRED)}, differentiable=False)
def khatri_rao(*args, num_args):
    """Computes the column-wise Khatri-Rao product of the input matrices (M_i, N) -> (prod M_i,
    N)."""
    if not args:
        raise MXNetError('khatri_rao: needs at least one input matrix')
    n = args[0].shape[1] if args[0].dim() == 2 else None
    for a in args:
        if a.dim() != 2 or a.shape[1] != n:
            raise MXNetError('khatri_rao: inputs must be matrices with the same number of '
                             'columns, got shapes %s' % ([tuple(x.shape) for x in args],))
    out = args[0]
    for a in args[1:]:
        out = (out.unsqueeze(1) * a.unsqueeze(0)).reshape(-1, n)
    return out if len(args) > 1 else out.clone()


# ------------------------------------------------------------------------------ im2col / col2im
_CONV_PARAMS = {'kernel': (Shape, REQUIRED), 'stride': (Shape, ()), 'dilate': (Shape, ()),
                'pad': (Shape, ())}


def _conv_geometry(opname, kernel, stride, dilate, pad):
    # MXNet 1.9.1 declares 1-D and 3-D kernels but its kernels fail on them; only 2-D works
    if len(kernel) != 2:
        raise MXNetError('%s: only 2-D kernels are supported (MXNet 1.9.1 fails on other '
                         'kernel dimensions), got kernel=%s' % (opname, kernel))
    stride = stride or (1, 1)
    dilate = dilate or (1, 1)
    pad = pad or (0, 0)
    for name, v in (('stride', stride), ('dilate', dilate), ('pad', pad)):
        if len(v) != 2:
            raise MXNetError('%s: %s must have the same number of dimensions as kernel, but '
                             'kernel is %s while %s is %s' % (opname, name, kernel, name, v))
    if min(kernel) <= 0 or min(stride) <= 0 or min(dilate) <= 0:
        raise MXNetError('%s: kernel, stride and dilate must be positive, got %s, %s, %s'
                         % (opname, kernel, stride, dilate))
    return stride, dilate, pad


def _out_sizes(opname, spatial, kernel, stride, dilate, pad, what):
    out = []
    for n, k, s, d, p in zip(spatial, kernel, stride, dilate, pad):
        span = d * (k - 1) + 1
        if span > n + 2 * p:
            raise MXNetError('%s: kernel size exceeds %s (kernel %s, dilate %s, size %s, pad %s)'
                             % (opname, what, kernel, dilate, tuple(spatial), pad))
        out.append((n + 2 * p - span) // s + 1)
    return out


@register('im2col', named_outputs=True, params=_CONV_PARAMS)
def im2col(data, *, kernel, stride, dilate, pad):
    """Extracts sliding local blocks of (N, C, H, W) into columns (N, C * prod(kernel), L)."""
    stride, dilate, pad = _conv_geometry('im2col', kernel, stride, dilate, pad)
    if data.dim() != 4:
        raise MXNetError('im2col: data must have shape (N, C, H, W), got %s'
                         % (tuple(data.shape),))
    _out_sizes('im2col', data.shape[2:], kernel, stride, dilate, pad, 'input')
    return F.unfold(data, kernel, dilate, pad, stride)


@register('col2im', named_outputs=True,
          params=dict({'output_size': (Shape, REQUIRED)}, **_CONV_PARAMS))
def col2im(data, *, output_size, kernel, stride, dilate, pad):
    """Combines columns (N, C * prod(kernel), L) into an array (N, C, *output_size), summing
    overlapping values (the adjoint of im2col)."""
    stride, dilate, pad = _conv_geometry('col2im', kernel, stride, dilate, pad)
    if len(output_size) != 2:
        raise MXNetError('col2im: output_size %s must have the same number of dimensions as '
                         'kernel %s' % (output_size, kernel))
    h, w = _out_sizes('col2im', output_size, kernel, stride, dilate, pad, 'output size')
    kk = kernel[0] * kernel[1]
    if data.dim() != 3 or data.shape[1] % kk or data.shape[2] != h * w:
        raise MXNetError('col2im: data of shape %s does not match output_size %s with kernel %s,'
                         ' stride %s, dilate %s, pad %s' % (tuple(data.shape), output_size,
                                                             kernel, stride, dilate, pad))
    return F.fold(data, output_size, kernel, dilate, pad, stride)
