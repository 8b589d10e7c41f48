"""Fixtures for mx.gluon.data (datasets, samplers, DataLoader), written by real MXNet 1.9.1.

:func:`run_scenarios` runs the same scenarios under real MXNet (to write
tests/fixtures/gluon_data/) and under mxcompat (tests/test_gluon_data.py). Each scenario returns
nested lists of NDArrays / numpy arrays / scalars / bytes, which :func:`encode` turns into JSON
plus arrays (with dtype and context of every NDArray; :func:`encode_on_contexts` adds the
context each gets when the scenario runs under ``with mx.cpu(1):``).
"""
import gzip
import hashlib
import json
import os
import struct
import tempfile

import numpy as np


def _x(n=10, d=3):
    return np.arange(n * d, dtype=np.float32).reshape(n, d) / 4


def _triple(x):
    return x * 3


def _first_double(x):
    return x * 2


def _is_even(x):
    return x % 2 == 0


def _identity(batch):
    return batch


def _loader(mx, dataset, **kwargs):
    return list(mx.gluon.data.DataLoader(dataset, **kwargs))


def _interval_sampler(mx):
    if hasattr(mx.gluon.data.sampler, 'IntervalSampler'):  # mxcompat
        return mx.gluon.data.sampler.IntervalSampler
    import importlib
    return importlib.import_module(mx.__name__ + '.gluon.contrib.data').IntervalSampler


def _raises(fn):
    try:
        fn()
    except Exception as e:  # pylint: disable=broad-except
        return type(e).__name__
    return None


def _sha1(path):
    with open(path, 'rb') as f:
        return hashlib.sha1(f.read()).hexdigest()


def make_fake_vision(root):
    """Small files in the formats of MNIST and CIFAR10/100; returns {file name: sha1}."""
    rs = np.random.RandomState(9)
    files = {}
    for prefix, n in (('train', 5), ('t10k', 3)):
        with gzip.GzipFile(os.path.join(root, prefix + '-images-idx3-ubyte.gz'), 'wb',
                           mtime=0) as f:
            f.write(struct.pack('>IIII', 2051, n, 28, 28))
            f.write(rs.randint(0, 256, size=n * 28 * 28).astype(np.uint8).tobytes())
        with gzip.GzipFile(os.path.join(root, prefix + '-labels-idx1-ubyte.gz'), 'wb',
                           mtime=0) as f:
            f.write(struct.pack('>II', 2049, n))
            f.write(rs.randint(0, 10, size=n).astype(np.uint8).tobytes())
    names = ['data_batch_%d.bin' % i for i in range(1, 6)] + ['test_batch.bin']
    for name in names:
        rows = np.concatenate([rs.randint(0, 10, size=(2, 1)),
                               rs.randint(0, 256, size=(2, 3072))], axis=1)
        rows.astype(np.uint8).tofile(os.path.join(root, name))
    for name in ('train.bin', 'test.bin'):
        rows = np.concatenate([rs.randint(0, 20, size=(3, 1)), rs.randint(0, 100, size=(3, 1)),
                               rs.randint(0, 256, size=(3, 3072))], axis=1)
        rows.astype(np.uint8).tofile(os.path.join(root, name))
    for name in os.listdir(root):
        files[name] = _sha1(os.path.join(root, name))
    return files


def _fake_dataset(base, hashes):
    """A subclass of a vision dataset class that expects the fake files' SHA-1s."""
    class Fake(base):
        def _get_data(self):
            for attr in ('_train_data', '_train_label', '_test_data', '_test_label'):
                value = getattr(self, attr, None)
                if isinstance(value, tuple):
                    setattr(self, attr, (value[0], hashes[value[0]]))
                elif isinstance(value, list):
                    setattr(self, attr, [(n, hashes[n]) for n, _ in value])
            super(Fake, self)._get_data()
    return Fake


