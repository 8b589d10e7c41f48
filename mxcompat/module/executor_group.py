"""DataParallelExecutorGroup: one executor per context, each running a slice of the batch."""
import logging

import numpy as np
import torch

from .. import context as ctx
from .. import ndarray as nd
from ..base import MXNetError, DTYPE_MX_TO_NP, mx_real_t
from ..io import DataDesc
from ..ndarray.sparse import _var_storage_types
from ..executor_manager import _split_input_slice

__all__ = ['DataParallelExecutorGroup']


def _copy_part(src, dst, axis, begin, end):
    """Copies ``src[begin:end]`` along ``axis`` (all of it when ``axis`` < 0) into ``dst``."""
    t = src._t.detach()
    if axis >= 0 and (begin != 0 or end != t.shape[axis]):
        t = t.narrow(axis, begin, end - begin)
    d = dst._t
    if t.shape != d.shape:
        raise MXNetError('Module: an input of shape %s does not fit the bound array of shape '
                         '%s; call reshape (or forward, which reshapes) for new shapes'
                         % (tuple(t.shape), dst.shape))
    d.detach().copy_(t)


def _load_general(data, targets, major_axis):
    """Copies each source array (or list of per-device arrays) into its targets."""
    for d_src, d_targets, axis in zip(data, targets, major_axis):
        if isinstance(d_targets, nd.NDArray):
            d_src.copyto(d_targets)
        elif isinstance(d_src, (list, tuple)):
            for src, dst in zip(d_src, d_targets):
                src.copyto(dst)
        else:
            for slice_idx, d_dst in d_targets:
                _copy_part(d_src, d_dst, axis, slice_idx.start, slice_idx.stop)


def _copy_whole(sources, targets):
    """``_load_general`` for one device when every source is an NDArray of its bound array's
    shape; False (after copying some of them) where the general path must decide."""
    for src, target in zip(sources, targets):
        if type(src) is not nd.NDArray:
            return False
        t, d = src._t, target[0][1]._t
        if t.shape != d.shape:
            return False
        if t.requires_grad or d.requires_grad:
            t, d = t.detach(), d.detach()
        d.copy_(t)
    return True


def _per_device(batches, targets, field):
    """Sources and targets for a list of pre-sliced batches (one per device)."""
    sources = [[getattr(b, field)[i] for b in batches] for i in range(len(targets))]
    return sources, [[dst for _, dst in target] for target in targets]


def _load_data(batch, targets, major_axis):
    """Load data into sliced arrays."""
    if isinstance(batch, list):
        _load_general(*_per_device(batch, targets, 'data'), major_axis)
    else:
        _load_general(batch.data, targets, major_axis)


def _load_label(batch, targets, major_axis):
    """Load label into sliced arrays."""
    if isinstance(batch, list):
        _load_general(*_per_device(batch, targets, 'label'), major_axis)
    else:
        _load_general(batch.label, targets, major_axis)


def _merge_multi_context(outputs, major_axis):
    """Concatenates the per-device pieces of each output along its batch axis (an output
    without batch axis is taken from the first device)."""
    rets = []
    for tensors, axis in zip(outputs, major_axis):
        if axis >= 0 and len(tensors) > 1:
            dev = tensors[0]._t.device
            rets.append(tensors[0]._like(torch.cat([t._t.to(dev) for t in tensors], dim=axis)))
        else:
            rets.append(tensors[0])
    return rets


def _prepare_group2ctxs(group2ctxs, ctx_len):
    """One ``{ctx_group: Context}`` dict (or None) per device."""
    if group2ctxs is None:
        return [None] * ctx_len
    if isinstance(group2ctxs, list):
        assert len(group2ctxs) == ctx_len, 'length of group2ctxs should be %d' % ctx_len
        return group2ctxs
    if isinstance(group2ctxs, dict):
        ret = [{} for _ in range(ctx_len)]
        for k, v in group2ctxs.items():
            if isinstance(v, ctx.Context):
                ctxs = [v] * ctx_len
            elif len(v) == 1:
                ctxs = v * ctx_len
            else:
                assert len(v) == ctx_len, 'length of group2ctxs[%s] should be %d or 1' \
                    % (k, ctx_len)
                ctxs = v
            for i in range(ctx_len):
                ret[i][k] = ctxs[i]
        return ret
    raise AssertionError('group2ctxs should be list of dict of str to context, or dict of str '
                         'to context or list of context')


