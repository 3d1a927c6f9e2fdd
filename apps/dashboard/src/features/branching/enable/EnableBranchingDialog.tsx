import { DEFAULT_PRODUCTION_BRANCH_NAME } from '@stratum/contracts'
import { useId, type FormEvent } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { Button } from '../../../components/ui/Button'
import { Dialog } from '../../../components/ui/Dialog'
import { useToast } from '../../../components/ui/Toast'
import { useHasPitr } from '../../../data/addons/useProjectAddons'
import { errorMessage } from '../../../data/api'
import { useEnableBranching } from '../../../data/branches/useEnableBranching'
import { useGitHubConnectionsQuery } from '../../../data/github/connections-query'
import { useCurrentProject } from '../../../data/projects/useCurrentProject'
import { featureFlag } from '../../../lib/featureFlags'
import { useValidatedField } from '../useValidatedField'
import { branchNameError, gitBranchError, postgresMajor, versionTooOld } from '../validation'
import { EnableBranchingFields } from './EnableBranchingFields'
import { useGitBranchCheck } from './useGitBranchCheck'
import '../branching.css'

export const ENABLE_BRANCHING_TITLE = 'Enable database branching'
export const ENABLE_BRANCHING_SUBMIT = 'I understand, enable branching'

interface EnableBranchingDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
}

/** Mounted only while open, so every opening starts from the defaults (main, no Git branch, nothing validated). */
function OpenEnableBranchingDialog({ onOpenChange }: { onOpenChange: (open: boolean) => void }) {
  const formId = useId()
  const toast = useToast()
  const navigate = useNavigate()
  const { search } = useLocation()
  const { ref, project, organization } = useCurrentProject()
  const connections = useGitHubConnectionsQuery(organization?.id)
  const connection = connections.data?.find((candidate) => candidate.project.ref === ref)
  const hasPitr = useHasPitr(ref)
  const withoutGit = featureFlag('branchingWithoutGit', search)
  const enable = useEnableBranching()

  const branchName = useValidatedField(DEFAULT_PRODUCTION_BRANCH_NAME, branchNameError)
  const gitBranch = useValidatedField('', (value) => gitBranchError(value, connection !== undefined))
  const check = useGitBranchCheck(connection?.id, connection ? gitBranch.value : '')

  const major = project ? postgresMajor(project) : undefined
  const freePlan = organization?.plan === 'free'
  const connected = connection !== undefined
  const loading = !project || !organization || connections.isLoading || check.state === 'checking' || enable.isPending
  const valid = branchName.valid && (!connected || (gitBranch.valid && check.verifiedBranch !== undefined))
  const canSubmit = !freePlan && !versionTooOld(major) && valid && !loading && (withoutGit || connected)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const nameValid = branchName.check()
    const gitValid = connected ? gitBranch.check() : true
    if (!canSubmit || !nameValid || !gitValid) return
    enable.mutate(
      { projectRef: ref, branchName: branchName.value.trim(), gitBranch: check.verifiedBranch },
      {
        onSuccess: async () => {
          toast.success('Successfully enabled branching')
          onOpenChange(false)
          await navigate(`/project/${ref}/branches`)
        },
        onError: (error) => toast.error(`Failed to enable branching: ${errorMessage(error)}`),
      },
    )
  }

  return (
    <Dialog
      open
      onOpenChange={(next) => (enable.isPending && !next ? undefined : onOpenChange(next))}
      title={ENABLE_BRANCHING_TITLE}
      footer={
        <>
          <Button onClick={() => onOpenChange(false)} disabled={enable.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant="primary" disabled={!canSubmit} loading={enable.isPending}>
            {ENABLE_BRANCHING_SUBMIT}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        <EnableBranchingFields
          projectRef={ref}
          orgSlug={project?.organization_slug ?? ''}
          freePlan={freePlan}
          postgresMajor={major}
          branchName={branchName}
          gitBranch={gitBranch}
          checkState={check.state}
          connection={connection}
          connectionsLoading={connections.isLoading}
          connectionsFailed={connections.isError}
          withoutGit={withoutGit}
          hasPitr={hasPitr}
        />
      </form>
    </Dialog>
  )
}

/** The spec's enable-branching dialog; on success: the toast, the dialog closes, and the Branches page. */
export function EnableBranchingDialog({ open, onOpenChange }: EnableBranchingDialogProps) {
  return open ? <OpenEnableBranchingDialog onOpenChange={onOpenChange} /> : null
}
