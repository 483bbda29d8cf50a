#!/usr/bin/env bash
# Makes sure what the test suite needs beyond npm is on this machine: Debian's
# Chromium with CJK fonts (for Playwright) and a running local PostgreSQL.
set -euo pipefail

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if ! command -v chromium >/dev/null 2>&1 || ! fc-list 2>/dev/null | grep -qi 'Noto Sans CJK'; then
  echo "[deps] installing chromium and fonts-noto-cjk from apt"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
fi

if [ -z "${TEST_PG_URL:-}" ] && ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  echo "[deps] starting the local PostgreSQL"
  as_root pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -n 1)" main start
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi
