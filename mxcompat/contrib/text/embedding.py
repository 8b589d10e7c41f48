"""Text token embeddings: vectors for the tokens of a vocabulary, read from pre-trained files
(GloVe and fastText files downloaded as MXNet downloads them, or a custom local file)."""
import logging
import os
import tarfile
import warnings
import zipfile

import numpy as np

from . import _constants as C
from . import vocab
from ... import ndarray as nd
from ... import registry
from ... import base
from ...base import MXNetAssertionError, MXNetValueError

__all__ = ['register', 'create', 'get_pretrained_file_names', 'GloVe', 'FastText',
           'CustomEmbedding', 'CompositeEmbedding']


def register(embedding_cls):
    """Registers a new token embedding.

    Once an embedding is registered, we can create an instance of this embedding with
    :func:`~mxnet.contrib.text.embedding.create`.

    Examples
    --------
    >>> @mxnet.contrib.text.embedding.register
    ... class MyTextEmbed(mxnet.contrib.text.embedding._TokenEmbedding):
    ...     def __init__(self, pretrained_file_name='my_pretrain_file'):
    ...         pass
    >>> embed = mxnet.contrib.text.embedding.create('MyTextEmbed')
    >>> print(type(embed))
    <class '__main__.MyTextEmbed'>
    """
    return registry.get_register_func(_TokenEmbedding, 'token embedding')(embedding_cls)


def create(embedding_name, **kwargs):
    """Creates an instance of token embedding.

    Creates a token embedding instance by loading embedding vectors from an externally hosted
    pre-trained token embedding file, such as those of GloVe and FastText. To get all the valid
    `embedding_name` and `pretrained_file_name`, use
    `mxnet.contrib.text.embedding.get_pretrained_file_names()`.

    Parameters
    ----------
    embedding_name : str
        The token embedding name (case-insensitive).

    Returns
    -------
    An instance of `mxnet.contrib.text.embedding._TokenEmbedding`:
        A token embedding instance that loads embedding vectors from an externally hosted
        pre-trained token embedding file.
    """
    return registry.get_create_func(_TokenEmbedding, 'token embedding')(embedding_name,
                                                                        **kwargs)


def get_pretrained_file_names(embedding_name=None):
    """Get valid token embedding names and their pre-trained file names.

    To load token embedding vectors from an externally hosted pre-trained token embedding file,
    such as those of GloVe and FastText, one should use
    `mxnet.contrib.text.embedding.create(embedding_name, pretrained_file_name)`.
    This method returns all the valid names of `pretrained_file_name` for the specified
    `embedding_name`. If `embedding_name` is set to None, this method returns all the valid
    names of `embedding_name` with their associated `pretrained_file_name`.

    Parameters
    ----------
    embedding_name : str or None, default None
        The pre-trained token embedding name.

    Returns
    -------
    dict or list:
        A list of all the valid pre-trained token embedding file names (`pretrained_file_name`)
        for the specified token embedding name (`embedding_name`). If the text embedding name is
        set to None, returns a dict mapping each valid token embedding name to a list of valid
        pre-trained files (`pretrained_file_name`).
    """
    table = registry.get_registry(_TokenEmbedding)
    if embedding_name is None:
        return {name: list(cls.pretrained_file_name_sha1) for name, cls in table.items()}
    if embedding_name not in table:
        raise KeyError('Cannot find `embedding_name` %s. Use `get_pretrained_file_names('
                       'embedding_name=None).keys()` to get all the valid embedding names.'
                       % embedding_name)
    return list(table[embedding_name].pretrained_file_name_sha1)


def _extract(archive, directory):
    """Unpack a downloaded .zip or .gz (tar) archive into ``directory``; other files are
    used as they are. Members are kept inside ``directory``."""
    ext = os.path.splitext(archive)[1]
    if ext == '.zip':
        with zipfile.ZipFile(archive, 'r') as zf:
            zf.extractall(directory)
    elif ext == '.gz':
        with tarfile.open(archive, 'r:gz') as tar:
            tar.extractall(path=directory, filter='data')


