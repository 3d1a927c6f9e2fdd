import type { PitrWindow } from '@stratum/contracts'

const pad = (n: number) => String(n).padStart(2, '0')

/** Unix seconds as a datetime-local value read as UTC ('2026-11-25T19:04:05'). */
export function toUtcInputValue(unix: number): string {
  const d = new Date(unix * 1000)
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
}

/** A datetime-local value (seconds optional) read as UTC, in unix seconds; undefined when it is not a date. */
export function fromUtcInputValue(value: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(value)
  if (!match) return undefined
  const [, y, mo, d, h, mi, s] = match
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0))
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000)
}

/** The window's two ends, once the first base backup exists (before that there is nothing to recover to). */
export function windowBounds(window: PitrWindow | undefined): { earliest: number; latest: number } | undefined {
  const earliest = window?.earliestPhysicalBackupDateUnix
  const latest = window?.latestPhysicalBackupDateUnix
  return earliest !== undefined && latest !== undefined && latest >= earliest ? { earliest, latest } : undefined
}

/** Why a chosen moment cannot be used, or undefined when it is inside the window. */
export function pointInTimeError(value: string, bounds: { earliest: number; latest: number } | undefined): string | undefined {
  if (!bounds) return 'There is no recoverable window yet'
  const unix = fromUtcInputValue(value)
  if (unix === undefined) return 'Choose a date and time'
  if (unix < bounds.earliest || unix > bounds.latest) return 'Choose a moment inside the recoverable window'
  return undefined
}

export const unixToIso = (unix: number) => new Date(unix * 1000).toISOString()
