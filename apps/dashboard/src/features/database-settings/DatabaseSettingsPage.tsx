import { PageHeader } from '../../components/ui/PageHeader'
import { useCan } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { NetworkRestrictionsCard, SslEnforcementCard } from './NetworkAccessCards'
import { PostgresSettingsCard } from './PostgresSettingsCard'
import './database-settings.css'

const NEEDS_PERMISSION = 'You need additional permissions to change the infrastructure of this project'

/** /project/{ref}/settings/database: Postgres settings, network restrictions and SSL enforcement. */
export function DatabaseSettingsPage() {
  useProjectPageTitle('Database settings')
  const { ref, project } = useCurrentProject()
  const canWrite = useCan(project?.organization_slug, 'infrastructure.execute')
  return (
    <div className="page page-narrow">
      <PageHeader title="Database settings" description="How the project's Postgres server runs, and who may connect to it directly." />
      <div className="stack">
        <SslEnforcementCard projectRef={ref} canWrite={canWrite} reason={NEEDS_PERMISSION} />
        <NetworkRestrictionsCard projectRef={ref} canWrite={canWrite} reason={NEEDS_PERMISSION} />
        <PostgresSettingsCard projectRef={ref} canWrite={canWrite} reason={NEEDS_PERMISSION} />
      </div>
    </div>
  )
}
