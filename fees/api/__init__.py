"""The fee work through the REST API (``/api/v1/tournaments/<slug>/fees/`` and
``…/prizes/``, ``…/payouts/``): the same use cases and readings as the fee pages, for the
same people (the owners, organizers and cashiers of the tournament's club)."""
