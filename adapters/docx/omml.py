"""A linear, plain-text rendering of Office Math (OMML): ``(a+b)/c``, ``x_i^2``, ``∑_(k=1)^n k``.

Close to Word's own "linear format", simplified for readers and language models: fractions
become ``num/den``, scripts ``_`` and ``^``, radicals ``√(...)``, delimiters keep their
characters, n-ary operators ``∑_(sub)^(sup) body``. Deleted math (``w:del``) is left out.
"""
from __future__ import annotations

from .oxml import qn

__all__ = ["math_text"]

_M = qn("m:r").rpartition("}")[0] + "}"
_W = qn("w:r").rpartition("}")[0] + "}"
_VAL = qn("m:val")

_T = _M + "t"
_WT = _W + "t"
_SKIP = {_M + s for s in ("rPr", "ctrlPr", "oMathParaPr", "argPr")} | {
    _M + s + "Pr" for s in ("f", "sSub", "sSup", "sSubSup", "sPre", "rad", "d", "nary", "func", "acc", "bar", "box", "borderBox", "groupChr", "limLow", "limUpp", "eqArr", "m", "phant")
} | {_W + "rPr", _W + "del", _W + "moveFrom", _W + "bookmarkStart", _W + "bookmarkEnd", _W + "proofErr"}


def _wrap(s: str) -> str:
    """Parenthesise a script or operand unless it is one symbol or one number."""
    s = s.strip()
    if len(s) <= 1 or s.isdigit() or s.isalpha():
        return s
    if s[0] in "([{" and s[-1] in ")]}":
        return s
    return f"({s})"


def _prop(el, pr: str, name: str, default: str | None) -> str | None:
    props = el.find(_M + pr)
    if props is None:
        return default
    hit = props.find(_M + name)
    if hit is None:
        return default
    return hit.get(_VAL, default if name != "chr" else "")


def _child(el, name: str) -> str:
    ch = el.find(_M + name)
    return _render(ch) if ch is not None else ""


def _render(el) -> str:
    """The linear text of any OMML element (recursively)."""
    out: list[str] = []
    for ch in el:
        tag = ch.tag
        if not isinstance(tag, str) or tag in _SKIP:
            continue
        out.append(_element(ch, tag))
    return "".join(out)


def _element(ch, tag: str) -> str:
    name = tag[len(_M):] if tag.startswith(_M) else None
    if tag == _T or tag == _WT:
        return ch.text or ""
    if name is None:
        # w:r, w:ins, w:hyperlink, w:sdt... inside math: their text
        return _render(ch)
    if name == "f":
        num, den = _child(ch, "num"), _child(ch, "den")
        kind = _prop(ch, "fPr", "type", "bar")
        if kind == "lin":
            return f"{num}/{den}"
        return f"{_wrap(num)}/{_wrap(den)}"
    if name == "sSub":
        return f"{_child(ch, 'e')}_{_wrap(_child(ch, 'sub'))}"
    if name == "sSup":
        return f"{_child(ch, 'e')}^{_wrap(_child(ch, 'sup'))}"
    if name == "sSubSup":
        return f"{_child(ch, 'e')}_{_wrap(_child(ch, 'sub'))}^{_wrap(_child(ch, 'sup'))}"
    if name == "sPre":
        return f"_{_wrap(_child(ch, 'sub'))}^{_wrap(_child(ch, 'sup'))}{_child(ch, 'e')}"
    if name == "rad":
        deg = _child(ch, "deg").strip()
        body = _child(ch, "e")
        return f"√({deg}&{body})" if deg else f"√({body})"
    if name == "d":
        beg = _prop(ch, "dPr", "begChr", "(") or ""
        end = _prop(ch, "dPr", "endChr", ")") or ""
        sep = _prop(ch, "dPr", "sepChr", "|") or ""
        parts = [_render(e) for e in ch.iterchildren(_M + "e")]
        return f"{beg}{sep.join(parts)}{end}"
    if name == "nary":
        op = _prop(ch, "naryPr", "chr", "\u222b") or "\u222b"
        sub, sup = _child(ch, "sub"), _child(ch, "sup")
        s = op
        if sub:
            s += f"_{_wrap(sub)}"
        if sup:
            s += f"^{_wrap(sup)}"
        return f"{s} {_child(ch, 'e')}"
    if name == "func":
        fname, body = _child(ch, "fName"), _child(ch, "e")
        return f"{fname}{body}" if body.startswith("(") else f"{fname} {body}"
    if name == "acc":
        accent = _prop(ch, "accPr", "chr", "\u0302") or "\u0302"
        return f"{_child(ch, 'e')}{accent}"
    if name == "bar":
        return f"{_child(ch, 'e')}\u0305"
    if name == "limLow":
        return f"{_child(ch, 'e')}_{_wrap(_child(ch, 'lim'))}"
    if name == "limUpp":
        return f"{_child(ch, 'e')}^{_wrap(_child(ch, 'lim'))}"
    if name == "eqArr":
        return "■(" + "@".join(_render(e) for e in ch.iterchildren(_M + "e")) + ")"
    if name == "m":
        rows = []
        for mr in ch.iterchildren(_M + "mr"):
            rows.append("&".join(_render(e) for e in mr.iterchildren(_M + "e")))
        return "■(" + "@".join(rows) + ")"
    if name == "oMath":
        return _render(ch)
    # m:box, m:borderBox, m:groupChr, m:phant, m:e, m:num ... : their content
    return _render(ch)


def math_text(el) -> str:
    """Linear text of an ``m:oMath`` or ``m:oMathPara`` element.

    Several ``m:oMath`` inside one ``m:oMathPara`` are separated by a space.
    """
    if el.tag == _M + "oMathPara":
        return " ".join(_render(om).strip() for om in el.iterchildren(_M + "oMath"))
    return _render(el).strip()
