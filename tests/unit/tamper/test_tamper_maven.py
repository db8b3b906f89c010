"""The tamper scan on Java repos: Maven/Surefire/JUnit settings that skip, ignore, leave out or
re-route the golden tests, located by file and line, deliberate when they hide failures, "no
effect" where the harness replaces the files — and nothing on clean poms or the bundled ones."""

from __future__ import annotations

from pathlib import Path

from inspector.model.repo.tampering import TamperFinding
from inspector.services.tamper import scan_repo

HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>svc</artifactId>
  <version>1.0</version>
"""


def surefire(config: str, artifact: str = "maven-surefire-plugin") -> str:
    return f"""  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>{artifact}</artifactId>
        <version>3.1.2</version>
        <configuration>
{config}
        </configuration>
      </plugin>
    </plugins>
  </build>
"""


def repo(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "repo"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def golden(tmp_path: Path, *classes: str, extra: str = "") -> Path:
    """A task's src/test/java holding JUnit 5 test classes (``pkg.Name``)."""
    base = tmp_path / "task" / "src" / "test" / "java"
    for cls in classes:
        pkg, _, name = cls.rpartition(".")
        path = base / cls.replace(".", "/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.with_suffix(".java").write_text(
            (f"package {pkg};\n" if pkg else "") + "import org.junit.jupiter.api.*;\n"
            f"{extra}class {name} {{\n  @Test void works() {{}}\n}}\n", encoding="utf-8")
    return base


def scan(tmp_path: Path, files: dict[str, str], gold: Path | None = None
         ) -> list[TamperFinding]:
    return scan_repo(repo(tmp_path, files), gold)


def line_of(text: str, needle: str) -> int:
    return next(i for i, ln in enumerate(text.splitlines(), 1) if needle in ln)


def test_skip_tests_in_surefire_is_deliberate_with_its_line(tmp_path: Path) -> None:
    pom = HEAD + surefire("          <skipTests>true</skipTests>") + "</project>\n"
    (f,) = scan(tmp_path, {"pom.xml": pom})
    assert (f.kind, f.path, f.deliberate) == ("maven_skip_tests", "pom.xml", True)
    assert f.detail.startswith(f"pom.xml:{line_of(pom, '<skipTests>')}: <skipTests>true")
    assert "Surefire runs no test" in f.detail and "hides failing golden tests" in f.detail


def test_maven_test_skip_property_resolved_through_another_property(tmp_path: Path) -> None:
    pom = HEAD + """  <properties>
    <fast>true</fast>
    <maven.test.skip>${fast}</maven.test.skip>
  </properties>
</project>
"""
    (f,) = scan(tmp_path, {"pom.xml": pom})
    assert (f.kind, f.deliberate) == ("maven_skip_tests", True)
    assert f.detail.startswith(f"pom.xml:{line_of(pom, 'maven.test.skip')}: property "
                               "maven.test.skip = true")


def test_failure_ignore_in_a_default_profile_and_not_in_an_opt_in_one(tmp_path: Path) -> None:
    pom = HEAD + """  <profiles>
    <profile>
      <id>lenient</id>
      <activation><activeByDefault>true</activeByDefault></activation>
      <properties><maven.test.failure.ignore>true</maven.test.failure.ignore></properties>
    </profile>
    <profile>
      <id>fast</id>
      <properties><skipTests>true</skipTests></properties>
    </profile>
    <profile>
      <id>ci</id>
      <activation><property><name>!ci</name></property></activation>
""" + surefire("<testFailureIgnore>true</testFailureIgnore>").replace("\n", "\n  ") + """
    </profile>
  </profiles>
</project>
"""
    found = scan(tmp_path, {"pom.xml": pom})
    assert [(f.kind, f.deliberate) for f in found] == [("maven_failures_ignored", True)] * 2
    assert "in profile 'lenient' (active by default)" in found[0].detail
    assert "in profile 'ci' (activated: !ci unset)" in found[1].detail
    assert f"pom.xml:{line_of(pom, '<testFailureIgnore>')}:" in found[1].detail


def test_failsafe_skip_has_no_effect_on_mvn_test(tmp_path: Path) -> None:
    pom = HEAD + surefire("<skip>true</skip>", "maven-failsafe-plugin") + "</project>\n"
    (f,) = scan(tmp_path, {"pom.xml": pom})
    assert (f.kind, f.deliberate) == ("maven_skip_tests", False)
    assert f.detail.endswith("no effect: Failsafe runs after the test phase, not in `mvn test`")


