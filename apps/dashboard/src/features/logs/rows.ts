/**
 * Log queries answer timestamps as microseconds since the epoch (as the field's Logs Explorer does). People
 * read them as ISO times: the grid and the line viewer show `timestamp` that way, the raw rows stay as answered.
 */
export function readableRow(row: Record<string, unknown>): Record<string, unknown> {
  if (typeof row.timestamp !== 'number') return row
  return { ...row, timestamp: microsToIso(row.timestamp) }
}

export function microsToIso(micros: number): string {
  const date = new Date(micros / 1000)
  return Number.isNaN(date.getTime()) ? String(micros) : date.toISOString()
}
