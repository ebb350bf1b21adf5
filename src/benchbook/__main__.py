"""`python -m benchbook`: the same command as `benchbook`."""

from benchbook.cli import app

app(prog_name="benchbook")
