#!/bin/sh
# A scheduled mirror on a machine that keeps its disk (docs/mirror.md): one `weblate-snapshot mirror`
# pulls what changed on a Weblate instance and publishes what changed, its state kept in the bucket. Run
# from cron as the user weblate-mirror; flock keeps two runs from overlapping. Set the variables
# below, or in the environment; the secrets (WEBLATE_TOKEN, AWS_*) come from the environment.
set -eu

WEBLATE_API=${WEBLATE_API:-https://weblate.example.org/api/}
BASE_URL=${BASE_URL:-https://l10n.example.org}
BUCKET=${BUCKET:-s3://l10n-snapshot}
# An S3-compatible store's endpoint; empty for AWS.
ENDPOINT=${ENDPOINT:-}
DATA=${DATA:-/var/lib/weblate-mirror}
# Where `npm install --global` put weblate-snapshot, for cron's short PATH.
PATH=/usr/local/bin:/usr/bin:/bin
export PATH

# Once a week (Sunday, 03:00 UTC hour) a full pull, for what an incremental one cannot notice.
full=
if [ "$(date -u +%u%H)" = 703 ]; then full=--full; fi
endpoint=
if [ -n "$ENDPOINT" ]; then endpoint="--endpoint $ENDPOINT"; fi

mkdir -p "$DATA"
exec 9>"$DATA/.lock"
flock -n 9 || { echo "another mirror run is still going; skipping this one" >&2; exit 0; }

# shellcheck disable=SC2086 # $full and $endpoint are a flag each, or nothing
weblate-snapshot mirror --from "$WEBLATE_API" --to "$BUCKET" --work "$DATA" --base-url "$BASE_URL" $endpoint $full
