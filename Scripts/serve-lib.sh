# Helpers shared by Scripts/bench-serve and Scripts/test-nginx-pair (sourced, not run): start `moviesearch serve`
# and nginx on free loopback ports, and stop what was started. The caller sets `scratch` (a temporary directory)
# and `trap stop_started EXIT` (after which it removes scratch itself).
#
#     start_serve <name> <binary> <serve options...>   # sets serve_pid[name], serve_port[name]
#     start_nginx <name> <config file>                 # nginx -p scratch/<name>; sets nginx_pid
#     free_port                                        # prints a loopback port free at this moment
#     make_wrk_lua <output> <queries> <prefix> <suffix>  # a wrk script cycling through the queries
#     stop_started                                     # SIGTERM to everything started, then waits for it

declare -A serve_pid=() serve_port=()
started_pids=()
niceness="${niceness:-10}"

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Starts serve on port 0 and reads the port from its first stderr line:
# "moviesearch: serving <N> movies at http://127.0.0.1:<port>/". Waits at most 20 s.
start_serve() {
    local name="$1" binary="$2"
    shift 2
    local log="$scratch/serve-$name.err"
    : > "$log"  # there before the first poll below
    nice -n "$niceness" "$binary" serve --listen 127.0.0.1:0 --quiet "$@" 2> "$log" &
    local pid=$!
    started_pids+=("$pid")
    serve_pid[$name]=$pid
    local line="" tries=0
    while (( tries < 200 )); do
        if [[ "$(wc -l < "$log")" -ge 1 ]]; then
            line="$(head -n 1 "$log")"
            break
        fi
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
        tries=$((tries + 1))
    done
    if [[ "$line" =~ ^moviesearch:\ serving\ ([0-9,]+)\ movies\ at\ http://127\.0\.0\.1:([0-9]+)/$ ]]; then
        serve_port[$name]="${BASH_REMATCH[2]}"
    else
        echo "serve $name did not start: first stderr line '${line}'" >&2
        sed -n '2,5p' "$log" >&2
        return 1
    fi
}

# Starts nginx (daemon off, in the foreground of a background job) with the given configuration under the prefix
# scratch/<name>; waits until its pid file is written (at most 10 s).
start_nginx() {
    local name="$1" config="$2"
    local prefix="$scratch/$name"
    mkdir -p "$prefix/temp"
    nice -n "$niceness" nginx -p "$prefix" -c "$config" -e "$prefix/error.log" -g 'daemon off;' \
        2>> "$prefix/error.log" &
    nginx_pid=$!
    started_pids+=("$nginx_pid")
    local tries=0
    while (( tries < 100 )) && [[ ! -s "$prefix/nginx.pid" ]]; do
        if ! kill -0 "$nginx_pid" 2>/dev/null; then
            echo "nginx $name did not start:" >&2
            tail -n 5 "$prefix/error.log" >&2
            return 1
        fi
        sleep 0.1
        tries=$((tries + 1))
    done
}

# The directives every configuration here begins with: paths inside the prefix, no access log.
nginx_preamble() {
    cat <<NGINX
worker_processes auto;
pid nginx.pid;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path temp/body;
    proxy_temp_path temp/proxy;
    fastcgi_temp_path temp/fastcgi;
    uwsgi_temp_path temp/uwsgi;
    scgi_temp_path temp/scgi;
NGINX
}

# Polls a URL until it answers (any status), at most 30 s.
wait_for_url() {
    local url="$1" tries=0
    while (( tries < 300 )); do
        curl -s -o /dev/null --max-time 1 "$url" && return 0
        sleep 0.1
        tries=$((tries + 1))
    done
    echo "no answer from $url" >&2
    return 1
}

stop_started() {
    local pid
    for pid in "${started_pids[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
    done
    for pid in "${started_pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    started_pids=()
}

# A wrk script cycling through the lines of a query file as <prefix><percent-encoded line><suffix> (encoded here,
# not in Lua), each wrk thread starting at its own place; done() prints one line, "FIGURES requests=… duration_us=…
# p50_us=… p99_us=… errors=… connect=… read=… write=… status=… timeout=…" (errors: socket errors, timeouts and
# statuses of 400 and above, as wrk counts them).
make_wrk_lua() { # make_wrk_lua <output> <queries> <prefix> <suffix>
    python3 - "$2" "$3" "$4" > "$1" <<'PY'
import sys
from urllib.parse import quote
queries_path, prefix, suffix = sys.argv[1:4]
with open(queries_path, encoding="utf-8") as handle:
    queries = [line.rstrip("\n") for line in handle if line.strip()]
def lua_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
print("local paths = {")
for query in queries:
    print("  " + lua_string(prefix + quote(query, safe="") + suffix) + ",")
print("}")
print("""
local count = #paths
local next_id = 0
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end
local index = 1
function init(args)
  index = (id * 7919) % count + 1
end
function request()
  local path = paths[index]
  index = index % count + 1
  return wrk.format(nil, path)
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("FIGURES requests=%d duration_us=%d p50_us=%d p99_us=%d errors=%d " ..
    "connect=%d read=%d write=%d status=%d timeout=%d\\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.status + e.timeout, e.connect, e.read, e.write, e.status, e.timeout))
end
""")
PY
}
