"""The optimizer base class, the optimizer registry and the ``Test`` optimizer.

The attribute names of :class:`Optimizer` are MXNet 1.9.1's own, so that an optimizer pickled
by ``Updater.get_states(dump_optimizer=True)`` (a Gluon ``Trainer.save_states`` file) moves
between real MXNet and mxcompat in both directions.
"""
import warnings

import numpy

from ..base import MXNetError
from ..ndarray import NDArray, cast, zeros

__all__ = ['Optimizer', 'register', 'create', 'Test']


def _flatten_list(nested_list):
    return [item for sublist in nested_list for item in sublist]


def _tensor(arr):
    """The torch.Tensor of ``arr`` for in-place updates that autograd must not record."""
    return arr._t.detach()


def _check_arrays(weight, grad):
    assert isinstance(weight, NDArray)
    assert isinstance(grad, NDArray)


class Optimizer(object):
    """The base class inherited by all optimizers.

    Parameters
    ----------
    rescale_grad : float, optional, default 1.0
        Multiply the gradient with `rescale_grad` before updating. Often
        choose to be ``1.0/batch_size``.

    param_idx2name : dict from int to string, optional, default None
        A dictionary that maps int index to string name.

    clip_gradient : float, optional, default None
        Clip the gradient by projecting onto the box ``[-clip_gradient, clip_gradient]``.

    learning_rate : float, optional, default None
        The initial learning rate. If None, the optimization will use the
        learning rate from ``lr_scheduler``. If not None, it will overwrite
        the learning rate in ``lr_scheduler``. If None and ``lr_scheduler``
        is also None, then it will be set to 0.01 by default.

    lr_scheduler : LRScheduler, optional, default None
        The learning rate scheduler.

    wd : float, optional, default 0.0
        The weight decay (or L2 regularization) coefficient. Modifies objective
        by adding a penalty for having large weights.

    sym: Symbol, optional, default None
        The Symbol this optimizer is applying to.

    begin_num_update : int, optional, default 0
        The initial number of updates.

    multi_precision : bool, optional, default False
       Flag to control the internal precision of the optimizer.
       False: results in using the same precision as the weights (default),
       True: makes internal 32-bit copy of the weights and applies gradients
       in 32-bit precision even if actual weights used in the model have lower precision.
       Turning this on can improve convergence and accuracy when training with float16.

    param_dict : dict of int -> gluon.Parameter, default None
        Dictionary of parameter index to gluon.Parameter, used to lookup parameter attributes
        such as lr_mult, wd_mult, etc. param_dict shall not be deep copied.

    Properties
    ----------
    learning_rate : float
        The current learning rate of the optimizer. Given an Optimizer object
        optimizer, its learning rate can be accessed as optimizer.learning_rate.
    """
    def __init__(self, rescale_grad=1., param_idx2name=None, wd=0.,
                 clip_gradient=None, learning_rate=None,
                 lr_scheduler=None, sym=None, begin_num_update=0,
                 multi_precision=False, param_dict=None):
        self.rescale_grad = rescale_grad
        self.lr_scheduler = lr_scheduler
        if lr_scheduler is None and learning_rate is None:
            learning_rate = 0.01
        self.lr = learning_rate
        if lr_scheduler is not None and learning_rate is not None \
                and lr_scheduler.base_lr != learning_rate:
            # MXNet prints (does not raise) this warning
            print(UserWarning("learning rate from ``lr_scheduler`` has been "
                              "overwritten by ``learning_rate`` in optimizer."))
            lr_scheduler.base_lr = learning_rate
        self.wd = wd
        self.lr_mult = {}
        self.wd_mult = {}
        self.begin_num_update = begin_num_update
        self.num_update = begin_num_update
        # per device: index -> number of updates of that index on that device
        self._all_index_update_counts = {0: {}}
        self._index_update_count = self._all_index_update_counts[0]
        self.clip_gradient = clip_gradient
        self.multi_precision = multi_precision
        self.aggregate_num = 0
        if param_idx2name is None:
            param_idx2name = {}
        assert isinstance(param_idx2name, dict), \
            'param_idx2name should be a dict of param indexes to names.'
        self.idx2name = param_idx2name.copy()
        self.sym_info = (sym.attr_dict(), sym.list_arguments()) if sym is not None else ()
        self.param_dict = param_dict if param_dict else {}
        self.allow_np_array = False
        self.set_lr_mult({})
        self.set_wd_mult({})

    opt_registry = {}

    @staticmethod
    def register(klass):
        """Registers a new optimizer.

        Once an optimizer is registered, we can create an instance of this
        optimizer with `create_optimizer` later.

        Examples
        --------

        >>> @mx.optimizer.Optimizer.register
        ... class MyOptimizer(mx.optimizer.Optimizer):
        ...     pass
        >>> optim = mx.optimizer.Optimizer.create_optimizer('MyOptimizer')
        >>> print(type(optim))
        <class '__main__.MyOptimizer'>
        """
        assert isinstance(klass, type)
        name = klass.__name__.lower()
        if name in Optimizer.opt_registry:
            old = Optimizer.opt_registry[name]
            warnings.warn('WARNING: New optimizer %s.%s is overriding existing optimizer %s.%s'
                          % (klass.__module__, klass.__name__, old.__module__, old.__name__))
        Optimizer.opt_registry[name] = klass
        return klass

    @staticmethod
    def create_optimizer(name, **kwargs):
        """Instantiates an optimizer with a given name and kwargs.

        .. note:: We can use the alias `create` for ``Optimizer.create_optimizer``.

        Parameters
        ----------
        name: str
            Name of the optimizer. Should be the name
            of a subclass of Optimizer. Case insensitive.

        kwargs: dict
            Parameters for the optimizer.

        Returns
        -------
        Optimizer
            An instantiated optimizer.

        Examples
        --------
        >>> sgd = mx.optimizer.Optimizer.create_optimizer('sgd')
        >>> type(sgd)
        <class 'mxnet.optimizer.SGD'>
        >>> adam = mx.optimizer.create('adam', learning_rate=.1)
        >>> type(adam)
        <class 'mxnet.optimizer.Adam'>
        """
        if name.lower() in Optimizer.opt_registry:
            return Optimizer.opt_registry[name.lower()](**kwargs)
        raise ValueError('Cannot find optimizer %s' % name)

    @property
    def learning_rate(self):
        """The current learning rate (from the scheduler when there is one)."""
        if self.lr_scheduler is not None:
            return self.lr_scheduler(self.num_update)
        return self.lr

    def create_state(self, index, weight):
        """Creates auxiliary state for a given weight.

        Some optimizers require additional states, e.g. as momentum, in addition
        to gradients in order to update weights. This function creates state
        for a given weight which will be used in `update`. This function is
        called only once for each weight.

        Parameters
        ----------
        index : int
            An unique index to identify the weight.
        weight : NDArray
            The weight.

        Returns
        -------
        state : any obj
            The state associated with the weight.
        """

    def create_state_multi_precision(self, index, weight):
        """Creates auxiliary state for a given weight, including FP32 high
        precision copy if original weight is FP16.

        This method is provided to perform automatic mixed precision training
        for optimizers that do not support it themselves.

        Parameters
        ----------
        index : int
            An unique index to identify the weight.
        weight : NDArray
            The weight.

        Returns
        -------
        state : any obj
            The state associated with the weight.
        """
        if self.multi_precision and weight.dtype == numpy.float16:
            weight_master_copy = weight.astype(numpy.float32)
            return (weight_master_copy,) + (self.create_state(index, weight_master_copy),)
        if weight.dtype == numpy.float16 and not self.multi_precision:
            warnings.warn("Accumulating with float16 in optimizer can lead to "
                          "poor accuracy or slow convergence. "
                          "Consider using multi_precision=True option of the "
                          "optimizer")
        return self.create_state(index, weight)

    def update(self, index, weight, grad, state):
        """Updates the given parameter using the corresponding gradient and state.

        Parameters
        ----------
        index : int
            The unique index of the parameter into the individual learning
            rates and weight decays. Learning rates and weight decay
            may be set via `set_lr_mult()` and `set_wd_mult()`, respectively.
        weight : NDArray
            The parameter to be updated.
        grad : NDArray
            The gradient of the objective with respect to this parameter.
        state : any obj
            The state returned by `create_state()`.
        """
        raise NotImplementedError()

    def update_multi_precision(self, index, weight, grad, state):
        """Updates the given parameter using the corresponding gradient and state.
        Mixed precision version: with ``multi_precision`` and a float16 weight, the update
        is applied to the float32 master copy in ``state[0]`` and cast back to ``weight``.

        Parameters
        ----------
        index : int
            The unique index of the parameter into the individual learning
            rates and weight decays. Learning rates and weight decay
            may be set via `set_lr_mult()` and `set_wd_mult()`, respectively.
        weight : NDArray
            The parameter to be updated.
        grad : NDArray
            The gradient of the objective with respect to this parameter.
        state : any obj
            The state returned by `create_state()`.
        """
        if self.multi_precision and weight.dtype == numpy.float16:
            weight_master_copy, original_state = state[0], state[1]
            self.update(index, weight_master_copy, grad.astype(numpy.float32), original_state)
            cast(weight_master_copy, dtype=weight.dtype, out=weight)
        else:
            self.update(index, weight, grad, state)

    def set_learning_rate(self, lr):
        """Sets a new learning rate of the optimizer.

        Parameters
        ----------
        lr : float
            The new learning rate of the optimizer.
        """
        if self.lr_scheduler is not None:
            raise UserWarning("LRScheduler of the optimizer has already been "
                              "defined. Note that set_learning_rate can mutate "
                              "the value of the learning rate of the optimizer "
                              "only when the LRScheduler of the optimizer is "
                              "undefined.")
        self.lr = lr

    def set_lr_scale(self, args_lrscale):  # pylint: disable=unused-argument
        """[DEPRECATED] Sets lr scale. Use set_lr_mult instead."""
        raise DeprecationWarning

    def _sym_mults(self, key):
        """{argument name: float(attr)} for the arguments of ``sym`` that set attribute
        ``key`` (``'__lr_mult__'`` or ``'__wd_mult__'``)."""
        if not self.sym_info:
            return {}
        attr, arg_names = self.sym_info
        return {name: float(attr[name][key]) for name in arg_names
                if name in attr and key in attr[name]}

    def set_lr_mult(self, args_lr_mult):
        """Sets an individual learning rate multiplier for each parameter.

        If you specify a learning rate multiplier for a parameter, then
        the learning rate for the parameter will be set as the product of
        the global learning rate `self.lr` and its multiplier.

        .. note:: The default learning rate multiplier of a `Variable`
            can be set with `lr_mult` argument in the constructor.

        Parameters
        ----------
        args_lr_mult : dict of str/int to float
            For each of its key-value entries, the learning rate multipler for the
            parameter specified in the key will be set as the given value.

            You can specify the parameter with either its name or its index.
            If you use the name, you should pass `sym` in the constructor,
            and the name you specified in the key of `args_lr_mult` should match
            the name of the parameter in `sym`. If you use the index, it should
            correspond to the index of the parameter used in the `update` method.

            Specifying a parameter by its index is only supported for backward
            compatibility, and we recommend to use the name instead.
        """
        self.lr_mult = self._sym_mults('__lr_mult__')
        self.lr_mult.update(args_lr_mult)

    def _wd_exempt(self, name):
        """Whether a parameter called ``name`` gets weight decay multiplier 0 by default."""
        return not (name.endswith('_weight') or name.endswith('_gamma'))

    def set_wd_mult(self, args_wd_mult):
        """Sets an individual weight decay multiplier for each parameter.

        By default, if `param_idx2name` was provided in the
        constructor, the weight decay multipler is set as 0 for all
        parameters whose name don't end with ``_weight`` or
        ``_gamma``.

        .. note:: The default weight decay multiplier for a `Variable`
            can be set with its `wd_mult` argument in the constructor.

        Parameters
        ----------
        args_wd_mult : dict of string/int to float
            For each of its key-value entries, the weight decay multipler for the
            parameter specified in the key will be set as the given value.

            You can specify the parameter with either its name or its index.
            If you use the name, you should pass `sym` in the constructor,
            and the name you specified in the key of `args_lr_mult` should match
            the name of the parameter in `sym`. If you use the index, it should
            correspond to the index of the parameter used in the `update` method.

            Specifying a parameter by its index is only supported for backward
            compatibility, and we recommend to use the name instead.
        """
        self.wd_mult = {n: 0.0 for n in self.idx2name.values() if self._wd_exempt(n)}
        self.wd_mult.update(self._sym_mults('__wd_mult__'))
        self.wd_mult.update(args_wd_mult)

    def _set_current_context(self, device_id):
        """Sets the number of the currently handled device.

        Parameters
        ----------
        device_id : int
            The number of current device.
        """
        if device_id not in self._all_index_update_counts:
            self._all_index_update_counts[device_id] = {}
        self._index_update_count = self._all_index_update_counts[device_id]

    def _update_count(self, index):
        """Updates num_update.

        Parameters
        ----------
        index : int or list of int
            The index to be updated.
        """
        if not isinstance(index, (list, tuple)):
            index = [index]
        for idx in index:
            if idx not in self._index_update_count:
                self._index_update_count[idx] = self.begin_num_update
            self._index_update_count[idx] += 1
            self.num_update = max(self._index_update_count[idx], self.num_update)

    def _scheduled_lr(self):
        return self.lr_scheduler(self.num_update) if self.lr_scheduler is not None else self.lr

    def _apply_mult(self, base, indices, mults, attr):
        """``base`` times each index's multiplier: from the Gluon Parameter in param_dict,
        else from ``mults`` by index, else from ``mults`` by the index's name."""
        param_dict, idx2name = self.param_dict, self.idx2name
        values = []
        for index in indices:
            if index in param_dict:
                values.append(base * getattr(param_dict[index], attr))
            elif index in mults:
                values.append(base * mults[index])
            elif index in idx2name:
                values.append(base * mults.get(idx2name[index], 1.0))
            else:
                values.append(base)
        return values

    def _get_lrs(self, indices):
        """Gets the learning rates given the indices of the weights.

        Parameters
        ----------
        indices : list of int
            Indices corresponding to weights.

        Returns
        -------
        lrs : list of float
            Learning rates for those indices.
        """
        return self._apply_mult(self._scheduled_lr(), indices, self.lr_mult, 'lr_mult')

    def _get_lr(self, index):
        """Gets the learning rate given the index of the weight.

        Parameters
        ----------
        index : int
            The index corresponding to the weight.

        Returns
        -------
        lr : float
            Learning rate for this index.
        """
        return self._get_lrs([index])[0]

    def _get_wds(self, indices):
        """Gets weight decays for indices.
        Returns 0 for non-weights if the name of weights are provided for `__init__`.

        Parameters
        ----------
        indices : list of int
            Indices of weights.

        Returns
        -------
        wds : list of float
            Weight decays for those indices.
        """
        return self._apply_mult(self.wd, indices, self.wd_mult, 'wd_mult')

    def _get_wd(self, index):
        """Gets weight decay for index.
        Returns 0 for non-weights if the name of weights are provided for `__init__`.

        Parameters
        ----------
        index : int
            The index of weight.

        Returns
        -------
        wd : float
            Weight decay for this index.
        """
        return self._get_wds([index])[0]

    def __getstate__(self):
        ret = self.__dict__.copy()
        # the Gluon Parameters are not part of the state; the Trainer sets them again
        del ret['param_dict']
        return ret

    def __setstate__(self, state):
        self.__dict__ = state
        self.param_dict = {}

    def as_torch(self, params):
        """A ``torch.optim.Optimizer`` that steps the torch tensors ``params`` (an iterable of
        tensors or of parameter-group dicts) with this optimizer's update rule; see
        :class:`mxcompat.optimizer.TorchOptimizer`."""
        from .torch_optim import TorchOptimizer
        return TorchOptimizer(params, self)


