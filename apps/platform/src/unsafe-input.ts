/**
 * Deepest nesting of arrays and objects a request may carry. No contract comes near it (snippet
 * content, charts and query parameters are a few levels deep); far deeper input only serves to
 * overflow the stack of whatever walks it next (JSON.stringify, zod, Postgres' jsonb parser).
 */
export const MAX_INPUT_DEPTH = 100

/**
 * Why a parsed request part cannot be accepted, or null when it can: a string or key holding a
 * NUL byte (Postgres text cannot store one, so it fails deep in a query) or nesting deeper than
 * MAX_INPUT_DEPTH. Walks with an explicit stack, so the walk itself cannot overflow.
 */
export function unsafeInput(value: unknown, what: string): string | null {
  const pending: [unknown, number][] = [[value, 0]]
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return `The ${what} contains a NUL character (\\u0000), which is not accepted`
      continue
    }
    if (item === null || typeof item !== 'object' || !isPlainContainer(item)) continue
    if (depth >= MAX_INPUT_DEPTH) return `The ${what} is nested too deeply (more than ${MAX_INPUT_DEPTH} levels)`
    if (Array.isArray(item)) {
      for (const element of item) pending.push([element, depth + 1])
    } else {
      for (const [key, element] of Object.entries(item)) {
        if (key.includes('\u0000')) return `The ${what} contains a NUL character (\\u0000), which is not accepted`
        pending.push([element, depth + 1])
      }
    }
  }
  return null
}

/**
 * Arrays and the objects JSON and query-string parsing make; not buffers, streams or class instances.
 * Fastify's query-string parser (fast-querystring) makes its objects from an empty prototype that
 * itself has none: that counts as plain too (without it no query string was ever checked).
 */
function isPlainContainer(item: object): boolean {
  if (Array.isArray(item)) return true
  const prototype = Object.getPrototypeOf(item) as object | null
  if (prototype === null || prototype === Object.prototype) return true
  return Object.getPrototypeOf(prototype) === null && Reflect.ownKeys(prototype).length === 0
}
