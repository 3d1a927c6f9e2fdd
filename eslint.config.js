import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

// The dashboard loads components on demand one way: React.lazy's Suspense boundary holds its content back for up to
// 300 ms after showing its fallback, which lib/lazyComponent avoids.
const onDemandComponentsOnly = {
  name: 'react',
  importNames: ['lazy'],
  message: "Load a component on demand with lib/lazyComponent's lazyComponent: React.lazy's Suspense holds the component back 300 ms after its fallback.",
}

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.stratum/**', '**/.tmp/**', 'test-results/**', 'playwright-report/**', 'e2e/test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Type-aware: a promise nobody awaits or catches loses its rejection (in the platform an unhandled
    // rejection ends the process). Fire-and-forget is written `void promise`, on purpose.
    files: ['apps/platform/src/**/*.ts', 'apps/dashboard/src/**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  {
    // Connections to a project's database come from control/project-connections.ts (one connect timeout, the
    // superuser's pinned search_path, pools closed when the project stops). Only the platform database's own
    // clients (store/, the job runner's LISTEN) make theirs.
    files: ['apps/platform/src/**/*.ts'],
    ignores: ['apps/platform/src/control/project-connections.ts', 'apps/platform/src/store/**', 'apps/platform/src/control/operations/runner.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.object.name='pg'][callee.property.name=/^(Client|Pool)$/]",
          message: 'Connect to a project through ProjectConnections or openProjectSession (control/project-connections.ts).',
        },
      ],
    },
  },
  {
    // The HTTP layer depends on the domain, never the other way: domain code throws DomainError (src/errors.ts),
    // which http/errors.ts alone maps to a status; the context every part gets is src/platform-context.ts. A
    // feature's own routes (routes.ts, *-routes.ts in its folder) are HTTP layer too.
    files: ['apps/platform/src/**/*.ts'],
    ignores: ['apps/platform/src/http/**', 'apps/platform/src/main.ts', 'apps/platform/src/**/routes.ts', 'apps/platform/src/**/*-routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)http/', message: 'Domain code does not import http/: throw a DomainError (src/errors.ts); http/ maps it.' }] },
      ],
    },
  },
  {
    // Tests read loosely typed JSON bodies on purpose.
    files: ['**/test/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['apps/dashboard/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules, 'no-restricted-imports': ['error', { paths: [onDemandComponentsOnly] }] },
  },
  {
    // Data hooks: a query waiting for an argument has `skipToken` as its queryFn (a queryOptions factory, reusable for
    // prefetching and loaders: see data/storage/objects.ts), not `enabled: Boolean(ref)` beside a `ref!` in the queryFn.
    files: ['apps/dashboard/src/data/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          "Property[key.name='enabled'] CallExpression[callee.name='Boolean']",
          "Property[key.name='enabled'] UnaryExpression[operator='!'] > UnaryExpression[operator='!']",
          "Property[key.name='queryFn'] TSNonNullExpression",
        ].map((selector) => ({
          selector,
          message: 'A missing argument is `queryFn: ref ? ({ signal }) => ... : skipToken` in a queryOptions factory, not `enabled: Boolean(ref)` with `ref!`.',
        })),
      ],
    },
  },
  // Features use each other only through their public entry, `../<feature>` (its index.ts), never `../<feature>/<file>`.
  // One block per folder depth inside a feature: from features/<f>/<sub>/, `../<sub2>/x` is the feature's own folder.
  ...[1, 2, 3].map((depth) => {
    const otherFeatureFile = `^${'\\.\\./'.repeat(depth)}[^./][^/]*/`
    const message = "Import another feature through its index.ts (`../<feature>`); export what it needs there (keep the entry light: heavy modules stay lazy)."
    return {
      files: [`apps/dashboard/src/features/*/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
      rules: {
        'no-restricted-imports': ['error', { paths: [onDemandComponentsOnly], patterns: [{ regex: otherFeatureFile, message }] }],
        'no-restricted-syntax': ['error', { selector: `ImportExpression[source.value=/${otherFeatureFile.replaceAll('/', '\\x2F')}/]`, message }],
      },
    }
  }),
)
