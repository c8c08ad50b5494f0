"""The server's tracked changes brought into the open document, exactly where the server put them.

The server writes LEDGER's operations into its copy of the document: one writer for every door,
with the paragraph marks, fields and comments it decides. The bridge does not write them a second
time its own way. It opens that copy without a view (the *served* copy, ``S``) and makes the open
document (``D``) hold the same changes:

1. every piece of text ``S`` shows as newly inserted is inserted into ``D`` at the same place,
   recorded as an insertion (text with the character attributes it has in ``S``, fields as
   copies of ``S``'s fields, new paragraphs with ``S``'s paragraph attributes); ``D`` then reads
   as ``S`` paragraph for paragraph;
2. each range ``S`` shows as newly deleted is deleted in ``D`` with change recording on, so that
   LibreOffice marks exactly that range deleted (deleted sections keep their paragraph marks
   where the server put them);
3. each new comment of ``S`` is anchored on the same words, with its author, initials and date,
   unrecorded: a comment is not a tracked insertion.

The changes are recorded by LibreOffice itself, so the undo stack holds them (a redline made
with ``XRedline.makeRedline`` is not undoable), by the served copy's author (:class:`author_as`).
"New" means not in ``D`` before: the redlines and comments ``D`` already held (another
reviewer's, an earlier LEDGER edit's) are in ``S`` too and are left alone. :func:`compare` then
reads both documents (paragraphs, redlines, comments); the caller rolls ``D`` back when they
differ.

What cannot be copied this way (an inserted table or picture, a change inside a text frame, a
note or a header) raises :class:`Unsupported` before ``D`` is changed.
"""
from __future__ import annotations

from collections import Counter

from ledger_portions import ZERO, annotation_signature, elements, get, is_table, plain, portions, \
    redline_signature, width

__all__ = ["CHAR_PROPS", "PARA_PROPS", "MirrorError", "Unsupported", "author_as", "mirror"]

_PARAGRAPH_BREAK = 0  # com.sun.star.text.ControlCharacter.PARAGRAPH_BREAK

#: Paragraph attributes copied onto a paragraph that LEDGER's insertion made or changed, after its style.
PARA_PROPS = ("NumberingStyleName", "NumberingLevel", "NumberingIsNumber", "ParaIsNumberingRestart",
              "NumberingStartValue", "OutlineLevel", "ParaAdjust", "ParaLeftMargin", "ParaRightMargin",
              "ParaFirstLineIndent", "ParaTopMargin", "ParaBottomMargin", "ParaLineSpacing",
              "ParaKeepTogether", "ParaSplit", "ParaBackColor")
#: Character attributes copied onto inserted text (values compared; the style first).
CHAR_PROPS = ("CharWeight", "CharPosture", "CharUnderline", "CharHeight", "CharFontName", "CharColor",
              "CharBackColor", "CharEscapement", "CharEscapementHeight", "CharCaseMap", "CharStrikeout",
              "CharHidden", "CharLocale", "HyperLinkURL", "HyperLinkTarget")


class MirrorError(Exception):
    """The open document does not read as the served copy where it should (it changed meanwhile)."""


class Unsupported(MirrorError):
    """A change of the served copy this mirror cannot copy (an inserted table, a frame, a header)."""


# --- reading ----------------------------------------------------------------------------------


def _existing(doc):
    """Multisets of the redline and comment signatures ``doc`` holds."""
    reds = Counter()
    enum = doc.getRedlines().createEnumeration()
    while enum.hasMoreElements():
        reds[redline_signature(enum.nextElement())] += 1
    notes = Counter()
    enum = doc.getTextFields().createEnumeration()
    while enum.hasMoreElements():
        f = enum.nextElement()
        if f.supportsService("com.sun.star.text.textfield.Annotation"):
            notes[annotation_signature(f)] += 1
    return reds, notes


