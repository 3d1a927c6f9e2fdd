import { RESOURCE_BUDGETS, RESOURCE_THRESHOLDS, type ComputeSize, type ProjectResourceWarnings, type ResourceLevel } from '@stratum/contracts'
import os from 'node:os'
import { getAuthSettings } from '../../services/auth/config.js'
import type { Queryable } from '../../store/db.js'
import { usageSummaries } from './store.js'

export interface WarningProject {
  ref: string
  compute_size: string
  disk_quota_bytes: string | number
  readonly_since: Date | null
}

const level = (ratio: number | null, thresholds: { warning: number; critical: number }): ResourceLevel =>
  ratio === null || !Number.isFinite(ratio) ? null : ratio >= thresholds.critical ? 'critical' : ratio >= thresholds.warning ? 'warning' : null

/**
 * The resource-warning records of GET /platform/projects-resource-warnings, from the usage samples: disk space from
 * the latest size against the quota; CPU, memory and disk IO from their averages over the sustained window against
 * the compute size's budget (only once samples cover half the window, so a start-up burst never warns); the auth
 * email rate limit from the outbox's count over the last hour against the project's hourly limit.
 */
export async function resourceWarnings(db: Queryable, projects: WarningProject[]): Promise<ProjectResourceWarnings[]> {
  const window = RESOURCE_THRESHOLDS.sustained_window_minutes
  const summaries = await usageSummaries(db, projects.map((project) => project.ref), window)
  const emails = await emailsLastHour(db, projects.map((project) => project.ref))
  const cores = os.cpus().length
  const records: ProjectResourceWarnings[] = []
  for (const project of projects) {
    const usage = summaries.get(project.ref)
    const budget = RESOURCE_BUDGETS[project.compute_size as ComputeSize] ?? RESOURCE_BUDGETS.micro
    const sustained = usage && usage.coveredSeconds >= (window * 60) / 2 ? usage : null
    const emailLimit = emails.has(project.ref) ? (await getAuthSettings(db, project.ref)).rate_limit_email_sent : 0
    records.push({
      project: project.ref,
      is_readonly_mode_enabled: project.readonly_since !== null,
      cpu_exhaustion: level(sustained ? sustained.cpuPercent / 100 / Math.min(cores, budget.cpu_cores) : null, RESOURCE_THRESHOLDS.cpu),
      disk_io_exhaustion: level(sustained ? sustained.ioBytesPerSecond / budget.disk_io_bytes_per_second : null, RESOURCE_THRESHOLDS.disk_io),
      disk_space_exhaustion: level(usage?.diskBytes == null ? null : usage.diskBytes / Number(project.disk_quota_bytes), RESOURCE_THRESHOLDS.disk_space),
      memory_and_swap_exhaustion: level(sustained ? sustained.memoryBytes / budget.memory_bytes : null, RESOURCE_THRESHOLDS.memory_and_swap),
      // No bounce or complaint tracking exists (emails go to the project's own SMTP server or the outbox): no offender, no restriction.
      auth_email_offender: null,
      auth_rate_limit_exhaustion: emailLimit > 0 ? level((emails.get(project.ref) ?? 0) / emailLimit, RESOURCE_THRESHOLDS.auth_email_rate_limit) : null,
      auth_restricted_email_sending: null,
      // Point-in-time recovery is not tied to usage here.
      need_pitr: null,
    })
  }
  return records
}

/** Emails the auth service sent per project in the last hour: the count its hourly rate limit is checked against (services/auth/outbox.ts). */
async function emailsLastHour(db: Queryable, refs: string[]): Promise<Map<string, number>> {
  const { rows } = await db.query<{ ref: string; sent: number }>(
    `SELECT project_ref AS ref, count(*)::int AS sent FROM auth_outbox
     WHERE project_ref = ANY($1) AND channel = 'email' AND created_at > now() - interval '1 hour' GROUP BY project_ref`,
    [refs],
  )
  return new Map(rows.map((row) => [row.ref, row.sent]))
}
