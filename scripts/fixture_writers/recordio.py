"""Fixtures for mx.recordio, written by real MXNet 1.9.1.

* ``seq.rec``: records written with MXRecordIO (empty records, every length mod 4, records
  holding the magic number at aligned and unaligned offsets, a 10 kB random record);
* ``indexed.rec``/``indexed.idx``: the same records written with MXIndexedRecordIO under
  shuffled integer keys, and ``strkeys.rec``/``.idx`` with string keys;
* ``image.rec``/``.idx``: ``pack``ed PNG images, with MXNet's ``imdecode`` of each;
* ``manifest.json``: the payloads (hex), keys, ``pack`` outputs for many headers, ``unpack``
  results, and what MXNet's reader does on truncated copies of ``seq.rec``.
"""
import json
import os
import struct
import zlib

import numpy as np

MAGIC = struct.pack('<I', 0xced7230a)


def payloads():
    """The records every .rec fixture holds (bytes)."""
    rs = np.random.RandomState(7)
    out = [b'', b'a', b'ab', b'abc', b'abcd', b'abcde', b'abcdefg', b'abcdefgh']
    out += [MAGIC, MAGIC + MAGIC, b'xyzw' + MAGIC, MAGIC + b'tail1', b'x' + MAGIC + b'yyy',
            b'12345678' + MAGIC + b'ab' + MAGIC + MAGIC + b'z', b'xy' + MAGIC + b'zz' + MAGIC,
            b'abcd' + MAGIC + b'efgh' + MAGIC]
    out.append(rs.randint(0, 256, size=10000).astype(np.uint8).tobytes())
    blob = bytearray(rs.randint(0, 256, size=4096).astype(np.uint8).tobytes())
    for pos in (0, 100, 101, 2048, 4092):
        blob[pos:pos + 4] = MAGIC
    out.append(bytes(blob))
    return out


def png_bytes(img):
    """Encode an (H, W, 3) uint8 RGB array as PNG (no dependency beyond zlib)."""
    h, w, _ = img.shape
    raw = b''.join(b'\0' + img[i].tobytes() for i in range(h))

    def chunk(tag, data):
        return (struct.pack('>I', len(data)) + tag + data
                + struct.pack('>I', zlib.crc32(tag + data) & 0xffffffff))
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
            + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))


def _read_all(mx, path):
    """Records MXNet reads from ``path`` until None or an error."""
    got, err = [], None
    r = mx.recordio.MXRecordIO(path, 'r')
    try:
        while True:
            s = r.read()
            if s is None:
                break
            got.append(s.hex())
    except mx.base.MXNetError as e:
        err = str(e).strip().splitlines()[-1]
    r.close()
    return got, err


def write(mx, outdir):
    recs = payloads()
    manifest = {'payloads': [p.hex() for p in recs]}

    w = mx.recordio.MXRecordIO(os.path.join(outdir, 'seq.rec'), 'w')
    for p in recs:
        w.write(p)
    w.close()

    keys = list(np.random.RandomState(3).permutation(len(recs)) * 3 + 5)
    keys = [int(k) for k in keys]
    w = mx.recordio.MXIndexedRecordIO(os.path.join(outdir, 'indexed.idx'),
                                      os.path.join(outdir, 'indexed.rec'), 'w')
    tells = []
    for k, p in zip(keys, recs):
        tells.append(int(w.tell()))
        w.write_idx(k, p)
    w.close()
    manifest['keys'] = keys
    manifest['tells'] = tells

    skeys = ['rec-%d' % i for i in range(5)]
    w = mx.recordio.MXIndexedRecordIO(os.path.join(outdir, 'strkeys.idx'),
                                      os.path.join(outdir, 'strkeys.rec'), 'w', key_type=str)
    for k, p in zip(skeys, recs[3:8]):
        w.write_idx(k, p)
    w.close()
    manifest['str_keys'] = skeys

    # pack / unpack
    packs = []
    rs = np.random.RandomState(11)
    headers = [(0, 3.5, 7, 0), (5, 2.0, 2 ** 40 + 3, 9), (0, [1.0, 2.5, -3.0], 1, 2),
               (0, np.arange(7, dtype=np.float64) / 3, 12345, 0), (1, [0.25], 0, 0),
               (0, np.float32(1.75), 3, 4), (9, 0, 0, 0), (0, [], 5, 6)]
    for i, hdr in enumerate(headers):
        body = rs.randint(0, 256, size=i * 3).astype(np.uint8).tobytes()
        s = mx.recordio.pack(mx.recordio.IRHeader(*hdr), body)
        h2, body2 = mx.recordio.unpack(s)
        label = h2.label
        packs.append({'header': [hdr[0], np.asarray(hdr[1], dtype=np.float64).tolist(),
                                 int(hdr[2]), int(hdr[3])],
                      'body': body.hex(), 'packed': s.hex(),
                      'unpacked': [int(h2.flag), np.asarray(label, dtype=np.float64).tolist(),
                                   int(h2.id), int(h2.id2)], 'unpacked_body': body2.hex()})
    manifest['packs'] = packs

    # packed images
    rs = np.random.RandomState(5)
    images = {}
    w = mx.recordio.MXIndexedRecordIO(os.path.join(outdir, 'image.idx'),
                                      os.path.join(outdir, 'image.rec'), 'w')
    for i in range(3):
        img = rs.randint(0, 256, size=(4 + i, 6 + 2 * i, 3)).astype(np.uint8)
        label = float(i) if i != 2 else [i, i + 0.5]
        s = mx.recordio.pack(mx.recordio.IRHeader(0, label, i, 0), png_bytes(img))
        w.write_idx(i, s)
        # unpack_img returns OpenCV's BGR layout
        images['img%d' % i] = mx.image.imdecode(png_bytes(img), to_rgb=0).asnumpy()
    w.close()
    np.savez_compressed(os.path.join(outdir, 'images.npz'), **images)

    # MXNet's reader on truncated copies of seq.rec
    data = open(os.path.join(outdir, 'seq.rec'), 'rb').read()
    cuts = sorted(set([1, 5, 8, 9, 12, 13, 20, 44, 45, 70, 100, 140, 141, 200,
                       len(data) - 10004, len(data) - 4000, len(data) - 3, len(data) - 1]))
    tmp = os.path.join(outdir, '_trunc.rec')
    trunc = []
    for cut in cuts:
        with open(tmp, 'wb') as f:
            f.write(data[:cut])
        got, err = _read_all(mx, tmp)
        trunc.append({'cut': cut, 'n_read': len(got), 'error': err})
    os.remove(tmp)
    corrupt = bytearray(data)
    corrupt[36:40] = b'JUNK'  # the magic of the 4th record
    with open(tmp, 'wb') as f:
        f.write(bytes(corrupt))
    got, err = _read_all(mx, tmp)
    os.remove(tmp)
    manifest['truncated'] = trunc
    manifest['corrupt'] = {'offset': 36, 'n_read': len(got), 'error': err}
    with open(os.path.join(outdir, 'manifest.json'), 'w') as f:
        json.dump(manifest, f, indent=1)
