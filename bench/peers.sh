#!/usr/bin/env bash
# bench/peers.sh — prepares the source of the peer MCP gateways that
# bench/run.sh's federated scenario builds and measures: docker/mcp-gateway
# and MCPJungle, archived from git mirrors (bare git dirs) into plain
# source folders, and prints the settings that point run.sh at them.
#
#   bash bench/peers.sh [DIR]      # default DIR: ${TMPDIR:-/tmp}/gtmgate-peers
#   eval "$(bash bench/peers.sh)" && BENCH_ONLY=federated bash bench/run.sh
#
# Settings (environment):
#   MCP_GATEWAY_GIT  bare git dir of docker/mcp-gateway (default /work/.mirror/docker+mcp-gateway/repo)
#   MCPJUNGLE_GIT    bare git dir of MCPJungle (default /work/.mirror/mcpjungle+MCPJungle/repo)
# A mirror that is not there is skipped. Nothing is fetched from the network
# here; run.sh builds each folder with its vendor/ folder when complete, else
# with the Go module proxy.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=bench/mcppeers.sh
source bench/mcppeers.sh

out=${1:-${TMPDIR:-/tmp}/gtmgate-peers}
mkdir -p "$out"
for peer in "mcp-gateway MCP_GATEWAY_SRC ${MCP_GATEWAY_GIT:-/work/.mirror/docker+mcp-gateway/repo}" \
	"mcpjungle MCPJUNGLE_SRC ${MCPJUNGLE_GIT:-/work/.mirror/mcpjungle+MCPJungle/repo}"; do
	read -r name var git <<<"$peer"
	if [[ ! -f $git/HEAD ]]; then
		printf 'bench: %s: no git mirror at %s, skipped\n' "$name" "$git" >&2
		continue
	fi
	rm -rf "${out:?}/$name"
	export_git_tree "$git" "$out/$name" || { printf 'bench: %s: cannot export %s\n' "$name" "$git" >&2; continue; }
	printf 'bench: %s: commit %s in %s\n' "$name" "$(git --git-dir="$git" rev-parse --short HEAD)" "$out/$name" >&2
	printf 'export %s=%q\n' "$var" "$out/$name"
done
