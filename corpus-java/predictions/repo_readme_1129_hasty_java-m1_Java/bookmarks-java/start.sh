#!/usr/bin/env bash
set -e
cd "$(dirname "$0")"
M2="${HOME}/.m2/repository/com/fasterxml/jackson/core"
V=2.14.0
if [ ! -d target/classes ]; then
  mvn -o -q compile
fi
CP="target/classes:${M2}/jackson-databind/${V}/jackson-databind-${V}.jar:${M2}/jackson-core/${V}/jackson-core-${V}.jar:${M2}/jackson-annotations/${V}/jackson-annotations-${V}.jar"
exec java -cp "$CP" com.example.bookmarks.BookmarksServer
