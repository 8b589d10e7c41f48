"""MXNet's model module (``mx.model``): checkpoints, the kvstore helpers that Module uses, and
the legacy ``FeedForward`` trainer."""
import logging
import os
import time
import warnings
from collections import namedtuple

import numpy as np

from . import io
from . import ndarray as nd
from . import symbol as sym
from . import optimizer as opt
from . import metric
from . import kvstore as kvs
from .base import mx_real_t, MXNetError
from .context import Context, cpu
from .initializer import Uniform
from .optimizer import get_updater
from .executor_manager import DataParallelExecutorManager, _check_arguments, _load_data
from .io import DataDesc
from .utils import fileio

__all__ = ['BatchEndParam', 'FeedForward', 'save_checkpoint', 'load_checkpoint', 'load_params']

BASE_ESTIMATOR = object
try:
    from sklearn.base import BaseEstimator
    BASE_ESTIMATOR = BaseEstimator
except ImportError:
    pass

BatchEndParam = namedtuple('BatchEndParams', ['epoch', 'nbatch', 'eval_metric', 'locals'])


def _create_sparse_kvstore(kvstore):
    """A kvstore for row_sparse parameters (always updated on the kvstore).

    Returns
    -------
    (kvstore, True)
    """
    if isinstance(kvstore, kvs.KVStore):
        kv = kvstore
    elif isinstance(kvstore, str):
        kv = kvs.create(kvstore)
    else:
        raise TypeError("Cannot create '%s' KVStore with row_sparse parameters. "
                        "The type must be KVStore or str." % kvstore)
    assert kv.is_capable(kvs.KVStoreBase.OPTIMIZER), \
        'KVStore with sparse weight requires optimizer support. However, type(kv) does not ' \
        'support optimizer. Please consider other kvstore backends (e.g. dist_device) instead.'
    return (kv, True)


def _create_kvstore(kvstore, num_device, arg_params):
    """Creates the kvstore for training, and decides whether weights are updated on it.

    No store is made for a single device in a single process. A 'local' store with a
    parameter larger than 16M elements updates on the devices instead; the environment
    variable ``MXNET_UPDATE_ON_KVSTORE=0`` always does.

    Parameters
    ----------
    kvstore : KVStore or str or None
        The kvstore.
    num_device : int
        The number of devices.
    arg_params : dict of str to NDArray
        The parameters of the network.

    Returns
    -------
    (kvstore or None, update_on_kvstore)
    """
    update_on_kvstore = bool(int(os.getenv('MXNET_UPDATE_ON_KVSTORE', '1')))
    if kvstore is None:
        kv = None
    elif isinstance(kvstore, kvs.KVStoreBase):
        kv = kvstore
    elif isinstance(kvstore, str):
        if num_device == 1 and 'dist' not in kvstore:
            kv = None
        else:
            kv = kvs.create(kvstore)
            if kvstore == 'local':
                max_size = max(np.prod(param.shape) for param in arg_params.values())
                if max_size > 1024 * 1024 * 16:
                    update_on_kvstore = False
    else:
        raise TypeError('kvstore must be KVStore, str or None')
    if kv is None:
        update_on_kvstore = False
    else:
        update_on_kvstore &= kv.is_capable(kvs.KVStoreBase.OPTIMIZER)
    return (kv, update_on_kvstore)


def _initialize_kvstore(kvstore, param_arrays, arg_params, param_names, update_on_kvstore):
    """Initializes the kvstore with the parameters (and, when it updates them, broadcasts
    them to the devices)."""
    for idx, param_on_devs in enumerate(param_arrays):
        name = param_names[idx]
        if not update_on_kvstore or arg_params[name].stype != 'default':
            kvstore.init(name, arg_params[name])
        else:
            kvstore.broadcast(name, arg_params[name], out=param_on_devs)


