"""A club's privacy notice (DSGVO): the text the club's owners wrote for the language, else
the default template (German or English) with the club's name and publication period."""

from __future__ import annotations

from django.template.loader import render_to_string

from clubs.models import Club

LANGUAGES = ("de", "en")


def default_notice(club: Club, language: str) -> str:
    language = language if language in LANGUAGES else "de"
    return render_to_string(f"clubs/privacy_default_{language}.txt", {"club": club}).strip()


def privacy_notice(club: Club, language: str) -> str:
    own = club.privacy_notice_en if language == "en" else club.privacy_notice_de
    return own or default_notice(club, language)
