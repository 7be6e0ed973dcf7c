#!/bin/sh
# A scheduled mirror on a machine that keeps its disk (docs/mirror.md): pull what changed on a
# Weblate instance, update the tree in place, deploy what changed. Run from cron or a systemd timer;
# flock keeps two runs from overlapping. Set the variables below, or in the environment.
set -eu

WEBLATE_API=${WEBLATE_API:-https://weblate.example.org/api/}
BASE_URL=${BASE_URL:-https://l10n.example.org}
BUCKET=${BUCKET:-s3://l10n-snapshot}
DATA=${DATA:-/var/lib/weblate-mirror}
TOOL=${TOOL:-/opt/weblate-snapshot}

# Once a week (Sunday, 03:00 UTC hour) a full pull, for what an incremental one cannot notice.
full=
if [ "$(date -u +%u%H)" = 703 ]; then full=--full; fi

cd "$TOOL"
mkdir -p "$DATA"
exec 9>"$DATA/.lock"
flock -n 9 || { echo "another mirror run is still going; skipping this one" >&2; exit 0; }

npm run --silent pull -- --from "$WEBLATE_API" --out "$DATA/mirror" $full
npm run --silent build -- --content "$DATA/mirror" --out "$DATA/dist" --base-url "$BASE_URL"
npm run --silent deploy -- --out "$DATA/dist" --to "$BUCKET"
