#!/bin/bash
# Issue 33, fair share between keys: the attack benchmark on snapshots taking turns (docs/hardening.md).
# after = git archive 62037f5; before = git archive 5db03ca (the commit before 4732d0e) with 62037f5's harness.
# Run at 10:06-10:31 UTC 2026-12-07 as two rounds: after-1 before-1 after-2, then before-2 after-3.
set -u
cd /work/main
rm -rf /tmp/fair-before /tmp/fair-after && mkdir -p /tmp/fair-before /tmp/fair-after /tmp/fair
git archive 62037f5 | tar -x -C /tmp/fair-after
git archive 5db03ca | tar -x -C /tmp/fair-before
cp /tmp/fair-after/benchmarks/attacks.py /tmp/fair-before/benchmarks/attacks.py
for run in after-1 before-1 after-2 before-2 after-3; do
  side=${run%-*}
  dir=/tmp/fair-$side
  echo "== $run $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/fair/runs.log
  (cd $dir && PYTHONPATH=$dir nice -n 10 /work/main/.venv/bin/python -m benchmarks.attacks --json /tmp/fair/attacks-$run.json > /tmp/fair/attacks-$run.out 2>&1)
  echo "   rc $? $(date -u +%H:%M:%S)" >> /tmp/fair/runs.log
done
