import { COMPUTE_SIZES, type Project } from '@stratum/contracts'
import { Link } from 'react-router'
import { StatusBadge } from '../../components/StatusBadge'

export function ProjectCard({ project }: { project: Project }) {
  const size = COMPUTE_SIZES[project.compute_size as keyof typeof COMPUTE_SIZES]
  return (
    <Link to={`/project/${project.ref}`} className="project-card">
      <div className="project-card-head">
        <div>
          <div className="project-card-name">{project.name}</div>
          <div className="project-card-ref mono">{project.ref}</div>
        </div>
        <StatusBadge status={project.status} />
      </div>
      <dl className="project-card-facts">
        <div>
          <dt>Postgres</dt>
          <dd>{project.dbVersion || project.postgres_engine}</dd>
        </div>
        <div>
          <dt>Size</dt>
          <dd>{size?.label ?? project.compute_size}</dd>
        </div>
        <div>
          <dt>Region</dt>
          <dd>{project.region}</dd>
        </div>
      </dl>
    </Link>
  )
}
