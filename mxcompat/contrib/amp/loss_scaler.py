"""Dynamic loss scaler for AMP (``mx.contrib.amp.loss_scaler``)."""
import logging

import torch

__all__ = ['LossScaler']


class LossScaler(object):
    """Dynamic loss scaler for AMP.

    The loss scale starts at 2**16. A step whose gradients overflow (hold inf or NaN) is
    skipped and halves the scale from the next step on; 2000 steps in a row without overflow
    double it, up to 2**24.

    Properties
    ----------
    loss_scale : float
        The current loss scale
    """
    def __init__(self):
        self._loss_scale = 2.**16
        self._next_loss_scale = self._loss_scale
        self._max_loss_scale = 2.**24
        self._scale_seq_len = 2000
        self._unskipped = 0

    @property
    def loss_scale(self):
        return self._loss_scale

    def has_overflow(self, params):
        """Check gradients for overflow (on the first context of each Parameter), and move the
        loss scale on.

        Parameters
        ----------
        params : list of Parameter
            The parameters whose gradients to check.

        Returns
        -------
        bool
            Whether a gradient holds inf or NaN.
        """
        grads = [p._sync_grads()[0]._t for p in params if p._grad is not None]
        # the largest magnitude of each gradient: inf or NaN exactly where one holds either
        peaks = torch._foreach_norm(grads, float('inf')) if grads else []
        has_overflow = bool(peaks) and not bool(
            torch.stack([p.to(peaks[0].device) for p in peaks]).isfinite().all())
        self._loss_scale = self._next_loss_scale
        if has_overflow:
            self._next_loss_scale = self._loss_scale / 2.
            self._unskipped = 0
            logging.info("AMP: decreasing loss scale to %f", self._next_loss_scale)
        else:
            self._unskipped += 1
        if self._unskipped == self._scale_seq_len:
            self._unskipped = 0
            self._next_loss_scale = min(self._max_loss_scale, self._loss_scale * 2.)
            logging.info("AMP: increasing loss scale to %f", self._next_loss_scale)
        return has_overflow
