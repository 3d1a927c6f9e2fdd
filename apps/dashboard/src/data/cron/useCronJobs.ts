import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { readCatalog } from '../table-editor/runEditorSql'
import { cronKeys } from './keys'
import type { CronJob } from './types'

/** Every job the member's connection sees, with its latest run; read on the read-only connection. */
export const CRON_JOBS_SQL = `select coalesce(json_agg(j order by j.jobid), '[]'::json) as data from (
  select j.jobid::text as jobid, j.jobname, j.schedule, j.command, j.active, j.username,
         r.status as last_status, r.start_time as last_start, r.return_message as last_message
    from cron.job j
    left join lateral (
      select d.status, d.start_time, d.return_message from cron.job_run_details d where d.jobid = j.jobid order by d.runid desc limit 1
    ) r on true
) j`

/** Refreshed every few seconds: a job's latest run moves while the page is open. */
export const cronJobsQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: cronKeys.jobs(ref ?? ''),
    queryFn: ref ? ({ signal }) => readCatalog<CronJob[]>(ref, CRON_JOBS_SQL, signal) : skipToken,
    refetchInterval: 5_000,
  })

export function useCronJobs(ref: string | undefined) {
  return useQuery(cronJobsQuery(ref))
}
