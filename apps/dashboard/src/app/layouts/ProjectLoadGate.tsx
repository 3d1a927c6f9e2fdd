import type { UseQueryResult } from '@tanstack/react-query'
import type { Project } from '@stratum/contracts'
import { FolderX } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { EmptyState } from '../../components/ui/EmptyState'
import { LoadingState } from '../../components/ui/Spinner'
import { isApiError } from '../../data/api'
import { usePageTitle } from '../../lib/usePageTitle'
import { QueryError } from '../../components/ui/QueryState'

function ProjectNotFound() {
  usePageTitle(['Project not found'])
  return (
    <div className="page page-narrow">
      <EmptyState
        icon={<FolderX size={22} />}
        title="Project not found"
        description="This project does not exist, was removed, or belongs to an organization you are not a member of."
        action={
          <Link className="btn btn-secondary btn-md" to="/organizations">
            Go to your organizations
          </Link>
        }
      />
    </div>
  )
}

/** Pages inside a project render only once the project itself is known. */
export function ProjectLoadGate({ query, children }: { query: UseQueryResult<Project>; children: ReactNode }) {
  if (query.isPending) return <LoadingState label="Loading project…" />
  if (query.isError && !query.data) {
    if (isApiError(query.error, 404) || isApiError(query.error, 403) || isApiError(query.error, 400)) {
      return <ProjectNotFound />
    }
    return (
      <div className="page page-narrow">
        <QueryError query={query} title="Could not load this project" />
      </div>
    )
  }
  return <>{children}</>
}
