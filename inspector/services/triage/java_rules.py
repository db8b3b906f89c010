"""Java readings (rule family ``java/*``): what Maven, javac and the JVM said about a Java
sample's failure, read against the generated repo's ``pom.xml`` and sources.

* ``dependency`` — an artifact the pom declares that the repository answered it does not have;
  a library class missing at run time (``NoSuchMethodError``, ``NoClassDefFoundError``,
  ``ClassNotFoundException``); javac's ``package x does not exist`` for a library's package.
  Each names the artifact and the pom line that declares it (or that none does).
* ``not-model`` — an artifact the pom never asked for (Maven's default lifecycle plugins, a
  plugin's own dependencies, Surefire's provider) missing from the configured repository, or a
  repository that never answered (offline, unreachable): the machine's, not evaluable; a port
  another process held; a golden test compiled against classes the README never names.
* ``cross-file`` — javac rejects a use of the repo's own class that another file defines
  differently: the use site (javac's file:line) and the definition site.
* ``architectural`` — a Spring context that cannot wire a bean (not a bean, outside the
  ``@SpringBootApplication`` scan), controllers the scan never reaches, a configured port that
  is not the README's, routes registered by code ``main`` never calls.

Only Java samples are read (``language == "java"``); Python samples get no reading here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from inspector.model.failures import java_signs as js
from inspector.model.failures.triage import DEPLOY_FAILED, Reading
from inspector.model.labels.label_file import Anchor
from inspector.model.results.not_evaluable import infer_not_evaluable
from inspector.model.results.outcomes import Phase
from inspector.services.suite.maven_plan import LIFECYCLE_SWITCH
from inspector.services.triage.java_repo import JavaRepo, PomEntry, TypeDecl
from inspector.services.triage.rules import ItemEvidence

DEPENDENCY = "dependency"
CROSS_FILE = "cross-file"
ARCHITECTURAL = "architectural"
NOT_MODEL = "not-model"
OTHER = "other"
MAX_QUOTE = 200


@dataclass
class _Text:
    """Lines of one source of evidence and how to anchor a line of it."""

    lines: list[str]
    phase: Phase | None = None  # a phase log
    line_nos: list[int] | None = None
    test: str | None = None  # a test's message and trace

    def anchor(self, i: int) -> list[Anchor]:
        if self.phase is not None and self.line_nos is not None and i < len(self.line_nos):
            return [Anchor.log(self.phase.value, self.line_nos[i], self.lines[i].strip())]
        return [Anchor.for_test(self.test)] if self.test else []


def _quote(text: str) -> str:
    text = " ".join(js.strip_level(text).split())
    return text if len(text) <= MAX_QUOTE else text[:MAX_QUOTE - 1] + "…"


def is_java(ev: ItemEvidence) -> bool:
    return ev.sample.language.lower() == "java"


MEMO_SAMPLES = 8
"""Java repos kept read per triage pass (a pass reads one sample's items in a row)."""


def _repo(ev: ItemEvidence) -> JavaRepo:
    """The sample's repo, read once for all its items."""
    key = ("java-repo", ev.sample.sample_id)
    memo = ev.files.memo
    repo = memo.get(key)
    if not isinstance(repo, JavaRepo):
        if len(memo) >= MEMO_SAMPLES:
            memo.clear()
        repo = memo[key] = JavaRepo.read(ev.sample.repo_path)
    return repo


def _texts(ev: ItemEvidence) -> list[_Text]:
    """The test's own message and trace; for a sample-level item the phase logs (install,
    start, health, tests) and the phase messages."""
    if ev.case is not None:
        lines = f"{ev.case.message}\n{ev.case.traceback}".splitlines()
        return [_Text(lines, test=ev.case.id)]
    readme = ev.task.readme if ev.task else None
    ctx = ev.files.sample_context(ev.sample, readme, ev.audit)
    out: list[_Text] = []
    for phase in (Phase.INSTALL, Phase.START, Phase.HEALTH, Phase.TESTS):
        log = ctx.log(phase)
        if log is not None:
            out.append(_Text(list(log.lines), phase, list(log.line_nos or [])))
    msgs = [ev.sample.deployment.message, *(p.message for p in ev.sample.deployment.phases)]
    if ev.sample.tests.cause is not None:
        msgs.append(ev.sample.tests.cause.text)
    out.append(_Text([m for m in dict.fromkeys(msgs) if m]))
    return out


def java_readings(ev: ItemEvidence) -> list[Reading]:
    """Every ``java/*`` reading of a Java sample's item (one per category at most)."""
    if not is_java(ev):
        return []
    repo = _repo(ev)
    texts = _texts(ev)
    out: list[Reading] = []
    for read in (_not_evaluable, _resolution, _compile, _linkage, _spring_beans, _port_in_use,
                 _configured_port, _main_class, _not_scanned, _routes_unregistered):
        try:
            found = read(ev, repo, texts)
        except (IndexError, KeyError, ValueError, RecursionError):
            continue  # odd text one reader trips on never hides the others
        for r in found:
            if all(o.category != r.category for o in out):
                out.append(r)
    return out


# ------------------------------------------------------------------------- resolution

def _not_evaluable(ev: ItemEvidence, repo: JavaRepo, texts: list[_Text]) -> list[Reading]:
    """The harness marked the sample not evaluable (or its messages say so): as the figures
    count it, never the model's."""
    ne = ev.sample.not_evaluable or infer_not_evaluable(ev.sample)
    if ne is None:
        return []
    how = ", inferred" if ne.inferred else ""
    return [Reading(NOT_MODEL, 0.9, "java/not-evaluable",
                    f"not evaluable ({ne.kind}{how}): {_quote(ne.reason)} — the machine's, "
                    "not the model's")]


def _resolution(ev: ItemEvidence, repo: JavaRepo, texts: list[_Text]) -> list[Reading]:
    for text in texts:
        # what the harness worked around (plugin goals instead of the lifecycle) is not why
        # the build stopped: only what was unresolved after its switch counts (the lines
        # before it blanked, so indexes still point into the log)
        switched = max((i for i, line in enumerate(text.lines) if LIFECYCLE_SWITCH in line),
                       default=-1)
        res = js.resolution(["" if i <= switched else line
                             for i, line in enumerate(text.lines)])
        if not res.missing:
            continue
        first = res.missing[0]
        log = text.anchor(first.index)
        if not res.answered:
            why = "offline, and the local repository lacks it" if res.offline else \
                "the repository did not answer"
            return [Reading(NOT_MODEL, 0.9, "java/maven-repository-unreachable",
                            f"Maven could not resolve {first.short} ({why}): the machine's "
                            "repository, not the repo — not evaluable", tuple(log))]
        declared = [(u, e) for u in res.missing if (e := _declaring(repo, u)) is not None]
        if declared:
            u, entry = declared[0]
            where = f" in {u.repository}" if u.repository else ""
            kind = {"parent": "parent POM", "plugin": "plugin"}.get(entry.tag, "dependency")
            return [Reading(DEPENDENCY, 0.85, "java/maven-artifact-not-found",
                            f"Maven could not find {u.short}{where}: pom.xml:{entry.line} "
                            f"declares the {kind} {entry.describe()}, which the repository "
                            "does not have (a version or artifact that does not exist)",
                            (*text.anchor(u.index), Anchor.file("pom.xml", entry.line)))]
        if repo.pom_text is None:
            return []
        what = f"the plugin {first.plugin}'s own dependency" if first.plugin and \
            not first.plugin.startswith(first.key + ":") else (
                "a plugin Maven's default lifecycle uses at its default version"
                if first.group == "org.apache.maven.plugins" or first.plugin
                else "an artifact pulled in by another (not declared by the repo)")
        return [Reading(NOT_MODEL, 0.9, "java/maven-undeclared-artifact-missing",
                        f"Maven could not resolve {first.short}"
                        f"{' in ' + first.repository if first.repository else ''}: "
                        f"{what}; the repo's pom.xml never asks for {first.key}. The "
                        "configured repository lacks it: the machine's, not the model's "
                        "(not evaluable)", (*log, Anchor.file("pom.xml")))]
    return []


def _declaring(repo: JavaRepo, u: js.Unresolved) -> PomEntry | None:
    """The pom entry that asked for ``u`` at the version Maven looked for: a plugin declared
    without a version is resolved at Maven's default one, which the repo did not choose."""
    entry = repo.declared(u.group, u.artifact)
    if entry is None:
        return None
    if entry.tag == "plugin" and not entry.version:
        return None
    if u.plugin and not u.plugin.startswith(u.key + ":"):
        return None  # a dependency of a plugin, not the plugin
    return entry


# ------------------------------------------------------------------------- javac

def _compile(ev: ItemEvidence, repo: JavaRepo, texts: list[_Text]) -> list[Reading]:
    out: list[Reading] = []
    for text in texts:
        errors = js.compile_errors(text.lines)
        for err in errors:
            r = _compile_reading(ev, repo, text, err, len(errors))
            if r is not None and all(o.category != r.category for o in out):
                out.append(r)
        if errors:
            break
    return out


def _compile_reading(ev: ItemEvidence, repo: JavaRepo, text: _Text, err: js.CompileError,
                     total: int) -> Reading | None:
    use = (*text.anchor(err.index), Anchor.file(err.path, err.line))
    quote = f"{err.where}: {_quote(err.message)}" + (f" ({err.symbol})" if err.symbol else "")
    more = f" (javac reports {total} errors)" if total > 1 else ""
    m = js.MISSING_PACKAGE.match(err.message)
    if m:
        return _missing_package(ev, repo, err, m["pkg"], quote, use, more)
    target = _target_type(err)
    if target is None:
        return _wrong_file(repo, err, quote, use, more)
    if err.in_tests:
        return _golden_compile(ev, repo, err, target, quote, use)
    decls = [d for d in repo.find_type(target) if d.file != err.path]
    if not decls:
        return _undeclared_own_class(repo, err, target, quote, use, more)
    decl = decls[0]
    member = _member_name(err)
    defs = repo.members(decl, member) if member else []
    site = f"{decl.file}:{decl.line}"
    if defs:
        shown = "; ".join(f"{decl.file}:{no} `{_quote(s)}`" for no, s in defs[:2])
        detail = f"{decl.fqn} declares {member} differently: {shown}"
        anchors = [Anchor.file(decl.file, no) for no, _ in defs[:2]]
    elif member:
        detail = f"{decl.fqn} ({site}) declares no {member}"
        anchors = [Anchor.file(decl.file, decl.line)]
    else:
        detail = f"{decl.fqn} is declared at {site}"
        anchors = [Anchor.file(decl.file, decl.line)]
    if err.required or err.found:
        detail += f" (required: {err.required}; found: {err.found})"
    weight = 0.7 if js.INCOMPATIBLE.match(err.message) else 0.85
    return Reading(CROSS_FILE, weight, "java/compile-cross-file",
                   f"{quote} — {detail}: the use and the definition of the repo's own class "
                   f"disagree across files{more}", (*use, *anchors))


def _undeclared_own_class(repo: JavaRepo, err: js.CompileError, target: str, quote: str,
                          use: tuple[Anchor, ...], more: str) -> Reading | None:
    """A class the use site takes from the repo's own package that no file declares."""
    sym = js.SYMBOL.match(err.symbol)
    if not (sym and sym["kind"] in ("class", "interface", "enum")) or repo.find_type(target):
        return None
    pkg = err.location.removeprefix("package ") if err.location.startswith("package ") else \
        next((m["pkg"] for m in re.finditer(
            rf"^\s*import\s+(?P<pkg>[\w.]+)\.{re.escape(target)}\s*;",
            repo.sources.get(err.path, ""), re.M)), None)
    if pkg is None or not repo.own_package(pkg):
        return None
    return Reading(CROSS_FILE, 0.75, "java/compile-cross-file",
                   f"{quote} — {err.path} uses {pkg}.{target}, and no file of the repo "
                   f"declares {target}: a class other files rely on was never written{more}",
                   use)


def _target_type(err: js.CompileError) -> str | None:
    """The repo type a javac error is about: the location's class for a missing member, the
    missing class itself, the class whose constructor/method does not apply."""
    m = js.CANNOT_APPLY.match(err.message)
    if m:
        return re.sub(r"<.*", "", m["cls"])
    if js.CANNOT_FIND.match(err.message):
        sym = js.SYMBOL.match(err.symbol)
        if sym and sym["kind"] in ("class", "interface", "enum"):
            return sym["name"]
        return js.location_type(err.location)
    inc = js.INCOMPATIBLE.match(err.message)
    if inc:
        for side in (inc["a"], inc["b"]):
            name = re.sub(r"<.*", "", side.strip())
            if re.fullmatch(r"[\w.$]+", name) and name[:1].isalpha() and \
                    name.rpartition(".")[2][:1].isupper() and not name.startswith("java."):
                return name
    return None


def _member_name(err: js.CompileError) -> str | None:
    m = js.CANNOT_APPLY.match(err.message)
    if m:
        return m["name"]
    sym = js.SYMBOL.match(err.symbol)
    if sym and sym["kind"] in ("method", "variable"):
        return sym["name"]
    return None


def _missing_package(ev: ItemEvidence, repo: JavaRepo, err: js.CompileError, pkg: str,
                     quote: str, use: tuple[Anchor, ...], more: str) -> Reading | None:
    if repo.own_package(pkg):
        imported = repo.line_of(err.path, re.compile(rf"^\s*import\s+(?:static\s+)?"
                                                     rf"{re.escape(pkg)}\.(\w+)"))
        last = re.search(r"\.(\w+)\s*;", imported[1]) if imported else None
        name = last.group(1) if last else None
        decls = repo.find_type(name) if name and name[:1].isupper() else []
        if err.in_tests:
            return _golden_compile(ev, repo, err, name or pkg, quote, use)
        if decls:
            d = decls[0]
            return Reading(CROSS_FILE, 0.85, "java/compile-cross-file",
                           f"{quote} — {name} is declared in package {d.package} "
                           f"({d.file}:{d.line}), not {pkg}: the import and the declaration "
                           f"disagree across files{more}", (*use, Anchor.file(d.file, d.line)))
        return Reading(CROSS_FILE, 0.75, "java/compile-cross-file",
                       f"{quote} — {pkg} is under the repo's own packages, yet no file "
                       f"declares it (the repo's packages: "
                       f"{', '.join(sorted(repo.packages)[:4])}){more}", use)
    provider = repo.provider(pkg)
    if err.in_tests and not _readme_names(ev, pkg, provider):
        return Reading(NOT_MODEL, 0.7, "java/golden-test-undocumented-library",
                       f"{quote} — the task's test needs the library package {pkg}, and the "
                       "task README never names it or its artifact: a test dependency the "
                       "model could not know (a benchmark defect)", use)
    pom = Anchor.file("pom.xml", provider.line if provider else repo.pom_anchor_line())
    if provider is not None:
        tail = (f"pom.xml:{provider.line} declares {provider.describe()}, whose version does "
                f"not provide {pkg} (another major version's package)")
    elif repo.pom_text is None:
        tail = "the repo has no pom.xml"
    else:
        tail = f"no <dependency> in pom.xml provides {pkg}"
    return Reading(DEPENDENCY, 0.85 if not err.in_tests else 0.7,
                   "java/compile-missing-dependency",
                   f"{quote} — {pkg} is a library's package, not the repo's: {tail}{more}",
                   (*use, pom))


def _readme_names(ev: ItemEvidence, pkg: str, provider: PomEntry | None) -> bool:
    readme = ev.task.readme if ev.task else None
    if not readme:
        return True  # cannot tell: do not blame the suite
    words = {pkg, *(p for p in pkg.split(".")[1:] if len(p) > 3)}
    if provider is not None:
        words.add(provider.artifact)
    low = readme.lower()
    return any(w.lower() in low for w in words)


def _golden_compile(ev: ItemEvidence, repo: JavaRepo, err: js.CompileError, target: str,
                    quote: str, use: tuple[Anchor, ...]) -> Reading | None:
    """A golden test that does not compile against the repo's classes: names the README
    never gives are the suite's assumption (not the model's); names it gives are the repo's
    failure to follow the README."""
    simple = target.rpartition(".")[2]
    if not repo.own_class(target) and not repo.own_package(target):
        sym = js.SYMBOL.match(err.symbol)
        if not (sym and sym["kind"] in ("class", "interface", "enum")):
            return None  # a library's class: not about the repo's layout
        imported = _golden_line(ev, repo, err.path, re.compile(
            rf"^\s*import\s+(?:static\s+)?(?P<pkg>[\w.]+)\.{re.escape(simple)}\s*;", re.M))
        if imported is not None and not repo.own_package(imported):
            return None  # a library class the test imports (its package is read apart)
    readme = ev.task.readme if ev.task else None
    if readme is None:
        return None
    names = [n for n in {target.rpartition(".")[2], _member_name(err) or ""} if n]
    missing = [n for n in names if not re.search(rf"(?<![\w]){re.escape(n)}(?!\w)", readme)]
    if missing:
        return Reading(NOT_MODEL, 0.85, "java/golden-test-undocumented-internals",
                       f"{quote} — the task's test uses the repo's {' and '.join(missing)}, "
                       "which the task README never names: the suite assumed an internal "
                       "layout (a benchmark defect, not the model's)", use)
    return Reading(OTHER, 0.6, "java/readme-name-missing",
                   f"{quote} — the task's test uses {', '.join(names)}, named by the task "
                   "README, and the repo does not provide it that way: the repo does not "
                   "follow the README's layout", use)


def _golden_line(ev: ItemEvidence, repo: JavaRepo, rel: str, pattern: re.Pattern[str]
                 ) -> str | None:
    """The ``pkg`` group of the first line of the golden test ``rel`` (the task's copy, else
    the repo's) matching ``pattern``."""
    texts = [ev.suite_source(rel), repo.sources.get(rel)]
    for text in texts:
        m = pattern.search(text or "") if text else None
        if m is not None:
            return m["pkg"]
    return None


def _wrong_file(repo: JavaRepo, err: js.CompileError, quote: str, use: tuple[Anchor, ...],
                more: str) -> Reading | None:
    m = js.WRONG_FILE.match(err.message)
    if m:
        return Reading(CROSS_FILE, 0.7, "java/compile-class-file-mismatch",
                       f"{quote} — {err.path} declares the public class {m['cls']}, which "
                       f"javac requires in {m['file']}{more}", use)
    if js.NO_OVERRIDE.match(err.message):
        own = [d for d in repo.types if d.file == err.path and d.line <= err.line]
        decl = max(own, key=lambda d: d.line) if own else None
        for sup in repo.supertypes(decl) if decl else []:
            found = [d for d in repo.find_type(sup) if d.file != err.path]
            if found:
                d = found[0]
                return Reading(CROSS_FILE, 0.8, "java/compile-cross-file",
                               f"{quote} — {decl.name if decl else 'the class'} overrides a "
                               f"method its supertype {d.fqn} ({d.file}:{d.line}) does not "
                               f"declare{more}", (*use, Anchor.file(d.file, d.line)))
    return None


# ------------------------------------------------------------------------- run time

def _linkage(ev: ItemEvidence, repo: JavaRepo, texts: list[_Text]) -> list[Reading]:
    for text in texts:
        for exc in js.java_exceptions(text.lines):
            cls = js.linkage_class(exc)
            if cls is None or repo.own_class(cls):
                continue
            pkg = cls.rpartition(".")[0]
            entry = repo.provider(pkg)
            anchors = [*text.anchor(exc.index), *_frame_anchors(repo, exc)]
            if entry is not None:
                anchors.append(Anchor.file("pom.xml", entry.line))
                tail = (f"pom.xml:{entry.line} declares {entry.describe()}; the class another "
                        "library was compiled against is not in that version (a version "
                        "conflict)" if exc.simple in ("NoSuchMethodError", "NoSuchFieldError",
                                                      "AbstractMethodError",
                                                      "IncompatibleClassChangeError")
                        else f"pom.xml:{entry.line} declares {entry.describe()}, which does "
                        f"not provide it at this version")
            else:
                anchors.append(Anchor.file("pom.xml", repo.pom_anchor_line()))
                tail = f"no <dependency> in pom.xml provides {pkg}"
            return [Reading(DEPENDENCY, 0.8, "java/linkage-error",
                            f"{exc.simple}: {_quote(exc.message)} — {cls} is a library "
                            f"class (not the repo's package): {tail}", tuple(anchors))]
    return []


def _frame_anchors(repo: JavaRepo, exc: js.JavaException, limit: int = 2) -> list[Anchor]:
    out: list[Anchor] = []
    for f in exc.frames:
        if f.line and repo.own_class(f.cls):
            rel = repo.file_of_class(f.cls)
            if rel:
                out.append(Anchor.file(rel, f.line))
                if len(out) >= limit:
                    break
    return out


_BEAN_ANNOTATION = re.compile(r"@(?:Service|Component|Repository|Controller|RestController|"
                              r"Configuration|Singleton|ApplicationScoped|RequestScoped|"
                              r"Prototype|Bean)\b")
_APP_CLASS = re.compile(r"@SpringBootApplication\b")
_SCAN = re.compile(r"@ComponentScan|scanBasePackages|@EnableJpaRepositories|@Import\(")


def _spring_app(repo: JavaRepo) -> TypeDecl | None:
    for rel, text in repo.sources.items():
        if rel.startswith("src/main/") and _APP_CLASS.search(text):
            decls = [d for d in repo.types if d.file == rel]
            if decls:
                return decls[0]
    return None


def _spring_beans(ev: ItemEvidence, repo: JavaRepo, texts: list[_Text]) -> list[Reading]:
    for pattern in (js.BEAN_REQUIRED, js.NO_QUALIFYING, js.CONSIDER_BEAN):
        for text in texts:
            for i, raw in enumerate(text.lines):
                m = pattern.search(raw)
                if m is not None:
                    return [_bean_reading(repo, text, i, m)]
    for text in texts:
        excs = js.java_exceptions(text.lines)
        if any((c := js.linkage_class(e)) and not repo.own_class(c) for e in excs):
            continue  # a library class missing under the context: the linkage reading's
        for exc in excs:
            b = js.BEAN_ERROR.search(f"{exc.simple}: {exc.message}")
            if b is None:
                continue
            anchors = [*text.anchor(exc.index), *_frame_anchors(repo, exc)]
            bean = f" (bean '{b['bean']}')" if b["bean"] else ""
            return [Reading(ARCHITECTURAL, 0.7, "java/spring-context-failed",
                            f"the Spring application context failed: {exc.simple}{bean}: "
                            f"{_quote(exc.message)}", tuple(anchors))]
    return []


def _bean_reading(repo: JavaRepo, text: _Text, i: int, m: re.Match[str]) -> Reading:
    typ = m["type"]
    anchors = [*text.anchor(i)]
    needs = m.groupdict().get("cls")
    if needs and (rel := repo.file_of_class(needs)):
        found = repo.find_type(needs)
        anchors.append(Anchor.file(rel, found[0].line if found else None))
    decls = repo.find_type(typ)
    app = _spring_app(repo)
    head = f"{_quote(text.lines[i])} —"
    if not decls:
        if repo.own_class(typ):
            why = f"no file of the repo declares {typ}"
        else:
            why = f"{typ} is a library type no configuration of the repo provides"
        return Reading(ARCHITECTURAL, 0.75, "java/spring-missing-bean",
                       f"{head} {why}: the application's wiring is incomplete", tuple(anchors))
    d = decls[0]
    anchors.append(Anchor.file(d.file, d.line))
    src = repo.sources.get(d.file, "")
    impls = [t for t in repo.types if t.file != d.file and re.search(
        rf"\bimplements\b[^{{]*\b{re.escape(d.name)}\b", repo.sources.get(t.file, ""))]
    annotated = bool(_BEAN_ANNOTATION.search(src)) or any(
        _BEAN_ANNOTATION.search(repo.sources.get(t.file, "")) for t in impls)
    if app is not None and not _SCAN.search(repo.sources.get(app.file, "")):
        outside = [t for t in [d, *impls] if not (t.package == app.package or
                                                  t.package.startswith(app.package + "."))]
        if outside and annotated:
            t = outside[0]
            anchors.append(Anchor.file(app.file, app.line))
            return Reading(ARCHITECTURAL, 0.85, "java/spring-scan-misses-bean",
                           f"{head} {t.fqn} ({t.file}:{t.line}) is in package {t.package}, "
                           f"outside the package {app.package} that @SpringBootApplication "
                           f"({app.file}:{app.line}) scans", tuple(anchors))
    if not annotated:
        what = "an interface no class implements" if d.kind == "interface" and not impls \
            else "not annotated as a bean (@Service/@Component/@Repository) and no @Bean " \
                 "method builds it"
        return Reading(ARCHITECTURAL, 0.85, "java/spring-not-a-bean",
                       f"{head} {d.fqn} ({d.file}:{d.line}) is {what}", tuple(anchors))
    return Reading(ARCHITECTURAL, 0.7, "java/spring-missing-bean",
                   f"{head} {d.fqn} ({d.file}:{d.line}) is declared but the context has no "
                   "such bean", tuple(anchors))


def _port_in_use(ev: ItemEvidence, repo: JavaRepo, texts: list[_Text]) -> list[Reading]:
    for text in texts:
        for i, raw in enumerate(text.lines):
            if js.PORT_IN_USE.search(raw):
                return [Reading(NOT_MODEL, 0.85, "java/port-held",
                                f"{_quote(raw)} — another process held the port when the "
                                "service started: the machine's, not the model's",
                                tuple(text.anchor(i)))]
    return []


_PORT_KEYS = re.compile(r"^\s*(?P<key>server\.port|micronaut\.server\.port|quarkus\.http\.port)"
                        r"\s*[=:]\s*(?P<port>\d+)\s*$", re.M)
_YAML_PORT = re.compile(r"^(?P<indent>[ ]+)port[ ]*:[ ]*(?P<port>\d+)[ ]*$", re.M)
_YAML_SERVER = ("server", "micronaut.server", "quarkus.http")
_CODE_PORT = re.compile(r"(?:\.start\(|\bport\(|\.setPort\(|new InetSocketAddress\(|"
                        r"new Server\()\s*(?P<port>\d{2,5})\s*\)")


def _configured_port(ev: ItemEvidence, repo: JavaRepo, texts: list[_Text]) -> list[Reading]:
    """The service listens where its configuration says, and that is not the README's port
    (only when the service never answered there)."""
    want = ev.task.port if ev.task and ev.task.port else ev.sample.port
    failed = ev.sample.deployment.failed_phase
    never_up = ev.item.kind == DEPLOY_FAILED and failed in (Phase.START, Phase.HEALTH)
    refused = ev.case is not None and bool(js.CONNECTION_REFUSED.search(ev.text))
    if not want or not (never_up or refused):
        return []
    found: tuple[str, int, int, str] | None = None
    for rel, text in repo.resource_files().items():
        for m in [*_PORT_KEYS.finditer(text), *(y for y in _YAML_PORT.finditer(text)
                                                if rel.endswith((".yml", ".yaml"))
                                                and _yaml_path(text, y.start()) in _YAML_SERVER)]:
            if "-" in rel.rpartition("/")[2].removeprefix("application")[:1]:
                continue  # a profile's file (application-dev.yml): only when active
            found = found or (rel, text.count("\n", 0, m.start()) + 1, int(m["port"]),
                              m.group(0).strip())
    if found is None:
        for rel, text in repo.sources.items():
            c = _CODE_PORT.search(text) if rel.startswith("src/main/") else None
            if c is not None:
                found = (rel, text.count("\n", 0, c.start()) + 1, int(c["port"]),
                         c.group(0).strip())
                break
    if found is None or found[2] == want:
        return []
    rel, line, port, said = found
    return [Reading(ARCHITECTURAL, 0.85, "java/configured-port",
                    f"{rel}:{line} `{said}` makes the service listen on {port}, not the "
                    f"README's port {want}", (Anchor.file(rel, line),))]


_MAIN_DECL = re.compile(r"static\s+void\s+main\s*\(")


def _main_class(ev: ItemEvidence, repo: JavaRepo, texts: list[_Text]) -> list[Reading]:
    """The start command names a main class the repo does not declare there."""
    for text in texts:
        if text.phase not in (Phase.START, None) or text.test is not None:
            continue
        for i, raw in enumerate(text.lines):
            m = js.MAIN_NOT_FOUND.search(raw)
            name = (m["cls"] or m["cls2"]) if m else None
            if not name:
                continue
            decls = repo.find_type(name.rpartition(".")[2].split("$")[0])
            if "." in name and not decls and not repo.own_class(name):
                continue  # a library's class
            if any(d.fqn == name for d in decls):
                continue  # declared where named: not the layout
            mains = [(rel, t.count("\n", 0, mm.start()) + 1) for rel, t in repo.sources.items()
                     if rel.startswith("src/main/") and (mm := _MAIN_DECL.search(t))]
            anchors = [*text.anchor(i), *(Anchor.file(rel, no) for rel, no in mains[:1])]
            said = ""
            for rel in ("start.sh", "pom.xml"):
                hit = repo.line_of(rel, re.compile(re.escape(name)))
                if hit is not None:
                    anchors.append(Anchor.file(rel, hit[0]))
                    said = f" ({rel}:{hit[0]} names it)"
                    break
            where = f"main is declared at {mains[0][0]}:{mains[0][1]}" if mains else \
                "no class of the repo declares main"
            return [Reading(ARCHITECTURAL, 0.8, "java/main-class-not-found",
                            f"{_quote(raw)} — the start command's main class {name}{said} "
                            f"does not exist under that name; {where}", tuple(anchors))]
    return []


def _yaml_path(text: str, at: int) -> str:
    """The dotted keys above the YAML line starting at ``at`` (``server`` for ``server:`` /
    ``  port: 8080``), read by indentation."""
    lines = text[:at].splitlines()
    indent = len(text[at:]) - len(text[at:].lstrip(" "))
    keys: list[str] = []
    for line in reversed(lines):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        ind = len(line) - len(line.lstrip(" "))
        if ind < indent and stripped.endswith(":"):
            keys.insert(0, stripped[:-1].strip())
            indent = ind
            if ind == 0:
                break
    return ".".join(keys)


def _is_404(ev: ItemEvidence) -> bool:
    return ev.case is not None and bool(js.NOT_FOUND_STATUS.search(ev.text))


_MAPPING = re.compile(r"@(?:RestController|Controller)\b")


def _not_scanned(ev: ItemEvidence, repo: JavaRepo, texts: list[_Text]) -> list[Reading]:
    """A test got 404 and the controllers are outside the ``@SpringBootApplication`` scan."""
    if not _is_404(ev):
        return []
    app = _spring_app(repo)
    if app is None or _SCAN.search(repo.sources.get(app.file, "")):
        return []
    outside = [d for d in repo.types if d.file.startswith("src/main/")
               and _MAPPING.search(repo.sources.get(d.file, ""))
               and not (d.package == app.package or d.package.startswith(app.package + "."))]
    if not outside:
        return []
    d = outside[0]
    return [Reading(ARCHITECTURAL, 0.85, "java/spring-controllers-not-scanned",
                    f"the test got 404; the controller {d.fqn} ({d.file}:{d.line}) is in "
                    f"package {d.package}, outside {app.package} that @SpringBootApplication "
                    f"({app.file}:{app.line}) scans: its routes are never registered",
                    (Anchor.file(d.file, d.line), Anchor.file(app.file, app.line)))]


_ROUTE_CALL = re.compile(r"(?:\b\w+\.|^\s*)(?:get|post|put|delete|patch)\(\s*\"/|"
                         r"\bcreateContext\(\s*\"/|\baddServlet\([^;]*\"/", re.M)
_METHOD_DECL = re.compile(r"^\s*(?:(?:public|protected|private|static|final|synchronized)\s+)*"
                          r"[\w<>\[\],.? ]+\s+(?P<name>\w+)\s*\([^)]*\)\s*(?:throws [\w., ]+)?"
                          r"\{?\s*$")


def _routes_unregistered(ev: ItemEvidence, repo: JavaRepo, texts: list[_Text]
                         ) -> list[Reading]:
    """A test got 404 and the repo's route registrations (Javalin ``app.get("/…"``, Spark
    ``get("/…"``) sit in a method nothing calls."""
    if not _is_404(ev) or _spring_app(repo) is not None:
        return []
    main_src = {rel: t for rel, t in repo.sources.items() if rel.startswith("src/main/")}
    for rel, text in main_src.items():
        m = _ROUTE_CALL.search(text)
        if m is None:
            continue
        lines = text.splitlines()
        route_line = text.count("\n", 0, m.start()) + 1
        decl = next(((no, d["name"]) for no in range(route_line, 0, -1)
                     if (d := _METHOD_DECL.match(lines[no - 1]))), None)
        if decl is None or decl[1] == "main":
            continue
        no, name = decl
        call = re.compile(rf"(?<![\w]){re.escape(name)}\s*\(|::\s*{re.escape(name)}\b")
        called = any(len(call.findall(t)) > (1 if r == rel else 0)
                     for r, t in main_src.items())
        if called:
            continue
        main = next(((r, t.count("\n", 0, mm.start()) + 1) for r, t in main_src.items()
                     if (mm := re.search(r"static\s+void\s+main\s*\(", t))), None)
        anchors = [Anchor.file(rel, no), Anchor.file(rel, route_line)]
        where_main = ""
        if main is not None:
            anchors.append(Anchor.file(*main))
            where_main = f" ({main[0]}:{main[1]} is main)"
        return [Reading(ARCHITECTURAL, 0.8, "java/routes-never-registered",
                        f"the test got 404; the routes are registered in {name}() "
                        f"({rel}:{no}), which nothing calls{where_main}: the app starts "
                        "without them", tuple(anchors))]
    return []
