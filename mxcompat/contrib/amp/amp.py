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
from . import lists  # noqa: F401  (amp.lists.symbol_fp16, as in MXNet)
from .loss_scaler import LossScaler

__all__ = ['init', 'init_trainer', 'scale_loss', 'unscale', 'convert_symbol', 'convert_model',
           'convert_hybrid_block', 'convert_bucketing_module', 'list_lp16_ops', 'list_fp32_ops',
           'list_lp16_fp32_ops', 'list_conditional_fp32_ops', 'list_widest_type_cast',
           'list_loss_output_functions', 'list_lp16_use_fp32_params']

bfloat16 = BFLOAT16_NP


class AMPError(MXNetError, AssertionError):
    """Bad input to an AMP function: an MXNetError, and the AssertionError MXNet raises."""

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
    raise AMPError("AMP supports only float16 or bfloat16 as a %s, got %r; pass 'float16' "
                     "(GPU) or 'bfloat16' (CPU)" % (what, target_dtype))


def _check_list(value, what):
    if value is not None and not isinstance(value, list):
        raise AMPError('%s should be a list, got %s' % (what, type(value).__name__))


def _check_conditional(ops):
    for entry in ops:
        if not (isinstance(entry, (tuple, list)) and len(entry) == 3 and
                isinstance(entry[0], str) and isinstance(entry[1], str) and
                isinstance(entry[2], list)):
            raise AMPError('conditional_fp32_ops should be a list of (str, str, list of str), '
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
        raise AMPError('AMP not initialized, did you forget to call amp.init()?')
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
        raise AMPError('Loss scaler is not initialized, did you forget to call '
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


def _check_convert_lists(target, target_dtype_ops, fp32_ops, conditional_fp32_ops):
    """The lists convert_symbol uses (the defaults where None), checked as MXNet checks them."""
    lists = LISTS[target]
    _check_list(target_dtype_ops, 'target_dtype_ops')
    _check_list(fp32_ops, 'fp32_ops')
    _check_list(conditional_fp32_ops, 'conditional_fp32_ops')
    target_ops = lists['lp16'] if target_dtype_ops is None else target_dtype_ops
    fp32 = lists['fp32'] if fp32_ops is None else fp32_ops
    conditional = lists['conditional_fp32'] if conditional_fp32_ops is None \
        else conditional_fp32_ops
    _check_conditional(conditional)
    cond_names = [c[0] for c in conditional]
    for (a, an), (b, bn) in (((target_ops, 'target_dtype_ops'), (fp32, 'fp32_ops')),
                             ((target_ops, 'target_dtype_ops'),
                              (cond_names, 'conditional_fp32_ops')),
                             ((cond_names, 'conditional_fp32_ops'), (fp32, 'fp32_ops'))):
        common = set(a) & set(b)
        if common:
            raise AMPError('Ops cannot be in two or more lists. Common ops in %s and %s %s'
                             % (an, bn, sorted(common)))
    known = set(lists['lp16'] + lists['fp32'] + lists['lp16_fp32'] +
                [c[0] for c in lists['conditional_fp32']])
    illegal = set(target_ops + fp32 + cond_names) - known
    if illegal:
        raise AMPError('Can only choose ops from one of the lists amp.list_lp16_ops, '
                         'list_fp32_ops, list_lp16_fp32_ops and list_conditional_fp32_ops '
                         'of the target dtype; %s are in none of them' % sorted(illegal))
    cond = {}
    for op_name, pname, values in conditional:
        cond.setdefault(op_name, {})[pname] = list(values)
    return target_ops, fp32, cond


def _param_dtypes(sym, data_names, model_param_names, target, cast_optional_params):
    """Set the ``__dtype__`` attribute of the converted symbol's inputs as MXNet does: the
    type inferred with float32 data (float32 where none is), for the model's parameters (or,
    with none named, for the inputs that had one); with cast_optional_params, a parameter of
    unknown type that feeds casts to one type takes that type."""
    from ...base import dtype_flag
    from ...symbol.symbol import _topo
    # MXNet infers these types from the data alone, not from the inputs' __dtype__
    bare = sym.__copy__()
    for node in _topo(bare._outputs):
        if node.op is None:
            node.attrs.pop('__dtype__', None)
    arg_types, _, aux_types = bare.infer_type_partial(**{n: 'float32' for n in data_names})
    names = sym.list_arguments() + sym.list_auxiliary_states()
    inferred = dict(zip(names, list(arg_types) + list(aux_types)))
    flags = {n: 0 if t is None else dtype_flag(t) for n, t in inferred.items()}
    nodes = _topo(sym._outputs)
    if cast_optional_params:
        seen = {}
        for node in nodes:
            if node.op is None or node.op.name not in ('amp_cast', 'amp_multicast'):
                continue
            if node.op.name == 'amp_cast':
                want = dtype_flag(node.params['dtype'])
            elif all(i.op is None for i, _ in node.inputs):
                want = dtype_flag(target)
            else:
                continue
            for i, _ in node.inputs:
                if i.op is not None:
                    continue
                if i.name not in seen:
                    if inferred.get(i.name) is None:
                        seen[i.name] = flags[i.name] = want
                elif seen[i.name] != want:
                    flags[i.name] = 0
    for node in nodes:
        if node.op is None and (node.name in model_param_names if model_param_names
                                else '__dtype__' in node.attrs):
            node.attrs['__dtype__'] = str(flags.get(node.name, 0))


_CONVERT_PARAMS = """target_dtype : {'float16', 'bfloat16'}, default 'float16'
        The target dtype: cast layers are added where lower precision computation can be
        leveraged.
    target_dtype_ops : list of strs, optional
        Override the list of operator names casted to target_dtype
        (default: ``list_lp16_ops(target_dtype)``).
    fp32_ops : list of strs, optional
        Override the list of operator names casted to FP32
        (default: ``list_fp32_ops(target_dtype)``).
    conditional_fp32_ops : list of (str, str, list of str), optional
        Override the list of operators casted to FP32 for some parameter values:
        (name of the operator, name of the parameter, list of values of the parameter that make
        the operator be casted to FP32) (default: ``list_conditional_fp32_ops(target_dtype)``).
    excluded_sym_names : list of strs, optional
        Names of the symbols (nodes) that users want to exclude from being executed in lower
        precision.
    cast_optional_params : bool, default False
        Whether to cast the arg_params and aux_params that don't require to be in LP16
        because of a cast layer following it, but will reduce the computation and memory
        overhead of the model if casted."""


def convert_symbol(sym, target_dtype="float16", target_dtype_ops=None,
                   fp32_ops=None, conditional_fp32_ops=None,
                   excluded_sym_names=None, data_names=None,
                   cast_optional_params=False):
    from ...symbol import Symbol
    from ...symbol.low_precision import reduce_precision
    if not isinstance(sym, Symbol):
        raise AMPError('First argument to convert_symbol should be Symbol, got %s'
                         % type(sym).__name__)
    target = _target_name(target_dtype)
    target_ops, fp32, cond = _check_convert_lists(target, target_dtype_ops, fp32_ops,
                                                  conditional_fp32_ops)
    _check_list(excluded_sym_names, 'excluded_sym_names')
    inputs = sym.list_inputs()
    if data_names is None:
        attrs = sym.attr_dict()
        data_names = [n for n in inputs if '__dtype__' not in attrs.get(n, {})]
    model_param_names = set(inputs) - set(data_names)
    out = reduce_precision(sym, target, set(target_ops), set(fp32),
                           set(LISTS[target]['widest']), cond, set(excluded_sym_names or ()),
                           set(data_names), cast_optional_params,
                           LISTS[target]['lp16_use_fp32_params'])
    _param_dtypes(out, data_names, model_param_names, target, cast_optional_params)
    return out


def _cast_to_attr(arrays, attrs, names):
    """Cast the arrays of names whose ``__dtype__`` attribute says another type."""
    from ...base import DTYPE_MX_TO_NP
    for name in names:
        flag = attrs.get(name, {}).get('__dtype__')
        if name in arrays and flag not in (None, '-1'):
            dtype = DTYPE_MX_TO_NP[int(flag)]
            if arrays[name].dtype != dtype:
                arrays[name] = arrays[name].astype(dtype)


def convert_model(sym, arg_params, aux_params, target_dtype="float16", target_dtype_ops=None,
                  fp32_ops=None, conditional_fp32_ops=None, excluded_sym_names=None,
                  cast_optional_params=False):
    if not isinstance(arg_params, dict) or not isinstance(aux_params, dict):
        raise AMPError('arg_params and aux_params of convert_model should be dicts of name '
                         'to NDArray')
    param_names = list(arg_params) + list(aux_params)
    data_names = list(set(sym.list_inputs()) - set(param_names))
    sym = convert_symbol(sym, target_dtype, target_dtype_ops, fp32_ops, conditional_fp32_ops,
                         excluded_sym_names or [], data_names, cast_optional_params)
    attrs = sym.attr_dict()
    _cast_to_attr(arg_params, attrs, sym.list_arguments())
    _cast_to_attr(aux_params, attrs, sym.list_auxiliary_states())
    return sym, arg_params, aux_params


def convert_hybrid_block(block, target_dtype="float16", target_dtype_ops=None,
                         fp32_ops=None, conditional_fp32_ops=None,
                         excluded_sym_names=None, ctx=None,
                         cast_optional_params=False):
    from ...context import gpu
    from ...gluon import HybridBlock, SymbolBlock
    if not isinstance(block, HybridBlock):
        raise AMPError('block input should be a HybridBlock, got %s' % type(block).__name__)
    if not block._cached_graph:
        raise RuntimeError(
            "Please first call block.hybridize() and then run forward with "
            "this block at least once before calling export.")
    inputs, sym = block._cached_graph
    converted = convert_symbol(sym, target_dtype, target_dtype_ops, fp32_ops,
                               conditional_fp32_ops, excluded_sym_names,
                               data_names=[i.name for i in inputs],
                               cast_optional_params=cast_optional_params)
    arg_names = set(converted.list_arguments())
    arrays, kinds = {}, {}
    for name, param in block.collect_params().items():
        arrays[name] = param._reduce()
        kinds[name] = 'arg' if name in arg_names else 'aux'
    _cast_to_attr(arrays, converted.attr_dict(), list(arrays))
    ret = SymbolBlock(converted, inputs)
    for name, param in ret.collect_params().items():
        if name in arrays and param.dtype != arrays[name].dtype:
            param.cast(arrays[name].dtype)
    ret.collect_params().load_dict({'%s:%s' % (kinds[n], n): a for n, a in arrays.items()},
                                   ctx=gpu(0) if ctx is None else ctx)
    return ret


def convert_bucketing_module(bucketing_mod, target_dtype="float16", target_dtype_ops=None,
                             fp32_ops=None, conditional_fp32_ops=None,
                             excluded_sym_names=None, cast_optional_params=False):
    from ...module import BucketingModule
    if not isinstance(bucketing_mod, BucketingModule):
        raise AMPError('module should be instance of bucketing module, got %s'
                         % type(bucketing_mod).__name__)
    if not bucketing_mod._buckets:
        raise AMPError('Bucketing Module should not be empty')
    if not bucketing_mod.params_initialized:
        raise AMPError('bucketing_mod params should be initialized for mixed precision '
                         'conversion')
    arg_params = bucketing_mod._curr_module._arg_params
    aux_params = bucketing_mod._curr_module._aux_params
    sym_dict = {}
    for key, mod in bucketing_mod._buckets.items():
        sym_dict[key], arg_params, aux_params = convert_model(
            mod._symbol, arg_params, aux_params, target_dtype=target_dtype,
            target_dtype_ops=target_dtype_ops, fp32_ops=fp32_ops,
            conditional_fp32_ops=conditional_fp32_ops,
            excluded_sym_names=excluded_sym_names, cast_optional_params=cast_optional_params)
    return BucketingModule.load_dict(
        sym_dict, sym_gen=bucketing_mod._sym_gen, arg_params=arg_params,
        aux_params=aux_params, default_bucket_key=bucketing_mod._default_bucket_key,
        logger=bucketing_mod.logger, context=bucketing_mod._context,
        work_load_list=bucketing_mod._work_load_list,
        fixed_param_names=bucketing_mod._fixed_param_names,
        state_names=bucketing_mod._state_names, group2ctxs=bucketing_mod._group2ctxs,
        compression_params=bucketing_mod._compression_params)


convert_symbol.__doc__ = """Given a symbol object representing a neural network of data type
    FP32 and target_dtype, add cast layers according to the op lists (target_dtype_ops,
    fp32_ops, conditional_fp32_ops) if provided, otherwise use the default lists provided by the
    framework.

    Parameters
    ----------
    sym : Symbol
        FP32 neural network symbol
    %s
    data_names : list of strs, optional
        A list of strings that represent input data tensor names to the model (default: the
        inputs without a ``__dtype__`` attribute).

    Returns
    -------
    Symbol
        The symbol with amp_cast and amp_multicast nodes.
    """ % _CONVERT_PARAMS
convert_model.__doc__ = """API for converting a model from FP32 model to a mixed precision model.
    MXNet tries to convert the FP32 model to mixed precision model by adding
    cast layers using amp_cast and amp_multicast operators which can be used for inference
    use cases. The decision on which cast layer to add is based on hardcoded lists for
    Automatic Mixed Precision in MXNet, which the arguments can override.

    Parameters
    ----------
    sym : Symbol
        FP32 neural network symbol
    arg_params : dict
        Dictionary of name to `NDArray`.
    aux_params : dict
        Dictionary of name to `NDArray`.
    %s

    Returns
    -------
    (Symbol, dict, dict)
        The converted symbol and the parameters, cast to the types it expects.
    """ % _CONVERT_PARAMS
convert_hybrid_block.__doc__ = """Given a hybrid block/symbol block representing a FP32 model
    and a target_dtype, return a block with mixed precision support which can be used for
    inference use cases.

    Parameters
    ----------
    block : HybridBlock or SymbolBlock object
        FP32 HybridBlock or SymbolBlock object, hybridized and run once
    %s
    ctx : Context, default gpu(0)
        Context on which model parameters should live

    Returns
    -------
    SymbolBlock
    """ % _CONVERT_PARAMS
convert_bucketing_module.__doc__ = """Given a bucketing module cast the symbols associated with
    the BucketingModule and params if cast_optional_params is set.

    Parameters
    ----------
    bucketing_mod : BucketingModule instance
        With its parameters initialized.
    %s

    Returns
    -------
    BucketingModule
    """ % _CONVERT_PARAMS


def _lister(name, key, what):
    def fn(target_dtype):
        return LISTS[_target_name(target_dtype)][key]
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = """Get %s.

    Parameters
    ----------
    target_dtype : {'float16', 'bfloat16'}
        The low precision type (numpy.float16 and amp.bfloat16 are accepted too).
    """ % what
    return fn


list_lp16_ops = _lister('list_lp16_ops', 'lp16', 'the default list of LP16 ops for AMP')
list_fp32_ops = _lister('list_fp32_ops', 'fp32', 'the default list of FP32 ops for AMP')
list_lp16_fp32_ops = _lister('list_lp16_fp32_ops', 'lp16_fp32',
                             'the default list of ops which run in both LP16 and FP32')
list_conditional_fp32_ops = _lister(
    'list_conditional_fp32_ops', 'conditional_fp32',
    'the conditional fp32 ops list: (operator, parameter, values that make it run in FP32)')
list_widest_type_cast = _lister('list_widest_type_cast', 'widest',
                                'the widest type cast ops list')
list_loss_output_functions = _lister('list_loss_output_functions', 'loss_output',
                                     'the loss function list')
list_lp16_use_fp32_params = _lister(
    'list_lp16_use_fp32_params', 'lp16_use_fp32_params',
    'the params restrict for LP16: per operator, its inputs in order, a name marking one kept '
    'in FP32 (None for float16)')
