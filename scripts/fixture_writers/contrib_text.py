"""mx.contrib.text, mx.gluon.contrib.data.text and mx.contrib.io.DataLoaderIter from real MXNet:
vocabulary orderings (ties, min_freq, most_freq_count, reserved and unknown tokens), token
embeddings read from generated local files (duplicates, headers, the unknown token, other
delimiters, init_unknown_vec, vocabularies, composites, updates, a registered embedding whose
file is already in its root with the right SHA-1), WikiText2 read from generated files, and
DataLoaderIter batches. The same ``run(mx, workdir)`` executes under mxcompat in
tests/test_contrib_text.py."""
import collections
import hashlib
import json
import os
import tempfile
import zipfile

import numpy as np

WORDS = ['the', 'The', 'a', 'of', 'cat', 'Cat', 'dog', 'sat', 'on', 'mat', ',', '.', '@-@',
         'zebra', 'apple']


def _vocab_cases(mx, out):
    text = mx.contrib.text
    rng = np.random.RandomState(7)
    stream = ' '.join(rng.choice(WORDS, size=300, p=np.linspace(2, 0.2, len(WORDS)) /
                                 np.linspace(2, 0.2, len(WORDS)).sum()))
    source = ' Life is great ! \n life is good . \n' + stream.replace('on ', 'on\n')
    counter = text.utils.count_tokens_from_str(source)
    out['count/plain'] = sorted(counter.items())
    out['count/lower'] = sorted(text.utils.count_tokens_from_str(source, to_lower=True).items())
    out['count/regex'] = sorted(text.utils.count_tokens_from_str(
        '*Life*is*great*!*\n*life*is*good*.*\n', '\\*', '\n', True).items())
    upd = collections.Counter({'life': 5, 'new': 1})
    out['count/update'] = sorted(text.utils.count_tokens_from_str(
        source, counter_to_update=upd).items())
    cases = {
        'default': {},
        'min_freq3': {'min_freq': 3},
        'most2': {'most_freq_count': 2},
        'most5_min2': {'most_freq_count': 5, 'min_freq': 2},
        'most1000': {'most_freq_count': 1000},
        'reserved': {'reserved_tokens': ['<pad>', '<bos>', 'the']},
        'reserved_most3': {'reserved_tokens': ['<pad>', 'cat'], 'most_freq_count': 3},
        'unk_is_token': {'unknown_token': 'the', 'min_freq': 2},
        'min_freq_huge': {'min_freq': 10000, 'reserved_tokens': ['<eos>']},
    }
    probe = ['the', 'zebra', 'nope', '<pad>', 'cat', 'Cat', 'life']
    for name, kwargs in cases.items():
        v = text.vocab.Vocabulary(counter, **kwargs)
        out['vocab/%s/idx_to_token' % name] = v.idx_to_token
        out['vocab/%s/to_indices' % name] = v.to_indices(probe)
        out['vocab/%s/to_index_one' % name] = v.to_indices('zebra')
        out['vocab/%s/to_tokens' % name] = v.to_tokens([0, len(v) - 1, 1])
        out['vocab/%s/reserved' % name] = v.reserved_tokens
    tuples = collections.Counter({('a', 1): 3, ('b', 2): 3, ('a', 0): 1, ('c', 5): 2})
    v = text.vocab.Vocabulary(tuples, unknown_token=('<unk>', 0), min_freq=2)
    out['vocab/tuples/idx_to_token'] = [list(t) for t in v.idx_to_token]
    v = text.vocab.Vocabulary(collections.Counter([5, 3, 5, 1, 3, 5, 9]), unknown_token=-1)
    out['vocab/ints/idx_to_token'] = v.idx_to_token


def _write_embedding_file(path, tokens, dim, seed, delim=' ', header=False, extra=()):
    rng = np.random.RandomState(seed)
    vecs = rng.uniform(-1, 1, (len(tokens), dim)).astype(np.float32)
    with open(path, 'w', encoding='utf8') as f:
        if header:
            f.write('%d%s%d\n' % (len(tokens), delim, dim))
        for tok, vec in zip(tokens, vecs):
            f.write(delim.join([tok] + ['%.6f' % x for x in vec]) + '\n')
        for line in extra:
            f.write(line + '\n')


