"""Gluon EventHandlers for Estimators.

An event handler is an object that inherits one or more of the six mixins (`TrainBegin`,
`EpochBegin`, `BatchBegin`, `BatchEnd`, `EpochEnd`, `TrainEnd`); the Estimator calls the
matching methods in ascending order of the handler's `priority` (default 0). A `batch_end` or
`epoch_end` that returns True stops training.
"""
import os
import time
import warnings

import numpy as np

from ....metric import CompositeEvalMetric, EvalMetric
from ....metric import Loss as metric_loss
from .utils import _check_metrics

__all__ = ['TrainBegin', 'TrainEnd', 'EpochBegin', 'EpochEnd', 'BatchBegin', 'BatchEnd',
           'StoppingHandler', 'MetricHandler', 'ValidationHandler',
           'LoggingHandler', 'CheckpointHandler', 'EarlyStoppingHandler', 'GradientUpdateHandler']


class EventHandler(object):
    """Base class of all event handlers."""


def _check_event_handlers(handlers):
    """Returns `handlers` (an EventHandler, a list of them or None) as a list."""
    if isinstance(handlers, EventHandler):
        return [handlers]
    handlers = handlers or []
    if not all(isinstance(handler, EventHandler) for handler in handlers):
        raise ValueError("handlers must be an EventHandler or a list of EventHandler, "
                         "got: {}".format(handlers))
    return handlers


class TrainBegin(EventHandler):
    """Mixin of handlers called once when training begins."""
    def train_begin(self, estimator, *args, **kwargs):
        pass


class TrainEnd(EventHandler):
    """Mixin of handlers called once when training ends."""
    def train_end(self, estimator, *args, **kwargs):
        pass


class EpochBegin(EventHandler):
    """Mixin of handlers called when an epoch (or an evaluation pass) begins."""
    def epoch_begin(self, estimator, *args, **kwargs):
        pass


class EpochEnd(EventHandler):
    """Mixin of handlers called when an epoch (or an evaluation pass) ends; returning True
    stops training."""
    def epoch_end(self, estimator, *args, **kwargs):
        return False


class BatchBegin(EventHandler):
    """Mixin of handlers called before each batch, with keyword `batch`."""
    def batch_begin(self, estimator, *args, **kwargs):
        pass


class BatchEnd(EventHandler):
    """Mixin of handlers called after each batch, with keywords `batch`, `pred`, `label` and
    `loss`; returning True stops training."""
    def batch_end(self, estimator, *args, **kwargs):
        return False


def _monitor_op(monitor, mode, handler_name):
    """The comparison (np.less or np.greater) that tells whether `monitor` improved.

    'auto' gives np.greater for every metric, as MXNet 1.9.1 does (its test of the metric's
    name for 'acc' or 'f1' is always true); pass mode='min' for losses and errors."""
    if mode not in ('auto', 'min', 'max'):
        warnings.warn('%s mode %s is unknown, '
                      'fallback to auto mode. CheckpointHandler will use'
                      'max mode for f1 and accuracy metric comparison and '
                      'use min mode other wise' % (handler_name, mode), RuntimeWarning)
        mode = 'auto'
    if mode == 'min':
        return np.less
    if mode == 'max':
        return np.greater
    warnings.warn("`greater` operator will be used to determine if {} has improved. "
                  "Please specify `mode='min'` to use the `less` operator. "
                  "Specify `mode='max' to disable this warning.`".format(monitor.get()[0]))
    return np.greater


class StoppingHandler(TrainBegin, BatchEnd, EpochEnd):
    """Stop conditions to stop training
    Stop training if maximum number of batches or epochs
    reached.

    Parameters
    ----------
    max_epoch : int, default None
        Number of maximum epochs to train.
    max_batch : int, default None
        Number of maximum batches to train.
    """

    def __init__(self, max_epoch=None, max_batch=None):
        self.max_epoch = max_epoch
        self.max_batch = max_batch
        self.current_batch = 0
        self.current_epoch = 0
        self.stop_training = False

    def train_begin(self, estimator, *args, **kwargs):
        self.max_epoch = estimator.max_epoch
        self.max_batch = estimator.max_batch
        self.current_batch = 0
        self.current_epoch = 0

    def batch_end(self, estimator, *args, **kwargs):
        self.current_batch += 1
        if self.current_batch == self.max_batch:
            self.stop_training = True
        return self.stop_training

    def epoch_end(self, estimator, *args, **kwargs):
        self.current_epoch += 1
        if self.current_epoch == self.max_epoch:
            self.stop_training = True
        return self.stop_training