class _Novelty:
    """Tells the served copy's new redlines and comments from those the open document has: a
    signature counts as old as many times as the open document holds it."""

    def __init__(self, doc):
        self.reds, self.notes = _existing(doc)
        self.old_total = sum(self.reds.values())
        self.new_reds = set()  # identifiers of new redlines
        self.new_notes = set()  # names of new comments

    def redline_start(self, por):
        ident = get(por, "RedlineIdentifier")
        sig = redline_signature(por)
        if self.reds[sig] > 0:
            self.reds[sig] -= 1
            return False
        self.new_reds.add(ident)
        return True

    def is_new_redline(self, por):
        return get(por, "RedlineIdentifier") in self.new_reds

    def annotation(self, field):
        sig = annotation_signature(field)
        if self.notes[sig] > 0:
            self.notes[sig] -= 1
            return False
        return True


# --- positions --------------------------------------------------------------------------------

def _cursor_at(xtext, par, offset):
    """A collapsed cursor ``offset`` cursor positions into ``par`` (:func:`width`)."""
    acc = 0
    for por in portions(par):
        kind = por.TextPortionType
        w = width(por, kind)
        if kind == "Text" and acc <= offset <= acc + w:
            cur = xtext.createTextCursorByRange(por.getStart())
            if offset > acc:
                cur.goRight(offset - acc, False)
            return cur
        if w and offset == acc:
            return xtext.createTextCursorByRange(por.getStart())
        acc += w
    if offset == acc:
        return xtext.createTextCursorByRange(par.getEnd())
    raise MirrorError(f"position {offset} is not in the paragraph ({acc} positions)")


# --- step 1: insertions -----------------------------------------------------------------------


class _Group:
    """Consecutive inserted pieces at one place of the open document."""

    def __init__(self, d_text, d_par, offset):
        self.d_text, self.d_par, self.offset = d_text, d_par, offset
        self.pieces = []
        self.cursor = None


def _plan_insertions(s_text, d_text, novelty, groups, path="body"):
    """Walks one text of the served copy beside the same text of the open document."""
    s_elems, d_elems = elements(s_text), elements(d_text)
    j, k = 0, 0
    inserting = set()
    group = None

    def piece(p):
        nonlocal group
        if j >= len(d_elems) or is_table(d_elems[j]):
            raise MirrorError(f"{path}: the open document has no paragraph where the served copy inserts text")
        if group is None or group.d_par is not d_elems[j] or group.offset != k:
            group = _Group(d_text, d_elems[j], k)
            groups.append(group)
        group.pieces.append(p)

    for el in s_elems:
        if is_table(el):
            if inserting:
                raise Unsupported("LEDGER inserts a table here")
            if j >= len(d_elems) or not is_table(d_elems[j]):
                raise MirrorError(f"{path}: the open document has no table where the served copy has one")
            d_tab = d_elems[j]
            names = el.getCellNames()
            if sorted(names) != sorted(d_tab.getCellNames()):
                raise Unsupported("LEDGER changes the rows or columns of a table")
            for name in names:
                _plan_insertions(el.getCellByName(name), d_tab.getCellByName(name), novelty, groups,
                                 f"{path}/{el.getName()}.{name}")
            j, k, group = j + 1, 0, None
            continue
        for por in portions(el):
            kind = por.TextPortionType
            if kind == "Redline":
                start = bool(get(por, "IsStart"))
                collapsed = bool(get(por, "IsCollapsed"))
                is_new = novelty.redline_start(por) if (start or collapsed) else novelty.is_new_redline(por)
                rtype = get(por, "RedlineType")
                if is_new and rtype not in ("Insert", "Delete"):
                    raise Unsupported(f"LEDGER's change of kind {rtype} cannot be copied")
                if is_new and rtype == "Insert":
                    ident = get(por, "RedlineIdentifier")
                    if start and not collapsed:
                        inserting.add(ident)
                    elif not start:
                        inserting.discard(ident)
                continue
            if kind == "Annotation":
                field = get(por, "TextField")
                if field is None or get(field, "Name") not in novelty.new_notes:
                    k += 1
                continue
            if kind in ZERO:
                continue
            s = por.getString()
            if inserting:
                if kind == "Text":
                    piece(("text", s, por))
                elif kind == "TextField":
                    piece(("field", s, por))
                else:
                    raise Unsupported(f"LEDGER inserts a {kind} here")
                continue
            if kind == "Footnote":
                _check_footnote(por, novelty, path)
            k += width(por, kind)
        if inserting:
            piece(("break", "", el))
        else:
            j, k, group = j + 1, 0, None
    if inserting:
        raise MirrorError(f"{path}: an insertion of the served copy does not end")


