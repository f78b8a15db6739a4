#!/usr/bin/env bash
# bench/backlog.sh — the grading backlog scenario (issue 31): the real binary
# with BENCH_BACKLOG grading jobs queued (default "0 50000": without, then
# with a backlog) and judges that take 2 s an answer. For each it reports how
# late a per-minute schedule's tick was (its run's late_by_seconds, and its
# start after the tick's time) and how long an agent run took to start after
# its request. It drives e2e's TestGradingBacklogStarvesNothing, which also
# fails past 15 s (tick) and 2 s (run start); about 1-2 minutes per backlog.
# Results: bench/out/backlog-<stamp>.txt. See bench/README.md.
set -euo pipefail

cd "$(dirname "$0")/.."
mkdir -p bench/out
out="bench/out/backlog-$(date -u +%Y%m%dT%H%M%SZ).txt"
printf '%-10s %-22s %-16s %-18s %-18s\n' backlog grading_waiting_after tick_late_by_s tick_run_start_s agent_run_start_s | tee "$out"
for n in ${BENCH_BACKLOG:-0 50000}; do
	log=$(GTMGATE_E2E_BACKLOG="$n" go test ./e2e -run '^TestGradingBacklogStarvesNothing$' -count=1 -v -timeout 10m 2>&1) || {
		echo "$log" >&2
		echo "backlog $n: the test failed (above)" >&2
		exit 1
	}
	line=$(echo "$log" | grep -o 'figure backlog=.*' | tail -1)
	val() { echo "$line" | grep -o "$1=[^ ]*" | cut -d= -f2; }
	printf '%-10s %-22s %-16s %-18s %-18s\n' "$(val backlog)" "$(val grading_waiting_after)" "$(val tick_late_by_s)" \
		"$(val tick_run_start_s)" "$(val agent_run_start_s)" | tee -a "$out"
done