class _TokenEmbedding(vocab.Vocabulary):
    """Token embedding base class.

    To load token embeddings from an externally hosted pre-trained token embedding file, such as
    those of GloVe and FastText, use
    :func:`~mxnet.contrib.text.embedding.create(embedding_name, pretrained_file_name)`.
    To get all the available `embedding_name` and `pretrained_file_name`, use
    :func:`~mxnet.contrib.text.embedding.get_pretrained_file_names()`.

    Alternatively, to load embedding vectors from a custom pre-trained token embedding file, use
    :class:`~mxnet.contrib.text.embedding.CustomEmbedding`.

    Moreover, to load composite embedding vectors, such as to concatenate embedding vectors, use
    :class:`~mxnet.contrib.text.embedding.CompositeEmbedding`.

    For every unknown token, if its representation `self.unknown_token` is encountered in the
    pre-trained token embedding file, index 0 of `self.idx_to_vec` maps to the pre-trained token
    embedding vector loaded from the file; otherwise, index 0 of `self.idx_to_vec` maps to the
    token embedding vector initialized by `init_unknown_vec`.

    If a token is encountered multiple times in the pre-trained token embedding file, only the
    first-encountered token embedding vector will be loaded and the rest will be skipped.

    The indexed tokens in a text token embedding may come from a vocabulary or from the loaded
    embedding vectors. In the former case, only the indexed tokens in a vocabulary are associated
    with the loaded embedding vectors, such as loaded from a pre-trained token embedding file. In
    the later case, all the tokens from the loaded embedding vectors, such as loaded from a
    pre-trained token embedding file, are taken as the indexed tokens of the embedding.

    Attributes
    ----------
    token_to_idx : dict mapping str to int
        A dict mapping each token to its index integer.
    idx_to_token : list of strs
        A list of indexed tokens where the list indices and the token indices are aligned.
    unknown_token : hashable object
        The representation for any unknown token. In other words, any unknown token will be indexed
        as the same representation.
    reserved_tokens : list of strs or None
        A list of reserved tokens that will always be indexed.
    vec_len : int
        The length of the embedding vector for each token.
    idx_to_vec : mxnet.ndarray.NDArray
        For all the indexed tokens in this embedding, this NDArray maps each token's index to an
        embedding vector.
    """

    @classmethod
    def _get_download_file_name(cls, pretrained_file_name):
        return pretrained_file_name

    @classmethod
    def _get_pretrained_file_url(cls, pretrained_file_name):
        repo_url = os.environ.get('MXNET_GLUON_REPO', C.APACHE_REPO_URL)
        return '{}gluon/embeddings/{}/{}'.format(
            repo_url, cls.__name__.lower(), cls._get_download_file_name(pretrained_file_name))

    @classmethod
    def _get_pretrained_file(cls, embedding_root, pretrained_file_name):
        """The path of ``pretrained_file_name`` under ``embedding_root``/<class name>; when the
        file is missing or its SHA-1 differs, its archive (or the file) is downloaded, checked
        and unpacked there first."""
        from ...gluon.utils import check_sha1, download
        url = cls._get_pretrained_file_url(pretrained_file_name)
        embedding_dir = os.path.join(os.path.expanduser(embedding_root), cls.__name__.lower())
        path = os.path.join(embedding_dir, pretrained_file_name)
        file_hash = cls.pretrained_file_name_sha1[pretrained_file_name]
        if not os.path.exists(path) or not check_sha1(path, file_hash):
            downloaded = os.path.basename(url)
            archive_hashes = getattr(cls, 'pretrained_archive_name_sha1', None)
            archive_hash = archive_hashes[downloaded] if archive_hashes is not None \
                else file_hash
            archive = os.path.join(embedding_dir, downloaded)
            download(url, archive, sha1_hash=archive_hash)
            _extract(archive, embedding_dir)
        return path

    def _load_embedding(self, pretrained_file_path, elem_delim, init_unknown_vec, encoding='utf8'):
        """Load embedding vectors from the pre-trained token embedding file.

        For every unknown token, if its representation `self.unknown_token` is encountered in the
        pre-trained token embedding file, index 0 of `self.idx_to_vec` maps to the pre-trained token
        embedding vector loaded from the file; otherwise, index 0 of `self.idx_to_vec` maps to the
        text embedding vector initialized by `init_unknown_vec`.

        If a token is encountered multiple times in the pre-trained text embedding file, only the
        first-encountered token embedding vector will be loaded and the rest will be skipped.
        """
        path = os.path.expanduser(pretrained_file_path)
        if not os.path.isfile(path):
            raise MXNetValueError('`pretrained_file_path` must be a valid path to the pre-trained '
                                  'token embedding file: %r is not a file' % (path,))
        logging.info('Loading pre-trained token embedding vectors from %s', path)
        unknown = self.unknown_token
        vec_len = None
        rows = []  # the vectors of the tokens appended to the index, after row 0 (unknown)
        seen = set()
        unknown_vec = None
        with open(path, 'r', encoding=encoding) as f:
            for line_num, line in enumerate(f, 1):
                elems = line.rstrip().split(elem_delim)
                if len(elems) <= 1:
                    raise MXNetAssertionError(
                        'At line %d of the pre-trained text embedding file: the data format of '
                        'the pre-trained token embedding file %s is unexpected (a token and '
                        'its vector elements separated by elem_delim=%r)'
                        % (line_num, path, elem_delim))
                token, vec = elems[0], [float(x) for x in elems[1:]]
                if token == unknown and unknown_vec is None:
                    unknown_vec = vec
                    seen.add(unknown)
                elif token in seen:
                    warnings.warn('At line %d of the pre-trained token embedding file: the '
                                  'embedding vector for token %s has been loaded and a duplicate '
                                  'embedding for the  same token is seen and skipped.'
                                  % (line_num, token))
                elif len(vec) == 1:
                    warnings.warn('At line %d of the pre-trained text embedding file: token %s '
                                  'with 1-dimensional vector %s is likely a header and is '
                                  'skipped.' % (line_num, token, vec))
                else:
                    if vec_len is None:
                        vec_len = len(vec)
                    elif len(vec) != vec_len:
                        raise MXNetAssertionError(
                            'At line %d of the pre-trained token embedding file: the dimension '
                            'of token %s is %d but the dimension of previous tokens is %d. '
                            'Dimensions of all the tokens must be the same.'
                            % (line_num, token, len(vec), vec_len))
                    rows.append(vec)
                    self._token_to_idx[token] = len(self._idx_to_token)
                    self._idx_to_token.append(token)
                    seen.add(token)
        if vec_len is None:
            raise MXNetValueError('The pre-trained token embedding file %s holds no embedding '
                                  'vector of two or more elements' % path)
        vecs = np.zeros((len(rows) + 1, vec_len), dtype=np.float32)
        vecs[1:] = rows
        self._vec_len = vec_len
        self._idx_to_vec = nd.array(vecs)
        if unknown_vec is None:
            self._idx_to_vec[C.UNKNOWN_IDX] = init_unknown_vec(shape=vec_len)
        else:
            if len(unknown_vec) != vec_len:
                raise MXNetAssertionError('The vector of the unknown token %s in %s has %d '
                                          'elements, the other vectors %d'
                                          % (unknown, path, len(unknown_vec), vec_len))
            self._idx_to_vec[C.UNKNOWN_IDX] = nd.array(unknown_vec)

    def _index_tokens_from_vocabulary(self, vocabulary):
        self._token_to_idx = vocabulary.token_to_idx.copy() \
            if vocabulary.token_to_idx is not None else None
        self._idx_to_token = vocabulary.idx_to_token[:] \
            if vocabulary.idx_to_token is not None else None
        self._unknown_token = vocabulary.unknown_token
        self._reserved_tokens = vocabulary.reserved_tokens[:] \
            if vocabulary.reserved_tokens is not None else None

    def _set_idx_to_vec_by_embeddings(self, token_embeddings, vocab_len, vocab_idx_to_token):
        """Sets the mapping between token indices and token embedding vectors.

        Parameters
        ----------
        token_embeddings : instance or list `mxnet.contrib.text.embedding._TokenEmbedding`
            One or multiple pre-trained token embeddings to load. If it is a list of multiple
            embeddings, these embedding vectors will be concatenated for each token.
        vocab_len : int
            Length of vocabulary whose tokens are indexed in the token embedding.
        vocab_idx_to_token: list of str
            A list of indexed tokens in the vocabulary. These tokens are indexed in the token
            embedding.
        """
        parts = []
        for embed in token_embeddings:
            # row 0: the embedding's own unknown vector; the other tokens are looked up
            idx = [C.UNKNOWN_IDX] + [embed.token_to_idx.get(t, C.UNKNOWN_IDX)
                                     for t in vocab_idx_to_token[1:vocab_len]]
            parts.append(embed.idx_to_vec.asnumpy()[idx])
        self._vec_len = sum(embed.vec_len for embed in token_embeddings)
        self._idx_to_vec = nd.array(np.concatenate(parts, axis=1))

    def _build_embedding_for_vocabulary(self, vocabulary):
        if vocabulary is not None:
            if not isinstance(vocabulary, vocab.Vocabulary):
                raise MXNetAssertionError('The argument `vocabulary` must be an instance of '
                                          'mxnet.contrib.text.vocab.Vocabulary, not %s'
                                          % type(vocabulary).__name__)
            self._set_idx_to_vec_by_embeddings([self], len(vocabulary), vocabulary.idx_to_token)
            self._index_tokens_from_vocabulary(vocabulary)

    @property
    def vec_len(self):
        """int: the length of the embedding vector of each token."""
        return self._vec_len

    @property
    def idx_to_vec(self):
        """NDArray of shape (number of tokens, vec_len): the vector of each token index."""
        return self._idx_to_vec

    def get_vecs_by_tokens(self, tokens, lower_case_backup=False):
        """Look up embedding vectors of tokens.

        Parameters
        ----------
        tokens : str or list of strs
            A token or a list of tokens.
        lower_case_backup : bool, default False
            If False, each token in the original case will be looked up; if True, each token in the
            original case will be looked up first, if not found in the keys of the property
            `token_to_idx`, the token in the lower case will be looked up.

        Returns
        -------
        mxnet.ndarray.NDArray:
            The embedding vector(s) of the token(s). According to numpy conventions, if `tokens` is
            a string, returns a 1-D NDArray of shape `self.vec_len`; if `tokens` is a list of
            strings, returns a 2-D NDArray of shape=(len(tokens), self.vec_len).
        """
        single = not isinstance(tokens, list)
        if single:
            tokens = [tokens]
        lookup = self.token_to_idx.get
        if lower_case_backup:
            indices = [lookup(t, lookup(t.lower(), C.UNKNOWN_IDX)) for t in tokens]
        else:
            indices = [lookup(t, C.UNKNOWN_IDX) for t in tokens]
        table = self.idx_to_vec
        vecs = nd.Embedding(nd.array(indices), table, table.shape[0], table.shape[1])
        return vecs[0] if single else vecs

    def update_token_vectors(self, tokens, new_vectors):
        """Updates embedding vectors for tokens.

        Parameters
        ----------
        tokens : str or a list of strs
            A token or a list of tokens whose embedding vector are to be updated.
        new_vectors : mxnet.ndarray.NDArray
            An NDArray to be assigned to the embedding vectors of `tokens`. Its length must be equal
            to the number of `tokens` and its width must be equal to the dimension of embeddings of
            the glossary. If `tokens` is a singleton, it must be 1-D or 2-D. If `tokens` is a list
            of multiple strings, it must be 2-D.
        """
        if self.idx_to_vec is None:
            raise MXNetAssertionError('The property `idx_to_vec` has not been properly set.')
        if not isinstance(tokens, list) or len(tokens) == 1:
            if not (isinstance(new_vectors, nd.NDArray) and new_vectors.ndim in (1, 2)):
                raise MXNetAssertionError('`new_vectors` must be a 1-D or 2-D NDArray if '
                                          '`tokens` is a singleton.')
            if not isinstance(tokens, list):
                tokens = [tokens]
            if new_vectors.ndim == 1:
                new_vectors = new_vectors.expand_dims(axis=0)
        elif not (isinstance(new_vectors, nd.NDArray) and new_vectors.ndim == 2):
            raise MXNetAssertionError('`new_vectors` must be a 2-D NDArray if `tokens` is a list '
                                      'of multiple strings.')
        if new_vectors.shape != (len(tokens), self.vec_len):
            raise MXNetAssertionError(
                'The length of new_vectors must be equal to the number of tokens and the width '
                'of new_vectors must be equal to the dimension of embeddings of the glossary: '
                'expected shape %s, got %s' % ((len(tokens), self.vec_len), new_vectors.shape))
        indices = []
        for token in tokens:
            if token not in self.token_to_idx:
                raise MXNetValueError(
                    'Token %s is unknown. To update the embedding vector for an unknown token, '
                    'please specify it explicitly as the `unknown_token` %s in `tokens`. This is '
                    'to avoid unintended updates.' % (token, self.idx_to_token[C.UNKNOWN_IDX]))
            indices.append(self.token_to_idx[token])
        self._idx_to_vec[nd.array(indices)] = new_vectors

    @classmethod
    def _check_pretrained_file_names(cls, pretrained_file_name):
        """Checks if a pre-trained token embedding file name is valid.

        Parameters
        ----------
        pretrained_file_name : str
            The pre-trained token embedding file.
        """
        if pretrained_file_name not in cls.pretrained_file_name_sha1:
            name = cls.__name__.lower()
            raise KeyError('Cannot find pretrained file %s for token embedding %s. Valid '
                           'pretrained files for embedding %s: %s'
                           % (pretrained_file_name, name, name,
                              ', '.join(cls.pretrained_file_name_sha1)))


