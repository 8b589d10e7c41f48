"""A `_SVRGOptimizer` encapsulates two optimizers to support SVRGModule in single machine and
distributed settings. Both `_AssignmentOptimizer` and `_SVRGOptimizer` are designed to be used
with SVRGModule only.
"""
from ... import optimizer as opt

__all__ = ['_AssignmentOptimizer', '_SVRGOptimizer']

# the arguments of the base class Optimizer
_BASE_PARAMS = ('rescale_grad', 'param_idx2name', 'wd', 'clip_gradient', 'learning_rate',
                'lr_scheduler', 'sym', 'begin_num_update', 'multi_precision', 'param_dict')


@opt.register
class _AssignmentOptimizer(opt.Optimizer):
    """_AssignmentOptimizer assigns gradients to weights for SVRGModule's full gradients
    accumulation in the KVStore. It is a helper optimizer that is designed to be used with
    SVRGModule only.
    """
    def update(self, index, weight, grad, state):
        """Assign the gradients to weight for accumulating full gradients in the KVStore across
        all devices and workers.

        Parameters
        ----------
        index : int
            The unique index of the parameter.
        weight : NDArray
            The parameter to be updated.
        grad : NDArray
            The gradient of the objective with respect to this parameter.
        state: any obj
            AssignmentOptimizer will not need to be associated with state.
        """
        weight[:] = grad


@opt.register
class _SVRGOptimizer(opt.Optimizer):
    """_SVRGOptimizer is a wrapper class for two optimizers: _AssignmentOptimizer for
    accumulating full gradients in the KVStore and a default optimizer that is passed in as a
    parameter in `mod.init_optimizer()`. Keys whose parameter name contains 'full' go to the
    former, all others to the latter. The _SVRGOptimizer is designed to be used with
    SVRGModule only.

    This optimizer accepts the following parameters in addition to those accepted by
    :class:`.Optimizer`.

    Parameters
    ----------
    default_optimizer: str or Optimizer
        Optimizer passed-in when invoke on mx.mod.init_optimizer in SVRGModule; a name is
        created with all the keyword arguments.
    """

    def __init__(self, default_optimizer, **kwargs):
        super(_SVRGOptimizer, self).__init__(**self._check_params(**kwargs))
        if isinstance(default_optimizer, str):
            self.default_opt = opt.create(default_optimizer, **kwargs)
        else:
            self.default_opt = default_optimizer
        self.aux_opt = opt.create(_AssignmentOptimizer.__name__)

    @staticmethod
    def _check_params(**kwargs):
        """The keyword arguments among those of the base class Optimizer.

        Parameters
        ----------
        kwargs: dict
            Parameters for the default optimizer

        Returns
        ----------
        default_params: dict
            Optimizer parameters that are defined in base class Optimizer
        """
        return {key: value for key, value in kwargs.items() if key in _BASE_PARAMS}

    def _optimizer_for(self, index):
        return self.aux_opt if 'full' in self._check_index(index) else self.default_opt

    def update(self, index, weight, grad, state):
        """Updates the weight of `index` (see :meth:`Optimizer.update`): with
        `_AssignmentOptimizer` if its name contains 'full', else with the default optimizer."""
        self._optimizer_for(index).update(index, weight, grad, state)

    def create_state(self, index, weight):
        """Creates the state of the weight of `index` (see :meth:`Optimizer.create_state`)
        by the optimizer that updates it."""
        return self._optimizer_for(index).create_state(index, weight)

    def _check_index(self, index):
        """The parameter name of ``index`` (an index of idx2name, or already a name).

        Parameters
        ----------
        index : int or str
            An unique index to identify the weight.

        Returns
        -------
        name : str
            Name of the Module parameter
        """
        if index in self.idx2name.values():
            return index
        if index not in self.idx2name:
            raise KeyError('index %r is neither a key nor a name of param_idx2name %r: give '
                           '_SVRGOptimizer the param_idx2name of every weight it updates'
                           % (index, self.idx2name))
        return self.idx2name[index]
