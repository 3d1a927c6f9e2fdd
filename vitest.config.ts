import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          // Some unit tests spawn processes (bash -n, tsc): a busy machine needs more than 5 s.
          testTimeout: 30_000,
          include: ['packages/*/test/**/*.test.ts', 'apps/platform/test/unit/**/*.test.ts', 'apps/dashboard/test/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/platform/test/server/**/*.test.ts'],
          exclude: ['apps/platform/test/server/storage-large.test.ts'],
          // Each file boots a real platform with real Postgres instances: give them time, and
          // run two files at a time on these 2-core machines.
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
        },
      },
      {
        test: {
          // A memory measurement (the platform's peak RSS through a 200 MB round trip), run after the
          // others and alone: V8 frees socket buffers in bulk, once tens of MB of them have piled up, and
          // while two other test platforms saturate both cores that pile was seen at 59 MB instead of ~35.
          name: 'server-alone',
          include: ['apps/platform/test/server/storage-large.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          maxWorkers: 1,
        },
      },
    ],
  },
})
