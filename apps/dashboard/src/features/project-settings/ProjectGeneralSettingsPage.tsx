import { Card } from '../../components/ui/Card'
import { CopyField } from '../../components/ui/CopyField'
import { PageHeader } from '../../components/ui/PageHeader'
import { Alert } from '../../components/ui/Alert'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { formatDateTime } from '../../lib/format'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'

/** Read-only for now: what the project is. Editing (rename, pause, delete) comes later. */
export function ProjectGeneralSettingsPage() {
  useProjectPageTitle('General')
  const { project, organization } = useCurrentProject()
  if (!project) return null

  return (
    <div className="page page-narrow">
      <PageHeader title="Project settings" description="General information about this project." />
      <div className="stack">
        <Card title="General">
          <CopyField label="Project name" value={project.name} mono={false} />
          <CopyField label="Project ID" value={project.ref} hint="The project ref: used in URLs and by the API." />
          <CopyField label="Region" value={project.region} mono={false} />
          <CopyField label="Organization" value={organization?.name ?? project.organization_slug} mono={false} />
          <CopyField label="Created" value={formatDateTime(project.inserted_at)} mono={false} />
        </Card>
        <Alert tone="info" title="Editing comes in a later release">
          Renaming, pausing and deleting the project arrive with the project lifecycle release. These details are read-only
          until then.
        </Alert>
      </div>
    </div>
  )
}
