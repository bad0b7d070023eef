"""Use cases of the tournaments app: each loads rows, calls a pure core where there is one,
and saves inside one transaction. Views, API, tasks and commands call these functions."""


class ServiceError(Exception):
    """A refused step. ``code`` is stable; ``message`` is already translated for people;
    ``field`` names the form field concerned, if any."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
