"""RELATED leaves out what says nothing by similarity: reference entries, code lines, template pairs."""
from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from adapters.model import Document, Unit
from addin_backend.graph import related as R


def _p(text: str, style: str | None = "Normal", kind: str = "paragraph") -> Unit:
    return Unit("p", kind, text, 0, style=style)


# --- code, grammar and drawings ------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "Cache-Control   = #cache-directive",                         # ABNF
    "cache-directive = token [ \"=\" ( token / quoted-string ) ]",
    "rttvar = 3/4 * rttvar + 1/4 * rttvar_sample",                # pseudo-code assignment
    "struct {",
    "} ClientHello;",
    "};",
    "ProtocolVersion legacy_version = 0x0303;",                   # a declaration
    "opaque random[32];",
    "if (latest_rtt >= min_rtt + ack_delay):",
    "max(kTimeThreshold * max(smoothed_rtt, latest_rtt), kGranularity)",
    " +------------+     Loss or       +------------+",           # ASCII art
    " | Congestion |  ECN-CE increase  |  Recovery  |",
    "void main() {\n    printf(\"Hello world\");\n}",               # one unit, three lines
])
def test_lines_that_read_as_code_are_code(text):
    assert R.is_code_line(_p(text))


@pytest.mark.parametrize("text", [
    "The Cache-Control header field lists directives that caches must obey.",
    "A cache MUST NOT store a response to a request that has the no-store directive.",
    "If the sender does not receive an acknowledgment (for example, because the path failed), it retransmits.",
    "for each packet that was sent:",                             # a prose list item in lower case
    "the server hello;",
    "Antwort = das Ergebnis der Anfrage, wie in Abschnitt 4 beschrieben.",  # a sentence: its full stop
    "Le serveur répond avec le code 200 lorsque la requête aboutit.",
])
def test_prose_is_not_code(text):
    assert not R.is_code_line(_p(text))


@pytest.mark.parametrize("style", ["Source Code", "HTML Preformatted", "Preformatted Text", "Code", "Plain Text"])
def test_a_code_style_makes_code_whatever_the_text(style):
    assert R.is_code_line(_p("Start the service and wait for the prompt", style=style))


# --- reference lists -----------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    '[RFC9111]\tFielding, R., Ed., Nottingham, M., Ed., and J. Reschke, Ed., "HTTP Caching", STD 98, '
    "RFC 9111, June 2022.",
    "[RFC2119]\tRFC 2119, <https://www.rfc-editor.org/info/rfc2119>.",
    '[12] A. Smith and B. Jones, "Congestion control at scale," in Proc. SIGCOMM, 2019, pp. 1-12.',
    "Smith, D. M., Eade, R., & Pohlmann, H. (2013). A comparison of full-field and anomaly initialization. "
    "Climate Dynamics, 41, 3325-3338.",
    "Gaiman, Neil (2003). Don't Panic: Douglas Adams and the Hitchhiker's Guide to the Galaxy. Titan Books.",
])
def test_entries_shaped_as_references_are_references(text):
    assert R.is_reference_entry(_p(text))


@pytest.mark.parametrize("text", [
    "[RFC9111] defines how caches store and reuse responses.",
    "Paris, France (2019) was the venue of the second meeting.",
    "However, J. Smith (2019) showed that shared caches fail under load.",
    "Smith, the editor, asked for a new draft.",
])
def test_prose_that_cites_is_no_reference_entry(text):
    assert not R.is_reference_entry(_p(text))


def test_a_bibliography_style_or_a_reference_list_makes_an_entry():
    assert R.is_reference_entry(_p("Anything at all", style="Bibliography"))
    assert R.is_reference_entry(_p("Anything at all", style="Literaturverzeichnis"))
    assert R.is_reference_entry(_p("Anything at all"), in_reference_list=True)
    assert not R.is_reference_entry(_p("Anything at all", kind="section"), in_reference_list=True)


def _doc(units: list[Unit]) -> Document:
    return Document("docx", [Unit(u.id, u.kind, u.text, i, title=u.title, parent=u.parent, style=u.style)
                             for i, u in enumerate(units)])


@pytest.mark.parametrize("title", [
    "References", "13.1.  Normative References", "Informative References", "Bibliography", "Bibliografía",
    "Literaturverzeichnis", "Références", "Works Cited",
])
def test_reference_list_sections_by_their_title(title):
    doc = _doc([
        Unit("s1", "section", "Caching", 0, title="Caching"),
        Unit("s2", "section", title, 0, title=title),
        Unit("s3", "section", "Further reading", 0, title="Further reading", parent="s2"),
    ])
    assert R.reference_list_sections(doc) == {"s2", "s3"}


