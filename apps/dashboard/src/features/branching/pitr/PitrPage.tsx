import { History } from 'lucide-react'
import { Link } from 'react-router'
import { Card } from '../../../components/ui/Card'
import { EmptyState } from '../../../components/ui/EmptyState'
import { PageHeader } from '../../../components/ui/PageHeader'
import { QueryState } from '../../../components/ui/QueryState'
import { selectedPitr, useProjectAddons } from '../../../data/addons/useProjectAddons'
import { usePitrWindow } from '../../../data/addons/usePitrWindow'
import { useCurrentProject } from '../../../data/projects/useCurrentProject'
import { useProjectPageTitle } from '../../../lib/useProjectPageTitle'
import { pitrAddonUrl } from '../links'
import { unixToIso, windowBounds } from '../pointInTime'
import { UtcTime } from '../UtcTime'
import { RestorePointCard } from './RestorePointCard'
import '../branching.css'

function PitrNotEnabled({ projectRef }: { projectRef: string }) {
  return (
    <Card>
      <EmptyState
        icon={<History size={22} />}
        title="Point in time recovery is not enabled"
        description="With the PITR add-on the project's WAL is archived continuously: restore the database to any second of the retention window, or make a branch from a past moment."
        action={
          <Link className="btn btn-primary btn-md" to={pitrAddonUrl(projectRef)}>
            Enable PITR
          </Link>
        }
      />
    </Card>
  )
}

function PitrEnabled({ projectRef, retention }: { projectRef: string; retention: string }) {
  const pitrWindow = usePitrWindow(projectRef)
  const bounds = windowBounds(pitrWindow.data?.physical_backup_data)
  return (
    <QueryState query={pitrWindow} loadingLabel="Loading the recoverable window…" errorTitle="Failed to retrieve the recoverable window" isEmpty={false} empty={null}>
      <Card title="Recoverable window" description={`Add-on: ${retention}. The window grows as WAL is archived, up to the retention.`}>
        {bounds ? (
          <dl className="branch-facts" data-testid="pitr-window">
            <div>
              <dt>Earliest</dt>
              <dd>
                <UtcTime iso={unixToIso(bounds.earliest)} />
              </dd>
            </div>
            <div>
              <dt>Latest</dt>
              <dd>
                <UtcTime iso={unixToIso(bounds.latest)} />
              </dd>
            </div>
          </dl>
        ) : (
          <p className="muted">The first base backup is being taken: the window opens once it is done.</p>
        )}
      </Card>
      {bounds ? <RestorePointCard projectRef={projectRef} bounds={bounds} /> : null}
    </QueryState>
  )
}

/** /project/{ref}/database/backups/pitr: the recoverable window, then restore or branch from a chosen moment. */
export function PitrPage() {
  useProjectPageTitle('Point in time')
  const { ref } = useCurrentProject()
  const addons = useProjectAddons(ref)
  const current = selectedPitr(addons.data)
  return (
    <div className="page page-narrow">
      <PageHeader title="Point in time recovery" description="Restore this project's database to a moment in the past, or copy that moment into a new branch." />
      <div className="stack">
        <QueryState query={addons} loadingLabel="Loading add-ons…" errorTitle="Failed to retrieve add-ons" isEmpty={current === undefined} empty={<PitrNotEnabled projectRef={ref} />}>
          {current ? <PitrEnabled projectRef={ref} retention={current.name} /> : null}
        </QueryState>
      </div>
    </div>
  )
}