def test_excludes_judged_against_the_golden_classes(tmp_path: Path) -> None:
    gold = golden(tmp_path, "com.acme.ApiTest", "com.acme.AuthTest")
    pom = HEAD + surefire("""          <excludes>
            <exclude>**/Auth*.java</exclude>
          </excludes>""") + "</project>\n"
    (f,) = scan(tmp_path, {"pom.xml": pom}, gold)
    assert (f.kind, f.deliberate) == ("maven_test_selection", True)
    assert f"pom.xml:{line_of(pom, '<excludes>')}: excludes **/Auth*.java: leaves the golden " \
           "test class com.acme.AuthTest out" in f.detail
    # an exclude that no golden class matches is harmless
    harmless = pom.replace("**/Auth*.java", "**/*IT.java")
    assert scan(tmp_path / "b", {"pom.xml": harmless}, gold) == []


def test_includes_and_test_selecting_other_classes(tmp_path: Path) -> None:
    gold = golden(tmp_path, "ApiTest")
    pom = HEAD + surefire("<includes><include>**/*Smoke.java</include></includes>") + \
        "</project>\n"
    (f,) = scan(tmp_path, {"pom.xml": pom}, gold)
    assert f.deliberate and "leaves the golden test class ApiTest out" in f.detail
    pom = HEAD + surefire("<test>com.example.HealthCheck</test>") + "</project>\n"
    (f,) = scan(tmp_path / "b", {"pom.xml": pom}, gold)
    assert f.deliberate and "<test>com.example.HealthCheck</test>" in f.detail
    # without the golden classes, a selection could leave them out: flagged, not deliberate
    (f,) = scan(tmp_path / "c", {"pom.xml": pom})
    assert not f.deliberate and "the golden test classes are not known" in f.detail


def test_moved_test_folders_reports_and_listeners(tmp_path: Path) -> None:
    pom = HEAD.replace("<version>1.0</version>", """<version>1.0</version>
  <build><testSourceDirectory>src/it/java</testSourceDirectory></build>""") + """
""" + surefire("""          <reportsDirectory>${project.build.directory}/quiet</reportsDirectory>
          <skipAfterFailureCount>1</skipAfterFailureCount>
          <statelessTestsetReporter implementation="com.example.NiceReporter"/>
          <properties>
            <property><name>listener</name><value>com.example.Ears</value></property>
          </properties>""").replace("  <build>\n", "  <build>\n", 1) + "</project>\n"
    pom = pom.replace("</build>\n  <build>\n", "\n", 1)
    found = {f.kind + ("!" if f.deliberate else ""): f.detail
             for f in scan(tmp_path, {"pom.xml": pom})}
    assert set(found) == {"maven_test_dirs!", "maven_reports!", "maven_test_selection",
                          "maven_listener"}
    assert "testSourceDirectory = src/it/java" in found["maven_test_dirs!"]
    assert "skipAfterFailureCount = 1" in found["maven_test_selection"]
    assert "com.example.Ears" in found["maven_listener"]
    # the stock default directory is no finding
    ok = HEAD + surefire("<reportsDirectory>${project.build.directory}/surefire-reports"
                         "</reportsDirectory>") + "</project>\n"
    assert scan(tmp_path / "b", {"pom.xml": ok}) == []


def test_junit_parameters_through_arg_line_and_system_properties(tmp_path: Path) -> None:
    pom = HEAD + surefire("""<argLine>-Xmx512m -Djunit.jupiter.conditions.deactivate=*</argLine>
          <systemPropertyVariables>
            <junit.jupiter.extensions.autodetection.enabled>true</junit.jupiter.extensions.autodetection.enabled>
            <junit.jupiter.execution.parallel.enabled>true</junit.jupiter.execution.parallel.enabled>
          </systemPropertyVariables>""") + "</project>\n"
    found = scan(tmp_path, {"pom.xml": pom})
    assert [(f.kind, f.deliberate) for f in found] == [("junit_config", False)] * 2
    assert "junit.jupiter.conditions.deactivate=*" in found[0].detail
    assert f"pom.xml:{line_of(pom, 'autodetection')}:" in found[1].detail


