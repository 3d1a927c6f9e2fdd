/** Results-grid column widths (the project shell spec's limits): 8.25 px per character, within 100..500 px. */

export const COLUMN_WIDTH_PER_CHARACTER = 8.25
export const MIN_COLUMN_WIDTH = 100
export const MAX_COLUMN_WIDTH = 500

/**
 * The width for a column from its name and (optionally) some of its values: the longest text
 * among them, in characters, at 8.25 px each, clamped to 100..500. Objects count as their JSON.
 */
export function columnWidth(name: string, values: readonly unknown[] = []): number {
  const longest = Math.max(characterCount(name), ...values.map((value) => characterCount(displayText(value))))
  return Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, longest * COLUMN_WIDTH_PER_CHARACTER))
}

function displayText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  if (typeof value === 'string') return value
  if (typeof value === 'object') return JSON.stringify(value) ?? ''
  return String(value)
}

/** Characters as a person counts them: an emoji is one, not two UTF-16 units. */
function characterCount(text: string): number {
  let count = 0
  for (const _ of text) count++
  return count
}