def _update_params_on_kvstore_nccl(param_arrays, grad_arrays, kvstore, param_names):
    """Pushes gradients and pulls updated weights in batches of keys (NCCL kvstore)."""
    valid = [i for i, grads in enumerate(grad_arrays) if grads[0] is not None]
    grads = [grad_arrays[i] for i in valid]
    params = [param_arrays[i] for i in valid]
    names = [param_names[i] for i in valid]
    batch = int(os.getenv('MXNET_UPDATE_AGGREGATION_SIZE', '16'))
    for start in range(0, len(grads), batch):
        end = min(start + batch, len(grads))
        kvstore.pushpull(names[start:end], grads[start:end], out=params[start:end],
                         priority=-start)


def _update_params_on_kvstore(param_arrays, grad_arrays, kvstore, param_names):
    """Pushes the gradients of every parameter and pulls back the weights the kvstore
    updated."""
    for index, (arg_list, grad_list) in enumerate(zip(param_arrays, grad_arrays)):
        if grad_list[0] is None:
            continue
        name = param_names[index]
        if grad_list[0].stype == 'default' and arg_list[0].stype == 'default':
            kvstore.pushpull(name, grad_list, out=arg_list, priority=-index)
        else:
            kvstore.push(name, grad_list, priority=-index)
            kvstore.pull(name, out=arg_list, priority=-index)


def _update_params(param_arrays, grad_arrays, updater, num_device, kvstore=None,
                   param_names=None):
    """Sums the gradients through the kvstore (if any), then updates each device's copy of
    the weights with ``updater``. The copy on device ``k`` of parameter ``i`` is updated
    under index ``i * num_device + k``, so each copy has its own optimizer state."""
    if kvstore:
        for index, (arg_list, grad_list) in enumerate(zip(param_arrays, grad_arrays)):
            if grad_list[0] is None:
                continue
            name = param_names[index]
            if grad_list[0].stype == 'default' and arg_list[0].stype == 'default':
                kvstore.pushpull(name, grad_list, priority=-index)
            else:
                kvstore.push(name, grad_list, priority=-index)
                kvstore.pull(name, out=grad_list, priority=-index)
    for indices, grads, weights in _device_updates(param_arrays, grad_arrays, num_device):
        updater(indices, grads, weights)


def _device_updates(param_arrays, grad_arrays, num_device):
    """The updater's arguments for each device, ``[(indices, grads, weights), ...]``: the
    copy on device ``k`` of parameter ``i`` has index ``i * num_device + k``; parameters
    without gradient are left out."""
    updates = [[] for _ in range(num_device)]
    for index, (arg_list, grad_list) in enumerate(zip(param_arrays, grad_arrays)):
        if grad_list[0] is None:
            continue
        for k, (weight, grad) in enumerate(zip(arg_list, grad_list)):
            updates[k].append((index * num_device + k, grad, weight))
    return [tuple(zip(*dev_updates)) for dev_updates in updates if dev_updates]


def _multiple_callbacks(callbacks, *args, **kwargs):
    """Calls ``callbacks`` (None, one function or a list of them) with the arguments."""
    if isinstance(callbacks, list):
        for cb in callbacks:
            cb(*args, **kwargs)
        return
    if callbacks:
        callbacks(*args, **kwargs)


