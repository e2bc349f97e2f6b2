#!/bin/sh
# The browser test of the puzzle collection page (issue 13), as ctest runs it:
# makes a small collection for every game with the real `loom puzzle make`
# (deterministic seeds), joins them into one fixture, builds the page from it
# with make_fixture_page (the puzzles/ API) and drives it in headless
# Chromium (test_collection.py); then opens a `loom audit` report
# (test_audit_page.py). Exit 77 (skip) only when Chromium is absent.
#
# usage: run_browser_test.sh LOOM MAKE_FIXTURE_PAGE WORKDIR
set -eu
loom=$1
maker=$2
work=$3
here=$(dirname "$0")
rm -rf "$work"
mkdir -p "$work"
"$loom" puzzle make gadur --size 3 --count 1 --seed 1 --out "$work/gadur" >/dev/null
"$loom" puzzle make enfargar --size 2 --count 1 --seed 1 --out "$work/enfargar" >/dev/null
"$loom" puzzle make migong --size 2 --count 1 --seed 1 --out "$work/migong" >/dev/null
"$loom" puzzle make fiodar --size 2 --count 1 --seed 1 --out "$work/fiodar" >/dev/null
"$loom" puzzle make nardy --max-checkers 6 --count 1 --seed 1 --db "$work/db" \
  --out "$work/nardy" >/dev/null 2>&1
for g in gadur enfargar migong fiodar nardy; do
  n=$(wc -l <"$work/$g/puzzles.jsonl")
  if [ "$n" -ne 1 ]; then
    echo "FAIL: loom puzzle make $g made $n puzzles, want 1" >&2
    exit 1
  fi
done
cat "$work"/gadur/puzzles.jsonl "$work"/enfargar/puzzles.jsonl "$work"/migong/puzzles.jsonl \
  "$work"/fiodar/puzzles.jsonl "$work"/nardy/puzzles.jsonl >"$work/fixture.jsonl"
# Debian's python3 (python3-selenium lives in its dist-packages), not
# whatever python3 comes first on PATH (a pyenv shim has no selenium).
py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" "$here/test_collection.py" "$maker" "$work/fixture.jsonl" "$work/page" \
  --screenshot "$work/page.png"
# The audit report (issue 18): Gadur as written loops on side 2, so its
# report has a witness diagram (an SVG from puzzles/render.h).
"$loom" audit gadur --size 2 --games 20 --seconds 60 --out "$work/audit" >/dev/null
exec "$py" "$here/test_audit_page.py" "$work/audit" 1
