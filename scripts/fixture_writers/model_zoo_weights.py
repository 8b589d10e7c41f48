"""Model-zoo weight files written by real MXNet, and MXNet's outputs with them.

For each model in MODELS: ``get_model(name)`` with MXNet's defaults (1000 classes), every
parameter set by ``weights`` and saved with ``net.save_parameters``; the file itself is the
fixture, stored as ``<name>.params.xz``. ``outputs.npz`` holds the predict-mode output for
``forward_input(name)`` and, for models with BatchNorm, the training-mode output of
``train_part(net)`` (the part of the network before its first Dropout, whose mask is random)
with the network cast to float64: normalised by the statistics of a batch of two, MXNet's own
float32 outputs are up to 6e-4 of their scale away from float64 (rounding alone), while in
float64 MXNet and mxcompat agree to 1e-13.

The weights compress to almost nothing yet exercise every layer: each output row of a
convolution or dense weight has ``K`` nonzero entries at random positions with magnitudes from
``LEVELS``, scaled by ``sqrt(gain / K)``. A row that reads more than ``4 K`` inputs has half of
its entries the negatives of the other half: it sums to zero, so the mean of its (post-ReLU)
inputs cancels, few channels are dead and the outputs differ between the two input images.
Such a row keeps only (1/2 - 1/(2 pi)) of the variance of a ReLU output, against 1/2 for
random signs, so its gain exceeds He's 2; at the full 2.93 that would keep the variance,
rounding errors grow through the depth (MXNet's own float32 output then moves by up to 1e-3
from float64), so ``ZERO_SUM_GAIN`` stays at 2.4, where every model's float32 output is
within 5e-6 of float64 (``write`` checks this). Narrower rows (few, strongly correlated
channels, which a zero sum would cancel) get random signs and He's gain 2. BatchNorm
statistics and biases follow short periodic patterns over the channels.
"""
import lzma
import os
import zlib

import numpy as np

MODELS = ['resnet18_v1', 'resnet50_v2', 'mobilenet1.0', 'mobilenetv2_0.25', 'densenet121',
          'squeezenet1.1', 'inceptionv3', 'vgg11_bn']
K = 16
LEVELS = np.array([0.5, 1.0, 1.5], np.float32)
ZERO_SUM_GAIN = 2.4


def input_side(name):
    return 299 if name == 'inceptionv3' else 224


def forward_input(name):
    """Two images: a coarse random 8x8 pattern per channel blown up to the input size, plus
    noise (pure noise would look alike to every model after its global pooling)."""
    r = np.random.RandomState(zlib.crc32(('input/' + name).encode()) & 0xffffffff)
    side = input_side(name)
    rep = -(-side // 8)
    coarse = r.uniform(-1, 1, size=(2, 3, 8, 8)).repeat(rep, 2).repeat(rep, 3)[:, :, :side, :side]
    return (coarse + r.uniform(-0.25, 0.25, size=(2, 3, side, side))).astype(np.float32)


def _periodic(i, period, step, centre):
    return (centre + step * ((i % period) - period // 2)).astype(np.float32)


def weights(key, shape):
    """The value of parameter ``key`` (its name without the model prefix)."""
    i = np.arange(shape[0])
    for suffix, args in (('gamma', (5, 0.125, 1.0)), ('beta', (7, 0.0625, 0.0)),
                         ('running_mean', (3, 0.125, 0.0)), ('running_var', (4, 0.25, 1.25)),
                         ('bias', (5, 0.03125, 0.0))):
        if key.endswith(suffix):
            return _periodic(i, *args)
    r = np.random.RandomState(zlib.crc32(key.encode()) & 0xffffffff)
    rows, fan_in = shape[0], int(np.prod(shape[1:]))
    k = min(K, fan_in)
    if fan_in > K:
        cols = r.randint(0, fan_in, size=(rows, k))
    else:
        cols = np.argsort(r.uniform(size=(rows, fan_in)), axis=1)
    vals = LEVELS[r.randint(0, len(LEVELS), size=(rows, k))]
    if fan_in > 4 * K:
        vals[:, k // 2:] = -vals[:, :k // 2]
        gain = ZERO_SUM_GAIN
    else:
        vals *= np.where(r.randint(0, 2, size=(rows, k)) == 1, 1, -1).astype(np.float32)
        gain = 2.0
    scale = np.sqrt(gain / (k * np.mean(LEVELS.astype(np.float64) ** 2)))
    w = np.zeros((rows, fan_in), np.float32)
    np.add.at(w, (i[:, None], cols), vals * np.float32(scale))
    return w.reshape(shape)


def has_batchnorm(net):
    return any(k.endswith('running_var') for k in net.collect_params().keys())


def train_part(net):
    """The blocks of ``net.features`` before its first Dropout, or None for the whole net."""
    blocks = [net.features[j] for j in range(len(net.features))]
    for j, blk in enumerate(blocks):
        if type(blk).__name__ == 'Dropout':
            return blocks[:j]
    return None


def train_forward(mx, net, x):
    """Training-mode output of ``train_part(net)`` (BatchNorm uses the batch statistics)."""
    part = train_part(net)
    with mx.autograd.train_mode():
        if part is None:
            return net(x)
        for blk in part:
            x = blk(x)
        return x


def write(mx, outdir):
    outs = {}
    for name in MODELS:
        with mx.name.NameManager():
            net = mx.gluon.model_zoo.vision.get_model(name)
        net.initialize()
        x = mx.nd.array(forward_input(name))
        net(x)
        for k, p in net.collect_params().items():
            p.set_data(mx.nd.array(weights(k[len(net.prefix):], p.shape)))
        y = outs[name + '/predict'] = net(x).asnumpy()
        raw = os.path.join(outdir, name + '.params')
        net.save_parameters(raw)
        with open(raw, 'rb') as f, lzma.open(raw + '.xz', 'wb', preset=6) as g:
            g.write(f.read())
        os.remove(raw)
        net.cast('float64')
        x = x.astype('float64')
        y64 = net(x).asnumpy()
        assert np.abs(y - y64).max() < 5e-6 * np.abs(y64).max(), name
        assert np.isfinite(y).all() and y.std() > 0.05, name
        assert (y[0] - y[1]).std() > 0.1 * y.std(), name
        if has_batchnorm(net):
            outs[name + '/train64'] = train_forward(mx, net, x).asnumpy()
    np.savez_compressed(os.path.join(outdir, 'outputs.npz'), **outs)
