import { History } from 'lucide-react'
import { Badge } from '../../components/ui/Badge'
import { Card } from '../../components/ui/Card'
import { EmptyState } from '../../components/ui/EmptyState'
import { QueryState } from '../../components/ui/QueryState'
import { TableHead } from '../../components/ui/TableHead'
import { RECENT_RUNS, useCronRuns } from '../../data/cron/useCronRuns'
import type { CronJob } from '../../data/cron/types'
import { formatTime, RunStatus } from './format'

/** A job's latest runs from cron.job_run_details, newest first (refreshed every few seconds). */
export function JobRunsCard({ projectRef, job }: { projectRef: string; job: CronJob }) {
  const runs = useCronRuns(projectRef, job.jobid)
  return (
    <Card title={`Recent runs of ${job.jobname ?? `job ${job.jobid}`}`} description={`The last ${RECENT_RUNS} runs recorded in cron.job_run_details.`} flush>
      <QueryState
        query={runs}
        loadingLabel="Loading runs…"
        errorTitle="Could not load the runs"
        isEmpty={(runs.data ?? []).length === 0}
        empty={<EmptyState icon={<History size={22} />} title="No runs yet" description="Runs appear here once the job's schedule comes round." />}
      >
          <table className="table cron-table" aria-label={`Runs of ${job.jobname ?? job.jobid}`}>
            <TableHead columns={['Run', 'Status', 'Started', 'Duration', 'Message']} />
            <tbody>
              {(runs.data ?? []).map((run) => (
                <tr key={run.runid}>
                  <td className="mono nowrap">{run.runid}</td>
                  <td>
                    <RunStatus status={run.status} />
                  </td>
                  <td className="nowrap">{formatTime(run.start_time)}</td>
                  <td className="nowrap">{duration(run.start_time, run.end_time)}</td>
                  <td className="mono cron-message">{run.return_message ?? <Badge>none</Badge>}</td>
                </tr>
              ))}
            </tbody>
          </table>
      </QueryState>
    </Card>
  )
}

function duration(start: string | null, end: string | null): string {
  if (!start || !end) return '—'
  const ms = new Date(end).getTime() - new Date(start).getTime()
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`
}