def _train_multi_device(symbol, ctx, arg_names, param_names, aux_names, arg_params, aux_params,
                        begin_epoch, end_epoch, epoch_size, optimizer, kvstore,
                        update_on_kvstore, train_data, eval_data=None, eval_metric=None,
                        epoch_end_callback=None, batch_end_callback=None, logger=None,
                        work_load_list=None, monitor=None, eval_end_callback=None,
                        eval_batch_end_callback=None, sym_gen=None):
    """The training loop of FeedForward, on one or several devices.

    ``arg_params`` and ``aux_params`` are updated in place at the end of training (and
    before each ``epoch_end_callback``).
    """
    if logger is None:
        logger = logging
    manager = DataParallelExecutorManager(symbol=symbol, sym_gen=sym_gen, ctx=ctx,
                                          train_data=train_data, param_names=param_names,
                                          arg_names=arg_names, aux_names=aux_names,
                                          work_load_list=work_load_list, logger=logger)
    if monitor:
        manager.install_monitor(monitor)
    manager.set_params(arg_params, aux_params)
    if not update_on_kvstore:
        updater = get_updater(optimizer)
    else:
        kvstore.set_optimizer(optimizer)
    if kvstore:
        _initialize_kvstore(kvstore=kvstore, param_arrays=manager.param_arrays,
                            arg_params=arg_params, param_names=manager.param_names,
                            update_on_kvstore=update_on_kvstore)
    train_data.reset()
    for epoch in range(begin_epoch, end_epoch):
        tic = time.time()
        eval_metric.reset()
        nbatch = 0
        while True:
            do_reset = True
            for data_batch in train_data:
                manager.load_data_batch(data_batch)
                if monitor is not None:
                    monitor.tic()
                manager.forward(is_train=True)
                manager.backward()
                if update_on_kvstore:
                    if 'nccl' in kvstore.type:
                        _update_params_on_kvstore_nccl(manager.param_arrays, manager.grad_arrays,
                                                       kvstore, manager.param_names)
                    else:
                        _update_params_on_kvstore(manager.param_arrays, manager.grad_arrays,
                                                  kvstore, manager.param_names)
                else:
                    _update_params(manager.param_arrays, manager.grad_arrays, updater=updater,
                                   num_device=len(ctx), kvstore=kvstore,
                                   param_names=manager.param_names)
                if monitor is not None:
                    monitor.toc_print()
                manager.update_metric(eval_metric, data_batch.label)
                nbatch += 1
                if batch_end_callback is not None:
                    _multiple_callbacks(batch_end_callback,
                                        BatchEndParam(epoch=epoch, nbatch=nbatch,
                                                      eval_metric=eval_metric,
                                                      locals=locals()))
                if epoch_size is not None and nbatch >= epoch_size:
                    do_reset = False
                    break
            if do_reset:
                logger.info('Epoch[%d] Resetting Data Iterator', epoch)
                train_data.reset()
            if epoch_size is None or nbatch >= epoch_size:
                break
        logger.info('Epoch[%d] Time cost=%.3f', epoch, time.time() - tic)
        if epoch_end_callback or epoch + 1 == end_epoch:
            manager.copy_to(arg_params, aux_params)
        _multiple_callbacks(epoch_end_callback, epoch, symbol, arg_params, aux_params)
        if eval_data:
            eval_metric.reset()
            eval_data.reset()
            total_num_batch = 0
            for i, eval_batch in enumerate(eval_data):
                manager.load_data_batch(eval_batch)
                manager.forward(is_train=False)
                manager.update_metric(eval_metric, eval_batch.label)
                if eval_batch_end_callback is not None:
                    _multiple_callbacks(eval_batch_end_callback,
                                        BatchEndParam(epoch=epoch, nbatch=i,
                                                      eval_metric=eval_metric,
                                                      locals=locals()))
                total_num_batch += 1
            if eval_end_callback is not None:
                _multiple_callbacks(eval_end_callback,
                                    BatchEndParam(epoch=epoch, nbatch=total_num_batch,
                                                  eval_metric=eval_metric, locals=locals()))
            eval_data.reset()


def save_checkpoint(prefix, epoch, symbol, arg_params, aux_params, remove_amp_cast=True):
    """Checkpoint the model data into file.

    Parameters
    ----------
    prefix : str
        Prefix of model name.
    epoch : int
        The epoch number of the model.
    symbol : Symbol
        The input Symbol.
    arg_params : dict of str to NDArray
        Model parameter, dict of name to NDArray of net's weights.
    aux_params : dict of str to NDArray
        Model parameter, dict of name to NDArray of net's auxiliary states.
    remove_amp_cast : bool, optional
        Whether to remove the amp_cast and amp_multicast operators, before saving the model.

    Notes
    -----
    - ``prefix-symbol.json`` will be saved for symbol.
    - ``prefix-epoch.params`` will be saved for parameters.
    Both files are written aside and replace their targets together, only once both are
    complete; a crash while they are moved leaves a marker ``.prefix-epoch.params.saving``
    that makes :func:`load_checkpoint` refuse the pair (see ``mxcompat.utils.fileio``).
    """
    param_name = '%s-%04d.params' % (prefix, epoch)
    save_dict = {('arg:%s' % k): v.as_in_context(cpu()) for k, v in arg_params.items()}
    save_dict.update({('aux:%s' % k): v.as_in_context(cpu()) for k, v in aux_params.items()})
    with fileio.atomic_group(param_name):
        if symbol is not None:
            symbol.save('%s-symbol.json' % prefix, remove_amp_cast=remove_amp_cast)
        nd.save(param_name, save_dict)
    logging.info('Saved checkpoint to "%s"', param_name)


