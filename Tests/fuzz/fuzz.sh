#!/usr/bin/env bash
# Fuzzes the API, and the Twilio face, from their own OpenAPI documents with schemathesis against a live dev
# server: no 5xx, and every status, content type and body conforms to the document.
# The Vonage Verify v2 face's own document is fuzzed after, for a third of the time (at
# least 10 s), with the Basic credentials of an application made for the run.
# Usage: fuzz.sh [SECONDS]   (TACIT_BIN and VENV say where the server and schemathesis are)
set -euo pipefail
seconds=${1:-300}
bin=${TACIT_BIN:-.build/debug/tacit}
venv=${VENV:-.build/venv}
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

"$bin" serve --dev --port 0 --db "$work/fuzz.db" > "$work/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do
    url=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$work/server.log" | head -1)
    [ -n "$url" ] && break
    sleep 0.1
done
[ -n "${url:-}" ] || { echo "fuzz: the server did not start"; cat "$work/server.log"; exit 1; }

# Hooks give most starts a valid +990 number, so the stateful phase follows the links.
PYTHONPATH="$(dirname "$0")" SCHEMATHESIS_HOOKS=fuzz_hooks "$venv/bin/schemathesis" run "$url/v1/openapi.json" --url "$url" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    --max-time "$seconds" --request-timeout 10 --suppress-health-check all --no-color

# The Vonage face, as an application created with `tacit apps create` calls it.
app=$("$bin" apps create --name fuzz --json --db "$work/fuzz.db")
basic=$(printf '%s' "$app" | "$venv/bin/python" -c 'import base64, json, sys; v = json.load(sys.stdin)["vonage"]; print(base64.b64encode((v["api_key"] + ":" + v["api_secret"]).encode()).decode())')
vonage_seconds=$(( seconds / 3 > 10 ? seconds / 3 : 10 ))
"$venv/bin/schemathesis" run "$url/v2/verify/openapi.json" --url "$url" --header "Authorization: Basic $basic" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    --max-time "$vonage_seconds" --request-timeout 10 --suppress-health-check all --no-color

# The Twilio face, for a third of the time, with an application's Basic credential and its
# service sid: no 5xx, and answers that conform to the face's own document.
twilio=$("$bin" apps create --name fuzz-twilio --json --db "$work/fuzz.db")
field() { "$venv/bin/python" -c "import json,sys; print(json.loads(sys.argv[1])['twilio'][sys.argv[2]])" "$twilio" "$1"; }
"$venv/bin/python" "$(dirname "$0")/twilio_document.py" "$url" "$(field service_sid)" > "$work/twilio.json"
"$venv/bin/schemathesis" run "$work/twilio.json" --url "$url" --auth "$(field account_sid):$(field auth_token)" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    --max-time $(( seconds / 3 > 5 ? seconds / 3 : 5 )) --request-timeout 10 --suppress-health-check all --no-color