class MetricHandler(EpochBegin, BatchEnd):
    """Metric Handler that update metric values at batch end

    :py:class:`MetricHandler` takes model predictions and true labels
    and update the metrics, it also update metric wrapper for loss with loss values.
    Validation loss and metrics will be handled by :py:class:`ValidationHandler`

    Parameters
    ----------
    metrics : List of EvalMetrics
        Metrics to be updated at batch end.
    priority : scalar, default -1000
        Priority level of the MetricHandler. Priority level is sorted in ascending
        order. The lower the number is, the higher priority level the handler is.
    """

    def __init__(self, metrics, priority=-1000):
        self.metrics = _check_metrics(metrics)
        self.priority = priority

    def epoch_begin(self, estimator, *args, **kwargs):
        for metric in self.metrics:
            metric.reset()

    def batch_end(self, estimator, *args, **kwargs):
        pred = kwargs['pred']
        label = kwargs['label']
        loss = kwargs['loss']
        for metric in self.metrics:
            if isinstance(metric, metric_loss):
                metric.update(0, loss)
            else:
                metric.update(label, pred)


class ValidationHandler(TrainBegin, BatchEnd, EpochEnd):
    """Validation Handler that evaluate model on validation dataset

    :py:class:`ValidationHandler` takes validation dataset, an evaluation function,
    metrics to be evaluated, and how often to run the validation. You can provide custom
    evaluation function or use the one provided my :py:class:`Estimator`

    Parameters
    ----------
    val_data : DataLoader
        Validation data set to run evaluation.
    eval_fn : function
        A function defines how to run evaluation and
        calculate loss and metrics.
    epoch_period : int, default 1
        How often to run validation at epoch end, by default
        :py:class:`ValidationHandler` validate every epoch.
    batch_period : int, default None
        How often to run validation at batch end, by default
        :py:class:`ValidationHandler` does not validate at batch end.
    priority: scalar, default -1000
        Priority level of the ValidationHandler. Priority level is sorted in
        ascending order. The lower the number is, the higher priority level the
        handler is.
    event_handlers : EventHandler or list of EventHandlers
        List of :py:class:`EventHandler` to apply during validaiton. This argument
        is used by self.eval_fn function in order to process customized event
        handlers.
    """

    def __init__(self, val_data, eval_fn, epoch_period=1, batch_period=None,
                 priority=-1000, event_handlers=None):
        self.val_data = val_data
        self.eval_fn = eval_fn
        self.epoch_period = epoch_period
        self.batch_period = batch_period
        self.current_batch = 0
        self.current_epoch = 0
        self.priority = priority
        self.event_handlers = event_handlers

    def _evaluate(self, estimator):
        self.eval_fn(val_data=self.val_data, batch_axis=estimator.batch_axis,
                     event_handlers=self.event_handlers)

    def train_begin(self, estimator, *args, **kwargs):
        self.current_batch = 0
        self.current_epoch = 0

    def batch_end(self, estimator, *args, **kwargs):
        self.current_batch += 1
        if self.batch_period and self.current_batch % self.batch_period == 0:
            self._evaluate(estimator)

    def epoch_end(self, estimator, *args, **kwargs):
        self.current_epoch += 1
        if self.epoch_period and self.current_epoch % self.epoch_period == 0:
            self._evaluate(estimator)


def _metric_summary(msg, metrics):
    """`msg` followed by 'name: value' of each metric (4 decimals), comma separated."""
    for metric in metrics:
        name, value = metric.get()
        msg += '%s: %.4f, ' % (name, value)
    return msg.rstrip(', ')


