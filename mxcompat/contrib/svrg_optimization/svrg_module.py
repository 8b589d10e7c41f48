"""A `SVRGModule` implements the `Module` API by wrapping an auxiliary module to perform
SVRG optimization logic.
"""
import logging

from ... import context as ctx
from ... import ndarray as nd
from ... import optimizer as opt
from ...module import Module
from .svrg_optimizer import _SVRGOptimizer

__all__ = ['SVRGModule']


class SVRGModule(Module):
    """SVRGModule is a module that encapsulates two Modules to accommodate the SVRG optimization
    technique. It is functionally the same as Module API, except it is implemented using SVRG
    optimization logic: every `update_freq` epochs the gradients over all the data are
    averaged at the current weights (kept by an auxiliary module), and each batch's gradient
    becomes ``g(w) - g(w_snapshot) + full_grad(w_snapshot)``.

    Parameters
    ----------
    symbol : Symbol
    data_names : list of str
        Defaults to `('data')` for a typical model used in image classification.
    label_names : list of str
        Defaults to `('softmax_label')` for a typical model used in image classification.
    logger : Logger
        Defaults to `logging`.
    context : Context or list of Context
        Defaults to ``mx.cpu()``.
    work_load_list : list of number
        Default ``None``, indicating uniform workload.
    fixed_param_names: list of str
        Default ``None``, indicating no network parameters are fixed.
    state_names : list of str
        states are similar to data and label, but not provided by data iterator.
        Instead they are initialized to 0 and can be set by `set_states()`.
    group2ctxs : dict of str to context or list of context, or list of dict of str to context
        Default is `None`. Mapping the `ctx_group` attribute to the context assignment.
    compression_params : dict
        Specifies type of gradient compression and additional arguments depending
        on the type of compression being used. For example, 2bit compression requires a
        threshold. Arguments would then be {'type':'2bit', 'threshold':0.5}
        See mxnet.KVStore.set_gradient_compression method for more details on gradient
        compression.
    update_freq: int
        Specifies the number of times to update the full gradients to be used in the SVRG
        optimization. For instance, update_freq = 2 will calculates the gradients over all data
        every two epochs

    Examples
    --------
    >>> # An example of declaring and using SVRGModule.
    >>> mod = SVRGModule(symbol=lro, data_names=['data'], label_names=['lin_reg_label'],
    ...                  update_freq=2)
    >>> mod.fit(di, eval_metric='mse', optimizer='sgd',
    ...         optimizer_params=(('learning_rate', 0.025),), num_epoch=num_epoch,
    ...         kvstore='local')
    """

    def __init__(self, symbol, data_names=('data',), label_names=('softmax_label',),
                 logger=logging, context=ctx.cpu(), work_load_list=None,
                 fixed_param_names=None, state_names=None, group2ctxs=None,
                 compression_params=None, update_freq=None):
        super(SVRGModule, self).__init__(symbol, data_names=data_names, label_names=label_names,
                                         logger=logger, context=context,
                                         work_load_list=work_load_list,
                                         fixed_param_names=fixed_param_names,
                                         state_names=state_names, group2ctxs=group2ctxs,
                                         compression_params=compression_params)
        if not isinstance(update_freq, int):
            raise TypeError('update_freq in SVRGModule must be an integer to represent the '
                            'frequency for calculating full gradients, not %r' % (update_freq,))
        if update_freq <= 0:
            raise ValueError('update_freq in SVRGModule must be a positive integer to represent '
                             'the frequency for calculating full gradients, not %d'
                             % update_freq)
        self.update_freq = update_freq
        self._mod_aux = Module(symbol, data_names, label_names, logger, context, work_load_list,
                               fixed_param_names, state_names, group2ctxs, compression_params)
        self._param_dict = None
        self._ctx_len = len(self._context)

    def _reset_bind(self):
        """Internal function to reset binded state for both modules."""
        super(SVRGModule, self)._reset_bind()
        self._mod_aux._reset_bind()

    def reshape(self, data_shapes, label_shapes=None):
        """Reshapes both modules for new input shapes: see :meth:`Module.reshape`."""
        super(SVRGModule, self).reshape(data_shapes, label_shapes=label_shapes)
        self._mod_aux.reshape(data_shapes, label_shapes=label_shapes)

    def init_optimizer(self, kvstore='local', optimizer='sgd',
                       optimizer_params=(('learning_rate', 0.01),), force_init=False):
        """Installs and initializes SVRGOptimizer. The SVRGOptimizer is a wrapper class for a
        regular optimizer that is passed in and a special AssignmentOptimizer to accumulate the
        full gradients. If KVStore is 'local' or None, the full gradients will be accumulated
        locally without pushing to the KVStore. Otherwise, additional keys (`<name>_full`) will
        be pushed to accumulate the full gradients in the KVStore.

        Parameters
        ----------
        kvstore : str or KVStore
            Default `'local'`.
        optimizer : str or Optimizer
            Default `'sgd'`
        optimizer_params : dict
            Default `(('learning_rate', 0.01),)`. The default value is not a dictionary,
            just to avoid pylint warning of dangerous default values.
        force_init : bool
            Default ``False``, indicating whether we should force re-initializing the
            optimizer in the case an optimizer is already installed.
        """
        # the average of the full gradients, per device
        params = self.get_params()[0]
        self._param_dict = [{name: nd.zeros(shape=value.shape, ctx=self._context[i])
                             for name, value in params.items()} for i in range(self._ctx_len)]
        svrg_optimizer = self._create_optimizer(_SVRGOptimizer.__name__, default_opt=optimizer,
                                                kvstore=kvstore,
                                                optimizer_params=optimizer_params)
        super(SVRGModule, self).init_optimizer(kvstore=kvstore, optimizer=svrg_optimizer,
                                               optimizer_params=optimizer_params,
                                               force_init=force_init)
        if self._kvstore:
            for idx, param_on_devs in enumerate(self._exec_group.param_arrays):
                name = self._exec_group.param_names[idx]
                self._kvstore.init(name + '_full', nd.zeros(shape=self._arg_params[name].shape))
                if self._update_on_kvstore:
                    self._kvstore.pull(name + '_full', param_on_devs, priority=-idx)

    def _create_optimizer(self, optimizer, default_opt, kvstore, optimizer_params):
        """Helper function to create a svrg optimizer. SVRG optimizer encapsulates two
        optimizers and will redirect update() to the correct optimizer based on the key. Its
        indices are those Module.init_optimizer gives the parameters, followed by one index
        per `<name>_full` key.

        Parameters
        ----------
        kvstore : str or KVStore
            Default `'local'`.
        optimizer: str
            Name for SVRGOptimizer
        default_opt : str or Optimizer that was passed in.
        optimizer_params : dict
           optimizer params that was passed in.
        """
        _, _, idx2name, rescale_grad = self._optimizer_layout(kvstore)
        for name in self._param_dict[0]:
            idx2name[max(idx2name) + 1] = name + '_full'
        optimizer_params = dict(optimizer_params)
        optimizer_params.setdefault('rescale_grad', rescale_grad)
        optimizer_params['default_optimizer'] = default_opt
        optimizer_params['param_idx2name'] = idx2name
        return opt.create(optimizer, **optimizer_params)

    def bind(self, data_shapes, label_shapes=None, for_training=True,
             inputs_need_grad=False, force_rebind=False, shared_module=None, grad_req='write'):
        """Binds the symbols to construct executors for both two modules (the auxiliary one
        only `for_training`). This is necessary before one can perform computation with the
        SVRGModule. The arguments are those of :meth:`Module.bind`.
        """
        super(SVRGModule, self).bind(data_shapes, label_shapes, for_training, inputs_need_grad,
                                     force_rebind, shared_module, grad_req)
        if for_training:
            self._mod_aux.bind(data_shapes, label_shapes, for_training, inputs_need_grad,
                               force_rebind, shared_module, grad_req)

    def forward(self, data_batch, is_train=None):
        """Forward computation for both two modules (the auxiliary one only when `is_train` is
        true). It supports data batches with different shapes, such as different batch sizes
        or different image sizes.

        See Also
        ----------
        :meth:`BaseModule.forward`.

        Parameters
        ----------
        data_batch : DataBatch
            Could be anything with similar API implemented.
        is_train : bool
            Default is ``None``, which means ``is_train`` takes the value of
            ``self.for_training``.
        """
        super(SVRGModule, self).forward(data_batch, is_train)
        if is_train:
            self._mod_aux.forward(data_batch, is_train)

    def backward(self, out_grads=None):
        """Backward computation of both modules.

        See Also
        ----------
        :meth:`BaseModule.backward`.

        Parameters
        ----------
        out_grads : NDArray or list of NDArray, optional
            Gradient on the outputs to be propagated back.
            This parameter is only needed when bind is called
            on outputs that are not a loss function.
        """
        super(SVRGModule, self).backward(out_grads)
        if self._mod_aux.binded:
            self._mod_aux.backward(out_grads)

    def update(self):
        """Updates parameters according to the installed optimizer and the gradients computed
        in the previous forward-backward batch. The gradients in the _exec_group will be
        overwritten using the gradients calculated by the SVRG update rule.

        See Also
        ----------
        :meth:`BaseModule.update`.
        """
        self._update_svrg_gradients()
        super(SVRGModule, self).update()

    def update_full_grads(self, train_data):
        """Computes the gradients over all data w.r.t weights of past
        m epochs. For distributed env, it will accumulate full grads in the kvstore.

        Parameters
        ----------
        train_data: DataIter
            Train data iterator
        """
        param_names = self._exec_group.param_names
        arg, aux = self.get_params()
        self._mod_aux.set_params(arg_params=arg, aux_params=aux)
        train_data.reset()
        nbatch = 0
        padding = 0
        for batch in train_data:
            self._mod_aux.forward(batch, is_train=True)
            self._mod_aux.backward()
            nbatch += 1
            grads = self._mod_aux._exec_group.grad_arrays
            for i in range(self._ctx_len):
                sums = self._param_dict[i]
                for index, name in enumerate(param_names):
                    sums[name] = sums[name] + grads[index][i]
            padding = batch.pad
        # the padded rows of the last batch count as a fraction of a batch
        true_num_batch = nbatch - padding / train_data.batch_size
        for name in param_names:
            grad_list = []
            for i in range(self._ctx_len):
                self._param_dict[i][name] /= true_num_batch
                grad_list.append(self._param_dict[i][name])
            if self._kvstore:
                self._accumulate_kvstore(name, grad_list)

    def _accumulate_kvstore(self, key, value):
        """Accumulate gradients over all data in the KVStore. In distributed setting, each
        worker sees a portion of data. The full gradients will be aggregated from each worker in
        the KVStore.

        Parameters
        ----------
        key: int or str
            Key in the KVStore.
        value: NDArray, RowSparseNDArray
            Average of the full gradients.
        """
        self._kvstore.push(key + '_full', value)
        self._kvstore._barrier()
        self._kvstore.pull(key + '_full', value)
        self._allocate_gradients(key, value)

    def _allocate_gradients(self, key, value):
        """Allocate average of full gradients accumulated in the KVStore to each device.

        Parameters
        ----------
        key: int or str
            Key in the kvstore.
        value: List of NDArray, List of RowSparseNDArray
            A list of average of the full gradients in the KVStore.
        """
        for i in range(self._ctx_len):
            self._param_dict[i][key] = value[i] / self._ctx_len

    def _svrg_grads_update_rule(self, g_curr_batch_curr_weight, g_curr_batch_special_weight,
                                g_special_weight_all_batch):
        """Calculates the gradient based on the SVRG update rule, in place of
        `g_curr_batch_curr_weight`.

        Parameters
        ----------
        g_curr_batch_curr_weight : NDArray
            gradients of current weight of self.mod w.r.t current batch of data
        g_curr_batch_special_weight: NDArray
            gradients of the weight of past m epochs of self._mod_special w.r.t current batch
            of data
        g_special_weight_all_batch: NDArray
            average of full gradients over full pass of data

        Returns
        ----------
        Gradients calculated using SVRG update rule:
        grads = g_curr_batch_curr_weight - g_curr_batch_special_weight + g_special_weight_all_batch
        """
        g_curr_batch_curr_weight -= g_curr_batch_special_weight
        g_curr_batch_curr_weight += g_special_weight_all_batch
        return g_curr_batch_curr_weight

    def _update_svrg_gradients(self):
        """Calculates gradients based on the SVRG update rule."""
        grads = self._exec_group.grad_arrays
        aux_grads = self._mod_aux._exec_group.grad_arrays
        for i in range(self._ctx_len):
            for index, name in enumerate(self._exec_group.param_names):
                grads[index][i] = self._svrg_grads_update_rule(
                    grads[index][i], aux_grads[index][i], self._param_dict[i][name])

    def _fit_epoch_begin(self, epoch, train_data):
        """In ``fit``, every `update_freq`-th epoch starts with the full gradients; the data
        is rewound before each epoch (not after it), as MXNet's SVRGModule.fit does."""
        if epoch % self.update_freq == 0:
            self.update_full_grads(train_data)
        train_data.reset()

    def _fit_epoch_end(self, train_data):
        """The data is rewound at the start of the next epoch instead."""

    def prepare(self, data_batch, sparse_row_id_fn=None):
        """Prepares two modules for processing a data batch: see :meth:`Module.prepare`."""
        super(SVRGModule, self).prepare(data_batch, sparse_row_id_fn=sparse_row_id_fn)
        self._mod_aux.prepare(data_batch, sparse_row_id_fn=sparse_row_id_fn)
