# bench/mcppeers.sh — the peer MCP gateways of bench/run.sh's federated
# scenario (sourced; uses its helpers, WORK, BIN and PIDS; bench/peers.sh
# sources it for export_git_tree): docker/mcp-gateway and MCPJungle, built
# from source and federating the same upstream tool as gtmgate. See
# bench/README.md, "Peer MCP gateways".
#
#   MCP_GATEWAY_SRC / MCPJUNGLE_SRC  a source folder or a bare git dir
#   MCP_GATEWAY_BIN / MCPJUNGLE_BIN  a ready binary instead (docker-mcp / mcpjungle)
#   MCP_GATEWAY_ARGS                 more flags for `docker-mcp gateway run`
#                                    (e.g. "--log-calls=false --block-secrets=false --verbose=false")

# export_git_tree GIT_DIR DIR writes GIT_DIR's HEAD tree into DIR. A mirror
# may lack some large blobs (git archive then stops): every file that can
# be read is written, and when a vendored file is missing, vendor/ is
# removed so that the build fetches modules from the module proxy instead.
export_git_tree() {
	local git=$1 dir=$2 index missing
	mkdir -p "$dir"
	index=$(mktemp "${TMPDIR:-/tmp}/gtmgate-peer-index.XXXXXX")
	# A private index file: the mirror itself is only read.
	GIT_INDEX_FILE=$index git --git-dir="$git" read-tree HEAD || { rm -f "$index"; return 1; }
	missing=$(GIT_INDEX_FILE=$index git --git-dir="$git" --work-tree="$dir" checkout-index -a -f 2>&1 |
		sed -n 's/^error: unable to read sha1 file of \(.*\) ([0-9a-f]*)$/\1/p')
	rm -f "$index"
	[[ -f $dir/go.mod ]] || return 1
	if grep -q '^vendor/' <<<"$missing"; then
		rm -rf "$dir/vendor"
	fi
	if [[ -n $missing ]]; then
		printf 'bench: %s: %d files not in the mirror (%s)\n' "$git" "$(wc -l <<<"$missing")" "$(head -n 3 <<<"$missing" | paste -sd, -)…" >&2
	fi
}

# build_peer NAME SRC PKG OUT builds the Go package PKG of SRC (a source
# folder or a bare git dir) into OUT, with its vendor/ folder when there is
# one, else with modules from the module proxy. It prints why on failure.
build_peer() {
	local name=$1 src=$2 pkg=$3 out=$4 dir mod=mod
	if [[ -f $src/go.mod ]]; then
		dir=$src
	elif [[ -f $src/HEAD && -d $src/objects ]]; then
		dir=$WORK/src-$name
		export_git_tree "$src" "$dir" || { printf 'cannot export the source of %s from %s' "$name" "$src"; return 1; }
	else
		printf '%s is neither a Go source folder nor a bare git dir' "$src"
		return 1
	fi
	[[ -f $dir/vendor/modules.txt ]] && mod=vendor
	printf 'bench: building %s from %s (-mod=%s)\n' "$name" "$src" "$mod" >&2
	if ! (cd "$dir" && GOWORK=off GOFLAGS="-mod=$mod -buildvcs=false" go build -o "$out" "$pkg") >"$WORK/build-$name.log" 2>&1; then
		if [[ $mod == vendor ]] && (cd "$dir" && GOWORK=off GOFLAGS="-mod=mod -buildvcs=false" go build -o "$out" "$pkg") >>"$WORK/build-$name.log" 2>&1; then
			return 0
		fi
		printf 'go build of %s failed: %s' "$name" "$(grep -v '^go: downloading' "$WORK/build-$name.log" | tail -n 3 | tr '\n' ' ')"
		return 1
	fi
}

# peer_binary NAME BIN_VAR SRC_VAR PKG prints the peer's binary: the ready
# one, or one built from source; nothing (and why, on fd 3) without either.
peer_binary() {
	local name=$1 bin=${!2:-} src=${!3:-} pkg=$4 why
	if [[ -n $bin ]]; then
		[[ -x $bin ]] && { echo "$bin"; return 0; }
		echo "$2=$bin is not an executable file" >&3
		return 1
	fi
	if [[ -z $src ]]; then
		echo "set $3 (a source folder or bare git dir; bash bench/peers.sh prepares both) or $2" >&3
		return 1
	fi
	if ! why=$(build_peer "$name" "$src" "$pkg" "$BIN/$name"); then
		echo "$why" >&3
		return 1
	fi
	echo "$BIN/$name"
}

