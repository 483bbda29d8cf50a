#!/usr/bin/env bash
# Generates the Prisma client into lib/generated/prisma. The CLI wants the native
# schema engine only to exist, not to run: pointing it at any file keeps it from
# downloading one (offline machines, see docs/DEVELOPMENT.md §2). The app itself uses the
# driver adapter and needs no engine.
set -euo pipefail
cd "$(dirname "$0")/.."
export PRISMA_SCHEMA_ENGINE_BINARY="${PRISMA_SCHEMA_ENGINE_BINARY:-$(command -v node)}"
export PRISMA_HIDE_UPDATE_MESSAGE=1
exec npx --no-install prisma generate
