"""Clark names of the WordprocessingML elements and attributes the reader dispatches on.

Built with :func:`~adapters.docx.oxml.qn` once at import, so hot loops compare strings.
"""
from __future__ import annotations

from .oxml import qn, w_attr

__all__ = [
    "ANCHOR",
    "AUTHOR",
    "CHAR",
    "DATE",
    "DROPCAP",
    "FIGURE_TAGS",
    "FLDCHARTYPE",
    "ID",
    "INSTR",
    "MC_AC",
    "MC_CHOICE",
    "MC_FALLBACK",
    "M_OMATH",
    "M_OMATHPARA",
    "NAME",
    "O_TITLE",
    "R_ID",
    "SILENT_TAGS",
    "TYPE",
    "VAL",
    "V_IMAGEDATA",
    "V_SHAPE",
    "WP_DOCPR",
    "W_ALTCHUNK",
    "W_BDO",
    "W_BODY",
    "W_BOOKMARKEND",
    "W_BOOKMARKSTART",
    "W_BR",
    "W_COMMENT",
    "W_COMMENTRANGEEND",
    "W_COMMENTRANGESTART",
    "W_COMMENTREFERENCE",
    "W_CR",
    "W_CUSTOMXML",
    "W_DEL",
    "W_DELINSTRTEXT",
    "W_DELTEXT",
    "W_DIR",
    "W_DRAWING",
    "W_ENDNOTE",
    "W_ENDNOTEREFERENCE",
    "W_FLDCHAR",
    "W_FLDSIMPLE",
    "W_FOOTNOTE",
    "W_FOOTNOTEREFERENCE",
    "W_FRAMEPR",
    "W_GRIDAFTER",
    "W_GRIDBEFORE",
    "W_GRIDSPAN",
    "W_HMERGE",
    "W_HYPERLINK",
    "W_ILVL",
    "W_INS",
    "W_INSTRTEXT",
    "W_MOVEFROM",
    "W_MOVETO",
    "W_NOBREAKHYPHEN",
    "W_NUMID",
    "W_NUMPR",
    "W_OBJECT",
    "W_OUTLINELVL",
    "W_P",
    "W_PICT",
    "W_PPR",
    "W_PPRCHANGE",
    "W_PSTYLE",
    "W_PTAB",
    "W_R",
    "W_RPR",
    "W_RPRCHANGE",
    "W_RSTYLE",
    "W_RUBY",
    "W_RUBYBASE",
    "W_SDT",
    "W_SDTCONTENT",
    "W_SECTPR",
    "W_SMARTTAG",
    "W_SOFTHYPHEN",
    "W_SYM",
    "W_T",
    "W_TAB",
    "W_TBL",
    "W_TBLPPR",
    "W_TBLPR",
    "W_TC",
    "W_TCPR",
    "W_TR",
    "W_TRPR",
    "W_TXBXCONTENT",
    "W_VANISH",
    "W_LANG",
    "W_RFONTS",
    "FONT_ASCII",
    "FONT_HANSI",
    "W_VMERGE",
    "XML_SPACE",
]

