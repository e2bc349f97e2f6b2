#!/usr/bin/env python3
"""The distributed dense solver (`mpirun -np K loom solve ... --method dense`)
against the one-process dense solver: the same value, openings, principal
variation and counts for K = 1, 2, 3; a run stopped at a step boundary and a
run with a rank killed by SIGKILL both resume to the same result; a table
saved under K ranks is the one-process table; a restart with another K, a
command other than solve and --table are refused with exit 2.

Usage: check_mpi.py LOOM [--slow]   (docs/distributed.md)
The expected values are the one-process solver's own (tests/solver checks
that one against the hash-table retrograde), computed in the same run.
"""
import json, os, signal, subprocess, sys, tempfile, time

LOOM = sys.argv[1]
SLOW = "--slow" in sys.argv
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")
# OpenMPI's own start-up allocations are not freed at exit.
ENV["ASAN_OPTIONS"] = ENV.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
KEYS = ["value", "openings", "pv", "pv_repeats", "positions", "moves", "moves_to_ends", "layers",
        "complete", "plies", "symmetries"]
failures = []


def run(cmd, timeout=1800):
    p = subprocess.run(cmd, env=ENV, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def mpirun(k, args, **kw):
    return run(["mpirun", "-np", str(k), "--oversubscribe", LOOM] + args, **kw)


def last_json(out):
    return json.loads(out.strip().splitlines()[-1])


def loom_lines(err):
    """What loom printed on stderr (mpirun adds its own banner on failure)."""
    return [l for l in err.splitlines() if l.startswith("loom:")]


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what, flush=True)
    if not cond:
        failures.append(what)


def same(a, b):
    return {k: a.get(k) for k in KEYS} == {k: b.get(k) for k in KEYS}


def job_args(job):
    return ["solve"] + job + ["--method", "dense", "--json"]


def reference(job):
    rc, out, err = run([LOOM] + job_args(job) + ["--threads", "1"])
    assert rc == 0, err
    return last_json(out)


def agree(job, ks):
    t0 = time.monotonic()
    ref = reference(job)
    print(f"      {' '.join(job)}: one process, 1 thread: {time.monotonic() - t0:.1f} s", flush=True)
    for k in ks:
        t0 = time.monotonic()
        rc, out, err = mpirun(k, job_args(job))
        wall = time.monotonic() - t0
        name = " ".join(job) + f" on {k} rank(s)"
        if rc != 0:
            check(False, name + ": exit " + str(rc) + " " + " ".join(loom_lines(err)))
            continue
        j = last_json(out)
        check(same(j, ref), name + ": the one-process values and counts")
        ranks = j.get("ranks", [])
        for r, x in enumerate(ranks):  # the figures docs/distributed.md quotes
            print(f"      rank {r}/{k}: {x['positions']:,} positions, {x['handled']:,} handled, "
                  f"{x['messages']:,} messages, {x['bytes_sent'] / 2**20:.1f} MB sent, "
                  f"{x['bytes'] / 2**20:.1f} MB; wall {wall:.1f} s", flush=True)
        check(len(ranks) == k and sum(r["positions"] for r in ranks) == ref["positions"],
              name + ": every position owned by exactly one rank")
        check(sum(l.startswith("{") for l in out.splitlines()) == 1 and out.count("value:") == 1,
              name + ": one report (rank 0 prints)")
    return ref


def resume_after_stop(job, k, stop_after):
    ref = reference(job)
    with tempfile.TemporaryDirectory() as d:
        ck = os.path.join(d, "ck")
        args = job_args(job) + ["--checkpoint", ck]
        rc, out, err = mpirun(k, args + ["--stop-after", str(stop_after)])
        check(rc == 130 and "interrupted" in err, f"{job} on {k} ranks: --stop-after stops (exit 130)")
        check(all(os.path.exists(f"{ck}.rank{r}.a") for r in range(k)) and os.path.exists(ck),
              f"{job} on {k} ranks: every rank saved its part and rank 0 the manifest")
        other = k + 1
        rc2, _, err2 = mpirun(other, args)
        check(rc2 == 2 and len(loom_lines(err2)) == 1 and f"mpirun -np {k}" in err2,
              f"{job}: a restart on {other} ranks is refused with one line, exit 2")
        rc, out, err = mpirun(k, args)
        j = last_json(out) if rc == 0 else {}
        check(rc == 0 and j.get("resumed") is True and same(j, ref),
              f"{job} on {k} ranks: the resumed run gives the uninterrupted values")


