#!/usr/bin/env bash
# Starts the Bookmarks service in the foreground on port 8080.
# Classpath: target/classes plus the Jackson jars from the local Maven repository
# (no exec plugin is available offline, so the JVM is launched directly).
set -euo pipefail

cd "$(dirname "$0")"

M2_REPO="${M2_REPO:-$HOME/.m2/repository}"
JACKSON_VERSION="2.14.0"
JACKSON_DIR="$M2_REPO/com/fasterxml/jackson/core"

CP="target/classes"
for a in jackson-databind jackson-core jackson-annotations; do
  jar="$JACKSON_DIR/$a/$JACKSON_VERSION/$a-$JACKSON_VERSION.jar"
  if [ ! -f "$jar" ]; then
    echo "start.sh: missing dependency $jar" >&2
    exit 1
  fi
  CP="$CP:$jar"
done

# Compile if needed (the harness normally builds with Maven first).
if [ ! -f target/classes/app/Main.class ]; then
  echo "start.sh: target/classes not found, compiling with javac" >&2
  mkdir -p target/classes
  find src/main/java -name '*.java' > target/sources.txt
  javac --release 17 -encoding UTF-8 -cp "$CP" -d target/classes @target/sources.txt
  if [ -d src/main/resources ]; then
    cp -r src/main/resources/. target/classes/
  fi
fi

exec java -cp "$CP" app.Main