class LoggingHandler(TrainBegin, TrainEnd, EpochBegin, EpochEnd, BatchBegin, BatchEnd):
    """Basic Logging Handler that applies to every Gluon estimator by default.

    :py:class:`LoggingHandler` logs hyper-parameters, training statistics,
    and other useful information during training

    Parameters
    ----------
    log_interval: int or str, default 'epoch'
        Logging interval during training.
        log_interval='epoch': display metrics every epoch
        log_interval=integer k: display metrics every interval of k batches
    metrics : list of EvalMetrics
        Metrics to be logged, logged at batch end, epoch end, train end.
    priority : scalar, default np.Inf
        Priority level of the LoggingHandler. Priority level is sorted in
        ascending order. The lower the number is, the higher priority level the
        handler is.
    """

    def __init__(self, log_interval='epoch', metrics=None, priority=np.inf):
        if not isinstance(log_interval, int) and log_interval != 'epoch':
            raise ValueError("log_interval must be either an integer or string 'epoch'")
        self.metrics = _check_metrics(metrics)
        self.batch_index = 0
        self.current_epoch = 0
        self.processed_samples = 0
        # called last, so that every other handler has updated its state
        self.priority = priority
        self.log_interval = log_interval
        self.log_interval_time = 0

    def train_begin(self, estimator, *args, **kwargs):
        self.train_start = time.time()
        trainer = estimator.trainer
        estimator.logger.info("Training begin: using optimizer %s "
                              "with current learning rate %.4f ",
                              trainer.optimizer.__class__.__name__, trainer.learning_rate)
        if estimator.max_epoch:
            estimator.logger.info("Train for %d epochs.", estimator.max_epoch)
        else:
            estimator.logger.info("Train for %d batches.", estimator.max_batch)
        self.current_epoch = 0
        self.batch_index = 0
        self.processed_samples = 0
        self.log_interval_time = 0

    def train_end(self, estimator, *args, **kwargs):
        train_time = time.time() - self.train_start
        msg = 'Train finished using total %ds with %d epochs. ' % (train_time, self.current_epoch)
        estimator.logger.info(_metric_summary(msg, self.metrics))

    def batch_begin(self, estimator, *args, **kwargs):
        if isinstance(self.log_interval, int):
            self.batch_start = time.time()

    def batch_end(self, estimator, *args, **kwargs):
        if isinstance(self.log_interval, int):
            self.processed_samples += kwargs['batch'][0].shape[0]
            self.log_interval_time += time.time() - self.batch_start
            if self.batch_index % self.log_interval == 0:
                msg = '[Epoch %d][Batch %d][Samples %s] time/interval: %.3fs ' % (
                    self.current_epoch, self.batch_index, self.processed_samples,
                    self.log_interval_time)
                self.log_interval_time = 0
                estimator.logger.info(_metric_summary(msg, self.metrics))
        self.batch_index += 1

    def epoch_begin(self, estimator, *args, **kwargs):
        self.epoch_start = time.time()
        # the Estimator prefixes its training metrics' names with 'training'
        if any('training' in metric.name for metric in self.metrics):
            estimator.logger.info("[Epoch %d] Begin, current learning rate: %.4f",
                                  self.current_epoch, estimator.trainer.learning_rate)
        else:
            estimator.logger.info("Validation Begin")

    def epoch_end(self, estimator, *args, **kwargs):
        epoch_time = time.time() - self.epoch_start
        msg = '[Epoch %d] Finished in %.3fs, ' % (self.current_epoch, epoch_time)
        estimator.logger.info(_metric_summary(msg, self.metrics))
        self.current_epoch += 1
        self.batch_index = 0


