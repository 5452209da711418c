#!/usr/bin/env bash
# OpenGotha's own pairing of every round (2 and later) of tests/data/opengotha/*.xml, one JSON
# file per tournament in OUT_DIR, for `benchmarks/bench_quality.py --opengotha OUT_DIR`.
#
# usage: benchmarks/opengotha_side/run.sh OUT_DIR [FILE.xml ...]
#
# With files named, those files instead (bench_quality.py --synthetic names its own).
#
# OPENGOTHA_GIT     a clone of https://github.com/lucvannier/opengotha (its .git directory or
#                   the work tree holding it); required
# OPENGOTHA_COMMIT  the commit to build; default 624c271, "V3.51.02" (b698ce8 is "V3.51")
# OPENGOTHA_BUILD   where the source is unpacked and compiled; default /tmp/og-side-build
# OPENGOTHA_CLUB    file (default: the file's own club avoidance), on or off
# OPENGOTHA_FIRST   the first round to pair; default 2 (round 1 has no history to weigh)
# OPENGOTHA_REPEAT  K > 0 pairs each round 1 + K times and reports the least time of the
#                   last K (the first warms the JVM up); default 0: one pairing, its time
#
# Needs a JDK (javac, java; 17 works). Nothing is written inside the repository.
set -euo pipefail

out=${1:?usage: run.sh OUT_DIR}
club=${OPENGOTHA_CLUB:-file}
first=${OPENGOTHA_FIRST:-2}
repeat=${OPENGOTHA_REPEAT:-0}
here=$(cd "$(dirname "$0")" && pwd)
data=$(cd "$here/../../tests/data/opengotha" && pwd)
tree=$("$here/build.sh")

mkdir -p "$tree/side"
javac -encoding UTF-8 -cp "$tree/classes" -d "$tree/side" "$here/OpenGothaSide.java"

shift
files=("$@")
if [ ${#files[@]} -eq 0 ]; then files=("$data"/*.xml); fi
mkdir -p "$out"
for xml in "${files[@]}"; do
    name=$(basename "$xml" .xml)
    echo "pairing $name" >&2
    java -Djava.awt.headless=true -cp "$tree/classes:$tree/lib/jhall.jar:$tree/side" \
        OpenGothaSide "$xml" --club "$club" --first "$first" --repeat "$repeat" >"$out/$name.json"
done
echo "wrote ${#files[@]} files to $out" >&2
