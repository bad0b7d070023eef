"""The game as sent by clients (the rules engine's record format plus ``number``) and the
stored game as answered. Schema only: the engine validates. Clients send the game's facts;
``seats``, ``dealer``, ``sitting_out``, ``compulsory`` and ``forced`` follow from the sheet
and are completed by the server (checked if sent)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from rules.contracts import Contract, SoloType

LEVELS = "`ansage`, `90`, `60`, `30`, `schwarz` or null."


class PartyAnnouncementsSerializer(serializers.Serializer[Any]):
    """The highest announcement of each party."""

    re = serializers.CharField(required=False, allow_null=True, help_text=LEVELS)
    kontra = serializers.CharField(required=False, allow_null=True, help_text=LEVELS)


class ExtraCountsSerializer(serializers.Serializer[Any]):
    fuchs = serializers.IntegerField(required=False, min_value=0)
    doppelkopf = serializers.IntegerField(required=False, min_value=0)
    karlchen = serializers.IntegerField(required=False, min_value=0)


class ExtrasSerializer(serializers.Serializer[Any]):
    re = ExtraCountsSerializer(required=False)
    kontra = ExtraCountsSerializer(required=False)


class SeatPointsSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    points = serializers.IntegerField()


class GameRecordFieldsSerializer(serializers.Serializer[Any]):
    """The fields of the rules engine's game record (see ``rules/record.py``)."""

    contract = serializers.ChoiceField(choices=[c.value for c in Contract], required=False)
    solo = serializers.ChoiceField(
        choices=[s.value for s in SoloType], required=False, allow_null=True
    )
    compulsory = serializers.BooleanField(
        required=False, help_text="Pflichtsolo. Derived from the sheet; checked if sent."
    )
    forced = serializers.BooleanField(
        required=False,
        help_text="Vorführen (forced solo). Derived from the sheet; checked if sent.",
    )
    hochzeit_partner_trick = serializers.IntegerField(required=False, allow_null=True)
    seats = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="The table's seats. Derived; checked if sent.",
    )
    sitting_out = serializers.IntegerField(
        required=False, allow_null=True, help_text="At five: the dealer. Derived; checked if sent."
    )
    re = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Seats of Re (the soloist alone in a solo).",
    )
    announcements = PartyAnnouncementsSerializer(required=False)
    re_points = serializers.IntegerField(required=False, help_text="Re's card points, 0..240.")
    re_tricks = serializers.IntegerField(required=False, allow_null=True)
    extras = ExtrasSerializer(required=False)
    penalties = SeatPointsSerializer(many=True, required=False)
    deductions = SeatPointsSerializer(many=True, required=False)
    bock = serializers.IntegerField(required=False)
    not_played = serializers.BooleanField(required=False)
    scores = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Transcription: the points per seat as on the paper sheet.",
    )


class GameInputSerializer(GameRecordFieldsSerializer):
    number = serializers.IntegerField(
        required=False, help_text="POST: the next game number (optional)."
    )
    dealer = serializers.IntegerField(
        required=False, help_text="Seat of the dealer. Derived from the sheet; checked if sent."
    )
    reason = serializers.CharField(
        required=False, max_length=300, help_text="Organizers: why a locked sheet is changed."
    )


class GameSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    record = GameRecordFieldsSerializer()
    winner = serializers.CharField(allow_null=True, help_text="re, kontra or null.")
    value = serializers.IntegerField()
    scores = serializers.DictField(child=serializers.IntegerField(), help_text="Points per seat.")
    breakdown = serializers.ListField(child=serializers.DictField())
    revision = serializers.IntegerField()


class NextGameSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    games_played = serializers.IntegerField()
    games_left = serializers.IntegerField()
    finished = serializers.BooleanField()
    dealer = serializers.IntegerField(allow_null=True)
    sitting_out = serializers.IntegerField(allow_null=True)
    forced = serializers.IntegerField(allow_null=True)
    compulsory_solo_allowed = serializers.BooleanField()
    compulsory_allowed = serializers.ListField(child=serializers.IntegerField())
    compulsory_open = serializers.ListField(child=serializers.IntegerField())


class SheetStateSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    status = serializers.CharField(help_text="`open`, `submitted` or `confirmed`.")
    mode = serializers.CharField(help_text="`entry` or `transcription`.")
    closed_unconfirmed = serializers.BooleanField(
        help_text="The organizers closed the series before the sheet was confirmed."
    )
    next = NextGameSerializer()


class EntrySerializer(serializers.Serializer[Any]):
    game = GameSerializer()
    sheet = SheetStateSerializer()


class SheetOnlySerializer(serializers.Serializer[Any]):
    sheet = SheetStateSerializer()
