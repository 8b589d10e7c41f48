"""Mixed precision in the operator table: what ``mx.contrib.amp.init`` switches on.

MXNet's lists (``amp_lists``) say, per operator, in which float type it runs. ``apply`` rebinds
each listed operator of the table to its implementation behind a cast of its float inputs
(``OpDef.rebind``), so ``mx.nd``, ``mx.sym`` graphs, ``F`` and hybridized blocks all run it
so, and operators not listed, or any operator before ``init``, run with nothing in between:

* low precision operators (FullyConnected, Convolution, ...) cast float32 inputs to the
  target type, the inputs listed as float32 parameters excepted;
* float32 operators (softmax, norms, exp, log, losses, ...) cast float16 / bfloat16 inputs to
  float32, as do conditional ones when a parameter has one of the listed values
  (``Activation(act_type='softrelu')``);
* widest-type operators (elementwise and broadcast arithmetic, Concat, ...) cast low precision
  inputs to float32 when any input is float32;
* the loss output operators (SoftmaxOutput, ...) called through ``mx.nd`` multiply their
  ``grad_scale`` by the current loss scale.

A cast is ``amp_cast``'s: float32, float16 and bfloat16 arrays convert, others pass unchanged.
Auxiliary states and inputs an operator updates in place are never cast.
"""
import torch

from ..base import MXNetError
from .registry import all_ops

__all__ = ['apply']

_CASTABLE = frozenset([torch.float32, torch.float16, torch.bfloat16])
_LOW = frozenset([torch.float16, torch.bfloat16])


def _cast_to(fn, dtype, keep):
    """fn with its positional float tensors cast to dtype, those at positions in keep
    excepted."""
    castable = _CASTABLE if dtype is not torch.float32 else _LOW

    def cast_inputs(*args, **kwargs):
        return fn(*[a.to(dtype) if i not in keep and isinstance(a, torch.Tensor) and
                    a.dtype in castable else a for i, a in enumerate(args)], **kwargs)
    return cast_inputs


def _when(fn, cast_fn, position, pname, values):
    """cast_fn where parameter pname (positional at position, or a keyword) is in values,
    else fn."""
    def conditional(*args, **kwargs):
        v = kwargs[pname] if pname in kwargs else \
            args[position] if position is not None and len(args) > position else None
        return (cast_fn if str(v) in values else fn)(*args, **kwargs)
    return conditional


def _widest(fn):
    """fn with low precision inputs cast to float32 where any input is float32."""
    def widest(*args, **kwargs):
        if any(isinstance(a, torch.Tensor) and a.dtype is torch.float32 for a in args):
            args = [a.float() if isinstance(a, torch.Tensor) and a.dtype in _LOW else a
                    for a in args]
        return fn(*args, **kwargs)
    return widest


def _scaling_grad(fn, loss_scale, position):
    """fn with its grad_scale parameter multiplied by loss_scale()."""
    def scaled(*args, **kwargs):
        if position is None or 'grad_scale' in kwargs or len(args) <= position:
            kwargs['grad_scale'] = kwargs.get('grad_scale', 1.0) * loss_scale()
        else:
            args = args[:position] + (args[position] * loss_scale(),) + args[position + 1:]
        return fn(*args, **kwargs)
    return scaled


def _param_position(op, pname):
    """Position of parameter pname in a positional call of op's implementation (None where
    the implementation takes its parameters as keywords)."""
    if not op.takes_positionally():
        return None
    return len(op.inputs) + list(op.params).index(pname)


def _kept(op):
    """Positions of the inputs no cast may replace: auxiliary states and inputs the operator
    updates in place (a cast copy would take the update); None where those depend on the
    parameters (the multi-tensor optimizer updates), which are then left as they are."""
    if callable(op.mutate):
        return None
    return set(i for i, n in enumerate(op.inputs) if n in op.aux or n in op.mutate)


def _ops_of(names, what, strict):
    """The table's OpDefs for names (each once); unknown names raise MXNetError when strict
    (a user's list) and are skipped otherwise (MXNet's lists name operators of other builds:
    sparse, cuDNN, MKL-DNN subgraphs)."""
    table = all_ops()
    ops = {}
    for name in names:
        op = table.get(name)
        if op is None:
            if strict:
                raise MXNetError('amp.init: %s names operator %r, which is not registered; '
                                 'list operators by their MXNet names' % (what, name))
            continue
        ops[op.name] = op
    return list(ops.values())


def apply(target_dtype, lp16_ops, fp32_ops, conditional_fp32_ops, widest_ops, fp32_params,
          loss_output_ops, loss_scale, user_lists=()):
    """Rebind the listed operators of the table to run in mixed precision (see the module
    docstring).

    Parameters
    ----------
    target_dtype : torch.dtype
        torch.float16 or torch.bfloat16.
    lp16_ops, fp32_ops : list of str
        Operators run in target_dtype, in float32.
    conditional_fp32_ops : list of (str, str, list of str)
        (operator, parameter, values that make it run in float32).
    widest_ops : list of str
        Operators run in the widest float type of their inputs.
    fp32_params : dict of str -> list of str, or None
        Per low precision operator, its inputs in order, a non-empty name marking one kept in
        float32.
    loss_output_ops : list of str
        Operators whose ``grad_scale`` ``mx.nd`` multiplies by ``loss_scale()``.
    loss_scale : callable
        The current loss scale.
    user_lists : collection of str
        Which of 'lp16', 'fp32', 'conditional_fp32' the user gave (their names must exist).
    """
    for op in _ops_of(lp16_ops, 'target_precision_ops', 'lp16' in user_lists):
        keep = _kept(op)
        if keep is not None:
            keep.update(i for i, n in enumerate((fp32_params or {}).get(op.name, ())) if n)
            op.rebind(_cast_to(op.fn, target_dtype, keep))
    for op in _ops_of(fp32_ops, 'fp32_ops', 'fp32' in user_lists):
        keep = _kept(op)
        if keep is not None:
            op.rebind(_cast_to(op.fn, torch.float32, keep))
    strict = 'conditional_fp32' in user_lists
    for name, pname, values in conditional_fp32_ops:
        for op in _ops_of([name], 'conditional_fp32_ops', strict):
            if pname not in op.params:
                raise MXNetError('amp.init: conditional_fp32_ops names parameter %r of %s, '
                                 'which has none such; its parameters are %s'
                                 % (pname, name, ', '.join(op.params)))
            op.rebind(_when(op.fn, _cast_to(op.fn, torch.float32, _kept(op) or ()),
                            _param_position(op, pname), pname, frozenset(values)))
    for op in _ops_of(widest_ops, 'widest_ops', False):
        op.rebind(_widest(op.fn))
    for op in _ops_of(loss_output_ops, 'loss_output_ops', False):
        op.rebind(op.fn, _scaling_grad(op.fn, loss_scale, _param_position(op, 'grad_scale')))
