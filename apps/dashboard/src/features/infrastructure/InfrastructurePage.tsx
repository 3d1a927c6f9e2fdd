import { USAGE_INTERVALS, type Project, type UsageInterval } from '@stratum/contracts'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { PageHeader } from '../../components/ui/PageHeader'
import { LoadingState } from '../../components/ui/Spinner'
import { useToast } from '../../components/ui/Toast'
import { TypedConfirmationDialog } from '../../components/ui/TypedConfirmationDialog'
import { errorMessage } from '../../data/api'
import { useCan } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useProjectUsage } from '../../data/usage/useProjectUsage'
import { useStartUpgrade, useUpgradeEligibility } from '../../data/usage/useUpgrade'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { UsageCharts } from './lazy'
import './infrastructure.css'

const INTERVAL_LABELS: Record<UsageInterval, string> = { '1h': 'Last hour', '1d': 'Last day', '7d': 'Last 7 days' }

function PostgresVersionCard({ project, version }: { project: Project; version: string }) {
  const toast = useToast()
  const permitted = useCan(project.organization_slug, 'infrastructure.execute')
  const eligibility = useUpgradeEligibility(project.ref)
  const upgrade = useStartUpgrade()
  const navigate = useNavigate()
  const [confirming, setConfirming] = useState(false)
  const target = eligibility.data?.target_upgrade_versions[0]
  const blockers = eligibility.data?.validation_errors ?? []
  const reason = !permitted
    ? 'You need additional permissions to upgrade this project'
    : project.status !== 'ACTIVE_HEALTHY'
      ? 'The project must be running to upgrade'
      : blockers.length
        ? 'Objects of this project cannot move to the new version: see below'
        : !eligibility.data?.eligible
          ? 'This project is on the latest Postgres version available here'
          : undefined
  return (
    <Card
      title="Postgres version"
      description="Major version upgrades run as an operation: the project is offline while its data moves to the new version."
      actions={
        <Button variant={target ? 'primary' : 'secondary'} disabled={Boolean(reason) || !target} disabledReason={reason} onClick={() => setConfirming(true)} data-testid="upgrade-button">
          {target ? `Upgrade to Postgres ${target.postgres_version}` : 'Upgrade'}
        </Button>
      }
    >
      <div className="infra-version">
        <span className="infra-version-number" data-testid="postgres-version">
          Postgres {version}
        </span>
        {eligibility.data && !target ? <Badge tone="success">Latest</Badge> : null}
        {target ? <Badge tone="warning">Postgres {target.postgres_version} available</Badge> : null}
      </div>
      {blockers.length ? (
        <ul className="infra-upgrade-blockers" data-testid="upgrade-blockers">
          {blockers.map((blocker) => (
            <li key={blocker.message}>{blocker.message}</li>
          ))}
        </ul>
      ) : null}
      {target ? (
        <TypedConfirmationDialog
          open={confirming}
          onOpenChange={setConfirming}
          title={`Upgrade to Postgres ${target.postgres_version}`}
          description={`${project.name} is offline while its data moves to Postgres ${target.postgres_version}. A failed upgrade leaves it on Postgres ${project.postgres_engine}.`}
          confirmString={project.name}
          confirmButton={`Upgrade to Postgres ${target.postgres_version}`}
          variant="primary"
          loading={upgrade.isPending}
          onConfirm={() =>
            upgrade.mutate(
              { ref: project.ref, targetVersion: target.postgres_version },
              {
                // The upgrade screen follows the operation by its tracking id, and shows its outcome after it.
                onSuccess: ({ tracking_id }) => {
                  setConfirming(false)
                  void navigate(`/project/${project.ref}?trackingId=${tracking_id}`)
                },
                onError: (error) => toast.error(`Failed to upgrade project: ${errorMessage(error)}`),
              },
            )
          }
        />
      ) : null}
    </Card>
  )
}

/** /project/{ref}/infrastructure: the instance's usage over time, its Postgres version and the upgrade. */
export function InfrastructurePage() {
  useProjectPageTitle('Infrastructure')
  const { ref, project } = useCurrentProject()
  const [interval, setInterval] = useState<UsageInterval>('1h')
  const usage = useProjectUsage(ref, interval)
  if (!project) return null
  return (
    <div className="page">
      <PageHeader title="Infrastructure" description="How much of its disk, CPU, memory, connections and disk IO this project's Postgres instance uses." />
      <div className="stack">
        <PostgresVersionCard project={project} version={usage.data?.postgres_version ?? project.dbVersion} />
        {usage.data?.readonly.enabled ? (
          <Alert tone="danger" title="Read-only mode is on">
            The disk has reached 95% of its size: writes are refused until the disk size is increased or data is deleted.
          </Alert>
        ) : null}
        <Card
          title="Usage"
          actions={
            <div className="infra-intervals" role="group" aria-label="Time range">
              {USAGE_INTERVALS.map((value) => (
                <Button key={value} size="sm" variant={value === interval ? 'primary' : 'ghost'} aria-pressed={value === interval} onClick={() => setInterval(value)}>
                  {INTERVAL_LABELS[value]}
                </Button>
              ))}
            </div>
          }
        >
          {usage.isPending ? (
            <LoadingState />
          ) : usage.error ? (
            <Alert tone="danger" title="Failed to retrieve usage">
              {errorMessage(usage.error)}
            </Alert>
          ) : usage.data.points.length === 0 ? (
            <p className="muted">No measurements yet: the instance is sampled every few seconds while it runs.</p>
          ) : (
            <UsageCharts usage={usage.data} />
          )}
        </Card>
      </div>
    </div>
  )
}