def _check_footnote(por, novelty, path):
    """A note with a new change of its own is not copied (not yet): refuse it before anything changes."""
    note = get(por, "Footnote")
    if note is None:
        return
    for el in elements(note):
        if is_table(el):
            continue
        for p in portions(el):
            if p.TextPortionType == "Redline" and get(p, "IsStart") and redline_signature(p) not in novelty.reds:
                raise Unsupported("LEDGER changes the text of a footnote")


def _copy_props(src, dst, names):
    for name in names:
        try:
            want = src.getPropertyValue(name)
            if dst.getPropertyValue(name) != want:
                dst.setPropertyValue(name, want)
        except Exception:
            continue


def _copy_field(doc, field):
    """A copy of ``field`` (same service, the same writable properties, the same master)."""
    names = [n for n in field.getSupportedServiceNames() if n.startswith("com.sun.star.text.textfield.")
             or n.startswith("com.sun.star.text.TextField.")]
    if not names:
        raise Unsupported("LEDGER inserts a field of an unknown kind")
    new = doc.createInstance(names[0])
    master = None
    try:
        master = field.getTextFieldMaster()
    except Exception:
        master = None
    if master is not None:
        masters = doc.getTextFieldMasters()
        names = masters.getElementNames()
        full = get(master, "InstanceName")
        if full not in names:
            short = get(master, "Name")
            full = next((m for m in names if short and m.endswith("." + str(short))), None)
        if full is None:
            raise Unsupported("LEDGER inserts a field whose master is not in this document")
        new.attachTextFieldMaster(masters.getByName(full))
    for prop in field.getPropertySetInfo().getProperties():
        if prop.Attributes & 16:  # READONLY
            continue
        try:
            new.setPropertyValue(prop.Name, field.getPropertyValue(prop.Name))
        except Exception:
            continue
    return new


def _recording(doc, on):
    doc.setPropertyValue("RecordChanges", on)


def _apply_group(doc, group):
    """Inserts one place's pieces as LibreOffice records an insertion (an undoable redline by the
    current author); the attributes they take from the served copy are set unrecorded."""
    xt, cur = group.d_text, group.cursor
    for kind, text, src in group.pieces:
        if kind == "text":
            _recording(doc, True)
            cur.setString(text)  # selects what it inserted
            _recording(doc, False)
            style = get(src, "CharStyleName")
            if style is not None and get(cur, "CharStyleName") != style:
                cur.setPropertyValue("CharStyleName", style)
            _copy_props(src, cur, CHAR_PROPS)
            cur.collapseToEnd()
        elif kind == "field":
            field = _copy_field(doc, src.TextField)
            _recording(doc, True)
            xt.insertTextContent(cur, field, False)
            _recording(doc, False)
        else:
            _recording(doc, True)
            xt.insertControlCharacter(cur, _PARAGRAPH_BREAK, False)
            _recording(doc, False)


# --- step 2 and 3: redlines, paragraph attributes, comments ------------------------------------