# convenience wrapper for Optimizer.Register
register = Optimizer.register  # pylint: disable=invalid-name
# backward compatibility wrapper for Optimizer.CreateOptimizer
create = Optimizer.create_optimizer  # pylint: disable=invalid-name


@register
class Test(Optimizer):
    """The Test optimizer"""
    def __init__(self, **kwargs):
        super(Test, self).__init__(**kwargs)

    def create_state(self, index, weight):
        """Creates a state to duplicate weight."""
        return zeros(weight.shape, weight.context)

    def update(self, index, weight, grad, state):
        """Performs w += rescale_grad * grad."""
        w = _tensor(weight)
        w.add_(_tensor(grad) * self.rescale_grad)
        _tensor(state).copy_(w)


def _mp_state(optimizer, index, weight, name):
    """(state, float32 master copy) for a float16 weight with multi_precision, else the plain
    state; the layout SGD, NAG and LARS use."""
    if optimizer.multi_precision and weight.dtype == numpy.float16:
        weight_master_copy = weight.astype(numpy.float32)
        return (optimizer.create_state(index, weight_master_copy), weight_master_copy)
    if weight.dtype == numpy.float16 and not optimizer.multi_precision:
        warnings.warn("Accumulating with float16 in optimizer can lead to "
                      "poor accuracy or slow convergence. "
                      "Consider using multi_precision=True option of the "
                      "%s optimizer" % name)
    return optimizer.create_state(index, weight)


def _uses_mp(optimizer, weight):
    """Whether an update of ``weight`` (or of the list of weights) runs in multi precision."""
    first = weight[0] if isinstance(weight, (tuple, list)) else weight
    return optimizer.multi_precision and first.dtype == numpy.float16


def _same_dtype(opname, weight, states):
    """MXNet's arithmetic refuses to mix dtypes; torch would promote silently."""
    for s in states:
        if s.dtype != weight.dtype:
            raise MXNetError('%s: state dtype %s differs from weight dtype %s; use '
                             'multi_precision=True for float16 weights'
                             % (opname, numpy.dtype(s.dtype).name, numpy.dtype(weight.dtype).name))



# ``mx.optimizer.optimizer`` holds every optimizer in MXNet; here the families live in sibling
# modules, which import this one (complete at this point), and are re-exported
from .sgd import *  # noqa: E402,F401,F403  pylint: disable=wrong-import-position
from .adaptive import *  # noqa: E402,F401,F403  pylint: disable=wrong-import-position
from .updater import Updater, get_updater  # noqa: E402,F401  pylint: disable=wrong-import-position
