#!/usr/bin/env bash
# bench/hostile.sh — the hostile upstream scenario (issue 42): the real
# binary with two tenants' MCP servers, the demo tenant's a well-behaved
# go-sdk server and another tenant's e2e/hostilesrv, which floods
# notifications/tools/list_changed (10,000 every 250 ms) and declares 20,000
# tools. It reports the demo tenant's federated tools/call latency (one
# call at a time over MCP) in alternating quiet and hostile rounds, as
# medians and their ratio measured in the same run. It drives e2e's
# TestFederationHostileLatency (which asserts no figure); about 40 s with
# the default rounds. Results: bench/out/hostile-<stamp>.txt. See
# bench/README.md.
#
# Settings (environment):
#   BENCH_HOSTILE_ROUND  length of each of the 3 quiet and 3 hostile rounds (default 4s)
set -euo pipefail

cd "$(dirname "$0")/.."
mkdir -p bench/out
out="bench/out/hostile-$(date -u +%Y%m%dT%H%M%SZ).txt"
log=$(GTMGATE_E2E_HOSTILE_BENCH=1 GTMGATE_E2E_HOSTILE_ROUND="${BENCH_HOSTILE_ROUND:-4s}" \
	go test ./e2e -run '^TestFederationHostileLatency$' -count=1 -v -timeout 5m 2>&1) || {
	echo "$log" >&2
	echo "the hostile upstream run failed (above)" >&2
	exit 1
}
line=$(echo "$log" | grep -o 'figure .*' | tail -1)
val() { echo "$line" | grep -o "$1=[^ ]*" | cut -d= -f2; }
{
	printf '%-14s %-14s %-14s %-10s %-14s %-14s %-10s %-16s %-14s %-10s\n' quiet_p50_ms hostile_p50_ms p50_ratio rounds \
		quiet_p90_ms hostile_p90_ms p90_ratio notifications_read listings calls
	printf '%-14s %-14s %-14s %-10s %-14s %-14s %-10s %-16s %-14s %-10s\n' "$(val quiet_p50_ms)" "$(val loud_p50_ms)" \
		"$(val p50_ratio)" "$(val round_p50_ratios)" "$(val quiet_p90_ms)" "$(val loud_p90_ms)" "$(val p90_ratio)" \
		"$(val notifications)" "$(val hostile_listings)" "$(val quiet_calls)/$(val loud_calls)"
} | tee "$out"
