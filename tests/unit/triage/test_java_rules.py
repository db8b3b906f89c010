"""Java triage readings on Maven 3.8 / javac / Spring Boot output as they really print it (the
console text was checked against Maven 3.8.7 with a mirror of the Debian repository), with a
small generated repo per case: what the triage suggests for the item an annotator sees."""

from __future__ import annotations

from pathlib import Path

from inspector.model import Outcome, Phase, PhaseStatus, SampleResult, TestCase
from inspector.model.benchmark.task import Task
from inspector.model.labels.label_file import Anchor
from inspector.model.results.sample import Deployment, PhaseResult, TestSummary
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

MAVEN_HEAD = """[INFO] Scanning for projects...
[INFO] 
[INFO] -----------------------------< com.x:demo >-----------------------------
[INFO] Building demo 1.0
[INFO] --------------------------------[ jar ]---------------------------------"""
MAVEN_FAILURE = """[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] ------------------------------------------------------------------------
[INFO] Total time:  0.392 s
[INFO] Finished at: 2026-11-29T18:36:19Z
[INFO] ------------------------------------------------------------------------"""
MAVEN_TAIL = """[ERROR] 
[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.
[ERROR] Re-run Maven using the -X switch to enable full debug logging.
[ERROR] 
[ERROR] For more information about the errors and possible solutions, please read the following articles:
[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/{exc}"""

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
            cases: tuple[TestCase, ...] = (), language: str = "java") -> SampleResult:
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
        port=8080, logs=paths, repo_path=_repo(tmp_path / "repo", files))


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
    log = f"""$ mvn -B clean compile -DskipTests
{MAVEN_HEAD}
[WARNING] The POM for io.javalin:javalin:jar:9.9.9 is missing, no dependency information available
{MAVEN_FAILURE}
[ERROR] Failed to execute goal on project demo: Could not resolve dependencies for project com.x:demo:jar:1.0: Could not find artifact io.javalin:javalin:jar:9.9.9 in gi (file:///usr/share/maven-repo) -> [Help 1]
{MAVEN_TAIL.format(exc="DependencyResolutionException")}"""
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
    log = f"""{MAVEN_HEAD}
[INFO] Downloading from gi: file:///usr/share/maven-repo/org/apache/maven/plugins/maven-resources-plugin/2.6/maven-resources-plugin-2.6.pom
[WARNING] The POM for org.apache.maven.plugins:maven-resources-plugin:jar:2.6 is missing, no dependency information available
[INFO] Downloading from gi: file:///usr/share/maven-repo/org/apache/maven/plugins/maven-resources-plugin/2.6/maven-resources-plugin-2.6.jar
{MAVEN_FAILURE}
[ERROR] Plugin org.apache.maven.plugins:maven-resources-plugin:2.6 or one of its dependencies could not be resolved: Could not find artifact org.apache.maven.plugins:maven-resources-plugin:jar:2.6 in gi (file:///usr/share/maven-repo) -> [Help 1]
{MAVEN_TAIL.format(exc="PluginResolutionException")}"""
    s = _sample(tmp_path, {"pom.xml": POM.format(javalin="5.6.3")},
                logs={Phase.INSTALL: log}, failed=Phase.INSTALL,
                message="Maven could not resolve org.apache.maven.plugins:maven-resources-"
                        "plugin:2.6 (not found in the configured repositories)")
    sug = _triage(s)
    assert (sug.category, sug.rule) == ("not-model", "java/maven-undeclared-artifact-missing")
    assert "never asks for org.apache.maven.plugins:maven-resources-plugin" in sug.reason
    assert "dependency" not in {r.category for r in sug.competing}