def _load_pretrained(embed, pretrained_file_name, embedding_root, init_unknown_vec, vocabulary):
    """Fill ``embed`` (a GloVe or FastText) from its pre-trained file under ``embedding_root``."""
    cls = type(embed)
    cls._check_pretrained_file_names(pretrained_file_name)
    path = cls._get_pretrained_file(embedding_root, pretrained_file_name)
    embed._load_embedding(path, ' ', init_unknown_vec)
    if vocabulary is not None:
        embed._build_embedding_for_vocabulary(vocabulary)


@register
class GloVe(_TokenEmbedding):
    """The GloVe word embedding.

    GloVe is an unsupervised learning algorithm for obtaining vector representations for words.
    Training is performed on aggregated global word-word co-occurrence statistics from a corpus, and
    the resulting representations showcase interesting linear substructures of the word vector
    space. (Source from https://nlp.stanford.edu/projects/glove/)

    References
    ----------

    GloVe: Global Vectors for Word Representation.
    Jeffrey Pennington, Richard Socher, and Christopher D. Manning.
    https://nlp.stanford.edu/pubs/glove.pdf

    License for pre-trained embeddings: https://fedoraproject.org/wiki/Licensing/PDDL

    The archive holding `pretrained_file_name` is downloaded (and checked against its SHA-1)
    unless the file is already in `embedding_root`/glove with the expected SHA-1.

    Parameters
    ----------
    pretrained_file_name : str, default 'glove.840B.300d.txt'
        The name of the pre-trained token embedding file.
    embedding_root : str, default $MXNET_HOME/embeddings
        The root directory for storing embedding-related files.
    init_unknown_vec : callback
        The callback used to initialize the embedding vector for the unknown token.
    vocabulary : :class:`~mxnet.contrib.text.vocab.Vocabulary`, default None
        It contains the tokens to index. Each indexed token will be associated with the loaded
        embedding vectors, such as loaded from a pre-trained token embedding file. If None, all the
        tokens from the loaded embedding vectors, such as loaded from a pre-trained token embedding
        file, will be indexed.
    """

    # the archive to download -> its SHA-1
    pretrained_archive_name_sha1 = C.GLOVE_ARCHIVE_SHA1

    # the embedding file -> its SHA-1
    pretrained_file_name_sha1 = C.GLOVE_FILE_SHA1

    @classmethod
    def _get_download_file_name(cls, pretrained_file_name):
        # 'glove.6B.50d.txt' comes in 'glove.6B.zip': the second dotted field names the archive
        corpus = pretrained_file_name.split('.')[1]
        return next(a for a in cls.pretrained_archive_name_sha1 if a.split('.')[1] == corpus)

    def __init__(self, pretrained_file_name='glove.840B.300d.txt',
                 embedding_root=os.path.join(base.data_dir(), 'embeddings'),
                 init_unknown_vec=nd.zeros, vocabulary=None, **kwargs):
        super(GloVe, self).__init__(**kwargs)
        _load_pretrained(self, pretrained_file_name, embedding_root, init_unknown_vec,
                         vocabulary)


