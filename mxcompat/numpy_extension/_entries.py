"""The operators of an ``_npi`` namespace that a NumPy-extension module exports."""


def entries(space, prefix):
    """{public name: function} of the operators of ``space`` named ``prefix`` + the public
    name (for ``_npx_``: ``_npx_relu`` as ``relu``; ``_npx__image_resize`` belongs to
    ``_npx__image_``)."""
    return {full[len(prefix):]: getattr(space, full) for full in dir(space)
            if full.startswith(prefix) and full[len(prefix):len(prefix) + 1] not in ('', '_')}
