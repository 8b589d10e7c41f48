"""Small generated data sets, written in the formats and places MXNet's example scripts and
tutorials read, so that no case needs the network.

Each generator is ``gen(dest, **options)``: ``dest`` is the directory (or file) the script reads,
and the return value lists the files written. Values come from ``np.random.RandomState`` seeded
per data set, so every run writes the same bytes. Images are class templates plus noise, so
that a few epochs learn something and printed accuracies move.
"""
import gzip
import os
import struct
import zlib

import numpy as np


def _write(path, payload, gz=False):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with (gzip.GzipFile(path, 'wb', mtime=0) if gz else open(path, 'wb')) as f:
        f.write(payload)
    return path


def _images(rng, n, shape, classes=10):
    """``n`` uint8 images of ``shape`` drawn around one template per class, and labels; the
    templates depend on the shape only, so that every split of a data set shares them."""
    templates = np.random.RandomState(len(shape) + sum(shape)).rand(classes, *shape) > 0.75
    labels = rng.randint(0, classes, n)
    noise = rng.rand(n, *shape)
    images = np.where(templates[labels], 160 + 95 * noise, 60 * noise)
    return images.astype(np.uint8), labels.astype(np.uint8)


def mnist(dest, n_train=500, n_test=100, gz=False, seed=0):
    """MNIST's four idx files (``train-images-idx3-ubyte`` ...), gzipped (``.gz`` names) with
    ``gz=True`` as Gluon's ``vision.MNIST`` and ``FashionMNIST`` read them."""
    rng = np.random.RandomState(seed)
    written = []
    for prefix, n in (('train', n_train), ('t10k', n_test)):
        images, labels = _images(rng, n, (28, 28))
        suffix = '.gz' if gz else ''
        written.append(_write(os.path.join(dest, '%s-images-idx3-ubyte%s' % (prefix, suffix)),
                              struct.pack('>IIII', 2051, n, 28, 28) + images.tobytes(), gz))
        written.append(_write(os.path.join(dest, '%s-labels-idx1-ubyte%s' % (prefix, suffix)),
                              struct.pack('>II', 2049, n) + labels.tobytes(), gz))
    return written


def mnist_npz(dest, n_train=500, n_test=100, label_noise=0.0, seed=0):
    """``mnist.npz`` as example/bayesian-methods reads it: ``X`` and ``X_test`` (flattened
    uint8 images), ``Y`` and ``Y_test`` (labels), a fraction ``label_noise`` of the labels
    drawn at random (so that accuracies stay below 1)."""
    rng = np.random.RandomState(seed)
    arrays = {}
    for key, n in (('', n_train), ('_test', n_test)):
        images, labels = _images(rng, n, (28, 28))
        noisy = rng.rand(n) < label_noise
        labels = np.where(noisy, rng.randint(0, 10, n), labels)
        arrays['X' + key], arrays['Y' + key] = images.reshape(n, -1), labels.astype(np.int64)
    os.makedirs(os.path.dirname(os.path.abspath(dest)), exist_ok=True)
    with open(dest, 'wb') as f:
        np.savez(f, **arrays)
    return [dest]


def toy(dest, n_train=20, n_test=100, seed=0):
    """example/bayesian-methods' toy regression files (``x y`` per line): ``y = x**3`` plus
    noise of standard deviation 3 at ``n_train`` points of [-4, 4] in ``toy_data_train.txt``,
    noiseless on [-6, 6] in ``toy_data_test_whole.txt``."""
    rng = np.random.RandomState(seed)
    x = rng.uniform(-4, 4, n_train)
    x_test = np.linspace(-6, 6, n_test)
    written = []
    for name, xs, ys in (('toy_data_train.txt', x, x ** 3 + 3 * rng.randn(n_train)),
                         ('toy_data_test_whole.txt', x_test, x_test ** 3)):
        rows = ''.join('%.6f %.6f\n' % (a, b) for a, b in zip(xs, ys))
        written.append(_write(os.path.join(dest, name), rows.encode()))
    return written


def _png(path, image):
    """Write an (h, w, 3) uint8 array as a PNG file (no filter, zlib-compressed)."""
    h, w, _ = image.shape
    raw = b''.join(b'\x00' + image[i].tobytes() for i in range(h))

    def chunk(kind, body):
        return (struct.pack('>I', len(body)) + kind + body
                + struct.pack('>I', zlib.crc32(kind + body) & 0xffffffff))
    payload = (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
               + chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b''))
    return _write(path, payload)


def images(dest, counts=(('train', 4), ('test', 2)), size=(256, 256), seed=0):
    """Smooth random RGB PNG images, ``counts`` of them in each named sub-directory."""
    rng = np.random.RandomState(seed)
    written = []
    for sub, n in counts:
        for i in range(n):
            coarse = rng.rand(size[0] // 16 + 1, size[1] // 16 + 1, 3)
            image = np.kron(coarse, np.ones((16, 16, 1)))[:size[0], :size[1]]
            image = (255 * (0.8 * image + 0.2 * rng.rand(size[0], size[1], 3))).astype(np.uint8)
            written.append(_png(os.path.join(dest, sub, '%03d.png' % i), image))
    return written


def text(dest, files, vocab=60, seed=0):
    """Text files of sentences (one a line) of words drawn from a small Zipf-distributed
    vocabulary; ``files`` lists (file name, number of lines). Every file's first line has every
    word, so that no file has a word another lacks."""
    rng = np.random.RandomState(seed)
    words = np.array(['w%d' % i for i in range(vocab)])
    written = []
    for name, n in files:
        lines = [' '.join(words)]
        lines += [' '.join(words[rng.zipf(1.5, rng.randint(3, 12)) % vocab]) for _ in range(n)]
        body = ''.join(' %s \n' % ln for ln in lines)  # PTB's layout: spaces around each line
        written.append(_write(os.path.join(dest, name), body.encode()))
    return written


def ratings(dest, files, users=50, items=40, seed=0):
    """MovieLens ``user::item::rating::timestamp`` files (ratings from user and item factors);
    ``files`` lists (file name, number of rows)."""
    rng = np.random.RandomState(seed)
    u, v = rng.randn(users, 2), rng.randn(items, 2)
    written = []
    for name, n in files:
        user, item = rng.randint(1, users, n), rng.randint(1, items, n)
        score = np.clip(np.round(3 + (u[user] * v[item]).sum(1)), 1, 5).astype(int)
        rows = ''.join('%d::%d::%d::%d\n' % (a, b, c, 978300760 + i)
                       for i, (a, b, c) in enumerate(zip(user, item, score)))
        written.append(_write(os.path.join(dest, name), rows.encode()))
    return written


GENERATORS = {'mnist': mnist, 'mnist_npz': mnist_npz, 'toy': toy, 'images': images, 'text': text,
              'ratings': ratings}
