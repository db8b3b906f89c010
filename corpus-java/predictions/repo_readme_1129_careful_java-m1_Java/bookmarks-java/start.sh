#!/usr/bin/env bash
# Starts the bookmarks service in the foreground on port 8080.
# Uses classes compiled by Maven (target/classes); if they are missing, compiles the sources
# with javac. Dependencies are taken from the local Maven repository (~/.m2/repository).
set -euo pipefail

cd "$(dirname "$0")"

REPO="${MAVEN_REPO:-$HOME/.m2/repository}"
MAIN_CLASS="com.example.bookmarks.Main"
CLASSES_DIR="target/classes"

# pick <group-path> <artifact> <preferred-version>: prints the jar path, preferring the given
# version and otherwise falling back to the highest version present.
pick() {
    local dir="$REPO/$1/$2" preferred="$3" jar v
    jar="$dir/$preferred/$2-$preferred.jar"
    if [ -f "$jar" ]; then
        echo "$jar"
        return 0
    fi
    if [ -d "$dir" ]; then
        for v in $(ls -1 "$dir" | sort -rV); do
            jar="$dir/$v/$2-$v.jar"
            if [ -f "$jar" ]; then
                echo "$jar"
                return 0
            fi
        done
    fi
    return 1
}

JETTY=9.4.57.v20241219
JACKSON=2.14.0
CP=""
add() {
    local jar
    if jar="$(pick "$@")"; then
        CP="${CP:+$CP:}$jar"
    else
        echo "warning: $2 not found under $REPO/$1" >&2
    fi
}
for a in jetty-server jetty-servlet jetty-http jetty-io jetty-util jetty-security jetty-util-ajax; do
    add org/eclipse/jetty "$a" "$JETTY"
done
add javax/servlet javax.servlet-api 3.1.0
for a in jackson-databind jackson-core jackson-annotations; do
    add com/fasterxml/jackson/core "$a" "$JACKSON"
done

if [ ! -f "$CLASSES_DIR/com/example/bookmarks/Main.class" ]; then
    echo "Compiled classes not found; compiling with javac" >&2
    mkdir -p "$CLASSES_DIR"
    find src/main/java -name '*.java' > target/sources.txt
    javac -encoding UTF-8 --release 17 -d "$CLASSES_DIR" -cp "$CP" @target/sources.txt
fi

exec java ${JAVA_OPTS:-} -cp "$CLASSES_DIR:$CP" "$MAIN_CLASS"
