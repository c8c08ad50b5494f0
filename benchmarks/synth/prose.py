"""Sentence templates and frames that turn a domain vocabulary into readable prose.

A domain (``benchmarks/synth/domains/*.py``) is a dict with: ``tops``/``subs`` (heading
titles), ``subjects`` (singular noun phrases with article), ``preds`` (third-person verb
phrases), ``conds`` (clauses), ``metrics``, ``actions`` (base-form verb phrases), ``objects``,
``figures`` ``(title, alt)``, ``tables`` ``(title, header, row labels, column specs)``,
``list_intros``/``list_items``, ``statements`` (theorem bodies), ``terms`` ``(term, gloss)``,
``acronyms`` ``(long, short, intro, uses)``, ``symbols`` ``(noun phrase, rest, formula)``,
``tasks`` and ``components`` (for anaphora antecedents), and, for the contract domain,
``legal_hereinafter`` and ``legal_means``.

General prose never opens a sentence with This/These/Such/It/They, never uses a shell noun
(:data:`SHELL_NOUNS`), and never names a unit: those are planted by the planner only.
"""
from __future__ import annotations

import random

__all__ = [
    "ANAPHORA",
    "DISTRACTORS",
    "BROKEN",
    "OVERVIEW",
    "REF_FRAMES",
    "SHELL_NOUNS",
    "SYMBOL_USES",
    "TERM_USES",
    "ADJECTIVES",
    "ANAPHOR_PLURAL",
    "ANAPHOR_SINGULAR",
    "anaphor_sentence",
    "cap",
    "paragraph",
    "sentence",
]

SHELL_NOUNS = (
    "approach", "method", "mechanism", "technique", "scheme", "results", "findings", "procedure", "strategy",
)

_TEMPLATES = [
    "{S} {p}.",
    "In most deployments, {s} {p}.",
    "When {c}, {s} {p}.",
    "{S} {p}, so operators rarely need to {a}.",
    "Operators usually {a} before {c}.",
    "{M} depends mostly on whether {s} {p}.",
    "A careful team will {a} whenever {c}.",
    "Measurements on the reference setup show that {m} stays stable while {s} {p}.",
    "The main risk is that {m} drifts when {c}.",
    "Keeping {m} low is easier when {s} {p}.",
    "We observed that {m} improves when operators {a}.",
    "A second consideration is {m}, which rises sharply when {c}.",
    "For most workloads, the cheapest option is to {a}.",
    "Teams that {a} report fewer incidents overall.",
    "{M} is tracked on every dashboard because {s} {p}.",
    "In our experience, {s} {p} even when {c}.",
    "During an incident, the first step is to {a}.",
    "{S} interacts with {o} mainly through {m}.",
    "If {c}, {s} {p}, and {m} recovers within minutes.",
    "Good runbooks explain how to {a} and when to escalate.",
    "Most of the operational cost lies in {m} rather than in {o}.",
    "Because {s} {p}, {m} rarely becomes the bottleneck.",
    "Capacity planning starts from {m} and works backwards to {o}.",
    "Nobody should {a} without first checking {o}.",
    "As a rule, {s} {p}.",
    "Experience shows that {m} is the first number to look at when {c}.",
]

#: Opening sentences of the overview, with at most one reference slot ``{ref}``.
OVERVIEW = [
    "The {name} platform serves several business units, and its documentation has grown with the platform.",
    "Each part of the document describes one subsystem: its design, its limits and the checks that keep the subsystem healthy.",
    "The text assumes familiarity with distributed systems but not with the platform itself.",
    "Figures quoted in the text come from the reference installation unless stated otherwise.",
    "Operational guidance is written for the on-duty engineer and favours concrete steps over background.",
    "Where a subsystem depends on another, the text says so and points to the relevant part.",
]

