"""Team competitions: league match days, team scoring and team-aware seating.

The pure cores (plain data in, plain results out; no Django) are ``schedule`` (who meets
whom on which match day), ``scoring`` (a team's day result, the group's victory points, the
season table) and ``seating`` (one player of each team at every table). ``models``,
``services`` and ``standings`` store leagues, teams, squads, match days and line-ups, and
read the team results from the group tournaments' totals. See docs/teams.md.
"""
