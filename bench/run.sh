#!/usr/bin/env bash
# bench/run.sh — what `make bench` runs. Builds gtmgate and the bench
# programs, starts the floors (bench/cmd/floors) and gtmgate --demo on
# loopback ports, loads every scenario at each concurrency for a bounded
# time, and prints each figure next to its floor measured in the same run.
# Results: bench/out/results-<stamp>.jsonl (one line per run),
# summary-<stamp>.json and report-<stamp>.txt. See bench/README.md.
#
# Settings (environment):
#   BENCH_SECONDS       measured seconds per run (default 5)
#   BENCH_WARMUP        unmeasured warm-up per run (default 1s)
#   BENCH_CONCURRENCY   concurrency levels (default "1 32")
#   BENCH_DATABASE_URL  PostgreSQL for the postgres runs
#                       (default postgres://postgres@127.0.0.1:5432/test?sslmode=disable;
#                       "off" skips them); a fresh schema is created and dropped
#   BENCH_CHAT_CHUNKS   chunks of a streamed chat answer (default 20)
#   BENCH_CHAT_DELAY    pause before each streamed chunk (default 1ms)
#   BENCH_SITE_URL      site to compare with nginx (default: gtmgate's site listener)
#   BENCH_ROUNDS        interleaved rounds of every comparison (default 3): each round
#                       runs every variant once, starting with another one each round;
#                       the report prints each ratio's median and spread over the rounds
#   BENCH_LIMITS_ROUNDS, BENCH_SITE_ROUNDS, BENCH_CHAT_ROUNDS
#                       the same for one scenario (default BENCH_ROUNDS)
#   BENCH_SITE_SECONDS  measured seconds per site run (default 2)
#   BENCH_ONLY          run only these scenarios (default "toollist rest limits mcp
#                       federated admin chat site postgres"; "hostile" runs on request)
#   GTMGATE_BIN         a ready gtmgate binary to measure instead of building one
#   GTMGATE_ALT_BIN     a second gtmgate binary (e.g. one built against a patched go-sdk:
#                       bench/sdk-decode-patch.md), run as one more federated gateway
#                       (variant gtmgate-alt) in the same rounds
#   MCP_GATEWAY_SRC     docker/mcp-gateway's source (folder or bare git dir), built and
#                       run as a federated peer; MCP_GATEWAY_BIN: a ready docker-mcp binary
#   MCPJUNGLE_SRC       MCPJungle's source, likewise; MCPJUNGLE_BIN: a ready binary
#                       (bash bench/peers.sh prepares both sources from git mirrors)
#   BIFROST_BIN         a Bifrost HTTP gateway binary, run as the chat scenario's peer
#   BENCH_PEER_CMD      any OpenAI-compatible gateway's start command, run as the peer
#                       instead; {port}, {upstream} (the fake model gateway, .../v1),
#                       {origin} (the same without /v1), {key} and {dir} are replaced
#   BENCH_PEER_PATH     the peer's chat completions path (default /v1/chat/completions)
#   BENCH_PEER_MODEL    the model name the peer is sent (default bench-model;
#                       openai/bench-model for Bifrost)
#   BENCH_PEER_AUTH     the peer's Authorization header (default "Bearer " + the
#                       fake model gateway's key)
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
SECS=${BENCH_SECONDS:-5}
WARMUP=${BENCH_WARMUP:-1s}
LEVELS=${BENCH_CONCURRENCY:-"1 32"}
PGURL=${BENCH_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test?sslmode=disable}
CHAT_CHUNKS=${BENCH_CHAT_CHUNKS:-20}
CHAT_DELAY=${BENCH_CHAT_DELAY:-1ms}
ONLY=" ${BENCH_ONLY:-toollist rest limits mcp federated admin chat site postgres} "
ROUNDS=${BENCH_ROUNDS:-3}
LIMITS_ROUNDS=${BENCH_LIMITS_ROUNDS:-$ROUNDS}
CHAT_ROUNDS=${BENCH_CHAT_ROUNDS:-$ROUNDS}
BENCH_SITE_ROUNDS=${BENCH_SITE_ROUNDS:-$ROUNDS}
LIMITS_TOKEN=tok-bench-limits-0123456789abcdef
CHAT_KEY=bench-model-gateway-key
CHAT_MODEL=bench-model
ADMIN_KEY=bench-admin-key-0123456789abcdef
HUBSPOT_TOKEN=sandbox-hubspot-token # provider/hubspot.SandboxToken
REST_BODY='{"tool":"crm_pipelines","input":{"action":"list","rationale":"bench"}}'
MCP_ARGS='{"action":"list","rationale":"bench"}'
# The federated scenario: the floors' MCP server registered as the demo
# tenant's upstream FED_SERVER, serving only FED_TOOL (see
# bench/cmd/floors/mcp.go for why not the plain echo).
FED_SERVER=floor
FED_TOOL=echo_structured
FED_FLOOR_ARGS='{"text":"bench"}'
FED_ARGS='{"text":"bench","rationale":"bench"}'

PEER_CMD=${BENCH_PEER_CMD:-}
PEER_PATH=${BENCH_PEER_PATH:-/v1/chat/completions}
PEER_MODEL=${BENCH_PEER_MODEL:-}
PEER_AUTH=${BENCH_PEER_AUTH:-"Bearer $CHAT_KEY"}

