import type { GitHubConnection } from '@stratum/contracts'
import { CircleCheck, CircleX, ExternalLink, FolderGit2 } from 'lucide-react'
import { Link } from 'react-router'
import { Alert } from '../../../components/ui/Alert'
import { Badge } from '../../../components/ui/Badge'
import { TextField } from '../../../components/ui/Field'
import { LoadingState, Spinner } from '../../../components/ui/Spinner'
import { githubIntegrationsUrl, githubRepositoryUrl } from '../links'
import type { ValidatedField } from '../useValidatedField'
import { gitBranchNotFound } from '../validation'
import type { GitBranchCheckState } from './useGitBranchCheck'

export const CONNECTIONS_FAILED = 'Failed to retrieve connections'

function CheckIndicator({ state }: { state: GitBranchCheckState }) {
  if (state === 'checking') {
    return (
      <span role="status" aria-label="Checking branch">
        <Spinner size={14} />
      </span>
    )
  }
  if (state === 'found') return <CircleCheck size={16} className="git-check-found" aria-label="Branch found" role="img" />
  if (state === 'not-found') return <CircleX size={16} className="git-check-missing" aria-label="Branch not found" role="img" />
  if (state === 'failed') return <CircleX size={16} className="git-check-missing" aria-label="Branch check failed" role="img" />
  return null
}

interface ConnectedProps {
  connection: GitHubConnection
  gitBranch: ValidatedField
  checkState: GitBranchCheckState
}

/** A repository is connected: the production branch follows one of its Git branches, checked live against GitHub. */
function ConnectedRepository({ connection, gitBranch, checkState }: ConnectedProps) {
  const repository = connection.repository.name
  const notFound = checkState === 'not-found' ? gitBranchNotFound(gitBranch.value.trim(), repository) : undefined
  return (
    <div className="stack-sm">
      <TextField
        label="Link GitHub Branch"
        labelAside={
          <a className="branching-repo-link" href={githubRepositoryUrl(repository)} target="_blank" rel="noreferrer">
            <FolderGit2 size={14} aria-hidden="true" />
            {repository}
            <ExternalLink size={12} aria-hidden="true" />
          </a>
        }
        placeholder="main"
        required
        aria-required="true"
        value={gitBranch.value}
        onChange={(event) => gitBranch.setValue(event.target.value)}
        onBlur={gitBranch.onBlur}
        error={gitBranch.error ?? notFound}
        hint="The Git branch of the repository that production follows: its migrations are applied to production."
        trailing={<CheckIndicator state={checkState} />}
        autoComplete="off"
        spellCheck={false}
      />
    </div>
  )
}

/** No repository: connecting one is required unless the branching-without-git flag is on (then it is optional). */
function NoRepository({ orgSlug, withoutGit }: { orgSlug: string; withoutGit: boolean }) {
  return (
    <section className="branching-repository" aria-labelledby="branching-repository-title">
      <div className="row">
        <h3 className="branching-section-title" id="branching-repository-title">
          GitHub Repository
        </h3>
        {withoutGit ? <Badge tone="neutral">Optional</Badge> : <Badge tone="warning">Required</Badge>}
      </div>
      <p className="muted branching-section-text">
        {withoutGit
          ? 'Optionally connect a GitHub repository: each of its Git branches can then get a preview branch with its migrations applied. Without one, you create preview branches here or through the API.'
          : 'Branching follows a GitHub repository: preview branches are made for its Git branches and run their migrations. Connect a repository to this project to enable branching.'}
      </p>
      <div>
        <Link className="btn btn-secondary btn-md" to={githubIntegrationsUrl(orgSlug)}>
          <FolderGit2 size={14} aria-hidden="true" />
          Connect to GitHub
        </Link>
      </div>
    </section>
  )
}

export interface RepositorySectionProps {
  orgSlug: string
  connectionsFailed: boolean
  connectionsLoading: boolean
  connection: GitHubConnection | undefined
  gitBranch: ValidatedField
  checkState: GitBranchCheckState
  withoutGit: boolean
}

export function RepositorySection({ orgSlug, connectionsFailed, connectionsLoading, connection, gitBranch, checkState, withoutGit }: RepositorySectionProps) {
  if (connectionsFailed) return <Alert tone="danger" title={CONNECTIONS_FAILED} />
  if (connectionsLoading) return <LoadingState label="Loading GitHub connections…" />
  if (connection) return <ConnectedRepository connection={connection} gitBranch={gitBranch} checkState={checkState} />
  return <NoRepository orgSlug={orgSlug} withoutGit={withoutGit} />
}
