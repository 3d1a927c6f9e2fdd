import {
  ORGANIZATION_CREATION,
  ORGANIZATION_CREATION_LABELS,
  PLAN_CHANGES,
  PLAN_CHANGES_LABELS,
  type InstallationSettings,
} from '@stratum/contracts'
import { Link } from 'react-router'
import { Card } from '../../components/ui/Card'
import { SelectField } from '../../components/ui/Field'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import {
  useInstallationSettings,
  useUpdateInstallationSettings,
} from '../../data/organizations/useInstallationSettings'

const ENVIRONMENT_HINT = 'Fixed by the platform’s environment.'

/** The installation's owner (its first account) decides who creates organizations and who changes plans. */
export function InstallationSettingsCard() {
  const toast = useToast()
  const settings = useInstallationSettings()
  const update = useUpdateInstallationSettings()
  const view = settings.data
  if (!view?.is_installation_owner) return null

  const change = (changes: Partial<InstallationSettings>) =>
    update.mutate(changes, {
      onSuccess: () => toast.success('Installation settings saved'),
      onError: (error) => toast.error('Failed to save the installation settings', errorMessage(error)),
    })
  const fixed = (name: keyof InstallationSettings) => view.set_by_environment.includes(name)

  return (
    <Card
      title="Installation"
      description="As the installation’s owner (its first account), you decide these for every account."
    >
      <div className="stack">
        <SelectField
          label="Who may create organizations"
          value={view.organization_creation}
          disabled={fixed('organization_creation') || update.isPending}
          hint={fixed('organization_creation') ? ENVIRONMENT_HINT : undefined}
          onChange={(event) =>
            change({ organization_creation: event.target.value as InstallationSettings['organization_creation'] })
          }
        >
          {ORGANIZATION_CREATION.map((option) => (
            <option key={option} value={option}>
              {ORGANIZATION_CREATION_LABELS[option]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Who may change an organization’s plan"
          value={view.plan_changes}
          disabled={fixed('plan_changes') || update.isPending}
          hint={
            fixed('plan_changes')
              ? ENVIRONMENT_HINT
              : 'With the installation’s owner, the free-project limit holds: they switch a plan from the organization’s Billing page, as a member of it.'
          }
          onChange={(event) => change({ plan_changes: event.target.value as InstallationSettings['plan_changes'] })}
        >
          {PLAN_CHANGES.map((option) => (
            <option key={option} value={option}>
              {PLAN_CHANGES_LABELS[option]}
            </option>
          ))}
        </SelectField>
        <p className="muted">
          The model behind the AI features: <Link to="/installation/ai">AI provider</Link>.
        </p>
      </div>
    </Card>
  )
}
