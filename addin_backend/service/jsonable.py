"""Results as strict JSON: what every service function returns passes through :func:`json_safe`."""
from __future__ import annotations

import math
from typing import Any

__all__ = ["json_safe"]


def json_safe(obj: Any) -> Any:
    """JSON without Infinity/NaN (a target's retrieval priority is infinite): those become null.

    >>> json_safe({"priority": float("inf"), "items": [1.5, float("nan")]})
    {'priority': None, 'items': [1.5, None]}
    """
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    return obj
