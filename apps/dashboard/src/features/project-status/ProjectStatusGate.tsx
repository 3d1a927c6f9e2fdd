import { useQueryClient } from '@tanstack/react-query'
import type { Organization, Project, ProjectStatus } from '@stratum/contracts'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { useToast } from '../../components/ui/Toast'
import { projectKeys } from '../../data/projects/keys'
import { useDatabaseHealth } from '../../data/projects/useDatabaseHealth'
import { ConnectingScreen } from './ConnectingScreen'
import { FailureScreen } from './FailureScreen'
import { PausingScreen, ResizingScreen, RestartingScreen } from './OperationScreens'
import { PausedBanner } from './paused/PausedBanner'
import { PausedScreen } from './paused/PausedScreen'
import { RestoringScreen } from './RestoringScreen'
import {
  isBackupsRoute, isHomeRoute, needsDatabase, pageName, showsConnecting, showsPausedScreen,
} from './routes'
import { SetupScreen } from './SetupScreen'
import { UpgradingScreen } from './UpgradingScreen'
import { useLatestSearchParams } from '../../lib/useLatestSearchParams'

type Finished = 'restore' | 'upgrade' | null

interface ProjectStatusGateProps {
  project: Project
  organization: Organization | undefined
  /** The path after /project/{ref}: '' for home, '/settings/general'... */
  route: string
  children: ReactNode
}

/**
 * Chooses what the main panel shows for the project's status: the page itself, or a takeover
 * screen (spec "Takeover screens"). The restore and upgrade screens stay after the project is
 * back, with their outcome, until the user returns to the project. Render it keyed by project.
 */
export function ProjectStatusGate({ project, organization, route, children }: ProjectStatusGateProps) {
  const status = project.status
  const queryClient = useQueryClient()
  const [params, setParams] = useLatestSearchParams()
  const [previous, setPrevious] = useState<ProjectStatus>(status)
  const [finished, setFinished] = useState<Finished>(null)
  useReadyToast(status)
  const health = useDatabaseHealth(project.ref, status === 'ACTIVE_HEALTHY' && showsConnecting(route))
  const wasUnreachable = useRef(false)
  // Once the database answers again, the cached project data is refreshed (the project shell spec's status transitions).
  useEffect(() => {
    if (health.data?.healthy === false) wasUnreachable.current = true
    else if (health.data?.healthy && wasUnreachable.current) {
      wasUnreachable.current = false
      void queryClient.invalidateQueries({ queryKey: projectKeys.all })
    }
  }, [health.data?.healthy, queryClient])

  // Adjusting state on a status change, during render (no extra paint with the wrong screen).
  if (previous !== status) {
    setPrevious(status)
    if (previous === 'RESTORING' && status === 'ACTIVE_HEALTHY' && needsDatabase(route)) setFinished('restore')
    else if (previous === 'UPGRADING' && !isBackupsRoute(route)) setFinished('upgrade')
    else if (status !== 'ACTIVE_HEALTHY' && status !== 'ACTIVE_UNHEALTHY') setFinished(null)
  }

  const returnToProject = () => {
    setFinished(null)
    if (params.has('trackingId')) {
      const next = new URLSearchParams(params)
      next.delete('trackingId')
      setParams(next, { replace: true })
    }
    void queryClient.invalidateQueries({ queryKey: projectKeys.detail(project.ref) })
  }

  const backups = isBackupsRoute(route)
  if (finished === 'restore') return <RestoringScreen project={project} completed onReturn={returnToProject} />
  if (finished === 'upgrade') return <UpgradingScreen project={project} onReturn={returnToProject} />
  // Back on an upgrade's link (?trackingId) after it ended: its outcome, until the user returns.
  if (params.has('trackingId') && status === 'ACTIVE_HEALTHY' && !backups) {
    return (
      <UpgradingScreen project={project} onReturn={returnToProject} outcomeOnly>
        {children}
      </UpgradingScreen>
    )
  }

  switch (status) {
    case 'RESTARTING':
      if (!backups) return <RestartingScreen project={project} />
      break
    case 'RESIZING':
      if (!backups) return <ResizingScreen project={project} />
      break
    case 'UPGRADING':
      if (!backups) return <UpgradingScreen project={project} onReturn={returnToProject} />
      break
    case 'GOING_DOWN':
    case 'PAUSING':
      return <PausingScreen project={project} />
    case 'PAUSE_FAILED':
      return <FailureScreen project={project} organization={organization} kind="pause" />
    case 'ACTIVE_HEALTHY':
      if (health.data?.healthy === false && showsConnecting(route)) return <ConnectingScreen project={project} databaseAnswers={health.data.databaseAnswers} />
      break
    case 'ACTIVE_UNHEALTHY':
      if (showsConnecting(route)) return <ConnectingScreen project={project} />
      break
    case 'RESTORING':
      if (needsDatabase(route)) return <RestoringScreen project={project} completed={false} onReturn={returnToProject} />
      break
    case 'RESTORE_FAILED':
      if (!backups) return <FailureScreen project={project} organization={organization} kind="restore" />
      break
    case 'COMING_UP':
    case 'UNKNOWN':
      if (needsDatabase(route)) return <SetupScreen project={project} />
      break
    case 'INACTIVE':
      if (showsPausedScreen(route)) return <PausedScreen project={project} organization={organization} page={pageName(route)} />
      return (
        <>
          <PausedBanner project={project} organization={organization} narrow={!isHomeRoute(route)} />
          {children}
        </>
      )
    default:
      break
  }
  return <>{children}</>
}

/** Tell the user when the project they watched being set up is ready. */
function useReadyToast(status: ProjectStatus) {
  const toast = useToast()
  const previous = useRef(status)
  useEffect(() => {
    if ((previous.current === 'COMING_UP' || previous.current === 'UNKNOWN') && status === 'ACTIVE_HEALTHY') {
      toast.success('Your project is ready', 'Postgres is up and accepting connections.')
    }
    previous.current = status
  }, [status, toast])
}
