"""GluonTS 0.8.1 estimators trained and predicting as real MXNet runs them.

A DeepAR (in float32 and in float64) and a SimpleFeedForward estimator train a few batches on a generated ListDataset
(seeded noisy sine waves) through GluonTS's own Trainer, then predict. Both sides start from the
same weights without editing GluonTS: the Trainer's ``init`` is an Initializer that sets every
parameter from a numpy generator seeded by its name (model_zoo.seeded). Dropout is off; GluonTS
samples training windows with numpy's generator, seeded before training. Recorded: the training
and validation loss of every epoch, the trained parameters, and what does not depend on MXNet's
sampling generator: SimpleFeedForward's forecast means (``sampling=False`` makes its forecasts
distributions) and DeepAR's distribution (mean and standard deviation) for the validation batch,
unrolled with the true target as GluonTS's ``distribution`` does. DeepAR's sample paths come
from MXNet's random generator, which mxcompat does not reproduce bit for bit. Run with an
interpreter that has MXNet 1.9.1 and gluonts 0.8.1:

    ~/oracle-gluoncv/bin/python scripts/make_fixtures.py --only gluonts_estimators
"""
import os

import numpy as np

from .model_zoo import seeded

REQUIRES = 'gluonts'

FREQ = 'H'
PREDICTION_LENGTH = 4
CONTEXT_LENGTH = 8
MODELS = ('deepar', 'deepar_float64', 'simple_feedforward')


def series(count=6, length=48):
    r = np.random.RandomState(7)
    t = np.arange(length)
    return [(10 + 3 * np.sin(2 * np.pi * t / 12 + r.uniform(0, 6))
             + r.normal(0, 0.5, size=length)).astype(np.float32) for _ in range(count)]


def datasets():
    """(training, validation) ListDatasets: validation holds PREDICTION_LENGTH more points."""
    from gluonts.dataset.common import ListDataset
    full = series()
    train = ListDataset([{'start': '2021-01-01 00:00', 'target': s[:-PREDICTION_LENGTH]}
                         for s in full], freq=FREQ)
    valid = ListDataset([{'start': '2021-01-01 00:00', 'target': s} for s in full], freq=FREQ)
    return train, valid


def seeded_init(mx):
    class SeededByName(mx.init.Initializer):
        """Every parameter from a generator seeded by its name without the network's prefix
        (which counts the networks made before in the process)."""

        def __call__(self, desc, arr):
            arr[:] = mx.nd.array(seeded(str(desc).split('_', 1)[1], arr.shape))
    return SeededByName()


def recorder():
    from gluonts.mx.trainer.callback import Callback

    class Losses(Callback):
        def __init__(self):
            self.train, self.valid = [], []

        def on_train_epoch_end(self, epoch_no, epoch_loss, training_network, trainer):
            self.train.append(epoch_loss)
            return True

        def on_validation_epoch_end(self, epoch_no, epoch_loss, training_network, trainer):
            self.valid.append(epoch_loss)
            return True
    return Losses()


def estimator(mx, name, losses):
    from gluonts.mx.trainer import Trainer
    trainer = Trainer(epochs=2, num_batches_per_epoch=3, learning_rate=1e-2,
                      init=seeded_init(mx), callbacks=[losses])
    common = dict(freq=FREQ, prediction_length=PREDICTION_LENGTH,
                  context_length=CONTEXT_LENGTH, batch_size=4, trainer=trainer)
    if name.startswith('deepar'):
        from gluonts.model.deepar import DeepAREstimator
        dtype = np.float64 if name == 'deepar_float64' else np.float32
        return DeepAREstimator(num_layers=1, num_cells=8, dropout_rate=0.0, lags_seq=[1, 2, 3],
                               dtype=dtype, **common)
    from gluonts.model.simple_feedforward import SimpleFeedForwardEstimator
    return SimpleFeedForwardEstimator(num_hidden_dimensions=[8], sampling=False, **common)


def run(mx, name):
    """Train estimator ``name`` and predict -> {array name: numpy array}."""
    train, valid = datasets()
    losses = recorder()
    est = estimator(mx, name, losses)
    np.random.seed(0)
    mx.random.seed(0)
    output = est.train_model(train, validation_data=valid)
    out = {'train_loss': np.array(losses.train), 'valid_loss': np.array(losses.valid)}
    net = output.trained_net
    prefix = net.prefix
    for k, p in sorted(net.collect_params().items()):
        out['param/' + k[len(prefix):]] = p.data().asnumpy()
    if name.startswith('deepar'):
        loader = est.create_validation_data_loader(output.transformation.apply(valid))
        distr = net.distribution(**next(iter(loader)))
        out['distr_mean'] = distr.mean.asnumpy()
        out['distr_stddev'] = distr.stddev.asnumpy()
    else:
        forecasts = list(output.predictor.predict(train))
        out['forecast_mean'] = np.stack([f.mean for f in forecasts])
    return out


def write(mx, outdir):
    for name in MODELS:
        np.savez(os.path.join(outdir, name + '.npz'), **run(mx, name))
