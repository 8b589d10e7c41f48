"""Loss-head operators: SoftmaxOutput, the *RegressionOutput family, SVMOutput,
softmax_cross_entropy, CTCLoss and IdentityAttachKLSparseReg.

Most of these are "output" layers: their backward ignores the incoming head gradient and
produces the loss gradient directly (MXNet's convention for the final layer of a symbolic
network). Each such operator is a ``torch.autograd.Function`` whose backward computes MXNet's
formula; the label never receives a gradient (MXNet writes zeros).
"""
import torch
import torch.nn.functional as F

from ..base import MXNetError
from . import param_shapes
from .registry import register, Float, Bool, Enum

_SMALL = 1e-8  # softmax_cross_entropy clamps probabilities from below before the log


def _needs_graph(*tensors):
    return torch.is_grad_enabled() and any(t is not None and t.requires_grad for t in tensors)


def _label_grad(ctx, label):
    return torch.zeros_like(label) if ctx.needs_input_grad[1] else None


def _check_label_dtype(opname, data, label):
    if label.dtype != data.dtype:
        raise MXNetError('%s: label dtype %s differs from data dtype %s; cast the label with '
                         'astype(%r)' % (opname, str(label.dtype)[6:], str(data.dtype)[6:],
                                         str(data.dtype)[6:]))


def _check_real(opname, t, argname='data'):
    if not t.is_floating_point():
        raise MXNetError('%s: %s must be a floating point array, got %s; cast it with '
                         "astype('float32')" % (opname, argname, str(t.dtype)[6:]))


# ---------------------------------------------------------------------------------------------
# SoftmaxOutput
# ---------------------------------------------------------------------------------------------

# below this many classes torch's softmax over the last axis of a CPU array takes a slow
# scalar path; over the first axis of the transposed rows it stays vectorized (same formula,
# and a copy back to row-major memory costs less than the difference)
_NARROW_ROWS, _FAST_T_MIN = 16, 512  # classes below, elements from
_FAST_T_DTYPES = (torch.float32, torch.float64)


def _softmax_rows(data):
    """Softmax over the rows of a 2-d array (contiguous)."""
    n = data.numel()
    # a symbolic size (torch.export with a dynamic batch) takes the plain path: no guard on it
    if data.shape[1] < _NARROW_ROWS and type(n) is int and n >= _FAST_T_MIN and \
            data.is_cpu and data.dtype in _FAST_T_DTYPES:
        return torch.softmax(data.t(), 0).t().contiguous()
    return torch.softmax(data, 1)


def _softmax_output_forward(data, multi_output, preserve_shape):
    if data.dim() == 2 and not multi_output:
        return _softmax_rows(data)
    if multi_output:
        n, k = data.shape[0], data.shape[1]
        return torch.softmax(data.reshape(n, k, -1), 1).reshape(data.shape)
    if preserve_shape:
        return torch.softmax(data, -1)
    return torch.softmax(data.reshape(data.shape[0], -1), 1).reshape(data.shape)


def _valid_count(label, ignore_label):
    """Labels whose integer value differs from ignore_label (at least 1), as a 0-d tensor."""
    return (label.long() != int(ignore_label)).sum().clamp_(min=1).to(label.dtype)


# SoftmaxOutput's parameters after ignore_label when they are the defaults
_PLAIN_TAIL = (False, False, False, 'null', False, 0.0)


_CLASS_IDS = {}  # (classes, device) -> arange(classes), for the one-hot of the labels


def _class_ids(k, device):
    ids = _CLASS_IDS.get((k, device))
    if ids is None:
        ids = _CLASS_IDS[(k, device)] = torch.arange(k, device=device)
    return ids


