"""The Python-level functions of ``mx.nd.contrib``: control flow (``foreach``, ``while_loop``,
``cond``), ``rand_zipfian`` and the ``isinf`` / ``isfinite`` / ``isnan`` checks.

They run imperatively on NDArrays, as MXNet's own ``python/mxnet/ndarray/contrib.py`` does.
"""
import math

import numpy as np

import mxcompat as mx
from ..base import _as_list
from ..context import current_context
from . import ndarray
from .random import uniform

__all__ = ['rand_zipfian', 'foreach', 'while_loop', 'cond', 'isinf', 'isfinite', 'isnan',
           # module-level names MXNet's contrib namespace also exposes
           '_flatten_list', '_flatten', '_regroup', '_get_rescale_grad', '_as_list',
           'current_context', 'uniform', 'math', 'np', 'mx', 'ndarray']


def _flatten_list(nested_list):
    return [item for sublist in nested_list for item in sublist]


def rand_zipfian(true_classes, num_sampled, range_max, ctx=None):
    """Draw random samples from an approximately log-uniform or Zipfian distribution.

    This operation randomly samples *num_sampled* candidates the range of integers
    [0, range_max). The elements of sampled_candidates are drawn with replacement from the base
    distribution ``P(class) = (log(class + 2) - log(class + 1)) / log(range_max + 1)``.

    Parameters
    ----------
    true_classes : NDArray
        A 1-D NDArray of the target classes.
    num_sampled: int
        The number of classes to randomly sample.
    range_max: int
        The number of possible classes.
    ctx : Context
        Device context of output. Default is current context.

    Returns
    -------
    samples: NDArray
        The sampled candidate classes in 1-D `int64` dtype.
    expected_count_true: NDArray
        The expected count for true classes in 1-D `float64` dtype.
    expected_count_sample: NDArray
        The expected count for sampled candidates in 1-D `float64` dtype.
    """
    if ctx is None:
        ctx = current_context()
    log_range = math.log(range_max + 1)
    rand = uniform(0, log_range, shape=(num_sampled,), dtype='float64', ctx=ctx)
    return zipfian_counts(rand, true_classes.as_in_context(ctx), num_sampled, range_max)


def zipfian_counts(rand, true_classes, num_sampled, range_max):
    """rand_zipfian's arithmetic, on NDArrays or Symbols alike: the classes drawn from uniform
    samples ``rand`` of [0, log(range_max + 1)), and the expected counts of the true and the
    sampled classes."""
    log_range = math.log(range_max + 1)
    sampled_classes = (rand.exp() - 1).astype('int64') % range_max
    true_cls = true_classes.astype('float64')
    expected_count_true = ((true_cls + 2.0) / (true_cls + 1.0)).log() / log_range * num_sampled
    sampled_cls_fp64 = sampled_classes.astype('float64')
    expected_prob_sampled = ((sampled_cls_fp64 + 2.0) / (sampled_cls_fp64 + 1.0)).log() \
        / log_range
    return sampled_classes, expected_count_true, expected_prob_sampled * num_sampled


def _flatten(args, inout_str):
    if isinstance(args, ndarray.NDArray):
        return [args], int(0)
    assert isinstance(args, (list, tuple)), \
        '%s must be (nested) list of NDArray, but got %s of type %s' \
        % (inout_str, str(args), str(type(args)))
    flat, fmts = [], []
    for i in args:
        arg, fmt = _flatten(i, inout_str)
        flat.extend(arg)
        fmts.append(fmt)
    return flat, fmts


def _regroup(args, fmt):
    if isinstance(fmt, int):
        if fmt == 0:
            return args[0], args[1:]
        return args[:fmt], args[fmt:]
    assert isinstance(args, (list, tuple)), \
        'output must be (nested) list of arrays, but got %s of type %s' \
        % (str(args), str(type(args)))
    ret = []
    for i in fmt:
        res, args = _regroup(args, i)
        ret.append(res)
    return ret, args


def _check_all(items, msg):
    assert all(isinstance(i, ndarray.NDArray) for i in items), msg


def foreach(body, data, init_states):
    """Run a for loop with user-defined computation over NDArrays on dimension 0.

    ``body(data1, states) -> (out, states)`` runs on each slice of ``data`` (an NDArray or a
    list of NDArrays); the outputs of all iterations are stacked along a new first axis.

    Parameters
    ----------
    body : a Python function.
        Define computation in an iteration.
    data: an NDArray or a list of NDArrays.
        The input data.
    init_states: an NDArray or nested lists of NDArrays.
        The initial values of the loop states.

    Returns
    -------
    outputs: an NDArray or nested lists of NDArrays.
        The output data concatenated from the output of all iterations.
    states: an NDArray or nested lists of NDArrays.
        The loop states in the last iteration.
    """
    flat, _ = _flatten(data, 'foreach input')
    _check_all(flat, 'data should be an NDArray or a nested list of NDArrays')
    flat, _ = _flatten(init_states, 'foreach states')
    _check_all(flat, 'init_states should be an NDArray or a nested list of NDArrays')

    single = isinstance(data, ndarray.NDArray)
    num_iters = data.shape[0] if single else data[0].shape[0]
    states = init_states
    outputs = []
    out_fmt = None
    for i in range(num_iters):
        eles = data[i] if single else [d[i] for d in data]
        outs, states = body(eles, states)
        outs, out_fmt = _flatten(outs, 'foreach output')
        outputs.append(outs)
    stacked = [mx.nd.stack(*out) for out in zip(*outputs)]
    outputs, _ = _regroup(stacked, out_fmt)
    return outputs, states


