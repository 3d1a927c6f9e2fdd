import { DEFAULT_PRODUCTION_BRANCH_NAME, type GitHubConnection } from '@stratum/contracts'
import { TextField } from '../../../components/ui/Field'
import type { ValidatedField } from '../useValidatedField'
import { versionTooOld } from '../validation'
import { BranchingNotes, FreePlanPrompt, PostgresVersionNotice } from './EnableBranchingNotices'
import { RepositorySection } from './RepositorySection'
import type { GitBranchCheckState } from './useGitBranchCheck'

export interface EnableBranchingFieldsProps {
  projectRef: string
  orgSlug: string
  freePlan: boolean
  /** The project's Postgres major; below 15 a notice replaces the form. */
  postgresMajor: number | undefined
  branchName: ValidatedField
  gitBranch: ValidatedField
  checkState: GitBranchCheckState
  connection: GitHubConnection | undefined
  connectionsLoading: boolean
  connectionsFailed: boolean
  withoutGit: boolean
  hasPitr: boolean | undefined
}

/** The body of the enable-branching dialog, in the spec's order. No dialog here: the unit tests render it as is. */
export function EnableBranchingFields(props: EnableBranchingFieldsProps) {
  const { projectRef, orgSlug, freePlan, postgresMajor, branchName } = props
  return (
    <div className="stack enable-branching">
      {freePlan ? <FreePlanPrompt orgSlug={orgSlug} /> : null}
      {postgresMajor !== undefined && versionTooOld(postgresMajor) ? (
        <PostgresVersionNotice projectRef={projectRef} major={postgresMajor} />
      ) : (
        <>
          <TextField
            label="Production Branch Name"
            placeholder="e.g. main, production"
            value={branchName.value}
            onChange={(event) => branchName.setValue(event.target.value)}
            onBlur={branchName.onBlur}
            error={branchName.error}
            hint={`The name of this project's own branch (${DEFAULT_PRODUCTION_BRANCH_NAME} by default). Letters, digits, hyphens and underscores.`}
            autoComplete="off"
            spellCheck={false}
          />
          <RepositorySection
            orgSlug={orgSlug}
            connectionsFailed={props.connectionsFailed}
            connectionsLoading={props.connectionsLoading}
            connection={props.connection}
            gitBranch={props.gitBranch}
            checkState={props.checkState}
            withoutGit={props.withoutGit}
          />
          <BranchingNotes projectRef={projectRef} hasPitr={props.hasPitr} />
        </>
      )}
    </div>
  )
}
