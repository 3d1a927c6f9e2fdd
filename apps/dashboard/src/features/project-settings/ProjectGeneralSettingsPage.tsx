import { Card } from '../../components/ui/Card'
import { CopyField } from '../../components/ui/CopyField'
import { PageHeader } from '../../components/ui/PageHeader'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { formatDateTime } from '../../lib/format'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { AssistantPrivacyCard } from './AssistantPrivacyCard'
import { DeleteProjectCard } from './DeleteProjectCard'
import { ProjectAvailabilityCard } from './ProjectAvailabilityCard'
import { ProjectNameCard } from './ProjectNameCard'
import './project-settings.css'

/** What the project is (its name editable by Owners and Administrators), restart and pause, and the danger zone. */
export function ProjectGeneralSettingsPage() {
  useProjectPageTitle('General')
  const { project, organization } = useCurrentProject()
  if (!project) return null

  return (
    <div className="page page-narrow">
      <PageHeader title="Project settings" description="General information about this project, and its lifecycle." />
      <div className="stack">
        <ProjectNameCard project={project} />
        <Card title="Where it runs">
          <div className="settings-pair">
            <CopyField label="Region" value={project.region} mono={false} />
            <CopyField label="Postgres version" value={project.dbVersion || project.postgres_engine} mono={false} />
          </div>
          <div className="settings-pair">
            <CopyField label="Organization" value={organization?.name ?? project.organization_slug} mono={false} />
            <CopyField label="Created" value={formatDateTime(project.inserted_at)} mono={false} />
          </div>
        </Card>
        <ProjectAvailabilityCard project={project} />
        <AssistantPrivacyCard projectRef={project.ref} orgSlug={project.organization_slug} />
        <DeleteProjectCard project={project} organization={organization} />
      </div>
    </div>
  )
}
