import path from 'node:path'

/** Shared by the e2e server script and the specs. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210)
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`
export const E2E_ADMIN = { username: 'admin', password: 'e2e-admin-password-1' }
/** The separate worker process writes its pid here, so specs can pause and resume it. */
export const E2E_WORKER_PID_FILE = path.resolve(import.meta.dirname, '../../../.tmp/e2e-worker.pid')
/** The e2e database's URL, for specs that check it with SQL (the reliability suite's ledger check). */
export const E2E_DATABASE_URL_FILE = path.resolve(import.meta.dirname, '../../../.tmp/e2e-database-url')
/** The web process's pid (the launcher; the Next server is its child), for specs that measure its memory. */
export const E2E_WEB_PID_FILE = path.resolve(import.meta.dirname, '../../../.tmp/e2e-web.pid')
/** The secrets the e2e server was started with, for the reliability suite's crawl that must never find them. */
export const E2E_SECRETS_FILE = path.resolve(import.meta.dirname, '../../../.tmp/e2e-secrets.json')
