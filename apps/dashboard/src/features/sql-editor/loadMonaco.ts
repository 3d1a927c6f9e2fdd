import type { Monaco } from './monaco'

let loading: Promise<Monaco> | undefined

/** The Monaco module, imported once on demand (its own chunk). */
export function loadMonaco(): Promise<Monaco> {
  loading ??= import('./monaco').then((module) => module.monaco)
  return loading
}