def resume_after_kill(job, k, after):
    """SIGKILL one rank `after` seconds in, then rerun: the same values."""
    ref = reference(job)
    with tempfile.TemporaryDirectory() as d:
        ck = os.path.join(d, "ck")
        args = job_args(job) + ["--checkpoint", ck, "--checkpoint-interval", "0.5"]
        p = subprocess.Popen(["mpirun", "-np", str(k), "--oversubscribe", LOOM] + args, env=ENV,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(after)
        killed = False
        kids = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout.split()
        if kids and p.poll() is None:
            os.kill(int(kids[-1]), signal.SIGKILL)
            killed = True
        p.communicate(timeout=600)
        check(not killed or p.returncode != 0, f"{job}: mpirun fails when a rank is killed")
        saved = os.path.exists(ck)
        rc, out, err = mpirun(k, args)
        j = last_json(out) if rc == 0 else {}
        check(rc == 0 and same(j, ref),
              f"{job} on {k} ranks: killed after {after} s (a save existed: {saved}), the rerun "
              "gives the uninterrupted values" + ("" if rc == 0 else ": " + " ".join(loom_lines(err))))
        if killed and saved:
            check(j.get("resumed") is True, f"{job}: the rerun resumed from the checkpoint")


def saved_table(job, ks):
    """--save-table under K ranks: rank 0 gathers every rank's positions and
    writes the one-process table byte for byte; one process answers from it."""
    ref = reference(job)
    with tempfile.TemporaryDirectory() as d:
        one = os.path.join(d, "one")
        rc, _, err = run([LOOM] + job_args(job) + ["--save-table", one])
        assert rc == 0, err
        want = open(one, "rb").read()
        for k in ks:
            name = " ".join(job) + f" --save-table on {k} rank(s)"
            part = os.path.join(d, f"part{k}")
            rc, out, err = mpirun(k, job_args(job) + ["--save-table", part])
            check(rc == 0 and same(last_json(out), ref), name + ": the one-process report")
            check(os.path.exists(part) and open(part, "rb").read() == want,
                  name + ": the one-process table, byte for byte")
            rc, out, err = run([LOOM, "solve"] + job + ["--table", part, "--check-table", "--json"])
            j = last_json(out) if rc == 0 else {}
            check(rc == 0 and all(j.get(x) == ref.get(x) for x in ["value", "openings", "pv"])
                  and j.get("table_check", {}).get("positions") == ref["positions"],
                  name + ": read back and checked, the solve's value, openings and line")
        # Checkpointed on 2 ranks: stopped after a step, resumed, and the
        # finished checkpoint run again: the same table each time.
        ck, part = os.path.join(d, "ck"), os.path.join(d, "part_ck")
        args = job_args(job) + ["--save-table", part, "--checkpoint", ck]
        rc, _, _ = mpirun(2, args + ["--stop-after", "1"])
        check(rc == 130 and not os.path.exists(part),
              " ".join(job) + " checkpointed on 2 ranks, stopped: no table yet")
        for again in ["resumed", "finished checkpoint"]:
            if os.path.exists(part):
                os.remove(part)
            rc, out, err = mpirun(2, args)
            check(rc == 0 and os.path.exists(part) and open(part, "rb").read() == want,
                  " ".join(job) + f" checkpointed on 2 ranks, {again}: the one-process table")
        # A file that is not this job's table is never written over: every
        # rank stops with rank 0's refusal (the others once waited for it in
        # the solve's first collective until killed).
        foreign = os.path.join(d, "foreign")
        with open(foreign, "w") as f:
            f.write("notes\n")
        try:
            rc, _, err = mpirun(2, job_args(job) + ["--save-table", foreign], timeout=120)
        except subprocess.TimeoutExpired:
            rc, err = None, "timed out"
        check(rc == 2 and len(loom_lines(err)) == 1 and "is not written over" in err
              and open(foreign).read() == "notes\n",
              " ".join(job) + " --save-table over another file on 2 ranks: one line, exit 2")
        rc, _, err = mpirun(2, job_args(job) + ["--table", one])
        check(rc == 2 and len(loom_lines(err)) == 1 and "--table is not used with mpirun" in err,
              "--table under 2 ranks: one line, exit 2")


gadur2 = [["gadur", "--size", "2"] + r for r in
          ([], ["--rule", "capture=merge-only"], ["--rule", "exception=subset"])]
enf2 = [["enfargar", "--size", "2"]]
enf3 = ["enfargar", "--size", "3", "--record", "a1 b2 c3 d4 e5 a2 b1"]
for job in gadur2 + enf2 + [enf3]:
    agree(job, [1, 2, 3])
saved_table(gadur2[0], [2, 3, 4])
saved_table(["enfargar", "--size", "2", "--no-symmetry", "--rule", "stall=more-stones"], [2, 4])
saved_table(enf3, [2, 3])
resume_after_stop(enf3, 2, 3)
resume_after_stop(gadur2[0], 3, 2)
resume_after_kill(enf3, 2, 1.5)

rc, out, err = mpirun(2, ["perft", "gadur", "--size", "2", "--depth", "2"])
check(rc == 2 and len(loom_lines(err)) == 1 and "only 'loom solve'" in err,
      "a command other than solve under 2 ranks: one line, exit 2")
rc, out, err = mpirun(2, ["solve", "gadur", "--size", "2", "--method", "dfs"])
check(rc == 2 and len(loom_lines(err)) == 1, "--method dfs under 2 ranks: one line, exit 2")

if SLOW:
    g3 = ["gadur", "--size", "3"]
    agree(g3, [2, 3])
    agree(g3 + ["--rule", "capture=merge-only"], [2, 3])
    agree(["enfargar", "--size", "3"], [2, 3])
    resume_after_kill(g3, 2, 40)

print("all passed" if not failures else f"{len(failures)} FAILED", flush=True)
sys.exit(1 if failures else 0)
