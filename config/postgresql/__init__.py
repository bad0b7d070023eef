"""PostgreSQL as Django's own backend, with a health check that costs no round trip."""
