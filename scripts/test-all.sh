#!/usr/bin/env bash
# The whole test suite, as CI runs it: lint, format check and typecheck, unit,
# integration (real PostgreSQL), then end-to-end (Playwright + Debian's Chromium
# against the production build).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

bash scripts/ensure-test-deps.sh
npm run --silent typecheck
npm run --silent lint
npm run --silent format:check
npx vitest run --project unit
npx vitest run --project integration
npm run --silent build
npx playwright test
