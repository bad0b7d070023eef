"""What every app shares and no app owns: the domain error of the use cases
(``common.services``), who acts through which door (``common.actors``) and the REST API
plumbing (``common.api``).

It sits below the domain apps (``tournaments`` ← ``scoring`` ← ``documents``) and imports
none of them.
"""
