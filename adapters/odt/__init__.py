"""The ODT adapter: OpenDocument text packages <-> the neutral model (reader; writer to come)."""
from __future__ import annotations

__all__: list[str] = []
