import { AI_OPT_IN_FLAG_OFF, AI_OPT_IN_LEVEL_LABELS, AI_OPT_IN_LEVELS, PERMISSION_TEXTS, type AiOptInLevel, type Organization } from '@stratum/contracts'
import { useState } from 'react'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { SelectField } from '../../components/ui/Field'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useUpdateOrganization } from '../../data/organizations/useUpdateOrganization'
import { useCan } from '../../data/profile/useCan'

/**
 * What the AI assistant may see of this organization's projects. The spec's rule: the update
 * permission, the installation's opt-in flag, and a value different from the current one.
 */
export function AssistantOptInCard({ organization }: { organization: Organization }) {
  const canUpdate = useCan(organization.slug, 'organizations.update')
  const update = useUpdateOrganization()
  const toast = useToast()
  const [draft, setDraft] = useState<AiOptInLevel | null>(null)
  const level = draft ?? organization.ai_opt_in_level
  const editable = canUpdate && organization.ai_opt_in_choosable
  const reason = !organization.ai_opt_in_choosable ? AI_OPT_IN_FLAG_OFF : canUpdate ? undefined : PERMISSION_TEXTS.updateOrganization

  const save = () =>
    update.mutate(
      { slug: organization.slug, ai_opt_in_level: level },
      {
        onSuccess: () => {
          setDraft(null)
          toast.success('Assistant opt-in level updated')
        },
        onError: (error) => toast.error(`Failed to update the opt-in level: ${errorMessage(error)}`),
      },
    )

  return (
    <Card
      title="AI assistant"
      description="What the assistant may read of this organization's projects to answer. HIPAA projects never send project metadata, whatever the level."
      footer={
        <Button variant="primary" loading={update.isPending} disabled={!editable || level === organization.ai_opt_in_level} disabledReason={reason} onClick={save}>
          Save
        </Button>
      }
    >
      <SelectField
        label="Opt-in level"
        value={level}
        disabled={!editable}
        hint={reason}
        onChange={(event) => setDraft(event.target.value as AiOptInLevel)}
      >
        {AI_OPT_IN_LEVELS.map((option) => (
          <option key={option} value={option}>
            {AI_OPT_IN_LEVEL_LABELS[option]}
          </option>
        ))}
      </SelectField>
    </Card>
  )
}
