"""Java triage readings on Maven 3.8 / javac / Spring Boot output as they really print it (the
console text was checked against Maven 3.8.7 with a mirror of the Debian repository), with a
small generated repo per case: what the triage suggests for the item an annotator sees."""

from __future__ import annotations

from pathlib import Path

from inspector.model import Outcome, Phase, PhaseStatus, SampleResult, TestCase
from inspector.model.benchmark.task import Task
from inspector.model.failures.java_signs import resolution
from inspector.model.labels.label_file import Anchor
from inspector.model.results.sample import Deployment, NotEvaluable, PhaseResult, TestSummary
from inspector.services.triage.engine import TriageContext, triage_sample

TS = "2026-11-29T18:36:19.000000+00:00"

POM = """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.x</groupId>
  <artifactId>demo</artifactId>
  <version>1.0</version>
  <dependencies>
    <dependency>
      <groupId>io.javalin</groupId>
      <artifactId>javalin</artifactId>
      <version>{javalin}</version>
    </dependency>
    <dependency>
      <groupId>com.fasterxml.jackson.core</groupId>
      <artifactId>jackson-databind</artifactId>
      <version>2.14.0</version>
    </dependency>
  </dependencies>
</project>
"""
# line 10: javalin's artifactId, line 15: jackson-databind's

CONSOLE = Path(__file__).resolve().parents[2] / "fixtures" / "java_console"


def console(name: str) -> str:
    """A stored console text (Maven 3.8.7's and Spring Boot 3.2's own spelling)."""
    return (CONSOLE / name).read_text(encoding="utf-8")


BAZ = """package com.x.app;

public class Baz {
    private final int size;

    public Baz(int size) {
        this.size = size;
    }

    public String bar(int n) {
        return "x" + n;
    }
}
"""
USE = """package com.x.app;

public class A {
    public String go() {
        Baz b = new Baz(3);
        String s = b.bar("s", 2);
        return s + b.count();
    }
}
"""
README = "# Demo service\n\nA REST API on port 8080.\n\n## Endpoints\n\n- GET /users\n"


def _log(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{TS}\tout\t{line}\n" for line in text.splitlines()),
                    encoding="utf-8")
    return path