def _softmax_output_grad(out, label, p):
    if p[0] == 1.0 and p[2:] == _PLAIN_TAIL and out.dim() == 2 and label.dim() == 1:
        # the default parameters: softmax minus the one-hot label (none outside the classes)
        hit = _class_ids(out.shape[1], out.device) == label.long().unsqueeze(1)
        return out - hit.to(out.dtype)
    (grad_scale, ignore_label, multi_output, use_ignore, preserve_shape, normalization,
     out_grad, smooth_alpha) = p
    if label.shape == out.shape:  # probability labels: no ignore, no normalization
        grad = (out - label) * grad_scale
        return grad * out if out_grad else grad
    ignore = int(ignore_label)
    if multi_output:
        n, k = out.shape[0], out.shape[1]
        out3 = out.reshape(n, k, -1)
        lab = label.reshape(n, -1)
        idx = lab.long()
        hit = torch.arange(k, device=out.device).view(1, k, 1) == idx.unsqueeze(1)
        grad = out3 - hit.to(out.dtype)
        if use_ignore:
            grad = grad.masked_fill((idx == ignore).unsqueeze(1), 0)
        if normalization == 'batch':
            scale = grad_scale / out3.shape[2] / n
        elif normalization == 'valid':
            scale = grad_scale / _valid_count(lab, ignore_label)
        else:
            scale = grad_scale / out3.shape[2]
        grad = (grad * scale).reshape(out.shape)
        return grad * out if out_grad else grad
    if preserve_shape:
        rows, k = out.numel() // out.shape[-1], out.shape[-1]
    else:
        rows, k = out.shape[0], out.numel() // out.shape[0]
    out2 = out.reshape(rows, k)
    lab = label.reshape(-1)
    idx = lab[:rows].long()
    hit = torch.arange(k, device=out.device).unsqueeze(0) == idx.unsqueeze(1)
    if smooth_alpha:
        grad = out2 - torch.where(hit, 1.0 - smooth_alpha, smooth_alpha / (k - 1)).to(out.dtype)
    else:
        grad = out2 - hit.to(out.dtype)
    if use_ignore:
        grad = grad.masked_fill((idx == ignore).unsqueeze(1), 0)
    if normalization == 'batch':
        scale = grad_scale / lab.shape[0]
    elif normalization == 'valid':
        scale = grad_scale / _valid_count(lab, ignore_label)
    else:
        scale = grad_scale
    if normalization == 'valid' or scale != 1.0:  # skip the default's no-op multiply
        grad = grad * scale
    grad = grad.reshape(out.shape)
    return grad * out if out_grad else grad


class _SoftmaxOutputFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, data, label, p):
        out = _softmax_output_forward(data, p[2], p[4])
        ctx.save_for_backward(out, label)
        ctx.p = p
        return out

    @staticmethod
    def backward(ctx, _head_grad):
        out, label = ctx.saved_tensors
        return _softmax_output_grad(out, label, ctx.p), _label_grad(ctx, label), None


def _check_softmax_label(data, label, multi_output):
    if label.shape == data.shape:
        return
    if multi_output:
        n, k = data.shape[0], data.shape[1]
        ok = (label.shape == (n, data.numel() // n // k) or label.shape == (n,) + data.shape[2:]
              or label.shape == (n, 1) + data.shape[2:])
    else:
        ok = label.shape == data.shape[:-1]
    if not ok:
        raise MXNetError('SoftmaxOutput: label shape %s does not fit data shape %s (expected %s)'
                         % (tuple(label.shape), tuple(data.shape),
                            (data.shape[0],) + data.shape[2:] if multi_output
                            else tuple(data.shape[:-1])))


@register('SoftmaxOutput', inputs=('data', 'label'), aliases=('Softmax',),
          infer_shape=param_shapes.softmax_label,
          params={'grad_scale': (Float, 1.0), 'ignore_label': (Float, -1.0),
                  'multi_output': (Bool, False), 'use_ignore': (Bool, False),
                  'preserve_shape': (Bool, False),
                  'normalization': (Enum('null', 'batch', 'valid'), 'null'),
                  'out_grad': (Bool, False), 'smooth_alpha': (Float, 0.0)})
def softmax_output(data, label, *, grad_scale, ignore_label, multi_output, use_ignore,
                   preserve_shape, normalization, out_grad, smooth_alpha):
    """Computes the gradient of cross entropy loss with respect to softmax output."""
    if label is None:
        raise MXNetError('SoftmaxOutput: required input label is missing')
    if multi_output or not data.is_floating_point() or label.dtype is not data.dtype or \
            label.shape != data.shape[:-1]:
        # anything but the usual class-index labels: the checks in MXNet's order
        _check_real('SoftmaxOutput', data)
        _check_softmax_label(data, label, multi_output)
        _check_label_dtype('SoftmaxOutput', data, label)
    if not (torch.is_grad_enabled() and (data.requires_grad or label.requires_grad)):
        return _softmax_output_forward(data, multi_output, preserve_shape)
    p = (grad_scale, ignore_label, multi_output, use_ignore, preserve_shape, normalization,
         out_grad, smooth_alpha)
    return _SoftmaxOutputFn.apply(data, label, p)


# ---------------------------------------------------------------------------------------------
# Regression outputs
# ---------------------------------------------------------------------------------------------

def _lin_grad(out, label):
    return out - label


def _mae_grad(out, label):
    return torch.where(out - label > 0, 1.0, -1.0).to(out.dtype)


class _RegressionFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, data, label, forward, backward, grad_scale):
        out = forward(data)
        ctx.save_for_backward(out, label)
        ctx.backward_fn = backward
        ctx.grad_scale = grad_scale
        return out

    @staticmethod
    def backward(ctx, _head_grad):
        out, label = ctx.saved_tensors
        num_output = label.numel() // label.shape[0] if label.dim() else 1
        grad = ctx.backward_fn(out, label.reshape(out.shape)) * (ctx.grad_scale / num_output)
        return grad, _label_grad(ctx, label), None, None, None