# wait_port PORT PID waits until PORT accepts connections or PID exits.
wait_port() {
	for _ in $(seq 300); do
		(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# probe_peer NAME URL TOOL [loadgen flags…] makes one federated call through
# a peer (a session first: both peers are stateful MCP servers) and prints
# why when it is not a 200 with a tool result.
probe_peer() {
	local name=$1 url=$2 tool=$3 out
	shift 3
	out=$("$BIN/loadgen" -q -url "$url" -mcp-session -mcp-tool "$tool" -mcp-args "$FED_FLOOR_ARGS" -n 1 -c 1 -warmup 0 -d 30s "$@" 2>&1) || {
		printf 'loadgen: %s' "$out"
		return 1
	}
	if ! jq -e '.requests == 1 and .errors == 0 and .non_2xx == 0' <<<"$out" >/dev/null; then
		printf 'the first call of %s answered %s' "$tool" "$(jq -c '{status, first_error}' <<<"$out" | head -c 300)"
		return 1
	fi
}

# peer_failed VARIANT DIR REASON records a peer as not available, with the
# end of its stderr.
peer_failed() {
	unavailable "federated/$1" "$3: $(tail -n 3 "$2/stderr" 2>/dev/null | tr '\n' ' ' | cut -c1-300)"
}

# idle_rss VARIANT PID records a server's resident size before any load:
# VmRSS (code pages included) and RssAnon (its private memory).
idle_rss() {
	local kb anon
	kb=$(awk '/^VmRSS:/ { print $2 }' "/proc/$2/status" 2>/dev/null || true)
	anon=$(awk '/^RssAnon:/ { print $2 }' "/proc/$2/status" 2>/dev/null || true)
	[[ -n $kb ]] && record "{\"scenario\":\"federated\",\"variant\":\"$1\",\"idle_rss_kb\":$kb,\"idle_anon_kb\":${anon:-0}}"
	return 0
}

DOCKER_MCP_URL="" DOCKER_MCP_PID="" DOCKER_MCP_TOKEN=bench-docker-mcp-gateway-token-0123456789
JUNGLE_URL="" JUNGLE_PID="" JUNGLE_TOOL=""

# start_docker_mcp_gateway runs docker/mcp-gateway without Docker: in its
# in-container mode, static (no containers to start), streamable HTTP on a
# loopback port, with one remote catalog entry, the floors' MCP server,
# read from a catalog file under its scratch HOME (catalogs must resolve
# under ~/.docker/mcp/catalogs/). Everything else keeps its defaults.
start_docker_mcp_gateway() {
	local bin dir=$WORK/docker-mcp-gateway port why
	bin=$(peer_binary docker-mcp MCP_GATEWAY_BIN MCP_GATEWAY_SRC ./cmd/docker-mcp 3>"$WORK/why") || {
		unavailable federated/docker-mcp-gateway "$(cat "$WORK/why")"
		return 0
	}
	mkdir -p "$dir/home/.docker/mcp/catalogs"
	cat >"$dir/home/.docker/mcp/catalogs/bench.yaml" <<YAML
name: bench
displayName: gtmgate bench
registry:
  $FED_SERVER:
    name: $FED_SERVER
    title: bench upstream
    description: the bench floors' bare go-sdk MCP server
    type: remote
    remote:
      url: $MCP_FLOOR
      transport_type: streamable-http
YAML
	port=$(free_port) || { unavailable federated/docker-mcp-gateway "no free port"; return 0; }
	(cd "$dir" && exec env HOME="$dir/home" DOCKER_CONFIG="$dir/home/.docker" DOCKER_MCP_IN_CONTAINER=1 \
		DOCKER_MCP_ALLOW_INSECURE_REMOTE_URLS=1 MCP_GATEWAY_AUTH_TOKEN="$DOCKER_MCP_TOKEN" \
		"$bin" gateway run --transport streaming --static --host 127.0.0.1 --port "$port" \
		--catalog bench.yaml --servers "$FED_SERVER" --tools "$FED_SERVER:$FED_TOOL" ${MCP_GATEWAY_ARGS:-}) >"$dir/stdout" 2>"$dir/stderr" &
	DOCKER_MCP_PID=$!
	PIDS+=("$DOCKER_MCP_PID")
	if ! wait_port "$port" "$DOCKER_MCP_PID"; then
		peer_failed docker-mcp-gateway "$dir" "it did not listen on port $port"
		stop_pid "$DOCKER_MCP_PID"
		DOCKER_MCP_PID=""
		return 0
	fi
	if ! why=$(probe_peer docker-mcp-gateway "http://127.0.0.1:$port/mcp" "$FED_TOOL" -H "Authorization: Bearer $DOCKER_MCP_TOKEN"); then
		peer_failed docker-mcp-gateway "$dir" "$why"
		stop_pid "$DOCKER_MCP_PID"
		DOCKER_MCP_PID=""
		return 0
	fi
	DOCKER_MCP_URL=http://127.0.0.1:$port/mcp
	idle_rss docker-mcp-gateway "$DOCKER_MCP_PID"
	printf 'docker/mcp-gateway: %s (pid %s)\n' "$DOCKER_MCP_URL" "$DOCKER_MCP_PID" >&2
}

# start_mcpjungle runs MCPJungle with its defaults (SQLite in its working
# directory, no auth at this version) and registers the floors' MCP server
# through its HTTP API. Its tools are served at /mcp as server/tool.
start_mcpjungle() {
	local bin dir=$WORK/mcpjungle port why code
	bin=$(peer_binary mcpjungle MCPJUNGLE_BIN MCPJUNGLE_SRC . 3>"$WORK/why") || {
		unavailable federated/mcpjungle "$(cat "$WORK/why")"
		return 0
	}
	mkdir -p "$dir"
	port=$(free_port) || { unavailable federated/mcpjungle "no free port"; return 0; }
	# It binds every interface (gin's ":PORT"); nothing else is configurable.
	(cd "$dir" && exec env -u DATABASE_URL -u PORT "$bin" start --port "$port") >"$dir/stdout" 2>"$dir/stderr" &
	JUNGLE_PID=$!
	PIDS+=("$JUNGLE_PID")
	if ! wait_port "$port" "$JUNGLE_PID"; then
		peer_failed mcpjungle "$dir" "it did not listen on port $port"
		stop_pid "$JUNGLE_PID"
		JUNGLE_PID=""
		return 0
	fi
	code=$(http_status POST "http://127.0.0.1:$port/api/v0/servers" -H 'Content-Type: application/json' \
		--data "{\"name\":\"$FED_SERVER\",\"url\":\"$MCP_FLOOR\"}")
	if [[ $code != 200 && $code != 201 ]]; then
		peer_failed mcpjungle "$dir" "registering the upstream answered $code: $(head -c 160 "$WORK/probe.body")"
		stop_pid "$JUNGLE_PID"
		JUNGLE_PID=""
		return 0
	fi
	# The served name joins server and tool: "floor/echo_structured" at
	# 2ccfeee, "floor__echo_structured" in later versions.
	JUNGLE_TOOL=$(curl -sS --noproxy '*' "http://127.0.0.1:$port/api/v0/tools" |
		jq -r --arg t "$FED_TOOL" --arg s "$FED_SERVER" '[.[]?.name | select(startswith($s) and endswith($t))][0] // empty' 2>/dev/null || true)
	if [[ -z $JUNGLE_TOOL ]]; then
		peer_failed mcpjungle "$dir" "it lists no $FED_TOOL of $FED_SERVER"
		stop_pid "$JUNGLE_PID"
		JUNGLE_PID=""
		return 0
	fi
	if ! why=$(probe_peer mcpjungle "http://127.0.0.1:$port/mcp" "$JUNGLE_TOOL"); then
		peer_failed mcpjungle "$dir" "$why"
		stop_pid "$JUNGLE_PID"
		JUNGLE_PID=""
		return 0
	fi
	JUNGLE_URL=http://127.0.0.1:$port/mcp
	idle_rss mcpjungle "$JUNGLE_PID"
	printf 'MCPJungle: %s (pid %s)\n' "$JUNGLE_URL" "$JUNGLE_PID" >&2
}
