"""What every app shares and no app owns: the domain error of the use cases
(``common.services``) and the REST API plumbing (``common.api``).

It sits below the domain apps (``tournaments`` ← ``scoring`` ← ``documents``) and imports
none of them.
"""