def _regression(opname, data, label, grad_scale, forward, backward):
    if label is None:
        raise MXNetError('%s: required input label is missing' % opname)
    _check_real(opname, data)
    if label.numel() != data.numel() or (label.dim() and data.dim()
                                          and label.shape[0] != data.shape[0]):
        raise MXNetError('%s: shape inconsistent, label shape %s does not match data shape %s'
                         % (opname, tuple(label.shape), tuple(data.shape)))
    _check_label_dtype(opname, data, label)
    if not _needs_graph(data, label):
        return forward(data)
    return _RegressionFn.apply(data, label, forward, backward, grad_scale)


_REG_PARAMS = {'grad_scale': (Float, 1.0)}


def _regression_label(shapes, p):
    data = shapes[0]
    if data is not None and shapes[1] is None:
        shapes[1] = (data[0],) if len(data) == 2 and data[1] == 1 else tuple(data)
    return shapes


@register('LinearRegressionOutput', inputs=('data', 'label'), params=_REG_PARAMS,
          infer_shape=_regression_label)
def linear_regression_output(data, label, *, grad_scale):
    """Computes and optimizes for squared loss during backward propagation.
    Just outputs ``data`` during forward propagation."""
    return _regression('LinearRegressionOutput', data, label, grad_scale, torch.clone, _lin_grad)


@register('MAERegressionOutput', inputs=('data', 'label'), params=_REG_PARAMS,
          infer_shape=_regression_label)
def mae_regression_output(data, label, *, grad_scale):
    """Computes mean absolute error of the input. Just outputs ``data`` during forward
    propagation; the gradient is ``sign(data - label) * grad_scale / num_output``."""
    return _regression('MAERegressionOutput', data, label, grad_scale, torch.clone, _mae_grad)


@register('LogisticRegressionOutput', inputs=('data', 'label'), params=_REG_PARAMS,
          infer_shape=_regression_label)
def logistic_regression_output(data, label, *, grad_scale):
    """Applies a logistic function to the input; the gradient is
    ``(sigmoid(data) - label) * grad_scale / num_output``."""
    return _regression('LogisticRegressionOutput', data, label, grad_scale, torch.sigmoid,
                       _lin_grad)


# ---------------------------------------------------------------------------------------------
# SVMOutput
# ---------------------------------------------------------------------------------------------

def _svm_grad(out, label, margin, reg, use_linear):
    k = out.shape[-1]
    out2 = out.reshape(-1, k)
    idx = label.reshape(-1)[:out2.shape[0]].long()
    hit = torch.arange(k, device=out.device).unsqueeze(0) == idx.unsqueeze(1)
    # the label column is pushed above +margin, every other column below -margin
    signed = torch.where(hit, out2, -out2)
    active = (margin > signed).to(out.dtype)
    if use_linear:
        grad = active * reg
    else:
        grad = 2 * (margin - signed) * active * reg
    return torch.where(hit, -grad, grad).reshape(out.shape)


class _SVMOutputFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, data, label, margin, reg, use_linear):
        ctx.save_for_backward(data, label)
        ctx.p = (margin, reg, use_linear)
        return data.clone()

    @staticmethod
    def backward(ctx, _head_grad):
        out, label = ctx.saved_tensors
        return _svm_grad(out, label, *ctx.p), _label_grad(ctx, label), None, None, None


@register('SVMOutput', named_outputs=True, merges=False,
          inputs=('data', 'label'), infer_shape=param_shapes.softmax_label,
          params={'margin': (Float, 1.0), 'regularization_coefficient': (Float, 1.0),
                  'use_linear': (Bool, False)})
