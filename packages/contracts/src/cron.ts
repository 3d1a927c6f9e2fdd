/**
 * pg_cron's schedules (issue 29 item 4), shared by the platform's scheduler (services/cron) and the Cron page: the
 * parser follows pg_cron's (src/entry.c, Paul Vixie's cron, and TryParseInterval in src/job_metadata.c), the times
 * are UTC as pg_cron's default `cron.timezone` (GMT). Pure functions, no I/O.
 *
 * Deliberate differences: a field must be entirely valid (pg_cron skips what follows a valid prefix, so `*x` or a
 * sixth field pass there) and `@yearly` runs on January 1st (pg_cron's month bits stay empty: it never runs).
 */

/** Minutes, hours, days of month, months, days of week: the values each field allows. */
const FIELDS = [
  { low: 0, high: 59, names: null },
  { low: 0, high: 23, names: null },
  { low: 1, high: 31, names: null },
  { low: 1, high: 12, names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] },
  { low: 0, high: 7, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] },
] as const

export interface CronTimes {
  kind: 'cron'
  /** Each field's allowed values (days of week 0-6, Sunday 0). */
  minutes: ReadonlySet<number>
  hours: ReadonlySet<number>
  daysOfMonth: ReadonlySet<number>
  months: ReadonlySet<number>
  daysOfWeek: ReadonlySet<number>
  /** `$` in the day-of-month field. */
  lastDayOfMonth: boolean
  /** Day of month or of week given as `*`: both must then match (otherwise either does, as in cron). */
  dayStar: boolean
}

export type CronSchedule = CronTimes | { kind: 'interval'; seconds: number } | { kind: 'reboot' }

/** pg_cron's message and hint for a schedule it cannot read. */
export const invalidScheduleMessage = (schedule: string) => `invalid schedule: ${schedule}`
export const INVALID_SCHEDULE_HINT = "Use cron format (e.g. 5 4 * * *), or interval format '[1-59] seconds'"

/** A field's number or name (names only where the field has them, case-insensitive); null when neither. */
function readValue(token: string, field: (typeof FIELDS)[number]): number | null {
  if (field.names) {
    const index = (field.names as readonly string[]).indexOf(token.toLowerCase())
    if (index >= 0) return index + field.low
  }
  return /^\d{1,9}$/.test(token) ? Number(token) : null
}

/** One field: a list of `*`, numbers, names, ranges, each with an optional /step (not after a single value). */
function parseField(text: string, field: (typeof FIELDS)[number]): Set<number> | null {
  const values = new Set<number>()
  for (const part of text.split(',')) {
    const match = /^(?:(\*)|([a-z0-9]+)(?:-([a-z0-9]+))?)(?:\/([a-z0-9]+))?$/i.exec(part)
    if (!match) return null
    const [, star, first, last, stepText] = match
    if (!star && last === undefined && stepText !== undefined) return null
    const from = star ? field.low : readValue(first!, field)
    const to = star ? field.high : last === undefined ? from : readValue(last, field)
    const step = stepText === undefined ? 1 : /^\d{1,9}$/.test(stepText) ? Number(stepText) : null
    if (from === null || to === null || step === null || step <= 0 || step > field.high) return null
    if (from < field.low || from > field.high || to < field.low || to > field.high) return null
    for (let value = from; value <= to; value += step) values.add(value)
  }
  return values
}

const SPECIALS: Record<string, string> = {
  yearly: '0 0 1 1 *',
  annually: '0 0 1 1 *',
  monthly: '0 0 1 * *',
  weekly: '0 0 * * 0',
  daily: '0 0 * * *',
  midnight: '0 0 * * *',
  hourly: '0 * * * *',
}

/** A schedule as pg_cron reads it, or null when pg_cron would answer "invalid schedule". */
export function parseCronSchedule(text: string): CronSchedule | null {
  if (text.length >= 1000) return null
  const interval = /^\s*(\d{1,9})\s*seconds?\s*$/i.exec(text)
  if (interval) {
    const seconds = Number(interval[1])
    return seconds > 0 && seconds < 60 ? { kind: 'interval', seconds } : null
  }
  const trimmed = text.trim()
  if (trimmed.startsWith('@')) {
    const name = trimmed.slice(1).toLowerCase()
    if (name === 'reboot' || name === 'restart') return { kind: 'reboot' }
    return SPECIALS[name] ? parseCronSchedule(SPECIALS[name]) : null
  }
  const parts = trimmed.split(/[ \t]+/)
  if (parts.length !== 5) return null
  const lastDayOfMonth = parts[2] === '$'
  const fields = parts.map((part, index) => (index === 2 && lastDayOfMonth ? new Set<number>() : parseField(part, FIELDS[index]!)))
  if (fields.some((field) => field === null)) return null
  const [minutes, hours, daysOfMonth, months, daysOfWeek] = fields as Set<number>[]
  // 7 is Sunday too.
  if (daysOfWeek!.delete(7)) daysOfWeek!.add(0)
  const dayStar = parts[2]!.startsWith('*') || parts[4]!.startsWith('*')
  return { kind: 'cron', minutes: minutes!, hours: hours!, daysOfMonth: daysOfMonth!, months: months!, daysOfWeek: daysOfWeek!, lastDayOfMonth, dayStar }
}

