/** The Storage interface GraphiQL accepts (its tabs, query, variables, history, panel sizes). */
interface GraphiqlStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
  clear(): void
  length: number
}

/**
 * GraphiQL's saved state in localStorage, one namespace per project: without it every project's
 * GraphiQL would open on the tabs and history of the last one used. Headers are not saved (GraphiQL's
 * default), so no pasted JWT stays in the browser. Storage that throws (private mode, quota) is ignored.
 */
export function projectGraphiqlStorage(ref: string): GraphiqlStorage {
  const prefix = `stratum:graphiql:${ref}:`
  const keys = () => {
    try {
      return Object.keys(localStorage).filter((key) => key.startsWith(prefix))
    } catch {
      return []
    }
  }
  const safely = <T>(run: () => T, otherwise: T): T => {
    try {
      return run()
    } catch {
      return otherwise
    }
  }
  return {
    getItem: (key) => safely(() => localStorage.getItem(prefix + key), null),
    setItem: (key, value) => safely(() => localStorage.setItem(prefix + key, value), undefined),
    removeItem: (key) => safely(() => localStorage.removeItem(prefix + key), undefined),
    clear: () => {
      for (const key of keys()) safely(() => localStorage.removeItem(key), undefined)
    },
    get length() {
      return keys().length
    },
  }
}
