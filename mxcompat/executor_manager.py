"""Executor manager: data-parallel executors for the legacy ``FeedForward`` trainer."""
import logging

import numpy as np

from .base import mx_real_t
from . import ndarray as nd
from .context import cpu
from .io import DataDesc

__all__ = ['DataParallelExecutorGroup', 'DataParallelExecutorManager']


def _split_input_slice(batch_size, work_load_list):
    """Splits a batch into one slice per device, proportionally to ``work_load_list``.

    Parameters
    ----------
    batch_size : int
        The number of samples in a mini-batch.
    work_load_list : list of float or int
        The work load of each device, in the order of the contexts.

    Returns
    -------
    slices : list of slice
        The slice of the batch each device gets.

    Raises
    ------
    ValueError
        If a slice would be empty.
    """
    total = sum(work_load_list)
    counts = [round(w * batch_size / total) for w in work_load_list]
    short = batch_size - sum(counts)
    if short > 0:
        counts[-1] += short
    slices = []
    end = 0
    for count in counts:
        begin = int(min(end, batch_size))
        end = int(min(begin + count, batch_size))
        if begin >= end:
            raise ValueError('Too many slices. Some splits are empty.')
        slices.append(slice(begin, end))
    return slices


def _check_arguments(symbol):
    """Raises ValueError if the symbol has duplicated argument or auxiliary state names."""
    arg_names = symbol.list_arguments()
    seen = set()
    for name in arg_names:
        if name in seen:
            raise ValueError(('Find duplicated argument name "%s", please make the weight name '
                              'non-duplicated(using name arguments), arguments are %s')
                             % (name, str(arg_names)))
        seen.add(name)
    aux_names = symbol.list_auxiliary_states()
    seen = set()
    for name in aux_names:
        if name in seen:
            raise ValueError(('Find duplicated auxiliary param name "%s", please make the weight '
                              'name non-duplicated(using name arguments), arguments are %s, '
                              'auxiliary params are %s') % (name, str(arg_names), str(aux_names)))
        seen.add(name)


def _load_general(data, targets):
    """Copies each array of ``data`` into its target: an NDArray, or (slice, NDArray) pairs."""
    for d_src, d_targets in zip(data, targets):
        if isinstance(d_targets, nd.NDArray):
            d_src.copyto(d_targets)
            continue
        assert d_targets[-1][0].stop == d_src.shape[0], \
            'Batch size miss match. Expected %d, got %d' % (d_targets[-1][0].stop,
                                                            d_src.shape[0])
        for slice_idx, d_dst in d_targets:
            d_src[slice_idx].copyto(d_dst)


def _load_data(batch, targets):
    """Load data into sliced arrays."""
    _load_general(batch.data, targets)


def _load_label(batch, targets):
    """Load label into sliced arrays."""
    _load_general(batch.label, targets)


def _bind_exec(sym, ctx, input_shapes, param_names, need_grad=False, base_exec=None,
               shared_data_arrays=None, input_types=None, logger=logging):
    """Binds an executor whose parameters (and their gradients) are those of ``base_exec``
    when given, and whose data arrays reuse ``shared_data_arrays`` where they are big
    enough (bucketing)."""
    arg_shapes, _, aux_shapes = sym.infer_shape(**input_shapes)
    assert arg_shapes is not None
    if input_types is None:
        input_types = {k: mx_real_t for k in input_shapes}
    arg_types, _, aux_types = sym.infer_type(**input_types)
    assert arg_types is not None
    arg_names = sym.list_arguments()
    grad_arrays = {} if need_grad is not False else None
    if need_grad is False:
        need_grad = set()
    elif need_grad is True:
        need_grad = set(arg_names) - set(input_shapes.keys())
    elif not isinstance(need_grad, set):
        raise AssertionError('need_grad must be boolean or set.')
    grad_req = {name: ('write' if name in need_grad else 'null') for name in arg_names}
    arg_arrays = []
    for name, shape, dtype in zip(arg_names, arg_shapes, arg_types):
        shape = tuple(shape)
        if name not in param_names:
            arr = shared_data_arrays.get(name) if shared_data_arrays is not None else None
            if arr is not None and np.prod(arr.shape) >= np.prod(shape):
                assert dtype == arr.dtype
                arr = arr._like(arr._t.reshape(-1)[:int(np.prod(shape))].view(shape))
            else:
                if arr is not None:
                    logger.warning('bucketing: data "%s" has a shape %s, which is larger than '
                                   'already allocated shape %s. Need to re-allocate. Consider '
                                   'putting default_bucket_key to be the bucket taking the '
                                   'largest input for better memory sharing.'
                                   % (name, shape, arr.shape))
                arr = nd.zeros(shape, ctx, dtype=dtype)
                if shared_data_arrays is not None:
                    shared_data_arrays[name] = arr
        elif base_exec is None:
            arr = nd.zeros(shape, ctx, dtype=dtype)
            if name in need_grad:
                grad_arrays[name] = nd.zeros(shape, ctx, dtype=dtype)
        else:
            arr = base_exec.arg_dict[name]
            assert arr.shape == shape
            assert arr.dtype == dtype
            if name in need_grad:
                grad_arrays[name] = base_exec.grad_dict[name]
        arg_arrays.append(arr)
    if base_exec is None:
        aux_arrays = [nd.zeros(tuple(s), ctx, dtype=t) for s, t in zip(aux_shapes, aux_types)]
    else:
        for shape, dtype, a in zip(aux_shapes, aux_types, base_exec.aux_arrays):
            assert tuple(shape) == a.shape
            assert dtype == a.dtype
        aux_arrays = list(base_exec.aux_arrays)
    return sym.bind(ctx=ctx, args=arg_arrays, args_grad=grad_arrays, aux_states=aux_arrays,
                    grad_req=grad_req, shared_exec=base_exec)


