import type { Project } from '@stratum/contracts'
import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { Card } from '../../components/ui/Card'
import { Spinner } from '../../components/ui/Spinner'

/** The spec's hint: after two minutes without progress, offer support. */
const SUPPORT_AFTER_SECONDS = 120

/** What provisioning does, for orientation. The server does not report steps, so none is ticked off. */
const STEPS = ['Create the database cluster', 'Start Postgres', 'Create roles and the database', 'Check that it accepts connections']

function useElapsedSeconds(since: string) {
  const start = Date.parse(since)
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000)
    return () => window.clearInterval(timer)
  }, [])
  return Number.isNaN(start) ? 0 : Math.max(0, Math.floor((now - start) / 1000))
}

/**
 * Shown while the project is COMING_UP (or UNKNOWN). The layout polls /status every 1.5 s;
 * when it turns healthy the project is refetched and this card disappears.
 */
export function ProvisioningCard({ project }: { project: Project }) {
  const elapsed = useElapsedSeconds(project.inserted_at)
  const unknown = project.status === 'UNKNOWN'
  return (
    <Card>
      <div className="provisioning" role="status" aria-live="polite">
        <div className="provisioning-head">
          <Spinner size={18} />
          <div>
            <h2>{unknown ? 'Initiating project set up' : 'Setting up project'}</h2>
            <p className="muted">
              We are provisioning your database and API endpoints. This may take a few minutes; here it usually takes
              seconds.
            </p>
          </div>
        </div>
        <div className="progress" aria-hidden="true">
          <div className="progress-bar" />
        </div>
        <ol className="provisioning-steps">
          {STEPS.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        <p className="faint provisioning-foot">
          Elapsed: {elapsed} s. This page updates by itself. Try refreshing after a couple of minutes.
          {elapsed >= SUPPORT_AFTER_SECONDS ? (
            <>
              {' '}
              Still not ready?{' '}
              <Link
                to={`/support/new?category=Database_unresponsive&ref=${project.ref}&subject=${encodeURIComponent(`Project ${project.name} is stuck setting up`)}`}
              >
                Contact support
              </Link>
              .
            </>
          ) : null}
        </p>
      </div>
    </Card>
  )
}