def _pair_walk(s_text, d_text, novelty_ids, touched_ids, todo, path="body"):
    """The served copy and the open document now read alike: the new redlines' and comments'
    ranges, and the new paragraphs (their attributes come from the served copy: a paragraph is
    new when its start lies in a new insertion that goes on past its end)."""
    s_elems, d_elems = elements(s_text), elements(d_text)
    inserting = set()
    if len(s_elems) != len(d_elems):
        raise MirrorError(f"{path}: {len(d_elems)} paragraphs where the served copy has {len(s_elems)}")
    for el, d_el in zip(s_elems, d_elems):
        if is_table(el) != is_table(d_el):
            raise MirrorError(f"{path}: a table and a paragraph do not match")
        if is_table(el):
            for name in el.getCellNames():
                _pair_walk(el.getCellByName(name), d_el.getCellByName(name), novelty_ids, touched_ids, todo,
                           f"{path}/{el.getName()}.{name}")
            continue
        s_string, d_string = plain(el), plain(d_el)
        if s_string != d_string:
            raise MirrorError(f"{path}: the open document reads {d_string[:60]!r} where the served copy reads "
                              f"{s_string[:60]!r}")
        k = 0
        open_at_start = bool(inserting)
        started_here = set()
        for por in portions(el):
            kind = por.TextPortionType
            if kind == "Redline":
                ident = get(por, "RedlineIdentifier")
                if ident in novelty_ids:
                    todo["reds"].setdefault(ident, {"props": por, "path": path})
                    entry = todo["reds"][ident]
                    start = bool(get(por, "IsStart"))
                    collapsed = bool(get(por, "IsCollapsed"))
                    if start or collapsed:
                        entry["start"] = (d_text, d_el, k)
                    if not start or collapsed:
                        entry["end"] = (d_text, d_el, k)
                    if get(por, "RedlineType") == "Insert" and not collapsed:
                        if start:
                            inserting.add(ident)
                            if k == 0:
                                started_here.add(ident)
                        else:
                            inserting.discard(ident)
                            started_here.discard(ident)
                continue
            if kind == "Annotation":
                field = get(por, "TextField")
                if field is not None and get(field, "Name") in todo["new_notes_ids"]:
                    todo["notes"].append({"field": field, "start": (d_text, d_el, k), "end": None})
                else:
                    k += 1
                continue
            if kind == "AnnotationEnd":
                name = get(get(por, "Bookmark"), "Name") if get(por, "Bookmark") is not None else None
                for n in reversed(todo["notes"]):
                    if n["end"] is None and (name is None or n["field"].getPropertyValue("Name") == name):
                        n["end"] = (d_text, d_el, k)
                        break
                continue
            k += width(por, kind)
        if open_at_start or started_here & inserting:
            if id(d_el) not in touched_ids:
                touched_ids.add(id(d_el))
                todo["touched"].append((el, d_el))


def _new_notes(served, novelty):
    """The served copy's comments the open document does not hold (their names)."""
    out = set()
    keep = []
    enum = served.getTextFields().createEnumeration()
    while enum.hasMoreElements():
        f = enum.nextElement()
        if f.supportsService("com.sun.star.text.textfield.Annotation") and novelty.annotation(f):
            out.add(get(f, "Name"))
            keep.append(f)
    return out, keep


def _range(place_a, place_b):
    xt_a, par_a, k_a = place_a
    xt_b, par_b, k_b = place_b
    a = _cursor_at(xt_a, par_a, k_a)
    b = _cursor_at(xt_b, par_b, k_b)
    cur = xt_a.createTextCursorByRange(a)
    cur.gotoRange(b, True)
    return cur


def _prop(name, value):
    import uno

    p = uno.createUnoStruct("com.sun.star.beans.PropertyValue")
    p.Name, p.Value = name, value
    return p


def _delete(doc, cur):
    """Deletes a range as LibreOffice records a deletion (the text stays, marked deleted)."""
    _recording(doc, True)
    cur.setString("")
    _recording(doc, False)


def _add_note(doc, note):
    src = note["field"]
    end = note["end"] or note["start"]
    cur = _range(note["start"], end)
    field = doc.createInstance("com.sun.star.text.textfield.Annotation")
    for name in ("Author", "Initials", "DateTimeValue", "Content", "Resolved"):
        try:
            field.setPropertyValue(name, src.getPropertyValue(name))
        except Exception:
            continue
    xt = note["start"][0]
    xt.insertTextContent(cur, field, not cur.isCollapsed())


