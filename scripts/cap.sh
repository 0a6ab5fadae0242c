#!/bin/sh
# Runs the Capacitor CLI from apps/web: `sh scripts/cap.sh sync`. Arguments go to the CLI.
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/apps/web"
exec node "$root/node_modules/@capacitor/cli/bin/capacitor" "$@"
