"""gluon.utils: split_data / split_and_load / clip_global_norm against real MXNet 1.9.1
(tests/fixtures/gluon_trainer/utils.*), and download() against a local HTTP server."""
import hashlib
import http.server
import json
import os
import threading
import time
import warnings

import numpy as np
import pytest

import mxcompat as mx
from mxcompat.gluon import utils as gu
from scripts.fixture_writers import gluon_trainer as W

from conftest import FIXTURES

HERE = os.path.join(FIXTURES, 'gluon_trainer')
with np.load(os.path.join(HERE, 'utils.npz')) as _z:
    WANT = dict(_z)
with open(os.path.join(HERE, 'utils.json')) as _f:
    WANT_TEXT = json.load(_f)


@pytest.fixture(scope='module')
def got(request):
    old = os.environ.pop('MXNET_GLUON_REPO', None)
    try:
        return W.utils_scenarios(mx)
    finally:
        if old is not None:
            os.environ['MXNET_GLUON_REPO'] = old


@pytest.mark.parametrize('prefix', ['split/', 'sal/', 'clip/'])
def test_arrays_match_mxnet(got, prefix):
    out = got[0]
    want = [k for k in WANT if k.startswith(prefix)]
    assert sorted(k for k in out if k.startswith(prefix)) == sorted(want)
    for k in want:
        assert out[k].shape == WANT[k].shape, k
        assert out[k].dtype == WANT[k].dtype, k
        np.testing.assert_allclose(out[k], WANT[k], rtol=1e-6, atol=1e-7, err_msg=k)


def test_texts_match_mxnet(got):
    assert got[1] == WANT_TEXT


def test_split_data_returns_list():
    data = mx.nd.ones((4, 2))
    parts = gu.split_data(data, 1)
    assert isinstance(parts, list) and len(parts) == 1 and parts[0].shape == (4, 2)


def test_repo_url_env(monkeypatch):
    monkeypatch.setenv('MXNET_GLUON_REPO', 'http://127.0.0.1:9/repo')
    assert gu._get_repo_url() == 'http://127.0.0.1:9/repo/'
    assert gu._get_repo_file_url('ns', 'f.bin') == 'http://127.0.0.1:9/repo/ns/f.bin'


def test_check_sha1_and_replace_file(tmp_path):
    src = tmp_path / 'a'
    src.write_bytes(b'hello')
    assert gu.check_sha1(str(src), hashlib.sha1(b'hello').hexdigest())
    assert not gu.check_sha1(str(src), '0' * 40)
    dst = tmp_path / 'b'
    dst.write_bytes(b'old')
    gu.replace_file(str(src), str(dst))
    assert dst.read_bytes() == b'hello' and not src.exists()
    src.write_bytes(b'x')
    with pytest.raises(OSError, match='Please retry the download'):
        gu.replace_file(str(src), str(tmp_path / 'missing-dir' / 'c'))
    assert not src.exists()


# ------------------------------------------------------------------ download()
PAYLOAD = bytes(range(256)) * 300
SHA1 = hashlib.sha1(PAYLOAD).hexdigest()


