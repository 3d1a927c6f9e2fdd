import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { readCatalog } from '../table-editor/runEditorSql'
import { cronKeys } from './keys'
import type { CronRun } from './types'

/** How many of a job's runs the page lists (the platform keeps the last 500 of each job). */
export const RECENT_RUNS = 20

const runsSql = (jobid: string) => `select coalesce(json_agg(d order by d.runid desc), '[]'::json) as data from (
  select runid::text as runid, status, return_message, start_time, end_time
    from cron.job_run_details where jobid = ${BigInt(jobid).toString()} order by runid desc limit ${RECENT_RUNS}
) d`

export const cronRunsQuery = (ref: string | undefined, jobid: string | undefined) =>
  queryOptions({
    queryKey: cronKeys.runs(ref ?? '', jobid ?? ''),
    queryFn: ref && jobid ? ({ signal }) => readCatalog<CronRun[]>(ref, runsSql(jobid), signal) : skipToken,
    refetchInterval: 5_000,
  })

/** A job's latest runs, newest first. */
export function useCronRuns(ref: string | undefined, jobid: string | undefined) {
  return useQuery(cronRunsQuery(ref, jobid))
}
