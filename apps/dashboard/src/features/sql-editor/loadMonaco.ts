import type { Monaco } from './monaco'

let loading: Promise<{ monaco: Monaco; pgsqlBuiltins: readonly string[] }> | undefined

/** The Monaco module (the editor and the pgsql built-in function names), imported once on demand (its own chunk). */
export function loadMonaco(): Promise<{ monaco: Monaco; pgsqlBuiltins: readonly string[] }> {
  loading ??= import('./monaco')
  return loading
}
