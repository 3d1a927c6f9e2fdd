import { describeCronSchedule } from '@stratum/contracts'
import { Clock } from 'lucide-react'
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { EmptyState } from '../../components/ui/EmptyState'
import { QueryState } from '../../components/ui/QueryState'
import { Switch } from '../../components/ui/Switch'
import { TableHead } from '../../components/ui/TableHead'
import { cronKeys } from '../../data/cron/keys'
import type { CronJob } from '../../data/cron/types'
import { useCronJobs } from '../../data/cron/useCronJobs'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { DatabasePage, useDatabasePage } from '../database-pages'
import { CreateJobDialog, type NewJob } from './CreateJobDialog'
import { formatTime, nextRunText, RunStatus } from './format'
import { JobRunsCard } from './JobRunsCard'
import { buildScheduleJob, buildSetJobActive, buildUnscheduleJob } from './sql'
import './cron.css'

const NOT_RUNNING = 'The project is not running: its jobs are skipped until it is'
const jobLabel = (job: CronJob) => job.jobname ?? `job ${job.jobid}`

/**
 * /project/{ref}/integrations/cron: pg_cron's jobs (cron.job) with their latest run, next run and recent runs. Every
 * change is pg_cron SQL (cron.schedule, cron.alter_job, cron.unschedule) shown before it runs on the full connection,
 * which the server refuses to read-only members; jobs run as `postgres`, the role the page schedules them with.
 */
export function CronJobsPage() {
  useProjectPageTitle('Cron Jobs')
  const page = useDatabasePage(cronKeys.all)
  const { ref, project, writeLock, preview } = page
  const running = project?.status === 'ACTIVE_HEALTHY'
  const jobs = useCronJobs(running ? ref : undefined)
  const [creating, setCreating] = useState(false)
  const [params, setParams] = useSearchParams()
  const selected = jobs.data?.find((job) => job.jobid === params.get('job'))
  const lock = !running ? NOT_RUNNING : writeLock

  const review = (job: NewJob) =>
    preview({ title: `Schedule ${job.name}`, sql: buildScheduleJob(job.name, job.schedule, job.command), done: `Job ${job.name} scheduled` })
  const toggle = (job: CronJob, active: boolean) =>
    preview({ title: `${active ? 'Enable' : 'Disable'} ${jobLabel(job)}`, sql: buildSetJobActive(job.jobid, active), done: `Job ${jobLabel(job)} ${active ? 'enabled' : 'disabled'}` })
  const remove = (job: CronJob) =>
    preview({
      title: `Delete ${jobLabel(job)}`,
      sql: buildUnscheduleJob(job.jobid),
      done: `Job ${jobLabel(job)} deleted`,
      destructive: true,
      onDone: () => job.jobid === params.get('job') && setParams({}, { replace: true }),
    })

  return (
    <DatabasePage
      title="Cron Jobs"
      description="Run SQL on a schedule with pg_cron: cron syntax (UTC) or every 1 to 59 seconds. Jobs run as the role that scheduled them, and are skipped while the project is paused."
      page={page}
      create={{ label: 'Create job', onClick: () => setCreating(true), lock }}
      dialogs={<CreateJobDialog open={creating} onClose={() => setCreating(false)} onReview={(job) => (setCreating(false), review(job))} />}
    >
      {!running && project ? (
        <Alert tone="warning" live={false}>
          {NOT_RUNNING}.
        </Alert>
      ) : null}
      <QueryState
        query={running ? jobs : { isPending: false, isError: false, error: null, refetch: () => undefined }}
        loadingLabel="Loading cron jobs…"
        errorTitle="Could not load the cron jobs"
        isEmpty={(jobs.data ?? []).length === 0}
        empty={
          <Card>
            <EmptyState icon={<Clock size={22} />} title="No cron jobs" description="Create a job to run SQL on a schedule, or call cron.schedule() in the SQL editor." />
          </Card>
        }
      >
        <Card flush>
          <table className="table cron-table" aria-label="Cron jobs">
            <TableHead columns={['Name', 'Schedule', 'Command', 'Active', 'Last run', 'Next run', { hidden: 'Actions' }]} />
            <tbody>
              {(jobs.data ?? []).map((job) => (
                <tr key={job.jobid} aria-selected={job.jobid === selected?.jobid || undefined}>
                  <td className="mono nowrap">{jobLabel(job)}</td>
                  <td className="nowrap">
                    <div className="mono">{job.schedule}</div>
                    <div className="cron-reading">{describeCronSchedule(job.schedule) ?? 'Not a valid schedule'}</div>
                  </td>
                  <td>
                    <code className="mono cron-command" title={job.command}>
                      {job.command}
                    </code>
                  </td>
                  <td>
                    <Switch label={`Active: ${jobLabel(job)}`} checked={job.active} disabled={Boolean(lock)} disabledReason={lock} onCheckedChange={(on) => toggle(job, on)} />
                  </td>
                  <td className="nowrap">
                    {job.last_status ? (
                      <>
                        <RunStatus status={job.last_status} />
                        <div className="cron-reading">{formatTime(job.last_start)}</div>
                      </>
                    ) : (
                      <span className="cron-muted">Never</span>
                    )}
                  </td>
                  <td className="nowrap">{nextRunText(job.schedule, job.active, job.last_start)}</td>
                  <td className="cron-actions">
                    <Button size="sm" onClick={() => setParams({ job: job.jobid }, { replace: true })} aria-label={`Runs of ${jobLabel(job)}`}>
                      Runs
                    </Button>
                    <Button size="sm" variant="danger" onClick={() => remove(job)} disabled={Boolean(lock)} disabledReason={lock} aria-label={`Delete ${jobLabel(job)}`}>
                      Delete
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      </QueryState>
      {selected ? <JobRunsCard projectRef={ref} job={selected} /> : null}
    </DatabasePage>
  )
}
