"""How hard a task README is to implement, read from the README alone ("spec complexity").

The figures are those the microservice-specification study scores a specification by:

* **size**: words (whitespace-separated tokens holding a letter or digit, code blocks
  included: the schemas are part of the specification) and lines;
* **endpoints**: the README's endpoints as :class:`~.readme_contract.ReadmeContract` reads them
  (:mod:`.spec_endpoints`), each with its README line;
* **resources**: the JSON fields of the request, response and error schemas the contract reads
  (query/path parameters left out), split by declared type into *primitive* (string, integer,
  number, boolean, null, file), *collection* (array/list) and *object* (nested objects) fields;
  fields without a declared type are counted as *untyped*;
* **external dependencies** (datastores, brokers, mail, object storage) and **packages**
  (frameworks and libraries: a vocabulary of well-known Python and Java names, plus
  ``name==1.2``-style pins and ``pip install`` lines) the README names;
* **flags**: authentication, a database, background work, file upload mentioned.

Every figure keeps its evidence (:class:`~.contract_types.Mention`: README line and text).

**Composite score (0–10)**: each component is scaled to [0, 1] by a saturation point (a
README at or beyond it is "as large as the benchmark's large tasks") and weighted:

=====================================  ==========  ======  ============================
component                              saturates   weight  why
=====================================  ==========  ======  ============================
endpoints                              20          3.0     each is a handler, its
                                                           validation and its errors
resource fields (primitive + object    80          2.0     data the code must model,
+ untyped + 2 × collection)                                validate and serialise
words                                  1,000       1.5     everything else the README
                                                           asks for (rules, errors)
dependencies + packages                6           1.0     integration work
flags (auth, database, background,     —           0.625   each is a subsystem of its
upload)                                            each    own
=====================================  ==========  ======  ============================

Endpoints weigh most: the RepoGenesis difficulty also rests on interface size, and they are
what API coverage and the golden suites measure. A collection field counts twice (pagination,
filtering, element validation). Words weigh less than endpoints and fields because those
are already counted in them. Saturation points sit just above the largest real bundled tasks
(WebPan: 13 endpoints, 90 weighted fields, ~700 words; spring-boot-course-scheduling: 33
endpoints) so no single component can carry a huge README alone.

**Tiers**: low < 3.5 ≤ medium < 5.5 ≤ high. A "hello world" service (flask: 3 endpoints, 5
primitive fields) scores about 1; a CRUD service with auth and a database (UserManagement_2)
about 4.4; a README at every saturation point with two subsystems 8.75. The round cut-offs
split the 16 real bundled tasks 5 low / 7 medium / 4 high (table in ``docs/analyses.md``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from inspector.model.readme.contract import ReadmeContract
from inspector.model.readme.contract_types import QUERY, Mention
from inspector.model.readme.mentions import clip

LOW, MEDIUM, HIGH = "low", "medium", "high"
MEDIUM_AT = 3.5
HIGH_AT = 5.5
# component: (saturation point, weight)
WEIGHTS: dict[str, tuple[float, float]] = {
    "endpoints": (20, 3.0),
    "resources": (80, 2.0),
    "words": (1000, 1.5),
    "dependencies": (6, 1.0),
}
FLAG_WEIGHT = 0.625
COLLECTION_FACTOR = 2

_PRIMITIVE = {"string", "integer", "number", "boolean", "null", "file"}
_WORD = re.compile(r"[A-Za-z0-9]")

FLAGS: dict[str, re.Pattern[str]] = {
    "auth": re.compile(
        r"\b(authenticat\w*|authoriz\w*|auth|login|log in|logout|sign[ -]?in|sign[ -]?up|"
        r"passwords?|jwt|oauth2?|bearer|api[ _-]?keys?|(?:access|refresh|auth|session) "
        r"tokens?|rbac|role-based)\b", re.I),
    "database": re.compile(
        r"\b((?<!zone )databases?|sql|sqlite|postgres(?:ql)?|mysql|mariadb|mongo(?:db)?|redis|orm|"
        r"sqlalchemy|hibernate|jpa|h2|persist\w*)\b", re.I),
    "background": re.compile(
        r"\b(background|asynchronous(?:ly)?|async (?:jobs?|tasks?|processing)|"
        r"(?:job|task|message) queues?|workers?|scheduled (?:jobs?|tasks?)|scheduler|cron|"
        r"periodic(?:ally)?|celery|webhooks?|batch jobs?)\b", re.I),
    "upload": re.compile(r"\b(upload\w*|multipart|form-data|attachments?)\b", re.I),
}
DEPENDENCIES: dict[str, re.Pattern[str]] = {
    "PostgreSQL": re.compile(r"\bpostgres(?:ql)?\b", re.I),
    "MySQL": re.compile(r"\b(mysql|mariadb)\b", re.I),
    "SQLite": re.compile(r"\bsqlite3?\b", re.I),
    "MongoDB": re.compile(r"\bmongo(?:db)?\b", re.I),
    "Redis": re.compile(r"\bredis\b", re.I),
    "H2": re.compile(r"\bH2\b"),
    "Elasticsearch": re.compile(r"\belastic ?search\b", re.I),
    "RabbitMQ": re.compile(r"\brabbit ?mq\b", re.I),
    "Kafka": re.compile(r"\bkafka\b", re.I),
    "SMTP / mail server": re.compile(r"\b(smtp|mail server)\b", re.I),
    "S3 / object storage": re.compile(r"\b(s3|object storage|minio)\b", re.I),
}
PACKAGES: dict[str, re.Pattern[str]] = {name: re.compile(pattern, re.I) for name, pattern in {
    # Python
    "flask": r"\bflask\b", "fastapi": r"\bfastapi\b", "django": r"\bdjango\b",
    "djangorestframework": r"\b(django[ -]rest[ -]framework|djangorestframework|drf)\b",
    "eve": r"\beve\b(?= (?:framework|microservice|api|rest|service|benchmark)|\))",
    "pydantic": r"\bpydantic\b", "sqlalchemy": r"\bsqlalchemy\b", "uvicorn": r"\buvicorn\b",
    "gunicorn": r"\bgunicorn\b", "requests": r"\brequests\b(?= library| package|==|>=)",
    "httpx": r"\bhttpx\b", "pandas": r"\bpandas\b", "numpy": r"\bnumpy\b",
    "babel": r"\bbabel\b", "pytz": r"\bpytz\b", "celery": r"\bcelery\b",
    "pyjwt": r"\bpyjwt\b", "bcrypt": r"\bbcrypt\b", "passlib": r"\bpasslib\b",
    "marshmallow": r"\bmarshmallow\b", "werkzeug": r"\bwerkzeug\b", "pyyaml": r"\bpyyaml\b",
    # Java
    "spring-boot": r"\bspring[ -]?boot\b", "javalin": r"\bjavalin\b",
    "micronaut": r"\bmicronaut\b", "quarkus": r"\bquarkus\b",
    "sparkjava": r"\bspark(?:java| java| framework)?\b(?! sql)", "jackson": r"\bjackson\b",
    "gson": r"\bgson\b", "hibernate": r"\bhibernate\b", "lombok": r"\blombok\b",
    "jjwt": r"\bjjwt\b", "jakarta": r"\bjakarta\b",
}.items()}
_PIN = re.compile(r"(?<![\w.-])([A-Za-z][\w.-]*[A-Za-z0-9])\s*(?:==|>=|~=|<=)\s*\d")
_PIP = re.compile(r"\bpip3? install\s+(.+)$")


@dataclass(frozen=True, slots=True)
class Component:
    """One part of the composite score: raw value, scaled value and points."""

    name: str
    value: float
    saturation: float
    weight: float

    @property
    def points(self) -> float:
        return round(min(self.value / self.saturation, 1.0) * self.weight, 3)


@dataclass(frozen=True, slots=True)
class Resources:
    """The README's schema fields by type, each kind with its evidence."""

    primitive: tuple[Mention, ...]
    collection: tuple[Mention, ...]
    objects: tuple[Mention, ...]
    untyped: tuple[Mention, ...]

    @property
    def weighted(self) -> int:
        return (len(self.primitive) + len(self.objects) + len(self.untyped)
                + COLLECTION_FACTOR * len(self.collection))


