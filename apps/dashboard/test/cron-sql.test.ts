import { describe, expect, it } from 'vitest'
import { buildScheduleJob, buildSetJobActive, buildUnscheduleJob } from '../src/features/cron/sql'

describe("the Cron page's SQL", () => {
  it('quotes every value as a literal', () => {
    expect(buildScheduleJob("it's", '5 seconds', "insert into t values ('x'); -- \\")).toBe(
      "select cron.schedule(\n  'it''s',\n  '5 seconds',\n  'insert into t values (''x''); -- \\'\n);",
    )
  })

  it('takes job ids as digits only', () => {
    expect(buildSetJobActive('42', false)).toBe('select cron.alter_job(job_id := 42, active := false);')
    expect(buildUnscheduleJob('7')).toBe('select cron.unschedule(7);')
    expect(() => buildUnscheduleJob('1); drop table x; --')).toThrow()
  })
})
