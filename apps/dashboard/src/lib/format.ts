const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—'
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date)
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—'
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : dateOnly.format(date)
}

/** Human wording for machine values such as 'Database_unresponsive' or 'ACTIVE_HEALTHY'. */
export function humanize(value: string): string {
  const words = value.replace(/_/g, ' ').toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const pad = (n: number) => String(n).padStart(2, '0')

/** DD MMM YYYY HH:mm:ss (e.g. 21 Nov 2026 14:03:07), in UTC or in the browser's time zone. */
export function formatTimestamp(iso: string | null | undefined, zone: 'utc' | 'local' = 'utc'): string {
  if (!iso) return '—'
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  const utc = zone === 'utc'
  const [day, month, year] = utc ? [d.getUTCDate(), d.getUTCMonth(), d.getUTCFullYear()] : [d.getDate(), d.getMonth(), d.getFullYear()]
  const [h, m, s] = utc ? [d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()] : [d.getHours(), d.getMinutes(), d.getSeconds()]
  return `${pad(day)} ${MONTHS[month]} ${year} ${pad(h)}:${pad(m)}:${pad(s)}`
}

/** 1536 -> '1.5 KB'. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—'
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return unit === 0 ? `${value} bytes` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`
}

/** A date `days` from `from`, as a long date (e.g. 19 Feb 2027). */
export function formatDateInDays(days: number, from: Date = new Date()): string {
  const date = new Date(from.getTime() + days * 24 * 3600 * 1000)
  return dateOnly.format(date)
}
