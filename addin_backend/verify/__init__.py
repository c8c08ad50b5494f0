"""Verification: what an edit touches, and what the edited (or reviewed) document must still satisfy.

After the edit engines in the flow (read -> units -> graph -> retrieval -> edits -> verification
-> writers); it reads the graph, retrieval's expansion and the edit operations, never the
service or the doors.

- :mod:`.impact` — what an edit of a unit or a span touches: its references, its dependents;
- :mod:`.after_edit` — :func:`~.after_edit.verify`: reference integrity, terminology and
  semantic drift of a document after a set of edits;
- :mod:`.anaphora` — anaphors whose antecedent an edit changed so that they dangle;
- :mod:`.review` — the review coming back: which operations a reviewer accepted, rejected or
  left, and what the result broke.
"""