def test_dot_mvn_configs_and_extensions(tmp_path: Path) -> None:
    pom = HEAD + "</project>\n"
    found = scan(tmp_path, {
        "pom.xml": pom,
        ".mvn/maven.config": "-B\n-DskipTests\n--fail-never -fae\n-Dtest=Nothing\n",
        ".mvn/jvm.config": "-Xmx1g -Dmaven.test.failure.ignore=true\n",
        ".mvn/extensions.xml": "<extensions><extension><groupId>com.evil</groupId>"
                               "<artifactId>quiet</artifactId><version>1</version>"
                               "</extension></extensions>\n"}, golden(tmp_path, "ApiTest"))
    got = sorted((f.kind, f.detail.split(": ")[0], f.deliberate) for f in found)
    assert got == [("maven_extension", ".mvn/extensions.xml:1", False),
                   ("maven_failures_ignored", ".mvn/jvm.config:1", True),
                   ("maven_failures_ignored", ".mvn/maven.config:3", True),
                   ("maven_skip_tests", ".mvn/maven.config:2", True),
                   ("maven_test_selection", ".mvn/maven.config:4", True)]


def test_profile_named_by_maven_config_is_read(tmp_path: Path) -> None:
    pom = HEAD + """  <profiles><profile><id>quick</id>
    <properties><skipTests>true</skipTests></properties>
  </profile></profiles>
</project>
"""
    assert scan(tmp_path, {"pom.xml": pom}) == []
    (f,) = scan(tmp_path / "b", {"pom.xml": pom, ".mvn/maven.config": "-Pquick\n"})
    assert f.deliberate and "in profile 'quick' (named by -P)" in f.detail


def test_main_resources_services_and_junit_properties(tmp_path: Path) -> None:
    files = {
        "pom.xml": HEAD + "</project>\n",
        "src/main/resources/junit-platform.properties":
            "# tuning\njunit.jupiter.execution.timeout.default=5s\n"
            "junit.jupiter.extensions.autodetection.enabled = true\n",
        "src/main/resources/META-INF/services/org.junit.jupiter.api.extension.Extension":
            "com.example.Calm\n",
        "src/main/java/com/example/Calm.java":
            "package com.example;\nimport org.junit.jupiter.api.extension.*;\n"
            "public class Calm implements TestExecutionExceptionHandler {\n"
            "  public void handleTestExecutionException(ExtensionContext c, Throwable t) {}\n}\n",
        "src/main/resources/META-INF/services/org.junit.platform.launcher.PostDiscoveryFilter":
            "com.example.Drop\n",
        "src/main/resources/META-INF/services/"
        "org.junit.platform.launcher.TestExecutionListener": "com.example.Watch\n",
    }
    found = {f.detail.split(": ")[0]: f for f in scan(tmp_path, files)}
    props = found["src/main/resources/junit-platform.properties:3"]
    assert (props.kind, props.deliberate) == ("junit_config", False)
    ext = found["src/main/resources/META-INF/services/org.junit.jupiter.api.extension.Extension:1"]
    assert (ext.kind, ext.deliberate) == ("junit_service", True)
    assert "it handles test failures" in ext.detail
    drop = found["src/main/resources/META-INF/services/"
                 "org.junit.platform.launcher.PostDiscoveryFilter:1"]
    assert drop.deliberate and "can drop golden tests" in drop.detail
    watch = found["src/main/resources/META-INF/services/"
                  "org.junit.platform.launcher.TestExecutionListener:1"]
    assert not watch.deliberate
    assert len(found) == 4  # the timeout is harmless


def test_what_lies_in_the_replaced_src_test_has_no_effect(tmp_path: Path) -> None:
    files = {"pom.xml": HEAD + "</project>\n",
             "src/test/resources/junit-platform.properties":
                 "junit.jupiter.conditions.deactivate=*\n",
             "src/test/pom.xml": HEAD + surefire("<skipTests>true</skipTests>") +
             "</project>\n"}
    found = scan(tmp_path, files, golden(tmp_path, "ApiTest"))
    assert len(found) == 2
    for f in found:
        assert not f.deliberate
        assert f.detail.endswith("no effect: the harness replaces src/test with the golden "
                                 "tests")


def test_module_poms_are_read_and_strays_have_no_effect(tmp_path: Path) -> None:
    skip = HEAD + surefire("<testFailureIgnore>true</testFailureIgnore>") + "</project>\n"
    root = HEAD + "  <packaging>pom</packaging>\n  <modules><module>api</module></modules>\n" \
        "</project>\n"
    found = {f.path: f for f in scan(tmp_path, {"pom.xml": root, "api/pom.xml": skip,
                                                "old/pom.xml": skip})}
    assert found["api/pom.xml"].deliberate
    assert not found["old/pom.xml"].deliberate
    assert found["old/pom.xml"].detail.endswith("no effect: not part of the root pom's build")


