import { useQueryClient } from '@tanstack/react-query'
import { completedUpgradeSteps, UPGRADE_STATUS, UPGRADE_STEP_TEXTS, UPGRADE_STEPS, type Project } from '@stratum/contracts'
import { Check, CircleAlert, CircleCheck, LifeBuoy } from 'lucide-react'
import { useEffect, type ReactNode } from 'react'
import { Link, useSearchParams } from 'react-router'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { Tooltip } from '../../components/ui/Tooltip'
import { errorMessage } from '../../data/api'
import { projectKeys } from '../../data/projects/keys'
import { useUpgradeStatus } from '../../data/lifecycle/useUpgradeStatus'
import { formatTimestamp } from '../../lib/format'
import { supportLink } from '../../lib/support'
import { StatusScreen } from './StatusScreen'

type StepState = 'pending' | 'active' | 'done'
const STATE_TEXT: Record<StepState, string> = { pending: 'not started', active: 'in progress', done: 'completed' }
const STEP_WORDING: Record<StepState, 'initial' | 'active' | 'done'> = { pending: 'initial', active: 'active', done: 'done' }

function UpgradeSteps({ completed, running }: { completed: number; running: boolean }) {
  return (
    <ol className="upgrade-steps" aria-label="Upgrade steps">
      {UPGRADE_STEPS.map((step, index) => {
        const state: StepState = index < completed ? 'done' : index === completed && running ? 'active' : 'pending'
        return (
          <li key={step} className="upgrade-step" data-state={state}>
            <span className="upgrade-step-icon" aria-hidden="true">
              {state === 'done' ? <Check size={12} /> : state === 'active' ? <Spinner size={12} /> : null}
            </span>
            <span>
              {UPGRADE_STEP_TEXTS[step][STEP_WORDING[state]]}
              <span className="visually-hidden"> ({STATE_TEXT[state]})</span>
            </span>
          </li>
        )
      })}
    </ol>
  )
}

function StartedAt({ iso }: { iso: string }) {
  return (
    <p className="upgrade-started status-screen-hint">
      Started on{' '}
      <Tooltip content={`${formatTimestamp(iso, 'local')} (local time)`}>
        <time dateTime={iso} tabIndex={0}>
          {formatTimestamp(iso, 'utc')} (UTC)
        </time>
      </Tooltip>
    </p>
  )
}

interface UpgradingScreenProps {
  project: Project
  onReturn: () => void
  /** Show only a finished upgrade's outcome; otherwise (unknown or still loading) the children. */
  outcomeOnly?: boolean
  children?: ReactNode
}

/** UPGRADING: the major-version upgrade's progress, read by ?trackingId, then its outcome. */
export function UpgradingScreen({ project, onReturn, outcomeOnly = false, children }: UpgradingScreenProps) {
  const [params] = useSearchParams()
  const queryClient = useQueryClient()
  const query = useUpgradeStatus(project.ref, params.get('trackingId'))
  const upgrade = query.data?.databaseUpgradeStatus ?? null
  const status = upgrade?.status
  const progress = upgrade?.progress
  const completed = completedUpgradeSteps(progress)
  const upgraded = status === UPGRADE_STATUS.Upgraded
  const failed = status === UPGRADE_STATUS.Failed
  const backingUp =
    status === UPGRADE_STATUS.Upgrading && (progress === '9_completed_upgrade' || progress === '10_completed_post_physical_backup')
  const target = upgrade ? `Postgres ${upgrade.target_version}` : 'a new Postgres version'

  // Upgraded: the project's version (and what depends on it) changed.
  useEffect(() => {
    if (upgraded) void queryClient.invalidateQueries({ queryKey: projectKeys.detail(project.ref) })
  }, [upgraded, project.ref, queryClient])

  if (outcomeOnly && !upgraded && !failed) return <>{children}</>

  const returnButton = (
    <Button variant={failed ? 'secondary' : 'primary'} onClick={onReturn}>
      Return to project
    </Button>
  )

  if (failed && upgrade) {
    const support = supportLink({
      category: 'Database_unresponsive',
      ref: project.ref,
      subject: `Upgrade of ${project.name} to Postgres ${upgrade.target_version} failed`,
      message: [
        `Upgrade initiated at: ${upgrade.initiated_at}`,
        `Target version: ${upgrade.target_version}`,
        `Error: ${upgrade.error_message ?? 'not reported'}`,
        ...(upgrade.error ? [`Error code: ${upgrade.error}`] : []),
      ].join('\n'),
    })
    return (
      <StatusScreen
        tone="danger"
        icon={<CircleAlert size={20} />}
        title="We ran into an issue while upgrading your project"
        eyebrow={project.name}
        testId="upgrade-failed-screen"
        actions={
          <>
            <Link className="btn btn-primary btn-md" to={support}>
              <LifeBuoy size={14} aria-hidden="true" />
              Contact support
            </Link>
            {returnButton}
          </>
        }
      >
        <p>
          Your project is back online and its data is not affected. Contact support and we will help you complete the
          upgrade to {target}.
        </p>
        {/* The recorded reason in plain words; the Management API's code (misspelt in its own document) goes only to support. */}
        {upgrade.error_message ? (
          <p className="status-screen-reason" data-testid="upgrade-failure-reason">
            {upgrade.error_message}
          </p>
        ) : null}
        <StartedAt iso={upgrade.initiated_at} />
      </StatusScreen>
    )
  }

  if (upgraded && upgrade) {
    return (
      <StatusScreen
        tone="success"
        icon={<CircleCheck size={20} />}
        title="Upgrade completed!"
        eyebrow={project.name}
        testId="upgrade-complete-screen"
        actions={returnButton}
      >
        <p>
          Your project has been upgraded to <strong>{target}</strong> and is back online.
        </p>
        <StartedAt iso={upgrade.initiated_at} />
      </StatusScreen>
    )
  }

  return (
    <StatusScreen
      tone="progress"
      title={backingUp ? 'Performing a full backup' : 'Upgrading in progress'}
      eyebrow={project.name}
      progress
      testId="upgrading-screen"
      // The project is back while the upgrade status lags (or cannot be read): let the user go on.
      actions={project.status !== 'UPGRADING' ? returnButton : undefined}
    >
      <p>
        {backingUp
          ? `The upgrade to ${target} is complete. A full backup of the upgraded database is being taken; your project is back online.`
          : `Your project is being upgraded to ${target}. It is offline while the upgrade runs, which can take a while depending on the size of your database.`}
      </p>
      {query.isError ? (
        <Alert tone="warning" title="The upgrade's progress is not available" live={false}>
          {errorMessage(query.error)}
        </Alert>
      ) : null}
      <UpgradeSteps completed={backingUp ? UPGRADE_STEPS.length : completed} running={!backingUp && Boolean(upgrade)} />
      {upgrade ? <StartedAt iso={upgrade.initiated_at} /> : <p className="upgrade-started status-screen-hint">Reading the upgrade's progress…</p>}
    </StatusScreen>
  )
}
