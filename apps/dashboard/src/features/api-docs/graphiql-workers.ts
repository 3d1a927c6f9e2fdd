import { environmentBeforeGraphiql } from './graphiql-env-before'
import 'graphiql/setup-workers/vite'

/**
 * GraphiQL's editors are a Monaco of their own (0.52, @graphiql/react's) beside the SQL editor's (0.57),
 * and both ask the one global `MonacoEnvironment` for their workers: the editor worker, plus GraphiQL's
 * 'graphql' (the language service) and 'json' (variables, headers, results). All of them come from
 * our bundle ('?worker' imports in the set-up module), none from a CDN.
 *
 * The set-up module replaces the global when it loads, and the SQL editor's module does the same when
 * it loads; whichever loaded last would serve the other's editor a worker of the wrong version. So the
 * global goes back to what it was at once, and GraphiQL's environment is in force only while a GraphiQL
 * page is mounted (installGraphiqlWorkers), restored when it unmounts.
 */
type Environment = NonNullable<typeof globalThis.MonacoEnvironment>

const graphiqlEnvironment: Environment = globalThis.MonacoEnvironment ?? {}
globalThis.MonacoEnvironment = environmentBeforeGraphiql

/**
 * Puts GraphiQL's workers in force until the returned function is called. While it is, a module that
 * assigns the global (the SQL panel's Monaco, loaded for the first time on this page) does not replace
 * GraphiQL's 'graphql' and 'json' workers, which Monaco re-creates after they idle: its value is kept
 * and becomes the global again on restore. (Both Monacos name their editor worker 'editorWorkerService',
 * so while this page is up GraphiQL's serves it: the SQL panel opened over GraphiQL is the one case
 * where the other Monaco may get it.)
 */
export function installGraphiqlWorkers(): () => void {
  let fallback = globalThis.MonacoEnvironment
  const combined: Environment = {
    getWorker: (workerId, label) => graphiqlEnvironment.getWorker!(workerId, label),
  }
  Object.defineProperty(globalThis, 'MonacoEnvironment', {
    configurable: true,
    enumerable: true,
    get: () => combined,
    set: (value: typeof globalThis.MonacoEnvironment) => {
      fallback = value
    },
  })
  return () => {
    Object.defineProperty(globalThis, 'MonacoEnvironment', { configurable: true, enumerable: true, writable: true, value: fallback })
  }
}
