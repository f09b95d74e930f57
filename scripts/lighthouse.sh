#!/usr/bin/env bash
# Lighthouse (desktop, Debian's Chromium) on pages of a running Accord, signed in: a remember-me
# sign-in gives the refresh cookie, sent with every request of the run, so the SPA opens signed in.
#
#   scripts/lighthouse.sh [BASE_URL] [path ...]      # default http://localhost:3000 /home/ /analytics
#
# Settings: LH_EMAIL (researcher@accord.test), LH_PASSWORD (ACCORD_DEMO_PASSWORD or accord-demo),
# CHROME_PATH (/usr/bin/chromium), LH_OUT (a folder for the JSON reports; default a temporary one).
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

COOKIE=$(curl -sS -D - -o /dev/null -H 'content-type: application/json' \
  -d "{\"email\":\"$EMAIL\",\"password\":\"$PASSWORD\",\"remember\":true}" "$BASE/api/auth/login" |
  tr -d '\r' | sed -n 's/^[Ss]et-[Cc]ookie: \([^;]*\).*/\1/p' | head -1)
[ -n "$COOKIE" ] || { echo "Sign-in as $EMAIL did not give a remember-me cookie" >&2; exit 1; }

for page in "${PAGES[@]}"; do
  name=$(echo "$page" | tr -c 'a-z0-9\n' '-' | sed 's/^-*//; s/-*$//')
  npx -y lighthouse@12 "$BASE$page" --preset=desktop --quiet --output=json \
    --output-path="$OUT/${name:-root}.json" \
    --chrome-flags="--headless --no-sandbox --disable-gpu" \
    --extra-headers="{\"Cookie\":\"$COOKIE\"}"
  node -e '
    const report = require(process.argv[1]);
    const score = (id) => Math.round(report.categories[id].score * 100);
    const audit = (id) => report.audits[id].displayValue;
    console.log(`${process.argv[2]}: performance ${score("performance")}, accessibility ${score("accessibility")}` +
      ` (FCP ${audit("first-contentful-paint")}, LCP ${audit("largest-contentful-paint")}, TBT ${audit("total-blocking-time")},` +
      ` CLS ${audit("cumulative-layout-shift")}; final URL ${report.finalDisplayedUrl})`);
  ' "$OUT/${name:-root}.json" "$page"
done
echo "Reports: $OUT"
