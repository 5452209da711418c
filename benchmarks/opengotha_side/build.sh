#!/usr/bin/env bash
# Build OpenGotha's source once per commit (into $OPENGOTHA_BUILD/<commit>) and print the tree's
# path: its classes/ and lib/jhall.jar are the class path of the drivers in this folder.
#
# usage: benchmarks/opengotha_side/build.sh      (run.sh and h9.sh call it)
#
# OPENGOTHA_GIT     a clone of https://github.com/lucvannier/opengotha (its .git directory or
#                   the work tree holding it); required
# OPENGOTHA_COMMIT  the commit to build; default 624c271, "V3.51.02" (b698ce8 is "V3.51")
# OPENGOTHA_BUILD   where the source is unpacked and compiled; default /tmp/og-side-build
#
# Needs a JDK (javac, java; 17 works). Nothing is written inside the repository.
set -euo pipefail

git_dir=${OPENGOTHA_GIT:?set OPENGOTHA_GIT to a clone of https://github.com/lucvannier/opengotha}
commit=${OPENGOTHA_COMMIT:-624c271}
build=${OPENGOTHA_BUILD:-/tmp/og-side-build}

if [ -d "$git_dir/.git" ]; then git_dir=$git_dir/.git; fi
full=$(git --git-dir="$git_dir" rev-parse --verify "$commit^{commit}")
tree=$build/$full

if [ ! -f "$tree/classes.done" ]; then
    echo "building OpenGotha $full in $tree" >&2
    rm -rf "$tree"
    mkdir -p "$tree/classes"
    git --git-dir="$git_dir" archive "$full" src lib | tar -x -C "$tree"
    find "$tree/src" -name '*.java' >"$tree/sources.txt"
    # GUI classes are compiled too (the model refers to them) but never instantiated.
    javac -nowarn -encoding UTF-8 -cp "$tree/lib/jhall.jar" -d "$tree/classes" @"$tree/sources.txt"
    touch "$tree/classes.done"
fi
echo "$tree"
