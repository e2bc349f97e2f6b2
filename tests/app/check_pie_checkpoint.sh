#!/bin/sh
# The committed Fiodar side-3 pie checkpoint (docs/runs/README.md) still
# loads and gives the table that README.md and docs/findings.md report:
# 35 set-up classes covering all 19 * 18 = 342 set-ups, the setter's a1 a3,
# the chooser winning by 0.5, and the three set-ups where it takes White.
# Usage: check_pie_checkpoint.sh LOOM CHECKPOINT
set -e
loom=$1
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
cp "$2" "$tmp"  # a resumed run rewrites its file
out=$("$loom" solve fiodar --size 3 --pie --method superko --checkpoint "$tmp" --max-nodes 1 --table-mb 64)
rows=$(printf '%s\n' "$out" | grep -E '^  [a-e][0-9] [a-e][0-9] +x[0-9]+ ')
test "$(printf '%s\n' "$rows" | wc -l)" -eq 35
test "$(printf '%s\n' "$rows" | awk '{s += substr($3, 2)} END {print s}')" -eq 342
printf '%s\n' "$out" | grep -q 'the setter should place a1 a3 (black white); the chooser then takes black and wins by 0.5'
test "$(printf '%s\n' "$rows" | awk '$4 == "-0.5" {print $1 " " $2}' | tr '\n' ,)" = "a2 a1,a2 e3,b2 a1,"
test "$(printf '%s\n' "$rows" | awk '$4 != "-0.5" && $4 != "0.5" && $4 != "1.5"' | wc -l)" -eq 0
