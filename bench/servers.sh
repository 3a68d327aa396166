# Sourced by bench/compare-jars and bench/webhooks, not run: the JDK they start servers on, the servers' processes
# (stopped when the script exits) and wrk with plants.lua. The sourcing script sets `token`, the bearer token the
# servers accept, before it calls these.
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
logs=$(mktemp -d)
pids=()
stop_servers() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
}
trap stop_servers EXIT

# launch_jar JAR PORT STORE ENVIRONMENT [flags...]: the server on 127.0.0.1:PORT with the README's launch flags
# (PLANTSTORE_BENCH_JVM_OPTIONS replaces them), back once /health answers; its process id is left in launched_pid.
launch_jar() {
  local jar=$1 port=$2 store=$3 environment=$4
  local jvm_options=${PLANTSTORE_BENCH_JVM_OPTIONS-"-XX:+UseParallelGC -Xms1g -Xmx1g"}
  shift 4
  # Word splitting is wanted: the variables hold VAR=value pairs and JVM flags.
  # shellcheck disable=SC2086
  env $environment PLANTSTORE_TOKENS="$token" "$java" $jvm_options -jar "$jar" --host 127.0.0.1 --port "$port" \
    --store "$store" "$@" >>"$logs/$port.log" 2>&1 &
  launched_pid=$!
  pids+=("$launched_pid")
  await_http "http://127.0.0.1:$port/health" "$launched_pid" "$logs/$port.log"
}

# await_http URL PID LOG: back once URL answers 2xx; exits with the log when process PID ends or 2 minutes pass first
await_http() {
  local deadline=$((SECONDS + 120))
  while kill -0 "$2" 2>/dev/null && ((SECONDS < deadline)); do
    curl -sf "$1" >/dev/null && return
    sleep 0.1
  done
  echo "$1 did not answer; the end of its log:" >&2
  tail -n 20 "$3" >&2
  exit 1
}

# stop_jar PID: a graceful stop (SIGTERM), waited for.
stop_jar() {
  kill "$1"
  wait "$1" 2>/dev/null || true
}

# wrk_plants PORT MODE FIRST_ID SECONDS CONNECTIONS BEARER [COUNTS]: wrk's whole output, its BENCH line included
# (plants.lua says what MODE, FIRST_ID and COUNTS do).
wrk_plants() {
  wrk -t2 -c"$5" -d"$4"s -s bench/plants.lua "http://127.0.0.1:$1/plants" -- "$2" "$3" 2 "$6" /plants ${7:+"$7"}
}
