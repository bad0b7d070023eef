"""Views of the results API, one module per resource."""
