"""Team competitions: league match days, team scoring and team-aware seating.

The modules here are pure cores (plain data in, plain results out; no Django):
``schedule`` (who meets whom on which match day), ``scoring`` (a team's day result, the
group's victory points, the season table) and ``seating`` (one player of each team at every
table). See docs/teams.md.
"""