#: Frames for a reference slot, by what the slot wants. ``{ref}`` is replaced by the reference.
REF_FRAMES = {
    "section": ["Further detail appears in {ref}.", "The trade-offs are discussed at length in {ref}.",
                "{ref} returns to the question from a different angle.", "Compare the discussion in {ref}."],
    "figure": ["As shown in {ref}, the curve flattens after the first hour.", "{ref} plots the trend over a full week.",
               "The pattern in {ref} repeats on every site we measured."],
    "table": ["{ref} lists the parameters used in each run.", "The values in {ref} were measured on the reference setup.",
              "Default settings are collected in {ref}."],
    "equation": ["Substituting the measured values into {ref} gives the expected bound.",
                 "The estimate follows directly from {ref}.", "{ref} also holds for the smaller sites."],
    "theorem": ["By {ref}, the bound holds for every admissible schedule.", "The argument mirrors the proof of {ref}.",
                "{ref} guarantees that the check terminates."],
    "appendix": ["The complete settings are given in {ref}.", "{ref} lists the values used at each site."],
    "sections": ["{ref} describe the core services in detail.", "The operational parts, {ref}, can be read in any order."],
    "figures": ["{ref} show the same effect from two sides.", "Compare {ref}, which were measured a month apart."],
    "list": ["Check the limits given in {ref}.", "Apply the settings listed in {ref}."],
}

#: Sentences that look like references but point outside the document (no edge).
DISTRACTORS = [
    ("The framing rules follow [RFC9110].", "[RFC9110]"),
    ("Section 3 of [RFC9110] describes the retry semantics.", "Section 3 of [RFC9110]"),
    ("Earlier work (Smith et al., 2020) reported similar figures.", "(Smith et al., 2020)"),
    ("The audit followed the controls of [ISO27001].", "[ISO27001]"),
    ("A comparable field study (Garcia and Chen, 2019) reached the same conclusion.", "(Garcia and Chen, 2019)"),
    ("Table 2 of the vendor datasheet [VND-114] gives the rated limits.", "Table 2 of the vendor datasheet [VND-114]"),
]

#: Sentences with a reference to a unit that does not exist (recorded as broken).
BROKEN = [
    ("The anomaly visible in Figure 99 was not reproduced.", "Figure 99"),
    ("The older limits in Table 87 no longer apply.", "Table 87"),
    ("The derivation in Section 42.3 covers the general case.", "Section 42.3"),
    ("Equation (64) gives the same bound for larger sites.", "Equation (64)"),
]

TERM_USES = [
    "{T} stayed within its budget for the whole trial.", "Reducing {t} was the main goal of the change.",
    "Operators watch {t} closely during upgrades.", "A sudden rise in {t} usually points to a misconfigured node.",
    "The alert fires when {t} exceeds its threshold for five minutes.", "Capacity reviews always include a chart of {t}.",
    "Most tuning work aims to keep {t} flat across the day.", "{T} is reported in the weekly operations review.",
    "A dashboard panel shows {t} for each site.", "Small configuration errors show up first as changes in {t}.",
]

SYMBOL_USES = [
    "The experiments vary {s} over two orders of magnitude.", "Small changes in {s} have a visible effect on the outcome.",
    "In the reference setup, {s} is kept constant during each run.", "Doubling {s} shifts the operating point noticeably.",
    "A conservative estimate of {s} is enough for capacity planning.", "Field data put {s} well inside the expected range.",
    "The controller re-estimates {s} whenever the workload changes.", "Errors in {s} propagate directly into the forecast.",
]

