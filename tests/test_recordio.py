"""mx.recordio against .rec/.idx files written by real MXNet 1.9.1
(tests/fixtures/recordio, made by scripts/fixture_writers/recordio.py)."""
import json
import os
import pickle
import shutil

import numpy as np
import pytest

from mxcompat import recordio
from mxcompat.base import MXNetError

from conftest import FIXTURES

FX = os.path.join(FIXTURES, 'recordio')
with open(os.path.join(FX, 'manifest.json')) as _f:
    MANIFEST = json.load(_f)
PAYLOADS = [bytes.fromhex(p) for p in MANIFEST['payloads']]


def _fx(name):
    return os.path.join(FX, name)


def _bytes(path):
    with open(path, 'rb') as f:
        return f.read()


def test_read_sequential():
    r = recordio.MXRecordIO(_fx('seq.rec'), 'r')
    for expected in PAYLOADS:
        assert r.read() == expected
    assert r.read() is None
    r.reset()
    assert r.read() == PAYLOADS[0]
    r.close()


def test_write_sequential_byte_identical(tmp_path):
    path = str(tmp_path / 'seq.rec')
    w = recordio.MXRecordIO(path, 'w')
    for p in PAYLOADS:
        w.write(p)
    w.close()
    assert _bytes(path) == _bytes(_fx('seq.rec'))


def test_read_indexed():
    r = recordio.MXIndexedRecordIO(_fx('indexed.idx'), _fx('indexed.rec'), 'r')
    assert r.keys == MANIFEST['keys']
    order = list(range(len(PAYLOADS)))
    np.random.RandomState(0).shuffle(order)
    for i in order:
        assert r.read_idx(MANIFEST['keys'][i]) == PAYLOADS[i]
    assert r.idx[MANIFEST['keys'][3]] == MANIFEST['tells'][3]
    with pytest.raises(KeyError):
        r.read_idx(-1)
    r.close()


def test_write_indexed_byte_identical(tmp_path):
    idx, rec = str(tmp_path / 'x.idx'), str(tmp_path / 'x.rec')
    w = recordio.MXIndexedRecordIO(idx, rec, 'w')
    tells = []
    for k, p in zip(MANIFEST['keys'], PAYLOADS):
        tells.append(w.tell())
        w.write_idx(k, p)
    w.close()
    assert tells == MANIFEST['tells']
    assert _bytes(rec) == _bytes(_fx('indexed.rec'))
    assert _bytes(idx) == _bytes(_fx('indexed.idx'))


def test_string_keys(tmp_path):
    r = recordio.MXIndexedRecordIO(_fx('strkeys.idx'), _fx('strkeys.rec'), 'r', key_type=str)
    assert r.keys == MANIFEST['str_keys']
    assert r.read_idx('rec-2') == PAYLOADS[5]
    idx, rec = str(tmp_path / 's.idx'), str(tmp_path / 's.rec')
    w = recordio.MXIndexedRecordIO(idx, rec, 'w', key_type=str)
    for k, p in zip(MANIFEST['str_keys'], PAYLOADS[3:8]):
        w.write_idx(k, p)
    w.close()
    assert _bytes(idx) == _bytes(_fx('strkeys.idx'))
    assert _bytes(rec) == _bytes(_fx('strkeys.rec'))


@pytest.mark.parametrize('case', range(len(MANIFEST['packs'])))
def test_pack_unpack(case):
    c = MANIFEST['packs'][case]
    flag, label, id1, id2 = c['header']
    body = bytes.fromhex(c['body'])
    s = recordio.pack(recordio.IRHeader(flag, label, id1, id2), body)
    assert s.hex() == c['packed']
    header, rest = recordio.unpack(bytes.fromhex(c['packed']))
    eflag, elabel, eid, eid2 = c['unpacked']
    assert (header.flag, header.id, header.id2) == (eflag, eid, eid2)
    np.testing.assert_array_equal(np.asarray(header.label, dtype=np.float64), elabel)
    if eflag > 0:
        assert header.label.dtype == np.float32
    assert rest.hex() == c['unpacked_body']


def test_unpack_img():
    images = np.load(_fx('images.npz'))
    r = recordio.MXIndexedRecordIO(_fx('image.idx'), _fx('image.rec'), 'r')
    for i in range(3):
        header, img = recordio.unpack_img(r.read_idx(i), 1)
        np.testing.assert_array_equal(img, images['img%d' % i])
        if i == 2:
            np.testing.assert_array_equal(header.label, [2, 2.5])
        else:
            assert header.label == i
    r.close()


def test_pack_img_roundtrip_png(tmp_path):
    images = np.load(_fx('images.npz'))
    img = images['img1']
    s = recordio.pack_img(recordio.IRHeader(0, 3.0, 1, 0), img, quality=3, img_fmt='.png')
    header, out = recordio.unpack_img(s)
    assert header.label == 3.0
    np.testing.assert_array_equal(out, img)


@pytest.mark.parametrize('case', range(len(MANIFEST['truncated'])))
def test_truncated_file(tmp_path, case):
    c = MANIFEST['truncated'][case]
    path = str(tmp_path / 't.rec')
    with open(path, 'wb') as f:
        f.write(_bytes(_fx('seq.rec'))[:c['cut']])
    r = recordio.MXRecordIO(path, 'r')
    got = []
    err = None
    try:
        while True:
            s = r.read()
            if s is None:
                break
            got.append(s)
    except MXNetError as e:
        err = str(e)
    assert got == PAYLOADS[:c['n_read']]
    if c['error'] is not None:
        assert err is not None and 'Invalid RecordIO file' in err and 'truncated' in err
    else:
        assert err is None