def _embedding_cases(mx, workdir, arrays, out):
    text = mx.contrib.text
    nd = mx.nd
    tokens = ['the', 'cat', 'sat', 'on', 'mat', 'The', 'dog', ',']
    f1 = os.path.join(workdir, 'emb1.txt')
    # a header line, a duplicate token (skipped), trailing spaces
    _write_embedding_file(f1, tokens, 4, 1, header=True,
                          extra=['cat 9 9 9 9', 'apple 0.5 0.25 -0.125 1   '])
    f2 = os.path.join(workdir, 'emb2.tsv')
    _write_embedding_file(f2, ['<unk>', 'mat', 'zebra', 'the', 'dog'], 3, 2, delim='\t')
    probe = ['the', 'The', 'CAT', 'zebra', 'nothing', 'apple', 'dog']

    e1 = text.embedding.CustomEmbedding(f1)
    out['emb1/idx_to_token'] = e1.idx_to_token
    out['emb1/vec_len'] = e1.vec_len
    arrays['emb1/idx_to_vec'] = e1.idx_to_vec.asnumpy()
    arrays['emb1/vecs'] = e1.get_vecs_by_tokens(probe).asnumpy()
    arrays['emb1/vecs_lower'] = e1.get_vecs_by_tokens(probe, lower_case_backup=True).asnumpy()
    arrays['emb1/vec_one'] = e1.get_vecs_by_tokens('sat').asnumpy()

    e1b = text.embedding.CustomEmbedding(f1, init_unknown_vec=nd.ones, unknown_token='<unknown>')
    arrays['emb1_ones/idx_to_vec'] = e1b.idx_to_vec.asnumpy()
    e1b.update_token_vectors('<unknown>', nd.array([1., 2., 3., 4.]))
    e1b.update_token_vectors(['cat', 'on'], nd.array(np.arange(8).reshape(2, 4) * 0.5))
    e1b.update_token_vectors(['dog'], nd.array([[7., 7., 7., 7.]]))
    arrays['emb1_ones/updated'] = e1b.idx_to_vec.asnumpy()

    e2 = text.embedding.CustomEmbedding(f2, elem_delim='\t', init_unknown_vec=nd.ones)
    out['emb2/idx_to_token'] = e2.idx_to_token
    arrays['emb2/idx_to_vec'] = e2.idx_to_vec.asnumpy()

    counter = collections.Counter(['zebra', 'the', 'the', 'cat', 'mat', 'mat', 'mat', 'new'])
    v = text.vocab.Vocabulary(counter, reserved_tokens=['<pad>'])
    e3 = text.embedding.CustomEmbedding(f1, init_unknown_vec=nd.ones, vocabulary=v)
    out['emb_vocab/idx_to_token'] = e3.idx_to_token
    out['emb_vocab/reserved'] = e3.reserved_tokens
    arrays['emb_vocab/idx_to_vec'] = e3.idx_to_vec.asnumpy()
    arrays['emb_vocab/vecs'] = e3.get_vecs_by_tokens(probe).asnumpy()

    comp = text.embedding.CompositeEmbedding(v, [e1, e2])
    out['composite/idx_to_token'] = comp.idx_to_token
    out['composite/vec_len'] = comp.vec_len
    arrays['composite/idx_to_vec'] = comp.idx_to_vec.asnumpy()
    comp.update_token_vectors('mat', nd.arange(7))
    arrays['composite/updated'] = comp.idx_to_vec.asnumpy()
    comp1 = text.embedding.CompositeEmbedding(v, e2)
    arrays['composite_one/idx_to_vec'] = comp1.idx_to_vec.asnumpy()

    # a registered embedding whose file is already in its root with the published SHA-1
    root = os.path.join(workdir, 'embeddings')
    os.makedirs(os.path.join(root, 'localtestembed'))
    local = os.path.join(root, 'localtestembed', 'local.vec')
    _write_embedding_file(local, ['x', 'y', 'z'], 2, 3)
    with open(local, 'rb') as f:
        sha1 = hashlib.sha1(f.read()).hexdigest()

    @text.embedding.register
    class LocalTestEmbed(text.embedding._TokenEmbedding):  # pylint: disable=unused-variable
        pretrained_file_name_sha1 = {'local.vec': sha1}

        def __init__(self, embedding_root, pretrained_file_name='local.vec', **kwargs):
            super(LocalTestEmbed, self).__init__(**kwargs)
            path = self._get_pretrained_file(embedding_root, pretrained_file_name)
            self._load_embedding(path, ' ', mx.nd.zeros)

    # ... and one whose file is missing but whose archive is there with its SHA-1: unpacked
    zipped = os.path.join(root, 'localzipembed')
    os.makedirs(zipped)
    _write_embedding_file(os.path.join(workdir, 'inner.vec'), ['p', 'q'], 3, 4)
    archive = os.path.join(zipped, 'inner.zip')
    with zipfile.ZipFile(archive, 'w') as zf:
        zf.write(os.path.join(workdir, 'inner.vec'), 'inner.vec')
    with open(archive, 'rb') as f:
        zip_sha1 = hashlib.sha1(f.read()).hexdigest()

    @text.embedding.register
    class LocalZipEmbed(text.embedding._TokenEmbedding):  # pylint: disable=unused-variable
        pretrained_file_name_sha1 = {'inner.vec': 'not-the-sha1-of-anything'}
        pretrained_archive_name_sha1 = {'inner.zip': zip_sha1}

        @classmethod
        def _get_download_file_name(cls, pretrained_file_name):
            return 'inner.zip'

        def __init__(self, embedding_root, **kwargs):
            super(LocalZipEmbed, self).__init__(**kwargs)
            path = self._get_pretrained_file(embedding_root, 'inner.vec')
            self._load_embedding(path, ' ', mx.nd.ones)

    e5 = text.embedding.create('localzipembed', embedding_root=root)
    out['registered_zip/idx_to_token'] = e5.idx_to_token
    arrays['registered_zip/idx_to_vec'] = e5.idx_to_vec.asnumpy()
    out['registered_zip/files'] = sorted(os.listdir(zipped))

    e4 = text.embedding.create('LocalTestEmbed', embedding_root=root)
    out['registered/idx_to_token'] = e4.idx_to_token
    arrays['registered/idx_to_vec'] = e4.idx_to_vec.asnumpy()
    out['registered/names'] = text.embedding.get_pretrained_file_names('localtestembed')
    names = text.embedding.get_pretrained_file_names()
    out['pretrained/glove'] = names['glove']
    out['pretrained/fasttext_len'] = len(names['fasttext'])
    out['pretrained/fasttext_head'] = names['fasttext'][:5]
    out['pretrained/urls'] = [
        text.embedding.GloVe._get_pretrained_file_url('glove.6B.50d.txt'),
        text.embedding.FastText._get_pretrained_file_url('wiki.simple.vec'),
        text.embedding.FastText._get_pretrained_file_url('crawl-300d-2M.vec')]


