#!/usr/bin/env python3
"""Estimates what an unfinished exact solve would cost from the start.

scripts/estimate_solve_cost.py LOOM GAME SIZE METHOD LEFT SEEDS MAX_NODES [--rule R=V]...
  e.g. scripts/estimate_solve_cost.py build/release/app/loom gadur 4 compact 6,8,10,12 1-6 \
       30000000 --rule capture=merge-only

For each seed s (a range "1-6" or a list "1,2,5") it plays `loom play GAME
--seed s` (a random game of L moves) and, for each count r in LEFT, solves
the position r moves before that game's end (after its first L - r moves)
with `loom solve --method METHOD --json --no-pv --max-nodes MAX_NODES`
(the same job as the full solve: every opening of that position, one
table). The moves left, not the moves played, measure what remains: in
Gadur captures make games long (26 to 55 moves on side 4) and a position
with 5 legal moves 20 moves before the end is far from solved. It prints
the nodes each solve took (">" where the budget stopped it), the median per
r over the seeds (a solve stopped by the budget counts as more than any
finished one, so the median is known while more than half finished), and a
least-squares line through log(median) against r: the growth factor per
move left and the nodes it extrapolates for r = the mean game length (the
start), with the time at the rate measured here.

This is an estimate, not a result: random games are not optimal play, and
a narrow position's cost need not extrapolate to the start. It says how far
out of reach a solve is (orders of magnitude), which is what issue 15 asks
for when a board cannot be finished.
"""
import json
import math
import subprocess
import sys


def parse_seeds(text):
    if "-" in text:
        a, b = text.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(x) for x in text.split(",")]


def main():
    if len(sys.argv) < 8:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(2)
    loom, game, size, method, lefts, seeds, max_nodes = sys.argv[1:8]
    rules = sys.argv[8:]
    lefts = sorted(int(r) for r in lefts.split(","))  # moves left
    seeds = parse_seeds(seeds)
    base = ["--size", size] + rules

    lengths = []
    rows = {}  # seed -> {r: (nodes, finished, seconds)}
    for seed in seeds:
        out = subprocess.run([loom, "play", game, *base, "--seed", str(seed)], check=True,
                             capture_output=True, text=True).stdout
        moves = [line.split(". ", 1)[1].strip() for line in out.splitlines()
                 if ". " in line and line.split(". ", 1)[0].isdigit()]
        lengths.append(len(moves))
        rows[seed] = {}
        for r in lefts:
            k = len(moves) - r
            if k < 0:
                continue
            cmd = [loom, "solve", game, *base, "--method", method, "--json", "--no-pv",
                   "--max-nodes", max_nodes, "--record", " ".join(moves[:k])]
            res = subprocess.run(cmd, capture_output=True, text=True)
            if res.returncode != 0:
                print(f"seed {seed} ply {k}: {res.stderr.strip()}", file=sys.stderr)
                sys.exit(2)
            j = json.loads(res.stdout.strip().splitlines()[-1])
            rows[seed][r] = (j["nodes"], j["complete"], j["seconds"])
            mark = "" if j["complete"] else ">"
            print(f"seed {seed:3d}  {r:3d} moves left (ply {k:3d} of {len(moves)})  "
                  f"{mark}{j['nodes']:,} nodes  {j['seconds']:.1f} s", flush=True)
    start_left = sum(lengths) / len(lengths)
    # Per count of moves left: the median over the seeds' solves.
    print(f"\n{'left':>5} {'finished':>9} {'median nodes':>16}")
    pts = []
    nodes_all = secs_all = 0.0
    for r in lefts:
        got = [rows[s][r] for s in seeds if r in rows[s]]
        for n, ok, t in got:
            nodes_all += n
            secs_all += t
        fin = sum(1 for _, ok, _ in got if ok)
        # Unfinished solves sort above every finished one.
        order = sorted((0 if ok else 1, n) for n, ok, _ in got)
        if got and 2 * fin > len(got):
            mid = order[(len(order) - 1) // 2]
            if len(order) % 2 == 0:
                hi = order[len(order) // 2]
                med = math.sqrt(mid[1] * hi[1]) if hi[0] == 0 else None
            else:
                med = mid[1]
            if med is not None:
                pts.append((r, med))
                print(f"{r:5d} {fin:4d}/{len(got):<4d} {med:16,.0f}")
                continue
        print(f"{r:5d} {fin:4d}/{len(got):<4d} {'(unknown)':>16}")
    if len(pts) < 2:
        print("\nfewer than two counts with a known median: no fit (out of reach at this budget)")
        return
    xs = [r for r, _ in pts]
    ys = [math.log(n) for _, n in pts]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    at0 = math.exp(my + slope * (start_left - mx))
    rate = nodes_all / secs_all if secs_all > 0 else 0
    print(f"\ngrowth per move left: x{math.exp(slope):.2f}")
    print(f"extrapolated nodes from the start ({start_left:.1f} moves left, the mean game "
          f"length): {at0:.3e}")
    if rate > 0:
        print(f"at {rate:,.0f} nodes/s (these solves): {at0 / rate:.3e} s "
              f"= {at0 / rate / 3600:.3g} hours on one core (table misses not counted)")


if __name__ == "__main__":
    main()
