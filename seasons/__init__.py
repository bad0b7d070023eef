"""Seasons: ranking lists across tournaments (Turnierserie, Cup, DDV-Rangliste)."""