class DataParallelExecutorGroup(object):
    """A group of executors living on different devices, for data parallelization.

    Parameters
    ----------
    sym: Symbol
        The network configuration.
    arg_names: list of str
        Equals `sym.list_arguments()`
    param_names: list of str
        List of names of all trainable parameters.
    ctx: list of Context
        List of devices for training (data parallelization).
    slices: list of int
        Describes how the data parallelization splits data into different devices.
    train_data: DataIter (or DataBatch)
        Any object with `provide_data` and `provide_label`.
    shared_group: DataParallelExecutorGroup
        An existing executor group, if to share parameters with it.
    """

    def __init__(self, sym, arg_names, param_names, ctx, slices, train_data, shared_group=None):
        _check_arguments(sym)
        if shared_group is None:
            self.shared_data_arrays = [{} for _ in ctx]
        else:
            self.shared_data_arrays = shared_group.shared_data_arrays
        self.data_names = [x[0] for x in train_data.provide_data]
        self.label_names = [x[0] for x in train_data.provide_label]
        self.aux_names = sym.list_auxiliary_states()
        self.param_idx = [i for i in range(len(arg_names)) if arg_names[i] in param_names]
        self.param_names = [arg_names[i] for i in self.param_idx]
        self.train_execs = []
        for i, ctxi in enumerate(ctx):
            data_shapes = {}
            data_types = {}
            for x in train_data.provide_data + train_data.provide_label:
                data_shapes[x[0]] = tuple([slices[i].stop - slices[i].start] + list(x[1][1:]))
                data_types[x[0]] = x.dtype if isinstance(x, DataDesc) else mx_real_t
            shared_exec = None if shared_group is None else shared_group.train_execs[i]
            self.train_execs.append(_bind_exec(sym, ctxi, data_shapes, self.param_names,
                                               need_grad=True, base_exec=shared_exec,
                                               shared_data_arrays=self.shared_data_arrays[i],
                                               input_types=data_types))
        execs = self.train_execs
        self.data_arrays = [[(slices[i], e.arg_dict[name]) for i, e in enumerate(execs)]
                            for name in self.data_names]
        self.label_arrays = [[(slices[i], e.arg_dict[name]) for i, e in enumerate(execs)]
                             for name in self.label_names]
        self.param_arrays = [[e.arg_arrays[i] for e in execs] for i in self.param_idx]
        self.grad_arrays = [[e.grad_arrays[i] for e in execs] for i in self.param_idx]
        self.aux_arrays = [[e.aux_arrays[i] for e in execs] for i in range(len(self.aux_names))]
        self.slices = slices

    def load_data_batch(self, data_batch):
        """Load data and labels into arrays."""
        _load_data(data_batch, self.data_arrays)
        _load_label(data_batch, self.label_arrays)

    def forward(self, is_train=False):
        """Perform a forward pass on each executor."""
        for texec in self.train_execs:
            texec.forward(is_train=is_train)

    def backward(self):
        """Perform a backward pass on each executor."""
        for texec in self.train_execs:
            texec.backward()

    def update_metric(self, metric, labels, pre_sliced=False):
        """Update evaluation metric with label and current outputs."""
        for current_exec, (texec, islice) in enumerate(zip(self.train_execs, self.slices)):
            if not pre_sliced:
                labels_slice = [label[islice] for label in labels]
            else:
                labels_slice = labels[current_exec]
            metric.update(labels_slice, texec.outputs)