def _write_wikitext(root, seed):
    rng = np.random.RandomState(seed)
    for name, nlines in (('wiki.train.tokens', 40), ('wiki.valid.tokens', 12),
                         ('wiki.test.tokens', 9)):
        lines = []
        for i in range(nlines):
            if i % 5 == 0:
                lines.append('')
            elif i % 7 == 0:
                lines.append(' = = %s = = ' % rng.choice(WORDS))
            else:
                n = rng.randint(1, 12)
                lines.append(' ' + ' '.join(rng.choice(WORDS + ['<unk>', 'rare%d' % i], n)) + ' ')
        with open(os.path.join(root, name), 'w', encoding='utf8') as f:
            f.write('\n'.join(lines) + '\n')


def _wikitext_cases(mx, workdir, arrays, out):
    module = mx.gluon.contrib.data.text
    root = os.path.join(workdir, 'wikitext-2')
    os.makedirs(root)
    _write_wikitext(root, 11)
    # the generated files are not the published ones: MXNet would download those, so both
    # sides are told the files check out (a patch of the module's check_sha1, as a user would)
    real_check = module.check_sha1
    module.check_sha1 = lambda filename, sha1_hash: True
    try:
        for seq_len in (5, 7):
            train = module.WikiText2(root, 'train', seq_len=seq_len)
            vocab = train.vocabulary
            out['wikitext/%d/idx_to_token' % seq_len] = vocab.idx_to_token
            out['wikitext/%d/frequencies' % seq_len] = sorted(train.frequencies.items())
            for seg, ds in (('train', train),
                            ('validation', module.WikiText2(root, 'validation', vocab=vocab,
                                                            seq_len=seq_len)),
                            ('test', module.WikiText2(root, 'test', vocab=vocab,
                                                      seq_len=seq_len))):
                key = 'wikitext/%d/%s' % (seq_len, seg)
                out[key + '/len'] = len(ds)
                arrays[key + '/data'] = ds._data.asnumpy()
                arrays[key + '/label'] = ds._label.asnumpy()
                d, l = ds[1]
                arrays[key + '/item1'] = np.stack([d.asnumpy(), l.asnumpy()])
                out[key + '/frequencies_none'] = ds.frequencies is None
        own = module.WikiText2(root, 'validation', seq_len=4)  # a vocabulary of its own
        out['wikitext/own_vocab'] = own.vocabulary.idx_to_token
        arrays['wikitext/own_vocab/data'] = own._data.asnumpy()
    finally:
        module.check_sha1 = real_check
    # only the archive is there (its files in a folder, as in the published one): the
    # segment's file is missing, the archive checks out, so it is unpacked into root
    zroot = os.path.join(workdir, 'zipped')
    os.makedirs(zroot)
    with zipfile.ZipFile(os.path.join(zroot, 'wikitext-2-v1.zip'), 'w') as zf:
        zf.writestr('wikitext-2/', '')
        for name in ('wiki.train.tokens', 'wiki.valid.tokens', 'wiki.test.tokens'):
            zf.write(os.path.join(root, name), 'wikitext-2/' + name)
    gutils = mx.gluon.utils
    real_gcheck = gutils.check_sha1
    module.check_sha1 = gutils.check_sha1 = \
        lambda filename, sha1_hash: filename.endswith('.zip')
    try:
        ds = module.WikiText2(zroot, 'test', seq_len=6)
        out['wikitext/zipped/files'] = sorted(os.listdir(zroot))
        arrays['wikitext/zipped/data'] = ds._data.asnumpy()
        out['wikitext/zipped/vocab'] = ds.vocabulary.idx_to_token
    finally:
        module.check_sha1 = real_check
        gutils.check_sha1 = real_gcheck


