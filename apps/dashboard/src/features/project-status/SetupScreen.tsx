import type { Project } from '@stratum/contracts'
import { BookOpen, LifeBuoy } from 'lucide-react'
import { Link } from 'react-router'
import { Badge } from '../../components/ui/Badge'
import { supportLink } from '../../lib/support'
import { StatusScreen } from './StatusScreen'
import { useElapsedSeconds, useMountedAt } from './useElapsedSeconds'

/** The spec's hint: after two minutes, offer support. */
export const SUPPORT_AFTER_SECONDS = 120

const CLIENT_LIBRARIES: Array<{ name: string; badge?: 'alpha' | 'community' }> = [
  { name: 'JavaScript' },
  { name: 'Flutter' },
  { name: 'Python', badge: 'alpha' },
  { name: 'C#', badge: 'community' },
  { name: 'Swift' },
  { name: 'Kotlin', badge: 'community' },
]

const EXAMPLE_PROJECTS = [
  { name: 'Todo list', detail: 'One table, Row Level Security per user' },
  { name: 'Chat', detail: 'Messages and channels with foreign keys' },
  { name: 'Bookmarks', detail: 'Full-text search with a GIN index' },
]

/** COMING_UP ('Setting up project') or UNKNOWN ('Initiating project set up'). */
export function SetupScreen({ project }: { project: Project }) {
  const mountedAt = useMountedAt()
  const created = Date.parse(project.inserted_at)
  const elapsed = useElapsedSeconds(Number.isNaN(created) ? mountedAt : Math.min(created, mountedAt))
  const comingUp = project.status === 'COMING_UP'

  return (
    <StatusScreen
      tone="progress"
      title={comingUp ? 'Setting up project' : 'Initiating project set up'}
      eyebrow={project.name}
      progress
      wide
      testId="setup-screen"
    >
      <p>
        We are provisioning your database and API endpoints. This may take a few minutes; here it usually takes seconds.
      </p>
      <p className="status-screen-hint">
        This page updates by itself. Try refreshing after a couple of minutes.
        {elapsed >= SUPPORT_AFTER_SECONDS ? (
          <>
            {' '}
            Still not ready?{' '}
            <Link
              to={supportLink({
                category: 'Database_unresponsive',
                ref: project.ref,
                subject: `Project ${project.name} is stuck setting up`,
              })}
            >
              <LifeBuoy size={12} aria-hidden="true" /> Contact support
            </Link>
            .
          </>
        ) : null}
      </p>
      <p>
        <a href={`https://www.postgresql.org/docs/${project.postgres_engine}/`} target="_blank" rel="noreferrer">
          <BookOpen size={14} aria-hidden="true" /> Postgres {project.postgres_engine} documentation
        </a>
      </p>
      {comingUp ? (
        <>
          <section className="status-section" aria-labelledby="client-libraries">
            <h2 id="client-libraries">Client libraries</h2>
            <ul className="tile-grid">
              {CLIENT_LIBRARIES.map((library) => (
                <li key={library.name} className="tile">
                  <span className="tile-title">
                    {library.name}
                    {library.badge ? <Badge tone={library.badge === 'alpha' ? 'warning' : 'neutral'}>{library.badge}</Badge> : null}
                  </span>
                </li>
              ))}
            </ul>
            <p className="status-screen-hint">
              Client libraries talk to the project's APIs at its project URL (REST, auth, storage, edge functions and
              realtime), with the URL and keys under Settings &gt; API; any Postgres driver connects with the details on
              the project home page.
            </p>
          </section>
          <section className="status-section" aria-labelledby="example-projects">
            <h2 id="example-projects">Example projects</h2>
            <ul className="tile-grid">
              {EXAMPLE_PROJECTS.map((example) => (
                <li key={example.name} className="tile">
                  <span className="tile-title">{example.name}</span>
                  <span className="tile-detail">{example.detail}</span>
                </li>
              ))}
            </ul>
          </section>
        </>
      ) : null}
    </StatusScreen>
  )
}