def svm_output(data, label, *, margin, regularization_coefficient, use_linear):
    """Computes support vector machine based transformation of the input: outputs ``data``
    during forward; the backward is the L2-SVM (or L1-SVM with ``use_linear``) gradient."""
    if label is None:
        raise MXNetError('SVMOutput: required input label is missing')
    _check_real('SVMOutput', data)
    if tuple(label.shape) != tuple(data.shape[:-1]):
        raise MXNetError('SVMOutput: label shape %s must be data shape without its last axis, %s'
                         % (tuple(label.shape), tuple(data.shape[:-1])))
    _check_label_dtype('SVMOutput', data, label)
    if not _needs_graph(data, label):
        return data.clone()
    return _SVMOutputFn.apply(data, label, margin, regularization_coefficient, use_linear)


# ---------------------------------------------------------------------------------------------
# softmax_cross_entropy
# ---------------------------------------------------------------------------------------------

def _softmax_ce(data, label):
    prob = torch.softmax(data, 1)
    # labels outside [0, classes) are clipped (MXNet reads outside its buffer for them)
    picked = prob.gather(1, label.long().clamp_(0, prob.shape[1] - 1).unsqueeze(1))
    return prob, -torch.log(picked.clamp(min=_SMALL)).sum().reshape(1)


class _SoftmaxCEFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, data, label):
        prob, loss = _softmax_ce(data, label)
        ctx.save_for_backward(prob, label)
        return loss

    @staticmethod
    def backward(ctx, head_grad):
        prob, label = ctx.saved_tensors
        if ctx.needs_input_grad[1]:
            raise MXNetError('softmax_cross_entropy: cannot take gradient with respect to label')
        hit = torch.arange(prob.shape[1], device=prob.device).unsqueeze(0) == \
            label.long().unsqueeze(1)
        return (prob - hit.to(prob.dtype)) * head_grad, None


@register('softmax_cross_entropy', inputs=('data', 'label'),
          infer_shape=param_shapes.softmax_label)
def softmax_cross_entropy(data, label):
    """Calculate cross entropy of softmax output and one-hot label."""
    if data.dim() != 2 or label is None or label.dim() != 1 or label.shape[0] != data.shape[0]:
        raise MXNetError('softmax_cross_entropy: data must be 2D (batch, classes) and label 1D '
                         '(batch,), got %s and %s' % (tuple(data.shape), None if label is None
                                                     else tuple(label.shape)))
    _check_label_dtype('softmax_cross_entropy', data, label)
    if not _needs_graph(data, label):
        return _softmax_ce(data, label)[1]
    return _SoftmaxCEFn.apply(data, label)


# ---------------------------------------------------------------------------------------------
# CTCLoss
# ---------------------------------------------------------------------------------------------

def _ctc_inputs(p):
    names = ['data', 'label']
    if p['use_data_lengths']:
        names.append('data_lengths')
    if p['use_label_lengths']:
        names.append('label_lengths')
    return names


@register('CTCLoss', named_outputs=True, inputs=('data', 'label', 'data_lengths', 'label_lengths'),
          aliases=('ctc_loss', '_contrib_CTCLoss', '_contrib_ctc_loss'),
          params={'use_data_lengths': (Bool, False), 'use_label_lengths': (Bool, False),
                  'blank_label': (Enum('first', 'last'), 'first')},
          input_rule=_ctc_inputs)