class CheckpointHandler(TrainBegin, BatchEnd, EpochEnd):
    """Save the model after user define period

    :py:class:`CheckpointHandler` saves the network architecture after first batch if the model
    can be fully hybridized, saves model parameters and trainer states after user defined period,
    default saves every epoch. Files are named ``{model_prefix}-symbol.json``,
    ``{model_prefix}-epoch{E}batch{B}.params`` / ``.states`` and
    ``{model_prefix}-best.params`` / ``.states``.

    Parameters
    ----------
    model_dir : str
        File directory to save all the model related files including model architecture,
        model parameters, and trainer states.
    model_prefix : str default 'model'
        Prefix to add for all checkpoint file names.
    monitor: EvalMetric, default None
        The metrics to monitor and determine if model has improved
    verbose: int, default 0
        Verbosity mode, 1 means inform user every time a checkpoint is saved
    save_best: bool, default False
        If True, monitor must not be None, :py:class:`CheckpointHandler` will save the
        model parameters and trainer states with the best monitored value.
    mode: str, default 'auto'
        One of {auto, min, max}, if `save_best=True`, the comparison to make
        and determine if the monitored value has improved. As in MXNet 1.9.1, 'auto'
        uses 'max' for every metric.
    epoch_period: int, default 1
        Epoch intervals between saving the network. By default, checkpoints are
        saved every epoch.
    batch_period: int, default None
        Batch intervals between saving the network.
        By default, checkpoints are not saved based on the number of batches.
    max_checkpoints : int, default 5
        Maximum number of checkpoint files to keep in the model_dir, older checkpoints
        will be removed. Best checkpoint file is not counted.
    resume_from_checkpoint : bool, default False
        Whether to resume training from checkpoint in model_dir. If True and checkpoints
        found, :py:class:`CheckpointHandler` will load net parameters and trainer states,
        and train the remaining of epochs and batches.
    """

    def __init__(self, model_dir, model_prefix='model', monitor=None, verbose=0,
                 save_best=False, mode='auto', epoch_period=1, batch_period=None,
                 max_checkpoints=5, resume_from_checkpoint=False):
        self.monitor = monitor
        self.verbose = verbose
        if not os.path.exists(model_dir):
            os.makedirs(model_dir)
        self.model_dir = model_dir
        self.model_prefix = model_prefix
        self.save_best = save_best
        if self.save_best and not isinstance(self.monitor, EvalMetric):
            raise ValueError("To save best model only, please provide one of the metric objects "
                             "from estimator.train_metrics and estimator.val_metrics as monitor.")
        self.epoch_period = epoch_period
        self.batch_period = batch_period
        self.current_batch = 0
        self.current_epoch = 0
        self.max_checkpoints = max_checkpoints
        self.resume_from_checkpoint = resume_from_checkpoint
        self.saved_checkpoints = []
        if self.save_best:
            self.monitor_op = _monitor_op(monitor, mode, 'ModelCheckpoint')
            self.best = np.inf if self.monitor_op is np.less else -np.inf

    def train_begin(self, estimator, *args, **kwargs):
        self.current_epoch = 0
        self.current_batch = 0
        if self.save_best:
            self.best = np.inf if self.monitor_op is np.less else -np.inf
        if self.resume_from_checkpoint:
            error_msg = "To use resume from checkpoint, you must only specify " \
                        "the same type of period you used for training." \
                        "For example, if you are training based on number of epochs," \
                        "you must save only based on epochs, and set batch_period to None."
            if estimator.max_batch:
                assert self.batch_period, error_msg
                assert not self.epoch_period, error_msg
            if estimator.max_epoch:
                assert self.epoch_period, error_msg
                assert not self.batch_period, error_msg
            self._resume_from_checkpoint(estimator)

    def batch_end(self, estimator, *args, **kwargs):
        if self.current_batch == 0:
            self._save_symbol(estimator)
        if self.batch_period and (self.current_batch + 1) % self.batch_period == 0:
            self._save_checkpoint(estimator)
        self.current_batch += 1

    def epoch_end(self, estimator, *args, **kwargs):
        if self.epoch_period and (self.current_epoch + 1) % self.epoch_period == 0:
            self._save_checkpoint(estimator)
        self.current_epoch += 1

    def _save_checkpoint(self, estimator):
        epoch, batch = self.current_epoch, self.current_batch
        if self.resume_from_checkpoint:
            # continue the numbering of the checkpoint resumed from (-1, -1 when none was
            # found); a checkpoint at epoch end comes after the batch counter moved on
            epoch += self.trained_epoch + 1
            batch += self.trained_batch + (0 if estimator.max_epoch else 1)
        prefix = "%s-epoch%dbatch%d" % (self.model_prefix, epoch, batch)
        self._save_params_and_trainer(estimator, prefix)
        if self.verbose > 0:
            estimator.logger.info('[Epoch %d] CheckpointHandler: trained total %d batches, '
                                  'saving model at %s with prefix: %s',
                                  self.current_epoch, self.current_batch + 1, self.model_dir,
                                  prefix)
        if self.save_best:
            self._save_best(estimator)

    def _save_best(self, estimator):
        monitor_name, monitor_value = self.monitor.get()
        if np.isnan(monitor_value):
            warnings.warn(RuntimeWarning(
                'Skipping save best because %s is not updated, make sure you pass one of the '
                'metric objects estimator.train_metrics and estimator.val_metrics as monitor'
                % monitor_name))
        elif self.monitor_op(monitor_value, self.best):
            prefix = self.model_prefix + '-best'
            self._save_params_and_trainer(estimator, prefix)
            self.best = monitor_value
            if self.verbose > 0:
                # MXNet 1.9.1 logs the new best as both the old and the new value
                estimator.logger.info('[Epoch %d] CheckpointHandler: '
                                      '%s improved from %0.5f to %0.5f, '
                                      'updating best model at %s with prefix: %s',
                                      self.current_epoch, monitor_name,
                                      self.best, monitor_value, self.model_dir, prefix)
        elif self.verbose > 0:
            # MXNet 1.9.1 logs the batch counter in the '[Epoch %d]' field here
            estimator.logger.info('[Epoch %d] CheckpointHandler: '
                                  '%s did not improve from %0.5f, '
                                  'skipping updating best model',
                                  self.current_batch, monitor_name, self.best)

    def _save_symbol(self, estimator):
        symbol_file = os.path.join(self.model_dir, self.model_prefix + '-symbol.json')
        if getattr(estimator.net, '_cached_graph', None):
            estimator.net._cached_graph[1].save(symbol_file)
        else:
            estimator.logger.info(
                "Model architecture(symbol file) is not saved, please use HybridBlock "
                "to construct your model, and call net.hybridize() before passing to "
                "Estimator in order to save model architecture as %s.",
                symbol_file)

    def _save_params_and_trainer(self, estimator, file_prefix):
        estimator.net.save_parameters(os.path.join(self.model_dir, file_prefix + '.params'))
        estimator.trainer.save_states(os.path.join(self.model_dir, file_prefix + '.states'))
        if 'best' not in file_prefix:
            self.saved_checkpoints.append(file_prefix)
        if len(self.saved_checkpoints) > self.max_checkpoints:
            oldest = self.saved_checkpoints.pop(0)
            for ext in ('.params', '.states'):
                path = os.path.join(self.model_dir, oldest + ext)
                if os.path.exists(path):
                    os.remove(path)

    def _resume_from_checkpoint(self, estimator):
        # checkpoints found on disk are not counted towards max_checkpoints (as in MXNet 1.9.1)
        prefix = self.model_prefix + '-epoch'
        self.trained_epoch = self._find_max_iteration(prefix, 'epoch', 'batch')
        self.trained_batch = self._find_max_iteration(prefix + str(self.trained_epoch),
                                                      'batch', '.params')
        if self.trained_epoch == -1:
            msg = "CheckpointHandler: No checkpoint found, training from scratch for "
            if estimator.max_batch:
                msg += "%d batches" % estimator.max_batch
            else:
                msg += "%d epochs" % estimator.max_epoch
            estimator.logger.info(msg)
            return
        msg = "CheckpointHandler: Checkpoint resumed from epoch %d batch %d, " \
              "continue to train for " % (self.trained_epoch, self.trained_batch)
        # train only the epochs (or batches) that remain
        for unit, units in (('epoch', 'epochs'), ('batch', 'batches')):
            limit = getattr(estimator, 'max_' + unit)
            if not limit:
                continue
            remaining = limit - getattr(self, 'trained_' + unit) - 1
            if remaining <= 0:
                raise ValueError("Found checkpoint with maximum number of %s %d reached, "
                                 "please specify resume_from_checkpoint=False (default value) "
                                 "if you want to train from scratch." % (unit, limit))
            setattr(estimator, 'max_' + unit, remaining)
            msg += "%d %s " % (remaining, units)
        name = "%s-epoch%dbatch%d" % (self.model_prefix, self.trained_epoch, self.trained_batch)
        param_file = os.path.join(self.model_dir, name + '.params')
        trainer_file = os.path.join(self.model_dir, name + '.states')
        assert os.path.exists(param_file), \
            "Failed to load checkpoint, %s does not exist" % param_file
        assert os.path.exists(trainer_file), \
            "Failed to load checkpoint, %s does not exist" % trainer_file
        estimator.net.load_parameters(param_file, ctx=estimator.context)
        estimator.trainer.load_states(trainer_file)
        estimator.logger.warning(msg)

    def _find_max_iteration(self, prefix, start, end):
        """The largest number between `start` and `end` in the names of the .params files in
        model_dir that begin with `prefix`; -1 when there is none."""
        max_iter = -1
        for fname in os.listdir(self.model_dir):
            if fname.startswith(prefix) and '.params' in fname:
                try:
                    max_iter = max(max_iter,
                                   int(fname[fname.find(start) + len(start):fname.find(end)]))
                except ValueError:
                    raise ValueError(
                        "Error parsing checkpoint file, please check your "
                        "checkpoints have the format: "
                        "{model_name}-epoch{epoch_number}batch{batch_number}.params, "
                        "there should also be a .states file for each .params file ")
        return max_iter


