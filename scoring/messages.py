"""People's words for the rules engine's error and finding codes (German and English).

The engine speaks in codes (``rules.errors.ERROR_CODES``, ``rules.series.FINDING_CODES``);
this module is the one place that turns them into sentences for the entry form and the API.
A test checks that every code has a message here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.replay import Finding
from rules.ruleset import DDV, RuleSet

ERROR_MESSAGES = {
    "invalid_json": gettext_lazy("The entry could not be read."),
    "not_an_object": gettext_lazy("The entry could not be read."),
    "unknown_field": gettext_lazy("Unknown field."),
    "missing_field": gettext_lazy("This field is required."),
    "wrong_type": gettext_lazy("This value has the wrong type."),
    "unknown_contract": gettext_lazy("Choose a game type."),
    "unknown_solo_type": gettext_lazy("Choose a solo type."),
    "solo_type_not_allowed": gettext_lazy("A solo type belongs only to a solo."),
    "solo_flag_not_allowed": gettext_lazy("Only a solo can be a compulsory or forced solo."),
    "forced_not_compulsory": gettext_lazy("A forced solo is always a compulsory solo."),
    "hochzeit_partner_trick_out_of_range": gettext_lazy(
        "The partner is found in trick 1, 2 or 3, or the Hochzeiter plays alone."
    ),
    "hochzeit_partner_trick_not_allowed": gettext_lazy(
        "A partner trick belongs only to a Hochzeit."
    ),
    "not_played_game_fields": gettext_lazy(
        "A game that was not played carries only penalty points."
    ),
    "derived_mismatch": gettext_lazy(
        "The dealer, the player sitting out or the compulsory or forced solo does not match "
        "the games before it on the sheet: these follow from the sheet."
    ),
    "invalid_seats": gettext_lazy("The seats do not match the table."),
    "sitting_out_required": gettext_lazy("At a table of five the dealer sits out."),
    "sitting_out_not_allowed": gettext_lazy("Nobody sits out at a table of four."),
    "sitting_out_not_dealer": gettext_lazy("At a table of five the dealer sits out."),
    "seat_not_at_table": gettext_lazy("This seat is not at the table."),
    "seat_sitting_out": gettext_lazy("The dealer sits out and does not take part."),
    "re_party_size": gettext_lazy(
        "Choose two Re players in a normal game, or the soloist alone in a solo."
    ),
    "re_duplicate_seat": gettext_lazy("A player was chosen twice."),
    "unknown_announcement": gettext_lazy("Unknown announcement."),
    "re_points_out_of_range": gettext_lazy("Re's card points lie between 0 and 240."),
    "re_points_impossible": gettext_lazy(
        "No cards add up to these card points: a party never has 1 or 239."
    ),
    "re_tricks_out_of_range": gettext_lazy("Re's tricks lie between 0 and 12."),
    "points_tricks_inconsistent": gettext_lazy("These tricks cannot hold these card points."),
    "hochzeit_tricks_inconsistent": gettext_lazy(
        "In a Hochzeit, Re won at least the tricks up to the clarifying trick."
    ),
    "extras_not_allowed": gettext_lazy("There are no extras in a solo-type game."),
    "extra_count_negative": gettext_lazy("A count cannot be negative."),
    "fuchs_total_exceeded": gettext_lazy("There are only two foxes (Füchse) per game."),
    "karlchen_total_exceeded": gettext_lazy("Only one Karlchen per game."),
    "fuchs_without_trick": gettext_lazy("A party without a trick cannot catch a fox."),
    "karlchen_without_trick": gettext_lazy("A party without a trick cannot win the last trick."),
    "doppelkopf_exceeds_tricks": gettext_lazy("More Doppelköpfe than tricks."),
    "doppelkopf_exceeds_points": gettext_lazy(
        "The party's card points cannot hold that many Doppelköpfe (40 each)."
    ),
    "doppelkopf_total_exceeded": gettext_lazy(
        "At most four Doppelköpfe per game (both parties together): each takes four of the "
        "16 aces and tens."
    ),
    "doppelkopf_inconsistent": gettext_lazy(
        "These card points and tricks cannot hold these Doppelköpfe: each is four aces or tens."
    ),
    "extras_inconsistent": gettext_lazy(
        "These card points and tricks cannot hold these extras: a caught fox is a diamond ace "
        "beaten in the catching party's trick, the Karlchen the last trick won by a club jack "
        "(no queen or ten of hearts in it)."
    ),
    "penalties_not_zero_sum": gettext_lazy("Penalty points must add up to zero."),
    "penalty_out_of_range": gettext_lazy("Penalty points lie between −48 and 48 per player."),
    "deduction_out_of_range": gettext_lazy(
        "A deduction lies between −%(max_deduction)s and −1 points."
    ),
    "bock_out_of_range": gettext_lazy("This rule set does not allow that many Bock games."),
    "house_rule_off": gettext_lazy("This rule set does not have this house rule."),
    "schweinchen_total_exceeded": gettext_lazy(
        "There is at most one Schweinchen and one Superschweinchen per game."
    ),
    "superschweinchen_without_schweinchen": gettext_lazy(
        "A Superschweinchen needs a Schweinchen in the same game."
    ),
    "schweinchen_fuchs_conflict": gettext_lazy("No fox can be caught in a game with Schweinchen."),
    "armut_not_normal": gettext_lazy("An Armut is played as a normal game."),
    "armut_parties": gettext_lazy("The poor player and the taker are the two Re players."),
    "armut_trumps": gettext_lazy(
        "The poor player has too many trumps for an Armut under this rule set."
    ),
    "unknown_thrown_in": gettext_lazy("Choose why the hand was thrown in."),
    "thrown_in_game_fields": gettext_lazy(
        "A hand that was thrown in carries only the players and the dealer."
    ),
    "scores_seats_mismatch": gettext_lazy("Enter the points of every player at the table."),
    "invalid_table_size": gettext_lazy("This table size is not allowed."),
    "internal_error": gettext_lazy("The entry could not be checked. Please tell the organizers."),
}

FINDING_MESSAGES = {
    "invalid_game": gettext_lazy("Game %(game)s is invalid."),
    "table_size_mismatch": gettext_lazy("The game does not match the size of the table."),
    "game_after_series_end": gettext_lazy("The series was already complete before this game."),
    "dealer_wrong": gettext_lazy("This game is dealt by %(expected)s, not by %(actual)s."),
    "forced_solo_expected": gettext_lazy(
        "A forced solo (Vorführen) is due now: the compulsory solo of %(player)s."
    ),
    "forced_solo_unexpected": gettext_lazy("No forced solo is due now."),
    "forced_wrong_player": gettext_lazy(
        "The forced solo is due from %(expected)s, not from %(actual)s."
    ),
    "compulsory_solo_twice": gettext_lazy(
        "The compulsory solo of %(seat)s has been played already."
    ),
    "voluntary_solo_before_compulsory": gettext_lazy(
        "The compulsory solo of %(seat)s is still open: a player's first solo is the "
        "compulsory one."
    ),
    "compulsory_solo_missing": gettext_lazy("The compulsory solo of %(seat)s is missing."),
    "too_few_games": gettext_lazy("%(actual)s of %(expected)s games entered."),
    "scores_mismatch": gettext_lazy("The points differ from the computed ones."),
    "row_sum_not_zero": gettext_lazy("The row does not add up to zero (sum %(sum)s)."),
    "sitting_out_scored": gettext_lazy("The sitting dealer (%(seat)s) must score 0."),
    "row_parity": gettext_lazy("The points are not all even or all odd."),
    "row_shape": gettext_lazy("These points are not the shape of a normal game or a solo."),
}


def engine_error_message(code: str, field: str, ruleset: RuleSet = DDV) -> str:
    """The engine's refusal in words; bounds in the message come from the rule set."""
    message = ERROR_MESSAGES.get(code)
    if message is None:
        return _("The entry is not valid (%(code)s).") % {"code": code}
    return str(message) % _Lenient(max_deduction=ruleset.max_deduction)


