/**
 * The Monaco environment as it was before GraphiQL's worker set-up ran (the SQL editor's, or none yet).
 * graphiql-workers.ts imports this module before 'graphiql/setup-workers/vite', which overwrites the
 * global when it loads: module order makes this one read it first.
 */
export const environmentBeforeGraphiql: typeof globalThis.MonacoEnvironment = globalThis.MonacoEnvironment