OUT=$ROOT/bench/out
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
RESULTS=$OUT/results-$STAMP.jsonl
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gtmgate-bench.XXXXXX")
BIN=$WORK/bin
PIDS=()
PG_SCHEMA=""
mkdir -p "$OUT" "$BIN"

log() { printf '\n== %s\n' "$*" >&2; }
die() { printf 'bench: %s\n' "$*" >&2; exit 1; }

# stop_pid ends one process this script started and waits for it.
stop_pid() {
	local pid=$1
	if kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null || true
		for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$pid" 2>/dev/null || true
	fi
	wait "$pid" 2>/dev/null || true
}

cleanup() {
	local pid
	for pid in "${PIDS[@]}"; do stop_pid "$pid"; done
	if [[ -n $PG_SCHEMA ]]; then
		psql -qX "$PGURL" -c "DROP SCHEMA IF EXISTS \"$PG_SCHEMA\" CASCADE" >/dev/null 2>&1 || true
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# want SCENARIO tells whether BENCH_ONLY selects the scenario.
want() { [[ $ONLY == *" $1 "* ]]; }

# record appends a marker line for the report.
record() { printf '%s\n' "$1" >>"$RESULTS"; }

# unavailable SCENARIO[/VARIANT] REASON records a scenario that could not run.
unavailable() {
	local scen=${1%%/*} variant="" reason
	[[ $1 == */* ]] && variant=${1#*/}
	reason=$(printf '%s' "$2" | tr -d '"\\' | tr '\n\t' '  ' | cut -c1-200)
	record "{\"scenario\":\"$scen\",\"variant\":\"$variant\",\"unavailable\":\"$reason\"}"
	printf 'bench: %s not available: %s\n' "$1" "$reason" >&2
}

# ROUND names the interleaved round that the next runs belong to.
ROUND=""

# load SCENARIO VARIANT CONCURRENCY URL [loadgen flags…] runs one measurement.
load() {
	local scen=$1 variant=$2 c=$3 url=$4
	shift 4
	"$BIN/loadgen" -scenario "$scen" -variant "$variant" -round "$ROUND" -c "$c" -d "${SECS}s" -warmup "$WARMUP" \
		-url "$url" "$@" >>"$RESULTS" || die "loadgen $scen/$variant c=$c failed"
}

# run_rounds NAME COUNT FN… runs COUNT interleaved rounds named NAME-1…:
# in each, at each concurrency, every variant function (called as FN C)
# once, each round starting with the next one. The report sets a subject
# only against floors of its own round, so no ratio divides by a floor
# measured minutes apart.
run_rounds() {
	local name=$1 count=$2 r c i
	shift 2
	local fns=("$@")
	for r in $(seq "$count"); do
		ROUND=$name-$r
		for c in $LEVELS; do
			for i in "${!fns[@]}"; do
				"${fns[(i + r - 1) % ${#fns[@]}]}" "$c"
			done
		done
	done
	ROUND=""
}

# wait_ready FILE PID waits for a "ready" line from a process started here.
wait_ready() {
	local file=$1 pid=$2
	for _ in $(seq 600); do
		grep -qx ready "$file" 2>/dev/null && return 0
		kill -0 "$pid" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# field FILE NAME prints the URL after NAME in a "name URL" listing.
field() { awk -v n="$2" '$1 == n { print $2; exit }' "$1"; }

# http_status METHOD URL [curl args…] prints the status code of one request.
http_status() {
	local method=$1 url=$2
	shift 2
	curl -sS --noproxy '*' -o "$WORK/probe.body" -w '%{http_code}' -X "$method" "$url" "$@" || echo 000
}

free_port() {
	local p
	for _ in $(seq 100); do
		p=$((20000 + RANDOM % 20000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

# shellcheck source=bench/site.sh
source "$ROOT/bench/site.sh"
# shellcheck source=bench/mcppeers.sh
source "$ROOT/bench/mcppeers.sh"

# --- build ---------------------------------------------------------------
log "build"
if [[ -n ${GTMGATE_BIN:-} ]]; then
	cp "$GTMGATE_BIN" "$BIN/gtmgate"
else
	go build -o "$BIN/gtmgate" ./cmd/gtmgate
fi
go build -o "$BIN/" ./bench/cmd/loadgen ./bench/cmd/floors ./bench/cmd/report ./bench/cmd/toollist
ADMIN_HASH=$("$BIN/gtmgate" hash-key "$ADMIN_KEY")

record "{\"meta\":{\"stamp\":\"$STAMP\",\"bench_seconds\":$SECS,\"warmup\":\"$WARMUP\",\"concurrency\":\"$LEVELS\",\"cores\":$(nproc),\"go\":\"$(go env GOVERSION)\",\"commit\":\"$(git rev-parse --short HEAD 2>/dev/null || echo unknown)\",\"loadavg\":\"$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)\",\"chat_chunks\":$CHAT_CHUNKS,\"chat_delay\":\"$CHAT_DELAY\"}}"

# --- floors --------------------------------------------------------------
log "start floors"
"$BIN/floors" -chat-key "$CHAT_KEY" -chat-chunks "$CHAT_CHUNKS" -chat-chunk-delay "$CHAT_DELAY" \
	>"$WORK/floors.out" 2>"$WORK/floors.err" &
FLOORS_PID=$!
PIDS+=($!)
wait_ready "$WORK/floors.out" "$!" || die "floors did not start: $(cat "$WORK/floors.err")"
cat "$WORK/floors.out" >&2
HUBSPOT=$(field "$WORK/floors.out" hubspot)
CHAT=$(field "$WORK/floors.out" chat)
MCP_FLOOR=$(field "$WORK/floors.out" mcp)
# The bare proxies run in a process of their own, as gtmgate does: a proxy
# in the upstreams' process would skip the cross-process hop gtmgate pays.
"$BIN/floors" -proxy "proxy-hubspot=$HUBSPOT" -proxy "proxy-chat=${CHAT%/v1}" -mcp-hubspot "$HUBSPOT" \
	>"$WORK/proxies.out" 2>"$WORK/proxies.err" &
PROXY_PID=$!
PIDS+=($!)
wait_ready "$WORK/proxies.out" "$!" || die "floor proxies did not start: $(cat "$WORK/proxies.err")"
cat "$WORK/proxies.out" >&2
PROXY_HUBSPOT=$(field "$WORK/proxies.out" proxy-hubspot)
PROXY_CHAT=$(field "$WORK/proxies.out" proxy-chat)/v1
MCP_HUBSPOT=$(field "$WORK/proxies.out" mcp-hubspot)

# --- gtmgate -------------------------------------------------------------
GTM_PID="" GATEWAY="" SITE="" TOKEN=""

# start_gtmgate NAME [ENV=VALUE…] starts gtmgate --demo on port-0 listeners
# with a fresh data dir, the floors' HubSpot sandbox and fake chat upstream;
# the binary is $BIN/gtmgate, or GTM_BINARY when set.
start_gtmgate() {
	local name=$1 dir=$WORK/gtmgate-$1
	shift
	mkdir -p "$dir"
	env GTMGATE_DATA_DIR="$dir/data" ADMIN_API_KEY="$ADMIN_HASH" GTMGATE_LOG_LEVEL=warn \
		GTMGATE_UPSTREAM_HUBSPOT="$HUBSPOT" MODEL_GATEWAY_URL="$CHAT" MODEL_GATEWAY_API_KEY="$CHAT_KEY" "$@" \
		"${GTM_BINARY:-$BIN/gtmgate}" serve --demo --site-addr 127.0.0.1:0 --gateway-addr 127.0.0.1:0 --docs-addr 127.0.0.1:0 \
		>"$dir/stdout" 2>"$dir/stderr" &
	GTM_PID=$!
	PIDS+=("$GTM_PID")
	wait_ready "$dir/stdout" "$GTM_PID" || die "gtmgate ($name) did not start: $(tail -n 20 "$dir/stderr")"
	GATEWAY=$(field "$dir/stdout" gateway)
	SITE=$(field "$dir/stdout" site)
	TOKEN=$(grep -oE 'demo_[0-9a-f]+' "$dir/stdout" | head -n1 || true)
	[[ -n $GATEWAY && -n $TOKEN ]] || die "gtmgate ($name) printed no gateway address or demo token"
	printf 'gtmgate (%s): gateway %s site %s\n' "$name" "$GATEWAY" "${SITE:-off}" >&2
}

stop_gtmgate() { stop_pid "$GTM_PID"; }

# check_rest fails the run when the gateway cannot make the REST call.
check_rest() {
	local code
	code=$(http_status POST "$GATEWAY/api/v1/demo/crm" -H "Authorization: Bearer $TOKEN" \
		-H 'Content-Type: application/json' --data "$REST_BODY")
	[[ $code == 200 ]] || die "REST tool call answered $code: $(head -c 300 "$WORK/probe.body")"
}

# --- a peer gateway (optional) ---------------------------------------------
PEER_URL="" PEER_PID=""

# start_peer starts the peer gateway, when BIFROST_BIN or BENCH_PEER_CMD
# names one, against the fake model gateway; nothing is downloaded or built.
# It sets PEER_URL, or records why the peer is not available.
start_peer() {
	local dir=$WORK/peer port cmd origin=${CHAT%/v1} code
	mkdir -p "$dir"
	if [[ -z $PEER_CMD && -n ${BIFROST_BIN:-} ]]; then
		if [[ ! -x $BIFROST_BIN ]]; then
			unavailable chat/peer "BIFROST_BIN=$BIFROST_BIN is not an executable file"
			return
		fi
		# Bifrost's file mode (config.json in -app-dir, no config store): one
		# OpenAI-compatible provider whose base URL is the fake model gateway.
		# An empty models list is "every model"; Bifrost 1.4.19 reads ["*"]
		# literally and answers 400 "no keys found that support model".
		jq -n --arg key "$CHAT_KEY" --arg base "$origin" '{
			providers: {openai: {keys: [{name: "bench", value: $key, models: [], weight: 1.0}],
				network_config: {base_url: $base}}},
			config_store: {enabled: false}, logs_store: {enabled: false}}' >"$dir/config.json"
		PEER_CMD="$BIFROST_BIN -app-dir {dir} -host 127.0.0.1 -port {port} -log-level error"
		PEER_MODEL=${PEER_MODEL:-openai/$CHAT_MODEL}
	fi
	[[ -n $PEER_CMD ]] || return 0
	PEER_MODEL=${PEER_MODEL:-$CHAT_MODEL}
	port=$(free_port)
	cmd=${PEER_CMD//\{port\}/$port}
	cmd=${cmd//\{upstream\}/$CHAT}
	cmd=${cmd//\{origin\}/$origin}
	cmd=${cmd//\{key\}/$CHAT_KEY}
	cmd=${cmd//\{dir\}/$dir}
	bash -c "exec $cmd" >"$dir/stdout" 2>"$dir/stderr" &
	PEER_PID=$!
	PIDS+=("$PEER_PID")
	for _ in $(seq 300); do
		(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
		kill -0 "$PEER_PID" 2>/dev/null || break
		sleep 0.1
	done
	code=$(http_status POST "http://127.0.0.1:$port$PEER_PATH" -H "Authorization: $PEER_AUTH" -H 'Content-Type: application/json' \
		--data "{\"model\":\"$PEER_MODEL\",\"messages\":[{\"role\":\"user\",\"content\":\"Say hello.\"}]}")
	if [[ $code != 200 ]]; then
		unavailable chat/peer "the peer ($cmd) answered $code: $(head -c 120 "$WORK/probe.body" 2>/dev/null) $(tail -n 3 "$dir/stderr" 2>/dev/null)"
		stop_pid "$PEER_PID"
		return
	fi
	PEER_URL=http://127.0.0.1:$port$PEER_PATH
	printf 'peer gateway: %s (pid %s)\n' "$PEER_URL" "$PEER_PID" >&2
}

# --- gtmgate on SQLite, and on PostgreSQL alongside ------------------------
start_gtmgate sqlite
check_rest
# Before any load: the federated table's idle figures.
idle_rss gateway "$GTM_PID"

# The PostgreSQL instance runs next to the SQLite one, so that its runs
# interleave with the SQLite ones and the floors' in the same rounds.
PG_PID="" PG_GATEWAY="" PG_TOKEN=""
if ! want postgres; then
	:
elif [[ $PGURL == off ]]; then
	unavailable admin "BENCH_DATABASE_URL=off"
elif ! command -v psql >/dev/null; then
	unavailable admin "psql not installed"
elif ! psql -qX "$PGURL" -c 'SELECT 1' >/dev/null 2>"$WORK/psql.err"; then
	unavailable admin "PostgreSQL not reachable: $(head -n1 "$WORK/psql.err")"
else
	# gtmgate's store keeps every table, its migrations' included, in the
	# schema search_path in the URL names.
	PG_SCHEMA=gtmgate_bench_${STAMP,,}_$$
	psql -qX -v ON_ERROR_STOP=1 "$PGURL" -c "CREATE SCHEMA \"$PG_SCHEMA\"" >/dev/null
	sep='?'
	[[ $PGURL == *\?* ]] && sep='&'
	read -r S_PID S_GATEWAY S_SITE S_TOKEN <<<"$GTM_PID $GATEWAY ${SITE:--} $TOKEN"
	start_gtmgate postgres DATABASE_URL="$PGURL${sep}search_path=$PG_SCHEMA"
	check_rest
	read -r PG_PID PG_GATEWAY PG_TOKEN <<<"$GTM_PID $GATEWAY $TOKEN"
	read -r GTM_PID GATEWAY SITE TOKEN <<<"$S_PID $S_GATEWAY $S_SITE $S_TOKEN"
	[[ $SITE == - ]] && SITE=""
fi

# The variants, one function each, called with the concurrency.
rest_direct() { load rest direct "$1" "$HUBSPOT/crm/v3/pipelines/deals" -H "Authorization: Bearer $HUBSPOT_TOKEN"; }
rest_floor() { load rest floor "$1" "$PROXY_HUBSPOT/crm/v3/pipelines/deals" -H "Authorization: Bearer $HUBSPOT_TOKEN"; }
rest_gateway() { load rest gateway "$1" "$GATEWAY/api/v1/demo/crm" -H "Authorization: Bearer $TOKEN" -body "$REST_BODY"; }
rest_postgres() { load rest gateway-postgres "$1" "$PG_GATEWAY/api/v1/demo/crm" -H "Authorization: Bearer $PG_TOKEN" -body "$REST_BODY"; }
limits_off() { load rest gateway-off "$1" "$GATEWAY/api/v1/demo/crm" -H "Authorization: Bearer $TOKEN" -body "$REST_BODY"; }
limits_on() { load rest gateway-limits "$1" "$GATEWAY/api/v1/bench-limits/crm" -H "Authorization: Bearer $LIMITS_TOKEN" -body "$REST_BODY"; }
mcp_sdk() { load mcp sdk "$1" "$MCP_FLOOR" -mcp-tool echo -mcp-args '{"text":"bench"}'; }
mcp_sdk_upstream() { load mcp sdk-upstream "$1" "$MCP_HUBSPOT" -mcp-tool crm_pipelines -mcp-args '{}'; }
mcp_gateway() { load mcp gateway "$1" "$GATEWAY/mcp" -H "Authorization: Bearer $TOKEN" -mcp-tool crm_pipelines -mcp-args "$MCP_ARGS"; }
# The federated call: the upstream tool called directly, through gtmgate's
# /mcp (one pooled go-sdk client session to the upstream) and through each
# peer gateway (one MCP session per load worker: both are stateful). Each
# run reports the gateway's CPU per call and the upstream's apart.
fed_direct() { load federated direct "$1" "$MCP_FLOOR" -server-pids "$FLOORS_PID" -mcp-tool "$FED_TOOL" -mcp-args "$FED_FLOOR_ARGS"; }
fed_gateway() {
	load federated gateway "$1" "$GATEWAY/mcp" -server-pids "$GTM_PID" -upstream-pids "$FLOORS_PID" -H "Authorization: Bearer $TOKEN" \
		-mcp-tool "${FED_SERVER}__$FED_TOOL" -mcp-args "$FED_ARGS"
}
fed_docker() {
	load federated docker-mcp-gateway "$1" "$DOCKER_MCP_URL" -server-pids "$DOCKER_MCP_PID" -upstream-pids "$FLOORS_PID" \
		-H "Authorization: Bearer $DOCKER_MCP_TOKEN" -mcp-session -mcp-tool "$FED_TOOL" -mcp-args "$FED_FLOOR_ARGS"
}
fed_alt() {
	load federated gtmgate-alt "$1" "$ALT_GATEWAY/mcp" -server-pids "$ALT_PID" -upstream-pids "$FLOORS_PID" \
		-H "Authorization: Bearer $ALT_TOKEN" -mcp-tool "${FED_SERVER}__$FED_TOOL" -mcp-args "$FED_ARGS"
}
fed_jungle() {
	load federated mcpjungle "$1" "$JUNGLE_URL" -server-pids "$JUNGLE_PID" -upstream-pids "$FLOORS_PID" \
		-mcp-session -mcp-tool "$JUNGLE_TOOL" -mcp-args "$FED_FLOOR_ARGS"
}
admin_audit_sqlite() { load admin audit-sqlite "$1" "$GATEWAY/admin/audit?limit=100" -H "x-admin-key: $ADMIN_KEY"; }
admin_write_sqlite() {
	load admin write-sqlite "$1" "$GATEWAY/admin/tenants/bench-{n}" -X PUT -H "x-admin-key: $ADMIN_KEY" -body '{"name":"Bench tenant {n}"}'
}
admin_audit_postgres() { load admin audit-postgres "$1" "$PG_GATEWAY/admin/audit?limit=100" -H "x-admin-key: $ADMIN_KEY"; }
admin_write_postgres() {
	load admin write-postgres "$1" "$PG_GATEWAY/admin/tenants/bench-{n}" -X PUT -H "x-admin-key: $ADMIN_KEY" -body '{"name":"Bench tenant {n}"}'
}

# REST: the direct upstream call, the bare proxy, gtmgate on SQLite and on
# PostgreSQL, in the same rounds.
if want rest || [[ -n $PG_PID ]]; then
	variants=(rest_direct rest_floor)
	want rest && variants+=(rest_gateway)
	[[ -n $PG_PID ]] && variants+=(rest_postgres)
	log "REST tool call (crm_pipelines): ${variants[*]}, $ROUNDS rounds"
	run_rounds rest "$ROUNDS" "${variants[@]}"
fi

# Admin: the paged audit read (of the log the REST runs filled) and an
# audited write, SQLite and PostgreSQL in the same rounds. Then the
# PostgreSQL instance stops: it would only add its idle work to the rest.
if want admin || [[ -n $PG_PID ]]; then
	variants=()
	want admin && variants+=(admin_audit_sqlite admin_write_sqlite)
	[[ -n $PG_PID ]] && variants+=(admin_audit_postgres admin_write_postgres)
	log "admin: ${variants[*]}, $ROUNDS rounds"
	run_rounds admin "$ROUNDS" "${variants[@]}"
fi
if [[ -n $PG_PID ]]; then stop_pid "$PG_PID"; fi

# limits_tenant makes bench-limits, the demo tenant's twin with a billing
# plan (prices, hard quotas and a budget far above what a run uses) and
# per-tenant and per-token rate limits far above the load: every check runs
# on every call and none refuses one. The demo's approval route webhooks
# belong to the demo tenant (their ids, redacted URLs and secrets are not
# copied): the twin's route a loopback URL that read calls never reach.
limits_tenant() {
	local big=1000000000 code account
	curl -sSf --noproxy '*' "$GATEWAY/admin/tenants/demo" -H "x-admin-key: $ADMIN_KEY" |
		jq '.tenant | del(.id, .created_at, .updated_at) |
			(.approval_policy.routes[]?.webhooks[]?) |= (del(.id, .secret) | .url = "http://127.0.0.1:9/bench-limits-hook") |
			.rate_limits = {tenant: {requests_per_second: 1000000, burst: 1000000},
			per_token: {requests_per_second: 1000000, burst: 1000000}}' \
		>"$WORK/limits-tenant.json" || die "read the demo tenant"
	code=$(http_status PUT "$GATEWAY/admin/tenants/bench-limits" -H "x-admin-key: $ADMIN_KEY" --data @"$WORK/limits-tenant.json")
	[[ $code == 201 ]] || die "put tenant bench-limits: $code $(head -c 300 "$WORK/probe.body")"
	account=$(jq -r '.providers.hubspot.default' "$WORK/limits-tenant.json")
	code=$(http_status PUT "$GATEWAY/admin/tokens/bench-limits/hubspot/$account" -H "x-admin-key: $ADMIN_KEY" \
		--data "{\"access_token\":\"$HUBSPOT_TOKEN\"}")
	[[ $code == 200 ]] || die "put bench-limits' HubSpot token: $code"
	code=$(http_status POST "$GATEWAY/admin/auth" -H "x-admin-key: $ADMIN_KEY" \
		--data "{\"tenant_id\":\"bench-limits\",\"token\":\"$LIMITS_TOKEN\"}")
	[[ $code == 201 ]] || die "register bench-limits' token: $code"
	code=$(http_status PUT "$GATEWAY/admin/billing/bench-limits" -H "x-admin-key: $ADMIN_KEY" \
		--data "{\"currency\":\"EUR\",\"limit\":\"hard\",\"included_calls\":$big,\"included_tokens\":$big,\"monthly_budget\":$big,\"tool_call_price\":{\"default\":0.001}}")
	[[ $code == 201 ]] || die "put bench-limits' billing plan: $code $(head -c 300 "$WORK/probe.body")"
	code=$(http_status POST "$GATEWAY/api/v1/bench-limits/crm" -H "Authorization: Bearer $LIMITS_TOKEN" --data "$REST_BODY")
	[[ $code == 200 ]] || die "REST call as bench-limits answered $code: $(head -c 300 "$WORK/probe.body")"
}

# The same call with the operator's limits off (the demo tenant: no plan, no
# rate limits) and on (bench-limits), with the direct call and the bare
# proxy in the same rounds.
if want limits; then
	log "REST with billing, quota and rate limit checks: off (demo) / on (bench-limits), $LIMITS_ROUNDS rounds"
	limits_tenant
	run_rounds limits "$LIMITS_ROUNDS" rest_direct rest_floor limits_off limits_on
fi

# toollist: what each agent pays in context for its tools, the demo
# token's whole catalogue against a read-only meeting-prep agent's toolset.
if want toollist; then
	log "tools/list size per agent"
	PREP_TOKEN=tok-bench-meeting-prep-0123456789abcdef FIND_TOKEN=tok-bench-discovery-0123456789abcdef
	if [ "$(http_status PUT "$GATEWAY/admin/tenants/demo/toolsets/meeting-prep" -H "x-admin-key: $ADMIN_KEY" \
		-d '{"allow":["crm_*","calendar_*"],"read_only":true}')" -ge 300 ] ||
		[ "$(http_status PUT "$GATEWAY/admin/tenants/demo/toolsets/discovery" -H "x-admin-key: $ADMIN_KEY" \
			-d '{"allow":["*"],"read_only":true,"discovery":true,"pinned":["crm_deals"]}')" -ge 300 ] ||
		[ "$(http_status POST "$GATEWAY/admin/auth" -H "x-admin-key: $ADMIN_KEY" \
			-d "{\"tenant_id\":\"demo\",\"token\":\"$PREP_TOKEN\",\"toolset\":\"meeting-prep\"}")" -ge 300 ] ||
		[ "$(http_status POST "$GATEWAY/admin/auth" -H "x-admin-key: $ADMIN_KEY" \
			-d "{\"tenant_id\":\"demo\",\"token\":\"$FIND_TOKEN\",\"toolset\":\"discovery\"}")" -ge 300 ]; then
		unavailable toollist "the toolsets or their tokens could not be made: $(cat "$WORK/probe.body")"
	else
		"$BIN/toollist" -url "$GATEWAY/mcp" -agent "all=$TOKEN" -agent "meeting-prep=$PREP_TOKEN" -agent "discovery=$FIND_TOKEN" \
			-out "$OUT/toollist-$STAMP.jsonl" | tee "$OUT/toollist-$STAMP.txt" || die "toollist failed"
		# The same agents on a 150-tool tenant: the demo's 37 and a hosted
		# MCP server's 113 (the floors' wide_mcp), removed afterwards.
		WIDE_MCP=$(field "$WORK/floors.out" wide_mcp)
		if [ "$(http_status PUT "$GATEWAY/admin/tenants/demo/mcp-servers/wide" -H "x-admin-key: $ADMIN_KEY" \
			-d "{\"url\":\"$WIDE_MCP\",\"auth\":{\"kind\":\"none\"}}")" -ge 300 ]; then
			unavailable toollist "the 150-tool upstream could not be registered: $(cat "$WORK/probe.body")"
		else
			"$BIN/toollist" -scenario 150-tools -url "$GATEWAY/mcp" -agent "all=$TOKEN" -agent "meeting-prep=$PREP_TOKEN" -agent "discovery=$FIND_TOKEN" \
				-out "$OUT/toollist-$STAMP.jsonl" | tee -a "$OUT/toollist-$STAMP.txt" || die "toollist (150 tools) failed"
			http_status DELETE "$GATEWAY/admin/tenants/demo/mcp-servers/wide" -H "x-admin-key: $ADMIN_KEY" >/dev/null
		fi
	fi
fi

# federated_setup registers the floors' MCP server as the demo tenant's
# upstream FED_SERVER (the admin API lists its tools), then makes one
# federated call through /mcp. It fails (and says why) when either does not
# work.
federated_setup() {
	local code body
	body=$(jq -nc --arg url "$MCP_FLOOR" --arg tool "$FED_TOOL" \
		'{url: $url, auth: {kind: "none"}, tools: [$tool], overrides: {($tool): {mutating: false}}}')
	code=$(http_status PUT "$GATEWAY/admin/tenants/demo/mcp-servers/$FED_SERVER" -H "x-admin-key: $ADMIN_KEY" --data "$body")
	if [[ $code != 200 && $code != 201 ]]; then
		printf 'PUT /admin/tenants/demo/mcp-servers/%s answered %s: %s' "$FED_SERVER" "$code" "$(head -c 160 "$WORK/probe.body")"
		return 1
	fi
	if ! jq -e --arg n "${FED_SERVER}__$FED_TOOL" 'any(.served_tools[]?; .name == $n and .served)' "$WORK/probe.body" >/dev/null; then
		printf '%s is not served: %s' "${FED_SERVER}__$FED_TOOL" "$(jq -c '.state' "$WORK/probe.body" 2>/dev/null | head -c 160)"
		return 1
	fi
	code=$(http_status POST "$GATEWAY/mcp" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
		-H 'Accept: application/json, text/event-stream' -H 'MCP-Protocol-Version: 2025-11-25' \
		--data "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"${FED_SERVER}__$FED_TOOL\",\"arguments\":$FED_ARGS}}")
	# A JSON answer, or an event stream whose first data line is the answer.
	if grep -q '^data:' "$WORK/probe.body"; then
		sed -n 's/^data: *//p' "$WORK/probe.body" | head -n1 >"$WORK/probe.json"
	else
		cp "$WORK/probe.body" "$WORK/probe.json"
	fi
	if [[ $code != 200 ]] || ! jq -e '.result and (.result.isError | not)' "$WORK/probe.json" >/dev/null 2>&1; then
		printf '/mcp tools/call %s answered %s: %s' "${FED_SERVER}__$FED_TOOL" "$code" "$(head -c 160 "$WORK/probe.body")"
		return 1
	fi
}

# start_gtmgate_alt starts GTMGATE_ALT_BIN beside the gateway under test,
# with the same federated upstream, and sets ALT_GATEWAY, ALT_TOKEN and
# ALT_PID; the gateway's own GATEWAY, TOKEN and GTM_PID are kept.
ALT_GATEWAY="" ALT_TOKEN="" ALT_PID=""
start_gtmgate_alt() {
	[[ -n ${GTMGATE_ALT_BIN:-} ]] || return 0
	local gateway=$GATEWAY token=$TOKEN pid=$GTM_PID site=$SITE why
	GTM_BINARY=$GTMGATE_ALT_BIN start_gtmgate alt
	ALT_GATEWAY=$GATEWAY ALT_TOKEN=$TOKEN ALT_PID=$GTM_PID
	if ! why=$(federated_setup); then
		unavailable federated/gtmgate-alt "$why"
		stop_pid "$ALT_PID"
		ALT_GATEWAY=""
	else
		idle_rss gtmgate-alt "$ALT_PID"
	fi
	GATEWAY=$gateway TOKEN=$token GTM_PID=$pid SITE=$site
}

# MCP and federated calls share their rounds: the built-in call's base (the
# HubSpot sandbox called directly) and the bare SDK server, the federated
# upstream called directly, gtmgate's federated call and the peers'.
variants=()
want mcp && variants+=(rest_direct mcp_sdk mcp_sdk_upstream mcp_gateway)
if want federated; then
	log "MCP federated tools/call: gateway ${FED_SERVER}__$FED_TOOL / peers / the upstream's $FED_TOOL directly"
	if ! why=$(federated_setup); then
		unavailable federated "$why"
	else
		variants+=(fed_direct fed_gateway)
		start_docker_mcp_gateway
		[[ -n $DOCKER_MCP_URL ]] && variants+=(fed_docker)
		start_mcpjungle
		[[ -n $JUNGLE_URL ]] && variants+=(fed_jungle)
		start_gtmgate_alt
		[[ -n $ALT_GATEWAY ]] && variants+=(fed_alt)
	fi
fi
if ((${#variants[@]} > 0)); then
	log "MCP tools/call: ${variants[*]}, $ROUNDS rounds"
	run_rounds mcp "$ROUNDS" "${variants[@]}"
fi
for pid in "$DOCKER_MCP_PID" "$JUNGLE_PID" "$ALT_PID"; do
	if [[ -n $pid ]]; then stop_pid "$pid"; fi
done


# The chat variants: JSON answers and streamed ones, each from the fake
# upstream directly, through the bare proxy, gtmgate and the peer.
chat_direct() { load chat "${CHAT_PREFIX}direct" "$1" "$CHAT/chat/completions" "${CHAT_FLAGS[@]}" -H "Authorization: Bearer $CHAT_KEY" -body "$CHAT_REQ"; }
chat_floor() {
	load chat "${CHAT_PREFIX}floor" "$1" "$PROXY_CHAT/chat/completions" "${CHAT_FLAGS[@]}" -server-pids "$PROXY_PID" \
		-H "Authorization: Bearer $CHAT_KEY" -body "$CHAT_REQ"
}
chat_gateway() {
	load chat "${CHAT_PREFIX}gateway" "$1" "$GATEWAY/v1/chat/completions" "${CHAT_FLAGS[@]}" -server-pids "$GTM_PID" \
		-H "Authorization: Bearer $TOKEN" -body "$CHAT_REQ"
}
chat_peer() {
	load chat "${CHAT_PREFIX}peer" "$1" "$PEER_URL" "${CHAT_FLAGS[@]}" -server-pids "$PEER_PID" -H "Authorization: $PEER_AUTH" -body "$CHAT_PEER_REQ"
}
# chat_json and chat_stream set what the variants send; a round runs JSON
# then streamed answers, each with its variants rotated.
chat_json() { CHAT_PREFIX="" CHAT_REQ=$CHAT_BODY CHAT_PEER_REQ=$PEER_BODY; CHAT_FLAGS=(); }
chat_stream() { CHAT_PREFIX=stream- CHAT_REQ=$CHAT_STREAM_BODY CHAT_PEER_REQ=$PEER_STREAM_BODY; CHAT_FLAGS=(-stream); }

if want chat; then
	log "chat pass-through"
	CHAT_BODY="{\"model\":\"$CHAT_MODEL\",\"messages\":[{\"role\":\"user\",\"content\":\"Say hello.\"}]}"
	CHAT_STREAM_BODY="{\"model\":\"$CHAT_MODEL\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"Say hello.\"}]}"
	code=$(http_status POST "$GATEWAY/v1/chat/completions" -H "Authorization: Bearer $TOKEN" \
		-H 'Content-Type: application/json' --data "$CHAT_BODY")
	if [[ $code != 200 ]]; then
		unavailable chat "POST /v1/chat/completions answered $code: $(head -c 80 "$WORK/probe.body")"
	else
		start_peer
		PEER_BODY=${CHAT_BODY/\"$CHAT_MODEL\"/\"$PEER_MODEL\"}
		PEER_STREAM_BODY=${CHAT_STREAM_BODY/\"$CHAT_MODEL\"/\"$PEER_MODEL\"}
		# Every chat run reports its server's CPU per request and resident size
		# (-server-pids): the bare proxy's, gtmgate's and the peer's.
		variants=(chat_direct chat_floor chat_gateway)
		[[ -n $PEER_URL ]] && variants+=(chat_peer)
		for r in $(seq "$CHAT_ROUNDS"); do
			ROUND=chat-$r
			for c in $LEVELS; do
				for mode in chat_json chat_stream; do
					"$mode"
					for i in "${!variants[@]}"; do
						"${variants[(i + r - 1) % ${#variants[@]}]}" "$c"
					done
				done
			done
		done
		ROUND=""
		if [[ -n $PEER_PID ]]; then stop_pid "$PEER_PID"; fi
	fi
fi

if want site; then
	log "site vs nginx"
	SITE_URL=${BENCH_SITE_URL:-$SITE}
	site_bench "$SITE_URL" || true
fi
stop_gtmgate

# The hostile neighbour (bench/hostile.sh's figure): e2e's
# TestFederationHostileLatency runs its own gtmgate and upstreams and prints
# one line per round, quiet then hostile; each becomes a run here.
if want hostile; then
	log "hostile neighbour: a federated call, quiet / while another tenant's upstream floods, $ROUNDS rounds"
	if ! hostile_log=$(GTMGATE_E2E_HOSTILE_BENCH=1 GTMGATE_E2E_HOSTILE_ROUND="${SECS}s" \
		GTMGATE_E2E_HOSTILE_ROUNDS="$ROUNDS" go test ./e2e -run '^TestFederationHostileLatency$' -count=1 -v -timeout 10m 2>&1); then
		unavailable hostile "the e2e run failed: $(tail -n 5 <<<"$hostile_log")"
	else
		grep -E '^(round|figure) ' <<<"$hostile_log" >&2
		grep -E '^round [0-9]+ ' <<<"$hostile_log" | while read -r _ n rest; do
			declare -A f=()
			for kv in $rest; do f[${kv%%=*}]=${kv#*=}; done
			for side in quiet:quiet hostile:loud; do
				jq -nc --arg v "${side%%:*}" --arg round "hostile-$n" --arg secs "$SECS" \
					--argjson calls "${f[${side#*:}_calls]}" --argjson p50 "${f[${side#*:}_p50_ms]}" --argjson p99 "${f[${side#*:}_p99_ms]}" \
					'{scenario: "hostile", variant: $v, round: $round, method: "POST", path: "/mcp", concurrency: 1,
					seconds: ($secs | tonumber), requests: $calls, rps: ($calls / ($secs | tonumber)), p50_ms: $p50, p99_ms: $p99,
					errors: 0, non_2xx: 0}' >>"$RESULTS"
			done
		done
	fi
fi

# --- report --------------------------------------------------------------
log "report"
"$BIN/report" -in "$RESULTS" -json "$OUT/summary-$STAMP.json" | tee "$OUT/report-$STAMP.txt"
printf '\nresults: %s\nsummary: %s\n' "$RESULTS" "$OUT/summary-$STAMP.json" >&2
