"""A minimal Django app for ``bench/entry_bench.py``: one POST that inserts one row,
and the count of SQL statements of every request (``statements.py``, outermost middleware).

Installed only by the bench's own settings (``bench/settings.py``);
it gives the benchmark a floor to compare the game entry endpoint with: the same server,
middleware, DRF and database, but no work of its own.
"""