def mirror(ctx, served, doc) -> dict:
    """Makes ``doc`` hold ``served``'s new changes; ``{"inserted", "redlines", "comments"}``.

    The insertions and deletions are recorded by LibreOffice itself (so the undo stack holds
    them), by the served copy's author (set as the user's name meanwhile, :func:`author_as`);
    LibreOffice dates a recorded change itself, so a redline's date is when the edit lands here,
    seconds after the server's. The comments keep the served copy's dates.

    :raise Unsupported: before anything changed, for a change this mirror cannot copy.
    :raise MirrorError: the documents do not read alike (``doc`` may be half changed: the caller
        rolls it back, see :func:`ledger_writer.apply_served`).
    """
    novelty = _Novelty(doc)
    new_ids, new_fields = _new_notes(served, novelty)
    novelty.new_notes = new_ids
    groups = []
    _plan_insertions(served.getText(), doc.getText(), novelty, groups)
    total_new = _count_new(served, novelty)
    if total_new > len(novelty.new_reds):
        raise Unsupported("LEDGER changes text outside the body (a header, a footer, a frame or a note)")
    authors = _new_authors(served, novelty)
    if len(authors) > 1:
        raise Unsupported(f"the changes have {len(authors)} authors")
    _recording(doc, False)
    with author_as(ctx, next(iter(authors), None)):
        for g in groups:  # every place first, then the insertions from the last to the first
            g.cursor = _cursor_at(g.d_text, g.d_par, g.offset)
        for g in reversed(groups):
            _apply_group(doc, g)
        todo = {"reds": {}, "notes": [], "touched": [], "new_notes_ids": new_ids}
        _pair_walk(served.getText(), doc.getText(), novelty.new_reds, set(), todo)
        seen = set()
        for s_par, d_par in todo["touched"]:
            if id(d_par) in seen:
                continue
            seen.add(id(d_par))
            style = get(s_par, "ParaStyleName")
            if style and get(d_par, "ParaStyleName") != style:
                d_par.setPropertyValue("ParaStyleName", style)
            _copy_props(s_par, d_par, PARA_PROPS)
        deletions = []
        for entry in todo["reds"].values():
            if get(entry["props"], "RedlineType") != "Delete":
                continue
            if "start" not in entry or "end" not in entry:
                raise MirrorError("a deletion of the served copy has no end")
            deletions.append(_range(entry["start"], entry["end"]))
        for cur in reversed(deletions):
            _delete(doc, cur)
        for note in reversed(todo["notes"]):
            _add_note(doc, note)
    return {"inserted": sum(len(g.pieces) for g in groups), "redlines": len(todo["reds"]),
            "comments": len(todo["notes"]), "comments_in_served": len(new_fields)}


def _new_authors(served, novelty):
    out = set()
    enum = served.getRedlines().createEnumeration()
    left = Counter(novelty.reds)
    while enum.hasMoreElements():
        r = enum.nextElement()
        sig = redline_signature(r)
        if left[sig] > 0:
            left[sig] -= 1
            continue
        out.add(get(r, "RedlineAuthor") or "")
    return out


def _prop_value(name, value):
    from com.sun.star.beans import PropertyValue

    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


class author_as:
    """Changes recorded inside the block carry ``name``: LibreOffice takes a recorded change's
    author from the user's name, so the name is set for the block and restored after it."""

    _KEYS = ("givenname", "sn", "initials")

    def __init__(self, ctx, name):
        self.ctx, self.name, self.saved, self.acc = ctx, name, None, None

    def __enter__(self):
        if not self.name:
            return self
        cp = self.ctx.ServiceManager.createInstanceWithContext("com.sun.star.configuration.ConfigurationProvider",
                                                               self.ctx)
        self.acc = cp.createInstanceWithArguments("com.sun.star.configuration.ConfigurationUpdateAccess",
                                                  (_prop_value("nodepath", "/org.openoffice.UserProfile/Data"),))
        self.saved = {k: self.acc.getByName(k) for k in self._KEYS}
        initials = "".join(w[0] for w in self.name.split() if w)[:4]
        for k, v in zip(self._KEYS, (self.name, "", initials)):
            self.acc.replaceByName(k, v)
        self.acc.commitChanges()
        return self

    def __exit__(self, *exc):
        if self.acc is not None:
            for k, v in self.saved.items():
                self.acc.replaceByName(k, v)
            self.acc.commitChanges()
        return False


def _count_new(served, novelty):
    """How many of the served copy's redlines are new: all of them less the open document's own."""
    total = 0
    enum = served.getRedlines().createEnumeration()
    while enum.hasMoreElements():
        enum.nextElement()
        total += 1
    return total - novelty.old_total




