import { defineConfig } from '@playwright/test'
import { E2E_BASE_URL } from './tests/e2e/support/constants'

/** End-to-end tests: Debian's Chromium against the production build (run `npm run build` first). */
export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: '.tmp/playwright-results',
  use: {
    baseURL: E2E_BASE_URL,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
    // The core flows again on a phone screen (the WeChat browser's size), touch and all.
    {
      name: 'phone',
      testMatch: [
        'foundation.spec.ts',
        'cards.spec.ts',
        'generate.spec.ts',
        'consent.spec.ts',
        'first-hour.spec.ts',
        'progress.spec.ts',
        'payments*.spec.ts',
        'video.spec.ts',
        'chat.spec.ts',
        'invites.spec.ts',
        'wall.spec.ts',
        'video-material.spec.ts',
        'every-route.spec.ts',
      ],
      use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
    },
    { name: 'reliability', testDir: 'tests/reliability', testMatch: '**/*.spec.ts', use: { viewport: { width: 1280, height: 800 } } },
  ],
  webServer: {
    command: 'node node_modules/tsx/dist/cli.mjs tests/e2e/server.ts',
    url: `${E2E_BASE_URL}/api/site-config/site-info`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
  },
})