#: Anaphora: ``opener`` starts the dependent paragraph; ``noun`` must appear in the antecedent
#: (``None``: the antecedent is the previous unit); ``plural`` picks the continuation set.
ANAPHORA = [
    {"opener": "This approach", "noun": "approach", "plural": False,
     "intro": "We take a {adj} approach to {task}, applying each change to a small group first."},
    {"opener": "These results", "noun": "results", "plural": True,
     "intro": "The trial of the new {task} rules produced clear results: {m} fell by {n} percent and no regressions were reported."},
    {"opener": "The proposed method", "noun": "method", "plural": False,
     "intro": "We propose a method for {task} that combines periodic sampling with a short feedback loop."},
    {"opener": "Such a mechanism", "noun": "mechanism", "plural": False,
     "intro": "The platform relies on a lease-based mechanism for {task}, so that only one node acts at a time."},
    {"opener": "As described above", "noun": "procedure", "plural": False, "subject": "the procedure",
     "intro": "Operators follow a fixed procedure for {task}, recorded step by step in the runbook."},
    {"opener": "It", "noun": None, "plural": False,
     "intro": "Responsibility for {task} lies with a dedicated {component} that runs on every node.",
     "frames": ["{E} runs at low priority so that client work is never delayed.", "{E} keeps {m} predictable even when {c}.",
                "{E} reports its progress to the central dashboard every minute."]},
    {"opener": "They", "noun": None, "plural": True,
     "intro": "Two standby instances of the {component} take over {task} when the primary fails.",
     "frames": ["{E} run on separate racks so that a single fault cannot stop both.",
                "{E} are exercised every month by a forced failover.", "{E} make it easier to {a} without downtime."]},
    {"opener": "This technique", "noun": "technique", "plural": False,
     "intro": "A simple technique for {task} is to batch small updates and apply them together."},
    {"opener": "These findings", "noun": "findings", "plural": True,
     "intro": "The review of {task} produced three findings: alerts were noisy, ownership was unclear and {m} was not tracked."},
    {"opener": "This scheme", "noun": "scheme", "plural": False,
     "intro": "The deployment uses a tiered scheme for {task} in which urgent work bypasses the queue."},
    {"opener": "This strategy", "noun": "strategy", "plural": False,
     "intro": "The team settled on a cautious strategy for {task}, preferring small reversible steps."},
]

ANAPHOR_SINGULAR = [
    "{E} keeps {m} predictable even when {c}.", "{E} has worked well in production for over a year.",
    "{E} costs little to operate and is easy to audit.", "{E} makes it easier to {a} without downtime.",
]
ANAPHOR_PLURAL = [
    "{E} held across every site we measured.", "{E} suggest that {m} is the quantity to watch.",
    "{E} changed how the team plans its maintenance.", "{E} make it easier to {a} without downtime.",
]

ADJECTIVES = ["staged", "conservative", "incremental", "two-phase", "layered", "gradual"]


def cap(s: str) -> str:
    """Capitalise the first character only (``"the log"`` -> ``"The log"``)."""
    return s[:1].upper() + s[1:]


def sentence(rng: random.Random, dom: dict, avoid: set[int] | None = None) -> str:
    """One general sentence from ``dom``'s vocabulary, not using a template index in ``avoid``."""
    choices = [i for i in range(len(_TEMPLATES)) if not avoid or i not in avoid]
    i = rng.choice(choices)
    if avoid is not None:
        avoid.add(i)
    s, m = rng.choice(dom["subjects"]), rng.choice(dom["metrics"])
    return _TEMPLATES[i].format(
        S=cap(s), s=s, p=rng.choice(dom["preds"]), c=rng.choice(dom["conds"]), a=rng.choice(dom["actions"]),
        m=m, M=cap(m), o=rng.choice(dom["objects"]),
    )


def paragraph(rng: random.Random, dom: dict, n: int | None = None) -> list[str]:
    """The sentences of a general paragraph (3-6 of them, no template twice)."""
    avoid: set[int] = set()
    return [sentence(rng, dom, avoid) for _ in range(n or rng.randint(3, 6))]


def anaphor_sentence(rng: random.Random, dom: dict, spec: dict) -> str:
    """The opening sentence of an anaphoric paragraph, starting with ``spec["opener"]``."""
    frames = spec.get("frames") or (ANAPHOR_PLURAL if spec["plural"] else ANAPHOR_SINGULAR)
    frame = rng.choice(frames)
    opener = spec["opener"]
    if opener == "As described above":
        body = frame.replace("{E}", spec["subject"])
        text = "As described above, " + body
    else:
        text = frame.replace("{E}", opener)
    return text.format(m=rng.choice(dom["metrics"]), c=rng.choice(dom["conds"]), a=rng.choice(dom["actions"]))
