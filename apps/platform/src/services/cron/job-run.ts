import type pg from 'pg'
import { openProjectSession, type ProjectLogin } from '../../control/project-connections.js'

/** A row of cron.job, as the scheduler keeps it. */
export interface CronJobRow {
  jobid: string
  schedule: string
  command: string
  database: string
  username: string
  active: boolean
  jobname: string | null
}

export interface RunContext {
  /** The project's superuser session (scheduler bookkeeping only: it never runs a job's SQL). */
  control: pg.Client
  /** The runner's login (CRON_RUNNER_ROLE): its sessions hold nothing but EXECUTE on the jobs' functions. */
  runnerLogin: ProjectLogin
  statementTimeoutMs: number
  /** cron.job_run_details keeps this many runs per job (pg_cron keeps all: its table grows until purged by hand). */
  runsKept: number
}

/** The job's function, as cron.job_function_sync() names it (jobid is a bigint's digits). */
export const jobFunctionName = (jobid: string) => `cron.job_${jobid}`

/**
 * Whether the job's function is still what cron.job's trigger made: SECURITY DEFINER, owned by the job's role, which
 * is no superuser. The DDL guard refuses changes to it; checked again here, in the runner's session, just before.
 */
const SAFE_FUNCTION_SQL = `
  SELECT p.prosecdef AND NOT r.rolsuper AND r.rolname OPERATOR(pg_catalog.=) $2::text AS safe
    FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) p.proowner
   WHERE p.oid OPERATOR(pg_catalog.=) pg_catalog.to_regprocedure($1::text)`

/**
 * One run of a job, recorded in cron.job_run_details as pg_cron does (starting, running, then succeeded or failed
 * with the command's result or Postgres's error as `ERROR:  message`). The job's SQL runs in a session of its own as
 * the runner, inside the job's SECURITY DEFINER function: as the job's role, unable to switch roles. Like pg_cron,
 * a new session per run: nothing a run leaves in its session (settings, temporary objects) reaches the next one.
 */
export async function runJob(context: RunContext, job: CronJobRow): Promise<void> {
  const { control } = context
  const started = await control.query<{ runid: string }>(
    `INSERT INTO cron.job_run_details (jobid, database, username, command, status, start_time)
     VALUES ($1::bigint, $2::text, $3::text, $4::text, 'starting', pg_catalog.now()) RETURNING runid`,
    [job.jobid, job.database, job.username, job.command],
  )
  const runid = started.rows[0]!.runid
  let outcome: { status: 'succeeded' | 'failed'; message: string }
  let session: pg.Client | null = null
  try {
    session = await openProjectSession(context.runnerLogin, { applicationName: 'pg_cron', statementTimeoutMs: context.statementTimeoutMs })
    await control.query(`UPDATE cron.job_run_details SET status = 'running', job_pid = $2::int WHERE runid = $1::bigint`, [runid, backendPid(session)])
    outcome = await callJobFunction(context, session, job)
  } catch (error) {
    outcome = { status: 'failed', message: `connection failed: ${(error as Error).message}` }
  } finally {
    await session?.end().catch(() => {})
  }
  await control.query(
    `UPDATE cron.job_run_details SET status = $2::text, return_message = $3::text, end_time = pg_catalog.now() WHERE runid = $1::bigint`,
    [runid, outcome.status, outcome.message],
  )
  await control.query(
    `DELETE FROM cron.job_run_details WHERE jobid = $1::bigint AND runid <= (
       SELECT d.runid FROM cron.job_run_details d WHERE d.jobid = $1::bigint ORDER BY d.runid DESC OFFSET $2::int LIMIT 1)`,
    [job.jobid, context.runsKept],
  )
}

async function callJobFunction(context: RunContext, session: pg.Client, job: CronJobRow): Promise<{ status: 'succeeded' | 'failed'; message: string }> {
  const name = jobFunctionName(job.jobid)
  try {
    const check = await session.query<{ safe: boolean | null }>(SAFE_FUNCTION_SQL, [`${name}()`, job.username])
    if (!check.rows[0]?.safe) return { status: 'failed', message: `ERROR:  the job's function ${name}() is missing or was changed: schedule the job again` }
    // A backstop to the session's statement_timeout, should the command manage to outlast it.
    const backstop = setTimeout(() => {
      void context.control.query('SELECT pg_catalog.pg_terminate_backend($1::int)', [backendPid(session)]).catch(() => {})
    }, context.statementTimeoutMs + 10_000)
    try {
      const { rows } = await session.query<{ message: string }>(`SELECT ${name}() AS message`)
      return { status: 'succeeded', message: rows[0]?.message ?? '' }
    } finally {
      clearTimeout(backstop)
    }
  } catch (error) {
    return { status: 'failed', message: `ERROR:  ${(error as Error).message}` }
  }
}

/** The server process of a session (node-postgres keeps it from BackendKeyData, untyped). */
function backendPid(client: pg.Client): number | null {
  return (client as unknown as { processID: number | null }).processID ?? null
}
