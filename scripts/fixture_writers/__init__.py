"""Fixture writers: each module has write(mx, outdir), run by scripts/make_fixtures.py."""