def _to_python_scalar(inputs, type_, name):
    if hasattr(inputs, 'asscalar'):
        inputs = inputs.asscalar()
    try:
        return type_(inputs)
    except Exception:
        raise ValueError('Cannot convert %s to python %s' % (name, type_.__name__)) from None


def while_loop(cond, func, loop_vars, max_iterations=None):
    """Run a while loop with user-defined computation and loop condition.

    ``cond(*loop_vars)`` returns a scalar NDArray; while it is true (and fewer than
    ``max_iterations`` steps ran), ``func(*loop_vars) -> (step_output, new_loop_vars)`` runs.
    The step outputs are stacked along a new first axis of length ``max_iterations`` (rows
    after the last step are left uninitialized, as in MXNet).

    Parameters
    ----------
    cond: a Python function.
        The loop condition.
    func: a Python function.
        The loop body.
    loop_vars: an NDArray or nested lists of NDArrays.
        The initial values of the loop variables.
    max_iterations: a python int.
        Maximum number of iterations.

    Returns
    -------
    outputs: an NDArray or nested lists of NDArrays
        stacked output from each step
    states: an NDArray or nested lists of NDArrays
        final state
    """
    def _func_wrapper(loop_vars):
        step_output, new_loop_vars = func(*loop_vars)
        if step_output is None:
            step_output = []
        if new_loop_vars is None:
            new_loop_vars = []
        if isinstance(step_output, tuple):
            step_output = list(step_output)
        if isinstance(new_loop_vars, tuple):
            new_loop_vars = list(new_loop_vars)
        new_loop_vars = _as_list(new_loop_vars)
        if len(loop_vars) != len(new_loop_vars):
            raise ValueError('The length of loop_vars should be consistent during the loop')
        return step_output, new_loop_vars

    if max_iterations is None:
        raise ValueError('max_iterations should be specified')
    max_iterations = _to_python_scalar(max_iterations, int, 'max_iteration')
    if len(loop_vars) == 0:
        raise ValueError('loop_vars should contain at least one element')

    steps = 0
    outputs = []
    out_fmt = None
    single = isinstance(loop_vars, ndarray.NDArray)
    loop_vars = _as_list(loop_vars)
    while steps < max_iterations and \
            _to_python_scalar(cond(*loop_vars), bool, 'Return value of cond'):
        step_output, loop_vars = _func_wrapper(loop_vars)
        step_output, out_fmt = _flatten(step_output, 'while output')
        outputs.append(step_output)
        steps += 1
        if len(outputs) != steps or len(step_output) != len(outputs[0]):
            raise ValueError('Number of elements in step_output should be the same in each step')
    stacked_outputs = []
    for i_th, items in enumerate(zip(*outputs), 1):
        items = [x.expand_dims(0) for x in items]
        if steps != max_iterations and items:
            pad_shape = [max_iterations - steps] + list(items[0].shape[1:])
            items.append(ndarray.empty(shape=pad_shape, ctx=items[0].context,
                                       dtype=items[0].dtype))
        try:
            stacked_outputs.append(mx.nd.concat(*items, dim=0))
        except Exception:
            raise ValueError('\n'.join(
                ['Shapes of %d-th elements in step_outputs are inconsistent, which are:' % i_th]
                + ['  Step %d, shape is %s' % (i, str(x.shape)) for i, x in enumerate(items)]
            )) from None
    if out_fmt is not None:
        stacked_outputs, _ = _regroup(stacked_outputs, out_fmt)
    if single:
        loop_vars = loop_vars[0]
    return stacked_outputs, loop_vars


def cond(pred, then_func, else_func):
    """Run an if-then-else using user-defined condition and computation.

    ``pred`` is a scalar NDArray; ``then_func()`` runs when it is true, else ``else_func()``,
    and its result is returned.

    Parameters
    ----------
    pred: a MXNet NDArray representing a scalar.
        The branch condition.
    then_func: a Python function.
        The computation to be executed if `pred` is true.
    else_func: a Python function.
        The computation to be executed if `pred` is false.

    Returns
    -------
    outputs: an NDArray or nested lists of NDArrays, representing the result of computation.
    """
    if _to_python_scalar(pred, bool, 'pred'):
        return then_func()
    return else_func()


def isinf(data):
    """Performs an element-wise check to determine if the NDArray contains an infinite element
    or not: 1 where the element is positive or negative infinity, 0 otherwise."""
    return data.abs() == np.inf


def isfinite(data):
    """Performs an element-wise check to determine if the NDArray contains an infinite element
    or not: 1 where the element is finite (not infinity and not NaN), 0 otherwise."""
    not_nan = data == data  # pylint: disable=comparison-with-itself
    return mx.nd.logical_and(data.abs() != np.inf, not_nan)


def isnan(data):
    """Performs an element-wise check to determine if the NDArray contains a NaN element or
    not: 1 where the element is NaN, 0 otherwise."""
    return data != data  # pylint: disable=comparison-with-itself


def _get_rescale_grad(rescale_grad, ctx=None):
    if ctx is None:
        ctx = mx.cpu()
    if not isinstance(rescale_grad, ndarray.NDArray):
        return ndarray.full(shape=(1,), val=rescale_grad, ctx=ctx)
    return rescale_grad.as_in_context(ctx)