def ctc_loss(data, label, data_lengths=None, label_lengths=None, *, use_data_lengths,
             use_label_lengths, blank_label):
    """Connectionist Temporal Classification Loss.

    ``data`` holds unnormalized activations in (sequence, batch, alphabet) layout; ``label``
    (batch, max_label_length) is padded with 0 (``blank_label='first'``) or -1 (``'last'``)
    unless ``use_label_lengths`` gives the lengths. Returns the loss per batch element;
    alignments that are impossible give a loss (and gradient) of 0, as in MXNet."""
    if data.dtype != torch.float32:
        raise MXNetError('CTCLoss: data must be float32, got %s' % str(data.dtype)[6:])
    if data.dim() != 3 or label is None or label.dim() != 2 or label.shape[0] != data.shape[1]:
        raise MXNetError('CTCLoss: data must be (sequence, batch, alphabet) and label '
                         '(batch, max_label_length) with the same batch size, got %s and %s'
                         % (tuple(data.shape), None if label is None else tuple(label.shape)))
    if label.shape[1] > data.shape[0]:
        raise MXNetError('CTCLoss: the max number of labels (%d) cannot exceed the maximum '
                         'sequence length of the data (%d)' % (label.shape[1], data.shape[0]))
    if use_label_lengths and not use_data_lengths and label_lengths is None:
        label_lengths = data_lengths  # given positionally as the third input
    seq_len, batch, alphabet = data.shape
    blank = 0 if blank_label == 'first' else alphabet - 1
    targets = _lround(label)
    if use_label_lengths:
        if label_lengths is None:
            raise MXNetError('CTCLoss: use_label_lengths=True needs the label_lengths input')
        tlen = _lround(label_lengths.to(label.dtype))
    else:
        pad = targets == (0 if blank_label == 'first' else -1)
        tlen = torch.where(pad.any(1), pad.int().argmax(1),
                           torch.full_like(pad[:, 0], label.shape[1], dtype=torch.int32)).long()
    if use_data_lengths:
        if data_lengths is None:
            raise MXNetError('CTCLoss: use_data_lengths=True needs the data_lengths input')
        lengths = data_lengths.float()
        ilen = _lround(lengths)
        # MXNet rounds the lengths for the loss but truncates them when it masks the gradient
        keep = torch.arange(seq_len, device=data.device).unsqueeze(1) < lengths.long()
        data = torch.where(keep.unsqueeze(2), data, data.detach())
    else:
        ilen = torch.full((batch,), seq_len, dtype=torch.long, device=data.device)
    # padding entries beyond each length are never read, but must be valid class indices;
    # labels outside the alphabet are clipped into it (MXNet reads outside its buffer for them)
    targets = targets.clamp(0, alphabet - 1)
    return F.ctc_loss(torch.log_softmax(data, 2), targets, ilen, tlen, blank=blank,
                      reduction='none', zero_infinity=True)


def _lround(t):
    """Round half away from zero to int64 (C's lround), as MXNet reads lengths and labels."""
    if not t.is_floating_point():
        return t.long()
    return (torch.sign(t) * torch.floor(t.abs() + 0.5)).long()


# ---------------------------------------------------------------------------------------------
# IdentityAttachKLSparseReg
# ---------------------------------------------------------------------------------------------

class _KLSparseRegFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, data, moving_avg, p):
        ctx.save_for_backward(data)
        ctx.moving_avg = moving_avg
        ctx.p = p
        return data.clone()

    @staticmethod
    def backward(ctx, head_grad):
        data, = ctx.saved_tensors
        target, penalty, momentum = ctx.p
        avg = ctx.moving_avg
        k = data.shape[-1]
        with torch.no_grad():
            avg.mul_(momentum).add_(data.reshape(-1, k).mean(0), alpha=1 - momentum)
        reg = penalty * (-target / avg + (1 - target) / (1 - avg))
        return head_grad + reg.reshape((1,) * (data.dim() - 1) + (k,)), None, None


@register('IdentityAttachKLSparseReg', named_outputs=True, merges=False,
          input_init={'moving_avg': '["zero", {}]'},
          inputs=('data', 'moving_avg'), aux=('moving_avg',),
          infer_shape=param_shapes.kl_sparse_reg,
          params={'sparseness_target': (Float, 0.1), 'penalty': (Float, 0.001),
                  'momentum': (Float, 0.9)})
def identity_attach_kl_sparse_reg(data, moving_avg, *, sparseness_target, penalty, momentum):
    """Apply a sparse regularization to the output a sigmoid activation function.

    Forward copies ``data``; backward updates the auxiliary state ``moving_avg`` (the running
    mean activation per unit) and adds the KL sparseness penalty to the gradient."""
    if moving_avg is None:
        raise MXNetError('IdentityAttachKLSparseReg expects 2 inputs (data and the auxiliary '
                         'state moving_avg), but got 1')
    if data.dtype != torch.float32:
        raise MXNetError('IdentityAttachKLSparseReg: data must be float32, got %s'
                         % str(data.dtype)[6:])
    if data.dim() < 2 or moving_avg.numel() != data.shape[-1]:
        raise MXNetError('IdentityAttachKLSparseReg: moving_avg must have shape (%d,), got %s'
                         % (data.shape[-1], tuple(moving_avg.shape)))
    if not _needs_graph(data):
        return data.clone()
    return _KLSparseRegFn.apply(data, moving_avg.detach().view(-1),
                                (sparseness_target, penalty, momentum))
