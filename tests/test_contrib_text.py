"""mx.contrib.text, mx.gluon.contrib.data.text and mx.contrib.io.DataLoaderIter against real
MXNet 1.9.1: vocabularies, token embeddings from generated local files, WikiText2 from
generated files, DataLoaderIter batches (expected values written by
scripts/fixture_writers/contrib_text.py under real MXNet); and the errors for files that are
missing or differ from the published ones when no download is possible."""
import json
import os

import numpy as np
import pytest

import mxcompat as mx
from mxcompat.base import MXNetError
from scripts.fixture_writers import contrib_text

from conftest import FIXTURES

WANT_ARRAYS = dict(np.load(os.path.join(FIXTURES, 'contrib_text', 'contrib_text.npz')))
with open(os.path.join(FIXTURES, 'contrib_text', 'contrib_text.json')) as _f:
    WANT = json.load(_f)
_GOT = []


def _results(tmp_path_factory):
    if not _GOT:
        with pytest.warns(UserWarning):  # the header and the duplicate of the embedding file
            _GOT.append(contrib_text.run(mx, str(tmp_path_factory.mktemp('contrib_text'))))
    return _GOT[0]


@pytest.mark.parametrize('key', sorted(WANT))
def test_values(key, tmp_path_factory):
    got = _results(tmp_path_factory)[1]
    assert got[key] == WANT[key], key


@pytest.mark.parametrize('key', sorted(WANT_ARRAYS))
def test_arrays(key, tmp_path_factory):
    got = _results(tmp_path_factory)[0][key]
    want = WANT_ARRAYS[key]
    assert got.shape == want.shape and got.dtype == want.dtype, key
    np.testing.assert_array_equal(got, want, err_msg=key)


def test_bad_vocabulary_arguments():
    import collections
    counter = collections.Counter(['a', 'b', 'b'])
    vocab = mx.contrib.text.vocab
    for kwargs in ({'min_freq': 0}, {'reserved_tokens': ['<unk>']},
                   {'reserved_tokens': ['x', 'x']}):
        with pytest.raises(AssertionError) as err:
            vocab.Vocabulary(counter, **kwargs)
        assert isinstance(err.value, MXNetError)
    with pytest.raises(AssertionError, match='collections.Counter'):
        vocab.Vocabulary({'a': 1})
    with pytest.raises(ValueError, match='indices'):
        vocab.Vocabulary(counter).to_tokens(3)


def test_bad_embedding_files(tmp_path):
    text = mx.contrib.text
    with pytest.raises(ValueError, match='not a file'):
        text.embedding.CustomEmbedding(str(tmp_path / 'missing.txt'))
    ragged = tmp_path / 'ragged.txt'
    ragged.write_text('a 1 2\nb 1 2 3\n')
    with pytest.raises(AssertionError, match='dimension of token b is 3'):
        text.embedding.CustomEmbedding(str(ragged))
    bare = tmp_path / 'bare.txt'
    bare.write_text('a 1 2\nlonely\n')
    with pytest.raises(AssertionError, match='line 2'):
        text.embedding.CustomEmbedding(str(bare))
    good = tmp_path / 'good.txt'
    good.write_text('a 1 2\n')
    emb = text.embedding.CustomEmbedding(str(good))
    with pytest.raises(ValueError, match='unknown'):
        emb.update_token_vectors('zzz', mx.nd.array([0, 0]))
    with pytest.raises(AssertionError, match='expected shape'):
        emb.update_token_vectors('a', mx.nd.array([0, 0, 0]))
    with pytest.raises(KeyError, match='glove.6B.50d.txt'):
        text.embedding.GloVe('nonexistent.txt')
    with pytest.raises(KeyError, match='get_pretrained_file_names'):
        text.embedding.get_pretrained_file_names('nope')
    with pytest.raises(AssertionError, match='not registered'):
        text.embedding.create('nope')


def _offline(monkeypatch):
    # an address that refuses connections, and no retries: the download fails at once
    monkeypatch.setenv('MXNET_GLUON_REPO', 'http://127.0.0.1:9/')
    monkeypatch.setenv('MXCOMPAT_DOWNLOAD_TIMEOUT', '0.01')


def test_glove_file_that_differs_is_downloaded(tmp_path, monkeypatch):
    """As in MXNet, a pre-trained file whose SHA-1 differs from the published one is fetched
    again (its archive): without a network that fails, naming the URL and the place."""
    _offline(monkeypatch)
    glove = tmp_path / 'glove'
    glove.mkdir()
    (glove / 'glove.6B.50d.txt').write_text('the 1 2\n')
    with pytest.raises(RuntimeError, match=r'glove\.6B\.zip.*download the file by hand'):
        mx.contrib.text.embedding.GloVe('glove.6B.50d.txt', embedding_root=str(tmp_path))


def test_wikitext_file_that_differs_is_downloaded(tmp_path, monkeypatch):
    """As in MXNet, WikiText2 downloads wikitext-2-v1.zip when a segment's file is missing
    or its SHA-1 differs from the published one."""
    _offline(monkeypatch)
    (tmp_path / 'wiki.train.tokens').write_text('a b c\n')
    with pytest.raises(RuntimeError, match=r'wikitext-2/wikitext-2-v1\.zip'):
        mx.gluon.contrib.data.text.WikiText2(str(tmp_path), 'train')