_W = qn("w:p")[:-1]
_M = qn("m:r")[:-1]
W_P, W_TBL, W_R, W_T, W_RPR, W_PPR = (_W + t for t in ("p", "tbl", "r", "t", "rPr", "pPr"))
W_TR, W_TC, W_TCPR, W_TRPR, W_BODY = (_W + t for t in ("tr", "tc", "tcPr", "trPr", "body"))
W_INS, W_DEL, W_MOVEFROM, W_MOVETO = (_W + t for t in ("ins", "del", "moveFrom", "moveTo"))
W_HYPERLINK, W_FLDSIMPLE, W_SDT, W_SDTCONTENT = (_W + t for t in ("hyperlink", "fldSimple", "sdt", "sdtContent"))
W_SMARTTAG, W_CUSTOMXML, W_DIR, W_BDO = (_W + t for t in ("smartTag", "customXml", "dir", "bdo"))
W_BOOKMARKSTART, W_BOOKMARKEND = _W + "bookmarkStart", _W + "bookmarkEnd"
W_COMMENTRANGESTART, W_COMMENTRANGEEND = _W + "commentRangeStart", _W + "commentRangeEnd"
W_TAB, W_PTAB, W_BR, W_CR, W_SYM = (_W + t for t in ("tab", "ptab", "br", "cr", "sym"))
W_DELTEXT, W_INSTRTEXT, W_DELINSTRTEXT, W_FLDCHAR = (_W + t for t in ("delText", "instrText", "delInstrText", "fldChar"))
W_NOBREAKHYPHEN, W_SOFTHYPHEN = _W + "noBreakHyphen", _W + "softHyphen"
W_FOOTNOTEREFERENCE, W_ENDNOTEREFERENCE = _W + "footnoteReference", _W + "endnoteReference"
W_COMMENTREFERENCE = _W + "commentReference"
W_DRAWING, W_PICT, W_OBJECT, W_TXBXCONTENT = (_W + t for t in ("drawing", "pict", "object", "txbxContent"))
W_VANISH, W_RSTYLE, W_RPRCHANGE, W_PPRCHANGE = (_W + t for t in ("vanish", "rStyle", "rPrChange", "pPrChange"))
W_LANG = _W + "lang"
W_RFONTS = _W + "rFonts"
FONT_ASCII, FONT_HANSI = w_attr("ascii"), w_attr("hAnsi")
W_PSTYLE, W_NUMPR, W_NUMID, W_ILVL, W_OUTLINELVL = (_W + t for t in ("pStyle", "numPr", "numId", "ilvl", "outlineLvl"))
W_RUBY, W_RUBYBASE = _W + "ruby", _W + "rubyBase"
W_GRIDSPAN, W_VMERGE, W_HMERGE, W_GRIDBEFORE, W_GRIDAFTER = (_W + t for t in ("gridSpan", "vMerge", "hMerge", "gridBefore", "gridAfter"))
W_FOOTNOTE, W_ENDNOTE, W_COMMENT = _W + "footnote", _W + "endnote", _W + "comment"
W_SECTPR, W_FRAMEPR = _W + "sectPr", _W + "framePr"
W_TBLPR, W_TBLPPR = _W + "tblPr", _W + "tblpPr"
DROPCAP = w_attr("dropCap")
M_OMATHPARA, M_OMATH = _M + "oMathPara", _M + "oMath"
MC_AC, MC_CHOICE, MC_FALLBACK = qn("mc:AlternateContent"), qn("mc:Choice"), qn("mc:Fallback")
WP_DOCPR = qn("wp:docPr")
V_SHAPE, V_IMAGEDATA = qn("v:shape"), qn("v:imagedata")
FIGURE_TAGS = (qn("pic:pic"), qn("c:chart"), qn("dgm:relIds"), qn("a:blip"), V_IMAGEDATA)

VAL, ID, NAME, TYPE = w_attr("val"), w_attr("id"), w_attr("name"), w_attr("type")
AUTHOR, DATE = w_attr("author"), w_attr("date")
FLDCHARTYPE, INSTR, CHAR, ANCHOR = w_attr("fldCharType"), w_attr("instr"), w_attr("char"), w_attr("anchor")
R_ID = qn("r:id")
O_TITLE = qn("o:title")
W_ALTCHUNK = _W + "altChunk"
XML_SPACE = qn("xml:space")

# Elements that carry no visible text and need no record.
_SILENT = {
    _W + t
    for t in (
        "proofErr", "permStart", "permEnd", "moveFromRangeStart", "moveFromRangeEnd", "moveToRangeStart",
        "moveToRangeEnd", "customXmlInsRangeStart", "customXmlInsRangeEnd", "customXmlDelRangeStart",
        "customXmlDelRangeEnd", "customXmlMoveFromRangeStart", "customXmlMoveFromRangeEnd",
        "customXmlMoveToRangeStart", "customXmlMoveToRangeEnd", "lastRenderedPageBreak", "annotationRef",
        "separator", "continuationSeparator", "footnoteRef", "endnoteRef", "pgNum", "dayShort", "dayLong",
        "monthShort", "monthLong", "yearShort", "yearLong", "contentPart", "fldData", "subDoc", "sectPr",
        "rPr", "pPr", "smartTagPr", "customXmlPr", "sdtPr", "sdtEndPr", "bookmarkStart", "bookmarkEnd",
        "tblPr", "tblGrid", "tblPrEx", "trPr", "tcPr", "altChunk", "commentRangeStart", "commentRangeEnd",
    )
}
SILENT_TAGS = frozenset(_SILENT)
