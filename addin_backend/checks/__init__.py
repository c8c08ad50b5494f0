"""Document-wide checks: findings worth reporting without any edit (``ledger check``).

Beside the edit engines in the flow, on the fast graph stages: they read units and the graph,
never the service or the doors.

- :mod:`.document` — :func:`~.document.check_document`: broken references, numbering,
  terminology and house style together, each finding with a stable ``id``;
- :mod:`.terminology` — acronyms (undefined, defined twice, used before their definition) and
  one term spelled several ways;
- :mod:`.style` — the house-style checks and the style sheet.
"""
