"""Automatic mixed precision (``mx.contrib.amp``), as in MXNet 1.9.1.

``init()`` makes the operators of MXNet's lists run in float16 (or bfloat16) or float32 with
casts of their inputs: it rebinds their entries in the operator table (``mxcompat.ops.amp``),
so imperative calls, symbols, ``F`` and hybridized blocks all follow it, and nothing changes
for anyone who never calls it. ``init_trainer`` and ``scale_loss`` add MXNet's dynamic loss
scaling to a Gluon Trainer: a step whose gradients overflow is skipped and halves the scale.

Example (a training loop as GluonCV and GluonNLP write it)::

    amp.init()
    net = ...; net.initialize(ctx=ctx); net.hybridize()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {...})
    amp.init_trainer(trainer)
    with autograd.record():
        loss = loss_fn(net(x), y)
        with amp.scale_loss(loss, trainer) as scaled_loss:
            autograd.backward(scaled_loss)
    trainer.step(batch_size)
"""
import contextlib
import logging

import numpy as np
import torch

from ...base import MXNetError, BFLOAT16_NP
from ...ops import amp as _ops_amp
from ...ops.amp_lists import LISTS
from .loss_scaler import LossScaler

__all__ = ['init', 'init_trainer', 'scale_loss', 'unscale', 'convert_symbol', 'convert_model',
           'convert_hybrid_block', 'convert_bucketing_module', 'list_lp16_ops', 'list_fp32_ops',
           'list_lp16_fp32_ops', 'list_conditional_fp32_ops', 'list_widest_type_cast',
           'list_loss_output_functions', 'list_lp16_use_fp32_params']

bfloat16 = BFLOAT16_NP

_amp_initialized = False
_amp_loss_scale_initialized = False
_loss_scaler = None


def _target_name(target_dtype, what='target_dtype'):
    """'float16' or 'bfloat16' for any spelling of them; MXNetError otherwise."""
    if isinstance(target_dtype, str) and target_dtype in ('float16', 'bfloat16'):
        return target_dtype
    if target_dtype is np.float16 or target_dtype is torch.float16 or \
            (isinstance(target_dtype, np.dtype) and target_dtype == np.float16):
        return 'float16'
    if target_dtype is torch.bfloat16 or \
            (isinstance(target_dtype, np.dtype) and target_dtype == bfloat16):
        return 'bfloat16'
    raise MXNetError("AMP supports only float16 or bfloat16 as a %s, got %r; pass 'float16' "
                     "(GPU) or 'bfloat16' (CPU)" % (what, target_dtype))


def _check_list(value, what):
    if value is not None and not isinstance(value, list):
        raise MXNetError('%s should be a list, got %s' % (what, type(value).__name__))


def _check_conditional(ops):
    for entry in ops:
        if not (isinstance(entry, (tuple, list)) and len(entry) == 3 and
                isinstance(entry[0], str) and isinstance(entry[1], str) and
                isinstance(entry[2], list)):
            raise MXNetError('conditional_fp32_ops should be a list of (str, str, list of str), '
                             'got the entry %r' % (entry,))


def _route_arithmetic():
    """Make NDArray's arithmetic operators call the table's operators, as MXNet's do, so
    that they follow the lists too (``bfloat16_array * 2`` runs ``_mul_scalar`` in float32,
    ``float16_array + float32_array`` ``broadcast_add`` in float32); without AMP they inline
    torch calls."""
    from ...ndarray import arith, op
    from ...ndarray.ndarray import NDArray
    for names, fn in ((('__add__', '__radd__'), arith.add),
                      (('__sub__',), arith.subtract),
                      (('__mul__', '__rmul__'), arith.multiply),
                      (('__truediv__', '__div__'), arith.divide),
                      (('__mod__',), arith.modulo),
                      (('__pow__',), arith.power)):
        for name in names:
            setattr(NDArray, name, fn)
    for names, fn in ((('__rsub__',), arith.subtract),
                      (('__rtruediv__', '__rdiv__'), arith.divide),
                      (('__rmod__',), arith.modulo),
                      (('__rpow__',), arith.power)):
        for name in names:
            setattr(NDArray, name, lambda self, other, fn=fn: fn(other, self))
    NDArray.__neg__ = op.negative


def init(target_dtype='float16', target_precision_ops=None,
         conditional_fp32_ops=None, fp32_ops=None):
    """Initialize AMP (automatic mixed precision).

    This needs to be done before model creation.

    Parameters
    ----------
    target_dtype : {'float16', 'bfloat16'}
        Target low precision type for AMP. Currently only float16 and bfloat16 are supported.
    target_precision_ops : list of string
        Override the list of functions casted to target_dtype. Entries in this list
        are names of the functions casted to target_dtype.
    conditional_fp32_ops : list of (string, string, list of string)
        Override the list of functions conditionally casted to FP32. The format
        of the list is (name of the function, name of the parameter,
        list of values of the parameter that make the function be casted to FP32).
    fp32_ops : list of string
        Override the list of functions casted to FP32. Entries in this list
        are names of the functions casted to FP32.
    """
    global _amp_initialized, _loss_scaler
    if _amp_initialized:
        return
    name = _target_name(target_dtype)
    _check_list(target_precision_ops, 'target_precision_ops')
    _check_list(fp32_ops, 'fp32_ops')
    _check_list(conditional_fp32_ops, 'conditional_fp32_ops')
    if conditional_fp32_ops is not None:
        _check_conditional(conditional_fp32_ops)
    lists = LISTS[name]
    user = [k for k, v in (('lp16', target_precision_ops), ('fp32', fp32_ops),
                           ('conditional_fp32', conditional_fp32_ops)) if v is not None]
    _loss_scaler = LossScaler()
    _ops_amp.apply(torch.float16 if name == 'float16' else torch.bfloat16,
                   lists['lp16'] if target_precision_ops is None else target_precision_ops,
                   lists['fp32'] if fp32_ops is None else fp32_ops,
                   lists['conditional_fp32'] if conditional_fp32_ops is None
                   else conditional_fp32_ops,
                   lists['widest'], lists['lp16_use_fp32_params'], lists['loss_output'],
                   lambda: _loss_scaler.loss_scale, user)
    _route_arithmetic()
    _amp_initialized = True
    logging.info("Using AMP")


