#!/usr/bin/env bash
# The action's mirror step: its inputs (INPUT_* in the environment, as action.yml passes them)
# turned into one `weblate-snapshot mirror` command. Its exit code is the command's: 75 when a
# later run resumes (rate limits, network, a store down), 1 for content or usage errors.
set -euo pipefail
: "${INPUT_FROM:?the input from is required}"
: "${INPUT_TO:?the input to is required}"
args=(mirror --from "$INPUT_FROM" --to "$INPUT_TO" --work "${INPUT_WORK:-.weblate-mirror}")
if [ -n "${INPUT_BASE_URL:-}" ]; then args+=(--base-url "$INPUT_BASE_URL"); fi
if [ -n "${INPUT_ENDPOINT:-}" ]; then args+=(--endpoint "$INPUT_ENDPOINT"); fi
if [ -n "${INPUT_REGION:-}" ]; then args+=(--region "$INPUT_REGION"); fi
if [ -n "${INPUT_STATE:-}" ]; then args+=(--state "$INPUT_STATE"); fi
if [ "${INPUT_FULL:-false}" = true ]; then args+=(--full); fi
for project in ${INPUT_PROJECTS//,/ }; do args+=(--project "$project"); done
# The key goes in the environment, not the command line, where any process could read it.
if [ -n "${INPUT_TOKEN:-}" ]; then export WEBLATE_TOKEN="$INPUT_TOKEN"; fi
exec weblate-snapshot "${args[@]}"
