/** A row of cron.job with its latest run (cron.job_run_details), as the Cron page reads them. */
export interface CronJob {
  jobid: string
  jobname: string | null
  schedule: string
  command: string
  active: boolean
  username: string
  last_status: string | null
  last_start: string | null
  last_message: string | null
}

/** A row of cron.job_run_details. */
export interface CronRun {
  runid: string
  status: string
  return_message: string | null
  start_time: string | null
  end_time: string | null
}
