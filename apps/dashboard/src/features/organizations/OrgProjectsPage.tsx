import { PERMISSION_TEXTS } from '@stratum/contracts'
import { Database, Plus } from 'lucide-react'
import { useNavigate, useParams } from 'react-router'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { EmptyState } from '../../components/ui/EmptyState'
import { LoadingState } from '../../components/ui/Spinner'
import { errorMessage } from '../../data/api'
import { useOrganization } from '../../data/organizations/useOrganization'
import { useCan } from '../../data/profile/useCan'
import { useProjects } from '../../data/projects/useProjects'
import { usePageTitle } from '../../lib/usePageTitle'
import { ProjectCard } from './ProjectCard'
import './organizations.css'

export function OrgProjectsPage() {
  const { slug = '' } = useParams()
  const navigate = useNavigate()
  const { data: organization } = useOrganization(slug)
  usePageTitle(['Projects', organization?.name])
  const projects = useProjects(slug)
  const canCreate = useCan(slug, 'projects.create')

  const newProject = (
    <Button
      variant="primary"
      icon={<Plus size={14} aria-hidden="true" />}
      disabled={!canCreate}
      disabledReason={PERMISSION_TEXTS.createProject}
      onClick={() => navigate(`/new/${slug}`)}
    >
      New project
    </Button>
  )

  return (
    <section aria-labelledby="projects-heading">
      <div className="section-head">
        <h2 id="projects-heading">Projects</h2>
        {newProject}
      </div>
      {projects.isPending ? <LoadingState label="Loading projects…" /> : null}
      {projects.isError ? (
        <Alert tone="danger" title="Could not load projects">
          {errorMessage(projects.error)}
        </Alert>
      ) : null}
      {projects.data?.length === 0 ? (
        <EmptyState
          icon={<Database size={22} />}
          title="No projects yet"
          description="Each project is its own Postgres server, with its own data directory and port."
        />
      ) : null}
      {projects.data && projects.data.length > 0 ? (
        <ul className="project-grid" aria-label="Projects">
          {projects.data.map((project) => (
            <li key={project.ref}>
              <ProjectCard project={project} />
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}
