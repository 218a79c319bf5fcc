#!/usr/bin/env bash
# Runs the console's browser tests. The live ones run only when TACIT_URL points
# at a `tacit serve --dev`; extra arguments go to pytest.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="$(bash "$here/setup.sh")"
exec "$venv/bin/pytest" "$here" "$@"
