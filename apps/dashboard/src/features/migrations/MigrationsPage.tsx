import { ChevronDown, ChevronRight, FileCode2 } from 'lucide-react'
import { useState } from 'react'
import { Card } from '../../components/ui/Card'
import { EmptyState } from '../../components/ui/EmptyState'
import { PageHeader } from '../../components/ui/PageHeader'
import { QueryState } from '../../components/ui/QueryState'
import { LoadingState } from '../../components/ui/Spinner'
import { errorMessage } from '../../data/api'
import { useMigration, useMigrations, type MigrationSummary } from '../../data/migrations/migrations'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import './migrations.css'

/** 20241125103000 -> 2024-11-25 10:30:00 UTC, the moment the CLI's version format names. */
function versionTime(version: string): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(version)
  return match ? `${match[1]}-${match[2]}-${match[3]} ${match[4]}:${match[5]}:${match[6]} UTC` : null
}

function MigrationStatements({ projectRef, version }: { projectRef: string; version: string }) {
  const detail = useMigration(projectRef, version)
  if (detail.isPending) return <LoadingState label="Loading the statements…" />
  if (detail.isError) return <p className="migration-error">{errorMessage(detail.error)}</p>
  return (
    <div className="migration-statements">
      {detail.data.created_by ? <p className="muted">Applied by {detail.data.created_by}</p> : null}
      <pre className="mono">{detail.data.statements.join(';\n\n')}{detail.data.statements.length ? ';' : ''}</pre>
    </div>
  )
}

function MigrationRow({ projectRef, migration }: { projectRef: string; migration: MigrationSummary }) {
  const [open, setOpen] = useState(false)
  const time = versionTime(migration.version)
  return (
    <li className="migration-row">
      <button type="button" className="migration-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? <ChevronDown size={14} aria-hidden="true" /> : <ChevronRight size={14} aria-hidden="true" />}
        <span className="mono">{migration.version}</span>
        <span className="migration-name">{migration.name ?? 'Unnamed'}</span>
        {time ? <span className="muted migration-time">{time}</span> : null}
      </button>
      {open ? <MigrationStatements projectRef={projectRef} version={migration.version} /> : null}
    </li>
  )
}

/**
 * /project/{ref}/database/migrations: the migrations recorded in supabase_migrations.schema_migrations,
 * as the Supabase CLI and the MCP server's apply_migration write them, newest first, with their statements.
 */
export function MigrationsPage() {
  useProjectPageTitle('Migrations')
  const { ref } = useCurrentProject()
  const migrations = useMigrations(ref)
  const list = [...(migrations.data ?? [])].reverse()
  return (
    <div className="page">
      <PageHeader
        title="Migrations"
        description="Schema changes applied with the Supabase CLI (supabase db push), the Management API or an AI agent's apply_migration, recorded in supabase_migrations.schema_migrations."
      />
      <QueryState
        query={migrations}
        loadingLabel="Loading migrations…"
        errorTitle="Could not load the migrations"
        isEmpty={list.length === 0}
        empty={
          <EmptyState
            icon={<FileCode2 size={22} aria-hidden="true" />}
            title="No migrations yet"
            description="Run supabase db push, or POST /v1/projects/{ref}/database/migrations, to apply and record one."
          />
        }
      >
        <Card flush>
          <ul className="migration-list" aria-label="Migrations">
            {list.map((migration) => (
              <MigrationRow key={migration.version} projectRef={ref} migration={migration} />
            ))}
          </ul>
        </Card>
      </QueryState>
    </div>
  )
}
