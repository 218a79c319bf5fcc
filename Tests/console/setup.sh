#!/usr/bin/env bash
# Creates the Python venv the console browser tests run in (.build/venv).
# Needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="$root/.build/venv"
if [ ! -x "$venv/bin/pytest" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet -r "$root/Tests/requirements.txt"
fi
echo "$venv"
