# Sourced by the scripts that test against a real `photoedit serve`
# (scripts/schemathesis, scripts/test-clients): starts one on loopback and
# stops it on exit.
#
#   start_serve BINARY WORK-FOLDER LIBRARY [serve options…]
#       starts `BINARY serve --library LIBRARY --port 0 [options]` with its
#       output in WORK-FOLDER/serve.out and serve.err; sets $server (its pid)
#       and $port, or prints why and returns 1.
#   stop_serve
#       SIGTERM, then waits for it (safe to call twice).

server=""
port=""

start_serve() {
    local binary="$1" work="$2" library="$3"
    shift 3
    "$binary" serve --library "$library" --port 0 "$@" >"$work/serve.out" 2>"$work/serve.err" &
    server=$!
    for _ in $(seq 1 150); do
        grep -q "listening on" "$work/serve.out" 2>/dev/null && break
        kill -0 "$server" 2>/dev/null || break
        sleep 0.1
    done
    port="$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\).*|\1|p' "$work/serve.out" | head -1)"
    if [ -z "$port" ]; then
        echo "photoedit serve did not start: $(head -c 500 "$work/serve.err")" >&2
        return 1
    fi
}

stop_serve() {
    if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
        kill -TERM "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    server=""
}
