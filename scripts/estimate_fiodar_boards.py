#!/usr/bin/env python3
# scripts/estimate_fiodar_boards.py SIDE SAMPLES [SEED]: estimates how many Fiodar
# boards can occur in play (docs/distributed.md, "Scaling on paper").
# The fraction of uniformly random boards with no cut weave is an upper
# bound on the fraction a game can reach (RULES.md 2, default rules: after
# every turn no weave of either colour is cut). Independent of model code.
import random, sys
n = int(sys.argv[1]); samples = int(sys.argv[2]); random.seed(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
cells = [(q, r) for q in range(-n + 1, n) for r in range(-n + 1, n) if abs(q + r) <= n - 1]
idx = {c: i for i, c in enumerate(cells)}
dirs = [(1, 0), (0, 1), (-1, 1)]
nb = [[idx[(q + dq, r + dr)] for dq, dr in dirs + [(-a, -b) for a, b in dirs] if (q + dq, r + dr) in idx] for q, r in cells]
def cutfree(b):
    on_cut = [False] * len(cells)
    for dq, dr in dirs:
        for i, (q, r) in enumerate(cells):
            c = b[i]
            if c == 0: continue
            p = (q - dq, r - dr)
            if p in idx and b[idx[p]] == c: continue  # not the start of the thread
            run = [i]; x = (q + dq, r + dr)
            while x in idx and b[idx[x]] == c: run.append(idx[x]); x = (x[0] + dq, x[1] + dr)
            if p in idx and x in idx and b[idx[p]] == 3 - c and b[idx[x]] == 3 - c:
                for j in run: on_cut[j] = True
    seen = [False] * len(cells)
    for i in range(len(cells)):
        if b[i] == 0 or seen[i]: continue
        stack = [i]; seen[i] = True; allcut = True
        while stack:
            j = stack.pop(); allcut &= on_cut[j]
            for k in nb[j]:
                if not seen[k] and b[k] == b[i]: seen[k] = True; stack.append(k)
        if allcut: return False
    return True
ok = sum(cutfree([random.randrange(3) for _ in cells]) for _ in range(samples))
p = ok / samples; se = (p * (1 - p) / samples) ** 0.5
print(f"side {n}: {len(cells)} cells, {ok}/{samples} cut-free, fraction {p:.4f} +- {1.96*se:.4f} (95%), 3^cells = {3**len(cells):.3e}, cut-free boards ~ {p*3**len(cells):.3e}")