@pytest.mark.parametrize("title", ["Configuration Reference", "Cross-References", "Referencing Other Sections"])
def test_sections_that_merely_mention_references_are_not_lists(title):
    assert not R.reference_list_sections(_doc([Unit("s", "section", title, 0, title=title)]))


# --- what is embedded ----------------------------------------------------------------------------


def _standard() -> Document:
    return _doc([
        Unit("s1", "section", "Cache-Control", 0, title="Cache-Control"),
        Unit("c1", "paragraph", "Cache-Control   = #cache-directive", 0, parent="s1", style="Normal"),
        Unit("p1", "paragraph", "The Cache-Control header field lists directives for caches along the chain.",
             0, parent="s1", style="Normal"),
        Unit("s2", "section", "References", 0, title="References"),
        Unit("b1", "paragraph", "This section lists the documents cited above.", 0, parent="s2", style="Normal"),
        Unit("b2", "paragraph", '[RFC9111]\tFielding, R., "HTTP Caching", RFC 9111, June 2022.', 0,
             parent="s2", style="Normal"),
    ])


def test_reference_lists_and_code_lines_are_not_embedded():
    doc = _standard()
    assert R.unembedded(doc) == {"c1", "s2", "b1", "b2"}
    summ = R.summaries(doc)
    assert set(summ) == {"s1", "p1"}
    assert "#cache-directive" not in summ["s1"]  # a section is summed up by its prose
    assert R.unit_summary(doc.unit("c1"), doc) is None


# --- the word-piece budget of a summary ----------------------------------------------------------


def test_a_summary_over_its_budget_keeps_its_rarest_words_in_order():
    from addin_backend.embeddings.encoders import word_pieces

    texts = ["The client sends the packet to the server and the server acknowledges the packet "
             "once the retransmission timer of the congestion controller expires.",
             "The client opens the connection.", "The server closes the connection."]
    fitted = R.fit_pieces(texts, 12)
    assert fitted[1:] == texts[1:]                       # within the budget: the same text, the same vector
    assert word_pieces(fitted)[0] <= 12 < word_pieces(texts)[:1][0]
    kept = fitted[0].split()
    from adapters.words import words

    df = {w.casefold(): sum(w.casefold() in map(str.casefold, words(t)) for t in texts) for w in words(texts[0])}
    dropped = set(df) - {w.casefold() for w in kept}
    assert "the" in dropped and "client" in dropped and "sends" in kept   # what the others say goes first
    assert max(df[w.casefold()] for w in kept) <= min(df[w] for w in dropped)
    rest = iter(words(texts[0]))
    assert all(w in rest for w in kept)  # a subsequence: the kept words in their order


def test_a_text_written_without_spaces_keeps_its_opening_within_the_budget():
    from addin_backend.embeddings.encoders import word_pieces

    zh = ("客户端在握手完成之前不得发送应用数据，服务器在收到确认之后才更新密钥。" * 6).rstrip("。")
    other = "服务器关闭连接。"
    fitted = R.fit_pieces([zh, other], 40)
    assert fitted[1] == other
    assert 30 <= word_pieces(fitted)[0] <= 40 < word_pieces([zh])[0]   # one long word: cut, not dropped
    from adapters.words import words

    assert " ".join(words(zh)).startswith(fitted[0])          # its opening, its words as words


def test_every_summary_fits_the_budget_given(monkeypatch):
    from addin_backend.embeddings.encoders import word_pieces

    body = " ".join(f"The handshake step {w} confirms the keys before the first application data flows."
                    for w in ("one", "two", "three", "four"))
    doc = _doc([Unit("s1", "section", "Handshake", 0, title="Handshake"),
                Unit("p1", "paragraph", body, 1, parent="s1", style="Normal"),
                Unit("p2", "paragraph", "Keys are confirmed once per connection by both peers.", 2,
                     parent="s1", style="Normal")])
    wide = R.summaries(doc)
    assert max(word_pieces(list(wide.values()))) > 16
    short = R.summaries(doc, pieces=16)
    assert set(short) == set(wide) and max(word_pieces(list(short.values()))) <= 16
    assert short["p2"] == wide["p2"]
    monkeypatch.setattr(R, "SUMMARY_PIECES", 16)             # the default the stage uses
    assert R.summaries(doc) == short


# --- template pairs ------------------------------------------------------------------------------


def test_template_key_masks_identifiers_quoted_values_and_numbers():
    a = "This directive uses the token form of the argument syntax: e.g., 'max-age=5'."
    assert R.template_key(a) == R.template_key(a.replace("max-age", "min-fresh"))
    b = "An endpoint MUST treat receipt of this frame as a connection error of type FRAME_ENCODING_ERROR."
    assert R.template_key(b) == R.template_key(b.replace("FRAME_ENCODING_ERROR", "STREAM_STATE_ERROR"))
    assert R.template_key("The timer fires after 3 seconds.") == R.template_key("The timer fires after 10 seconds.")
    assert R.template_key("The client's request is sent first.") != R.template_key("The server's reply is sent first.")
    assert R.template_key("The client sends a request.") != R.template_key("The server sends a reply.")