def vision_scenarios(mx, fixture_dir):
    """Scenarios of mx.gluon.data.vision datasets over local files (no download)."""
    vision = mx.gluon.data.vision

    def downloaded():
        root = tempfile.mkdtemp()
        hashes = make_fake_vision(root)
        out = []
        for cls, kwargs in ((vision.MNIST, {}), (vision.MNIST, {'train': False}),
                            (vision.FashionMNIST, {}), (vision.CIFAR10, {}),
                            (vision.CIFAR10, {'train': False}), (vision.CIFAR100, {}),
                            (vision.CIFAR100, {'fine_label': True, 'train': False})):
            ds = _fake_dataset(cls, hashes)(root=root, **kwargs)
            out.append([len(ds), ds[0][0], ds[0][1], ds[len(ds) - 1][1]])
        ds = _fake_dataset(vision.MNIST, hashes)(root=root, transform=_scale_pair)
        out.append(list(ds[1]))
        return out

    def record_images():
        rec = os.path.join(fixture_dir, 'images.rec')
        out = []
        for flag in (1, 0):
            ds = vision.ImageRecordDataset(rec, flag=flag)
            out.append([len(ds), ds[1][0], ds[2][1]])
        for nw in (0, 2):
            ds = vision.ImageRecordDataset(rec).transform_first(_to_float)
            out.append(_loader(mx, ds, batch_size=2, num_workers=nw))
        return out

    def folder():
        ds = vision.ImageFolderDataset(os.path.join(fixture_dir, 'folder'))
        gray = vision.ImageFolderDataset(os.path.join(fixture_dir, 'folder'), flag=0,
                                         transform=_scale_pair)
        return [ds.synsets, [(os.path.relpath(f, fixture_dir), l) for f, l in ds.items],
                len(ds), list(ds[2]), list(gray[0])]

    return {'vision_downloaded': downloaded, 'vision_record_images': record_images,
            'vision_folder': folder}


def _scale_pair(data, label):
    return data.astype('float32') / 255, label + np.int64(100)  # same dtype under numpy 1 and 2


def _to_float(data):
    return data.astype('float32')


