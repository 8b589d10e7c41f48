"""Gluon Batch Processor for Estimators."""
from .utils import _get_data_and_label
from .... import autograd

__all__ = ['BatchProcessor']


class BatchProcessor(object):
    """BatchProcessor Class for plug and play fit_batch & evaluate_batch

    During training or validation, data are divided into minibatches for processing. This
    class provides the hooks that train or validate on one minibatch. Users may provide
    customized fit_batch() and evaluate_batch() methods by inheriting from this class and
    overriding them.

    :py:class:`BatchProcessor` can be used to replace fit_batch() and evaluate_batch()
    in the base estimator class
    """

    def _get_data_and_label(self, batch, ctx, batch_axis=0):
        return _get_data_and_label(batch, ctx, batch_axis)

    def evaluate_batch(self, estimator, val_batch, batch_axis=0):
        """Evaluate the estimator model on a batch of validation data.

        Parameters
        ----------
        estimator : Estimator
            Reference to the estimator
        val_batch : tuple
            Data and label of a batch from the validation data loader.
        batch_axis : int, default 0
            Batch axis to split the validation data into devices.

        Returns
        -------
        data, label, pred, loss : lists of NDArray, one entry per context.
        """
        data, label = self._get_data_and_label(val_batch, estimator.context, batch_axis)
        pred = [estimator.val_net(x) for x in data]
        loss = [estimator.val_loss(y_hat, y) for y_hat, y in zip(pred, label)]
        return data, label, pred, loss

    def fit_batch(self, estimator, train_batch, batch_axis=0):
        """Trains the estimator model on a batch of training data: forward and loss under
        ``autograd.record()``, then backward. The parameter update is left to
        :py:class:`GradientUpdateHandler`.

        Parameters
        ----------
        estimator : Estimator
            Reference to the estimator
        train_batch : tuple
            Data and label of a batch from the training data loader.
        batch_axis : int, default 0
            Batch axis to split the training data into devices.

        Returns
        -------
        data: List of NDArray
            Sharded data from the batch. Data is sharded with
            `gluon.split_and_load`.
        label: List of NDArray
            Sharded label from the batch. Labels are sharded with
            `gluon.split_and_load`.
        pred: List of NDArray
            Prediction on each of the sharded inputs.
        loss: List of NDArray
            Loss on each of the sharded inputs.
        """
        data, label = self._get_data_and_label(train_batch, estimator.context, batch_axis)
        with autograd.record():
            pred = [estimator.net(x) for x in data]
            loss = [estimator.loss(y_hat, y) for y_hat, y in zip(pred, label)]
        for l in loss:
            l.backward()
        return data, label, pred, loss
