#!/bin/sh
# Formats the whole tree with palantir-java-format (Spotless's configuration in pom.xml), then lists the classes in
# src/main over 500 lines, the limit the architecture keeps: the list must be empty before the result is committed.
# Commit the result alone (see docs/decisions/0014-source-hygiene-before-a-formatter.md). Extra arguments go to
# Maven (e.g. -o to stay offline).
set -e
cd "$(dirname "$0")/.."
mvn -q "$@" spotless:apply
over=$(find src/main/java -name '*.java' -exec wc -l {} + | awk '$2 != "total" && $1 > 500 { print "  " $1 " " $2 }')
if [ -n "$over" ]; then
    echo "Over 500 lines after formatting (split them first):"
    echo "$over"
    exit 1
fi
echo "Formatted; no class in src/main is over 500 lines."
