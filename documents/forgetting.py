"""Stored documents that may name a player who may no longer be named (DSGVO): of his
tournaments once he is anonymized, of a tournament once its club's publication period is
over. They are deleted with their files and the stored pieces they were joined from
(``documents.pieces``); asked for again, they are made from the data as
it is published then."""

from __future__ import annotations

import datetime

from documents import pieces
from documents.models import GeneratedDocument
from tournaments.models import Tournament
from tournaments.publication import expired_tournaments, retention_ends


def forget_documents(sender: object, *, tournament_ids: list[int], **kwargs: object) -> None:
    """Receiver of ``tournaments.signals.player_anonymized`` and ``player_consent_changed``:
    the stored documents of the player's tournaments (their files too) may name him as he
    may no longer be named; they are deleted and made again from the data as it is
    published now when asked for next."""
    for document in GeneratedDocument.objects.filter(tournament_id__in=tournament_ids):
        if document.file:
            document.file.delete(save=False)
        document.delete()
    pieces.remove(tournament_ids)


def forget_expired_documents(today: datetime.date | None = None) -> list[tuple[Tournament, int]]:
    """The nightly step of the publication period (``tournaments.publication``): pages
    decide when they are read, but a document stored before a tournament's period ended
    still names its players; those documents are deleted (made again, anonymized, when
    asked for). Returns every expired tournament with the number of documents deleted."""
    done = []
    for tournament in expired_tournaments(today):
        ends = retention_ends(tournament)
        assert ends is not None  # expired
        stale = GeneratedDocument.objects.filter(tournament=tournament, created_at__date__lt=ends)
        count = 0
        for document in stale:
            if document.file:
                document.file.delete(save=False)
            document.delete()
            count += 1
        pieces.remove([tournament.pk])
        done.append((tournament, count))
    return done