class _Lenient(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return "?"


#: The data of a finding that are seats, per code. A page that knows the seating shows the
#: player's name there; the API, which does not, says "seat 4".
SEAT_DATA: dict[str, tuple[str, ...]] = {
    "dealer_wrong": ("expected", "actual"),
    "forced_solo_expected": ("player",),
    "forced_solo_unexpected": ("player",),
    "forced_wrong_player": ("expected", "actual"),
    "compulsory_solo_twice": ("seat",),
    "voluntary_solo_before_compulsory": ("seat",),
    "compulsory_solo_missing": ("seat",),
    "sitting_out_scored": ("seat",),
}


def seat_label(seat: object, names: Mapping[int, str] | None = None) -> str:
    """A seat as a sentence names it: the player's name where known, else "seat 4"."""
    name = names.get(seat) if names and isinstance(seat, int) else None
    return name or _("seat %(seat)s") % {"seat": seat}


def finding_message(
    code: str,
    data: Mapping[str, object],
    game: int | None = None,
    names: Mapping[int, str] | None = None,
) -> str:
    """The finding in words; ``names`` (seat -> player) puts names in place of seats."""
    template = FINDING_MESSAGES.get(code)
    if template is None:
        return _("Check failed (%(code)s).") % {"code": code}
    values: dict[str, object] = {**data, "game": game if game is not None else "?"}
    for key in SEAT_DATA.get(code, ()):
        if key in values:
            values[key] = seat_label(values[key], names)
    return str(template) % _Lenient(values)


@dataclass(frozen=True)
class ToldFinding:
    """A finding as a page shows it: its row, its words, and whether it is an error."""

    game: int | None
    message: str
    error: bool


def tell(findings: Iterable[Finding], names: Mapping[int, str] | None = None) -> list[ToldFinding]:
    """The engine's findings in words; ``names`` (seat -> player) puts names in place of
    seats."""
    return [
        ToldFinding(f.game, finding_message(f.code, f.data, f.game, names), f.is_error)
        for f in findings
    ]


def named_finding(finding: Mapping[str, object], names: Mapping[int, str]) -> str:
    """The message of a finding as an error's data carries it for API clients (``code``,
    ``data``, ``game``), with the players' names."""
    data = finding.get("data")
    game = finding.get("game")
    return finding_message(
        str(finding.get("code", "")),
        data if isinstance(data, Mapping) else {},
        game if isinstance(game, int) else None,
        names,
    )


def finding_json(finding: Finding) -> dict[str, object]:
    """A finding for API clients: the engine's code and data, and the sentence."""
    return {
        **finding.to_json(),
        "message": finding_message(finding.code, finding.data, finding.game),
    }


#: Labels of the breakdown items (rules.contracts.Item), for explaining a game's value. Each
#: line is shown after the party that scores it ("Kontra: other side under 90 +1"), so a
#: label says whose achievement or announcement it is, never a bare "under 90".
ITEM_LABELS = {
    "won": gettext_lazy("game won"),
    "under_90": gettext_lazy("other side under 90"),
    "under_60": gettext_lazy("other side under 60"),
    "under_30": gettext_lazy("other side under 30"),
    "schwarz": gettext_lazy("other side schwarz (no trick)"),
    "announced_re": gettext_lazy("Re's announcement"),
    "announced_kontra": gettext_lazy("Kontra's announcement"),
    "absage_re_90": gettext_lazy("Re's Absage “no 90”"),
    "absage_re_60": gettext_lazy("Re's Absage “no 60”"),
    "absage_re_30": gettext_lazy("Re's Absage “no 30”"),
    "absage_re_schwarz": gettext_lazy("Re's Absage “schwarz”"),
    "absage_kontra_90": gettext_lazy("Kontra's Absage “no 90”"),
    "absage_kontra_60": gettext_lazy("Kontra's Absage “no 60”"),
    "absage_kontra_30": gettext_lazy("Kontra's Absage “no 30”"),
    "absage_kontra_schwarz": gettext_lazy("Kontra's Absage “schwarz”"),
    "reached_120_vs_90": gettext_lazy("120 reached against the Absage “no 90”"),
    "reached_90_vs_60": gettext_lazy("90 reached against the Absage “no 60”"),
    "reached_60_vs_30": gettext_lazy("60 reached against the Absage “no 30”"),
    "reached_30_vs_schwarz": gettext_lazy("30 reached against the Absage “schwarz”"),
    "gegen_die_alten": gettext_lazy("against the club queens"),
    "fuchs": gettext_lazy("fox caught"),
    "doppelkopf": gettext_lazy("Doppelkopf"),
    "karlchen": gettext_lazy("Karlchen"),
    "no_back_door": gettext_lazy("no back door"),
    "bock": gettext_lazy("Bock"),
}


def breakdown_lines(breakdown: list[dict[str, object]]) -> list[dict[str, object]]:
    return [
        {**line, "label": str(ITEM_LABELS.get(str(line["item"]), line["item"]))}
        for line in breakdown
    ]
