import { PERMISSION_TEXTS, type Organization, type Project } from '@stratum/contracts'
import { Trash2 } from 'lucide-react'
import { useState } from 'react'
import { DeleteProjectDialog } from '../../components/project/DeleteProjectDialog'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { useCan } from '../../data/profile/useCan'

/** The danger zone: deleting the project, for roles that may update projects. */
export function DeleteProjectCard({ project, organization }: { project: Project; organization: Organization | undefined }) {
  const permitted = useCan(project.organization_slug, 'projects.update')
  const [open, setOpen] = useState(false)
  return (
    <Card className="card-danger" title="Delete project" description="Permanently remove this project, its database and its backups.">
      <div className="settings-row">
        <div className="settings-row-text">
          <p className="muted">Deleting cannot be undone. Make sure you have a copy of any data you want to keep.</p>
        </div>
        <Button
          variant="danger"
          icon={<Trash2 size={14} aria-hidden="true" />}
          disabled={!permitted}
          disabledReason={PERMISSION_TEXTS.deleteProject}
          onClick={() => setOpen(true)}
        >
          Delete project
        </Button>
      </div>
      <DeleteProjectDialog project={project} organization={organization} open={open} onOpenChange={setOpen} />
    </Card>
  )
}
