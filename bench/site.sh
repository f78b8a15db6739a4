# bench/site.sh — the site scenario of bench/run.sh (sourced; uses its
# helpers, WORK, BIN, LEVELS and load): gtmgate's site listener against nginx
# serving the very same bytes from disk, and against a bare net/http server
# serving them from memory (floors -static), which splits the gap into what
# gtmgate adds and what Go's net/http costs. Each file is loaded twice: as
# is, and gzip-encoded (Accept-Encoding: gzip, as most HTTP clients send),
# where nginx serves gtmgate's own .gz bytes with gzip_static, its fastest
# way to send compressed files.

NGINX_PID=""

# ensure_nginx finds Debian's nginx, installing it when missing.
ensure_nginx() {
	PATH=$PATH:/usr/sbin:/sbin
	command -v nginx >/dev/null && return 0
	local sudo=""
	[[ $(id -u) == 0 ]] || sudo="sudo -n"
	printf 'bench: installing nginx (apt-get install -y nginx)\n' >&2
	local was_running=0
	[[ -e /run/nginx.pid ]] && was_running=1
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q nginx >&2 ||
		{ DEBIAN_FRONTEND=noninteractive $sudo apt-get update -q >&2 &&
			DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q nginx >&2; } || return 1
	# The package may start the system service; it is not ours to keep running.
	if [[ $was_running == 0 && -e /run/nginx.pid ]]; then
		$sudo nginx -s quit 2>/dev/null || true
	fi
	command -v nginx >/dev/null
}

# start_nginx ROOT PORT serves ROOT on 127.0.0.1:PORT in the foreground
# (daemon off) with its pid, logs and temp files under WORK/nginx.
start_nginx() {
	local root=$1 port=$2 dir=$WORK/nginx
	mkdir -p "$dir/tmp"
	# Workers may run as an unprivileged user: let them read the files.
	chmod 755 "$WORK" "$dir" "$root"
	chmod 644 "$root"/*
	cat >"$dir/nginx.conf" <<CONF
daemon off;
worker_processes auto;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 1024; }
http {
	access_log off;
	sendfile on;
	tcp_nopush on;
	gzip off;
	gzip_static on;
	keepalive_timeout 120s;
	keepalive_requests 1000000;
	types { text/markdown md; text/plain txt; }
	default_type application/octet-stream;
	charset utf-8;
	client_body_temp_path $dir/tmp/body;
	proxy_temp_path $dir/tmp/proxy;
	fastcgi_temp_path $dir/tmp/fastcgi;
	uwsgi_temp_path $dir/tmp/uwsgi;
	scgi_temp_path $dir/tmp/scgi;
	server {
		listen 127.0.0.1:$port;
		root $root;
	}
}
CONF
	nginx -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" 2>>"$dir/error.log" &
	NGINX_PID=$!
	PIDS+=("$NGINX_PID")
	for _ in $(seq 50); do
		[[ $(http_status GET "http://127.0.0.1:$port/about.md") == 200 ]] && return 0
		kill -0 "$NGINX_PID" 2>/dev/null || break
		sleep 0.1
	done
	printf 'bench: nginx did not start: %s\n' "$(tail -n 5 "$dir/error.log" 2>/dev/null)" >&2
	return 1
}

# site_bench SITE_URL loads /about.md and /llms-full.txt from gtmgate's site
# and from nginx, or records why it could not.
site_bench() {
	local site=$1 root=$WORK/nginx-root p code port
	if [[ -z $site ]]; then
		unavailable site "gtmgate started no site listener (not wired yet)"
		return 0
	fi
	mkdir -p "$root"
	for p in about.md llms-full.txt; do
		code=$(http_status GET "$site/$p")
		if [[ $code != 200 ]]; then
			unavailable site "GET /$p on the site listener answered $code"
			return 0
		fi
		cp "$WORK/probe.body" "$root/$p"
		code=$(http_status GET "$site/$p" -H 'Accept-Encoding: gzip')
		if [[ $code != 200 || $(head -c2 "$WORK/probe.body" | od -An -tx1 | tr -d ' ') != 1f8b ]]; then
			unavailable site "GET /$p with Accept-Encoding: gzip answered $code without a gzip body"
			return 0
		fi
		cp "$WORK/probe.body" "$root/$p.gz"
	done
	if ! ensure_nginx; then
		unavailable site "nginx is not installed and apt-get install nginx failed"
		return 0
	fi
	port=$(free_port) || { unavailable site "no free port for nginx"; return 0; }
	if ! start_nginx "$root" "$port"; then
		unavailable site "nginx did not start"
		return 0
	fi
	local nginx=http://127.0.0.1:$port
	"$BIN/floors" -static "$root" >"$WORK/static.out" 2>"$WORK/static.err" &
	local static_pid=$!
	PIDS+=("$static_pid")
	wait_ready "$WORK/static.out" "$static_pid" || die "floors -static did not start: $(cat "$WORK/static.err")"
	local gohttp
	gohttp=$(field "$WORK/static.out" static)
	local server url pids
	for p in about.md llms-full.txt; do
		for url in "$nginx" "$gohttp"; do
			http_status GET "$url/$p" >/dev/null
			cmp -s "$WORK/probe.body" "$root/$p" || die "$url does not serve the same bytes of /$p"
			http_status GET "$url/$p" -H 'Accept-Encoding: gzip' >/dev/null
			cmp -s "$WORK/probe.body" "$root/$p.gz" || die "$url does not serve the same gzip bytes of /$p"
		done
	done
	# Rounds interleave the three servers, each round in another order, and
	# the report takes the median of the rounds: the machine's load drifts
	# over minutes, and one slow stretch should not decide a ratio.
	local gz=(-H 'Accept-Encoding: gzip') round order
	local SECS=${BENCH_SITE_SECONDS:-2}
	# Each run also reports its server's CPU per request (-server-pids): all
	# of nginx's workers, gtmgate's one process, the static floor's process.
	local workers
	workers=$(pgrep -P "$NGINX_PID" | paste -sd, -)
	[[ -n $workers ]] || die "nginx started no worker processes"
	local servers=("gtmgate $site $GTM_PID" "nginx $nginx $workers" "nethttp $gohttp $static_pid")
	for round in $(seq "${BENCH_SITE_ROUNDS:-3}"); do
		ROUND=site-$round
		for c in $LEVELS; do
			for order in 0 1 2; do
				read -r server url pids <<<"${servers[(order + round) % 3]}"
				load site "about-$server" "$c" "$url/about.md" -server-pids "$pids"
				load site "llms-full-$server" "$c" "$url/llms-full.txt" -server-pids "$pids"
				load site "about-gzip-$server" "$c" "$url/about.md" -server-pids "$pids" "${gz[@]}"
				load site "llms-full-gzip-$server" "$c" "$url/llms-full.txt" -server-pids "$pids" "${gz[@]}"
			done
		done
	done
	ROUND=""
	stop_pid "$NGINX_PID"
	stop_pid "$static_pid"
}
