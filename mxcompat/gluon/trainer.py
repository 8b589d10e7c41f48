"""gluon.Trainer: applies an Optimizer to a set of Parameters after ``autograd.backward``.

Copies of a parameter on several contexts are kept identical: their gradients are summed
through a KVStore (``push``/``pull``), then either the store updates its weight and every copy
pulls it (``update_on_kvstore``) or each context's updater applies the summed gradient to its
own copy. A single context in a single process uses no store: the updater calls the
optimizer's (multi-tensor, when it aggregates) update operators directly.
"""

from .. import optimizer as opt
from ..model import _create_kvstore, _create_sparse_kvstore
from ..kvstore import KVStore
from ..utils.fileio import atomic_write_bytes
from ..pending import PENDING, settle
from .parameter import ParameterDict, Parameter

__all__ = ['Trainer']

_STALE_GRAD_MSG = (
    "Gradient of Parameter `%s` on context %s has not been updated "
    "by backward since last `step`. This could mean a bug in your "
    "model that made it only use a subset of the Parameters (Blocks) "
    "for this iteration. If you are intentionally only using a subset, "
    "call step with ignore_stale_grad=True to suppress this "
    "warning and skip updating of Parameters with stale gradient")


def _check_fresh(param, datas):
    """Raises MXNet's stale-gradient warning unless backward wrote every copy's gradient."""
    for data in datas:
        if not data._fresh_grad:
            raise UserWarning(_STALE_GRAD_MSG % (param.name, str(data.context)))


def _as_param_list(params):
    """The Parameters of ``params`` (a dict/ParameterDict is taken in sorted-key order)."""
    if isinstance(params, (dict, ParameterDict)):
        params = [params[key] for key in sorted(params.keys())]
    if not isinstance(params, (list, tuple)):
        raise ValueError("First argument must be a list or dict of Parameters, "
                         "got %s." % (type(params)))
    for param in params:
        if not isinstance(param, Parameter):
            raise ValueError("First argument must be a list or dict of Parameters, "
                             "got list of %s." % (type(param)))
    return list(params)


