#!/bin/bash
# build and start the bookmarks service
mvn clean compile
mvn exec:java -Dexec.mainClass="com.example.bookmarks.Main"