@dataclass(frozen=True, slots=True)
class SpecComplexity:
    """Spec complexity of one README (see the module docstring)."""

    name: str
    words: int
    lines: int
    endpoints: tuple[Mention, ...]  # what: 'METHOD /path'
    resources: Resources
    dependencies: tuple[Mention, ...]  # what: the dependency's name (first mention)
    packages: tuple[Mention, ...]  # what: the package's name (first mention)
    flags: dict[str, tuple[Mention, ...]]  # flag -> mentions (empty: not mentioned)
    components: tuple[Component, ...]
    score: float
    tier: str

    def flag(self, name: str) -> bool:
        return bool(self.flags.get(name))

    def explain(self) -> list[str]:
        """One line per component: its value, points and the README lines behind it."""
        out = []
        for c in self.components:
            if c.name.startswith("flag:"):
                said = "mentioned" if c.value else "not mentioned"
                out.append(f"{c.name[5:]}: {said} -> {c.points:.2f} of {c.weight:g}")
            else:
                out.append(f"{c.name}: {c.value:g} (saturates at {c.saturation:g}) -> "
                           f"{c.points:.2f} of {c.weight:g}")
        return out

    def to_json(self) -> dict[str, object]:
        def ms(mentions: tuple[Mention, ...]) -> list[dict[str, object]]:
            return [{"line": m.line, "what": m.what} for m in mentions]

        r = self.resources
        return {
            "task": self.name, "words": self.words, "lines": self.lines,
            "endpoints": ms(self.endpoints),
            "resources": {"primitive": len(r.primitive), "collection": len(r.collection),
                          "object": len(r.objects), "untyped": len(r.untyped),
                          "fields": {"primitive": ms(r.primitive),
                                     "collection": ms(r.collection),
                                     "object": ms(r.objects), "untyped": ms(r.untyped)}},
            "dependencies": ms(self.dependencies), "packages": ms(self.packages),
            "flags": {k: ms(v) for k, v in self.flags.items()},
            "components": [{"name": c.name, "value": c.value, "saturation": c.saturation,
                            "weight": c.weight, "points": c.points} for c in self.components],
            "score": self.score, "tier": self.tier,
        }