def test_repository_that_never_answered_is_the_machines(tmp_path) -> None:
    log = f"""{MAVEN_HEAD}
{MAVEN_FAILURE}
[ERROR] Failed to execute goal on project demo: Could not resolve dependencies for project com.x:demo:jar:1.0: Failed to collect dependencies at io.javalin:javalin:jar:5.6.3: Failed to read artifact descriptor for io.javalin:javalin:jar:5.6.3: Could not transfer artifact io.javalin:javalin:pom:5.6.3 from/to central (https://repo.maven.apache.org/maven2): Transfer failed for https://repo.maven.apache.org/maven2/io/javalin/javalin/5.6.3/javalin-5.6.3.pom: Unknown host repo.maven.apache.org -> [Help 1]
{MAVEN_TAIL.format(exc="DependencyResolutionException")}"""
    s = _sample(tmp_path, {"pom.xml": POM.format(javalin="5.6.3")},
                logs={Phase.INSTALL: log}, failed=Phase.INSTALL, message="mvn compile failed")
    sug = _triage(s)
    assert (sug.category, sug.rule) == ("not-model", "java/maven-repository-unreachable")


def test_library_class_missing_at_run_time_is_dependency(tmp_path) -> None:
    trace = """java.lang.NoSuchMethodError: 'com.fasterxml.jackson.databind.ObjectMapper com.fasterxml.jackson.databind.ObjectMapper.findAndRegisterModules(boolean)'
	at io.javalin.json.JavalinJackson.<init>(JavalinJackson.kt:30)
	at com.x.app.App.create(App.java:12)
	at com.x.app.ApiTest.setUp(ApiTest.java:20)"""
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

COMPILE = f"""{MAVEN_HEAD}
[INFO] Compiling 2 source files to /work/repo/target/classes
[INFO] -------------------------------------------------------------
[ERROR] COMPILATION ERROR : 
[INFO] -------------------------------------------------------------
{{errors}}
[INFO] {{n}} errors 
[INFO] -------------------------------------------------------------
{MAVEN_FAILURE}
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.10.1:compile (default-compile) on project demo: Compilation failure: Compilation failure: 
{{errors_again}}
[ERROR] -> [Help 1]
{MAVEN_TAIL.format(exc="MojoFailureException")}"""


def _compile_log(errors: list[str]) -> str:
    again = "\n".join(line if line.startswith("[ERROR]") else f"[ERROR] {line}"
                      for e in errors for line in e.splitlines())
    return COMPILE.format(errors="\n".join(errors), n=len(errors), errors_again=again)


def test_call_against_another_files_signature_is_cross_file(tmp_path) -> None:
    log = _compile_log([
        "[ERROR] /work/repo/src/main/java/com/x/app/A.java:[6,21] method bar in class "
        "com.x.app.Baz cannot be applied to given types;\n  required: int\n  found:    "
        "java.lang.String,int\n  reason: actual and formal argument lists differ in length",
        "[ERROR] /work/repo/src/main/java/com/x/app/A.java:[7,21] cannot find symbol\n"
        "  symbol:   method count()\n  location: variable b of type com.x.app.Baz"])
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
    log = _compile_log([
        "[ERROR] /work/repo/src/main/java/com/x/app/A.java:[7,21] cannot find symbol\n"
        "  symbol:   method count()\n  location: variable b of type com.x.app.Baz"])
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
    log = _compile_log(["[ERROR] /work/repo/src/main/java/com/x/app/A.java:[3,18] package "
                        "io.undertow does not exist"])
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
    log = _compile_log(["[ERROR] /work/repo/src/main/java/com/x/app/A.java:[3,25] package "
                        "com.x.app.service does not exist"])
    s = _sample(tmp_path, {"pom.xml": POM.format(javalin="5.6.3"),
                           "src/main/java/com/x/app/A.java": use,
                           "src/main/java/com/x/app/services/UserService.java": svc},
                logs={Phase.INSTALL: log}, failed=Phase.INSTALL, message="compilation failed")
    sug = _triage(s)
    assert (sug.category, sug.rule) == ("cross-file", "java/compile-cross-file")
    assert "declared in package com.x.app.services" in sug.reason
    assert Anchor.file("src/main/java/com/x/app/services/UserService.java", 3) in sug.anchors


