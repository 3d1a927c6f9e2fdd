import { describe, expect, it } from 'vitest'
import { describeCronSchedule, nextCronTime, nextRunOf, parseCronSchedule, type CronTimes } from '@stratum/contracts'

const cron = (text: string) => {
  const schedule = parseCronSchedule(text)
  if (schedule?.kind !== 'cron') throw new Error(`not a cron schedule: ${text}`)
  return schedule
}
const next = (text: string, after: string) => nextCronTime(cron(text), new Date(after))?.toISOString()
const values = (set: ReadonlySet<number>) => [...set].sort((a, b) => a - b)

describe("pg_cron's schedules", () => {
  it('reads lists, ranges, steps and names as Vixie cron does', () => {
    const schedule: CronTimes = cron('0,30 9-17/4 */10 jan-mar,Dec mon-fri')
    expect(values(schedule.minutes)).toEqual([0, 30])
    expect(values(schedule.hours)).toEqual([9, 13, 17])
    expect(values(schedule.daysOfMonth)).toEqual([1, 11, 21, 31])
    expect(values(schedule.months)).toEqual([1, 2, 3, 12])
    expect(values(schedule.daysOfWeek)).toEqual([1, 2, 3, 4, 5])
    // 7 is Sunday too.
    expect(values(cron('* * * * 7').daysOfWeek)).toEqual([0])
    expect(cron('0 12 $ * *').lastDayOfMonth).toBe(true)
  })

  it("reads '[1-59] seconds' (and pg_cron's spellings of it) as an interval", () => {
    expect(parseCronSchedule('5 seconds')).toEqual({ kind: 'interval', seconds: 5 })
    expect(parseCronSchedule(' 1 second ')).toEqual({ kind: 'interval', seconds: 1 })
    expect(parseCronSchedule('30 SECONDS')).toEqual({ kind: 'interval', seconds: 30 })
    for (const bad of ['0 seconds', '60 seconds', '5 minutes', '5 secondsx']) expect(parseCronSchedule(bad), bad).toBeNull()
  })

  it('refuses what pg_cron refuses, and trailing garbage', () => {
    for (const bad of ['', '* * * *', '60 * * * *', '* 24 * * *', '* * 0 * *', '* * * 13 *', '* * * * 8', '1/5 * * * *', '*/0 * * * *', '*/60 * * * *', '* * * * foo', '$ * * * *', '* * $,1 * *', '*x * * * *', '* * * * * *', '@never']) {
      expect(parseCronSchedule(bad), bad).toBeNull()
    }
    expect(parseCronSchedule('@hourly')?.kind).toBe('cron')
    expect(parseCronSchedule('@reboot')).toEqual({ kind: 'reboot' })
  })

  it('finds the next run in UTC, with the day-of-month or day-of-week rule and $', () => {
    expect(next('*/5 * * * *', '2026-12-03T10:02:30Z')).toBe('2026-12-03T10:05:00.000Z')
    expect(next('30 3 * * 6', '2026-12-03T10:00:00Z')).toBe('2026-12-05T03:30:00.000Z')
    // Both day fields restricted: either matches (the 13th, or a Friday).
    expect(next('0 0 13 * 5', '2026-12-03T10:00:00Z')).toBe('2026-12-04T00:00:00.000Z')
    // One of them `*`: both must.
    expect(next('0 0 13 * *', '2026-12-03T10:00:00Z')).toBe('2026-12-13T00:00:00.000Z')
    expect(next('0 12 $ * *', '2027-02-01T00:00:00Z')).toBe('2027-02-28T12:00:00.000Z')
    expect(next('0 0 29 2 *', '2026-03-01T00:00:00Z')).toBe('2028-02-29T00:00:00.000Z')
    // Never in the same minute it was asked from.
    expect(next('* * * * *', '2026-12-03T10:02:00Z')).toBe('2026-12-03T10:03:00.000Z')
    expect(next('0 0 31 2 *', '2026-12-03T10:00:00Z')).toBeUndefined()
  })

  it('runs an interval job at once, then its interval after its last start', () => {
    const now = new Date('2026-12-03T10:00:00Z')
    const every5 = parseCronSchedule('5 seconds')!
    expect(nextRunOf(every5, now, null)).toEqual(now)
    expect(nextRunOf(every5, now, new Date('2026-12-03T09:59:58Z'))).toEqual(new Date('2026-12-03T10:00:03Z'))
    // Overdue: once, now (missed runs are not replayed).
    expect(nextRunOf(every5, now, new Date('2026-12-03T09:00:00Z'))).toEqual(now)
  })

  it('says schedules in words', () => {
    expect(describeCronSchedule('5 seconds')).toBe('Every 5 seconds')
    expect(describeCronSchedule('* * * * *')).toBe('Every minute')
    expect(describeCronSchedule('*/15 * * * *')).toBe('Every 15 minutes')
    expect(describeCronSchedule('30 3 * * 6')).toBe('At 03:30 UTC on Saturday')
    expect(describeCronSchedule('0 * * * *')).toBe('At minute 0 past every hour')
    expect(describeCronSchedule('0 12 $ * *')).toBe('At 12:00 UTC on the last day of the month')
    expect(describeCronSchedule('0 9 * 6 1-5')).toBe('At 09:00 UTC on Monday, Tuesday, Wednesday, Thursday and Friday in June')
    expect(describeCronSchedule('bad')).toBeNull()
  })
})
