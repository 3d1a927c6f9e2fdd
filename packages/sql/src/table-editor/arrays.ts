/**
 * One-dimensional Postgres array literals (`{a,"b c",NULL}`), for the editor's list editor. Every
 * element is written double-quoted with `\` and `"` escaped, so no element can end the array early.
 */

/** The elements of a one-dimensional array literal, NULL as null; undefined for what this does not read (nested arrays, bounds). */
export function parseArrayLiteral(text: string): (string | null)[] | undefined {
  const trimmed = text.trim()
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return undefined
  const body = trimmed.slice(1, -1)
  if (body.trim() === '') return []
  const items: (string | null)[] = []
  let index = 0
  while (index <= body.length) {
    while (body[index] === ' ') index += 1
    if (body[index] === '{') return undefined
    if (body[index] === '"') {
      let value = ''
      index += 1
      while (index < body.length && body[index] !== '"') {
        if (body[index] === '\\') index += 1
        value += body[index] ?? ''
        index += 1
      }
      if (index >= body.length) return undefined
      index += 1
      items.push(value)
    } else {
      let end = body.indexOf(',', index)
      if (end === -1) end = body.length
      const raw = body.slice(index, end).trim()
      items.push(raw.toUpperCase() === 'NULL' ? null : raw)
      index = end
    }
    while (body[index] === ' ') index += 1
    if (index >= body.length) break
    if (body[index] !== ',') return undefined
    index += 1
  }
  return items
}

export function formatArrayLiteral(items: readonly (string | null)[]): string {
  return `{${items.map((item) => (item === null ? 'NULL' : `"${item.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`)).join(',')}}`
}
