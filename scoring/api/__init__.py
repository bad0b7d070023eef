"""The REST API of the results app: games of a table, its score sheet, standings, and the
``Table`` authentication of table captains."""