def _check_trainer(optimizer_or_trainer):
    from ...gluon.trainer import Trainer
    from ...optimizer import Optimizer
    if isinstance(optimizer_or_trainer, Trainer):
        return
    if isinstance(optimizer_or_trainer, Optimizer):
        raise TypeError("AMP is currently only compatible with Gluon Trainer")
    raise TypeError("optimizer_or_trainer should be a Gluon Trainer or "
                    "an optimizer, instead is %s" % type(optimizer_or_trainer))


def init_trainer(optimizer_or_trainer):
    """Initialize trainer or optimizer to work with AMP dynamic loss scaling.

    Parameters
    ----------
    optimizer_or_trainer : Optimizer or Trainer
        MXNet Optimizer or Gluon trainer to initialize with AMP
    """
    global _amp_loss_scale_initialized
    if not _amp_initialized:
        raise MXNetError('AMP not initialized, did you forget to call amp.init()?')
    _check_trainer(optimizer_or_trainer)
    if _amp_loss_scale_initialized:
        loss_scaler = LossScaler()
    else:  # the first trainer shares the scaler of the loss output operators
        _amp_loss_scale_initialized = True
        loss_scaler = _loss_scaler
    optimizer_or_trainer._amp_loss_scaler = loss_scaler
    optimizer_or_trainer._amp_original_scale = optimizer_or_trainer._scale


@contextlib.contextmanager
def scale_loss(loss, optimizer_or_trainer):
    """Scale the loss by the trainer's current loss scale (a context manager yielding the
    scaled loss, or a list of them for a list of losses); the trainer's next step divides the
    gradients by the scale again.

    Parameters
    ----------
    loss : NDArray or list of NDArray
        The loss(es).
    optimizer_or_trainer : Trainer
        A trainer that went through ``init_trainer``.
    """
    scaler = getattr(optimizer_or_trainer, '_amp_loss_scaler', None)
    if scaler is None:
        raise MXNetError('Loss scaler is not initialized, did you forget to call '
                         'amp.init_trainer()?')
    scale = scaler.loss_scale
    optimizer_or_trainer._scale = optimizer_or_trainer._amp_original_scale / scale
    if isinstance(loss, (list, tuple)):
        yield [l * scale for l in loss]
    else:
        yield scale * loss


def unscale(optimizer_or_trainer):
    """Check and unscale the gradients manually. This function should only be used
    if accessing gradients is necessary, e.g. for gradient clipping.

    Parameters
    ----------
    optimizer_or_trainer : Optimizer or Trainer
        MXNet optimizer or Gluon Trainer used when scaling the gradients
    """
    _check_trainer(optimizer_or_trainer)
    grads = [g._t for p in optimizer_or_trainer._params if p._grad is not None
             for g in p._sync_grads()]
    if grads:
        with torch.no_grad():
            torch._foreach_mul_(grads, optimizer_or_trainer._scale)
    optimizer_or_trainer._scale = 1.


def _unsupported(name):
    def fn(*args, **kwargs):
        raise NotImplementedError('mx.contrib.amp.%s is not supported by mxcompat yet; use '
                                  'amp.init() before building the model instead' % name)
    fn.__name__ = name
    fn.__doc__ = 'mx.contrib.amp.%s (not supported by mxcompat yet).' % name
    return fn


convert_symbol = _unsupported('convert_symbol')
convert_model = _unsupported('convert_model')
convert_hybrid_block = _unsupported('convert_hybrid_block')
convert_bucketing_module = _unsupported('convert_bucketing_module')


def _list(target_dtype, key):
    return LISTS[_target_name(target_dtype)][key]


def list_lp16_ops(target_dtype):
    """Get the default list of LP16 ops for AMP
    """
    return _list(target_dtype, 'lp16')


def list_fp32_ops(target_dtype):
    """Get the default list of FP32 ops for AMP
    """
    return _list(target_dtype, 'fp32')


def list_lp16_fp32_ops(target_dtype):
    """Get the default list of ops which run in both LP16 and FP32
    """
    return _list(target_dtype, 'lp16_fp32')


def list_conditional_fp32_ops(target_dtype):
    """Get the conditional fp32 ops list
    """
    return _list(target_dtype, 'conditional_fp32')


def list_widest_type_cast(target_dtype):
    """Get the widest type cast ops list
    """
    return _list(target_dtype, 'widest')


def list_loss_output_functions(target_dtype):
    """Get loss function list
    """
    return _list(target_dtype, 'loss_output')


def list_lp16_use_fp32_params(target_dtype):
    """ Get the params restrict for LP16

    """
    return _list(target_dtype, 'lp16_use_fp32_params')
