#!/usr/bin/env bash
# Lighthouse (desktop, Debian's Chromium) on pages of a running Accord, signed in as a returning user:
# the Chromium measured in holds a remember-me cookie and the page's sign-in mark
# (scripts/lighthouse-session.mjs, before each run, which also empties the HTTP cache), so the SPA
# opens signed in, as it does for a user who ticked "Remember me", and every run is a first load.
#
#   scripts/lighthouse.sh [BASE_URL] [path ...]      # default http://localhost:3000 /home/ /analytics
#
# Settings: LH_EMAIL (researcher@accord.test), LH_PASSWORD (ACCORD_DEMO_PASSWORD or accord-demo),
# CHROME_PATH (/usr/bin/chromium), LH_OUT (a folder for the JSON reports; default a temporary one),
# LH_DEVTOOLS_PORT (9333).
set -euo pipefail
BASE=${1:-http://localhost:3000}
shift || true
PAGES=("$@")
[ ${#PAGES[@]} -eq 0 ] && PAGES=(/home/ /analytics)
EMAIL=${LH_EMAIL:-researcher@accord.test}
PASSWORD=${LH_PASSWORD:-${ACCORD_DEMO_PASSWORD:-accord-demo}}
OUT=${LH_OUT:-$(mktemp -d)}
mkdir -p "$OUT"
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
DEVTOOLS_PORT=${LH_DEVTOOLS_PORT:-9333}
HERE=$(cd "$(dirname "$0")" && pwd)

PROFILE=$(mktemp -d)
"$CHROME_PATH" --headless --no-sandbox --disable-gpu --remote-debugging-port="$DEVTOOLS_PORT" \
  --user-data-dir="$PROFILE" --no-first-run about:blank >/dev/null 2>&1 &
CHROME_PID=$!
trap 'kill "$CHROME_PID" 2>/dev/null; wait "$CHROME_PID" 2>/dev/null; rm -rf "$PROFILE"' EXIT
for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$DEVTOOLS_PORT/json/version" >/dev/null 2>&1 && break
  sleep 0.2
done

for page in "${PAGES[@]}"; do
  name=$(echo "$page" | tr -c 'a-z0-9\n' '-' | sed 's/^-*//; s/-*$//')
  node "$HERE/lighthouse-session.mjs" "$DEVTOOLS_PORT" "$BASE" "$EMAIL" "$PASSWORD"
  # Storage is kept (the sign-in); the session script has emptied the HTTP cache.
  npx -y lighthouse@12 "$BASE$page" --preset=desktop --quiet --output=json \
    --output-path="$OUT/${name:-root}.json" --port="$DEVTOOLS_PORT" --disable-storage-reset
  node -e '
    const report = require(process.argv[1]);
    const score = (id) => Math.round(report.categories[id].score * 100);
    const audit = (id) => report.audits[id].displayValue;
    console.log(`${process.argv[2]}: performance ${score("performance")}, accessibility ${score("accessibility")}` +
      ` (FCP ${audit("first-contentful-paint")}, LCP ${audit("largest-contentful-paint")}, TBT ${audit("total-blocking-time")},` +
      ` CLS ${audit("cumulative-layout-shift")}; final URL ${report.finalDisplayedUrl})`);
    // A run that ended on the sign-in page measured that page, not the one asked for.
    if (new URL(report.finalDisplayedUrl).pathname.startsWith("/login")) {
      console.error("The page opened signed out: the figures above are of the sign-in page.");
      process.exit(1);
    }
  ' "$OUT/${name:-root}.json" "$page"
done
echo "Reports: $OUT"