class _Handler(http.server.BaseHTTPRequestHandler):
    counts = {}

    def log_message(self, *args):  # keep the test output clean
        pass

    def do_GET(self):
        n = self.counts[self.path] = self.counts.get(self.path, 0) + 1
        if self.path.startswith('/ok/'):
            return self._send(200, PAYLOAD)
        if self.path.startswith('/flaky/') and n > 2:  # two HTTP 500s, then the file
            return self._send(200, PAYLOAD)
        if self.path.startswith('/flaky/') or self.path.startswith('/err/'):
            return self._send(500, b'oops')
        if self.path.startswith('/drop/'):  # announces the file, sends a part, hangs up
            self.send_response(200)
            self.send_header('Content-Length', str(len(PAYLOAD)))
            self.end_headers()
            self.wfile.write(PAYLOAD[:1000])
            self.wfile.flush()
            self.close_connection = True
            return None
        if self.path.startswith('/trickle/'):  # one byte every 0.2 s (for at most 10 s)
            return self._slowly(0.2, 50)
        if self.path.startswith('/stall/'):  # a part, then nothing for 3 s
            return self._slowly(3.0, 2)
        if self.path.startswith('/close/'):  # no Content-Length; a part, then hangs up
            self.send_response(200)
            self.end_headers()
            self.wfile.write(PAYLOAD[:1000])
            self.close_connection = True
            return None
        if self.path.startswith('/chunked/') or self.path.startswith('/cut-chunked/'):
            self.send_response(200)
            self.send_header('Transfer-Encoding', 'chunked')
            self.end_headers()
            part = len(PAYLOAD) // 3
            for i in range(3 if self.path.startswith('/chunked/') else 2):
                data = PAYLOAD[i * part:(i + 1) * part if i < 2 else None]
                self.wfile.write(b'%x\r\n%s\r\n' % (len(data), data))
            if self.path.startswith('/chunked/'):
                self.wfile.write(b'0\r\n\r\n')
            self.close_connection = True
            return None
        return self._send(404, b'not found')

    def _slowly(self, pause, count):
        self.send_response(200)
        self.send_header('Content-Length', str(len(PAYLOAD)))
        self.end_headers()
        try:
            for i in range(count):
                self.wfile.write(PAYLOAD[i:i + 1])
                self.wfile.flush()
                time.sleep(pause)
        except OSError:  # the client gave up
            pass
        self.close_connection = True
        return None

    def _send(self, code, body):
        self.send_response(code)
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return None


@pytest.fixture
def server(monkeypatch):
    monkeypatch.setattr(gu, '_RETRY_BACKOFF_S', 0.01)
    _Handler.counts = {}
    httpd = http.server.ThreadingHTTPServer(('127.0.0.1', 0), _Handler)
    httpd.timeout = 5
    thread = threading.Thread(target=httpd.serve_forever, kwargs={'poll_interval': 0.05},
                              daemon=True)
    thread.start()
    try:
        yield 'http://127.0.0.1:%d' % httpd.server_address[1]
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


def _files(d):
    return sorted(os.listdir(str(d)))


def test_download_ok(server, tmp_path):
    fname = gu.download(server + '/ok/model.bin', path=str(tmp_path), sha1_hash=SHA1)
    assert fname == str(tmp_path / 'model.bin')
    assert open(fname, 'rb').read() == PAYLOAD
    assert _files(tmp_path) == ['model.bin']
    # present with the right hash: not downloaded again
    assert gu.download(server + '/ok/model.bin', path=str(tmp_path), sha1_hash=SHA1) == fname
    assert _Handler.counts['/ok/model.bin'] == 1
    # an explicit file name, in a directory that does not exist yet
    target = tmp_path / 'sub' / 'x.bin'
    assert gu.download(server + '/ok/model.bin', path=str(target)) == str(target)
    assert target.read_bytes() == PAYLOAD


def test_download_overwrites_bad_file(server, tmp_path):
    target = tmp_path / 'model.bin'
    target.write_bytes(b'stale')
    gu.download(server + '/ok/model.bin', path=str(target), sha1_hash=SHA1)
    assert target.read_bytes() == PAYLOAD
    target.write_bytes(b'stale')
    gu.download(server + '/ok/model.bin', path=str(target), overwrite=True)
    assert target.read_bytes() == PAYLOAD


def test_download_wrong_sha1(server, tmp_path):
    with pytest.raises(UserWarning, match='content hash does not match'):
        gu.download(server + '/ok/model.bin', path=str(tmp_path), sha1_hash='0' * 40,
                    retries=2)
    assert _Handler.counts['/ok/model.bin'] == 2
    assert _files(tmp_path) == []


def test_download_retries_after_http_500(server, tmp_path):
    fname = gu.download(server + '/flaky/model.bin', path=str(tmp_path), retries=3)
    assert open(fname, 'rb').read() == PAYLOAD
    assert _Handler.counts['/flaky/model.bin'] == 3
    assert _files(tmp_path) == ['model.bin']


def test_download_gives_up(server, tmp_path):
    with pytest.raises(RuntimeError, match='Failed downloading url .*/err/model.bin'):
        gu.download(server + '/err/model.bin', path=str(tmp_path), retries=3)
    assert _Handler.counts['/err/model.bin'] == 3
    with pytest.raises(RuntimeError, match='404'):
        gu.download(server + '/missing/model.bin', path=str(tmp_path), retries=0)
    assert _Handler.counts['/missing/model.bin'] == 1
    assert _files(tmp_path) == []