def _nbytes(arr):
    return arr._t.numel() * arr._t.element_size()


class DataParallelExecutorGroup(object):
    """A group of executors that lives on a group of devices.

    Each mini-batch is split along its batch axis (by ``workload``) and each part runs on one
    device with its own copy of the parameters.

    Parameters
    ----------
    symbol : Symbol
        The common symbolic computation graph for all executors.
    contexts : list
        A list of contexts.
    workload : list
        If not ``None``, could be a list of numbers that specify the workload to be assigned
        to different context. Larger number indicate heavier workload.
    data_shapes : list
        Should be a list of (name, shape) tuples, for the shapes of data, in the order the
        `DataIter` provides them.
    label_shapes : list
        Should be a list of (name, shape) tuples, for the shapes of label, in the order the
        `DataIter` provides them.
    param_names : list
        A list of strings, indicating the names of parameters (e.g. weights, filters, etc.)
        in the computation graph.
    for_training : bool
        Whether the executors are bound for training (gradients are allocated).
    inputs_need_grad : bool
        Whether gradients with respect to the input data are computed.
    shared_group : DataParallelExecutorGroup
        An executor group of another bucket (same parameters, different symbol): parameters,
        their gradients, auxiliary states and data buffers are shared with it.
    logger : Logger
        Default is `logging`.
    fixed_param_names: list of str
        Parameters fixed during training (no gradient is computed for them).
    grad_req : str, list of str, dict of str to str
        Requirement for gradient accumulation. Can be 'write', 'add', or 'null'
        (default to 'write'). Can be specified globally (str) or for each argument (list, dict).
    state_names : list of str
        Input states (e.g. RNN states) that are not parameters.
    group2ctxs : dict of str to context or list of context, or list of dict of str to context
        Default is `None`. Mapping the `ctx_group` attribute to the context assignment.
    """

    def __init__(self, symbol, contexts, workload, data_shapes, label_shapes, param_names,
                 for_training, inputs_need_grad, shared_group=None, logger=logging,
                 fixed_param_names=None, grad_req='write', state_names=None, group2ctxs=None):
        self.param_names = param_names
        self.arg_names = symbol.list_arguments()
        self.aux_names = symbol.list_auxiliary_states()
        self.symbol = symbol
        self.contexts = contexts
        self.workload = workload
        self.group2ctxs = _prepare_group2ctxs(group2ctxs, len(contexts))
        self.for_training = for_training
        self.inputs_need_grad = inputs_need_grad
        self.logger = logger
        self._total_exec_bytes = 0
        self.fixed_param_names = fixed_param_names if fixed_param_names is not None else []
        self.state_names = state_names if state_names is not None else []
        if not for_training:
            grad_req = 'null'
        data_shapes = [x if isinstance(x, DataDesc) else DataDesc(*x) for x in data_shapes]
        if label_shapes is not None:
            label_shapes = [x if isinstance(x, DataDesc) else DataDesc(*x) for x in label_shapes]
        self.grad_req = self._grad_reqs(grad_req, [x.name for x in data_shapes])
        if shared_group is not None:
            self.shared_data_arrays = shared_group.shared_data_arrays
        else:
            self.shared_data_arrays = [{} for _ in contexts]
        self.batch_size = None
        self.slices = None
        self.execs = []
        self._default_execs = None
        self._out_shapes = None
        self.data_arrays = None
        self.label_arrays = None
        self.param_arrays = None
        self.state_arrays = None
        self.grad_arrays = None
        self.aux_arrays = None
        self.input_grad_arrays = None
        self.data_shapes = None
        self.label_shapes = None
        self.data_names = None
        self.label_names = None
        self.data_layouts = None
        self.label_layouts = None
        self.output_names = self.symbol.list_outputs()
        self.num_outputs = len(self.output_names)
        self.output_layouts = [DataDesc.get_batch_axis(self.symbol[index].attr('__layout__'))
                               for index in range(self.num_outputs)]
        self.bind_exec(data_shapes, label_shapes, shared_group)

    def _grad_reqs(self, grad_req, data_names):
        """The grad_req of every argument: parameters (unless fixed) get ``grad_req``, data
        only when ``inputs_need_grad``, labels and states never."""
        if isinstance(grad_req, (list, tuple)):
            assert len(grad_req) == len(self.arg_names)
            return dict(zip(self.arg_names, grad_req))
        if isinstance(grad_req, str):
            default, overrides = grad_req, {}
        elif isinstance(grad_req, dict):
            default, overrides = 'write', grad_req
        else:
            raise ValueError('grad_req must be one of str, list, tuple, or dict.')
        reqs = {}
        for k in self.arg_names:
            if k in self.param_names:
                reqs[k] = 'null' if k in self.fixed_param_names else default
            elif k in data_names:
                reqs[k] = default if self.inputs_need_grad else 'null'
            else:
                reqs[k] = 'null'
        reqs.update(overrides)
        return reqs

    def decide_slices(self, data_shapes):
        """Decides the slices of the batch for each context from the workload.

        Parameters
        ----------
        data_shapes : list of DataDesc
            The shapes of the data (or label).

        Returns
        -------
        list of int
            The batch axis of each input (-1: none).
        """
        assert len(data_shapes) > 0
        major_axis = [DataDesc.get_batch_axis(x.layout) for x in data_shapes]
        for (name, shape), axis in zip(data_shapes, major_axis):
            if axis == -1:
                continue
            batch_size = shape[axis]
            if self.batch_size is not None:
                assert batch_size == self.batch_size, \
                    ('all data must have the same batch size: batch_size = %d, but %s has shape '
                     '%s' % (self.batch_size, name, shape))
            else:
                self.batch_size = batch_size
                self.slices = _split_input_slice(self.batch_size, self.workload)
        return major_axis

    def _collect_arrays(self):
        """Collects the per-device arrays of the executors into per-name lists."""
        execs = self.execs
        if self.slices:
            self.data_arrays = [[(self.slices[i], e.arg_dict[name]) for i, e in enumerate(execs)]
                                for name, _ in self.data_shapes]
        else:
            self.data_arrays = [[(slice(i, i + 1), e.arg_dict[name])
                                 for i, e in enumerate(execs)] for name, _ in self.data_shapes]
        self.state_arrays = [[e.arg_dict[name] for e in execs] for name in self.state_names]
        if self.label_shapes is not None:
            self.label_arrays = [[(self.slices[i], e.arg_dict[name])
                                  for i, e in enumerate(execs)] for name, _ in self.label_shapes]
        else:
            self.label_arrays = None
        param_idx = [i for i, name in enumerate(self.arg_names) if name in self.param_names]
        self.param_arrays = [[e.arg_arrays[i] for e in execs] for i in param_idx]
        if self.for_training:
            self.grad_arrays = [[e.grad_arrays[i] for e in execs] for i in param_idx]
        else:
            self.grad_arrays = None
        if self.inputs_need_grad:
            self.input_grad_arrays = [[e.grad_arrays[self.arg_names.index(name)] for e in execs]
                                      for name, _ in self.data_shapes
                                      if name in self.arg_names]
        else:
            self.input_grad_arrays = None
        self.aux_arrays = [[e.aux_arrays[i] for e in execs] for i in range(len(self.aux_names))]

    def bind_exec(self, data_shapes, label_shapes, shared_group=None, reshape=False):
        """Binds the executors on their devices (or reshapes the bound ones).

        Parameters
        ----------
        data_shapes : list of DataDesc
        label_shapes : list of DataDesc or None
        shared_group : DataParallelExecutorGroup
        reshape : bool
        """
        assert reshape or not self.execs
        self.batch_size = None
        self.data_layouts = self.decide_slices(data_shapes)
        if label_shapes is not None:
            self.label_layouts = self.decide_slices(label_shapes)
        for i in range(len(self.contexts)):
            data_shapes_i = self._sliced_shape(data_shapes, i, self.data_layouts)
            if label_shapes is not None:
                label_shapes_i = self._sliced_shape(label_shapes, i, self.label_layouts)
            else:
                label_shapes_i = []
            if reshape:
                self.execs[i] = self._default_execs[i].reshape(
                    allow_up_sizing=True, **dict(data_shapes_i + label_shapes_i))
            else:
                self.execs.append(self._bind_ith_exec(i, data_shapes_i, label_shapes_i,
                                                      shared_group))
        self.data_shapes = data_shapes
        self.label_shapes = label_shapes
        self.data_names = [i.name for i in self.data_shapes]
        if label_shapes is not None:
            self.label_names = [i.name for i in self.label_shapes]
        self._out_shapes = None
        self._collect_arrays()

    def reshape(self, data_shapes, label_shapes):
        """Reshapes the executors for new input shapes (memory is shared with the
        executors first bound).

        Parameters
        ----------
        data_shapes : list of DataDesc
        label_shapes : list of DataDesc or None
        """
        if data_shapes == self.data_shapes and label_shapes == self.label_shapes:
            return
        if self._default_execs is None:
            self._default_execs = list(self.execs)
        self.bind_exec(data_shapes, label_shapes, reshape=True)

    def set_params(self, arg_params, aux_params, allow_extra=False):
        """Copies parameters to all the executors.

        Parameters
        ----------
        arg_params : dict
            A dictionary of name to `NDArray` parameter mapping.
        aux_params : dict
            A dictionary of name to `NDArray` auxiliary variable mapping.
        allow_extra : boolean, optional
            Whether to ignore (rather than reject) parameters the symbol does not use.
        """
        for exec_ in self.execs:
            exec_.copy_params_from(arg_params, aux_params, allow_extra_params=allow_extra)

    def get_params(self, arg_params, aux_params):
        """Copies the average over the devices of each parameter and auxiliary state into
        ``arg_params`` and ``aux_params`` (in place).

        Parameters
        ----------
        arg_params : dict of str to NDArray
            Target parameter arrays.
        aux_params : dict of str to NDArray
            Target aux arrays.
        """
        for name, block in zip(self.param_names, self.param_arrays):
            _average_into(block, arg_params[name])
        for name, block in zip(self.aux_names, self.aux_arrays):
            _average_into(block, aux_params[name])

    def forward(self, data_batch, is_train=None):
        """Splits ``data_batch`` by the workload and runs forward on each device.

        Parameters
        ----------
        data_batch : DataBatch
            Or any object with ``data`` (and ``label``) lists.
        is_train : bool
            Whether this is a training pass; default `self.for_training`.
        """
        if is_train is None:
            is_train = self.for_training
        if len(self.execs) == 1 and not isinstance(data_batch, list):
            # one device: its slice of the batch is the whole batch
            if not _copy_whole(data_batch.data, self.data_arrays):
                _load_data(data_batch, self.data_arrays, self.data_layouts)
            if self.label_arrays is not None and data_batch.label and \
                    not _copy_whole(data_batch.label, self.label_arrays):
                _load_label(data_batch, self.label_arrays, self.label_layouts)
            self.execs[0].forward(is_train=is_train)
            return
        _load_data(data_batch, self.data_arrays, self.data_layouts)
        if isinstance(data_batch, list):
            if self.label_arrays is not None and data_batch is not None and data_batch[0].label:
                _load_label(data_batch, self.label_arrays, self.label_layouts)
        elif self.label_arrays is not None and data_batch.label:
            _load_label(data_batch, self.label_arrays, self.label_layouts)
        for exec_ in self.execs:
            exec_.forward(is_train=is_train)

    def get_output_shapes(self):
        """The (name, shape) of each output, with the whole batch size on the batch axis."""
        if self._out_shapes is None:
            arrays = self.execs[0].arg_dict
            shapes = {name: arrays[name].shape for name, _ in self.data_shapes}
            if self.label_shapes is not None:
                shapes.update({name: arrays[name].shape for name, _ in self.label_shapes})
            self._out_shapes = self.symbol.infer_shape(**shapes)[1]
        concat_shapes = []
        for key, the_shape, axis in zip(self.output_names, self._out_shapes,
                                        self.output_layouts):
            the_shape = list(the_shape)
            if axis >= 0:
                the_shape[axis] = self.batch_size
            concat_shapes.append((key, tuple(the_shape)))
        return concat_shapes

    def get_outputs(self, merge_multi_context=True, begin=0, end=None):
        """Outputs of the last forward pass, [begin, end) of them.

        Parameters
        ----------
        merge_multi_context : bool
            Whether to concatenate the outputs of the devices.
        begin : int
            starting index of returned outputs in all outputs
        end : int or None
            ending index (excluded) of returned outputs.

        Returns
        -------
        ``[out1, out2]`` when merged, else ``[[out1_dev1, out1_dev2], [out2_dev1, out2_dev2]]``.
        """
        if end is None:
            end = self.num_outputs
        outputs = [[exec_.outputs[i] for exec_ in self.execs] for i in range(begin, end)]
        if merge_multi_context:
            outputs = _merge_multi_context(outputs, self.output_layouts)
        return outputs

    def get_states(self, merge_multi_context=True):
        """The state arrays of all devices, ``[[state1_dev1, state1_dev2], ...]``
        (``merge_multi_context=True`` is not supported)."""
        assert not merge_multi_context, \
            'merge_multi_context=True is not supported for get_states yet.'
        return self.state_arrays

    def set_states(self, states=None, value=None):
        """Sets the states from per-device arrays, or all of them to a scalar ``value``.

        Parameters
        ----------
        states : list of list of NDArrays
            ``[[state1_dev1, state1_dev2], [state2_dev1, state2_dev2]]``.
        value : number
            a single scalar value for all state arrays.
        """
        if states is not None:
            assert value is None, 'Only one of states & value can be specified.'
            _load_general(states, self.state_arrays, (0,) * len(states))
        else:
            assert value is not None, 'At least one of states & value must be specified.'
            assert states is None, 'Only one of states & value can be specified.'
            for d_dst in self.state_arrays:
                for dst in d_dst:
                    dst[:] = value

    def get_input_grads(self, merge_multi_context=True):
        """The gradients with respect to the inputs (``inputs_need_grad`` must be set).

        Returns
        -------
        ``[grad1, grad2]`` when merged, else ``[[grad1_dev1, grad1_dev2], ...]``.
        """
        assert self.inputs_need_grad
        if merge_multi_context:
            return _merge_multi_context(self.input_grad_arrays, self.data_layouts)
        return self.input_grad_arrays

    def backward(self, out_grads=None):
        """Runs backward on all devices (after a training forward).

        Parameters
        ----------
        out_grads : NDArray or list of NDArray, optional
            Gradient on the outputs, needed when the outputs are not loss functions; each is
            split across the devices like the batch.
        """
        assert self.for_training, 're-bind with for_training=True to run backward'
        if out_grads is None:
            for exec_ in self.execs:
                exec_.backward()
            return
        elif isinstance(out_grads, nd.NDArray):
            out_grads = [out_grads]
        for i, (exec_, islice) in enumerate(zip(self.execs, self.slices)):
            dev = self.contexts[i]
            sliced = []
            for grad, axis in zip(out_grads, self.output_layouts):
                t = grad._t.detach()
                if axis >= 0:
                    t = t.narrow(axis, islice.start, islice.stop - islice.start)
                sliced.append(nd.NDArray._like(grad, t.to(dev.torch_device)))
            exec_.backward(out_grads=sliced or None)

    def update_metric(self, eval_metric, labels, pre_sliced):
        """Updates ``eval_metric`` with the outputs of every device and the matching part of
        ``labels``.

        Parameters
        ----------
        eval_metric : EvalMetric
            The metric used for evaluation.
        labels : list of NDArray
            Typically comes from `label` of a `DataBatch`.
        pre_sliced : bool
            Whether labels are already sliced (one list per device).
        """
        for current_exec, (texec, islice) in enumerate(zip(self.execs, self.slices)):
            if not pre_sliced:
                labels_slice = []
                for label, axis in zip(labels, self.label_layouts):
                    if axis == 0 and islice.start == 0 and islice.stop == len(label):
                        labels_slice.append(label)  # one device: its slice is the batch
                    elif axis == 0:
                        labels_slice.append(label[islice])
                    elif axis > 0:
                        t = label._t.narrow(axis, islice.start, islice.stop - islice.start)
                        labels_slice.append(label._like(t))
                    else:
                        labels_slice.append(label)
            else:
                labels_slice = labels[current_exec]
            eval_metric.update_dict(dict(zip(self.label_names, labels_slice)),
                                    dict(zip(self.output_names, texec.outputs)))

    def _bind_ith_exec(self, i, data_shapes, label_shapes, shared_group):
        """Binds the executor of device ``i``: parameters (with gradients and auxiliary
        states) come from ``shared_group``'s executor when given, other inputs reuse the
        group's data buffers where they are large enough, as MXNet's simple_bind does."""
        shared_exec = None if shared_group is None else shared_group.execs[i]
        context = self.contexts[i]
        input_shapes = dict(data_shapes)
        if label_shapes is not None:
            input_shapes.update(dict(label_shapes))
        input_types = {x.name: x.dtype for x in data_shapes}
        attr_dict = self.symbol.attr_dict()
        for name in self.symbol.list_inputs():
            dtype_attr = attr_dict.get(name, {}).get('__dtype__')
            if name in input_types and dtype_attr is not None and dtype_attr != '-1':
                input_types[name] = DTYPE_MX_TO_NP[int(dtype_attr)]
        if label_shapes is not None:
            input_types.update({x.name: x.dtype for x in label_shapes})
        group2ctx = self.group2ctxs[i]

        def ctx_of(name):
            group = attr_dict.get(name, {}).get('__ctx_group__')
            if group2ctx is None or group not in group2ctx:
                return context
            return group2ctx[group]

        stypes = _var_storage_types(attr_dict)
        arg_shapes, _, aux_shapes = self.symbol.infer_shape(**input_shapes)
        if arg_shapes is None:
            raise MXNetError('Module.bind: cannot infer the shapes of all arguments from %s'
                             % input_shapes)
        arg_types, _, aux_types = self.symbol.infer_type(**input_types)
        if arg_types is None:
            arg_types = [mx_real_t] * len(arg_shapes)
            aux_types = [mx_real_t] * len(aux_shapes)
        buffers = self.shared_data_arrays[i]
        args, grads = [], []
        for name, shape, dtype in zip(self.arg_names, arg_shapes, arg_types):
            shape = tuple(shape)
            need_grad = self.grad_req[name] != 'null'
            if name in self.param_names:
                if shared_exec is not None:
                    arr = _shared(shared_exec.arg_dict, name, shape, dtype)
                else:
                    arr = self._zeros(shape, ctx_of(name), dtype, stypes.get(name))
                grad = None
                if need_grad:
                    grad = shared_exec.grad_dict.get(name) if shared_exec is not None else None
                    if grad is None:
                        grad = self._zeros(shape, ctx_of(name), dtype)
            else:
                arr = self._reshape_or_create(buffers, name, shape, dtype, ctx_of(name),
                                              stypes.get(name))
                grad = self._reshape_or_create(buffers, 'grad of ' + name, shape, dtype,
                                               ctx_of(name)) if need_grad else None
            args.append(arr)
            grads.append(grad)
        if shared_exec is not None:
            aux_arrays = [_shared(shared_exec.aux_dict, name, tuple(shape), dtype)
                          for name, shape, dtype in zip(self.aux_names, aux_shapes, aux_types)]
        else:
            aux_arrays = [self._zeros(tuple(shape), ctx_of(name), dtype)
                          for name, shape, dtype in zip(self.aux_names, aux_shapes, aux_types)]
        return self.symbol.bind(ctx=context, args=args, args_grad=grads,
                                grad_req=[self.grad_req[n] for n in self.arg_names],
                                aux_states=aux_arrays, group2ctx=group2ctx)

    def _zeros(self, shape, context, dtype, stype=None):
        arr = nd.zeros(shape, context, dtype=dtype, stype=stype)
        self._total_exec_bytes += _nbytes(arr)
        return arr

    def _reshape_or_create(self, buffers, name, shape, dtype, context, stype=None):
        """The shared buffer ``name`` viewed as ``shape`` when it is large enough, else a new
        array of storage type ``stype`` (which becomes the buffer)."""
        size = int(np.prod(shape))
        arr = buffers.get(name)
        if arr is not None:
            if arr.size >= size:
                if np.dtype(arr.dtype) != np.dtype(dtype):
                    raise MXNetError('Module.bind: the shared buffer of %s has dtype %s, the '
                                     'executor needs %s' % (name, np.dtype(arr.dtype).name,
                                                            np.dtype(dtype).name))
                if arr.shape == shape:
                    return arr
                return arr._like(arr._t.reshape(-1)[:size].view(shape))
            self.logger.warning('bucketing: data "%s" has a shape %s, which is larger than '
                                'already allocated shape %s. Need to re-allocate. Consider '
                                'putting default_bucket_key to be the bucket taking the largest '
                                'input for better memory sharing.', name, shape, arr.shape)
        arr = buffers[name] = self._zeros(shape, context, dtype, stype)
        return arr

    def _sliced_shape(self, shapes, i, major_axis):
        """The shapes of the ``i``-th executor's inputs (its slice of the batch).

        Parameters
        ----------
        shapes : list of DataDesc
            The whole-batch shapes.
        i : int
            Which executor we are dealing with.
        """
        sliced_shapes = []
        for desc, axis in zip(shapes, major_axis):
            shape = list(desc.shape)
            if axis >= 0:
                shape[axis] = self.slices[i].stop - self.slices[i].start
            sliced_shapes.append(DataDesc(desc.name, tuple(shape), desc.dtype, desc.layout))
        return sliced_shapes

    def install_monitor(self, mon):
        """Install monitor on all executors"""
        for exe in self.execs:
            mon.install(exe)


def _shared(arrays, name, shape, dtype):
    """The array ``name`` of a shared executor, checked against the inferred shape/dtype."""
    arr = arrays[name]
    if arr.shape != shape or np.dtype(arr.dtype) != np.dtype(dtype):
        raise MXNetError('Module.bind: %s of the shared executor has shape %s and dtype %s, but '
                         'this executor needs shape %s and dtype %s, so its memory cannot be '
                         'shared' % (name, arr.shape, np.dtype(arr.dtype).name, shape,
                                     np.dtype(dtype).name))
    return arr


def _average_into(block, target):
    """Writes the mean of the per-device arrays ``block`` into ``target`` (cast to its
    dtype), summing on the CPU in the arrays' dtype, as MXNet does."""
    acc = block[0]._t.detach().to('cpu', copy=True)
    for w in block[1:]:
        acc.add_(w._t.detach().to('cpu'))
    if len(block) > 1:
        acc = acc / len(block) if acc.is_floating_point() else acc // len(block)
    target._t.detach().copy_(acc)
