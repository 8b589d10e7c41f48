"""Tools for testing (``mx.test_utils``): the helpers MXNet's own unit tests and many user test
suites import.

Tolerances, random draws (the same ``numpy.random`` calls in the same order, so a seeded test sees
the same data) and the checks follow MXNet 1.9.1. The module exports the same names to
``from mxnet.test_utils import *`` as MXNet's, including the modules it imports (``np``, ``rnd``,
``ss``, ...). Sparse storage and MXNet's NumPy interface are not supported: their helpers raise
NotImplementedError.
"""
import bz2
import errno
import gzip
import json
import logging
import numbers
import os
import platform
import struct
import sys
import time
import traceback
import zipfile
from collections import OrderedDict
from contextlib import contextmanager

import numpy as np
import numpy.random as rnd
import numpy.testing as npt
import torch

import mxcompat as mx
from .base import BFLOAT16_NP as _BF16
from .context import Context, current_context
from .ndarray import array
from .util import use_np, getenv, setenv, get_cuda_compute_capability


def default_context():
    """Get default context for regression test."""
    return current_context()


def set_default_context(ctx):
    """Set default context."""
    Context._default_ctx.value = ctx


def default_dtype():
    """Get default data type for regression test."""
    return np.float32


_EXACT = ('bool', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64')


def default_rtols():
    """Get default relative tolerances for data comparisons involving each data type."""
    tols = {np.dtype(np.float16): 1e-2, np.dtype(np.float32): 1e-4, np.dtype(np.float64): 1e-5,
            _BF16: 1e-2}
    tols.update((np.dtype(t), 0) for t in _EXACT)
    return tols


def default_atols():
    """Get default absolute tolerances for data comparisons involving each data type."""
    tols = {np.dtype(np.float16): 1e-1, np.dtype(np.float32): 1e-3, np.dtype(np.float64): 1e-20,
            _BF16: 1e-1}
    tols.update((np.dtype(t), 0) for t in _EXACT)
    return tols


def default_numeric_eps():
    """Get default epsilon for finite difference gradient calculations with data type."""
    # powers of two: adding them to an input drops no bits
    return {np.dtype(np.float16): 1.0 / 2 ** 6,
            np.dtype(np.float32): 1.0 / 2 ** 9,
            np.dtype(np.float64): 1.0 / 2 ** 14}


def _tf32_enabled(ctx):
    """Whether float32 matrix products on ``ctx`` run in TF32 (Ampere+ GPUs)."""
    if ctx is None or getattr(ctx, 'device_type', None) != 'gpu':
        return False
    import torch
    try:
        allowed = torch.backends.cuda.matmul.allow_tf32 or torch.backends.cudnn.allow_tf32
        return allowed and get_cuda_compute_capability(ctx) >= 80 and \
            os.environ.get('NVIDIA_TF32_OVERRIDE') != '0'
    except Exception:  # pylint: disable=broad-except
        return False


def effective_dtype(dat):
    """Return the most appropriate dtype for determining the tolerance used in dat comparisons

    Parameters
    ----------
    dat : np.ndarray or mx.nd.array
    """
    dtype = np.dtype(dat.dtype)
    if dtype == np.dtype(np.float32) and _tf32_enabled(getattr(dat, 'ctx', None)):
        return np.dtype(np.float16)
    return dtype


def get_tolerance(dat, tol, default_tol):
    """Return the tolerance to be used for dat comparisons based on the given tol, datatype
    and context.

    Parameters
    ----------
    dat : np.ndarray or mx.nd.array
    tol : float, or a dict of dtype->float
    default_tol : default dict of dtype->float for all types
    """
    if isinstance(tol, numbers.Number):
        return tol
    dtype = effective_dtype(dat)
    tol = {} if tol is None else tol
    return tol.get(dtype, default_tol[dtype])


def get_tols(x, y, rtol, atol):
    """For comparing two datasets 'x' and 'y', what relative and absolute tolerances should be
    used."""
    if not hasattr(x, 'dtype'):
        x = np.asarray(x)
    if not hasattr(y, 'dtype'):
        y = np.asarray(y)
    rtol = max(get_tolerance(x, rtol, default_rtols()), get_tolerance(y, rtol, default_rtols()))
    atol = max(get_tolerance(x, atol, default_atols()), get_tolerance(y, atol, default_atols()))
    return rtol, atol


def get_atol(atol=None, dtype=np.dtype(np.float64)):
    """Get default numerical threshold for regression test."""
    return default_atols()[dtype] if atol is None else atol


def get_rtol(rtol=None, dtype=np.dtype(np.float64)):
    """Get default numerical threshold for regression test."""
    return default_rtols()[dtype] if rtol is None else rtol


def get_etol(etol=None):
    """Get default numerical threshold for regression test."""
    return 0 if etol is None else etol


def random_arrays(*shapes):
    """Generate some random numpy arrays."""
    arrays = [np.array(np.random.randn(), dtype=default_dtype()) if len(s) == 0
              else np.random.randn(*s).astype(default_dtype()) for s in shapes]
    return arrays[0] if len(arrays) == 1 else arrays


def random_uniform_arrays(*shapes, **kwargs):
    """Generate some random numpy arrays."""
    low = kwargs.pop('low', 0.0)
    high = kwargs.pop('high', 1.0)
    dtype = kwargs.pop('dtype', default_dtype())
    if kwargs:
        raise TypeError('Got unexpected argument/s : ' + str(kwargs.keys()))
    return [np.random.uniform(low, high, size=s).astype(dtype) for s in shapes]


def random_sample(population, k):
    """Return a k length list of the elements chosen from the population sequence."""
    assert 0 <= k <= len(population)
    shuffled = population[:]
    np.random.shuffle(shuffled)
    return shuffled[:k]


def _sorted_items(d):
    """Return (key, value) pairs of dict 'd' in a deterministic order (sorted by key)."""
    return sorted(d.items(), key=lambda kv: kv[0])


def _sorted_dict(d):
    """Return ordered dictionary containing items ordered by their keys."""
    return OrderedDict(_sorted_items(d))


def _no_sparse(what):
    return NotImplementedError('mx.test_utils.%s: sparse storage is not supported by mxcompat'
                               % what)


def rand_sparse_ndarray(shape, stype, density=None, dtype=None, distribution=None,
                        data_init=None, rsp_indices=None, modifier_func=None,
                        shuffle_csr_indices=False, ctx=None):
    """Generate a random sparse ndarray (not supported: mxcompat stores arrays densely)."""
    raise _no_sparse('rand_sparse_ndarray')


def create_sparse_array(shape, stype, data_init=None, rsp_indices=None, dtype=None,
                        modifier_func=None, density=.5, shuffle_csr_indices=False):
    """Create a sparse array (not supported: mxcompat stores arrays densely)."""
    raise _no_sparse('create_sparse_array')


def create_sparse_array_zd(shape, stype, density, data_init=None, rsp_indices=None,
                           dtype=None, modifier_func=None, shuffle_csr_indices=False):
    """Create a sparse array (not supported: mxcompat stores arrays densely)."""
    raise _no_sparse('create_sparse_array_zd')


def shuffle_csr_column_indices(csr):
    """Shuffle CSR column indices per row (not supported: mxcompat stores arrays densely)."""
    raise _no_sparse('shuffle_csr_column_indices')


def assign_each(the_input, function):
    """Return ndarray composed of passing each array value through some function"""
    if function is None:
        return np.array(the_input)
    flat = [function(v) for v in np.asarray(the_input).ravel()]
    return np.array(flat, dtype=np.float64).reshape(np.shape(the_input))


def assign_each2(input1, input2, function):
    """Return ndarray composed of passing two array values through some function"""
    if function is None:
        return np.array(input1)
    assert input1.shape == input2.shape
    flat = [function(a, b) for a, b in zip(np.asarray(input1).ravel(),
                                          np.asarray(input2).ravel())]
    return np.array(flat, dtype=np.float64).reshape(input1.shape)


def create_2d_tensor(rows, columns, dtype=np.int64):
    """A (rows, columns) NDArray whose row i holds i (large-tensor tests)."""
    col = mx.nd.arange(0, rows, dtype=dtype).reshape(rows, 1)
    return mx.nd.broadcast_to(col, shape=(rows, columns))


def create_vector(size, dtype=np.int64):
    """The NDArray 0, 1, ..., size - 1 (large-tensor tests)."""
    return mx.nd.arange(0, size, dtype=dtype)


def get_identity_mat(size):
    """A (size, size) float32 identity NDArray."""
    return mx.nd.array(np.eye(size, dtype=np.float32))


def get_identity_mat_batch(size):
    """Two (size, size) identity matrices stacked."""
    eye = np.eye(size, dtype=np.float32)
    return mx.nd.array(np.stack([eye, eye]))


def rand_ndarray(shape, stype='default', density=None, dtype=None, modifier_func=None,
                 shuffle_csr_indices=False, distribution=None, ctx=None):
    """Generate a random (dense) ndarray. Returns the generated ndarray."""
    if stype != 'default':
        raise _no_sparse("rand_ndarray(stype='%s')" % stype)
    ctx = ctx if ctx else default_context()
    return mx.nd.array(random_arrays(shape), dtype=dtype, ctx=ctx)


def rand_shape_2d(dim0=10, dim1=10, allow_zero_size=False):
    low = 0 if allow_zero_size else 1
    return rnd.randint(low, dim0 + 1), rnd.randint(low, dim1 + 1)


def rand_shape_3d(dim0=10, dim1=10, dim2=10, allow_zero_size=False):
    low = 0 if allow_zero_size else 1
    return rnd.randint(low, dim0 + 1), rnd.randint(low, dim1 + 1), rnd.randint(low, dim2 + 1)


def rand_shape_nd(num_dim, dim=10, allow_zero_size=False):
    low = 0 if allow_zero_size else 1
    return tuple(rnd.randint(low, dim + 1, size=num_dim))


def rand_coord_2d(x_low, x_high, y_low, y_high):
    x = np.random.randint(x_low, x_high, dtype=np.int64)
    y = np.random.randint(y_low, y_high, dtype=np.int64)
    return x, y


def np_reduce(dat, axis, keepdims, numpy_reduce_func):
    """Compatible reduce for old version of NumPy.

    Parameters
    ----------
    dat : np.ndarray
        Same as NumPy.
    axis : None or int or list-like
        Same as NumPy.
    keepdims : bool
        Same as NumPy.
    numpy_reduce_func : function
        A NumPy reducing function like ``np.sum`` or ``np.max``.
    """
    if isinstance(axis, int):
        axes = [axis]
    else:
        axes = list(range(dat.ndim)) if axis is None else list(axis)
    ret = dat
    for ax in sorted(axes, reverse=True):
        ret = numpy_reduce_func(ret, axis=ax)
    if keepdims:
        shape = list(dat.shape)
        for ax in axes:
            shape[ax] = 1
        ret = ret.reshape(tuple(shape))
    return ret


# ------------------------------------------------------------------------------ comparisons
def _as_numpy(x):
    """numpy value of an NDArray / array-like (bfloat16 widened to float32)."""
    if isinstance(x, mx.nd.NDArray):
        if x.dtype == _BF16:
            x = x.astype('float32')
        return x.asnumpy()
    return x


def _find_max_violation(a, b, rtol, atol):
    """Finds and returns the location of maximum violation."""
    # equal entries (infinities included) do not violate, as in np.allclose
    with np.errstate(over='ignore', invalid='ignore'):
        absdiff = np.where(np.equal(a, b), 0, np.abs(a - b))
        violation = absdiff / (atol + rtol * np.abs(b) + 1e-20)
    loc = np.argmax(violation)
    return np.unravel_index(loc, violation.shape), np.max(violation)


def same(a, b):
    """Test if two NumPy arrays are the same.

    Parameters
    ----------
    a : np.ndarray
    b : np.ndarray
    """
    return np.array_equal(a, b)


def checkShapes(a, b):
    """Raise AssertionError unless a and b have the same shape."""
    if a.shape != b.shape:
        raise AssertionError(npt.build_err_msg(
            [a, b], err_msg='a.shape = {} and b.shape = {} are not equal'
            .format(str(a.shape), str(b.shape))))


def almost_equal(a, b, rtol=None, atol=None, equal_nan=False, use_broadcast=True):
    """Test if two numpy arrays are almost equal."""
    if not use_broadcast:
        checkShapes(a, b)
    return np.allclose(a, b, rtol=get_rtol(rtol), atol=get_atol(atol), equal_nan=equal_nan)


def locationError(a, b, index, names, maxError=False):
    """Create element mismatch comment

    Parameters
    ----------
    a, b : compared np.ndarray's
    index : tuple of coordinate arrays
        Location of violation
    names : tuple of names
        The names of compared arrays.
    maxError: boolean, optional
        Flag indicating that maximum error is reporting.
    """
    maximum = 'maximum ' if maxError else ''
    return 'Location of %serror: %s, %s=%.8f, %s=%.8f' \
        % (maximum, str(index), names[0], a[index], names[1], b[index])


def _mismatch_report(a, b, rtol, atol, names, equal_nan, mismatches):
    """The AssertionError message of a failed comparison, printing the worst mismatches."""
    index, rel = _find_max_violation(a, b, rtol, atol)
    if index == ():
        err = 'Error %f exceeds tolerance rtol=%e, atol=%e.\n' % (rel, rtol, atol)
    else:
        print('\n*** Maximum errors for vector of size {}:  rtol={}, atol={}\n'
              .format(a.size, rtol, atol))
        first_index, first_rel = index, rel
        a_left, b_left = a.copy(), b.copy()
        count = 1
        while count <= a.size:
            if count <= mismatches[0]:
                print('%3d: Error %f  %s' % (count, rel, locationError(a, b, index, names)))
            a_left[index] = b_left[index] = 0
            if almost_equal(a_left, b_left, rtol, atol, equal_nan=equal_nan):
                break
            count += 1
            if count > mismatches[1] > 0:
                break
            index, rel = _find_max_violation(a_left, b_left, rtol, atol)
        degree = 'at least ' if mismatches[1] > 0 and count > mismatches[1] else ''
        err = 'Error %f exceeds tolerance rtol=%e, atol=%e (mismatch %s%f%%).\n%s' \
            % (first_rel, rtol, atol, degree, 100 * count / a.size,
               locationError(a, b, first_index, names, maxError=True))
    with np.printoptions(threshold=4, suppress=True):
        return npt.build_err_msg([a, b], err_msg=err)


def assert_almost_equal(a, b, rtol=None, atol=None, names=('a', 'b'), equal_nan=False,
                        use_broadcast=True, mismatches=(10, 10)):
    """Test that two numpy arrays are almost equal. Raise exception message if not.

    Parameters
    ----------
    a : np.ndarray or mx.nd.array
    b : np.ndarray or mx.nd.array
    rtol : None or float or dict of dtype -> float
        The relative threshold. Default threshold will be used if set to ``None``.
    atol : None or float or dict of dtype -> float
        The absolute threshold. Default threshold will be used if set to ``None``.
    names : tuple of names, optional
        The names used in error message when an exception occurs
    equal_nan : boolean, optional
        The flag determining how to treat NAN values in comparison
    mismatches : tuple of mismatches
        Maximum number of mismatches to be printed (mismatches[0]) and determine (mismatches[1])
    """
    if not use_broadcast:
        checkShapes(a, b)
    rtol, atol = get_tols(a, b, rtol, atol)
    a, b = _as_numpy(a), _as_numpy(b)
    if getattr(a, 'dtype', None) == np.bool_ and getattr(b, 'dtype', None) == np.bool_:
        np.testing.assert_equal(a, b)
        return
    if almost_equal(a, b, rtol, atol, equal_nan=equal_nan):
        return
    a, b = np.asarray(a), np.asarray(b)
    raise AssertionError(_mismatch_report(a, b, rtol, atol, names, equal_nan, mismatches))


def assert_allclose(a, b, rtol=1e-07, atol=0, equal_nan=True):
    """assert_almost_equal with numpy.testing.assert_allclose's defaults."""
    assert_almost_equal(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


def assert_almost_equal_with_err(a, b, rtol=None, atol=None, etol=None, names=('a', 'b'),
                                 equal_nan=False, mismatches=(10, 10)):
    """Test that two numpy arrays are almost equal within given error rate. Raise exception
    message if not.

    Parameters
    ----------
    a : np.ndarray
    b : np.ndarray
    rtol : None or float or dict of dtype -> float
        The relative threshold. Default threshold will be used if set to ``None``.
    atol : None or float or dict of dtype -> float
        The absolute threshold. Default threshold will be used if set to ``None``.
    etol : None or float
        The error rate threshold. If etol is float, return true if error_rate < etol even if
        any error is found.
    names : tuple of names, optional
        The names used in error message when an exception occurs
    equal_nan : boolean, optional
        The flag determining how to treat NAN values in comparison
    mismatches : tuple of mismatches
        Maximum number of mismatches to be printed (mismatches[0]) and determine (mismatches[1])
    """
    etol = get_etol(etol)
    if etol <= 0:
        assert_almost_equal(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
        return
    rtol, atol = get_tols(a, b, rtol, atol)
    a, b = np.asarray(_as_numpy(a)), np.asarray(_as_numpy(b))
    close = np.isclose(a, b, rtol=rtol, atol=atol)
    if 1 - np.count_nonzero(close) / close.size > etol:
        raise AssertionError(_mismatch_report(a, b, rtol, atol, names, equal_nan, mismatches))


def assert_almost_equal_ignore_nan(a, b, rtol=None, atol=None, names=('a', 'b')):
    """Test that two NumPy arrays are almost equal (ignoring NaN in either array).

    Parameters
    ----------
    a : np.ndarray
    b : np.ndarray
    rtol : None or float
        The relative threshold. Default threshold will be used if set to ``None``.
    atol : None or float
        The absolute threshold. Default threshold will be used if set to ``None``.
    """
    a = np.copy(_as_numpy(a))
    b = np.copy(_as_numpy(b))
    nan = np.logical_or(np.isnan(a), np.isnan(b))
    a[nan] = 0
    b[nan] = 0
    assert_almost_equal(a, b, rtol, atol, names)


def assert_exception(f, exception_type, *args, **kwargs):
    """Test that function f will throw an exception of type given by `exception_type`"""
    try:
        f(*args, **kwargs)
    except exception_type:
        return
    raise AssertionError('%s did not raise %s' % (getattr(f, '__name__', f),
                                                  getattr(exception_type, '__name__',
                                                          exception_type)))


def retry(n):
    """Retry n times before failing for stochastic test cases."""
    assert n > 0

    def decorate(f):
        """Decorate a test case."""
        def wrapper(*args, **kwargs):
            """Wrapper for tests function."""
            for i in range(n):
                try:
                    f(*args, **kwargs)
                    return
                except AssertionError:
                    if i == n - 1:
                        raise
                    mx.nd.waitall()
        return wrapper
    return decorate


# ------------------------------------------------------------------------------ symbols
def _symbol_api():
    """mx.sym, or NotImplementedError while mxcompat has no symbol front end."""
    try:
        from . import symbol
    except ImportError:
        raise NotImplementedError('mx.sym: the symbolic API is not available in this '
                                  'mxcompat build') from None
    return symbol


def simple_forward(sym, ctx=None, is_train=False, **inputs):
    """A simple forward function for a symbol.

    Primarily used in doctest to test the functionality of a symbol.
    Takes NumPy arrays as inputs and outputs are also converted to NumPy arrays.

    Parameters
    ----------
    ctx : Context
        If ``None``, will take the default context.
    inputs : keyword arguments
        Mapping each input name to a NumPy array.

    Returns
    -------
    The result as a numpy array. Multiple results will
    be returned as a list of NumPy arrays.
    """
    _symbol_api()
    ctx = ctx or default_context()
    exe = sym.bind(ctx, args={k: array(v) for k, v in inputs.items()})
    exe.forward(is_train=is_train)
    outputs = [x.asnumpy() for x in exe.outputs]
    return outputs[0] if len(outputs) == 1 else outputs


def _as_nd(v, ctx, dtype):
    """NDArray of a numpy value: its own dtype when dtype is "asnumpy", else dtype."""
    return mx.nd.array(v, ctx=ctx, dtype=v.dtype if dtype == 'asnumpy' else dtype)


def _parse_location(sym, location, ctx, dtype=default_dtype()):
    """Parses the given location to a dictionary ordered by argument name.

    Parameters
    ----------
    sym : Symbol
    location : list or tuple or dict
        Argument values: in ``sym.list_arguments()`` order, or by name (all of them).
    ctx : Context
    dtype: "asnumpy" or np.float16 or np.float32 or np.float64
        dtype of the NDArrays made from numpy values ("asnumpy": the numpy value's own).
    """
    assert isinstance(location, (dict, list, tuple))
    assert dtype == 'asnumpy' or dtype in (np.float16, np.float32, np.float64)
    names = sym.list_arguments()
    if isinstance(location, dict):
        if set(location.keys()) != set(names):
            raise ValueError('Symbol arguments and keys of the given location do not match.'
                             'symbol args:%s, location.keys():%s'
                             % (str(set(names)), str(set(location.keys()))))
    else:
        location = dict(zip(names, location))
    location = {k: _as_nd(v, ctx, dtype) if isinstance(v, np.ndarray) else v
                for k, v in location.items()}
    return _sorted_dict(location)


def _parse_aux_states(sym, aux_states, ctx, dtype=default_dtype()):
    """Parses the given auxiliary states to a dictionary (None stays None).

    Parameters
    ----------
    sym : Symbol
    aux_states : None or list or dict
        Values of every auxiliary state: in ``sym.list_auxiliary_states()`` order, or by name.
    ctx : Context
    dtype: "asnumpy" or np.float16 or np.float32 or np.float64
    """
    assert dtype == 'asnumpy' or dtype in (np.float16, np.float32, np.float64)
    if aux_states is None:
        return None
    names = sym.list_auxiliary_states()
    if isinstance(aux_states, dict):
        if set(aux_states.keys()) != set(names):
            raise ValueError('Symbol aux_states names and given aux_states do not match.'
                             'symbol aux_names:%s, aux_states.keys:%s'
                             % (str(set(names)), str(set(aux_states.keys()))))
    elif isinstance(aux_states, (list, tuple)):
        aux_states = dict(zip(names, aux_states))
    return {k: _as_nd(np.asarray(_as_numpy(v)), ctx, dtype) for k, v in aux_states.items()}


# elements of the inputs and outputs of the forwards one mapped call of numeric_grad runs
_NUMERIC_BATCH_ELEMENTS = 1 << 22


def _mapped_differences(executor, name, plus, minus, is_train):
    """Sums of the first output's differences between the forwards at ``plus`` and at
    ``minus`` (numpy arrays of the values element i takes in turn) of argument ``name``, in
    batches of copies of the argument run as vmapped forwards: the copies at ``plus`` in one,
    those at ``minus`` in another of the same shape, so that each pair is computed at the same
    place of the same kernels (one batch of both would put them at places a kernel may round
    differently, and their difference, a thousandth of the outputs, would carry that)."""
    arr = executor.arg_dict[name]._t.detach()
    dev, total = arr.device, plus.size
    per_forward = sum(a._t.numel() for a in executor.arg_arrays + executor.aux_arrays
                      if a is not None) + \
        sum(o._t.numel() for o in executor.outputs[:1])
    chunk = max(1, min(total, _NUMERIC_BATCH_ELEMENTS // (2 * per_forward)))
    base = arr.reshape(1, -1)
    sums = []
    for start in range(0, total, chunk):
        stop = min(total, start + chunk)
        b = stop - start
        rows, moved = torch.arange(b, device=dev), torch.arange(start, stop, device=dev)
        outs = []
        for values in (plus, minus):
            batch = base.repeat(b, 1)
            batch[rows, moved] = torch.from_numpy(values[start:stop]).to(dev, arr.dtype)
            outs.append(executor._map_forward(  # pylint: disable=protected-access
                name, batch.view((b,) + tuple(arr.shape)), is_train))
        sums.append((outs[0] - outs[1]).reshape(b, -1).sum(1))
    return torch.cat(sums)


def _stepped_differences(executor, name, plus, minus, original, forward):
    """As :func:`_mapped_differences`, one forward per moved value (``forward()`` returns the
    first output), each element of the bound array set in place and then restored."""
    t = executor.arg_dict[name]._t.detach()
    if t.is_contiguous():
        put = t.view(-1).__setitem__
    else:
        put = lambda i, value: t.__setitem__(np.unravel_index(i, t.shape), value)
    sums = None
    for i, (p, m, o) in enumerate(zip(plus.tolist(), minus.tolist(), original.tolist())):
        put(i, p)
        f_plus = forward().clone()
        put(i, m)
        f_minus = forward()
        if sums is None:
            sums = f_minus.new_empty(plus.size)
        sums[i] = f_plus.sub_(f_minus).sum()
        put(i, o)
    return sums


def numeric_grad(executor, location, aux_states=None, eps=1e-4, use_forward_train=True,
                 dtype=default_dtype()):
    """Calculates a numeric gradient of the sum of ``executor.outputs[0]`` by central
    differences.

    Element i of an argument takes the value ``x + eps/2`` and then that minus ``eps``
    (computed in float64 and rounded to the argument's type, as MXNet's NumPy does). The
    forwards run in batches of moved copies of the argument (``torch.func.vmap`` over the
    executor's graph), and the differences are summed where the executor runs; a graph that
    cannot be mapped (random operators, values read on the host, updates of auxiliary
    states) runs one forward per moved value. Either way the executor's arrays hold their
    values again afterwards.

    Parameters
    ----------
    executor : Executor
        Executor that computes the forward pass.
    location : dict of str to numpy.ndarray
        Argument values used as location to compute gradient (all the arguments).
    aux_states : None or dict of str to numpy.ndarray, optional
        Auxiliary states values, restored before every forward pass.
    eps : float, optional
        Epsilon for the finite-difference method.
    use_forward_train : bool, optional
        Whether to use `is_train=True` in testing.
    dtype: np.float16 or np.float32 or np.float64
        Datatype for mx.nd.array.
    """
    assert dtype in (np.float16, np.float32, np.float64)
    arg_dict = executor.arg_dict
    for k, v in location.items():
        arg_dict[k][:] = mx.nd.array(v, dtype=dtype)
    aux_dict = executor.aux_dict
    aux = None if aux_states is None else {
        k: mx.nd.array(v, ctx=aux_dict[k].context, dtype=aux_dict[k].dtype)
        for k, v in aux_states.items()}

    def restore_aux():
        for key, val in (aux or {}).items():
            aux_dict[key][:] = val

    def forward():
        restore_aux()
        # a training forward that records no graph: nothing runs backward through it
        return executor._run(use_forward_train, False)[0]._t  # pylint: disable=protected-access

    grads = {}
    for k, v in location.items():
        v = np.asarray(v)
        grads[k] = np.zeros(v.shape, dtype=dtype)
        if v.dtype.kind != 'f' or not v.size:
            continue
        plus = (v.reshape(-1).astype(np.float64) + eps / 2.0).astype(v.dtype)
        minus = (plus.astype(np.float64) - eps).astype(v.dtype)
        plus, minus = plus.astype(dtype), minus.astype(dtype)
        try:
            restore_aux()  # the states as given, for every mapped forward
            sums = _mapped_differences(executor, k, plus, minus, use_forward_train)
        except Exception:  # pylint: disable=broad-except
            sums = _stepped_differences(executor, k, plus, minus,
                                        v.reshape(-1).astype(dtype), forward)
        grads[k][...] = (sums.cpu().numpy() / eps).reshape(v.shape)
    return grads


def _grad_nodes_and_reqs(sym, grad_nodes):
    if grad_nodes is None:
        nodes = sym.list_arguments()
        return nodes, {k: 'write' for k in nodes}
    if isinstance(grad_nodes, (list, tuple)):
        nodes = list(grad_nodes)
        return nodes, {k: 'write' for k in nodes}
    if isinstance(grad_nodes, dict):
        return list(grad_nodes.keys()), dict(grad_nodes)
    raise ValueError('grad_nodes must be None, a list or a dict of name -> grad_req')


def _check_grad(name, req, expected, got, before, rtol, atol, names, equal_nan=False):
    """Compare a computed gradient with the expected one according to its grad_req."""
    if req == 'write':
        assert_almost_equal(expected, got, rtol, atol, names, equal_nan=equal_nan)
    elif req == 'add':
        assert_almost_equal(expected, _as_numpy(got) - before, rtol, atol, names,
                            equal_nan=equal_nan)
    elif req == 'null':
        assert_almost_equal(before, got, rtol, atol, names, equal_nan=equal_nan)
    else:
        raise ValueError('Invalid grad_req %s for argument %s' % (req, name))


def check_numeric_gradient(sym, location, aux_states=None, numeric_eps=None, rtol=None,
                           atol=None, grad_nodes=None, use_forward_train=True, ctx=None,
                           grad_stype_dict=None, dtype=default_dtype()):
    """Verify an operation by checking backward pass via finite difference method.

    The symbol's first output is multiplied by a random projection and summed; the gradient
    its backward pass computes is compared with central finite differences.

    Parameters
    ----------
    sym : Symbol
        Symbol containing op to test
    location : list or tuple or dict
        Argument values used as location to compute gradient: numpy arrays in
        ``sym.list_arguments()`` order, or a dict of name -> numpy array (all arguments).
    aux_states : list or tuple or dict, optional
        The auxiliary states required when generating the executor for the symbol.
    numeric_eps : float, optional
        Delta for the finite difference method that approximates the gradient.
    rtol : None or float
        The relative threshold. Default threshold will be used if set to ``None``.
    atol : None or float
        The absolute threshold. Default threshold will be used if set to ``None``.
    grad_nodes : None or list or tuple or dict, optional
        Names of the nodes to check gradient on (a dict maps names to grad_req)
    use_forward_train : bool
        Whether to use is_train=True when computing the finite-difference.
    ctx : Context, optional
        Check the gradient computation on the specified device.
    grad_stype_dict : dict of str->str, optional
        Storage type dictionary for gradient ndarrays (only 'default' in mxcompat).
    dtype: np.float16 or np.float32 or np.float64
        Datatype for mx.nd.array.
    """
    assert dtype in (np.float16, np.float32, np.float64)
    symbol = _symbol_api()
    ctx = ctx or default_context()
    if grad_stype_dict and any(v != 'default' for v in grad_stype_dict.values()):
        raise _no_sparse('check_numeric_gradient(grad_stype_dict=...)')
    location = _parse_location(sym, location, ctx, dtype)
    location_np = {k: v.asnumpy() for k, v in location.items()}
    aux_states = _parse_aux_states(sym, aux_states, ctx, dtype)
    aux_np = None if aux_states is None else {k: v.asnumpy() for k, v in aux_states.items()}
    grad_nodes, grad_req = _grad_nodes_and_reqs(sym, grad_nodes)

    _, out_shapes, _ = sym.infer_shape(**{k: v.shape for k, v in location.items()})
    proj_name = '__random_proj'
    loss = symbol.make_loss(sym * symbol.Variable(proj_name))
    # the projection's entries are kept away from 0 so the finite differences stay precise
    location = dict(list(location.items()) + [(proj_name, mx.nd.array(
        np.random.rand(*out_shapes[0]) + 0.1, ctx=ctx, dtype=dtype))])
    grads_before = dict([(k, np.random.normal(0, 0.01, size=location[k].shape))
                         for k in grad_nodes]
                        + [(proj_name, np.random.normal(0, 0.01, size=out_shapes[0]))])
    args_grad = {k: mx.nd.array(v, ctx=ctx, dtype=dtype) for k, v in grads_before.items()}
    executor = loss.bind(ctx, grad_req=grad_req, args=location, args_grad=args_grad,
                         aux_states=aux_states)
    if len(executor.arg_arrays) != len(location):
        raise ValueError('Executor arg_arrays and and location len do not match.'
                         'Got %d inputs and %d locations' % (len(executor.arg_arrays),
                                                             len(location)))
    executor.forward(is_train=True)
    assert len(executor.outputs) == 1
    eps = get_tolerance(executor.outputs[0], numeric_eps, default_numeric_eps())
    if dtype in (np.float32, np.float16):
        assert eps >= 1e-5  # finite differences with a smaller step need float64
    executor.backward()
    symbolic = executor.grad_dict
    numeric = numeric_grad(executor, location_np, aux_np, eps=eps,
                           use_forward_train=use_forward_train, dtype=dtype)
    for name in grad_nodes:
        _check_grad(name, grad_req[name], numeric[name], symbolic[name], grads_before[name],
                    rtol, atol, ('NUMERICAL_%s' % name, 'BACKWARD_%s' % name))


def check_symbolic_forward(sym, location, expected, rtol=None, atol=None, aux_states=None,
                           ctx=None, equal_nan=False, dtype=default_dtype()):
    """Compares a symbol's forward results with the expected ones.
    Prints error messages if the forward results are not the same as the expected ones.

    Parameters
    ---------
    sym : Symbol
        output symbol
    location : list of np.ndarray or dict of str to np.ndarray
        The evaluation point (values of ``sym.list_arguments()``, in order or by name).
    expected : list of np.ndarray or dict of str to np.ndarray
        The expected output values (in output order or by ``sym.list_outputs()`` name).
    rtol : None or float
        The relative threshold. Default threshold will be used if set to ``None``.
    atol : None or float
        The absolute threshold. Default threshold will be used if set to ``None``.
    aux_states : list of np.ndarray of dict, optional
        Values of ``sym.list_auxiliary_states()``, in order or by name.
    ctx : Context, optional
        running context
    equal_nan: Boolean
        if True, `nan` is a valid value for checking equivalency (ie `nan` == `nan`)
    dtype: "asnumpy" or np.float16 or np.float32 or np.float64
        dtype of the input NDArrays ("asnumpy": each numpy value's own dtype).

    Returns
    -------
    The executor's outputs.
    """
    assert dtype == 'asnumpy' or dtype in (np.float16, np.float32, np.float64)
    _symbol_api()
    ctx = ctx or default_context()
    location = _parse_location(sym, location, ctx, dtype)
    aux_states = _parse_aux_states(sym, aux_states, ctx, dtype)
    if isinstance(expected, dict):
        expected = [expected[k] for k in sym.list_outputs()]
    args_grad = {k: mx.nd.zeros(v.shape, ctx=ctx, dtype=v.dtype if dtype == 'asnumpy'
                                else dtype) for k, v in location.items()}
    executor = sym.bind(ctx=ctx, args=location, args_grad=args_grad, aux_states=aux_states)
    executor.forward(is_train=False)
    for name, want, got in zip(sym.list_outputs(), expected, executor.outputs):
        assert_almost_equal(want, got, rtol, atol, ('EXPECTED_%s' % name, 'FORWARD_%s' % name),
                            equal_nan=equal_nan)
    return executor.outputs


def _to_grads(out_grads, ctx, dtype):
    def conv(v):
        if isinstance(v, np.ndarray):
            return _as_nd(v, ctx, dtype)
        return v
    if isinstance(out_grads, (tuple, list)):
        return [conv(v) for v in out_grads]
    if isinstance(out_grads, dict):
        return {k: conv(v) for k, v in out_grads.items()}
    assert out_grads is None
    return None


def check_symbolic_backward(sym, location, out_grads, expected, rtol=None, atol=None,
                            aux_states=None, grad_req='write', ctx=None, grad_stypes=None,
                            equal_nan=False, dtype=default_dtype()):
    """Compares a symbol's backward results with the expected ones.
    Prints error messages if the backward results are not the same as the expected results.

    Parameters
    ---------
    sym : Symbol
        output symbol
    location : list of np.ndarray or dict of str to np.ndarray
        The evaluation point (values of ``sym.list_arguments()``, in order or by name).
    out_grads : None or list of np.ndarray or dict of str to np.ndarray
        Gradients of the outputs (in output order or by name).
    expected : list of np.ndarray or dict of str to np.ndarray
        Expected gradients of the arguments (in argument order or by name).
    rtol : None or float
        The relative threshold. Default threshold will be used if set to ``None``.
    atol : None or float
        The absolute threshold. Default threshold will be used if set to ``None``.
    aux_states : list of np.ndarray or dict of str to np.ndarray
    grad_req : str or list of str or dict of str to str, optional
        Gradient requirements. 'write', 'add' or 'null'.
    ctx : Context, optional
        Running context.
    grad_stypes: dict of str->str
        dictionary of mapping argument name to stype for the gradient ('default' only)
    equal_nan: Boolean
        if True, `nan` is a valid value for checking equivalency (ie `nan` == `nan`)
    dtype: np.float16 or np.float32 or np.float64
        Datatype for mx.nd.array.

    Returns
    -------
    dict of argument name to gradient NDArray.
    """
    assert dtype == 'asnumpy' or dtype in (np.float16, np.float32, np.float64)
    _symbol_api()
    ctx = ctx or default_context()
    if grad_stypes and any(v not in (None, 'default') for v in grad_stypes.values()):
        raise _no_sparse('check_symbolic_backward(grad_stypes=...)')
    location = _parse_location(sym, location, ctx, dtype)
    aux_states = _parse_aux_states(sym, aux_states, ctx, dtype)
    if isinstance(expected, (list, tuple)):
        expected = dict(zip(sym.list_arguments(), expected))
    # gradient buffers start from deterministic noise, so 'add' and 'null' are visible
    before = {k: np.random.normal(size=v.shape) for k, v in _sorted_items(expected)}
    args_grad = {k: mx.nd.array(v, ctx=ctx, dtype=expected[k].dtype if dtype == 'asnumpy'
                                else dtype) for k, v in before.items()}
    if isinstance(grad_req, str):
        grad_req = {k: grad_req for k in sym.list_arguments()}
    elif isinstance(grad_req, (list, tuple)):
        grad_req = dict(zip(sym.list_arguments(), grad_req))
    executor = sym.bind(ctx=ctx, args=location, args_grad=args_grad, aux_states=aux_states,
                        grad_req=grad_req)
    executor.forward(is_train=True)
    executor.backward(_to_grads(out_grads, ctx, dtype))
    for name in expected:
        _check_grad(name, grad_req[name], expected[name], args_grad[name], before[name], rtol,
                    atol, ('EXPECTED_%s' % name, 'BACKWARD_%s' % name), equal_nan=equal_nan)
    return args_grad


def check_speed(sym, location=None, ctx=None, N=20, grad_req=None, typ='whole', **kwargs):
    """Check the running speed of a symbol.

    Parameters
    ----------
    sym : Symbol
        Symbol to run the speed test.
    location : none or dict of str to np.ndarray
        Location to evaluate the inner executor.
    ctx : Context
        Running context.
    N : int, optional
        Repeat times.
    grad_req : None or str or list of str or dict of str to str, optional
        Gradient requirements.
    typ : str, optional
        "whole" (forward and backward) or "forward".

    Returns
    -------
    Seconds per iteration.
    """
    _symbol_api()
    ctx = ctx or default_context()
    grad_req = grad_req or 'write'
    if location is None:
        exe = sym.simple_bind(grad_req=grad_req, ctx=ctx, **kwargs)
        location = {k: np.random.normal(size=arr.shape, scale=1.0)
                    for k, arr in exe.arg_dict.items()}
    else:
        assert isinstance(location, dict), 'Expect dict, get "location"=%s' % str(location)
        exe = sym.simple_bind(grad_req=grad_req, ctx=ctx,
                              **{k: v.shape for k, v in location.items()})
    for name, value in location.items():
        exe.arg_dict[name][:] = value.astype(exe.arg_dict[name].dtype)
    if typ not in ('whole', 'forward'):
        raise ValueError('typ can only be "whole" or "forward".')

    def step():
        if typ == 'whole':
            exe.forward(is_train=True)
            exe.backward(out_grads=exe.outputs)
        else:
            exe.forward(is_train=False)

    step()  # warm up
    mx.nd.waitall()
    tic = time.time()
    for _ in range(N):
        step()
    mx.nd.waitall()
    return (time.time() - tic) / N


def check_consistency(sym, ctx_list, scale=1.0, grad_req='write', arg_params=None,
                      aux_params=None, rtol=None, atol=None, raise_on_err=True,
                      ground_truth=None, equal_nan=False, use_uniform=False,
                      rand_type=np.float64):
    """Check symbol gives the same output for different running context

    Parameters
    ----------
    sym : Symbol or list of Symbols
        Symbol(s) to run the consistency test.
    ctx_list : list
        Running contexts: dicts of ``simple_bind`` keyword arguments ('ctx', input shapes,
        'type_dict').
    scale : float, optional
        Standard deviation of the inner normal distribution. Used in initialization.
    grad_req : str or list of str or dict of str to str
        Gradient requirement.
    arg_params : dict of input name -> input data
        data to use for non-aux inputs
    aux_params : dict of input name -> input data
        data to use for aux inputs
    rtol : float or dictionary dtype->float, optional
        The relative error tolerance.
    atol : float or dictionary dtype->float, optional
        The absolute error tolerance.
    raise_on_err : bool, optional, defaults to True
        Should an error raise an exception (or just output exception message)
    ground_truth : dict of output name -> data, optional
        Provided ideal result to be compared against
    equal_nan : bool, optional, defaults to False
        Should nans be treated as equal in the comparison
    use_uniform: bool
        Draw random inputs uniformly instead of normally.
    rand_type: np.dtype
        casts the randomly generated data to this type

    Returns
    -------
    The ground truth: dict of output and argument-gradient name -> NDArray.
    """
    symbol = _symbol_api()
    assert len(ctx_list) > 1
    if isinstance(sym, symbol.Symbol):
        sym = [sym] * len(ctx_list)
    else:
        assert len(sym) == len(ctx_list)
    output_names = sym[0].list_outputs()
    arg_names = sym[0].list_arguments()
    exe_list = []
    for s, spec in zip(sym, ctx_list):
        assert s.list_arguments() == arg_names
        assert s.list_outputs() == output_names
        exe_list.append(s.simple_bind(grad_req=grad_req, **spec))
    arg_params = {} if arg_params is None else arg_params
    aux_params = {} if aux_params is None else aux_params

    def least_precise(dt1, dt2):
        return dt1 if dt2 is None or np.dtype(dt1).itemsize < np.dtype(dt2).itemsize else dt2

    for n, arr in _sorted_items(exe_list[0].arg_dict):  # sorted: reproducible draws
        if n not in arg_params:
            if use_uniform:
                arg_params[n] = np.random.uniform(low=-0.92 * scale, high=0.92 * scale,
                                                  size=arr.shape).astype(rand_type)
            else:
                arg_params[n] = np.random.normal(size=arr.shape, scale=scale).astype(rand_type)
    for n in exe_list[0].aux_dict:
        aux_params.setdefault(n, 0)
    for exe in exe_list:
        for name, arr in exe.arg_dict.items():
            arr[:] = arg_params[name]
        for name, arr in exe.aux_dict.items():
            arr[:] = aux_params[name]
        if grad_req == 'add':
            for arr in exe.grad_arrays:
                if arr is not None:
                    arr[:] = 0

    for exe in exe_list:
        exe.forward(is_train=False)
    dtypes = [np.dtype(exe.outputs[0].dtype) for exe in exe_list]
    # the ground truth is the first executor with the most precise first output
    gt_idx = int(np.argmax([d.itemsize for d in dtypes]))
    gt = ground_truth
    if gt is None:
        gt = dict(exe_list[gt_idx].output_dict)
        if grad_req != 'null':
            gt.update(exe_list[gt_idx].grad_dict)

    def compare(arr, gtarr, what, rt, at):
        try:
            assert_almost_equal(arr, gtarr, rtol=rt, atol=at, equal_nan=equal_nan)
        except AssertionError as err:
            print(what)
            traceback.print_exc()
            if raise_on_err:
                raise
            print(str(err))

    for i, exe in enumerate(exe_list):
        if i == gt_idx:
            continue
        for name, arr in zip(output_names, exe.outputs):
            compare(arr, gt[name], 'Predict Err: ctx %d vs ctx %d at %s' % (i, gt_idx, name),
                    rtol, atol)

    if grad_req != 'null':
        for exe in exe_list:
            exe.forward(is_train=True)
        if ground_truth is None:  # compare with the ground truth's training-mode outputs
            gt.update(exe_list[gt_idx].output_dict)
        # every executor back-propagates the first one's outputs, cast to the least precise
        # dtype any executor produces
        cast_to = [out.dtype for out in exe_list[0].outputs]
        for exe in exe_list:
            cast_to = [least_precise(out.dtype, dt) for out, dt in zip(exe.outputs, cast_to)]
        heads = [out.astype(dt).asnumpy() for out, dt in zip(exe_list[0].outputs, cast_to)]
        for exe, spec in zip(exe_list, ctx_list):
            exe.backward([mx.nd.array(h, ctx=spec.get('ctx'), dtype=out.dtype)
                          for h, out in zip(heads, exe.outputs)])
        for i, exe in enumerate(exe_list):
            if i == gt_idx:
                continue
            grads = [exe.grad_dict.get(n) for n in arg_names]
            for name, arr in zip(output_names + arg_names, exe.outputs + grads):
                if gt.get(name) is None:
                    assert arr is None
                    continue
                gtarr = gt[name]
                rt, at = rtol, atol
                # a float32 gradient next to float16 data is compared at float16 tolerance
                arr_dt = least_precise(arr.dtype, dtypes[i])
                gt_dt = least_precise(gtarr.dtype, dtypes[gt_idx])
                if arr_dt != arr.dtype or gt_dt != gtarr.dtype:
                    rt, at = get_tols(arr.astype(arr_dt), gtarr.astype(gt_dt), rtol, atol)
                compare(arr, gtarr, 'Train Err: {} ctx {} vs {} ctx {} at {}'.format(
                    np.dtype(arr.dtype).name, i, np.dtype(gtarr.dtype).name, gt_idx, name),
                    rt, at)
    return gt


def same_symbol_structure(sym1, sym2):
    """Compare two symbols to check if they have the same computation graph structure.
    Returns true if operator corresponding to a particular node id is same in both
    symbols for all nodes
    """
    nodes1 = json.loads(sym1.tojson())['nodes']
    nodes2 = json.loads(sym2.tojson())['nodes']
    return all(n1['op'] == n2['op'] for n1, n2 in zip(nodes1, nodes2))


# ------------------------------------------------------------------------------ data, files
def list_gpus():
    """Return a list of GPUs

    Returns
    -------
    list of int:
        If there are n GPUs, then return a list [0,1,...,n-1]. Otherwise returns [].
    """
    return range(mx.util.get_gpu_count())


def download(url, fname=None, dirname=None, overwrite=False, retries=5):
    """Download an given URL

    Parameters
    ----------
    url : str
        URL to download
    fname : str, optional
        filename of the downloaded file. If None, then will guess a filename
        from url.
    dirname : str, optional
        output directory name. If None, then guess from fname or use the current
        directory
    overwrite : bool, optional
        Default is false, which means skipping download if the local file
        exists. If true, then download the url to overwrite the local file if
        exists.
    retries : integer, default 5
        The number of times to attempt the download in case of failure or non 200 return codes

    Returns
    -------
    str
        The filename of the downloaded file
    """
    assert retries >= 0, 'Number of retries should be at least 0'
    if fname is None:
        fname = url.split('/')[-1]
    if dirname is None:
        dirname = os.path.dirname(fname)
    else:
        fname = os.path.join(dirname, fname)
    if dirname and not os.path.exists(dirname):
        logging.info('create directory %s', dirname)
        try:
            os.makedirs(dirname)
        except OSError as exc:
            if exc.errno != errno.EEXIST:
                raise OSError('failed to create ' + dirname) from exc
    if not overwrite and os.path.exists(fname):
        logging.info('%s exists, skipping download', fname)
        return fname
    requests_mod = _lazy('requests')
    if requests_mod is None:
        raise ImportError('mx.test_utils.download needs the requests package')
    while True:
        try:
            r = requests_mod.get(url, stream=True)
            assert r.status_code == 200, 'failed to open %s' % url
            tmp = fname + '.part'
            with open(tmp, 'wb') as f:
                for chunk in r.iter_content(chunk_size=1 << 16):
                    if chunk:
                        f.write(chunk)
            os.replace(tmp, fname)
            break
        except Exception:  # pylint: disable=broad-except
            retries -= 1
            if retries <= 0:
                raise
            print('download failed, retrying, {} attempt{} left'
                  .format(retries, 's' if retries > 1 else ''))
    logging.info('downloaded %s into %s successfully', url, fname)
    return fname


_MODEL_URL = 'http://data.mxnet.io/models/'
_MODELS = {
    'imagenet1k-inception-bn': 'imagenet/inception-bn/Inception-BN-%s',
    'imagenet1k-resnet-18': 'imagenet/resnet/18-layers/resnet-18-%s',
    'imagenet1k-resnet-34': 'imagenet/resnet/34-layers/resnet-34-%s',
    'imagenet1k-resnet-50': 'imagenet/resnet/50-layers/resnet-50-%s',
    'imagenet1k-resnet-101': 'imagenet/resnet/101-layers/resnet-101-%s',
    'imagenet1k-resnet-152': 'imagenet/resnet/152-layers/resnet-152-%s',
    'imagenet1k-resnext-50': 'imagenet/resnext/50-layers/resnext-50-%s',
    'imagenet1k-resnext-101': 'imagenet/resnext/101-layers/resnext-101-%s',
    'imagenet1k-resnext-101-64x4d': 'imagenet/resnext/101-layers/resnext-101-64x4d-%s',
    'imagenet11k-resnet-152': 'imagenet-11k/resnet-152/resnet-152-%s',
    'imagenet11k-place365ch-resnet-152': 'imagenet-11k-place365-ch/resnet-152-%s',
    'imagenet11k-place365ch-resnet-50': 'imagenet-11k-place365-ch/resnet-50-%s',
}
# the Inception-BN checkpoint is stored at epoch 126
_MODEL_EPOCH = {'imagenet1k-inception-bn': '0126'}


def download_model(model_name, dst_dir='./', meta_info=None):
    """Download a model from data.mxnet.io

    Parameters
    ----------
    model_name : str
        Model name to download
    dst_dir : str
        Destination Directory to download the model
    meta_info : dict of dict
        Mapping from model_name to dict of the following structure:
        {'symbol': url, 'params': url}

    Returns
    -------
    Two element tuple containing model_name and epoch for the params saved
    """
    if meta_info is None:
        meta_info = {name: {'symbol': _MODEL_URL + path % 'symbol.json',
                            'params': _MODEL_URL + path % (_MODEL_EPOCH.get(name, '0000')
                                                           + '.params')}
                     for name, path in _MODELS.items()}
    meta_info = dict(meta_info)
    if model_name not in meta_info:
        return (None, 0)
    if not os.path.isdir(dst_dir):
        os.mkdir(dst_dir)
    meta = dict(meta_info[model_name])
    assert 'symbol' in meta, 'missing symbol url'
    assert 'params' in meta, 'missing parameter file url'
    model_name = os.path.join(dst_dir, model_name)
    download(meta['symbol'], model_name + '-symbol.json')
    download(meta['params'], model_name + '-0000.params')
    return (model_name, 0)


def get_mnist():
    """Download and load the MNIST dataset

    Returns
    -------
    dict
        A dict containing the data
    """
    def read(label_url, image_url):
        with gzip.open(download(label_url)) as flbl:
            struct.unpack('>II', flbl.read(8))
            label = np.frombuffer(flbl.read(), dtype=np.int8)
        with gzip.open(download(image_url), 'rb') as fimg:
            _, _, rows, cols = struct.unpack('>IIII', fimg.read(16))
            image = np.frombuffer(fimg.read(), dtype=np.uint8).reshape(len(label), rows, cols)
            image = image.reshape(image.shape[0], 1, 28, 28).astype(np.float32) / 255
        return label, image

    path = 'http://data.mxnet.io/data/mnist/'
    train_lbl, train_img = read(path + 'train-labels-idx1-ubyte.gz',
                                path + 'train-images-idx3-ubyte.gz')
    test_lbl, test_img = read(path + 't10k-labels-idx1-ubyte.gz',
                              path + 't10k-images-idx3-ubyte.gz')
    return {'train_data': train_img, 'train_label': train_lbl,
            'test_data': test_img, 'test_label': test_lbl}


def get_mnist_pkl():
    """Downloads MNIST dataset as a pkl.gz into a directory in the current directory
    with the name `data`
    """
    os.makedirs('data', exist_ok=True)
    if not os.path.exists('data/mnist.pkl.gz'):
        download('http://deeplearning.net/data/mnist/mnist.pkl.gz', dirname='data')


def _get_zip_into_data(url, expected):
    os.makedirs('data', exist_ok=True)
    if not all(os.path.exists(os.path.join('data', f)) for f in expected):
        with zipfile.ZipFile(download(url, dirname='data')) as zf:
            zf.extractall('data')


def get_mnist_ubyte():
    """Downloads ubyte version of the MNIST dataset into a directory in the current directory
    with the name `data` and extracts all files in the zip archive to this directory.
    """
    _get_zip_into_data('http://data.mxnet.io/mxnet/data/mnist.zip',
                       ['train-images-idx3-ubyte', 'train-labels-idx1-ubyte',
                        't10k-images-idx3-ubyte', 't10k-labels-idx1-ubyte'])


def get_cifar10():
    """Downloads CIFAR10 dataset into a directory in the current directory with the name `data`,
    and then extracts all files into the directory `data/cifar`.
    """
    _get_zip_into_data('http://data.mxnet.io/mxnet/data/cifar10.zip',
                       ['cifar/train.rec', 'cifar/test.rec', 'cifar/train.lst',
                        'cifar/test.lst'])


def get_mnist_iterator(batch_size, input_shape, num_parts=1, part_index=0):
    """Returns training and validation iterators for MNIST dataset
    """
    get_mnist_ubyte()
    flat = len(input_shape) != 3
    common = dict(input_shape=input_shape, batch_size=batch_size, flat=flat,
                  num_parts=num_parts, part_index=part_index)
    train = mx.io.MNISTIter(image='data/train-images-idx3-ubyte',
                            label='data/train-labels-idx1-ubyte', shuffle=True, **common)
    val = mx.io.MNISTIter(image='data/t10k-images-idx3-ubyte',
                          label='data/t10k-labels-idx1-ubyte', **common)
    return train, val


def get_zip_data(data_dir, url, data_origin_name):
    """Download and extract zip data.

    Parameters
    ----------
    data_dir : str
        Absolute or relative path of the directory name to store zip files
    url : str
        URL to download data from
    data_origin_name : str
        Name of the downloaded zip file
    """
    data_origin_name = os.path.join(data_dir, data_origin_name)
    if not os.path.exists(data_origin_name):
        download(url, dirname=data_dir, overwrite=False)
        with zipfile.ZipFile(data_origin_name) as zf:
            zf.extractall(path=data_dir)


def get_bz2_data(data_dir, data_name, url, data_origin_name):
    """Download and extract bz2 data.

    Parameters
    ----------
    data_dir : str
        Absolute or relative path of the directory name to store bz2 files
    data_name : str
        Name of the output file in which bz2 contents will be extracted
    url : str
        URL to download data from
    data_origin_name : str
        Name of the downloaded b2 file
    """
    data_name = os.path.join(data_dir, data_name)
    data_origin_name = os.path.join(data_dir, data_origin_name)
    if not os.path.exists(data_name):
        download(url, fname=data_origin_name, dirname=data_dir, overwrite=False)
        with bz2.BZ2File(data_origin_name, 'rb') as src, open(data_name, 'wb') as dst:
            for line in src:
                dst.write(line)
        os.remove(data_origin_name)


def get_im2rec_path(home_env='MXNET_HOME'):
    """Get path to the im2rec.py tool

    Parameters
    ----------
    home_env : str
        Env variable that holds the path to the MXNET folder

    Returns
    -------
    str
        The path to im2rec.py
    """
    base = os.environ.get(home_env) or os.path.dirname(mx.__file__)
    for path in (os.path.join(base, 'tools', 'im2rec.py'),
                 os.path.join(base, '..', '..', 'tools', 'im2rec.py')):
        if os.path.isfile(path):
            return path
    raise IOError('Could not find path to tools/im2rec.py')


def same_array(array1, array2):
    """Check whether two NDArrays sharing the same memory block

    Parameters
    ----------
    array1 : NDArray
        First NDArray to be checked
    array2 : NDArray
        Second NDArray to be checked

    Returns
    -------
    bool
        Whether two NDArrays share the same memory
    """
    array1[:] += 1
    if not same(array1.asnumpy(), array2.asnumpy()):
        array1[:] -= 1
        return False
    array1[:] -= 1
    return same(array1.asnumpy(), array2.asnumpy())


@contextmanager
def discard_stderr():
    """
    Discards error output of a routine if invoked as:

    with discard_stderr():
        ...
    """
    with open(os.devnull, 'w') as bit_bucket:
        try:
            stderr_fileno = sys.stderr.fileno()
        except (AttributeError, OSError, ValueError):
            # stderr is not a file descriptor here (e.g. captured by a test runner)
            yield
            return
        old_stderr = os.dup(stderr_fileno)
        try:
            os.dup2(bit_bucket.fileno(), stderr_fileno)
            yield
        finally:
            os.dup2(old_stderr, stderr_fileno)
            os.close(old_stderr)


def _make_dummy_iter():
    try:
        from .io import DataIter as base
    except ImportError:
        base = object

    class DummyIter(base):
        """A dummy iterator that always returns the same batch of data
        (the first data batch of the real data iter). This is usually used for speed testing.

        Parameters
        ----------
        real_iter: mx.io.DataIter
            The real data iterator where the first batch of data comes from
        """
        def __init__(self, real_iter):
            if base is not object:
                super(DummyIter, self).__init__()
            self.real_iter = real_iter
            self.provide_data = real_iter.provide_data
            self.provide_label = real_iter.provide_label
            self.batch_size = real_iter.batch_size
            self.the_batch = next(real_iter)

        def __iter__(self):
            return self

        def next(self):
            """Get a data batch from iterator. The first data batch of real iter is always
            returned. StopIteration will never be raised."""
            return self.the_batch

        __next__ = next

    return DummyIter, base is not object


# ------------------------------------------------------------------------------ statistics
def gen_buckets_probs_with_ppf(ppf, nbuckets):
    """Generate the buckets and probabilities for chi_square test when the ppf (Quantile
    function) is specified.

    Parameters
    ----------
    ppf : function
        The Quantile function that takes a probability and maps it back to a value.
        It's the inverse of the cdf function
    nbuckets : int
        size of the buckets

    Returns
    -------
    buckets : list of tuple
        The generated buckets
    probs : list
        The generate probabilities
    """
    assert nbuckets > 0
    probs = [1.0 / nbuckets for _ in range(nbuckets)]
    buckets = [(ppf(i / float(nbuckets)), ppf((i + 1) / float(nbuckets)))
               for i in range(nbuckets)]
    return buckets, probs


def mean_check(generator, mu, sigma, nsamples=1000000):
    """Test the generator by matching the mean: the sample mean must fall inside
    (mu - 3 * sigma / sqrt(n), mu + 3 * sigma / sqrt(n)).

    Parameters
    ----------
    generator : function
        The generator function. It's expected to generate N i.i.d samples by calling
        generator(N).
    mu : float
    sigma : float
    nsamples : int

    Returns
    -------
    ret : bool
        Whether the mean test succeeds
    """
    sample_mean = np.array(generator(nsamples)).mean()
    bound = 3 * sigma / np.sqrt(nsamples)
    return (sample_mean > mu - bound) and (sample_mean < mu + bound)


def var_check(generator, sigma, nsamples=1000000):
    """Test the generator by matching the variance: the sample variance must fall inside
    (sigma^2 - 3 * sqrt(2 * sigma^4 / (n-1)), sigma^2 + 3 * sqrt(2 * sigma^4 / (n-1))).

    Parameters
    ----------
    generator : function
        The generator function. It's expected to generate N i.i.d samples by calling
        generator(N).
    sigma : float
    nsamples : int

    Returns
    -------
    ret : bool
        Whether the variance test succeeds
    """
    sample_var = np.array(generator(nsamples)).var(ddof=1)
    bound = 3 * np.sqrt(2 * sigma ** 4 / (nsamples - 1))
    return (sample_var > sigma ** 2 - bound) and (sample_var < sigma ** 2 + bound)


def chi_square_check(generator, buckets, probs, nsamples=1000000):
    """Run the chi-square test for the generator. The generator can be both continuous and
    discrete.

    If the generator is continuous, the buckets should contain tuples of (range_min, range_max)
    and the probs should be the corresponding ideal probability within the specific ranges.
    Otherwise, the buckets should contain all the possible values generated over the discrete
    distribution and the probs should be groud-truth probability.

    Parameters
    ----------
    generator: function
        A function that is assumed to generate i.i.d samples from a specific distribution.
        generator(N) should generate N random samples.
    buckets: list of tuple or list of number
        The buckets to run the chi-square the test. Make sure that the buckets cover
        the whole range of the distribution. Also, the buckets must be in ascending order and
        have no intersection
    probs: list or tuple
        The ground-truth probability of the random value fall in a specific bucket.
    nsamples:int
        The number of samples to generate for the testing

    Returns
    -------
    p : float
        p value that the generator has the expected distribution.
        A higher value indicates a larger confidence
    obs_freq : list
        Observed frequency of buckets
    expected_freq : list
        The expected (ground-truth) frequency of the buckets
    """
    stats = _lazy('ss')
    if stats is None:
        raise ImportError('scipy is not available. Please check if the scipy python bindings '
                          'are installed.')
    assert isinstance(buckets, list)
    samples = generator(nsamples)
    assert len(probs) == len(buckets)
    continuous = isinstance(buckets[0], (list, tuple))
    expected_freq = (nsamples * np.array(probs, dtype=np.float32)).astype(np.int32)
    obs_freq = np.zeros(shape=len(buckets), dtype=np.int64)
    if continuous:
        edges = np.zeros((len(buckets) * 2,), dtype=np.float32)
        for i, (lo, hi) in enumerate(buckets):
            assert lo <= hi
            if i < len(buckets) - 1:
                assert hi <= buckets[i + 1][0]
            edges[2 * i], edges[2 * i + 1] = lo, hi
        ids = np.searchsorted(edges, samples, side='right') // 2
        for i in range(len(buckets)):
            obs_freq[i] = (ids == i).sum()
    else:
        ids = np.array(samples)
        for i, value in enumerate(buckets):
            obs_freq[i] = (ids == value).sum()
    # scipy >= 1.9 requires both frequencies to have the same total; the expected counts are
    # truncated integers, so compare against them scaled to the observed total
    f_exp = expected_freq * (obs_freq.sum() / max(expected_freq.sum(), 1))
    _, p = stats.chisquare(f_obs=obs_freq, f_exp=f_exp)
    return p, obs_freq, expected_freq


def verify_generator(generator, buckets, probs, nsamples=1000000, nrepeat=5, success_rate=0.2,
                     alpha=0.05):
    """Verify whether the generator is correct using chi-square testing.

    The test is repeated for "nrepeat" times and we check if the success rate is
    above the threshold (25% by default).

    Parameters
    ----------
    generator: function
        A function that is assumed to generate i.i.d samples from a specific distribution.
            generator(N) should generate N random samples.
    buckets: list of tuple or list of number
        The buckets to run the chi-square the test.
    probs: list or tuple
        The ground-truth probability of the random value fall in a specific bucket.
    nsamples: int
        The number of samples to generate for the testing
    nrepeat: int
        The times to repeat the test
    success_rate: float
        The desired success rate
    alpha: float
        The desired threshold for type-I error i.e. when a true null hypothesis is rejected

    Returns
    -------
    cs_ret_l: list
        The p values of the chi-square test.
    """
    ps, obs, exp = [], [], []
    for _ in range(nrepeat):
        p, obs_freq, expected_freq = chi_square_check(generator=generator, buckets=buckets,
                                                      probs=probs, nsamples=nsamples)
        ps.append(p)
        obs.append(obs_freq)
        exp.append(expected_freq)
    if (np.array(ps) > alpha).sum() < nrepeat * success_rate:
        raise AssertionError('Generator test fails, Chi-square p=%s, obs_freq=%s, '
                             'expected_freq=%s.\nbuckets=%s, probs=%s'
                             % (str(ps), str(obs), str(exp), str(buckets), str(probs)))
    return ps


def compare_ndarray_tuple(t1, t2, rtol=None, atol=None):
    """Compare ndarray tuple."""
    if t1 is None or t2 is None:
        return
    if isinstance(t1, tuple):
        for s1, s2 in zip(t1, t2):
            compare_ndarray_tuple(s1, s2, rtol, atol)
    else:
        assert_almost_equal(t1, t2, rtol=rtol, atol=atol)


def compare_optimizer(opt1, opt2, shape, dtype, w_stype='default', g_stype='default',
                      rtol=1e-4, atol=1e-5, compare_states=True, ntensors=1):
    """Compare opt1 and opt2: the same update from the same weights, gradients and states."""
    if w_stype != 'default' or g_stype != 'default':
        raise _no_sparse('compare_optimizer(w_stype=%r, g_stype=%r)' % (w_stype, g_stype))
    ctx = default_context()
    if not isinstance(shape, list):
        assert ntensors == 1
        w2 = mx.random.uniform(shape=shape, ctx=ctx, dtype=dtype)
        w1 = w2.copyto(ctx)
        g2 = mx.random.uniform(shape=shape, ctx=ctx, dtype=dtype)
        g1 = g2.copyto(ctx)
        state1 = opt1.create_state_multi_precision(0, w1)
        state2 = opt2.create_state_multi_precision(0, w2)
        if compare_states:
            compare_ndarray_tuple(state1, state2)
        opt1.update_multi_precision(0, w1, g1, state1)
        opt2.update_multi_precision(0, w2, g2, state2)
        if compare_states:
            compare_ndarray_tuple(state1, state2, rtol=rtol, atol=atol)
        assert_almost_equal(w1, w2, rtol=rtol, atol=atol)
        return
    # multi-tensor: opt1 updates one tensor at a time, opt2 all of them at once
    w1 = tuple(mx.random.uniform(shape=s, ctx=ctx, dtype=dtype) for s in shape)
    g1 = tuple(mx.random.uniform(shape=s, ctx=ctx, dtype=dtype) for s in shape)
    w2 = tuple(w.copy() for w in w1)
    g2 = tuple(g.copy() for g in g1)
    state2 = [opt2.create_state_multi_precision(0, w2[i]) for i in range(ntensors)]
    opt2.update_multi_precision(list(range(ntensors)), w2, g2, state2)
    for i in range(ntensors):
        state1 = opt1.create_state_multi_precision(i, w1[i])
        opt1.update_multi_precision(i, w1[i], g1[i], state1)
        if compare_states:
            compare_ndarray_tuple(state1, state2[i], rtol, atol)
        compare_ndarray_tuple(w1[i], w2[i], rtol, atol)


@contextmanager
def environment(*args):
    """
    Environment variable setter and unsetter via `with` idiom.

    Takes a specification of env var names and desired values and adds those
    settings to the environment in advance of running the body of the `with`
    statement.  The original environment state is restored afterwards, even
    if exceptions are raised in the `with` body.

    Parameters
    ----------
    args:
        if 2 args are passed:
            name, desired_value strings of the single env var to update, or
        if 1 arg is passed:
            a dict of name:desired_value for env var's to update
    """
    if len(args) == 1 and isinstance(args[0], dict):
        env_vars = args[0]
    else:
        assert len(args) == 2, 'Expecting one dict arg or two args: env var name and value'
        env_vars = {args[0]: args[1]}
    snapshot = {name: os.environ.get(name) for name in env_vars}
    for name, value in env_vars.items():
        setenv(name, value)
    try:
        yield
    finally:
        mx.nd.waitall()
        for name, value in snapshot.items():
            setenv(name, value)


def collapse_sum_like(a, shape):
    """Given `a` as a numpy ndarray, perform reduce_sum on `a` over the axes that do not
    exist in `shape`. Note that an ndarray with `shape` must be broadcastable to `a`.
    """
    assert len(a.shape) >= len(shape)
    if np.prod(shape) == 0 or a.size == 0:
        return np.zeros(shape, dtype=a.dtype)
    lead = len(a.shape) - len(shape)
    axes = list(range(lead))
    for i, s in enumerate(shape):
        if s != a.shape[i + lead]:
            assert s == 1
            axes.append(i + lead)
    return np.sum(a, axis=tuple(axes)).reshape(shape)


def is_cd_run():
    """Checks if the test is running as part of a Continuous Delivery run"""
    return os.environ.get('CD_JOB', 0) == '1'


def is_aarch64_run():
    """Checks if the test is running on aarch64 instance"""
    return platform.machine() == 'aarch64'


def has_tvm_ops():
    """Returns True if MXNet is compiled with TVM generated operators (never in mxcompat)."""
    return False


def is_op_runnable():
    """Returns True: every operator mxcompat has runs on every context torch supports."""
    return True


@use_np
def check_gluon_hybridize_consistency(net_builder, data_l, numpy_func=None, test_grad=True,
                                      rtol=1E-4, atol=1E-4):
    """Check whether a HybridBlock has consistent output between the hybridized
    v.s. non-hybridized versions.

    The block is built four times by ``net_builder(prefix='net_')`` (imperative and
    hybridized, each with and without autograd), every build with the parameters of the first;
    the outputs, and with ``test_grad`` the gradients of the inputs for a head gradient equal
    to the output, must agree, and with ``numpy_func`` the output must equal
    ``numpy_func(*inputs)``. The network should not contain any random number generators.

    Parameters
    ----------
    net_builder : function
        Builds the HybridBlock; takes the ``prefix`` keyword.
    data_l : list of mx.np.ndarray
        List of input ndarrays.
    numpy_func : function, optional
        The ground truth numpy function that has the same functionality as net_builder().
    test_grad : bool, optional
        Whether to test the consistency of the gradient. Default True.
    rtol : float, optional
        The relative error tolerance. Default 1E-4.
    atol : float, optional
        The absolute error tolerance. Default 1E-4.
    """
    from .initializer import Initializer

    class _SavedWeights(Initializer):
        """The first net's weights, by name (deferred shapes are known by then)."""
        def __init__(self, arrays):
            super().__init__()
            self._arrays = arrays

        def _init_weight(self, name, arr):
            arr[()] = self._arrays[name]

    saved = None
    want_out = want_grads = None
    for hybridize in (False, True):
        for record in ((False, True) if test_grad else (False,)):
            net = net_builder(prefix='net_')
            if saved is None:
                net.initialize()
            else:
                net.initialize(saved)
            if hybridize:
                net.hybridize()
            inputs = [x.copy() for x in data_l]
            if record:
                for x in inputs:
                    x.attach_grad()
                with mx.autograd.record():
                    out = net(*inputs)
                out.backward(out)
            else:
                out = net(*inputs)
            if saved is None:
                saved = _SavedWeights({k: v.data().asnumpy()
                                       for k, v in net.collect_params().items()})
            if want_out is None:
                want_out = out.asnumpy()
            else:
                assert_almost_equal(out.asnumpy(), want_out, rtol=rtol, atol=atol)
            if record:
                grads = [x.grad.asnumpy() for x in inputs]
                if want_grads is None:
                    want_grads = grads
                else:
                    for got, want in zip(grads, want_grads):
                        assert_almost_equal(got, want, rtol=rtol, atol=atol)
    if numpy_func is not None:
        assert_almost_equal(want_out, numpy_func(*[x.asnumpy() for x in data_l]), rtol=rtol,
                            atol=atol)


def new_matrix_with_real_eigvals_2d(n):
    """Generate a well-conditioned matrix with small real eigenvalues."""
    shape = (n, n)
    while True:
        diag = np.diag(np.random.uniform(-1.0, 1.0, shape[-1]))
        eye = np.eye(shape[-1]).reshape(shape)
        v = np.random.uniform(-1., 1., shape[-1]).reshape(shape[:-1] + (1,))
        v = v / np.linalg.norm(v, axis=-2, keepdims=True)
        householder = eye - 2 * np.matmul(v, np.swapaxes(v, -1, -2))
        q = np.matmul(householder, diag)
        if np.linalg.cond(q, 2) < 3:
            break
    diag = np.diag(np.random.uniform(-10.0, 10.0, n))
    return np.matmul(np.matmul(np.linalg.inv(q), diag), q)


def new_matrix_with_real_eigvals_nd(shape):
    """Generate well-conditioned matrices with small real eigenvalues."""
    n = int(np.prod(shape[:-2])) if len(shape) > 2 else 1
    return np.array([new_matrix_with_real_eigvals_2d(shape[-1]) for _ in range(n)]) \
        .reshape(shape)


def new_orthonormal_matrix_2d(n):
    """Generate a orthonormal matrix."""
    x = np.random.randn(n, n)
    return np.linalg.qr(np.matmul(x.T, x))[0]


def new_sym_matrix_with_real_eigvals_2d(n):
    """Generate a sym matrix with real eigenvalues."""
    q = new_orthonormal_matrix_2d(n)
    diag = np.diag(np.random.uniform(-10.0, 10.0, n))
    return np.matmul(np.matmul(q.T, diag), q)


def new_sym_matrix_with_real_eigvals_nd(shape):
    """Generate sym matrices with real eigenvalues."""
    n = int(np.prod(shape[:-2])) if len(shape) > 2 else 1
    return np.array([new_sym_matrix_with_real_eigvals_2d(shape[-1]) for _ in range(n)]) \
        .reshape(shape)


# ------------------------------------------------------------------------------ lazy names
# scipy and requests are imported on first use (``ss`` / ``requests`` as in MXNet's module);
# Symbol and DummyIter need modules that import later than this one.
_LAZY = {}


def _lazy(name):
    if name not in _LAZY:
        if name == 'ss':
            try:
                import scipy.stats as value
            except ImportError:
                value = None
        elif name == 'requests':
            try:
                import requests as value
            except ImportError:
                value = None
        elif name == 'Symbol':
            value = _symbol_api().Symbol
        elif name == 'Features':
            from .runtime import Features as value
        else:
            value, complete = _make_dummy_iter()
            if not complete:  # mx.io is not available yet: do not cache the stand-in
                return value
        _LAZY[name] = value
    return _LAZY[name]


def __getattr__(name):
    if name in _LAZY_NAMES:
        return _lazy(name)
    raise AttributeError("module 'mxcompat.test_utils' has no attribute %r" % name)


def _has_runtime():
    import importlib.util
    return importlib.util.find_spec(__package__ + '.runtime') is not None


_LAZY_NAMES = ('ss', 'requests', 'Symbol', 'DummyIter') + (('Features',) if _has_runtime()
                                                          else ())
__all__ = sorted(n for n in list(globals()) if not n.startswith('_')) + list(_LAZY_NAMES)
