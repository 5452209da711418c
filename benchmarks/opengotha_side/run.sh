#!/usr/bin/env bash
# OpenGotha's own pairing of every round (2 and later) of tests/data/opengotha/*.xml, one JSON
# file per tournament in OUT_DIR, for `benchmarks/bench_quality.py --opengotha OUT_DIR`.
#
# usage: benchmarks/opengotha_side/run.sh OUT_DIR
#
# OPENGOTHA_GIT     a clone of https://github.com/lucvannier/opengotha (its .git directory or
#                   the work tree holding it); required
# OPENGOTHA_COMMIT  the commit to build; default 624c271, "V3.51.02" (b698ce8 is "V3.51")
# OPENGOTHA_BUILD   where the source is unpacked and compiled; default /tmp/og-side-build
# OPENGOTHA_CLUB    file (default: the file's own club avoidance), on or off
#
# Needs a JDK (javac, java; 17 works). Nothing is written inside the repository.
set -euo pipefail

out=${1:?usage: run.sh OUT_DIR}
club=${OPENGOTHA_CLUB:-file}
here=$(cd "$(dirname "$0")" && pwd)
data=$(cd "$here/../../tests/data/opengotha" && pwd)
tree=$("$here/build.sh")

mkdir -p "$tree/side"
javac -encoding UTF-8 -cp "$tree/classes" -d "$tree/side" "$here/OpenGothaSide.java"

mkdir -p "$out"
for xml in "$data"/*.xml; do
    name=$(basename "$xml" .xml)
    echo "pairing $name" >&2
    java -Djava.awt.headless=true -cp "$tree/classes:$tree/lib/jhall.jar:$tree/side" \
        OpenGothaSide "$xml" --club "$club" >"$out/$name.json"
done
echo "wrote $(ls "$out"/*.json | wc -l) files to $out" >&2
