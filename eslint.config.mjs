import comments from '@eslint-community/eslint-plugin-eslint-comments/configs'
import nextVitals from 'eslint-config-next/core-web-vitals'
import nextTs from 'eslint-config-next/typescript'
import { defineConfig, globalIgnores } from 'eslint/config'

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  comments.recommended,
  globalIgnores(['.next/**', '.tmp/**', 'data/**', 'lib/generated/**', 'next-env.d.ts', 'playwright-report/**', 'test-results/**']),
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    // The cycle check follows our own files only: parsing packages costs time and finds nothing of ours.
    settings: { 'import/ignore': ['node_modules'] },
    rules: {
      // A disabled rule says why, after `--`.
      '@eslint-community/eslint-comments/require-description': ['error', { ignore: [] }],
      '@eslint-community/eslint-comments/disable-enable-pair': ['error', { allowWholeFile: true }],
      'import/no-cycle': ['error', { ignoreExternal: true }],
      // The coarse layers (docs/ARCHITECTURE.md, Layers); the order among lib/ folders is held by tests/unit/layers.test.ts.
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './lib', from: ['./app', './components'], message: 'lib/ is below pages and components' },
            { target: './components', from: './app', message: 'components are below pages' },
            {
              target: ['./components', './lib/api-client', './lib/ui'],
              from: ['./lib/db.ts', './lib/db', './lib/generated/prisma/client.ts'],
              message: 'browser code never reaches the database',
            },
          ],
        },
      ],
      // Plain <img>: results come with their own WebP thumbnails, and sources are /files, an S3 or CDN
      // origin the operator sets at run time, WeChat avatars and blob: previews, which next/image's optimiser does not fit.
      '@next/next/no-img-element': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests read answers straight off the wire (JSON envelopes); typing each one would only restate the server's types.
    files: ['tests/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
])
