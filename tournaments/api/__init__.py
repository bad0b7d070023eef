"""The REST API of the tournaments app (``/api/v1/``): parse the request, check who may do
it, call the services in ``tournaments.services``, render the result."""
