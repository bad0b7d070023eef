"""Views of the tournaments API, one module per resource."""