def scenarios(mx, fixture_dir):
    """name -> zero-argument callable returning the scenario's result."""
    gdata = mx.gluon.data
    X, y = _x(), np.arange(10)

    def dl(dataset, **kw):
        return lambda: _loader(mx, dataset, **kw)

    def rollover():
        loader = gdata.DataLoader(gdata.ArrayDataset(X, y), batch_size=4, last_batch='rollover')
        return [list(loader), list(loader), list(loader), len(loader)]

    def shuffled():
        np.random.seed(3)
        return _loader(mx, gdata.ArrayDataset(X, y), batch_size=4, shuffle=True)

    def random_sampler():
        np.random.seed(5)
        return [int(i) for i in gdata.RandomSampler(10)]

    nested = [((i, np.full((2,), i / 2.0)), i + 0.5, mx.nd.array([i, -i], dtype='int32'))
              for i in range(5)]

    def dataset_ops():
        a = gdata.SimpleDataset(list(range(11)))
        return [[list(a.shard(4, k)) for k in range(4)], list(a.take(4)), list(a.take(None)),
                list(a.filter(_is_even)), list(a.transform(_triple).filter(_is_even)),
                list(a.transform(_triple, lazy=False)),
                list(a.sample(gdata.SequentialSampler(3, 5)))]

    def samplers():
        seq = gdata.SequentialSampler(7, 2)
        interval = _interval_sampler(mx)
        return [list(seq), len(seq),
                [list(gdata.BatchSampler(seq, 3, m)) for m in ('keep', 'discard')],
                [len(gdata.BatchSampler(seq, 3, m)) for m in ('keep', 'discard', 'rollover')],
                list(interval(13, 3)), list(interval(13, 3, rollover=False)),
                list(gdata.FilterSampler(_is_even, list(range(9))))]

    def record_file():
        ds = gdata.RecordFileDataset(os.path.join(fixture_dir, 'data.rec'))
        return [len(ds), ds[2], _loader(mx, ds, batch_size=2, batchify_fn=_identity)]

    def contexts():
        ds = gdata.ArrayDataset(X)
        out = []
        for kw in ({}, {'pin_memory': True}, {'num_workers': 1},
                   {'num_workers': 1, 'pin_memory': True}):
            out.append(next(iter(gdata.DataLoader(ds, batch_size=4, **kw))))
        return out

    def errors():
        ds = gdata.ArrayDataset(X)
        sam = gdata.SequentialSampler(10)
        bs = gdata.BatchSampler(sam, 2)
        return [_raises(lambda: gdata.DataLoader(ds)),
                _raises(lambda: gdata.DataLoader(ds, 2, shuffle=True, sampler=sam)),
                _raises(lambda: gdata.DataLoader(ds, 2, batch_sampler=bs)),
                _raises(lambda: gdata.DataLoader(ds, batch_sampler=bs, last_batch='keep')),
                _raises(lambda: list(gdata.DataLoader(ds, 3, last_batch='bogus'))),
                _raises(lambda: gdata.DataLoader(ds, 3, timeout=0)),
                _raises(lambda: gdata.ArrayDataset(X, y[:5])),
                _raises(lambda: a_sample_of(gdata)),
                _raises(lambda: gdata.SimpleDataset([1, 2]).shard(2, 2))]

    def a_sample_of(g):
        return g.SimpleDataset([1, 2]).sample([0, 1])

    return {
        'keep': dl(gdata.ArrayDataset(X, y), batch_size=3),
        'discard': dl(gdata.ArrayDataset(X, y), batch_size=3, last_batch='discard'),
        'single_array': dl(gdata.ArrayDataset(X), batch_size=4),
        'rollover': rollover,
        'shuffled': shuffled,
        'random_sampler': random_sampler,
        'nested': dl(nested, batch_size=2),
        'ints': dl(list(range(5)), batch_size=2),
        'floats': dl([0.5, 1.5, 2.5], batch_size=2),
        'bools': dl([True, False, True], batch_size=3),
        'nd_dataset': dl(mx.nd.arange(6).reshape((3, 2)), batch_size=2),
        'nd_1d_arraydataset': dl(gdata.ArrayDataset(mx.nd.arange(5), mx.nd.ones((5, 2))),
                                 batch_size=2),
        'np_float64': dl(np.arange(12, dtype=np.float64).reshape(6, 2), batch_size=4),
        'np_uint8_images': dl(np.arange(2 * 4 * 4 * 3, dtype=np.uint8).reshape(2, 4, 4, 3),
                              batch_size=2),
        'workers': dl(gdata.ArrayDataset(X, y), batch_size=3, num_workers=2),
        'workers_nested': dl(nested, batch_size=2, num_workers=2, prefetch=1),
        'threads': dl(gdata.ArrayDataset(X, y), batch_size=3, num_workers=2, thread_pool=True),
        'batch_sampler': dl(gdata.ArrayDataset(X, y), batch_sampler=gdata.BatchSampler(
            gdata.SequentialSampler(7, 2), 3, 'keep')),
        'transform_first': dl(gdata.ArrayDataset(X, y).transform_first(_first_double),
                              batch_size=5),
        'transform_lazy_false': dl(gdata.ArrayDataset(X, y).transform(
            lambda a, b: (a + 1, b * 2), lazy=False), batch_size=5),
        'dataset_ops': dataset_ops,
        'samplers': samplers,
        'record_file': record_file,
        'contexts': contexts,
        'errors': errors,
        **vision_scenarios(mx, fixture_dir),
    }