def _repo(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    root.mkdir(parents=True, exist_ok=True)
    return root


def _sample(tmp_path: Path, files: dict[str, str], *, logs: dict[Phase, str] | None = None,
            failed: Phase | None = None, message: str = "",
            cases: tuple[TestCase, ...] = (), language: str = "java",
            not_evaluable: NotEvaluable | None = None) -> SampleResult:
    paths = {ph: _log(tmp_path / "logs" / f"{ph.value}.log", text)
             for ph, text in (logs or {}).items()}
    phases = tuple(PhaseResult(ph, PhaseStatus.FAILED if ph == failed else PhaseStatus.OK,
                               message=message if ph == failed else "") for ph in Phase)
    nfail = sum(c.outcome is Outcome.FAILED for c in cases)
    nerr = sum(c.outcome is Outcome.ERROR for c in cases)
    return SampleResult(
        "run", "demo", 0, language,
        Deployment(failed is None or failed == Phase.TESTS, message,
                   failed if failed != Phase.TESTS else None, phases),
        TestSummary(passed=1 if cases else 0, failed=nfail, errors=nerr, cases=(
            *cases, TestCase("com.x.app.ApiTest::ok", Outcome.PASSED)) if cases else (),
            has_cases=True),
        port=8080, logs=paths, repo_path=_repo(tmp_path / "repo", files),
        not_evaluable=not_evaluable)


def _triage(s: SampleResult, readme: str | None = README, tmp: Path | None = None):
    task = Task("demo", "java", "javalin", 8080, readme or "", root=tmp)
    ctx = TriageContext([], tasks={"demo": task} if readme is not None else {})
    found = triage_sample(s, ctx)
    assert found.suggestions, "no failure item"
    return found.suggestions[0]


def _rules(sug) -> list[str]:
    return [r.rule for r in sug.competing]


# ------------------------------------------------------------------------- dependency

def test_unresolved_declared_artifact_is_dependency_naming_the_pom_line(tmp_path) -> None:
    log = console("resolve_declared.log")
    s = _sample(tmp_path, {"pom.xml": POM.format(javalin="9.9.9")},
                logs={Phase.INSTALL: log}, failed=Phase.INSTALL,
                message="Maven could not resolve io.javalin:javalin:9.9.9 (not found in the "
                        "configured repositories)")
    sug = _triage(s)
    assert (sug.category, sug.rule) == ("dependency", "java/maven-artifact-not-found")
    assert "io.javalin:javalin:9.9.9" in sug.reason and "pom.xml:10" in sug.reason
    assert Anchor.file("pom.xml", 10) in sug.anchors
    assert sug.confidence >= 0.8


def test_default_lifecycle_plugin_missing_is_the_machines_not_the_models(tmp_path) -> None:
    log = console("resolve_default_plugin.log")
    s = _sample(tmp_path, {"pom.xml": POM.format(javalin="5.6.3")},
                logs={Phase.INSTALL: log}, failed=Phase.INSTALL,
                message="Maven could not resolve org.apache.maven.plugins:maven-resources-"
                        "plugin:2.6 (not found in the configured repositories)")
    sug = _triage(s)
    assert (sug.category, sug.rule) == ("not-model", "java/maven-undeclared-artifact-missing")
    assert "never asks for org.apache.maven.plugins:maven-resources-plugin" in sug.reason
    assert "dependency" not in {r.category for r in sug.competing}


def test_repository_that_never_answered_is_the_machines(tmp_path) -> None:
    log = console("resolve_unknown_host.log")
    s = _sample(tmp_path, {"pom.xml": POM.format(javalin="5.6.3")},
                logs={Phase.INSTALL: log}, failed=Phase.INSTALL, message="mvn compile failed")
    sug = _triage(s)
    assert (sug.category, sug.rule) == ("not-model", "java/maven-repository-unreachable")


def test_offline_parent_pom_marked_not_evaluable_is_never_the_models(tmp_path) -> None:
    log = console("resolve_offline_parent.log")
    found = resolution(log.splitlines())
    assert [u.short for u in found.missing] == [
        "org.springframework.boot:spring-boot-starter-parent:3.2.5"]
    assert found.offline and found.missing[0].parent and not found.answered
    why = "Maven could not resolve org.springframework.boot:spring-boot-starter-parent:3.2.5"
    s = _sample(tmp_path, {"pom.xml": SPRING_POM}, logs={Phase.INSTALL: log},
                failed=Phase.INSTALL, message=why,
                not_evaluable=NotEvaluable("dependency_repository_unreachable", why))
    sug = _triage(s)
    assert (sug.category, sug.rule) == ("not-model", "java/not-evaluable")
    assert "dependency" not in {r.category for r in sug.competing}


def test_library_class_missing_at_run_time_is_dependency(tmp_path) -> None:
    trace = console("nosuchmethod_trace.txt")
    case = TestCase("com.x.app.ApiTest::listsUsers", Outcome.ERROR,
                    message=trace.splitlines()[0].split(": ", 1)[1], traceback=trace)
    app = "package com.x.app;\n\npublic class App {\n" + "\n" * 8 + \
          "    static Object create() {\n        return null;\n    }\n}\n"
    s = _sample(tmp_path, {"pom.xml": POM.format(javalin="5.6.3"),
                           "src/main/java/com/x/app/App.java": app}, cases=(case,))
    sug = _triage(s)
    assert (sug.category, sug.rule) == ("dependency", "java/linkage-error")
    assert "com.fasterxml.jackson.core:jackson-databind:2.14.0" in sug.reason
    assert Anchor.file("pom.xml", 15) in sug.anchors
    assert Anchor.file("src/main/java/com/x/app/App.java", 12) in sug.anchors


# ------------------------------------------------------------------------- javac

def test_call_against_another_files_signature_is_cross_file(tmp_path) -> None:
    log = console("compile_cross_file.log")
    s = _sample(tmp_path, {"pom.xml": POM.format(javalin="5.6.3"),
                           "src/main/java/com/x/app/Baz.java": BAZ,
                           "src/main/java/com/x/app/A.java": USE},
                logs={Phase.INSTALL: log}, failed=Phase.INSTALL,
                message="compilation failed: src/main/java/com/x/app/A.java:6: method bar in "
                        "class com.x.app.Baz cannot be applied to given types;")
    sug = _triage(s)
    assert (sug.category, sug.rule) == ("cross-file", "java/compile-cross-file")
    # the use site (javac's file:line) and the definition site in the other file
    assert Anchor.file("src/main/java/com/x/app/A.java", 6) in sug.anchors
    assert Anchor.file("src/main/java/com/x/app/Baz.java", 10) in sug.anchors
    assert "Baz.java:10" in sug.reason and "required: int" in sug.reason


def test_missing_member_of_own_class_is_cross_file(tmp_path) -> None:
    log = console("compile_missing_member.log")
    s = _sample(tmp_path, {"pom.xml": POM.format(javalin="5.6.3"),
                           "src/main/java/com/x/app/Baz.java": BAZ,
                           "src/main/java/com/x/app/A.java": USE},
                logs={Phase.INSTALL: log}, failed=Phase.INSTALL, message="compilation failed")
    sug = _triage(s)
    assert sug.category == "cross-file"
    assert "com.x.app.Baz (src/main/java/com/x/app/Baz.java:3) declares no count" in sug.reason
    assert Anchor.file("src/main/java/com/x/app/Baz.java", 3) in sug.anchors


def test_library_package_missing_is_dependency_not_cross_file(tmp_path) -> None:
    use = "package com.x.app;\n\nimport io.undertow.Undertow;\n\npublic class A {}\n"
    log = console("compile_library_package.log")
    s = _sample(tmp_path, {"pom.xml": POM.format(javalin="5.6.3"),
                           "src/main/java/com/x/app/A.java": use},
                logs={Phase.INSTALL: log}, failed=Phase.INSTALL, message="compilation failed")
    sug = _triage(s)
    assert (sug.category, sug.rule) == ("dependency", "java/compile-missing-dependency")
    assert "no <dependency> in pom.xml provides io.undertow" in sug.reason
    assert "cross-file" not in {r.category for r in sug.competing}
    assert Anchor.file("pom.xml", 7) in sug.anchors  # <dependencies>


def test_own_package_imported_under_another_name_is_cross_file(tmp_path) -> None:
    use = ("package com.x.app;\n\nimport com.x.app.service.UserService;\n\n"
           "public class A {}\n")
    svc = "package com.x.app.services;\n\npublic class UserService {\n}\n"
    log = console("compile_own_package.log")
    s = _sample(tmp_path, {"pom.xml": POM.format(javalin="5.6.3"),
                           "src/main/java/com/x/app/A.java": use,
                           "src/main/java/com/x/app/services/UserService.java": svc},
                logs={Phase.INSTALL: log}, failed=Phase.INSTALL, message="compilation failed")
    sug = _triage(s)
    assert (sug.category, sug.rule) == ("cross-file", "java/compile-cross-file")
    assert "declared in package com.x.app.services" in sug.reason
    assert Anchor.file("src/main/java/com/x/app/services/UserService.java", 3) in sug.anchors


GOLDEN_COMPILE = console("golden_test_compile.log")


def test_golden_test_against_undocumented_internals_is_not_the_models(tmp_path) -> None:
    repo = {"pom.xml": POM.format(javalin="5.6.3"),
            "src/main/java/com/x/app/UserRepository.java":
                "package com.x.app;\n\npublic class UserRepository {\n}\n"}
    s = _sample(tmp_path / "a", repo, logs={Phase.TESTS: GOLDEN_COMPILE},
                message="compilation failed")
    sug = _triage(s)
    assert (sug.category, sug.rule) == ("not-model", "java/golden-test-undocumented-internals")
    assert "UserStore" in sug.reason and "never names" in sug.reason
    # the README names the class: the repo did not follow it
    named = _triage(_sample(tmp_path / "b", repo, logs={Phase.TESTS: GOLDEN_COMPILE}),
                    readme=README + "\nStore users in a `UserStore` class.\n")
    assert named.rule == "java/readme-name-missing" or "java/readme-name-missing" in \
        _rules(named)


# ------------------------------------------------------------------------- architectural

SPRING_POM = POM.replace("<dependencies>", """<parent>
    <groupId>org.springframework.boot</groupId>
    <artifactId>spring-boot-starter-parent</artifactId>
    <version>3.2.0</version>
  </parent>
  <dependencies>""", 1)
SPRING_APP = """package com.x.app;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class DemoApplication {
    public static void main(String[] args) {
        SpringApplication.run(DemoApplication.class, args);
    }
}
"""
CONTROLLER = """package com.x.app.web;

import com.x.service.UserService;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class UserController {
    private final UserService users;

    public UserController(UserService users) {
        this.users = users;
    }
}
"""
SPRING_FAILED = console("spring_missing_bean.log")


def test_spring_bean_outside_the_application_scan_is_architectural(tmp_path) -> None:
    svc = ("package com.x.service;\n\nimport org.springframework.stereotype.Service;\n\n"
           "@Service\npublic class UserService {\n}\n")
    s = _sample(tmp_path, {"pom.xml": SPRING_POM,
                           "src/main/java/com/x/app/DemoApplication.java": SPRING_APP,
                           "src/main/java/com/x/app/web/UserController.java": CONTROLLER,
                           "src/main/java/com/x/service/UserService.java": svc},
                logs={Phase.START: SPRING_FAILED}, failed=Phase.HEALTH,
                message="port 8080 not open after 20s")
    sug = _triage(s)
    assert (sug.category, sug.rule) == ("architectural", "java/spring-scan-misses-bean")
    assert "outside the package com.x.app" in sug.reason
    assert Anchor.file("src/main/java/com/x/app/web/UserController.java", 7) in sug.anchors
    assert Anchor.file("src/main/java/com/x/service/UserService.java", 6) in sug.anchors
    assert Anchor.file("src/main/java/com/x/app/DemoApplication.java", 7) in sug.anchors


def test_spring_class_that_is_not_a_bean_is_architectural(tmp_path) -> None:
    svc = "package com.x.app.service;\n\npublic class UserService {\n}\n"
    log = SPRING_FAILED.replace("com.x.service.UserService", "com.x.app.service.UserService")
    s = _sample(tmp_path, {"pom.xml": SPRING_POM,
                           "src/main/java/com/x/app/DemoApplication.java": SPRING_APP,
                           "src/main/java/com/x/app/web/UserController.java":
                               CONTROLLER.replace("com.x.service", "com.x.app.service"),
                           "src/main/java/com/x/app/service/UserService.java": svc},
                logs={Phase.START: log}, failed=Phase.HEALTH, message="port 8080 not open")
    sug = _triage(s)
    assert (sug.category, sug.rule) == ("architectural", "java/spring-not-a-bean")
    assert "not annotated as a bean" in sug.reason


def test_port_already_in_use_is_the_machines(tmp_path) -> None:
    log = console("spring_port_in_use.log")
    s = _sample(tmp_path, {"pom.xml": SPRING_POM,
                           "src/main/java/com/x/app/DemoApplication.java": SPRING_APP},
                logs={Phase.START: log}, failed=Phase.HEALTH, message="port 8080 not open")
    sug = _triage(s)
    assert (sug.category, sug.rule) == ("not-model", "java/port-held")
    assert "architectural" not in {r.category for r in sug.competing}


def test_configured_port_other_than_the_readmes_is_architectural(tmp_path) -> None:
    s = _sample(tmp_path, {"pom.xml": SPRING_POM,
                           "src/main/java/com/x/app/DemoApplication.java": SPRING_APP,
                           "src/main/resources/application.properties":
                               "spring.application.name=demo\nserver.port=9090\n"},
                logs={Phase.START: console("spring_started_9090.log")},
                failed=Phase.HEALTH, message="port 8080 not open after 20s")
    sug = _triage(s)
    assert (sug.category, sug.rule) == ("architectural", "java/configured-port")
    assert Anchor.file("src/main/resources/application.properties", 2) in sug.anchors
    assert "not the README's port 8080" in sug.reason
    # YAML: a datastore's port is not the server's
    yml = "spring:\n  data:\n    redis:\n      port: 6379\nserver:\n  port: 9091\n"
    s = _sample(tmp_path / "yml", {"pom.xml": SPRING_POM,
                                   "src/main/resources/application.yml": yml},
                logs={Phase.START: console("spring_started_9090.log")},
                failed=Phase.HEALTH, message="port 8080 not open after 20s")
    sug = _triage(s)
    assert sug.rule == "java/configured-port" and "9091" in sug.reason
    assert Anchor.file("src/main/resources/application.yml", 6) in sug.anchors


NOT_FOUND = ("java.lang.AssertionError: 1 expectation failed.\n"
             "Expected status code <200> but was <404>.\n")


def test_spring_controllers_outside_the_scan_get_404_architectural(tmp_path) -> None:
    app = SPRING_APP.replace("package com.x.app;", "package com.x.app.boot;")
    ctl = ("package com.x.app.web;\n\nimport org.springframework.web.bind.annotation.*;\n\n"
           "@RestController\npublic class UserController {\n    @GetMapping(\"/users\")\n"
           "    public String list() { return \"[]\"; }\n}\n")
    case = TestCase("com.x.app.ApiTest::listsUsers", Outcome.FAILED,
                    message="1 expectation failed.\nExpected status code <200> but was <404>.",
                    traceback=NOT_FOUND + "\tat com.x.app.ApiTest.listsUsers(ApiTest.java:31)")
    s = _sample(tmp_path, {"pom.xml": SPRING_POM,
                           "src/main/java/com/x/app/boot/DemoApplication.java": app,
                           "src/main/java/com/x/app/web/UserController.java": ctl},
                cases=(case,))
    sug = _triage(s)
    assert (sug.category, sug.rule) == ("architectural", "java/spring-controllers-not-scanned")
    assert Anchor.file("src/main/java/com/x/app/web/UserController.java", 6) in sug.anchors


def test_javalin_routes_nothing_registers_are_architectural(tmp_path) -> None:
    app = """package com.x.app;

import io.javalin.Javalin;

public class App {
    public static void main(String[] args) {
        Javalin app = Javalin.create();
        app.start(8080);
    }

    static void registerRoutes(Javalin app) {
        app.get("/users", ctx -> ctx.json(java.util.List.of()));
        app.post("/users", ctx -> ctx.status(201));
    }
}
"""
    case = TestCase("com.x.app.ApiTest::listsUsers", Outcome.FAILED,
                    message="expected: <200> but was: <404>",
                    traceback="org.opentest4j.AssertionFailedError: expected: <200> but was: "
                              "<404>\n\tat com.x.app.ApiTest.listsUsers(ApiTest.java:25)")
    s = _sample(tmp_path, {"pom.xml": POM.format(javalin="5.6.3"),
                           "src/main/java/com/x/app/App.java": app}, cases=(case,))
    sug = _triage(s)
    assert (sug.category, sug.rule) == ("architectural", "java/routes-never-registered")
    assert "registerRoutes()" in sug.reason
    assert Anchor.file("src/main/java/com/x/app/App.java", 11) in sug.anchors
    assert Anchor.file("src/main/java/com/x/app/App.java", 6) in sug.anchors


def test_class_imported_from_own_package_that_no_file_declares_is_cross_file(tmp_path) -> None:
    handler = ("package com.x.app;\n\nimport com.x.app.dto.UserDto;\n\n"
               "public class UserHandler {\n}\n")
    other = "package com.x.app.dto;\n\npublic class RoleDto {\n}\n"
    s = _sample(tmp_path, {"pom.xml": POM.format(javalin="5.6.3"),
                           "src/main/java/com/x/app/UserHandler.java": handler,
                           "src/main/java/com/x/app/dto/RoleDto.java": other},
                logs={Phase.INSTALL: console("compile_undeclared_class.log")},
                failed=Phase.INSTALL, message="compilation failed")
    sug = _triage(s)
    assert (sug.category, sug.rule) == ("cross-file", "java/compile-cross-file")
    assert "no file of the repo declares UserDto" in sug.reason
    assert Anchor.file("src/main/java/com/x/app/UserHandler.java", 3) in sug.anchors


def test_jdk_server_started_with_a_main_class_the_repo_does_not_declare(tmp_path) -> None:
    main = ("package com.x.app;\n\nimport com.sun.net.httpserver.HttpServer;\n\n"
            "public class Main {\n    public static void main(String[] args) throws Exception "
            "{\n        HttpServer.create().start();\n    }\n}\n")
    start = "#!/bin/bash\nmvn -q package -DskipTests\njava -cp target/classes com.x.Main\n"
    s = _sample(tmp_path, {"pom.xml": POM.format(javalin="5.6.3"), "start.sh": start,
                           "src/main/java/com/x/app/Main.java": main},
                logs={Phase.START: console("jdk_main_not_found.log")}, failed=Phase.HEALTH,
                message="process exited with code 1")
    sug = _triage(s)
    assert (sug.category, sug.rule) == ("architectural", "java/main-class-not-found")
    assert Anchor.file("start.sh", 3) in sug.anchors
    assert Anchor.file("src/main/java/com/x/app/Main.java", 6) in sug.anchors
