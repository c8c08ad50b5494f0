"""Reading Writer text through UNO the way the bridge needs it: paragraphs and tables in order,
the portions of a paragraph, how many cursor positions a portion takes, a paragraph's text with
fields as placeholders, and the signatures that tell one redline or comment from another."""
from __future__ import annotations

__all__ = ["ZERO", "annotation_signature", "date_key", "elements", "get", "is_table", "plain", "portions",
           "redline_signature", "width"]

def elements(xtext):
    out = []
    enum = xtext.createEnumeration()
    while enum.hasMoreElements():
        out.append(enum.nextElement())
    return out


def is_table(el):
    return el.supportsService("com.sun.star.text.TextTable")


def portions(par):
    out = []
    enum = par.createEnumeration()
    while enum.hasMoreElements():
        out.append(enum.nextElement())
    return out


def get(obj, name, default=None):
    try:
        return obj.getPropertyValue(name)
    except Exception:
        return default


def date_key(dt):
    if dt is None:
        return None
    return f"{dt.Year:04d}-{dt.Month:02d}-{dt.Day:02d}T{dt.Hours:02d}:{dt.Minutes:02d}:{dt.Seconds:02d}"


def redline_signature(r):
    """``(type, author, date)`` of a redline or a redline portion."""
    return (get(r, "RedlineType"), get(r, "RedlineAuthor"), date_key(get(r, "RedlineDateTime")))


def annotation_signature(field):
    return (field.Author, date_key(field.DateTimeValue), field.Content)


#: Portions that take no place in the text (marks and redline boundaries).
ZERO = {"Redline", "Bookmark", "SoftPageBreak", "AnnotationEnd", "ReferenceMark", "InContentMetadata", "Ruby"}


def width(por, kind=None):
    """Cursor positions a portion takes: its characters for text, one for a field, a note, a
    comment's anchor or a frame (whatever they show), none for a mark."""
    kind = kind or por.TextPortionType
    if kind == "Text":
        return len(por.getString())
    return 0 if kind in ZERO else 1


def plain(par):
    """A paragraph's text with each field, note or frame as U+FFFC (a field's shown result may
    differ between two copies: LibreOffice recomputes some and reads others from the file)."""
    out = []
    for por in portions(par):
        kind = por.TextPortionType
        if kind == "Text":
            out.append(por.getString())
        elif kind not in ZERO and kind != "Annotation":
            out.append("\ufffc")
    return "".join(out)