/** Whether a cron schedule runs on this day (UTC), by cron's day-of-month / day-of-week rule. */
function runsOnDay(times: CronTimes, day: Date): boolean {
  if (!times.months.has(day.getUTCMonth() + 1)) return false
  const tomorrow = new Date(day.getTime() + 86_400_000)
  const dom = times.daysOfMonth.has(day.getUTCDate()) || (times.lastDayOfMonth && tomorrow.getUTCDate() === 1)
  const dow = times.daysOfWeek.has(day.getUTCDay())
  return times.dayStar ? dom && dow : dom || dow
}

/** Whether a cron schedule runs in the minute that `at` falls in (UTC). */
export function cronMatches(times: CronTimes, at: Date): boolean {
  return times.minutes.has(at.getUTCMinutes()) && times.hours.has(at.getUTCHours()) && runsOnDay(times, at)
}

/** The first minute after `after` in which the schedule runs (UTC), skipping whole days and hours; null if none in 8 years. */
export function nextCronTime(times: CronTimes, after: Date): Date | null {
  const at = new Date(Math.floor(after.getTime() / 60_000) * 60_000 + 60_000)
  const limit = after.getTime() + 8 * 366 * 86_400_000
  while (at.getTime() <= limit) {
    if (!runsOnDay(times, at)) {
      at.setUTCHours(24, 0, 0, 0)
    } else if (!times.hours.has(at.getUTCHours())) {
      at.setUTCHours(at.getUTCHours() + 1, 0, 0, 0)
    } else if (!times.minutes.has(at.getUTCMinutes())) {
      at.setUTCMinutes(at.getUTCMinutes() + 1, 0, 0)
    } else {
      return at
    }
  }
  return null
}

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
const pad = (value: number) => String(value).padStart(2, '0')
const plural = (count: number, unit: string) => (count === 1 ? `every ${unit}` : `every ${count} ${unit}s`)

/** `a, b and c` of a set of values, in order. */
function listOf(values: ReadonlySet<number>, name: (value: number) => string): string {
  const words = [...values].sort((a, b) => a - b).map(name)
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : (words[0] ?? '')
}

/** A field's step when it is `*` or `*\/n`, else null. */
function everyStep(field: string): number | null {
  const match = /^\*(?:\/(\d+))?$/.exec(field)
  return match ? Number(match[1] ?? 1) : null
}

/** The schedule in words ("Every 5 seconds", "At 03:30 UTC on Saturday"), or null when it is invalid. */
export function describeCronSchedule(text: string): string | null {
  const schedule = parseCronSchedule(text)
  if (!schedule) return null
  if (schedule.kind === 'interval') return schedule.seconds === 1 ? 'Every second' : `Every ${schedule.seconds} seconds`
  if (schedule.kind === 'reboot') return 'When the database starts'
  const trimmed = text.trim()
  const parts = trimmed.startsWith('@') ? SPECIALS[trimmed.slice(1).toLowerCase()]!.split(' ') : trimmed.split(/[ \t]+/)
  const [minute, hour, dom, month, dow] = parts as [string, string, string, string, string]
  const minuteStep = everyStep(minute)
  const hourStep = everyStep(hour)
  let time: string
  if (minuteStep !== null && hourStep === 1) time = minuteStep === 1 ? 'Every minute' : `Every ${minuteStep} minutes`
  else if (schedule.minutes.size === 1 && schedule.hours.size === 1) {
    time = `At ${pad([...schedule.hours][0]!)}:${pad([...schedule.minutes][0]!)} UTC`
  } else if (schedule.minutes.size === 1 && hourStep !== null) {
    time = `At minute ${[...schedule.minutes][0]} past ${plural(hourStep, 'hour')}`
  } else {
    const minutes = minuteStep !== null ? plural(minuteStep, 'minute') : `at minute ${listOf(schedule.minutes, String)}`
    const hours = hourStep !== null ? plural(hourStep, 'hour') : `hour ${listOf(schedule.hours, String)}`
    time = `${minutes.charAt(0).toUpperCase()}${minutes.slice(1)} past ${hours} (UTC)`
  }
  const days: string[] = []
  if (schedule.lastDayOfMonth) days.push('on the last day of the month')
  else if (!dom.startsWith('*')) days.push(`on day ${listOf(schedule.daysOfMonth, String)} of the month`)
  if (!dow.startsWith('*')) days.push(`on ${listOf(schedule.daysOfWeek, (day) => DAY_NAMES[day]!)}`)
  const months = month.startsWith('*') ? '' : ` in ${listOf(schedule.months, (value) => MONTH_NAMES[value - 1]!)}`
  return `${time}${days.length ? ` ${days.join(schedule.dayStar ? ' and ' : ' or ')}` : ''}${months}`
}

/** The next time a job runs: interval jobs count from their last start (now when they never ran). */
export function nextRunOf(schedule: CronSchedule, now: Date, lastStart: Date | null): Date | null {
  if (schedule.kind === 'reboot') return null
  if (schedule.kind === 'interval') {
    if (!lastStart) return now
    return new Date(Math.max(now.getTime(), lastStart.getTime() + schedule.seconds * 1000))
  }
  return nextCronTime(schedule, now)
}