class Trainer(object):
    """Applies an `Optimizer` on a set of Parameters. Trainer should
    be used together with `autograd`.

    .. note::

        For the following cases, updates will always happen on kvstore,
        i.e., you cannot set update_on_kvstore=False.

        - dist kvstore with sparse weights or sparse gradients
        - dist async kvstore
        - `optimizer.lr_scheduler` is not None

    Parameters
    ----------
    params : ParameterDict
        The set of parameters to optimize.
    optimizer : str or Optimizer
        The optimizer to use. See :py:mod:`mxnet.optimizer` for the available optimizers.
    optimizer_params : dict
        Key-word arguments to be passed to optimizer constructor. For example,
        `{'learning_rate': 0.1}`. All optimizers accept learning_rate, wd (weight decay),
        clip_gradient, and lr_scheduler. See each optimizer's
        constructor for a list of additional supported arguments.
    kvstore : str or KVStore
        kvstore type for multi-gpu and distributed training. See help on
        :any:`mxnet.kvstore.create` for more information.
    compression_params : dict
        Specifies type of gradient compression and additional arguments depending
        on the type of compression being used. For example, 2bit compression requires a
        threshold. Arguments would then be {'type':'2bit', 'threshold':0.5}
        See mxnet.KVStore.set_gradient_compression method for more details on gradient
        compression.
    update_on_kvstore : bool, default None
        Whether to perform parameter updates on kvstore. If None, then trainer will choose the
        more suitable option depending on the type of kvstore. If the `update_on_kvstore`
        argument is provided, environment variable `MXNET_UPDATE_ON_KVSTORE` will be ignored.

    Properties
    ----------
    learning_rate : float
        The current learning rate of the optimizer. Given an Optimizer object
        optimizer, its learning rate can be accessed as optimizer.learning_rate.
    """
    def __init__(self, params, optimizer, optimizer_params=None, kvstore='device',
                 compression_params=None, update_on_kvstore=None):
        self._params = _as_param_list(params)
        self._param2idx = {}
        self._contains_sparse_weight = False
        self._contains_sparse_grad = False
        for i, param in enumerate(self._params):
            self._param2idx[param.name] = i
            param._set_trainer(self)
            self._contains_sparse_weight |= param._stype != 'default'
            self._contains_sparse_grad |= param._grad_stype != 'default'
        self._compression_params = compression_params
        self._contexts = self._check_contexts()
        self._init_optimizer(optimizer, optimizer_params or {})
        self._scale = self._optimizer.rescale_grad
        self._kvstore_params = {'kvstore': kvstore, 'update_on_kvstore': update_on_kvstore}
        self._kv_initialized = False
        self._kvstore = None
        self._update_on_kvstore = None
        self._distributed = None
        self._params_to_init = []
        self._reset_kvstore()

    def _check_contexts(self):
        contexts = None
        for param in self._params:
            ctx = param.list_ctx()
            assert contexts is None or contexts == ctx, \
                "All Parameters must be initialized on the same set of contexts, " \
                "but Parameter %s is initialized on %s while previous Parameters " \
                "are initialized on %s." % (param.name, str(ctx), str(contexts))
            contexts = ctx
        return contexts

    def _param_dict(self):
        # not copied: later changes of a Parameter's lr_mult/wd_mult reach the optimizer
        return dict(enumerate(self._params))

    def _init_optimizer(self, optimizer, optimizer_params):
        if isinstance(optimizer, opt.Optimizer):
            assert not optimizer_params, \
                "optimizer_params must be None if optimizer is an instance of " \
                "Optimizer instead of str"
            self._optimizer = optimizer
            self._optimizer.param_dict = self._param_dict()
        else:
            self._optimizer = opt.create(optimizer, param_dict=self._param_dict(),
                                         **optimizer_params)
        self._updaters = [opt.get_updater(self._optimizer) for _ in self._contexts]

    # ------------------------------------------------------------------ kvstore
    def _ensure_kvstore(self):
        """Creates the kvstore and puts the parameters in it, once."""
        if not self._kv_initialized:
            self._init_kvstore()
        if self._params_to_init:
            self._init_params()

    def _init_params(self):
        """Initialize parameters in the KVStore.

        Parameters with incomplete initialization are ignored.
        """
        assert self._kv_initialized, "Cannot initialize parameters in KVStore " \
                                     "when KVStore is not initialized."
        pending = []
        if self._kvstore:
            for param in self._params_to_init:
                if param._deferred_init:
                    pending.append(param)
                    continue
                arrays = param._check_and_get(param._data, list)
                self._kvstore.broadcast(self._param2idx[param.name], arrays[0], arrays)
        self._params_to_init = pending

    def _reset_kvstore(self):
        """Reset kvstore."""
        if self._kvstore and 'dist' in self._kvstore.type:
            raise RuntimeError("Cannot reset distributed KVStore.")
        self._kv_initialized = False
        self._kvstore = None
        self._distributed = None
        self._update_on_kvstore = None
        self._params_to_init = list(self._params)

    def _init_kvstore(self):
        """Create kvstore."""
        config = self._kvstore_params
        wanted = config['update_on_kvstore']
        if self._contains_sparse_weight:
            kvstore, update_on_kvstore = _create_sparse_kvstore(config['kvstore'])
            self._distributed = 'dist' in kvstore.type
            if wanted is False:
                raise ValueError("Cannot set update_on_kvstore=False when sparse weights "
                                 "are present.")
        else:
            arg_arrays = {param.name: param.data(self._contexts[0]) for param in self._params}
            kvstore, update_on_kvstore = _create_kvstore(config['kvstore'], len(self._contexts),
                                                         arg_arrays)
            self._distributed = 'dist' in kvstore.type if kvstore else False
            if self._contains_sparse_grad:
                update_on_kvstore = self._distributed
                if wanted is not None:
                    if wanted is False and self._distributed:
                        raise ValueError("Cannot set update_on_kvstore=False on dist kvstore "
                                         "when sparse gradients are present.")
                    update_on_kvstore = wanted
                if kvstore is not None and not isinstance(kvstore, KVStore):
                    raise ValueError("Cannot use {} for multi-device training with sparse "
                                     "gradients".format(type(kvstore)))
            else:
                if self._distributed and 'async' in kvstore.type:
                    update_on_kvstore = True
                    if wanted is False:
                        raise ValueError("Please set update_on_kvstore=True "
                                         "when training in async mode.")
                if wanted is not None:
                    update_on_kvstore = wanted
                if update_on_kvstore and not kvstore.is_capable('optimizer'):
                    if wanted:
                        raise ValueError("Please set update_on_kvstore=False "
                                         "when training with {}".format(type(kvstore)))
                    update_on_kvstore = False
        if kvstore:
            if self._compression_params:
                kvstore.set_gradient_compression(self._compression_params)
            if update_on_kvstore:
                kvstore.set_optimizer(self._optimizer)
            self._kvstore = kvstore
            self._update_on_kvstore = update_on_kvstore
        else:
            self._kvstore = None
            self._update_on_kvstore = None
        self._kv_initialized = True

    # ------------------------------------------------------------------ learning rate
    @property
    def learning_rate(self):
        if not isinstance(self._optimizer, opt.Optimizer):
            raise UserWarning("Optimizer has to be defined before its learning "
                              "rate can be accessed.")
        return self._optimizer.learning_rate

    @property
    def optimizer(self):
        if isinstance(self._optimizer, opt.Optimizer):
            return self._optimizer
        raise UserWarning("Optimizer has not been initialized yet")

    def set_learning_rate(self, lr):
        """Sets a new learning rate of the optimizer.

        Parameters
        ----------
        lr : float
            The new learning rate of the optimizer.
        """
        if not isinstance(self._optimizer, opt.Optimizer):
            raise UserWarning("Optimizer has to be defined before its learning "
                              "rate is mutated.")
        self._optimizer.set_learning_rate(lr)

    # ------------------------------------------------------------------ steps
    def _row_sparse_pull(self, parameter, out, row_id, full_idx=False):
        """Pulls rows of a row_sparse parameter (sparse storage is not supported)."""
        raise NotImplementedError('gluon.Trainer._row_sparse_pull: row_sparse parameters are '
                                  'not supported by mxcompat; use stype="default"')

    def _check_and_rescale_grad(self, scale):
        if self._update_on_kvstore and self._distributed and self._kv_initialized:
            if self._optimizer.rescale_grad != scale:
                raise UserWarning('Possible change in the `batch_size` from previous '
                                  '`step` detected. Optimizer gradient normalizing '
                                  'factor will not change w.r.t new batch_size when '
                                  'update_on_kvstore=True and when distributed kvstore '
                                  'is used.')
        self._optimizer.rescale_grad = scale

    def step(self, batch_size, ignore_stale_grad=False):
        """Makes one step of parameter update. Should be called after
        `autograd.backward()` and outside of `record()` scope.

        For normal parameter updates, `step()` should be used, which internally calls
        `allreduce_grads()` and then `update()`. However, if you need to get the reduced
        gradients to perform certain transformation, such as in gradient clipping, then
        you may want to manually call `allreduce_grads()` and `update()` separately.

        Parameters
        ----------
        batch_size : int
            Batch size of data processed. Gradient will be normalized by `1/batch_size`.
            Set this to 1 if you normalized loss manually with `loss = mean(loss)`.
        ignore_stale_grad : bool, optional, default=False
            If true, ignores Parameters with stale gradient (gradient that has not
            been updated by `backward` after last step) and skip update.
        """
        if PENDING:  # a deferred forward reads the parameters before they change
            settle()
        self._check_and_rescale_grad(self._scale / batch_size)
        self._ensure_kvstore()
        self._allreduce_grads()
        self._update(ignore_stale_grad)

    def allreduce_grads(self):
        """For each parameter, reduce the gradients from different contexts.

        Should be called after `autograd.backward()`, outside of `record()` scope,
        and before `trainer.update()`.

        For normal parameter updates, `step()` should be used, which internally calls
        `allreduce_grads()` and then `update()`. However, if you need to get the reduced
        gradients to perform certain transformation, such as in gradient clipping, then
        you may want to manually call `allreduce_grads()` and `update()` separately.
        """
        if PENDING:  # a deferred forward reads the parameters before they change
            settle()
        self._ensure_kvstore()
        assert not (self._kvstore and self._update_on_kvstore), \
            'allreduce_grads() when parameters are updated on kvstore ' \
            'is not supported. Try setting `update_on_kvstore` ' \
            'to False when creating trainer.'
        self._allreduce_grads()

    def _allreduce_grads(self):
        if not self._kvstore:
            return
        on_kv = self._update_on_kvstore
        for i, param in enumerate(self._params):
            if param.grad_req == 'null':
                continue
            grads = param.list_grad()
            if on_kv:  # push gradients, the store updates, pull the weights
                self._kvstore.pushpull(i, grads, out=param.list_data(), priority=-i)
            else:      # every copy receives the sum of the gradients
                self._kvstore.pushpull(i, grads, priority=-i)

    def update(self, batch_size, ignore_stale_grad=False):
        """Makes one step of parameter update.

        Should be called after `autograd.backward()` and outside of `record()` scope,
        and after `trainer.update()`.

        For normal parameter updates, `step()` should be used, which internally calls
        `allreduce_grads()` and then `update()`. However, if you need to get the reduced
        gradients to perform certain transformation, such as in gradient clipping, then
        you may want to manually call `allreduce_grads()` and `update()` separately.

        Parameters
        ----------
        batch_size : int
            Batch size of data processed. Gradient will be normalized by `1/batch_size`.
            Set this to 1 if you normalized loss manually with `loss = mean(loss)`.
        ignore_stale_grad : bool, optional, default=False
            If true, ignores Parameters with stale gradient (gradient that has not
            been updated by `backward` after last step) and skip update.
        """
        if PENDING:  # a deferred forward reads the parameters before they change
            settle()
        self._ensure_kvstore()
        assert not (self._kvstore and self._update_on_kvstore), \
            'update() when parameters are updated on kvstore ' \
            'is not supported. Try setting `update_on_kvstore` ' \
            'to False when creating trainer.'
        self._check_and_rescale_grad(self._scale / batch_size)
        self._update(ignore_stale_grad)

    def _update(self, ignore_stale_grad=False):
        loss_scaler = getattr(self, '_amp_loss_scaler', None)
        if loss_scaler is not None and loss_scaler.has_overflow(self._params):
            return  # skip the step on overflow
        if self._kvstore and self._update_on_kvstore:
            if not ignore_stale_grad:
                for param in self._params:
                    if param.grad_req != 'null':
                        _check_fresh(param, param._check_and_get(param._data, list))
            return
        if len(self._updaters) == 1:  # one context: no per-context lists to split
            idx, grads, weights = [], [], []
            for i, param in enumerate(self._params):
                if param.grad_req == 'null':
                    continue
                datas = param._data
                if datas is None:
                    param._check_and_get(datas, list)  # raises the reason
                arr = datas[0]
                t = arr._t
                if not getattr(t, '_mx_fresh_grad', False):
                    if not ignore_stale_grad:
                        raise UserWarning(_STALE_GRAD_MSG % (param.name, str(arr.context)))
                    continue
                idx.append(i)
                if param._grad is None:
                    grads.append(param.list_grad()[0])
                else:  # Parameter._sync_grads for one context
                    g = param._grad[0]
                    tg = t.grad
                    if g._t is not tg:
                        g = param._sync_grads()[0]
                    grads.append(g)
                weights.append(arr)
                t._mx_fresh_grad = False
            if idx:
                self._updaters[0](idx, grads, weights)
            return
        per_ctx = [([], [], []) for _ in self._updaters]  # (indices, grads, weights)
        for i, param in enumerate(self._params):
            if param.grad_req == 'null':
                continue
            datas = param._check_and_get(param._data, list)
            if not ignore_stale_grad:
                _check_fresh(param, datas)
            for (idx, grads, weights), arr, grad in zip(per_ctx, datas, param.list_grad()):
                if ignore_stale_grad and not arr._fresh_grad:
                    continue
                idx.append(i)
                grads.append(grad)
                weights.append(arr)
                arr._fresh_grad = False
        for updater, (idx, grads, weights) in zip(self._updaters, per_ctx):
            if idx:
                updater(idx, grads, weights)

    # ------------------------------------------------------------------ states
    def save_states(self, fname):
        """Saves trainer states (e.g. optimizer, momentum) to a file.

        Parameters
        ----------
        fname : str
            Path to output states file.

        Note
        ----
        `optimizer.param_dict`, which contains Parameter information (such as
        `lr_mult` and `wd_mult`) will not be saved.
        """
        assert self._optimizer is not None
        self._ensure_kvstore()
        if self._update_on_kvstore:
            assert not self._params_to_init, "Cannot save trainer states when some " \
                                             "parameters are not yet initialized in kvstore."
            self._kvstore.save_optimizer_states(fname, dump_optimizer=True)
        else:
            atomic_write_bytes(fname, self._updaters[0].get_states(dump_optimizer=True))

    def load_states(self, fname):
        """Loads trainer states (e.g. optimizer, momentum) from a file.

        The file may come from MXNet or mxcompat. Only NDArrays, optimizers, learning-rate
        schedulers and plain Python values are accepted: any other object in the file is
        refused before it is built.

        Parameters
        ----------
        fname : str
            Path to input states file.

        Note
        ----
        `optimizer.param_dict`, which contains Parameter information (such as
        `lr_mult` and `wd_mult`) will not be loaded from the file, but rather set
        based on current Trainer's parameters.
        """
        self._ensure_kvstore()
        if self._update_on_kvstore:
            self._kvstore.load_optimizer_states(fname)
            self._optimizer = self._kvstore._updater.optimizer
        else:
            with open(fname, 'rb') as f:
                states = f.read()
            for updater in self._updaters:  # the first one checks the file before any changes
                updater._set_states_from(states, fname)
                updater.optimizer = self._updaters[0].optimizer
            self._optimizer = self._updaters[0].optimizer
        self._optimizer.param_dict = self._param_dict()

