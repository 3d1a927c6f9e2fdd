import { describe, expect, it } from 'vitest'
import { api, type Caller } from '../harness.js'
import type { IntegrationProject } from './context.js'

const POLL = { timeout: 30_000, interval: 250 }

/**
 * Cron (issue 29 item 4): pg_cron's SQL interface through the platform's SQL route, jobs run by the platform's
 * scheduler as the role that scheduled them, inside a security-definer function that cannot switch roles.
 */
export function cronCases(project: IntegrationProject): void {
  const query = (sql: string, caller: Caller = project.owner, readOnly = false) =>
    api(project.t, 'POST', `/platform/pg-meta/${project.ref}/query`, caller, { query: sql, read_only: readOnly })
  const rows = async <T = Record<string, unknown>>(sql: string, caller: Caller = project.owner): Promise<T[]> => {
    const result = await query(sql, caller)
    if (result.status !== 201) throw new Error(`${sql}: ${result.status} ${JSON.stringify(result.body)}`)
    return result.body.results.at(-1).rows as T[]
  }
  const refusal = async (sql: string, caller: Caller = project.owner, readOnly = false): Promise<string> => {
    const result = await query(sql, caller, readOnly)
    expect(result.status, `${sql} was not refused`).toBeGreaterThanOrEqual(400)
    return result.body.message as string
  }
  const count = async (sql: string) => Number((await rows<{ n: string }>(sql))[0]!.n)
  /** The runs of a job, newest first. */
  const runsOf = (jobName: string) =>
    rows<{ status: string; return_message: string; username: string; job_pid: number | null }>(
      `select d.status, d.return_message, d.username, d.job_pid from cron.job_run_details d join cron.job j using (jobid)
        where j.jobname = '${jobName}' order by d.runid desc`,
    )

  describe('cron', () => {
    it('runs a job every second as the role that scheduled it, records its runs, and stops when unscheduled', async () => {
      await rows(`create table public.cron_ticks (id bigint generated always as identity, run_as text default current_user, login text default session_user)`)
      const [{ jobid }] = (await rows<{ jobid: string }>(`select cron.schedule('tick', '1 second', 'insert into public.cron_ticks default values') as jobid`)) as [{ jobid: string }]
      expect(await rows(`select schedule, command, username, database, active, jobname from cron.job where jobid = ${jobid}`)).toEqual([
        { schedule: '1 second', command: 'insert into public.cron_ticks default values', username: 'postgres', database: 'postgres', active: true, jobname: 'tick' },
      ])
      await expect.poll(() => count('select count(*) as n from public.cron_ticks'), POLL).toBeGreaterThanOrEqual(2)
      // The job's SQL ran as `postgres`, over a session of the scheduler's powerless login.
      expect(await rows('select distinct run_as, login from public.cron_ticks')).toEqual([{ run_as: 'postgres', login: 'stratum_cron' }])
      const runs = await runsOf('tick')
      expect(runs.find((run) => run.status === 'succeeded')).toMatchObject({ return_message: '1 row', username: 'postgres' })
      expect(runs.every((run) => run.job_pid !== null)).toBe(true)

      // Scheduling a name again replaces the job (pg_cron): same id, new schedule.
      const [{ again }] = (await rows<{ again: string }>(`select cron.schedule('tick', '2 seconds', 'insert into public.cron_ticks default values') as again`)) as [{ again: string }]
      expect(again).toBe(jobid)
      await rows(`select cron.unschedule('tick')`)
      expect(await rows(`select * from cron.job where jobid = ${jobid}`)).toEqual([])
      await expect.poll(() => count(`select count(*) as n from cron.job_run_details where jobid = ${jobid} and status in ('starting', 'running')`), POLL).toBe(0)
      // Unscheduling dropped the job's function in the same transaction: no run can insert after this.
      const before = await count('select count(*) as n from public.cron_ticks')
      // Another job's two runs prove the scheduler kept running meanwhile: the unscheduled one did not.
      await rows(`select cron.schedule('witness', '1 second', 'select 1')`)
      await expect.poll(async () => (await runsOf('witness')).filter((run) => run.status === 'succeeded').length, POLL).toBeGreaterThanOrEqual(2)
      expect(await count('select count(*) as n from public.cron_ticks')).toBe(before)
      await rows(`select cron.unschedule('witness'); drop table public.cron_ticks`)
    })

    it('fails a job that tries to become another role, and keeps its function out of reach', async () => {
      const attempts = { 'escape-set-role': 'set role anon', 'escape-reset-role': 'reset role', 'escape-session': 'set session authorization anon' }
      for (const [name, command] of Object.entries(attempts)) await rows(`select cron.schedule('${name}', '1 second', '${command}')`)
      for (const name of Object.keys(attempts)) {
        await expect.poll(async () => (await runsOf(name)).find((run) => run.status === 'failed')?.return_message, POLL).toMatch(
          /^ERROR: {2}cannot set parameter "(role|session_authorization)" within security-definer function/,
        )
      }
      const [{ jobid }] = (await rows<{ jobid: string }>(`select jobid from cron.job where jobname = 'escape-set-role'`)) as [{ jobid: string }]
      expect(await refusal(`alter function cron.job_${jobid}() security invoker`)).toMatch(/managed by the platform/)
      expect(await refusal(`create or replace function cron.job_${jobid}() returns text language sql as 'select 1'`)).toMatch(/permission denied/)
      expect(await refusal(`select cron.schedule('bad', '61 seconds', 'select 1')`)).toBe('invalid schedule: 61 seconds')
      // alter_job as pg_cron: only the caller's own jobs, only the attributes given.
      await rows(`select cron.alter_job(job_id := ${jobid}, active := false, schedule := '*/5 * * * *')`)
      expect(await rows(`select active, schedule, command from cron.job where jobid = ${jobid}`)).toEqual([{ active: false, schedule: '*/5 * * * *', command: 'set role anon' }])
      expect(await refusal(`select cron.alter_job(${jobid})`)).toBe('no updates specified')
      expect(await refusal(`select cron.alter_job(${jobid}, username := 'anon')`)).toBe('must be superuser to alter username')
      expect(await refusal(`select cron.alter_job(999999, active := true)`)).toBe("Job 999999 does not exist or you don't own it")
      await rows(Object.keys(attempts).map((name) => `select cron.unschedule('${name}');`).join('\n'))
    })

    it("keeps a tenant's DDL off cron's objects: nothing moved out or in, dropped or renamed, and the job still runs", async () => {
      const [{ jobid }] = (await rows<{ jobid: string }>(`select cron.schedule('guarded', '1 second', 'select 1') as jobid`)) as [{ jobid: string }]
      await rows(`create function public.cron_planted() returns text language sql as $$ select current_user::text $$`)
      // The job's owner may do these by Postgres's rules alone (it owns the function, has CREATE on public): the guard refuses.
      for (const attempt of [`drop function cron.job_${jobid}()`, `alter function cron.job_${jobid}() set schema public`]) {
        expect(await refusal(attempt), attempt).toMatch(/managed by the platform/)
      }
      // These Postgres refuses already: cron's tables, sequences and interface belong to the superuser, and no tenant has
      // CREATE on the schema (which a rename, a move in and a new owner there need).
      for (const attempt of [
        `alter function cron.job_${jobid}() rename to job_999999`,
        `alter function cron.job_${jobid}() owner to service_role`,
        'alter function public.cron_planted() set schema cron',
        'create function cron.job_999999() returns text language sql as $$ select 1 $$',
        'alter table cron.job set schema public',
        'alter table cron.job_run_details rename to history',
        'drop table cron.job_run_details',
        'alter sequence cron.jobid_seq set schema public',
        'alter function cron.schedule(text, text, text) set schema public',
        'drop function cron.unschedule(bigint)',
        'alter function cron.job_check() set schema public',
      ]) {
        expect(await refusal(attempt), attempt).toMatch(/managed by the platform|must be owner|permission denied|must be able to SET ROLE/)
      }
      const homes = await rows(
        `select p.proname, n.nspname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where p.proname in ('job_${jobid}', 'cron_planted', 'schedule', 'unschedule') order by 1, 2`,
      )
      expect(homes).toEqual([
        { proname: 'cron_planted', nspname: 'public' },
        { proname: `job_${jobid}`, nspname: 'cron' },
        { proname: 'schedule', nspname: 'cron' },
        { proname: 'schedule', nspname: 'cron' },
        { proname: 'unschedule', nspname: 'cron' },
        { proname: 'unschedule', nspname: 'cron' },
      ])
      await expect.poll(async () => (await runsOf('guarded')).filter((run) => run.status === 'succeeded').length, POLL).toBeGreaterThanOrEqual(1)
      // Unscheduling still drops the job's function (the platform's trigger does, as the superuser).
      await rows(`select cron.unschedule('guarded'); drop function public.cron_planted()`)
      expect(await rows(`select p.proname from pg_proc p where p.proname = 'job_${jobid}'`)).toEqual([])
    })

    it('runs no paused job, and runs it once resumed', async () => {
      await rows(`create table public.cron_paused (id bigint generated always as identity)`)
      // Scheduled inactive in one statement: the scheduler never sees it active.
      const [{ jobid }] = (await rows<{ jobid: string }>(
        `select cron.schedule_in_database('paused', '1 second', 'insert into public.cron_paused default values', current_database(), null, false) as jobid`,
      )) as [{ jobid: string }]
      expect(await rows(`select active from cron.job where jobid = ${jobid}`)).toEqual([{ active: false }])
      // A witness scheduled after it: three of its runs prove the scheduler knew both jobs for at least two seconds.
      await rows(`select cron.schedule('paused-witness', '1 second', 'select 1')`)
      await expect.poll(async () => (await runsOf('paused-witness')).filter((run) => run.status === 'succeeded').length, POLL).toBeGreaterThanOrEqual(3)
      expect(await runsOf('paused')).toEqual([])
      expect(await count('select count(*) as n from public.cron_paused')).toBe(0)
      await rows(`select cron.alter_job(${jobid}, active := true)`)
      await expect.poll(() => count('select count(*) as n from public.cron_paused'), POLL).toBeGreaterThanOrEqual(1)
      await rows(`select cron.unschedule('paused'); select cron.unschedule('paused-witness'); drop table public.cron_paused`)
    })

    it('lets a read-only member read jobs but never schedule one', async () => {
      expect(await refusal(`select cron.schedule('ro', '* * * * *', 'select 1')`, project.readOnly)).toBeTruthy()
      expect(await refusal(`select cron.schedule('ro', '* * * * *', 'select 1')`, project.readOnly, true)).toMatch(/permission denied|read-only/)
      const listed = await query('select count(*) as n from cron.job', project.readOnly, true)
      expect(listed.status).toBe(201)
      expect(await count(`select count(*) as n from cron.job where jobname = 'ro'`)).toBe(0)
    })
  })
}