@register
class FastText(_TokenEmbedding):
    """The fastText word embedding.

    FastText is an open-source, free, lightweight library that allows users to learn text
    representations and text classifiers. It works on standard, generic hardware. Models can later
    be reduced in size to even fit on mobile devices. (Source from https://fasttext.cc/)

    References
    ----------

    Enriching Word Vectors with Subword Information.
    Piotr Bojanowski, Edouard Grave, Armand Joulin, and Tomas Mikolov.
    https://arxiv.org/abs/1607.04606

    Bag of Tricks for Efficient Text Classification.
    Armand Joulin, Edouard Grave, Piotr Bojanowski, and Tomas Mikolov.
    https://arxiv.org/abs/1607.01759

    License for pre-trained embeddings: https://creativecommons.org/licenses/by-sa/3.0/

    The archive holding `pretrained_file_name` is downloaded (and checked against its SHA-1)
    unless the file is already in `embedding_root`/fasttext with the expected SHA-1.

    Parameters
    ----------
    pretrained_file_name : str, default 'wiki.simple.vec'
        The name of the pre-trained token embedding file.
    embedding_root : str, default $MXNET_HOME/embeddings
        The root directory for storing embedding-related files.
    init_unknown_vec : callback
        The callback used to initialize the embedding vector for the unknown token.
    vocabulary : :class:`~mxnet.contrib.text.vocab.Vocabulary`, default None
        It contains the tokens to index. Each indexed token will be associated with the loaded
        embedding vectors, such as loaded from a pre-trained token embedding file. If None, all the
        tokens from the loaded embedding vectors, such as loaded from a pre-trained token embedding
        file, will be indexed.
    """

    # the archive to download -> its SHA-1
    pretrained_archive_name_sha1 = C.FAST_TEXT_ARCHIVE_SHA1

    # the embedding file -> its SHA-1
    pretrained_file_name_sha1 = C.FAST_TEXT_FILE_SHA1

    @classmethod
    def _get_download_file_name(cls, pretrained_file_name):
        # 'wiki.en.vec' comes in 'wiki.en.zip'
        return pretrained_file_name.rsplit('.', 1)[0] + '.zip'

    def __init__(self, pretrained_file_name='wiki.simple.vec',
                 embedding_root=os.path.join(base.data_dir(), 'embeddings'),
                 init_unknown_vec=nd.zeros, vocabulary=None, **kwargs):
        super(FastText, self).__init__(**kwargs)
        _load_pretrained(self, pretrained_file_name, embedding_root, init_unknown_vec,
                         vocabulary)


