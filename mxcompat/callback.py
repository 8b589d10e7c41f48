"""Callbacks for ``Module.fit`` / ``FeedForward``: checkpointing, speed and metric logging."""
import logging
import math
import time

__all__ = ['save_checkpoint', 'module_checkpoint', 'do_checkpoint', 'log_train_metric',
           'Speedometer', 'ProgressBar', 'LogValidationMetricsCallback']


def save_checkpoint(prefix, epoch, symbol, arg_params, aux_params, **kwargs):
    """``mx.model.save_checkpoint`` (MXNet's callback module re-exports it)."""
    from .model import save_checkpoint as save
    return save(prefix, epoch, symbol, arg_params, aux_params, **kwargs)


def module_checkpoint(mod, prefix, period=1, save_optimizer_states=False):
    """Epoch-end callback saving ``mod`` to ``prefix`` every ``period`` epochs.

    Parameters
    ----------
    mod : BaseModule
        The module to checkpoint.
    prefix : str
        File prefix of the checkpoint.
    period : int
        Epochs between checkpoints (at least 1).
    save_optimizer_states : bool
        Also save the optimizer states.
    """
    period = int(max(1, period))

    def _callback(iter_no, sym=None, arg=None, aux=None):
        if (iter_no + 1) % period == 0:
            mod.save_checkpoint(prefix, iter_no + 1, save_optimizer_states)
    return _callback


def do_checkpoint(prefix, period=1):
    """Epoch-end callback saving ``prefix-symbol.json`` and ``prefix-%04d.params`` every
    ``period`` epochs (with ``mx.model.save_checkpoint``).

    Parameters
    ----------
    prefix : str
        File prefix of the checkpoint.
    period : int, optional
        Epochs between checkpoints (at least 1).
    """
    period = int(max(1, period))

    def _callback(iter_no, sym, arg, aux):
        if (iter_no + 1) % period == 0:
            save_checkpoint(prefix, iter_no + 1, sym, arg, aux)
    return _callback


def log_train_metric(period, auto_reset=False):
    """Batch-end callback logging the training metric every ``period`` batches.

    Parameters
    ----------
    period : int
        Batches between logs.
    auto_reset : bool
        Reset the (local) metric after each log.
    """
    def _callback(param):
        if param.nbatch % period == 0 and param.eval_metric is not None:
            for name, value in param.eval_metric.get_name_value():
                logging.info('Iter[%d] Batch[%d] Train-%s=%f', param.epoch, param.nbatch,
                             name, value)
            if auto_reset:
                param.eval_metric.reset_local()
    return _callback


class Speedometer(object):
    """Batch-end callback logging the speed (samples/sec) and the metric every ``frequent``
    batches.

    Parameters
    ----------
    batch_size : int
        Batch size of the data.
    frequent : int
        Batches between logs (default 50).
    auto_reset : bool
        Reset the (local) metric after each log, so each log covers the last ``frequent``
        batches.
    """
    def __init__(self, batch_size, frequent=50, auto_reset=True):
        self.batch_size = batch_size
        self.frequent = frequent
        self.init = False
        self.tic = 0
        self.last_count = 0
        self.auto_reset = auto_reset

    def __call__(self, param):
        count = param.nbatch
        if self.last_count > count:   # a new epoch started
            self.init = False
        self.last_count = count
        if not self.init:
            self.init = True
            self.tic = time.time()
            return
        if count % self.frequent != 0:
            return
        try:
            speed = self.frequent * self.batch_size / (time.time() - self.tic)
        except ZeroDivisionError:
            speed = float('inf')
        metric = param.eval_metric
        if metric is None:
            logging.info('Iter[%d] Batch [%d]\tSpeed: %.2f samples/sec', param.epoch, count, speed)
        else:
            name_value = metric.get_name_value()
            values = sum(name_value, ())
            fields = '\t%s=%f' * len(name_value)
            if self.auto_reset:
                metric.reset_local()
                logging.info('Epoch[%d] Batch [%d-%d]\tSpeed: %.2f samples/sec' + fields,
                             param.epoch, count - self.frequent, count, speed, *values)
            else:
                logging.info('Epoch[%d] Batch [0-%d]\tSpeed: %.2f samples/sec' + fields,
                             param.epoch, count, speed, *values)
        self.tic = time.time()


class ProgressBar(object):
    """Batch-end callback logging a progress bar of the epoch.

    Parameters
    ----------
    total : int
        Batches per epoch.
    length : int
        Width of the bar in characters.
    """
    def __init__(self, total, length=80):
        self.bar_len = length
        self.total = total

    def __call__(self, param):
        count = param.nbatch
        filled = int(round(self.bar_len * count / float(self.total)))
        percents = math.ceil(100.0 * count / float(self.total))
        logging.info('[%s] %s%s\r', '=' * filled + '-' * (self.bar_len - filled), percents, '%')


class LogValidationMetricsCallback(object):
    """Epoch-end callback logging the validation metrics."""

    def __call__(self, param):
        if not param.eval_metric:
            return
        for name, value in param.eval_metric.get_name_value():
            logging.info('Epoch[%d] Validation-%s=%f', param.epoch, name, value)
