#!/bin/sh
# Entrypoint of the worker image (Dockerfile.worker): one image, several services.
#
#   WORKER=scraper|analyzer|csv-merge|render|asc-import   runs that worker (its tree is /app/$WORKER)
#   WORKER=replay                       runs the App Store replay server (offline demos)
#   worker-entrypoint.sh healthcheck    exits 0 when the service's health check answers 200
#   worker-entrypoint.sh reencrypt      rotates SECRETS_KEY: re-seals every stored App Store
#                                       Connect key from SECRETS_KEY_PREVIOUS to SECRETS_KEY
#                                       (needs DATABASE_URL too; WORKER is not needed)
#
# The health port defaults are those of each service's src/env.ts (HEALTH_PORT); a test keeps
# them equal. `exec` makes node the process that receives SIGTERM, so jobs finish on shutdown.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
service="${WORKER:-}"

if [ "${1:-}" = "reencrypt" ]; then
  cd "$here/asc-import"
  exec node --enable-source-maps dist/reencrypt.cli.js
fi

case "$service" in
  scraper) port="${HEALTH_PORT:-9101}"; path=/healthz ;;
  analyzer) port="${HEALTH_PORT:-9102}"; path=/healthz ;;
  csv-merge) port="${HEALTH_PORT:-9103}"; path=/healthz ;;
  render) port="${HEALTH_PORT:-9104}"; path=/healthz ;;
  asc-import) port="${HEALTH_PORT:-9105}"; path=/healthz ;;
  replay) port="${STORE_REPLAY_PORT:-4100}"; path=/ ;;
  *)
    echo "WORKER must be one of: scraper, analyzer, csv-merge, render, asc-import, replay (got '${service}')" >&2
    exit 64
    ;;
esac

if [ "${1:-}" = "healthcheck" ]; then
  # The replay server answers unknown paths 404: any HTTP answer means it is up.
  exec node -e '
    const [url, anyStatus] = process.argv.slice(1);
    fetch(url, { signal: AbortSignal.timeout(4000) }).then(
      (r) => process.exit(r.ok || anyStatus === "1" ? 0 : 1),
      () => process.exit(1),
    );' "http://127.0.0.1:${port}${path}" "$([ "$service" = replay ] && echo 1 || echo 0)"
fi

if [ "$service" = "replay" ]; then
  cd "$here/scraper"
  exec node --enable-source-maps node_modules/@aso/appstore/dist/replay/replay.cli.js
fi

# The node flags of each service (packages/contracts/src/node-flags.ts; a test keeps them equal).
flags=""
case "$service" in
  csv-merge) flags="--max-semi-space-size=4 --max-old-space-size=512" ;;
esac

cd "$here/$service"
# shellcheck disable=SC2086 # the flags are separate words
exec node $flags --enable-source-maps dist/main.js