class CustomEmbedding(_TokenEmbedding):
    """User-defined token embedding.

    This is to load embedding vectors from a user-defined pre-trained text embedding file.

    Denote by '[ed]' the argument `elem_delim`. Denote by [v_ij] the j-th element of the token
    embedding vector for [token_i], the expected format of a custom pre-trained token embedding file
    is:

    '[token_1][ed][v_11][ed][v_12][ed]...[ed][v_1k]\\\\n[token_2][ed][v_21][ed][v_22][ed]...[ed]
    [v_2k]\\\\n...'

    where k is the length of the embedding vector `vec_len`.

    Parameters
    ----------
    pretrained_file_path : str
        The path to the custom pre-trained token embedding file.
    elem_delim : str, default ' '
        The delimiter for splitting a token and every embedding vector element value on the same
        line of the custom pre-trained token embedding file.
    encoding : str, default 'utf8'
        The encoding scheme for reading the custom pre-trained token embedding file.
    init_unknown_vec : callback
        The callback used to initialize the embedding vector for the unknown token.
    vocabulary : :class:`~mxnet.contrib.text.vocab.Vocabulary`, default None
        It contains the tokens to index. Each indexed token will be associated with the loaded
        embedding vectors, such as loaded from a pre-trained token embedding file. If None, all the
        tokens from the loaded embedding vectors, such as loaded from a pre-trained token embedding
        file, will be indexed.
    """

    def __init__(self, pretrained_file_path, elem_delim=' ', encoding='utf8',
                 init_unknown_vec=nd.zeros, vocabulary=None, **kwargs):
        super(CustomEmbedding, self).__init__(**kwargs)
        self._load_embedding(pretrained_file_path, elem_delim, init_unknown_vec, encoding)
        if vocabulary is not None:
            self._build_embedding_for_vocabulary(vocabulary)


