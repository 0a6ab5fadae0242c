#!/bin/sh
# Draws the phone apps' icons and splash screens from apps/web/assets/logo.svg with @capacitor/assets.
# Its pinned sharp (0.32) downloads libvips from GitHub at install; sharp 0.34 ships libvips as npm
# packages, so the tool is installed once into a cache folder with that sharp instead.
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${TILL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/till}/capacitor-assets-3.0.5"
if [ ! -f "$dir/node_modules/@capacitor/assets/bin/capacitor-assets" ]; then
  mkdir -p "$dir"
  echo '{"private":true,"overrides":{"sharp":"^0.34.0"}}' >"$dir/package.json"
  (cd "$dir" && npm install --silent --no-audit --no-fund @capacitor/assets@3.0.5)
fi
cd "$root/apps/web"
exec node "$dir/node_modules/@capacitor/assets/bin/capacitor-assets" generate --android --ios \
  --iconBackgroundColor '#ffffff' --iconBackgroundColorDark '#121212' \
  --splashBackgroundColor '#ffffff' --splashBackgroundColorDark '#121212' "$@"
