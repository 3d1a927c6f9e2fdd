import type { Organization, Project } from '@stratum/contracts'
import { Alert } from '../../../components/ui/Alert'
import { usePauseStatus } from '../../../data/lifecycle/usePauseStatus'
import { formatDateInDays } from '../../../lib/format'
import { RestoreProjectButton } from './RestoreProjectButton'

/** INACTIVE, on the project home and settings pages, above the page itself. */
export function PausedBanner({ project, organization, narrow }: { project: Project; organization: Organization | undefined; narrow: boolean }) {
  const pause = usePauseStatus(project.ref)
  const remaining = pause.data?.remaining_days_till_restore_disabled
  return (
    <div className={`page status-banner-page ${narrow ? 'page-narrow' : ''}`} data-testid="paused-banner">
      <Alert
        tone="warning"
        title="This project is paused"
        live={false}
        actions={
          <RestoreProjectButton
            project={project}
            organization={organization}
            canRestore={pause.data?.can_restore ?? true}
            size="sm"
          />
        }
      >
        Its data is intact, but its database cannot be used until the project is restored.
        {pause.data && !pause.data.can_restore
          ? ` It has been paused for more than ${pause.data.max_days_till_restore_disabled} days and can no longer be restored from the dashboard; its backup stays downloadable.`
          : typeof remaining === 'number'
            ? ` It can be restored until ${formatDateInDays(remaining)}.`
            : null}
      </Alert>
    </div>
  )
}
