import { PERMISSION_TEXTS, type Organization, type Project } from '@stratum/contracts'
import { CircleAlert, Ellipsis, LifeBuoy, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { DeleteProjectDialog } from '../../components/project/DeleteProjectDialog'
import { DownloadBackupButton } from '../../components/project/DownloadBackupButton'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../components/ui/DropdownMenu'
import { Tooltip } from '../../components/ui/Tooltip'
import { useCan } from '../../data/profile/useCan'
import { supportLink } from '../../lib/support'
import { StatusScreen } from './StatusScreen'

interface FailureScreenProps {
  project: Project
  organization: Organization | undefined
  kind: 'pause' | 'restore'
}

/** PAUSE_FAILED and RESTORE_FAILED: the data is intact; support, a backup download, or deletion. */
export function FailureScreen({ project, organization, kind }: FailureScreenProps) {
  const [deleting, setDeleting] = useState(false)
  const canDelete = useCan(project.organization_slug, 'projects.update')
  const verb = kind === 'pause' ? 'pausing' : 'restoring'
  const support = supportLink({
    category: 'Database_unresponsive',
    ref: project.ref,
    subject: `Project ${project.name} failed while ${verb}`,
    message: [
      `Something went wrong while ${verb} the project ${project.name} (${project.ref}).`,
      `Status: ${project.status}`,
      project.status_reason ? `Reason: ${project.status_reason}` : null,
    ]
      .filter(Boolean)
      .join('\n'),
  })

  const deleteItem = (
    <DropdownMenuItem
      icon={<Trash2 size={14} />}
      disabled={!canDelete}
      onSelect={() => setDeleting(true)}
    >
      Delete project
    </DropdownMenuItem>
  )

  return (
    <StatusScreen
      tone="danger"
      icon={<CircleAlert size={20} />}
      title={`Something went wrong while ${verb} your project`}
      eyebrow={project.name}
      testId={`${kind}-failed-screen`}
      actions={
        <>
          <Link className="btn btn-primary btn-md" to={support}>
            <LifeBuoy size={14} aria-hidden="true" />
            Contact support
          </Link>
          <DownloadBackupButton projectRef={project.ref} orgSlug={project.organization_slug} label="Download backup" />
          <DropdownMenu>
            <DropdownMenuTrigger className="btn btn-secondary btn-md btn-icon" aria-label="More actions">
              <Ellipsis size={16} aria-hidden="true" />
            </DropdownMenuTrigger>
            <DropdownMenuContent align="start">
              {canDelete ? deleteItem : <Tooltip content={PERMISSION_TEXTS.deleteProject}>{deleteItem}</Tooltip>}
            </DropdownMenuContent>
          </DropdownMenu>
        </>
      }
    >
      <p>
        Your project's data is intact. The project cannot be used until this is resolved: contact support with the
        details below, or download a backup of its data.
      </p>
      {project.status_reason ? <pre className="status-screen-reason">{project.status_reason}</pre> : null}
      <DeleteProjectDialog project={project} organization={organization} open={deleting} onOpenChange={setDeleting} />
    </StatusScreen>
  )
}
