"""``mx.nd.contrib`` front ends of the AdamW and LAMB multi-tensor update operators.

They take lists of arrays and a plain-number ``rescale_grad`` and call the ``_adamw_update``,
``_multi_lamb_update``, ... operators of mxcompat/ops/optimizer_ops.py.
"""
from ..base import numeric_types
from .ndarray import NDArray, full
from .register import functions as _functions

__all__ = ['adamw_update', 'mp_adamw_update', 'multi_adamw_update', 'multi_mp_adamw_update',
           'multi_lamb_update', 'multi_mp_lamb_update']

_internal = _functions('_internal')


def _rescale_array(rescale_grad, ctx):
    """rescale_grad as a 1-element NDArray on ``ctx`` (the operators take it as an input)."""
    if isinstance(rescale_grad, NDArray):
        return rescale_grad.as_in_context(ctx)
    if not isinstance(rescale_grad, numeric_types):
        raise TypeError('rescale_grad must be a number or an NDArray, got %s'
                        % type(rescale_grad).__name__)
    return full((1,), rescale_grad, ctx=ctx)


def _interleave(*lists):
    return [a for group in zip(*lists) for a in group]


def adamw_update(weight, grad, mean, var, rescale_grad, lr, eta, beta1=0.9, beta2=0.999,
                 epsilon=1e-8, wd=0, clip_gradient=-1, out=None, name=None, **kwargs):
    """Update function for AdamW optimizer: mean and var are updated in place and
    ``weight - eta * (lr * mean / (sqrt(var) + epsilon) + wd * weight)`` is returned (written
    to `out`). The update is skipped when rescale_grad is NaN, Inf or 0."""
    return _internal['_adamw_update'](
        weight=weight, grad=grad, mean=mean, var=var,
        rescale_grad=_rescale_array(rescale_grad, weight.context), lr=lr, eta=eta, beta1=beta1,
        beta2=beta2, epsilon=epsilon, wd=wd, clip_gradient=clip_gradient, out=out, name=name,
        **kwargs)


def mp_adamw_update(weight, grad, mean, var, weight32, rescale_grad, lr, eta, beta1=0.9,
                    beta2=0.999, epsilon=1e-8, wd=0, clip_gradient=-1, out=None, name=None,
                    **kwargs):
    """Multi-precision AdamW update: like `adamw_update`, with float32 states and a float32
    master copy `weight32` of the weight."""
    return _internal['_mp_adamw_update'](
        weight=weight, grad=grad, mean=mean, var=var, weight32=weight32,
        rescale_grad=_rescale_array(rescale_grad, weight.context), lr=lr, eta=eta, beta1=beta1,
        beta2=beta2, epsilon=epsilon, wd=wd, clip_gradient=clip_gradient, out=out, name=name,
        **kwargs)


def multi_adamw_update(weights, grads, mean, var, rescale_grad, lrs, wds, etas, out=None,
                       name=None, size=0, **kwargs):
    """AdamW update of lists of weights, gradients, means and variances (one learning rate,
    weight decay and eta per weight)."""
    size = size or len(weights)
    data = _interleave(weights, grads, mean, var)
    data.append(_rescale_array(rescale_grad, weights[0].context))
    return _internal['_multi_adamw_update'](*data, out=out, num_weights=size, lrs=lrs, wds=wds,
                                            etas=etas, name=name, **kwargs)


def multi_mp_adamw_update(weights, grads, mean, var, weights32, rescale_grad, lrs, wds, etas,
                          out=None, name=None, size=0, **kwargs):
    """Multi-precision AdamW update of lists of weights (float32 states and master copies)."""
    size = size or len(weights)
    data = _interleave(weights, grads, mean, var, weights32)
    data.append(_rescale_array(rescale_grad, weights[0].context))
    return _internal['_multi_mp_adamw_update'](*data, out=out, num_weights=size, lrs=lrs,
                                               wds=wds, etas=etas, name=name, **kwargs)


def multi_lamb_update(weights, grads, mean, var, step_count, lrs, wds, out=None,
                      num_tensors=0, **kwargs):
    """LAMB update of lists of weights, gradients, means and variances.

    Parameters
    ----------
    weights, grads, mean, var : lists of NDArrays
    step_count : list of ints, the update step of each tensor
    lrs, wds : lists of floats, the learning rate and weight decay of each tensor
    out : list of NDArrays where the updated weights are stored
    num_tensors : int, the number of tensors (default: len(weights))
    """
    num_tensors = num_tensors or len(weights)
    return _internal['_multi_lamb_update'](*_interleave(weights, grads, mean, var), out=out,
                                           num_tensors=num_tensors, step_count=step_count,
                                           learning_rates=lrs, wds=wds, **kwargs)


def multi_mp_lamb_update(weights, grads, mean, var, weights32, step_count, lrs, wds, out=None,
                         num_tensors=0, **kwargs):
    """Multi-precision LAMB update of lists of weights (float32 states and master copies
    `weights32`)."""
    num_tensors = num_tensors or len(weights)
    return _internal['_multi_mp_lamb_update'](*_interleave(weights, grads, mean, var, weights32),
                                              out=out, num_tensors=num_tensors,
                                              step_count=step_count, learning_rates=lrs,
                                              wds=wds, **kwargs)
