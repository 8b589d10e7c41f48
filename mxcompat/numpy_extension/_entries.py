"""The operators of an ``_npi`` namespace that a NumPy-extension module exports."""


def export(names, space, prefix, module=None):
    """Put the operators of ``space`` named ``prefix`` + a public name into the namespace
    ``names`` (a module's ``globals()``) under the public name (for ``_npx_``: ``_npx_relu``
    as ``relu``; ``_npx__image_resize`` belongs to ``_npx__image_``) and return the public
    names, sorted. With ``module``, each function takes its public name and that module."""
    found = {full[len(prefix):]: getattr(space, full) for full in dir(space)
             if full.startswith(prefix) and full[len(prefix):len(prefix) + 1] not in ('', '_')}
    if module is not None:
        for public, fn in found.items():
            fn.__name__ = fn.__qualname__ = public
            fn.__module__ = module
    names.update(found)
    return sorted(found)