GOLDEN_COMPILE = f"""{MAVEN_HEAD}
[INFO] --- maven-compiler-plugin:3.10.1:testCompile (default-testCompile) @ demo ---
[INFO] Compiling 1 source file to /work/repo/target/test-classes
[INFO] -------------------------------------------------------------
[ERROR] COMPILATION ERROR : 
[INFO] -------------------------------------------------------------
[ERROR] /work/repo/src/test/java/com/x/app/ApiTest.java:[14,9] cannot find symbol
  symbol:   class UserStore
  location: class com.x.app.ApiTest
[INFO] 1 error
[INFO] -------------------------------------------------------------
{MAVEN_FAILURE}
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.10.1:testCompile (default-testCompile) on project demo: Compilation failure
[ERROR] /work/repo/src/test/java/com/x/app/ApiTest.java:[14,9] cannot find symbol
[ERROR]   symbol:   class UserStore
[ERROR]   location: class com.x.app.ApiTest
[ERROR] -> [Help 1]
{MAVEN_TAIL.format(exc="MojoFailureException")}"""


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
SPRING_FAILED = """  .   ____          _            __ _ _
 /\\\\ / ___'_ __ _ _(_)_ __  __ _ \\ \\ \\ \\
( ( )\\___ | '_ | '_| | '_ \\/ _` | \\ \\ \\ \\
 \\\\/  ___)| |_)| | | | | || (_| |  ) ) ) )
  '  |____| .__|_| |_|_| |_\\__, | / / / /
 =========|_|==============|___/=/_/_/_/
 :: Spring Boot ::                (v3.2.0)

2026-11-29T18:40:01.123Z  INFO 4242 --- [           main] com.x.app.DemoApplication                : Starting DemoApplication using Java 17.0.9 with PID 4242
2026-11-29T18:40:02.456Z  WARN 4242 --- [           main] ConfigServletWebServerApplicationContext : Exception encountered during context initialization - cancelling refresh attempt: org.springframework.beans.factory.UnsatisfiedDependencyException: Error creating bean with name 'userController' defined in file [/work/repo/target/classes/com/x/app/web/UserController.class]: Unsatisfied dependency expressed through constructor parameter 0: No qualifying bean of type 'com.x.service.UserService' available: expected at least 1 bean which qualifies as autowire candidate. Dependency annotations: {}
2026-11-29T18:40:02.470Z  INFO 4242 --- [           main] o.apache.catalina.core.StandardService   : Stopping service [Tomcat]
2026-11-29T18:40:02.520Z ERROR 4242 --- [           main] o.s.b.d.LoggingFailureAnalysisReporter   : 

***************************
APPLICATION FAILED TO START
***************************

Description:

Parameter 0 of constructor in com.x.app.web.UserController required a bean of type 'com.x.service.UserService' that could not be found.


Action:

Consider defining a bean of type 'com.x.service.UserService' in your configuration.
"""


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
    log = SPRING_FAILED.split("2026-11-29T18:40:02.456Z")[0] + """
***************************
APPLICATION FAILED TO START
***************************

Description:

Web server failed to start. Port 8080 was already in use.

Action:

Identify and stop the process that's listening on port 8080 or configure this application to listen on another port.
"""
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
                logs={Phase.START: SPRING_FAILED.split("2026-11-29T18:40:02.456Z")[0] +
                      "Tomcat started on port 9090 (http) with context path ''\n"},
                failed=Phase.HEALTH, message="port 8080 not open after 20s")
    sug = _triage(s)
    assert (sug.category, sug.rule) == ("architectural", "java/configured-port")
    assert Anchor.file("src/main/resources/application.properties", 2) in sug.anchors
    assert "not the README's port 8080" in sug.reason


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