def test_a_template_pair_is_never_scored_but_its_halves_pair_with_others(monkeypatch):
    texts = {
        "a": "This directive uses the token form of the argument syntax: e.g., 'max-age=5'.",
        "b": "This directive uses the token form of the argument syntax: e.g., 'min-fresh=5'.",
        "c": "A directive with a token argument is written as its name, an equals sign and the value.",
    }
    doc = Document("docx", [Unit(k, "paragraph", t, i, style="Normal") for i, (k, t) in enumerate(texts.items())])
    same = np.array([1.0, 0.0], dtype=np.float32)
    monkeypatch.setattr("addin_backend.language.nlp.embed_texts", lambda ts, progress=None, **_: np.vstack([same] * len(ts)))
    G = nx.MultiDiGraph()
    G.add_nodes_from(texts)
    pairs = {(a, b) for a, b, _cos, _dev in R.scored_pairs(doc, G)}
    assert pairs == {("a", "c"), ("b", "c")}


def test_a_template_filled_in_three_times_is_boilerplate_and_pairs_with_nothing(monkeypatch):
    labels = ["Explanation of attribute:", "Type of attribute:"] * 3
    texts = labels + ["The attribute names the grammar that matched the input."]
    doc = Document("docx", [Unit(f"u{i}", "paragraph", t, i, style="Normal") for i, t in enumerate(texts)])
    same = np.array([1.0, 0.0], dtype=np.float32)
    monkeypatch.setattr("addin_backend.language.nlp.embed_texts", lambda ts, progress=None, **_: np.vstack([same] * len(ts)))
    G = nx.MultiDiGraph()
    G.add_nodes_from(u.id for u in doc.units)
    assert R.scored_pairs(doc, G) == []
    monkeypatch.setattr(R, "BOILERPLATE", 4)  # twice or three times is a template pair only
    assert ("u0", "u1") in {(a, b) for a, b, _c, _d in R.scored_pairs(doc, G)}


# --- the similarity search: linear statistics, blocks -------------------------------------------


def _unit_rows(n: int, d: int = 24, seed: int = 7) -> np.ndarray:
    rng = np.random.default_rng(seed)
    topics = rng.normal(size=(6, d))
    v = topics[rng.integers(0, 6, n)] + 0.6 * rng.normal(size=(n, d))  # clustered, as one document's units are
    twins = rng.choice(n, size=(n // 20, 2), replace=False)  # and some units say nearly what another says
    v[twins[:, 1]] = v[twins[:, 0]] + 0.1 * rng.normal(size=(len(twins), d))
    return (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)


def test_row_statistics_without_the_matrix_are_those_of_the_matrix():
    v = _unit_rows(300)
    sims = (v @ v.T).astype(np.float64)
    np.fill_diagonal(sims, np.nan)
    mu, sd = R._row_stats(v)
    assert np.allclose(mu, np.nanmean(sims, axis=1), atol=1e-6)
    assert np.allclose(sd, np.nanstd(sims, axis=1), atol=1e-5)


def test_the_blocked_search_finds_every_pair_above_both_cuts(monkeypatch):
    n = 1100  # more than two blocks of rows
    v = _unit_rows(n)
    texts = [f"Unit {i} says something about topic number {i % 97} in words of its own" for i in range(n)]
    doc = Document("docx", [Unit(f"u{i}", "paragraph", t, i, style="Normal") for i, t in enumerate(texts)])
    monkeypatch.setattr("addin_backend.language.nlp.embed_texts", lambda ts, progress=None, **_: v[: len(ts)])
    monkeypatch.setattr(R, "template_key", lambda text: text)  # every unit its own template
    G = nx.MultiDiGraph()
    G.add_nodes_from(u.id for u in doc.units)
    need = 2.0  # lower than a document's own cut, so that many pairs cross the blocks
    got = {(a, b) for a, b, _c, _d in R.scored_pairs(doc, G, floor=0.3, min_deviations=need)}
    # the pairs as the whole matrix gives them
    sims = (v @ v.T).astype(np.float64)
    mu, sd = R._row_stats(v)
    dev = np.minimum((sims - mu[:, None]) / sd[:, None], (sims - mu[None, :]) / sd[None, :])
    rows, cols = np.nonzero((sims >= 0.3) & (dev >= need))
    want = {(f"u{i}", f"u{j}") for i, j in zip(rows.tolist(), cols.tolist()) if i < j}
    assert any(int(a[1:]) < R._BLOCK <= int(b[1:]) for a, b in want)
    assert got == want