def _dataloader_iter_cases(mx, arrays, out):
    rng = np.random.RandomState(5)
    x = rng.uniform(-1, 1, (11, 2, 3)).astype(np.float32)
    y = rng.randint(0, 4, (11,)).astype(np.int32)
    dataset = mx.gluon.data.ArrayDataset(mx.nd.array(x), mx.nd.array(y, dtype='int32'))
    for last_batch in ('keep', 'discard', 'rollover'):
        for dtype in ('float32', 'float16'):
            loader = mx.gluon.data.DataLoader(dataset, batch_size=4, last_batch=last_batch)
            it = mx.contrib.io.DataLoaderIter(loader, data_name='x', label_name='y', dtype=dtype)
            key = 'dli/%s/%s' % (last_batch, dtype)
            out[key + '/provide'] = [[d.name, list(d.shape), np.dtype(d.dtype).name]
                                     for d in it.provide_data + it.provide_label]
            for rnd in range(2):
                n = 0
                for batch in it:
                    pad = batch.pad
                    valid = 4 - pad
                    bkey = '%s/%d/%d' % (key, rnd, n)
                    out[bkey + '/pad'] = pad
                    out[bkey + '/dtypes'] = [np.dtype(batch.data[0].dtype).name,
                                             np.dtype(batch.label[0].dtype).name]
                    out[bkey + '/shapes'] = [list(batch.data[0].shape),
                                             list(batch.label[0].shape)]
                    out[bkey + '/index'] = batch.index
                    arrays[bkey + '/data'] = batch.data[0].asnumpy()[:valid].astype(np.float32)
                    arrays[bkey + '/label'] = batch.label[0].asnumpy()[:valid].astype(np.float32)
                    n += 1
                out['%s/%d/count' % (key, rnd)] = n
                it.reset()


def run(mx, workdir):
    """({name: numpy array}, {name: JSON value}) of every case; files go under workdir."""
    arrays, out = {}, {}
    _vocab_cases(mx, out)
    _embedding_cases(mx, workdir, arrays, out)
    _wikitext_cases(mx, workdir, arrays, out)
    _dataloader_iter_cases(mx, arrays, out)
    return arrays, json.loads(json.dumps(out))


def write(mx, outdir):
    with tempfile.TemporaryDirectory() as workdir:
        arrays, out = run(mx, workdir)
    tmp = os.path.join(outdir, 'contrib_text.tmp.npz')
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, os.path.join(outdir, 'contrib_text.npz'))
    tmp = os.path.join(outdir, 'contrib_text.json.tmp')
    with open(tmp, 'w') as f:
        json.dump(out, f, indent=0, sort_keys=True)
    os.replace(tmp, os.path.join(outdir, 'contrib_text.json'))
