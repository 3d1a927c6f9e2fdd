import type pg from 'pg'
import type { Logger } from 'pino'
import { nextRunOf, parseCronSchedule, type CronSchedule } from '@stratum/contracts'
import { openProjectSession, type ProjectLogin } from '../../control/project-connections.js'
import { runJob, type CronJobRow } from './job-run.js'
import { CRON_RUNNER_ROLE, CRON_SCHEMA_VERSION, ensureCronSchema, JOB_CHANGES_CHANNEL } from './schema.js'

const RECONNECT_MS = 5_000
/** setTimeout cannot wait longer than ~24.8 days: a far run is looked at again every hour. */
const MAX_TIMER_MS = 3_600_000
/** Runs of one project at the same time (pg_cron's cron.max_running_jobs, 32, is for a whole server); more wait. */
const MAX_RUNNING = 8

interface JobState {
  row: CronJobRow
  schedule: CronSchedule | null
  timer: NodeJS.Timeout | null
  lastStart: Date | null
  running: boolean
  /** Runs due while the job was still running (pg_cron queues them; an interval job queues at most one). */
  pending: number
}

export interface ProjectCronOptions {
  ref: string
  log: Logger
  /** The project's superuser login (bookkeeping, LISTEN) and the runner's, read each time the project is connected. */
  logins: () => Promise<{ admin: ProjectLogin; runner: ProjectLogin }>
  statementTimeoutMs: number
  runsKept: number
}

/**
 * One running project's jobs: read from cron.job when the project is followed and each time cron.job's trigger
 * notifies, each armed with a timer to its next run (nothing polls the table). Made when the project runs, stopped
 * when it stops (scheduler.ts): a paused project's runs are skipped, never replayed when it is back.
 */
export class ProjectCron {
  private control: pg.Client | null = null
  private runner: ProjectLogin | null = null
  private readonly jobs = new Map<string, JobState>()
  private stopped = false
  private reconnectTimer: NodeJS.Timeout | null = null
  private loading: Promise<void> | null = null
  private loadAgain = false
  private running = 0
  private firstConnection = true
  private rebootJobsRan = false

  constructor(private readonly options: ProjectCronOptions) {}

