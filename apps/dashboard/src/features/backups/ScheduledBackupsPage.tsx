import type { Backup } from '@stratum/contracts'
import { Archive } from 'lucide-react'
import { DownloadBackupButton } from '../../components/project/DownloadBackupButton'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Card } from '../../components/ui/Card'
import { EmptyState } from '../../components/ui/EmptyState'
import { PageHeader } from '../../components/ui/PageHeader'
import { QueryState } from '../../components/ui/QueryState'
import { useBackups } from '../../data/backups/useBackups'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { formatBytes, formatDateTime, humanize } from '../../lib/format'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { TableHead } from '../../components/ui/TableHead'

export const NO_BACKUPS_FOR_DOWNLOAD = 'No backups available for download'

const STATUS_TONE = { COMPLETED: 'success', PENDING: 'info', FAILED: 'danger', REMOVED: 'neutral' } as const

function BackupRow({ backup, projectRef, orgSlug }: { backup: Backup; projectRef: string; orgSlug: string }) {
  const downloadable = !backup.isPhysicalBackup && backup.status === 'COMPLETED'
  return (
    <tr>
      <td className="nowrap">
        <time dateTime={backup.inserted_at}>{formatDateTime(backup.inserted_at)}</time>
      </td>
      <td>
        {backup.isPhysicalBackup ? (
          <Badge tone="neutral" title="A copy of the data directory, taken when the project was paused">
            Physical
          </Badge>
        ) : (
          <Badge tone="info" title="An SQL dump that loads into any empty Postgres">
            Logical
          </Badge>
        )}
      </td>
      <td>
        <Badge tone={STATUS_TONE[backup.status]}>{humanize(backup.status)}</Badge>
      </td>
      <td className="nowrap">{formatBytes(backup.size_bytes)}</td>
      <td className="nowrap">Postgres {backup.postgres_engine}</td>
      <td className="table-actions">
        {downloadable ? (
          <DownloadBackupButton projectRef={projectRef} orgSlug={orgSlug} backupId={backup.id} label="Download" size="sm" />
        ) : (
          <span className="faint">{backup.isPhysicalBackup ? 'Used to restore' : '—'}</span>
        )}
      </td>
    </tr>
  )
}

/** /project/{ref}/database/backups/scheduled: every backup of the project, logical ones downloadable. */
export function ScheduledBackupsPage() {
  useProjectPageTitle('Scheduled backups')
  const { ref, project } = useCurrentProject()
  const backups = useBackups(ref)
  const list = [...(backups.data?.backups ?? [])].sort((a, b) => b.inserted_at.localeCompare(a.inserted_at))
  const anyLogical = list.some((backup) => !backup.isPhysicalBackup)

  return (
    <div className="page">
      <PageHeader
        title="Scheduled backups"
        description="Backups of this project's database. Logical backups (SQL dumps) can be downloaded and loaded into any Postgres. They include storage's records (buckets, object names and metadata) but not the files themselves: download those with the storage archive on the Storage page."
      />
      <div className="stack">
        <QueryState
          query={backups}
          loadingLabel="Loading backups…"
          errorTitle="Could not load the backups"
          isEmpty={list.length === 0}
          empty={
            <Card>
              <EmptyState
                icon={<Archive size={22} />}
                title="No backups yet"
                description="A logical backup of the database is taken once a day, and a physical one each time the project is paused. The first one appears here after the next daily run."
              />
            </Card>
          }
        >
          {!anyLogical ? (
            <Alert tone="info" title={NO_BACKUPS_FOR_DOWNLOAD} live={false}>
              The backups listed here are physical copies of the data directory, taken when the project was paused: they
              are what a restore starts from and cannot be downloaded. Logical backups (SQL dumps you can download) are
              taken once a day; this project has none yet.
            </Alert>
          ) : null}
          <Card flush>
            <table className="table" aria-label="Backups">
              <TableHead columns={['Date', 'Kind', 'Status', 'Size', 'Version', { hidden: 'Actions' }]} />
              <tbody>
                {list.map((backup) => (
                  <BackupRow key={backup.id} backup={backup} projectRef={ref} orgSlug={project?.organization_slug ?? ''} />
                ))}
              </tbody>
            </table>
          </Card>
        </QueryState>
      </div>
    </div>
  )
}
