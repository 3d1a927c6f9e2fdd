/** A branch of a loopback repository: its head commit and its files (path -> text). */
export interface GitHubLoopbackBranch {
  sha: string
  files: Record<string, string>
}

export interface GitHubLoopbackRepo {
  id: number
  /** The one token that reads this repository. */
  token: string
  branches: Record<string, GitHubLoopbackBranch>
}

/** 'owner/repo' -> the repository. Read on every request: tests may change it as they go. */
export type GitHubLoopbackRepos = Record<string, GitHubLoopbackRepo>

export interface GitHubLoopbackRequest {
  method: string
  /** The path with its query. */
  path: string
  authorization: string | null
  accept: string | null
  apiVersion: string | string[] | null
}

export interface GitHubLoopback {
  /** http://127.0.0.1:<port>, the value for STRATUM_GITHUB_API_URL. */
  url: string
  repos: GitHubLoopbackRepos
  requests: GitHubLoopbackRequest[]
  close(): Promise<void>
}

export const E2E_GITHUB_REPOSITORY: string
export const E2E_GITHUB_TOKEN: string
export function e2eGitHubRepos(): GitHubLoopbackRepos
export function startGitHubLoopback(options?: { repos: GitHubLoopbackRepos; port?: number }): Promise<GitHubLoopback>