def test_download_dropped_connection(server, tmp_path):
    with pytest.raises(RuntimeError, match='Failed downloading url .*/drop/model.bin'):
        gu.download(server + '/drop/model.bin', path=str(tmp_path), retries=2)
    assert _Handler.counts['/drop/model.bin'] == 2
    assert _files(tmp_path) == []


def test_download_offline(tmp_path, monkeypatch):
    monkeypatch.setattr(gu, '_RETRY_BACKOFF_S', 0.01)
    import socket
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there
    url = 'http://127.0.0.1:%d/x/model.bin' % port
    with pytest.raises(RuntimeError, match='cannot connect') as err:
        gu.download(url, path=str(tmp_path), retries=2)
    assert url in str(err.value)
    assert _files(tmp_path) == []


def test_download_arguments(tmp_path):
    with pytest.raises(AssertionError, match='file-name'):
        gu.download('http://127.0.0.1:9/dir/')
    with pytest.raises(AssertionError, match='retries'):
        gu.download('http://127.0.0.1:9/a.bin', path=str(tmp_path), retries=-1)
    target = tmp_path / 'a.bin'
    target.write_bytes(b'here')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        assert gu.download('https://127.0.0.1:9/a.bin', path=str(tmp_path),
                           verify_ssl=False) == str(target)
    assert any('verify_ssl=False' in str(w.message) for w in caught)
    assert target.read_bytes() == b'here'


@pytest.mark.parametrize('kind, timeouts, problem', [
    ('trickle', ('1.0', '5'), 'exceeded the total timeout'),
    ('stall', ('20', '0.5'), r'no data for 0.5 s \(the read timeout'),
    ('close', ('20', '5'), 'neither Content-Length nor chunked encoding'),
    ('cut-chunked', ('20', '5'), 'the connection broke'),
])
def test_download_timeouts_and_cut_bodies(kind, timeouts, problem, server, tmp_path,
                                          monkeypatch):
    """A server that trickles, stalls or hangs up early gives a clear error within the
    timeouts and leaves no file behind."""
    monkeypatch.setenv('MXCOMPAT_DOWNLOAD_TIMEOUT', timeouts[0])
    monkeypatch.setenv('MXCOMPAT_DOWNLOAD_READ_TIMEOUT', timeouts[1])
    start = time.time()
    with pytest.raises(RuntimeError, match='Failed downloading url .*/%s/model.bin: .*%s'
                                           % (kind, problem)):
        gu.download(server + '/%s/model.bin' % kind, path=str(tmp_path), retries=1)
    assert time.time() - start < 3
    assert _files(tmp_path) == []


def test_download_chunked(server, tmp_path):
    fname = gu.download(server + '/chunked/model.bin', path=str(tmp_path))
    assert open(fname, 'rb').read() == PAYLOAD
    assert _files(tmp_path) == ['model.bin']


def test_download_bad_timeout_setting(tmp_path, monkeypatch):
    monkeypatch.setenv('MXCOMPAT_DOWNLOAD_TIMEOUT', 'soon')
    with pytest.raises(mx.base.MXNetError, match="MXCOMPAT_DOWNLOAD_TIMEOUT must be a positive"):
        gu.download('http://127.0.0.1:9/a.bin', path=str(tmp_path))


def test_download_in_memory_body(tmp_path, monkeypatch):
    """A response whose body is a plain file object (no Content-Length: it cannot be cut short)
    is kept, as in MXNet's own test_download_successful."""
    import io
    import requests

    def fake_get(*args, **kwargs):
        resp = requests.Response()
        resp.status_code = 200
        resp.raw = io.BytesIO(b'MOCK CONTENT' * 100)
        return resp
    monkeypatch.setattr(requests, 'get', fake_get)
    path = gu.download('https://example.invalid/README.md', path=str(tmp_path / 'r.md'))
    with open(path, 'rb') as f:
        assert f.read() == b'MOCK CONTENT' * 100
