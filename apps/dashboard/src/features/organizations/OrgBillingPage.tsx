import { INSTALLATION_TEXTS, PERMISSION_TEXTS, mayChangePlan, type Plan } from '@stratum/contracts'
import { useParams } from 'react-router'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useOrganization } from '../../data/organizations/useOrganization'
import { useUpdateSubscription } from '../../data/organizations/useUpdateSubscription'
import { useInstallationSettings } from '../../data/organizations/useInstallationSettings'
import { useOrgRole } from '../../data/profile/useCan'
import { usePageTitle } from '../../lib/usePageTitle'

const PLANS: { plan: Plan; name: string; points: string[] }[] = [
  {
    plan: 'free',
    name: 'Free',
    points: ['Projects, members and access tokens', 'No database branching'],
  },
  {
    plan: 'pro',
    name: 'Pro',
    points: ['Everything in Free', 'Database branching', 'Add-ons such as point-in-time recovery'],
  },
]

export function OrgBillingPage() {
  const { slug = '' } = useParams()
  const { data: organization } = useOrganization(slug)
  usePageTitle(['Billing', organization?.name])
  // An installation setting decides who changes plans: its owner (the default) or each organization's owners.
  const settings = useInstallationSettings()
  const role = useOrgRole(slug)
  const canChange = settings.data !== undefined && role !== undefined && mayChangePlan(settings.data, role)
  const deniedReason =
    settings.data?.plan_changes === 'installation_owner' ? INSTALLATION_TEXTS.changePlan : PERMISSION_TEXTS.changePlan
  const update = useUpdateSubscription()
  const toast = useToast()

  const choose = (plan: Plan, name: string) =>
    update.mutate(
      { slug, plan },
      {
        onSuccess: () => toast.success(`The organization is now on the ${name} plan`),
        onError: (error) => toast.error('Failed to change the plan', errorMessage(error)),
      },
    )

  return (
    <section aria-labelledby="plan-heading" className="stack">
      <div className="stack-sm">
        <h2 id="plan-heading">Plan</h2>
        <Alert tone="info">
          Stratum does not process payments. The plan only decides which features this organization may use; it can be
          switched at any time (by the installation&apos;s owner, or by the organization&apos;s owners if the
          installation allows it), and nothing is charged.
        </Alert>
      </div>
      <div className="plan-grid">
        {PLANS.map(({ plan, name, points }) => {
          const current = organization?.plan === plan
          return (
            <div key={plan} className="plan-card" data-current={current} aria-labelledby={`plan-${plan}`} role="group">
              <div className="row">
                <h3 id={`plan-${plan}`}>{name}</h3>
                {current ? <Badge tone="success">Current plan</Badge> : null}
              </div>
              <ul>
                {points.map((point) => (
                  <li key={point}>{point}</li>
                ))}
              </ul>
              {current ? null : (
                <Button
                  variant={plan === 'pro' ? 'primary' : 'secondary'}
                  loading={update.isPending && update.variables?.plan === plan}
                  disabled={!canChange || update.isPending}
                  disabledReason={canChange ? undefined : deniedReason}
                  onClick={() => choose(plan, name)}
                >
                  Switch to {name}
                </Button>
              )}
            </div>
          )
        })}
      </div>
    </section>
  )
}