def test_corrupt_record(tmp_path):
    c = MANIFEST['corrupt']
    data = bytearray(_bytes(_fx('seq.rec')))
    data[c['offset']:c['offset'] + 4] = b'JUNK'
    path = str(tmp_path / 'c.rec')
    with open(path, 'wb') as f:
        f.write(bytes(data))
    r = recordio.MXRecordIO(path, 'r')
    for i in range(c['n_read']):
        assert r.read() == PAYLOADS[i]
    with pytest.raises(MXNetError, match='Invalid RecordIO file'):
        r.read()


def test_bad_magic_and_bad_index_offset(tmp_path):
    path = str(tmp_path / 'g.rec')
    with open(path, 'wb') as f:
        f.write(b'garbage!garbage!')
    with pytest.raises(MXNetError, match='bad magic'):
        recordio.MXRecordIO(path, 'r').read()
    shutil.copy(_fx('indexed.rec'), str(tmp_path / 'i.rec'))
    size = os.path.getsize(str(tmp_path / 'i.rec'))
    for line in ('1\t2', '1\t-8', '1\t%d' % (size + 4)):  # unaligned, negative, past the end
        with open(str(tmp_path / 'i.idx'), 'w') as f:
            f.write('0\t0\n%s\n' % line)
        with pytest.raises(MXNetError, match="i.idx' gives key 1 the offset .* not the start "
                                             "of a record in .*i.rec' "):
            recordio.MXIndexedRecordIO(str(tmp_path / 'i.idx'), str(tmp_path / 'i.rec'), 'r')
    with open(str(tmp_path / 'i.idx'), 'w') as f:
        f.write('0\t%d\n' % size)
    r = recordio.MXIndexedRecordIO(str(tmp_path / 'i.idx'), str(tmp_path / 'i.rec'), 'r')
    assert r.read_idx(0) is None  # at the end: MXNet returns None too
    with open(str(tmp_path / 'i.idx'), 'wb') as f:
        f.write(b'0\t0\n\xff\t4\n')
    with pytest.raises(MXNetError, match='not UTF-8'):
        recordio.MXIndexedRecordIO(str(tmp_path / 'i.idx'), str(tmp_path / 'i.rec'), 'r')


def test_errors(tmp_path):
    with pytest.raises(MXNetError, match='No such file'):
        recordio.MXRecordIO(str(tmp_path / 'missing.rec'), 'r')
    with pytest.raises(ValueError, match='Invalid flag'):
        recordio.MXRecordIO(str(tmp_path / 'x.rec'), 'x')
    with pytest.raises(MXNetError, match='cannot open'):
        recordio.MXRecordIO(str(tmp_path / 'nodir' / 'x.rec'), 'w')
    w = recordio.MXRecordIO(str(tmp_path / 'x.rec'), 'w')
    with pytest.raises(TypeError):
        w.write('a str')
    w.close()
    r = recordio.MXRecordIO(str(tmp_path / 'x.rec'), 'r')
    with pytest.raises(AssertionError):
        r.write(b'x')
    with open(str(tmp_path / 'bad.idx'), 'w') as f:
        f.write('0\t0\nnot-a-line\n')
    with pytest.raises(MXNetError, match='malformed line 2'):
        recordio.MXIndexedRecordIO(str(tmp_path / 'bad.idx'), str(tmp_path / 'x.rec'), 'r')

    class Huge(bytes):
        def __len__(self):
            return 1 << 29
    with pytest.raises(MXNetError, match='2\\^29'):
        recordio._encode_record(Huge())


def test_no_partial_file_until_close(tmp_path):
    path = str(tmp_path / 'w.rec')
    w = recordio.MXIndexedRecordIO(str(tmp_path / 'w.idx'), path, 'w')
    w.write_idx(0, PAYLOADS[3])
    assert not os.path.exists(path)  # a crash now leaves no truncated file
    with pytest.raises(TypeError):
        w.write_idx(1, 'not bytes')
    w.write_idx(1, PAYLOADS[4])
    del w  # MXNet closes on garbage collection
    r = recordio.MXIndexedRecordIO(str(tmp_path / 'w.idx'), path, 'r')
    assert [r.read_idx(k) for k in r.keys] == PAYLOADS[3:5]
    assert not [n for n in os.listdir(str(tmp_path)) if n.endswith('.tmp')]


def test_pickle_reopens(tmp_path):
    r = recordio.MXIndexedRecordIO(_fx('indexed.idx'), _fx('indexed.rec'), 'r')
    r2 = pickle.loads(pickle.dumps(r))
    assert r2.read_idx(MANIFEST['keys'][5]) == PAYLOADS[5]
    assert r.read_idx(MANIFEST['keys'][6]) == PAYLOADS[6]


def test_forked_child_does_not_commit_parent_writer(tmp_path):
    path = str(tmp_path / 'f.rec')
    w = recordio.MXIndexedRecordIO(str(tmp_path / 'f.idx'), path, 'w')
    w.write_idx(0, PAYLOADS[3])
    pid = os.fork()
    if pid == 0:  # the child closes its copy (as atexit or __del__ would) and exits
        w.close()
        os._exit(0 if not os.path.exists(path) else 1)
    _, status = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(status) == 0
    w.write_idx(1, PAYLOADS[4])
    w.close()
    r = recordio.MXIndexedRecordIO(str(tmp_path / 'f.idx'), path, 'r')
    assert [r.read_idx(k) for k in r.keys] == PAYLOADS[3:5]
