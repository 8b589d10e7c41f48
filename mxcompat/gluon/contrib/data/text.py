"""Text datasets: the WikiText language-modelling corpora."""
import os
import shutil
import zipfile

import numpy as np

from ...data import dataset
from ...utils import download, check_sha1, _get_repo_file_url
from ....contrib import text
from .... import nd, base
from ....utils import fileio

__all__ = ['WikiText2', 'WikiText103']

EOS_TOKEN = '<eos>'


class _LanguageModelDataset(dataset._DownloadedDataset):  # pylint: disable=abstract-method
    """A downloaded corpus with a vocabulary (built from the corpus' token counts, with
    '<eos>' reserved, unless one is given)."""
    def __init__(self, root, namespace, vocabulary):
        self._vocab = vocabulary
        self._counter = None
        self._namespace = namespace
        super(_LanguageModelDataset, self).__init__(root, None)

    @property
    def vocabulary(self):
        """:class:`~mxnet.contrib.text.vocab.Vocabulary`: the vocabulary indexing the corpus."""
        return self._vocab

    @property
    def frequencies(self):
        """collections.Counter or None: the token counts of the corpus (None when a vocabulary
        was given)."""
        return self._counter

    def _build_vocab(self, content):
        if not self._counter:
            self._counter = text.utils.count_tokens_from_str(content)
        if not self._vocab:
            self._vocab = text.vocab.Vocabulary(counter=self.frequencies,
                                                reserved_tokens=[EOS_TOKEN])


class _WikiText(_LanguageModelDataset):
    """WikiText: every non-empty line's tokens and '<eos>' in one stream; sample i is the
    i-th run of `seq_len` token indices, its label the same run shifted by one token. A
    subclass names its archive and the (file name, SHA-1) of each segment."""
    _archive_file = None  # (file name, SHA-1)
    _data_file = None  # {segment: (file name, SHA-1)}

    def __init__(self, root, namespace, segment, vocab, seq_len):
        if segment not in self._data_file:
            raise KeyError('segment %r of %s: use one of %s'
                           % (segment, type(self).__name__, ', '.join(self._data_file)))
        self._segment = segment
        self._seq_len = seq_len
        super(_WikiText, self).__init__(root, namespace, vocab)

    def _read_batch(self, filename):
        with open(filename, 'r', encoding='utf8') as fin:
            content = fin.read()
        self._build_vocab(content)
        tokens = []
        for line in content.splitlines():
            words = line.split()
            if words:
                tokens.extend(words)
                tokens.append(EOS_TOKEN)
        indices = self.vocabulary.to_indices(tokens)
        return (np.array(indices[:-1], dtype=np.int32),
                np.array(indices[1:], dtype=np.int32))

    def _get_data(self):
        archive_file_name, archive_hash = self._archive_file
        data_file_name, data_hash = self._data_file[self._segment]
        path = os.path.join(self._root, data_file_name)
        # as in MXNet: a file whose SHA-1 differs from the published one is fetched again
        if not os.path.exists(path) or not check_sha1(path, data_hash):
            archive = download(_get_repo_file_url('gluon/dataset/' + self._namespace,
                                                  archive_file_name),
                               path=self._root, sha1_hash=archive_hash)
            with zipfile.ZipFile(archive, 'r') as zf:
                for member in zf.namelist():
                    name = os.path.basename(member)
                    if name:  # every file of the archive lands in root itself
                        with zf.open(member) as source, \
                                fileio.atomic_writer(os.path.join(self._root, name)) as target:
                            shutil.copyfileobj(source, target)
        data, label = self._read_batch(path)
        # whole sequences only: the tail shorter than seq_len is dropped
        usable = len(data) // self._seq_len * self._seq_len
        self._data = nd.array(data[:usable].reshape(-1, self._seq_len), dtype=data.dtype)
        self._label = nd.array(label[:usable].reshape(-1, self._seq_len), dtype=label.dtype)

    def __getitem__(self, idx):
        return self._data[idx], self._label[idx]

    def __len__(self):
        return len(self._label)


