"""Serializers of the results API. The game record itself is validated by the rules
engine (``rules.record.parse_record``); the serializers here describe it for the schema."""