def load_params(prefix, epoch):
    """Loads the parameters saved by :func:`save_checkpoint`.

    Returns
    -------
    arg_params : dict of str to NDArray
    aux_params : dict of str to NDArray
    """
    fname = '%s-%04d.params' % (prefix, epoch)
    fileio.check_group(fname, 'load_checkpoint(%r, %d)' % (prefix, epoch))
    save_dict = nd.load(fname)
    arg_params, aux_params = {}, {}
    if not save_dict:
        logging.warning("Params file '%s' is empty", fname)
        return (arg_params, aux_params)
    if not isinstance(save_dict, dict) or any(':' not in k for k in save_dict):
        raise MXNetError("'%s' is not a checkpoint's parameter file: its arrays must be named "
                         "'arg:<name>' or 'aux:<name>'" % fname)
    for k, v in save_dict.items():
        tp, name = k.split(':', 1)
        if tp == 'arg':
            arg_params[name] = v
        if tp == 'aux':
            aux_params[name] = v
    return (arg_params, aux_params)


def load_checkpoint(prefix, epoch):
    """Load model checkpoint from file.

    Parameters
    ----------
    prefix : str
        Prefix of model name.
    epoch : int
        Epoch number of model we would like to load.

    Returns
    -------
    symbol : Symbol
        The symbol configuration of computation network.
    arg_params : dict of str to NDArray
        Model parameter, dict of name to NDArray of net's weights.
    aux_params : dict of str to NDArray
        Model parameter, dict of name to NDArray of net's auxiliary states.

    Notes
    -----
    - Symbol will be loaded from ``prefix-symbol.json``.
    - Parameters will be loaded from ``prefix-epoch.params``.
    """
    symbol = sym.load('%s-symbol.json' % prefix)
    arg_params, aux_params = load_params(prefix, epoch)
    return (symbol, arg_params, aux_params)


from .callback import LogValidationMetricsCallback  # noqa: E402  pylint: disable=wrong-import-position


