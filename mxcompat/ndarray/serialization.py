"""MXNet's NDArray file format (placeholder until the serializer lands)."""


def save(fname, data):
    raise NotImplementedError('mx.nd.save')


def load(fname):
    raise NotImplementedError('mx.nd.load')


def load_frombuffer(buf):
    raise NotImplementedError('mx.nd.load_frombuffer')