def tier_for(score: float) -> str:
    """high at ≥ 5.5, medium at ≥ 3.5, else low."""
    if score >= HIGH_AT:
        return HIGH
    return MEDIUM if score >= MEDIUM_AT else LOW


def count_words(text: str) -> int:
    return sum(1 for tok in text.split() if _WORD.search(tok))


def _resources(contract: ReadmeContract) -> Resources:
    kinds: dict[str, list[Mention]] = {"primitive": [], "collection": [], "object": [],
                                       "untyped": []}
    for f in contract.fields:
        if f.role == QUERY:
            continue
        parts = {p.split("<")[0].strip() for p in f.type.split("|") if p}
        if "array" in parts:
            kind = "collection"
        elif "object" in parts:
            kind = "object"
        elif parts and parts <= _PRIMITIVE:
            kind = "primitive"
        else:
            kind = "untyped"
        kinds[kind].append(Mention(f.line, clip(f.text), f.path))
    return Resources(tuple(kinds["primitive"]), tuple(kinds["collection"]),
                     tuple(kinds["object"]), tuple(kinds["untyped"]))


def _first_mentions(lines: tuple[str, ...], vocab: dict[str, re.Pattern[str]]
                    ) -> tuple[Mention, ...]:
    """The first line naming each vocabulary entry, in README order."""
    found: dict[str, Mention] = {}
    for no, raw in enumerate(lines, 1):
        for name, pattern in vocab.items():
            if name not in found and pattern.search(raw):
                found[name] = Mention(no, clip(raw), name)
    return tuple(sorted(found.values(), key=lambda m: (m.line, m.what)))


def _packages(lines: tuple[str, ...]) -> tuple[Mention, ...]:
    found = {m.what: m for m in _first_mentions(lines, PACKAGES)}
    for no, raw in enumerate(lines, 1):
        names = [m.group(1) for m in _PIN.finditer(raw)]
        pip = _PIP.search(raw)
        if pip:
            for tok in pip.group(1).split("#")[0].replace("`", " ").split():
                if tok in ("-r", "--requirement", "-e"):
                    break  # a requirements file or a local path: no names here
                if not re.fullmatch(r"[A-Za-z][\w.\-\[\]]*", tok) or tok.endswith(".txt"):
                    break
                names.append(tok)
        for name in names:
            key = re.sub(r"\[.*\]$", "", name).lower().replace("_", "-")
            if key not in found and not any(p.fullmatch(key) for p in PACKAGES.values()):
                found[key] = Mention(no, clip(raw), key)
    return tuple(sorted(found.values(), key=lambda m: (m.line, m.what)))


def _flags(lines: tuple[str, ...]) -> dict[str, tuple[Mention, ...]]:
    out: dict[str, list[Mention]] = {k: [] for k in FLAGS}
    for no, raw in enumerate(lines, 1):
        for name, pattern in FLAGS.items():
            m = pattern.search(raw)
            if m:
                out[name].append(Mention(no, clip(raw), m.group(0)))
    return {k: tuple(v) for k, v in out.items()}


def spec_complexity(readme: str, name: str = "README.md",
                    contract: ReadmeContract | None = None) -> SpecComplexity:
    """The spec complexity of ``readme`` (its text); ``contract`` when already parsed."""
    contract = contract or ReadmeContract.parse(readme, name)
    lines = contract.lines
    endpoints = tuple(Mention(e.line, clip(contract.text_of(e.line)), f"{e.method} {e.path}")
                      for e in contract.endpoints)
    resources = _resources(contract)
    deps = _first_mentions(lines, DEPENDENCIES)
    packages = _packages(lines)
    flags = _flags(lines)
    words = count_words(readme)
    comps = [Component(n, float(v), *WEIGHTS[n]) for n, v in (
        ("endpoints", len(endpoints)), ("resources", resources.weighted), ("words", words),
        ("dependencies", len(deps) + len(packages)))]
    comps += [Component(f"flag:{k}", 1.0 if v else 0.0, 1.0, FLAG_WEIGHT)
              for k, v in flags.items()]
    score = round(sum(c.points for c in comps), 2)
    return SpecComplexity(name, words, len(lines), endpoints, resources, deps, packages, flags,
                          tuple(comps), score, tier_for(score))
