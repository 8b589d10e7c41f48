"""mx.gluon.data (datasets, samplers, DataLoader) against real MXNet 1.9.1
(tests/fixtures/gluon_data, made by scripts/fixture_writers/gluon_data.py), plus fault tests:
crashing, hanging and raising workers must give a clear error quickly, never a hang."""
import json
import os
import signal
import time

import numpy as np
import pytest

import mxcompat as mx
import mxcompat.gluon.data as gdata
from mxcompat.base import MXNetError
from mxcompat.gluon.data.dataloader import DataLoaderTimeoutError
from scripts.fixture_writers import gluon_data as writer

from conftest import FIXTURES, mxnet_context

FX = os.path.join(FIXTURES, 'gluon_data')
with open(os.path.join(FX, 'manifest.json')) as _f:
    MANIFEST = json.load(_f)
ARRAYS = dict(np.load(os.path.join(FX, 'arrays.npz')))
SCENARIOS = writer.scenarios(mx, FX)


def _compare(got, want, path):
    if isinstance(want, dict) and 'nd' in want:
        assert isinstance(got, mx.nd.NDArray), '%s: %r is not an NDArray' % (path, got)
        assert np.dtype(got.dtype).name == want['dtype'], path
        assert str(got.context) == mxnet_context(want), path
        np.testing.assert_array_equal(got.asnumpy(), ARRAYS[want['nd']], err_msg=path)
    elif isinstance(want, dict) and 'np' in want:
        assert isinstance(got, np.ndarray) and got.dtype.name == want['dtype'], path
        np.testing.assert_array_equal(got, ARRAYS[want['np']], err_msg=path)
    elif isinstance(want, dict) and ('list' in want or 'tuple' in want):
        kind = 'list' if 'list' in want else 'tuple'
        assert isinstance(got, list if kind == 'list' else tuple), '%s: %r' % (path, type(got))
        assert len(got) == len(want[kind]), path
        for i, (g, w) in enumerate(zip(got, want[kind])):
            _compare(g, w, '%s/%d' % (path, i))
    elif isinstance(want, dict) and 'bytes' in want:
        assert got == bytes.fromhex(want['bytes']), path
    elif isinstance(want, dict) and 'scalar' in want:
        assert got == want['scalar'] and np.dtype(type(got)).name == want['dtype'], path
    else:
        assert got == want and type(got) is type(want), '%s: %r vs MXNet %r' % (path, got, want)


@pytest.mark.parametrize('name', sorted(MANIFEST))
def test_scenario(name):
    _compare(SCENARIOS[name](), MANIFEST[name], name)


def test_every_scenario_has_a_fixture():
    assert sorted(SCENARIOS) == sorted(MANIFEST)


# ------------------------------------------------------------------ behaviour without MXNet data
def test_auto_reload_and_iterators():
    loader = gdata.DataLoader(gdata.ArrayDataset(np.arange(6)), batch_size=2, num_workers=1,
                              auto_reload=True)
    it1, it2 = iter(loader), iter(loader)
    assert [b.asnumpy().tolist() for b in it2] == [[0, 1], [2, 3], [4, 5]]
    assert [b.asnumpy().tolist() for b in it1] == [[0, 1], [2, 3], [4, 5]]
    assert len(loader) == 3


class _Faulty(gdata.Dataset):
    def __init__(self, mode):
        self.mode = mode

    def __len__(self):
        return 12

    def __getitem__(self, i):
        if i == 5:
            if self.mode == 'exit':
                os._exit(3)
            if self.mode == 'kill':
                os.kill(os.getpid(), signal.SIGKILL)
            if self.mode == 'hang':
                time.sleep(60)
            if self.mode == 'raise':
                raise IndexError('sample %d is broken' % i)
        return np.full((2,), i, dtype=np.float32)


@pytest.mark.parametrize('mode,expect', [('exit', 'exited with code 3'),
                                         ('kill', 'killed by signal SIGKILL')])
def test_crashing_worker(mode, expect):
    loader = gdata.DataLoader(_Faulty(mode), batch_size=2, num_workers=2, timeout=30)
    start = time.monotonic()
    with pytest.raises(MXNetError, match=expect):
        for _ in loader:
            pass
    assert time.monotonic() - start < 10  # detected well before the timeout
    # the loader starts fresh workers for the next epoch
    good = gdata.DataLoader(_Faulty('none'), batch_size=2, num_workers=2, timeout=30)
    assert len(list(good)) == 6


@pytest.mark.parametrize('thread_pool', [False, True])
def test_hanging_worker_times_out(thread_pool):
    loader = gdata.DataLoader(_Faulty('hang'), batch_size=2, num_workers=2, timeout=1,
                              thread_pool=thread_pool)
    start = time.monotonic()
    got = []
    with pytest.raises(DataLoaderTimeoutError, match='timed out after 1 seconds'):
        for b in loader:
            got.append(b.asnumpy()[0, 0])
    assert time.monotonic() - start < 8
    assert got == [0, 2]
    import multiprocessing
    assert issubclass(DataLoaderTimeoutError, multiprocessing.TimeoutError)


@pytest.mark.parametrize('thread_pool', [False, True])
def test_raising_worker(thread_pool):
    loader = gdata.DataLoader(_Faulty('raise'), batch_size=2, num_workers=2,
                              thread_pool=thread_pool)
    with pytest.raises(IndexError, match='sample 5 is broken'):
        list(loader)


def test_stack_mismatch_is_clear():
    with pytest.raises(MXNetError, match='cannot stack samples of shapes'):
        list(gdata.DataLoader([mx.nd.ones((2,)), mx.nd.ones((3,))], batch_size=2))


def test_truncated_record_file(tmp_path):
    data = open(os.path.join(FX, 'data.rec'), 'rb').read()
    with open(str(tmp_path / 'cut.rec'), 'wb') as f:
        f.write(data[:len(data) - 6])
    with open(os.path.join(FX, 'data.idx')) as src, open(str(tmp_path / 'cut.idx'), 'w') as f:
        f.write(src.read())
    ds = gdata.RecordFileDataset(str(tmp_path / 'cut.rec'))
    assert ds[0] == gdata.RecordFileDataset(os.path.join(FX, 'data.rec'))[0]
    with pytest.raises(MXNetError, match='truncated'):
        list(gdata.DataLoader(ds, batch_size=2, batchify_fn=writer._identity, num_workers=1,
                              timeout=20))


def test_image_list_dataset_reads_mxnet_lst(tmp_path):
    """ImageListDataset over the .lst files MXNet's im2rec wrote (tests/fixtures/im2rec): the
    labels are the file's, the images mx.image.imread's (itself checked against MXNet)."""
    import base64
    import json
    with open(os.path.join(FIXTURES, 'im2rec', 'outputs.json')) as f:
        files = json.load(f)['list-chunks']['files']
    root = os.path.join(FIXTURES, 'im2rec', 'images')
    for name, blob in sorted(files.items()):
        lst = tmp_path / name
        lst.write_bytes(base64.b64decode(blob))
        rows = [line.split('\t') for line in lst.read_text().splitlines()]
        ds = gdata.vision.ImageListDataset(root, str(lst))
        assert len(ds) == len(rows)
        for i, row in enumerate(rows):
            img, label = ds[i]
            assert label.asnumpy().tolist() == [float(v) for v in row[1:-1]]
            np.testing.assert_array_equal(img.asnumpy(),
                                          mx.image.imread(os.path.join(root, row[-1])).asnumpy())
