"""Use cases of the tournaments app: each loads rows, calls a pure core where there is one,
and saves inside one transaction. Views, API, tasks and commands call these functions; their
refusals are ``common.services.ServiceError``."""
