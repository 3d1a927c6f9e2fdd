/** The SQL the Cron page shows before it runs: pg_cron's functions, with every value as a quoted literal. */

/** A text literal (standard_conforming_strings: only quotes need doubling). */
export const literal = (value: string) => `'${value.replace(/'/g, "''")}'`

/** A jobid as the catalog gave it: digits only, never text from elsewhere. */
const jobId = (jobid: string) => BigInt(jobid).toString()

export const buildScheduleJob = (name: string, schedule: string, command: string) =>
  `select cron.schedule(\n  ${literal(name)},\n  ${literal(schedule)},\n  ${literal(command)}\n);`

export const buildSetJobActive = (jobid: string, active: boolean) => `select cron.alter_job(job_id := ${jobId(jobid)}, active := ${active});`

export const buildUnscheduleJob = (jobid: string) => `select cron.unschedule(${jobId(jobid)});`