class EarlyStoppingHandler(TrainBegin, EpochEnd, TrainEnd):
    """Early stop training if monitored value is not improving

    Parameters
    ----------
    monitor: EvalMetric
        The metric to monitor, and stop training if this metric does not improve.
    min_delta: float, default 0
        Minimal change in monitored value to be considered as an improvement.
    patience: int, default 0
        Number of epochs to wait for improvement before terminate training.
    mode: str, default 'auto'
        One of {auto, min, max}, the comparison to make and determine if the monitored
        value has improved. As in MXNet 1.9.1, 'auto' uses 'max' for every metric.
    baseline: float
        Baseline value to compare the monitored value with.
    """

    def __init__(self, monitor, min_delta=0, patience=0, mode='auto', baseline=None):
        if not isinstance(monitor, EvalMetric):
            raise ValueError(
                "Please provide one of the metric objects from estimator.train_metrics and "
                "estimator.val_metrics as monitor.")
        if isinstance(monitor, CompositeEvalMetric):
            raise ValueError("CompositeEvalMetric is not supported for EarlyStoppingHandler, "
                             "please specify a simple metric instead.")
        self.monitor = monitor
        self.baseline = baseline
        self.patience = patience
        self.wait = 0
        self.stopped_epoch = 0
        self.current_epoch = 0
        self.stop_training = False
        self.monitor_op = _monitor_op(monitor, mode, 'EarlyStopping')
        self.min_delta = min_delta if self.monitor_op is np.greater else -min_delta

    def train_begin(self, estimator, *args, **kwargs):
        self.wait = 0
        self.stopped_epoch = 0
        self.current_epoch = 0
        self.stop_training = False
        if self.baseline is not None:
            self.best = self.baseline
        else:
            self.best = np.inf if self.monitor_op is np.less else -np.inf

    def epoch_end(self, estimator, *args, **kwargs):
        monitor_name, monitor_value = self.monitor.get()
        if np.isnan(monitor_value):
            warnings.warn(RuntimeWarning(
                '%s is not updated, make sure you pass one of the metric objects from '
                'estimator.train_metrics and estimator.val_metrics as monitor.' % monitor_name))
        elif self.monitor_op(monitor_value - self.min_delta, self.best):
            self.best = monitor_value
            self.wait = 0
        else:
            self.wait += 1
            if self.wait >= self.patience:
                self.stopped_epoch = self.current_epoch
                self.stop_training = True
        self.current_epoch += 1
        return self.stop_training

    def train_end(self, estimator, *args, **kwargs):
        if self.stopped_epoch > 0:
            # 'Hanlder' is MXNet 1.9.1's spelling of this log line
            estimator.logger.info('[Epoch %d] EarlyStoppingHanlder: '
                                  'early stopping due to %s not improving',
                                  self.stopped_epoch, self.monitor.get()[0])


class GradientUpdateHandler(BatchEnd):
    """Gradient Update Handler that apply gradients on network weights

    :py:class:`GradientUpdateHandler` takes the priority level. It updates weight parameters
    at the end of each batch, with the batch size taken as the sum of the losses' first
    dimensions.

    Parameters
    ----------
    priority : scalar, default -2000
        priority level of the gradient update handler. Priority level is sorted in ascending
        order. The lower the number is, the higher priority level the handler is.
    """

    def __init__(self, priority=-2000):
        self.priority = priority

    def batch_end(self, estimator, *args, **kwargs):
        loss = kwargs['loss']
        if not isinstance(loss, list):
            loss = [loss]
        estimator.trainer.step(sum(l.shape[0] for l in loss))
