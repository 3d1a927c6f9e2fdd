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
          exclude: ['apps/platform/test/server/**/*.soak.test.ts'],
          // Each file boots a real platform with real Postgres instances: give them time, and
          // run two files at a time on these 2-core machines.
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
          // A worker imports the platform once for all its files (~4 s each time under Vitest): files share
          // modules, never a platform (each boots its own data directory, ports and state).
          isolate: false,
        },
      },
      {
        test: {
          // The soak tier (`npm run test:soak`, README): repetitions, volumes and the longest paths, run before
          // resolving work on lifecycle, storage or branching. One file at a time: storage-large.soak measures the
          // platform's memory, and while two other platforms saturate both cores its socket buffers pile up higher.
          name: 'soak',
          include: ['apps/platform/test/server/**/*.soak.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 120_000,
          maxWorkers: 1,
        },
      },
    ],
  },
})
