import type { PgMetaPublication } from '@stratum/contracts'
import { Megaphone } from 'lucide-react'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { EmptyState } from '../../components/ui/EmptyState'
import { QueryError } from '../../components/ui/QueryState'
import { LoadingState } from '../../components/ui/Spinner'
import { Switch } from '../../components/ui/Switch'
import { TableHead } from '../../components/ui/TableHead'
import { databaseAdminKeys } from '../../data/database-admin/keys'
import { usePublications } from '../../data/database-admin/usePublications'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { PublicationTables } from './PublicationTables'
import { buildSetPublicationEvents, PUBLICATION_EVENTS, type PublicationEvent } from './sql/publications'
import { DatabasePage, READ_ONLY_REASON, useDatabasePage, useUrlParam } from '../database-pages'
import './database-admin.css'

/** The role users act as: the publications it owns are theirs to change (the platform's own are not). */
const USER_ROLE = 'postgres'

function publishes(publication: PgMetaPublication, event: PublicationEvent): boolean {
  const flags: Record<PublicationEvent, boolean> = {
    insert: publication.publish_insert,
    update: publication.publish_update,
    delete: publication.publish_delete,
    truncate: publication.publish_truncate,
  }
  return flags[event]
}

const publishedEvents = (publication: PgMetaPublication): PublicationEvent[] => PUBLICATION_EVENTS.filter((event) => publishes(publication, event))

/** Why a publication's switches are off for this member, or undefined when they may change it. */
function publicationLock(publication: PgMetaPublication, canWrite: boolean): string | undefined {
  if (!canWrite) return READ_ONLY_REASON
  if (publication.owner !== USER_ROLE) return `Owned by ${publication.owner}: the platform manages this publication`
  return undefined
}

/** /project/{ref}/database/publications: each publication's events and tables (supabase_realtime drives Realtime). */
export function PublicationsPage() {
  useProjectPageTitle('Publications')
  const page = useDatabasePage(databaseAdminKeys.all)
  const { ref, canWrite, preview } = page
  const publications = usePublications(ref)
  const [selectedName, select] = useUrlParam('publication')
  const selected = publications.data?.find((publication) => publication.name === selectedName)

  const toggleEvent = (publication: PgMetaPublication, event: PublicationEvent, on: boolean) => {
    const events = publishedEvents(publication).filter((item) => item !== event)
    preview({
      title: `${on ? 'Publish' : 'Stop publishing'} ${event} in ${publication.name}`,
      sql: buildSetPublicationEvents(publication.name, on ? [...events, event] : events),
      done: `Publication ${publication.name} updated`,
    })
  }

  return (
    <DatabasePage
      title="Publications"
      description="A publication names the tables and the kinds of change that logical replication sends. Realtime streams the changes of the tables in supabase_realtime."
      page={page}
    >
      {publications.isPending ? (
        <LoadingState label="Loading publications…" />
      ) : publications.isError ? (
        <QueryError query={publications} title="Could not load the publications" />
      ) : publications.data.length === 0 ? (
        <Card>
          <EmptyState icon={<Megaphone size={22} />} title="No publications" description="Create one in the SQL editor with CREATE PUBLICATION." />
        </Card>
      ) : (
        <Card flush>
          <table className="table dba-table" aria-label="Publications">
            <TableHead columns={['Name', 'Owner', ...PUBLICATION_EVENTS.map(capitalise), 'Tables', { hidden: 'Actions' }]} />
            <tbody>
              {publications.data.map((publication) => {
                const lock = publicationLock(publication, canWrite)
                return (
                  <tr key={publication.id} aria-selected={publication.name === selectedName || undefined}>
                    <td className="mono nowrap">{publication.name}</td>
                    <td className="mono nowrap">{publication.owner}</td>
                    {PUBLICATION_EVENTS.map((event) => (
                      <td key={event} className="dba-actions">
                        <Switch
                          label={`${capitalise(event)} events of ${publication.name}`}
                          checked={publishes(publication, event)}
                          disabled={Boolean(lock)}
                          disabledReason={lock}
                          onCheckedChange={(on) => toggleEvent(publication, event, on)}
                        />
                      </td>
                    ))}
                    <td className="nowrap">
                      {publication.tables === null ? (
                        <Badge tone="info">All tables</Badge>
                      ) : (
                        `${publication.tables.length} ${publication.tables.length === 1 ? 'table' : 'tables'}`
                      )}
                    </td>
                    <td className="dba-actions">
                      <Button size="sm" onClick={() => select(publication.name)} aria-label={`Tables of ${publication.name}`}>
                        Tables
                      </Button>
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </Card>
      )}
      {selected ? <PublicationTables projectRef={ref} publication={selected} lock={publicationLock(selected, canWrite)} onPreview={preview} /> : null}
    </DatabasePage>
  )
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