  start(): void {
    void this.connect()
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer)
    for (const state of this.jobs.values()) if (state.timer) clearTimeout(state.timer)
    this.jobs.clear()
    const control = this.control
    this.control = null
    await control?.end().catch(() => {})
  }

  /** Jobs known now, for tests and diagnostics. */
  get jobCount(): number {
    return this.jobs.size
  }

  private async connect(): Promise<void> {
    this.reconnectTimer = null
    if (this.stopped) return
    let client: pg.Client | null = null
    try {
      const logins = await this.options.logins()
      client = await openProjectSession(logins.admin, { applicationName: 'stratum cron scheduler' })
      await this.prepare(client, logins.runner)
      if (this.stopped) return void (await client.end().catch(() => {}))
      const connected = client
      connected.on('notification', () => void this.reload())
      connected.on('end', () => this.lost(connected))
      this.control = connected
      this.runner = logins.runner
      await this.reload()
    } catch (error) {
      await client?.end().catch(() => {})
      if (this.stopped) return
      this.options.log.warn({ err: error, ref: this.options.ref }, "cron: cannot follow the project's jobs; trying again")
      this.reconnectTimer = setTimeout(() => void this.connect(), RECONNECT_MS)
    }
  }

  /** The schema of this version (projects made before it lack it), the runner's password, LISTEN. */
  private async prepare(client: pg.Client, runner: ProjectLogin): Promise<void> {
    const { rows } = await client.query<{ version: string | null }>(
      `SELECT pg_catalog.obj_description(n.oid, 'pg_namespace') AS version FROM pg_catalog.pg_namespace n WHERE n.nspname OPERATOR(pg_catalog.=) 'cron'`,
    )
    if (rows[0]?.version !== CRON_SCHEMA_VERSION) await ensureCronSchema(client)
    await client.query(`ALTER ROLE ${CRON_RUNNER_ROLE} WITH LOGIN PASSWORD ${client.escapeLiteral(runner.password)}`)
    await client.query(`LISTEN ${JOB_CHANGES_CHANNEL}`)
    // As pg_cron at start: runs the previous server left unfinished did not finish.
    if (this.firstConnection) {
      await client.query(
        `UPDATE cron.job_run_details SET status = 'failed', return_message = 'server restarted', end_time = pg_catalog.now() WHERE status = ANY ('{starting,running}'::text[])`,
      )
    }
    this.firstConnection = false
  }

  /** The bookkeeping session ended (the server restarted, a network hiccup): timers wait for the next connection. */
  private lost(client: pg.Client): void {
    if (this.control !== client || this.stopped) return
    this.control = null
    for (const state of this.jobs.values()) this.disarm(state)
    this.reconnectTimer = setTimeout(() => void this.connect(), RECONNECT_MS)
  }

  /** Reads cron.job again; notifications arriving meanwhile make one more read, not one each. */
  private reload(): Promise<void> {
    if (this.loading) {
      this.loadAgain = true
      return this.loading
    }
    this.loading = (async () => {
      do {
        this.loadAgain = false
        await this.load()
      } while (this.loadAgain && !this.stopped)
    })()
      .catch((error: unknown) => {
        if (!this.stopped) this.options.log.warn({ err: error, ref: this.options.ref }, 'cron: could not read cron.job')
      })
      .finally(() => (this.loading = null))
    return this.loading
  }

  private async load(): Promise<void> {
    const control = this.control
    if (!control) return
    const { rows } = await control.query<CronJobRow>(
      'SELECT jobid::text AS jobid, schedule, command, database, username, active, jobname FROM cron.job ORDER BY jobid',
    )
    if (this.stopped || control !== this.control) return
    const seen = new Set<string>()
    for (const row of rows) {
      seen.add(row.jobid)
      let state = this.jobs.get(row.jobid)
      const changed = !state || state.row.schedule !== row.schedule || state.row.active !== row.active
      if (!state) this.jobs.set(row.jobid, (state = { row, schedule: null, timer: null, lastStart: null, running: false, pending: 0 }))
      state.row = row
      if (changed) state.schedule = parseCronSchedule(row.schedule)
      if (changed || !state.timer) this.arm(state)
    }
    for (const [jobid, state] of this.jobs) {
      if (seen.has(jobid)) continue
      this.disarm(state)
      this.jobs.delete(jobid)
    }
    if (!this.rebootJobsRan) {
      this.rebootJobsRan = true
      for (const state of this.jobs.values()) if (state.row.active && state.schedule?.kind === 'reboot') this.trigger(state)
    }
  }

  private disarm(state: JobState): void {
    if (state.timer) clearTimeout(state.timer)
    state.timer = null
  }

  /** Sets the job's timer to its next run: a cron job's next minute after `after`, an interval job's next start. */
  private arm(state: JobState, after = new Date()): void {
    this.disarm(state)
    const schedule = state.schedule
    if (this.stopped || !this.control || !state.row.active || !schedule || schedule.kind === 'reboot') return
    // An interval job running (or waiting to) is armed again when that run ends.
    if (schedule.kind === 'interval' && (state.running || state.pending > 0)) return
    const next = nextRunOf(schedule, after, state.lastStart)
    if (!next) return
    const delay = next.getTime() - Date.now()
    if (delay > MAX_TIMER_MS) {
      state.timer = setTimeout(() => this.arm(state), MAX_TIMER_MS)
      return
    }
    state.timer = setTimeout(() => this.fire(state, next), Math.max(0, delay))
  }

  private fire(state: JobState, due: Date): void {
    state.timer = null
    if (this.jobs.get(state.row.jobid) !== state) return
    this.trigger(state)
    // Counted from the minute just served: a late timer skips what it missed instead of replaying it.
    if (state.schedule?.kind === 'cron') this.arm(state, new Date(Math.max(Date.now(), due.getTime())))
  }

  private trigger(state: JobState): void {
    state.pending = state.schedule?.kind === 'interval' ? Math.max(state.pending, 1) : state.pending + 1
    this.pump()
  }

  /** Starts the runs that are due, as far as the project's limit allows; a job never runs twice at once. */
  private pump(): void {
    for (const state of this.jobs.values()) {
      if (this.running >= MAX_RUNNING) return
      if (state.pending > 0 && !state.running) {
        state.pending--
        void this.run(state)
      }
    }
  }

  private async run(state: JobState): Promise<void> {
    const control = this.control
    const runner = this.runner
    if (!control || !runner) return
    state.running = true
    state.lastStart = new Date()
    this.running++
    try {
      await runJob({ control, runnerLogin: runner, statementTimeoutMs: this.options.statementTimeoutMs, runsKept: this.options.runsKept }, state.row)
    } catch (error) {
      if (!this.stopped) this.options.log.warn({ err: error, ref: this.options.ref, jobid: state.row.jobid }, 'cron: a run could not be recorded')
    } finally {
      state.running = false
      this.running--
      if (!this.stopped) {
        if (state.schedule?.kind === 'interval' && this.jobs.get(state.row.jobid) === state) this.arm(state)
        this.pump()
      }
    }
  }
}
