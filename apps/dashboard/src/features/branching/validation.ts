import { BRANCH_NAME_EMPTY, BRANCH_NAME_INVALID, BRANCH_NAME_PATTERN, BRANCHING_MIN_POSTGRES_MAJOR, GIT_BRANCH_REQUIRED } from '@stratum/contracts'

/** The branch name rules of the spec (§5), with their texts: empty first, then the characters. */
export function branchNameError(value: string): string | undefined {
  const name = value.trim()
  if (name.length === 0) return BRANCH_NAME_EMPTY
  if (!BRANCH_NAME_PATTERN.test(name)) return BRANCH_NAME_INVALID
  return undefined
}

/** A connected repository makes the Git branch required. */
export function gitBranchError(value: string, repositoryConnected: boolean): string | undefined {
  return repositoryConnected && value.trim().length === 0 ? GIT_BRANCH_REQUIRED : undefined
}

/** The text under the Git branch field when GitHub does not know the branch. */
export const gitBranchNotFound = (branch: string, repository: string) => `Unable to find branch "${branch}" in ${repository}`

/** The Postgres major of a project ('17' from postgres_engine, else the first number of dbVersion such as '15.8'). */
export function postgresMajor(project: { postgres_engine?: string | number; dbVersion?: string }): number | undefined {
  const source = String(project.postgres_engine ?? '') || project.dbVersion || ''
  const major = Number.parseInt(source, 10)
  return Number.isFinite(major) ? major : undefined
}

/** Branching needs Postgres 15 or later; an unknown version is not held against the project. */
export function versionTooOld(major: number | undefined): boolean {
  return major !== undefined && major < BRANCHING_MIN_POSTGRES_MAJOR
}