class WikiText2(_WikiText):
    """WikiText-2 word-level dataset for language modeling, from Salesforce research.

    From
    https://blog.einstein.ai/the-wikitext-long-term-dependency-language-modeling-dataset/

    License: Creative Commons Attribution-ShareAlike

    Each sample is a vector of length equal to the specified sequence length.
    At the end of each sentence, an end-of-sentence token '<eos>' is added.

    The segment's file (``wiki.train.tokens``, ``wiki.valid.tokens`` or ``wiki.test.tokens``)
    is read from `root`; when it is missing or its SHA-1 differs from the published file's,
    ``wikitext-2-v1.zip`` is downloaded into `root` and unpacked there.

    Parameters
    ----------
    root : str, default $MXNET_HOME/datasets/wikitext-2
        Path to temp folder for storing data.
    segment : str, default 'train'
        Dataset segment. Options are 'train', 'validation', 'test'.
    vocab : :class:`~mxnet.contrib.text.vocab.Vocabulary`, default None
        The vocabulary to use for indexing the text dataset.
        If None, a default vocabulary is created.
    seq_len : int, default 35
        The sequence length of each sample, regardless of the sentence boundary.
    """
    _archive_file = ('wikitext-2-v1.zip', '3c914d17d80b1459be871a5039ac23e752a53cbe')
    _data_file = {'train': ('wiki.train.tokens', '863f29c46ef9d167fff4940ec821195882fe29d1'),
                  'validation': ('wiki.valid.tokens', '0418625c8b4da6e4b5c7a0b9e78d4ae8f7ee5422'),
                  'test': ('wiki.test.tokens', 'c7b8ce0aa086fb34dab808c5c49224211eb2b172')}

    def __init__(self, root=os.path.join(base.data_dir(), 'datasets', 'wikitext-2'),
                 segment='train', vocab=None, seq_len=35):
        super(WikiText2, self).__init__(root, 'wikitext-2', segment, vocab, seq_len)


class WikiText103(_WikiText):
    """WikiText-103 word-level dataset for language modeling, from Salesforce research.

    From
    https://blog.einstein.ai/the-wikitext-long-term-dependency-language-modeling-dataset/

    License: Creative Commons Attribution-ShareAlike

    Each sample is a vector of length equal to the specified sequence length.
    At the end of each sentence, an end-of-sentence token '<eos>' is added.

    The segment's file is read from `root`; when it is missing or its SHA-1 differs from the
    published file's, ``wikitext-103-v1.zip`` is downloaded into `root` and unpacked there.

    Parameters
    ----------
    root : str, default $MXNET_HOME/datasets/wikitext-103
        Path to temp folder for storing data.
    segment : str, default 'train'
        Dataset segment. Options are 'train', 'validation', 'test'.
    vocab : :class:`~mxnet.contrib.text.vocab.Vocabulary`, default None
        The vocabulary to use for indexing the text dataset.
        If None, a default vocabulary is created.
    seq_len : int, default 35
        The sequence length of each sample, regardless of the sentence boundary.
    """
    _archive_file = ('wikitext-103-v1.zip', '0aec09a7537b58d4bb65362fee27650eeaba625a')
    _data_file = {'train': ('wiki.train.tokens', 'b7497e2dfe77e72cfef5e3dbc61b7b53712ac211'),
                  'validation': ('wiki.valid.tokens', 'c326ac59dc587676d58c422eb8a03e119582f92b'),
                  'test': ('wiki.test.tokens', '8a5befc548865cec54ed4273cf87dbbad60d1e47')}

    def __init__(self, root=os.path.join(base.data_dir(), 'datasets', 'wikitext-103'),
                 segment='train', vocab=None, seq_len=35):
        super(WikiText103, self).__init__(root, 'wikitext-103', segment, vocab, seq_len)
