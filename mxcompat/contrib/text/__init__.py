"""Utilities for indexing and embedding text (``mx.contrib.text``): vocabularies, token
embeddings read from files, token counting."""
from . import utils
from . import vocab
from . import embedding