def test_malformed_pom_is_one_clear_finding(tmp_path: Path) -> None:
    (f,) = scan(tmp_path, {"pom.xml": HEAD + "  <build>\n</project>\n"})
    assert (f.kind, f.path, f.deliberate) == ("maven_unreadable", "pom.xml", False)
    assert f.detail.startswith("pom.xml: not well-formed XML (line 9: mismatched tag)")
    (f,) = scan(tmp_path / "b", {"pom.xml": '<!DOCTYPE p [<!ENTITY a "aaaa">]><project/>'})
    assert "declares an XML entity" in f.detail


SPRING = HEAD.replace("<modelVersion>4.0.0</modelVersion>", """<modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>org.springframework.boot</groupId>
    <artifactId>spring-boot-starter-parent</artifactId>
    <version>3.2.5</version>
    <relativePath/>
  </parent>""") + """  <properties><java.version>17</java.version></properties>
  <dependencies>
    <dependency><groupId>org.springframework.boot</groupId>
      <artifactId>spring-boot-starter-web</artifactId></dependency>
    <dependency><groupId>org.springframework.boot</groupId>
      <artifactId>spring-boot-starter-test</artifactId><scope>test</scope></dependency>
  </dependencies>
  <build><plugins>
    <plugin><groupId>org.springframework.boot</groupId>
      <artifactId>spring-boot-maven-plugin</artifactId></plugin>
    <plugin><artifactId>maven-surefire-plugin</artifactId>
      <configuration>
        <includes><include>**/*Test.java</include><include>**/*Tests.java</include></includes>
        <excludes><exclude>**/*IT.java</exclude></excludes>
        <argLine>@{argLine} -Xshare:off</argLine>
        <systemPropertyVariables><spring.profiles.active>test</spring.profiles.active>
        </systemPropertyVariables>
        <properties><configurationParameters>
          junit.jupiter.execution.parallel.enabled=true
        </configurationParameters></properties>
      </configuration></plugin>
    <plugin><artifactId>maven-failsafe-plugin</artifactId>
      <configuration><skipITs>true</skipITs></configuration></plugin>
  </plugins></build>
  <profiles><profile><id>fast</id><properties><skipTests>true</skipTests></properties>
  </profile></profiles>
</project>
"""
JAVALIN = HEAD + """  <properties>
    <maven.compiler.source>17</maven.compiler.source>
    <maven.compiler.target>17</maven.compiler.target>
    <skipTests>false</skipTests>
  </properties>
  <dependencies>
    <dependency><groupId>io.javalin</groupId><artifactId>javalin</artifactId>
      <version>6.1.3</version></dependency>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId>
      <version>5.10.2</version><scope>test</scope></dependency>
  </dependencies>
  <build><plugins>
    <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.2.5</version>
      <configuration><trimStackTrace>false</trimStackTrace><forkCount>1</forkCount>
        <rerunFailingTestsCount>0</rerunFailingTestsCount>
        <statelessTestsetReporter
          implementation="org.apache.maven.plugin.surefire.extensions.junit5.JUnit5Xml30StatelessReporter">
          <disable>false</disable></statelessTestsetReporter>
      </configuration></plugin>
    <plugin><groupId>org.codehaus.mojo</groupId><artifactId>exec-maven-plugin</artifactId>
      <configuration><mainClass>com.example.App</mainClass></configuration></plugin>
  </plugins></build>
</project>
"""


def test_clean_spring_boot_and_javalin_poms_have_no_findings(tmp_path: Path) -> None:
    gold = golden(tmp_path, "com.example.ApiTest")
    assert scan(tmp_path / "spring", {"pom.xml": SPRING}, gold) == []
    assert scan(tmp_path / "javalin", {"pom.xml": JAVALIN}, gold) == []


def test_bundled_java_tasks_and_predictions_have_no_findings(sample_runs: Path) -> None:
    poms = sorted(sample_runs.glob("**/pom.xml"))
    assert len(poms) >= 8
    for pom in poms:
        task = sample_runs / "tasks" / "repo" / pom.parent.name / "src" / "test" / "java"
        assert scan_repo(pom.parent, task if task.is_dir() else None) == [], pom