class CompositeEmbedding(_TokenEmbedding):
    """Composite token embeddings.

    For each indexed token in a vocabulary, multiple embedding vectors, such as concatenated
    multiple embedding vectors, will be associated with it. Such embedding vectors can be loaded
    from externally hosted or custom pre-trained token embedding files, such as via token embedding
    instances.

    Parameters
    ----------
    vocabulary : :class:`~mxnet.contrib.text.vocab.Vocabulary`
        For each indexed token in a vocabulary, multiple embedding vectors, such as concatenated
        multiple embedding vectors, will be associated with it.
    token_embeddings : instance or list of `mxnet.contrib.text.embedding._TokenEmbedding`
        One or multiple pre-trained token embeddings to load. If it is a list of multiple
        embeddings, these embedding vectors will be concatenated for each token.
    """
    def __init__(self, vocabulary, token_embeddings):  # pylint: disable=super-init-not-called
        if not isinstance(vocabulary, vocab.Vocabulary):
            raise MXNetAssertionError('The argument `vocabulary` must be an instance of '
                                      'mxnet.contrib.text.vocab.Vocabulary, not %s'
                                      % type(vocabulary).__name__)
        if not isinstance(token_embeddings, list):
            token_embeddings = [token_embeddings]
        for embed in token_embeddings:
            if not isinstance(embed, _TokenEmbedding):
                raise MXNetAssertionError(
                    'The argument `token_embeddings` must be an instance or a list of instances '
                    'of `mxnet.contrib.text.embedding._TokenEmbedding`, not %s'
                    % type(embed).__name__)
        self._index_tokens_from_vocabulary(vocabulary)
        self._set_idx_to_vec_by_embeddings(token_embeddings, len(self), self.idx_to_token)
