#!/bin/sh
# Fails when `cap sync` changes a file of the committed Android or iOS project: a plugin added,
# removed or upgraded without `npm run mobile:sync -w @till/web` and a commit of its result.
#   sh scripts/check-cap-sync.sh
# Needs a clean apps/web/android and apps/web/ios (it refuses otherwise). Without a built web app it
# syncs a one-page stand-in: the build only goes into folders git ignores, so no build is needed
# to see what the sync does to tracked files (CI runs it in seconds, before any build).
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# The project's own Node (24, installed with the packages), as npm scripts find it.
PATH="$root/node_modules/.bin:$PATH"
projects="apps/web/android apps/web/ios"
dirty="$(git status --porcelain --untracked-files=all -- $projects)"
if [ -n "$dirty" ]; then
  echo "check-cap-sync: the native projects have changes of their own; commit or stash them first:" >&2
  echo "$dirty" >&2
  exit 2
fi
stand_in=""
if [ ! -f apps/web/dist/index.html ]; then
  stand_in=apps/web/dist
  mkdir -p "$stand_in"
  printf '<!doctype html><title>Till</title>\n' >"$stand_in/index.html"
fi
log="$(mktemp)"
status=0
sh scripts/cap.sh sync >"$log" 2>&1 || status=$?
if [ -n "$stand_in" ]; then rm -rf "$stand_in"; fi
if [ "$status" -ne 0 ]; then
  cat "$log" >&2
  rm -f "$log"
  echo "check-cap-sync: cap sync failed" >&2
  exit 1
fi
rm -f "$log"
changed="$(git status --porcelain --untracked-files=all -- $projects)"
if [ -n "$changed" ]; then
  echo "check-cap-sync: cap sync changed the native projects; run npm run mobile:sync -w @till/web and commit:" >&2
  echo "$changed" >&2
  git --no-pager diff -- $projects >&2
  exit 1
fi
echo "check-cap-sync: cap sync leaves the native projects as committed"
