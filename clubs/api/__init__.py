"""Clubs in the REST API: the owning club as a field of other resources (``fields``), and
a user's clubs, their members and invitations (``views``)."""

from clubs.api.fields import ClubField

__all__ = ["ClubField"]