class DataParallelExecutorManager(object):
    """Helper class to manage multiple executors for data parallelism.

    Parameters
    ----------
    symbol : Symbol
        Output symbol.
    ctx : list of Context
        Devices to run on.
    param_names: list of str
        Name of all trainable parameters of the network.
    arg_names: list of str
        Name of all arguments of the network.
    aux_names: list of str
        Name of all auxiliary states of the network.
    train_data : DataIter
        Training data iterator.
    work_load_list : list of float or int, optional
        The list of work load for different devices, in the same order as ctx.
    logger : logging logger
        When not specified, default logger will be used.
    sym_gen : A function that generate new Symbols depending on different
        input shapes. Used only for bucketing.
    """

    def __init__(self, symbol, ctx, train_data, arg_names, param_names, aux_names,
                 work_load_list=None, logger=None, sym_gen=None):
        if logger is None:
            logger = logging
        num_device = len(ctx)
        logger.info('Start training with %s', str(ctx))
        if work_load_list is None:
            work_load_list = [1] * num_device
        assert isinstance(work_load_list, list) and len(work_load_list) == num_device, \
            'Invalid settings for work load. '
        self.slices = _split_input_slice(train_data.batch_size, work_load_list)
        self.arg_names = arg_names
        self.param_names = param_names
        self.aux_names = aux_names
        self.ctx = ctx
        self.execgrp = DataParallelExecutorGroup(symbol, self.arg_names, self.param_names,
                                                 self.ctx, self.slices, train_data)
        self.symbol = symbol
        self.sym_gen = sym_gen
        self.curr_execgrp = None
        if self.sym_gen is not None:
            self.execgrp_bucket = {train_data.default_bucket_key: self.execgrp}

    def install_monitor(self, monitor):
        """Install monitor on all executors."""
        if self.sym_gen is not None:
            raise NotImplementedError('Monitoring is not implemented for bucketing')
        for train_exec in self.execgrp.train_execs:
            monitor.install(train_exec)

    def set_params(self, arg_params, aux_params):
        """Copies parameter and aux values to every executor.

        Parameters
        ----------
        arg_params : dict of str to NDArray
            Source parameter arrays.
        aux_params : dict of str to NDArray
            Source aux arrays.
        """
        for texec in self.execgrp.train_execs:
            texec.copy_params_from(arg_params, aux_params)

    def copy_to(self, arg_params, aux_params):
        """Copies the average over the devices of each parameter and aux state into
        ``arg_params`` and ``aux_params`` (in place).

        Parameters
        ----------
        arg_params : dict of str to NDArray
            Target parameter arrays.
        aux_params : dict of str to NDArray
            Target aux arrays.
        """
        for name, block in zip(self.param_names, self.param_arrays):
            weight = sum(w.copyto(cpu()) for w in block) / len(block)
            weight.astype(arg_params[name].dtype).copyto(arg_params[name])
        for name, block in zip(self.aux_names, self.aux_arrays):
            weight = sum(w.copyto(cpu()) for w in block) / len(block)
            weight.astype(aux_params[name].dtype).copyto(aux_params[name])

    @property
    def param_arrays(self):
        """Shared parameter arrays."""
        return self.execgrp.param_arrays

    @property
    def grad_arrays(self):
        """Shared gradient arrays."""
        return self.execgrp.grad_arrays

    @property
    def aux_arrays(self):
        """Shared aux states."""
        return self.execgrp.aux_arrays

    def load_data_batch(self, data_batch):
        """Load data and labels into arrays (switching bucket if needed)."""
        if self.sym_gen is not None:
            key = data_batch.bucket_key
            if key not in self.execgrp_bucket:
                symbol = self.sym_gen(key)
                self.execgrp_bucket[key] = DataParallelExecutorGroup(
                    symbol, self.arg_names, self.param_names, self.ctx, self.slices,
                    data_batch, shared_group=self.execgrp)
            self.curr_execgrp = self.execgrp_bucket[key]
        else:
            self.curr_execgrp = self.execgrp
        self.curr_execgrp.load_data_batch(data_batch)

    def forward(self, is_train=False):
        """Run forward on the current executor."""
        self.curr_execgrp.forward(is_train=is_train)

    def backward(self):
        """Run backward on the current executor."""
        self.curr_execgrp.backward()

    def update_metric(self, metric, labels, pre_sliced=False):
        """Update metric with the current executor."""
        self.curr_execgrp.update_metric(metric, labels, pre_sliced)
