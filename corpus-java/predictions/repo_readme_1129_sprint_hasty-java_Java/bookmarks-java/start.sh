#!/usr/bin/env bash
# Starts the bookmarks service in the foreground on port 8080.
set -e
cd "$(dirname "$0")"
M2="${HOME}/.m2/repository"
CP="target/classes"
for jar in $(find "$M2/org/eclipse/jetty" -name '*-9.4.57.v20241219.jar' 2>/dev/null) \
           $(find "$M2/javax/servlet" -name '*.jar' 2>/dev/null) \
           $(find "$M2/com/fasterxml/jackson/core" -name '*-2.14.0.jar' 2>/dev/null); do
  case "$jar" in
    *-sources.jar|*-javadoc.jar|*-tests.jar) ;;
    *) CP="$CP:$jar" ;;
  esac
done
exec java -cp "$CP" com.example.bookmarks.Application
