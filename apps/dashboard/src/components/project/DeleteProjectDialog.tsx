import { useQueryClient } from '@tanstack/react-query'
import type { Organization, Project } from '@stratum/contracts'
import { useId, useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { Alert } from '../ui/Alert'
import { Button } from '../ui/Button'
import { Dialog } from '../ui/Dialog'
import { TextAreaField } from '../ui/Field'
import { useToast } from '../ui/Toast'
import { ConfirmTextField, useConfirmText } from '../ui/TypedConfirmationDialog'
import { errorMessage } from '../../data/api'
import { useBranches } from '../../data/branches/useBranches'
import { useSendExitSurvey } from '../../data/feedback/useSendExitSurvey'
import { forgetProject, useDeleteProject } from '../../data/projects/useDeleteProject'
import './delete-project.css'
import { Checkbox } from '../ui/Checkbox'

export const SURVEY_REASON_REQUIRED = 'Please select a reason for deleting your project'

/** The exit survey's reasons (asked on paid plans only). */
export const EXIT_REASONS = [
  'The project was only a test or is finished',
  'Too expensive',
  'Missing a feature I need',
  'Hard to use',
  'Performance or reliability problems',
  'Moving to another product',
  'Other',
] as const

interface Survey {
  reasons: string[]
  additionalFeedback: string
}

interface DeleteFormProps {
  id: string
  project: Project
  askReason: boolean
  onConfirm: (survey: Survey | null) => void
}

/** Inside the dialog's content: every field starts empty each time the dialog opens. */
function DeleteForm({ id, project, askReason, onConfirm }: DeleteFormProps) {
  const name = useConfirmText(project.name)
  const [reasons, setReasons] = useState<string[]>([])
  const [feedback, setFeedback] = useState('')
  const [reasonChecked, setReasonChecked] = useState(false)
  const reasonError = askReason && reasonChecked && reasons.length === 0 ? SURVEY_REASON_REQUIRED : undefined
  const errorId = `${id}-reason-error`

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setReasonChecked(true)
    const nameMatches = name.check()
    if (askReason && reasons.length === 0) return
    if (!nameMatches) return
    onConfirm(askReason ? { reasons, additionalFeedback: feedback.trim() } : null)
  }

  const toggle = (reason: string, on: boolean) =>
    setReasons((all) => (on ? [...all, reason] : all.filter((item) => item !== reason)))

  return (
    <form id={id} onSubmit={submit} noValidate className="stack">
      <Alert tone="danger" title="This action cannot be undone" live={false}>
        The project <strong>{project.name}</strong>, its Postgres database and all of its backups are removed
        permanently.
      </Alert>
      <PreviewBranchesDeleted projectRef={project.ref} />
      {askReason ? (
        <fieldset className="exit-survey" aria-describedby={reasonError ? errorId : undefined}>
          <legend className="field-label">Why are you deleting this project?</legend>
          <p className="field-hint">Select at least one reason. It helps us improve Stratum.</p>
          <div className="exit-survey-reasons">
            {EXIT_REASONS.map((reason) => (
              <Checkbox key={reason} label={reason} checked={reasons.includes(reason)} onCheckedChange={(checked) => toggle(reason, checked)} />
            ))}
          </div>
          {reasonError ? (
            <div className="field-error" id={errorId} role="alert">
              {reasonError}
            </div>
          ) : null}
          <TextAreaField
            label="Anything else you would like to tell us? (optional)"
            value={feedback}
            onChange={(event) => setFeedback(event.target.value)}
            rows={3}
          />
        </fieldset>
      ) : null}
      <ConfirmTextField
        required={project.name}
        state={name}
        label={
          <>
            Type <strong className="confirm-required">{project.name}</strong> to confirm.
          </>
        }
      />
    </form>
  )
}

/** A project with branching enabled takes its preview branches with it: they are named before the confirmation. */
function PreviewBranchesDeleted({ projectRef }: { projectRef: string }) {
  const branches = useBranches(projectRef)
  const previews = (branches.data ?? []).filter((branch) => !branch.is_default)
  if (previews.length === 0) return null
  return (
    <Alert tone="warning" title={`${previews.length === 1 ? 'This preview branch is' : `These ${previews.length} preview branches are`} deleted with it`} live={false}>
      <ul className="delete-project-branches" aria-label="Preview branches deleted with the project">
        {previews.map((branch) => (
          <li key={branch.id}>
            <strong>{branch.name}</strong>
            {branch.git_branch ? <span className="faint"> (Git branch {branch.git_branch})</span> : null}
          </li>
        ))}
      </ul>
    </Alert>
  )
}

interface DeleteProjectDialogProps {
  project: Project
  organization: Organization | undefined
  open: boolean
  onOpenChange: (open: boolean) => void
}

/**
 * Deleting a project: the exact project name must be typed; on paid plans a reason is required
 * too. The survey is sent first and its failure ignored; after the deletion the user lands on
 * the organization's project list.
 */
export function DeleteProjectDialog({ project, organization, open, onOpenChange }: DeleteProjectDialogProps) {
  const formId = useId()
  const toast = useToast()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const remove = useDeleteProject()
  const survey = useSendExitSurvey()
  const askReason = organization?.plan === 'pro'
  const busy = remove.isPending || survey.isPending
  const orgSlug = project.organization_slug

  const confirm = async (answers: Survey | null) => {
    if (answers) {
      await survey
        .mutateAsync({ projectRef: project.ref, orgSlug, exitAction: 'delete', ...answers })
        .catch(() => undefined)
    }
    remove.mutate(
      { ref: project.ref },
      {
        onSuccess: async () => {
          toast.success(`Successfully deleted ${project.name}`)
          onOpenChange(false)
          await navigate(`/org/${orgSlug}`)
          forgetProject(queryClient, project.ref)
        },
        onError: (error) => toast.error(`Failed to delete project: ${errorMessage(error)}`),
      },
    )
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (busy && !next ? undefined : onOpenChange(next))}
      title={`Confirm deletion of ${project.name}`}
      footer={
        <>
          <Button onClick={() => onOpenChange(false)} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant="danger" loading={busy}>
            Delete project
          </Button>
        </>
      }
    >
      <DeleteForm id={formId} project={project} askReason={askReason} onConfirm={(answers) => void confirm(answers)} />
    </Dialog>
  )
}