class FeedForward(BASE_ESTIMATOR):
    """Model class of MXNet for training and predicting feedforward nets (deprecated in
    MXNet: use ``mx.mod.Module``). Designed for a single-data single output supervised
    network.

    Parameters
    ----------
    symbol : Symbol or callable
        The network, or a function of the bucket key returning it.
    ctx : Context or list of Context, optional
        The device context(s) of training and prediction.
    num_epoch : int, optional
        Training parameter, number of training epochs.
    epoch_size : int, optional
        Number of batches in an epoch (default: one pass over the data).
    optimizer : str or Optimizer, optional
        Training parameter, name or optimizer object for training.
    initializer : initializer function, optional
        Training parameter, the initialization scheme used.
    numpy_batch_size : int, optional
        The batch size of training data, when it is given as numpy arrays.
    arg_params : dict of str to NDArray, optional
        Model parameter, dict of name to NDArray of net's weights.
    aux_params : dict of str to NDArray, optional
        Model parameter, dict of name to NDArray of net's auxiliary states.
    allow_extra_params : boolean, optional
        Whether to drop (rather than reject) parameters the symbol does not use.
    begin_epoch : int, optional
        The beginning training epoch.
    kwargs : dict
        The additional keyword arguments passed to optimizer.
    """

    def __init__(self, symbol, ctx=None, num_epoch=None, epoch_size=None, optimizer='sgd',
                 initializer=Uniform(0.01), numpy_batch_size=128, arg_params=None,
                 aux_params=None, allow_extra_params=False, begin_epoch=0, **kwargs):
        warnings.warn('\033[91mmxnet.model.FeedForward has been deprecated. '
                      'Please use mxnet.mod.Module instead.\033[0m',
                      DeprecationWarning, stacklevel=2)
        if isinstance(symbol, sym.Symbol):
            self.symbol = symbol
            self.sym_gen = None
        else:
            assert callable(symbol)
            self.symbol = None
            self.sym_gen = symbol
        self.arg_params = arg_params
        self.aux_params = aux_params
        self.allow_extra_params = allow_extra_params
        self.argument_checked = False
        if self.sym_gen is None:
            self._check_arguments()
        if ctx is None:
            ctx = [cpu()]
        elif isinstance(ctx, Context):
            ctx = [ctx]
        self.ctx = ctx
        self.num_epoch = num_epoch
        self.epoch_size = epoch_size
        self.kwargs = kwargs.copy()
        self.optimizer = optimizer
        self.initializer = initializer
        self.numpy_batch_size = numpy_batch_size
        self._pred_exec = None
        self.begin_epoch = begin_epoch

    def _check_arguments(self):
        """Checks the symbol's argument names, and drops unused parameters if allowed."""
        if self.argument_checked:
            return
        assert self.symbol is not None
        self.argument_checked = True
        _check_arguments(self.symbol)
        if self.allow_extra_params:
            if self.arg_params:
                names = set(self.symbol.list_arguments())
                self.arg_params = {k: v for k, v in self.arg_params.items() if k in names}
            if self.aux_params:
                names = set(self.symbol.list_auxiliary_states())
                self.aux_params = {k: v for k, v in self.aux_params.items() if k in names}

    @staticmethod
    def _is_data_arg(name):
        """Check if name is a data argument."""
        return name.endswith('data') or name.endswith('label')

    def _init_params(self, inputs, overwrite=False):
        """Initializes the parameters and auxiliary states (given ones are kept unless
        ``overwrite``)."""
        inputs = [x if isinstance(x, DataDesc) else DataDesc(*x) for x in inputs]
        input_shapes = {item.name: item.shape for item in inputs}
        arg_shapes, _, aux_shapes = self.symbol.infer_shape(**input_shapes)
        assert arg_shapes is not None
        input_dtypes = {item.name: item.dtype for item in inputs}
        arg_dtypes, _, aux_dtypes = self.symbol.infer_type(**input_dtypes)
        assert arg_dtypes is not None
        arg_names = self.symbol.list_arguments()
        param_names = [key for key in arg_names if key not in input_shapes]
        aux_names = self.symbol.list_auxiliary_states()
        arg_params = {k: nd.zeros(shape=s, dtype=t)
                      for k, s, t in zip(arg_names, arg_shapes, arg_dtypes) if k in param_names}
        aux_params = {k: nd.zeros(shape=s, dtype=t)
                      for k, s, t in zip(aux_names, aux_shapes, aux_dtypes)}
        for k, v in arg_params.items():
            if self.arg_params and k in self.arg_params and not overwrite:
                arg_params[k][:] = self.arg_params[k][:]
            else:
                self.initializer(k, v)
        for k, v in aux_params.items():
            if self.aux_params and k in self.aux_params and not overwrite:
                aux_params[k][:] = self.aux_params[k][:]
            else:
                self.initializer(k, v)
        self.arg_params = arg_params
        self.aux_params = aux_params
        return (arg_names, list(param_names), aux_names)

    def __getstate__(self):
        this = self.__dict__.copy()
        this['_pred_exec'] = None
        return this

    def __setstate__(self, state):
        self.__dict__.update(state)

    def _init_predictor(self, input_shapes, type_dict=None):
        """Binds the prediction executor (on the first device) unless it fits already."""
        shapes = {name: self.arg_params[name].shape for name in self.arg_params}
        shapes.update(dict(input_shapes))
        if self._pred_exec is not None:
            arg_shapes, _, _ = self.symbol.infer_shape(**shapes)
            assert arg_shapes is not None, 'Incomplete input shapes'
            if [tuple(s) for s in arg_shapes] == [x.shape for x in self._pred_exec.arg_arrays]:
                return
        pred_exec = self.symbol.simple_bind(self.ctx[0], grad_req='null', type_dict=type_dict,
                                           **shapes)
        pred_exec.copy_params_from(self.arg_params, self.aux_params)
        _check_arguments(self.symbol)
        self._pred_exec = pred_exec

    def _init_iter(self, X, y, is_train):
        """Makes a DataIter from the inputs."""
        if isinstance(X, (np.ndarray, nd.NDArray)):
            if y is None:
                if is_train:
                    raise ValueError('y must be specified when X is numpy.ndarray')
                y = np.zeros(X.shape[0])
            if not isinstance(y, (np.ndarray, nd.NDArray)):
                raise TypeError('y must be ndarray when X is numpy.ndarray')
            if X.shape[0] != y.shape[0]:
                raise ValueError('The numbers of data points and labels not equal')
            if y.ndim == 2 and y.shape[1] == 1:
                y = y.flatten()
            if y.ndim != 1:
                raise ValueError('Label must be 1D or 2D (with 2nd dimension being 1)')
            if is_train:
                return io.NDArrayIter(X, y, min(X.shape[0], self.numpy_batch_size),
                                      shuffle=is_train, last_batch_handle='roll_over')
            return io.NDArrayIter(X, y, min(X.shape[0], self.numpy_batch_size), shuffle=False)
        if not isinstance(X, io.DataIter):
            raise TypeError('X must be DataIter, NDArray or numpy.ndarray')
        return X

    def _init_eval_iter(self, eval_data):
        """Makes a DataIter from ``eval_data`` (an iterator or a (data, label) pair)."""
        if eval_data is None:
            return eval_data
        if isinstance(eval_data, (tuple, list)) and len(eval_data) == 2:
            if eval_data[0] is None:
                raise ValueError('Eval data is NONE')
            if eval_data[1] is None and isinstance(eval_data[0], io.DataIter):
                return eval_data[0]
            data = np.array(eval_data[0]) if isinstance(eval_data[0], list) else eval_data[0]
            label = np.array(eval_data[1]) if isinstance(eval_data[1], list) else eval_data[1]
            return self._init_iter(data, label, is_train=True)
        if not isinstance(eval_data, io.DataIter):
            raise TypeError('Eval data must be DataIter, or NDArray/numpy.ndarray/list pair '
                            '(i.e. tuple/list of length 2)')
        return eval_data

    def _prepare_prediction(self, X):
        data_shapes = X.provide_data
        type_dict = {key: value.dtype for key, value in self.arg_params.items()}
        for x in data_shapes:
            type_dict[x[0]] = x.dtype if isinstance(x, DataDesc) else mx_real_t
        self._init_predictor(data_shapes, type_dict)
        return [self._pred_exec.arg_dict[x[0]] for x in data_shapes]

    def predict(self, X, num_batch=None, return_data=False, reset=True):
        """Runs the prediction, on the first device only.

        Parameters
        ----------
        X : mxnet.DataIter or numpy.ndarray or NDArray
        num_batch : int or None
            The number of batches to run. Go though all batches if ``None``.
        return_data : bool
            Whether to also return the data and labels.
        reset : bool
            Whether to reset the iterator first.

        Returns
        -------
        y : numpy.ndarray or a list of numpy.ndarray if the network has multiple outputs.
            The predicted value of the output.
        """
        X = self._init_iter(X, None, is_train=False)
        if reset:
            X.reset()
        data_arrays = self._prepare_prediction(X)
        batch_size = X.batch_size
        output_list = [[] for _ in self.symbol.list_outputs()]
        if return_data:
            data_list = [[] for _ in X.provide_data]
            label_list = [[] for _ in X.provide_label]
        i = 0
        for batch in X:
            _load_data(batch, data_arrays)
            self._pred_exec.forward(is_train=False)
            real_size = batch_size - batch.pad
            for o_list, o_nd in zip(output_list, self._pred_exec.outputs):
                o_list.append(o_nd[0:real_size].asnumpy())
            if return_data:
                for j, x in enumerate(batch.data):
                    data_list[j].append(x[0:real_size].asnumpy())
                for j, x in enumerate(batch.label):
                    label_list[j].append(x[0:real_size].asnumpy())
            i += 1
            if num_batch is not None and i == num_batch:
                break
        outputs = [np.concatenate(x) for x in output_list]
        if len(outputs) == 1:
            outputs = outputs[0]
        if not return_data:
            return outputs
        data = [np.concatenate(x) for x in data_list]
        label = [np.concatenate(x) for x in label_list]
        if len(data) == 1:
            data = data[0]
        if len(label) == 1:
            label = label[0]
        return outputs, data, label

    def score(self, X, eval_metric='acc', num_batch=None, batch_end_callback=None, reset=True):
        """Runs the model on ``X`` and returns the value of ``eval_metric``.

        Parameters
        ----------
        X : mxnet.DataIter
        eval_metric : metric.metric
            The metric for calculating score.
        num_batch : int or None
            The number of batches to run. Go though all batches if ``None``.

        Returns
        -------
        s : float
            The final score.
        """
        if not isinstance(eval_metric, metric.EvalMetric):
            eval_metric = metric.create(eval_metric)
        X = self._init_iter(X, None, is_train=False)
        if reset:
            X.reset()
        data_arrays = self._prepare_prediction(X)
        for i, batch in enumerate(X):
            if num_batch is not None and i == num_batch:
                break
            _load_data(batch, data_arrays)
            self._pred_exec.forward(is_train=False)
            eval_metric.update(batch.label, self._pred_exec.outputs)
            if batch_end_callback is not None:
                _multiple_callbacks(batch_end_callback,
                                    BatchEndParam(epoch=0, nbatch=i, eval_metric=eval_metric,
                                                  locals=locals()))
        return eval_metric.get()[1]

    def fit(self, X, y=None, eval_data=None, eval_metric='acc', epoch_end_callback=None,
            batch_end_callback=None, kvstore='local', logger=None, work_load_list=None,
            monitor=None, eval_end_callback=LogValidationMetricsCallback(),
            eval_batch_end_callback=None):
        """Fit the model.

        Parameters
        ----------
        X : DataIter, or numpy.ndarray/NDArray
            Training data.
        y : numpy.ndarray/NDArray, optional
            Training set label (required when ``X`` is an array).
        eval_data : DataIter or numpy.ndarray/list/NDArray pair
            Validation data: an iterator or ``(valid_data, valid_label)``.
        eval_metric : metric.EvalMetric or str or callable
            The evaluation metric.
        epoch_end_callback : callable(epoch, symbol, arg_params, aux_states)
            A callback that is invoked at end of each epoch.
        batch_end_callback: callable(BatchEndParam)
            A callback that is invoked at end of each batch.
        kvstore: KVStore or str, optional
            The KVStore or a string kvstore type: 'local', 'dist_sync', 'dist_async'.
        logger : logging logger, optional
            When not specified, default logger will be used.
        work_load_list : list of float or int, optional
            The list of work load for different devices, in the same order as `ctx`.
        """
        data = self._init_iter(X, y, is_train=True)
        eval_data = self._init_eval_iter(eval_data)
        if self.sym_gen:
            self.symbol = self.sym_gen(data.default_bucket_key)  # pylint: disable=no-member
            self._check_arguments()
        self.kwargs['sym'] = self.symbol
        arg_names, param_names, aux_names = \
            self._init_params(data.provide_data + data.provide_label)
        if not isinstance(eval_metric, metric.EvalMetric):
            eval_metric = metric.create(eval_metric)
        (kvstore, update_on_kvstore) = _create_kvstore(kvstore, len(self.ctx), self.arg_params)
        param_idx2name = {}
        if update_on_kvstore:
            param_idx2name.update(enumerate(param_names))
        else:
            for i, n in enumerate(param_names):
                for k in range(len(self.ctx)):
                    param_idx2name[i * len(self.ctx) + k] = n
        self.kwargs['param_idx2name'] = param_idx2name
        if isinstance(self.optimizer, str):
            batch_size = data.batch_size
            if kvstore and 'dist' in kvstore.type and '_async' not in kvstore.type:
                batch_size *= kvstore.num_workers
            optimizer = opt.create(self.optimizer, rescale_grad=(1.0 / batch_size),
                                   **(self.kwargs))
        elif isinstance(self.optimizer, opt.Optimizer):
            optimizer = self.optimizer
            if not optimizer.idx2name:
                optimizer.idx2name = param_idx2name.copy()
        _train_multi_device(self.symbol, self.ctx, arg_names, param_names, aux_names,
                            self.arg_params, self.aux_params, begin_epoch=self.begin_epoch,
                            end_epoch=self.num_epoch, epoch_size=self.epoch_size,
                            optimizer=optimizer, train_data=data, eval_data=eval_data,
                            eval_metric=eval_metric, epoch_end_callback=epoch_end_callback,
                            batch_end_callback=batch_end_callback, kvstore=kvstore,
                            update_on_kvstore=update_on_kvstore, logger=logger,
                            work_load_list=work_load_list, monitor=monitor,
                            eval_end_callback=eval_end_callback,
                            eval_batch_end_callback=eval_batch_end_callback,
                            sym_gen=self.sym_gen)

    def save(self, prefix, epoch=None, remove_amp_cast=True):
        """Saves the model checkpoint (``prefix-symbol.json``, ``prefix-epoch.params``).

        Parameters
        ----------
        prefix : str
            Prefix of model name.
        epoch : int, optional
            The epoch number (default: ``num_epoch``).
        remove_amp_cast : bool, optional
            Whether to remove the amp_cast and amp_multicast operators, before saving the model.
        """
        if epoch is None:
            epoch = self.num_epoch
        assert epoch is not None
        save_checkpoint(prefix, epoch, self.symbol, self.arg_params, self.aux_params,
                        remove_amp_cast=remove_amp_cast)

    @staticmethod
    def load(prefix, epoch, ctx=None, **kwargs):
        """Loads a model checkpoint from file.

        Parameters
        ----------
        prefix : str
            Prefix of model name.
        epoch : int
            epoch number of model we would like to load.
        ctx : Context or list of Context, optional
            The device context of training and prediction.
        kwargs : dict
            Other parameters for model, including `num_epoch`, optimizer and `numpy_batch_size`.

        Returns
        -------
        model : FeedForward
            The loaded model that can be used for prediction.
        """
        symbol, arg_params, aux_params = load_checkpoint(prefix, epoch)
        return FeedForward(symbol, ctx=ctx, arg_params=arg_params, aux_params=aux_params,
                           begin_epoch=epoch, **kwargs)

    @staticmethod
    def create(symbol, X, y=None, ctx=None, num_epoch=None, epoch_size=None, optimizer='sgd',
               initializer=Uniform(0.01), eval_data=None, eval_metric='acc',
               epoch_end_callback=None, batch_end_callback=None, kvstore='local', logger=None,
               work_load_list=None, eval_end_callback=LogValidationMetricsCallback(),
               eval_batch_end_callback=None, **kwargs):
        """Functional style to create and train a model: ``FeedForward(...)`` then ``fit``.

        Parameters are those of :class:`FeedForward` and :meth:`fit`.

        Returns
        -------
        model : FeedForward
        """
        model = FeedForward(symbol, ctx=ctx, num_epoch=num_epoch, epoch_size=epoch_size,
                            optimizer=optimizer, initializer=initializer, **kwargs)
        model.fit(X, y, eval_data=eval_data, eval_metric=eval_metric,
                  epoch_end_callback=epoch_end_callback, batch_end_callback=batch_end_callback,
                  kvstore=kvstore, logger=logger, work_load_list=work_load_list,
                  eval_end_callback=eval_end_callback,
                  eval_batch_end_callback=eval_batch_end_callback)
        return model
