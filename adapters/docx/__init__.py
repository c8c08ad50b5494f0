"""The DOCX adapter: WordprocessingML packages -> the neutral model (writer to come)."""
from __future__ import annotations

__all__: list[str] = []
