import { AI_OPT_IN_LEVEL_LABELS } from '@stratum/contracts'
import { Link } from 'react-router'
import { Card } from '../../components/ui/Card'
import { Switch } from '../../components/ui/Switch'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useAssistantContext, useUpdateAssistantProject } from '../../data/assistant/context'
import { useCan } from '../../data/profile/useCan'

const CANNOT_CHANGE = 'You need additional permissions to change this project’s settings'

/** The project's side of what the AI assistant may see: the organization's level, and the HIPAA switch that sends nothing. */
export function AssistantPrivacyCard({ projectRef, orgSlug }: { projectRef: string; orgSlug: string }) {
  const context = useAssistantContext(projectRef)
  const update = useUpdateAssistantProject(projectRef)
  const canUpdate = useCan(orgSlug, 'projects.update')
  const toast = useToast()
  if (!context.data) return null
  const { opt_in_level: level, is_hipaa: hipaa } = context.data

  return (
    <Card
      title="AI assistant"
      description={
        <>
          Organization level: {AI_OPT_IN_LEVEL_LABELS[level]}. <Link to={`/org/${orgSlug}/general`}>Change it in the organization’s settings</Link>.
        </>
      }
    >
      <div className="row assistant-privacy-row">
        <div>
          <p className="assistant-privacy-title">HIPAA project</p>
          <p className="muted assistant-privacy-hint">
            Send no project metadata to the assistant: no schema, logs, rows or open snippet, whatever the organization’s level.
          </p>
        </div>
        <span className="spacer" />
        <Switch
          label="HIPAA project: send no project metadata (schema, logs, rows or the open snippet) to the assistant"
          checked={hipaa}
          busy={update.isPending}
          disabled={!canUpdate}
          disabledReason={CANNOT_CHANGE}
          onCheckedChange={(next) =>
            update.mutate(next, {
              onSuccess: () =>
                toast.success(next ? 'The assistant no longer receives this project’s metadata' : 'The assistant follows the organization’s level again'),
              onError: (error) => toast.error(`Failed to update the project: ${errorMessage(error)}`),
            })
          }
        />
      </div>
    </Card>
  )
}
