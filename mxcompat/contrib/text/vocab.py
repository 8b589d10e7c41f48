"""Text token indexer."""
import collections

from ...base import MXNetAssertionError, MXNetValueError
from . import _constants as C

__all__ = ['Vocabulary']


class Vocabulary(object):
    """Indexing for text tokens.

    Build indices for the unknown token, reserved tokens, and input counter keys. Indexed tokens can
    be used by token embeddings.

    Parameters
    ----------
    counter : collections.Counter or None, default None
        Counts text token frequencies in the text data. Its keys will be indexed according to
        frequency thresholds such as `most_freq_count` and `min_freq`. Keys of `counter`,
        `unknown_token`, and values of `reserved_tokens` must be of the same hashable type.
        Examples: str, int, and tuple.
    most_freq_count : None or int, default None
        The maximum possible number of the most frequent tokens in the keys of `counter` that can be
        indexed. Note that this argument does not count any token from `reserved_tokens`. Keys of
        equal frequency are indexed in their sorted order until the limit is met. If this argument
        is None or larger than its largest possible value restricted by `counter` and
        `reserved_tokens`, this argument has no effect.
    min_freq : int, default 1
        The minimum frequency required for a token in the keys of `counter` to be indexed.
    unknown_token : hashable object, default '<unk>'
        The representation for any unknown token. In other words, any unknown token will be indexed
        as the same representation (index 0).
    reserved_tokens : list of hashable objects or None, default None
        A list of reserved tokens that will always be indexed (after the unknown token), such as
        special symbols representing padding, beginning of sentence, and end of sentence. It
        cannot contain `unknown_token`, or duplicate reserved tokens.

    Attributes
    ----------
    unknown_token : hashable object
        The representation for any unknown token. In other words, any unknown token will be indexed
        as the same representation.
    reserved_tokens : list of strs or None
        A list of reserved tokens that will always be indexed.
    """

    def __init__(self, counter=None, most_freq_count=None, min_freq=1, unknown_token='<unk>',
                 reserved_tokens=None):
        if not min_freq > 0:
            raise MXNetAssertionError('`min_freq` must be set to a positive value, not %r'
                                      % (min_freq,))
        if reserved_tokens is not None:
            reserved = set(reserved_tokens)
            if unknown_token in reserved:
                raise MXNetAssertionError('`reserved_token` cannot contain `unknown_token` %r: '
                                          'remove it from `reserved_tokens`' % (unknown_token,))
            if len(reserved) != len(reserved_tokens):
                raise MXNetAssertionError('`reserved_tokens` cannot contain duplicate reserved '
                                          'tokens: %r' % (reserved_tokens,))
        self._index_unknown_and_reserved_tokens(unknown_token, reserved_tokens)
        if counter is not None:
            self._index_counter_keys(counter, unknown_token, reserved_tokens, most_freq_count,
                                     min_freq)

    def _index_unknown_and_reserved_tokens(self, unknown_token, reserved_tokens):
        """Indexes the unknown token (at index 0, C.UNKNOWN_IDX) and then the reserved tokens."""
        self._unknown_token = unknown_token
        self._idx_to_token = [unknown_token]
        if reserved_tokens is None:
            self._reserved_tokens = None
        else:
            self._reserved_tokens = list(reserved_tokens)
            self._idx_to_token.extend(reserved_tokens)
        self._token_to_idx = {token: idx for idx, token in enumerate(self._idx_to_token)}

    def _index_counter_keys(self, counter, unknown_token, reserved_tokens, most_freq_count,
                            min_freq):
        """Indexes the keys of `counter`, most frequent first (ties in sorted key order), while
        their frequency is at least `min_freq` and at most `most_freq_count` of them are
        indexed."""
        if not isinstance(counter, collections.Counter):
            raise MXNetAssertionError('`counter` must be an instance of collections.Counter, '
                                      'not %s' % type(counter).__name__)
        special = set(reserved_tokens) if reserved_tokens is not None else set()
        special.add(unknown_token)
        by_freq = sorted(sorted(counter.items(), key=lambda kv: kv[0]),
                         key=lambda kv: kv[1], reverse=True)
        cap = len(special) + (len(counter) if most_freq_count is None else most_freq_count)
        for token, freq in by_freq:
            if freq < min_freq or len(self._idx_to_token) == cap:
                break
            if token not in special:
                self._token_to_idx[token] = len(self._idx_to_token)
                self._idx_to_token.append(token)

    def __len__(self):
        return len(self._idx_to_token)

    @property
    def token_to_idx(self):
        """dict mapping str to int: A dict mapping each token to its index integer."""
        return self._token_to_idx

    @property
    def idx_to_token(self):
        """list of strs: A list of indexed tokens where the list indices and the token indices
        are aligned."""
        return self._idx_to_token

    @property
    def unknown_token(self):
        """The representation for any unknown token."""
        return self._unknown_token

    @property
    def reserved_tokens(self):
        """list or None: the reserved tokens."""
        return self._reserved_tokens

    def to_indices(self, tokens):
        """Converts tokens to indices according to the vocabulary.

        Parameters
        ----------
        tokens : str or list of strs
            A source token or tokens to be converted.

        Returns
        -------
        int or list of ints
            A token index or a list of token indices according to the vocabulary (unknown
            tokens map to 0).
        """
        lookup = self._token_to_idx.get
        if not isinstance(tokens, list):
            return lookup(tokens, C.UNKNOWN_IDX)
        return [lookup(token, C.UNKNOWN_IDX) for token in tokens]

    def to_tokens(self, indices):
        """Converts token indices to tokens according to the vocabulary.

        Parameters
        ----------
        indices : int or list of ints
            A source token index or token indices to be converted.

        Returns
        -------
        str or list of strs
            A token or a list of tokens according to the vocabulary.
        """
        single = not isinstance(indices, list)
        if single:
            indices = [indices]
        max_idx = len(self._idx_to_token) - 1
        tokens = []
        for idx in indices:
            if not isinstance(idx, int) or idx > max_idx:
                raise MXNetValueError('Token index %r in the provided `indices` is invalid: '
                                      'indices are ints up to %d' % (idx, max_idx))
            tokens.append(self._idx_to_token[idx])
        return tokens[0] if single else tokens
