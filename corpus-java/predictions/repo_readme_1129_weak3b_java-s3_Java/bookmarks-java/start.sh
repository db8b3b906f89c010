#!/bin/bash
M2=~/.m2/repository/com/fasterxml/jackson/core
CP=target/classes
CP=$CP:$M2/jackson-databind/2.14.0/jackson-databind-2.14.0.jar
CP=$CP:$M2/jackson-core/2.14.0/jackson-core-2.14.0.jar
CP=$CP:$M2/jackson-annotations/2.14.0/jackson-annotations-2.14.0.jar
exec java -cp $CP com.example.bookmarks.Main