def encode(obj, arrays, prefix):
    """JSON-able form of a scenario result; arrays go into ``arrays`` under ``prefix``."""
    if hasattr(obj, 'asnumpy'):
        arrays[prefix] = obj.asnumpy()
        return {'nd': prefix, 'dtype': np.dtype(obj.dtype).name, 'ctx': str(obj.context)}
    if isinstance(obj, np.ndarray):
        arrays[prefix] = obj
        return {'np': prefix, 'dtype': obj.dtype.name}
    if isinstance(obj, (list, tuple)):
        return {'list' if isinstance(obj, list) else 'tuple':
                [encode(o, arrays, '%s/%d' % (prefix, i)) for i, o in enumerate(obj)]}
    if isinstance(obj, bytes):
        return {'bytes': obj.hex()}
    if isinstance(obj, np.generic):
        return {'scalar': obj.item(), 'dtype': obj.dtype.name}
    return obj


def encode_on_contexts(mx, fn, arrays, prefix):
    """:func:`encode` of ``fn()`` run under ``with mx.cpu(0):``, every NDArray's entry also
    giving ``ctx1``, its context when ``fn`` runs under ``with mx.cpu(1):`` (a default context
    other than cpu(0); the results must be the same there but for contexts)."""
    with mx.cpu(0):
        enc = encode(fn(), arrays, prefix)
    with mx.cpu(1):
        other = {}
        _add_ctx1(enc, encode(fn(), other, prefix), arrays, other)
    return enc


def _add_ctx1(enc, enc1, arrays, other):
    if isinstance(enc, dict) and 'nd' in enc:
        np.testing.assert_array_equal(other[enc1['nd']], arrays[enc['nd']], err_msg=enc['nd'])
        enc['ctx1'] = enc1['ctx']
    elif isinstance(enc, dict) and ('list' in enc or 'tuple' in enc):
        kind = 'list' if 'list' in enc else 'tuple'
        assert len(enc[kind]) == len(enc1[kind])
        for a, b in zip(enc[kind], enc1[kind]):
            _add_ctx1(a, b, arrays, other)
    else:
        assert enc == enc1, (enc, enc1)


def write_record_file(mx, fixture_dir):
    w = mx.recordio.MXIndexedRecordIO(os.path.join(fixture_dir, 'data.idx'),
                                      os.path.join(fixture_dir, 'data.rec'), 'w')
    for i in range(5):
        w.write_idx(i, mx.recordio.pack(mx.recordio.IRHeader(0, float(i), i, 0),
                                        b'sample-%d' % i * (i + 1)))
    w.close()


def write_images(mx, fixture_dir):
    """images.rec/.idx (packed PNGs) and folder/<class>/*.png for the vision datasets."""
    from .image import png, _smooth
    w = mx.recordio.MXIndexedRecordIO(os.path.join(fixture_dir, 'images.idx'),
                                      os.path.join(fixture_dir, 'images.rec'), 'w')
    for i in range(5):
        w.write_idx(i, mx.recordio.pack(mx.recordio.IRHeader(0, float(i % 2), i, 0),
                                        png(_smooth(40 + i, 6, 5))))
    w.close()
    for cls, n in (('cat', 2), ('dog', 3)):
        os.makedirs(os.path.join(fixture_dir, 'folder', cls), exist_ok=True)
        for i in range(n):
            with open(os.path.join(fixture_dir, 'folder', cls, '%d.png' % i), 'wb') as f:
                f.write(png(_smooth(50 + i + 10 * n, 4 + i, 5)))
    with open(os.path.join(fixture_dir, 'folder', 'dog', 'notes.txt'), 'w') as f:
        f.write('not an image')


def write(mx, outdir):
    write_record_file(mx, outdir)
    write_images(mx, outdir)
    arrays, manifest = {}, {}
    for name, fn in scenarios(mx, outdir).items():
        manifest[name] = encode_on_contexts(mx, fn, arrays, name)
    np.savez_compressed(os.path.join(outdir, 'arrays.npz'), **arrays)
    with open(os.path.join(outdir, 'manifest.json'), 'w') as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
