/**
 * A small client for GitHub's REST API (https://docs.github.com/rest), at a configurable base URL
 * (config.githubApiUrl, STRATUM_GITHUB_API_URL): api.github.com, a GitHub Enterprise server's /api/v3, or the
 * tests' loopback server (e2e/github-loopback.mjs). Only what branching needs: a repository, a branch, and the
 * contents of a folder or file on a branch. The token is given per call: each connection has its own.
 *
 * Failures are GitHubError with GitHub's own reason (its `message`) and its status; 404 is GitHubNotFoundError,
 * which callers turn into their own "not found" wording.
 */

const API_VERSION = '2022-11-28'
const DEFAULT_TIMEOUT_MS = 10_000

export class GitHubError extends Error {
  constructor(
    message: string,
    /** GitHub's HTTP status; 0 when GitHub could not be reached. */
    readonly status: number,
    /** GitHub's own reason ('Bad credentials', 'Not Found'...), when it gave one. */
    readonly reason: string | null,
  ) {
    super(message)
    this.name = 'GitHubError'
  }
}

export class GitHubNotFoundError extends GitHubError {}

export interface GitHubRepository {
  id: number
  /** owner/repo as GitHub spells it. */
  full_name: string
  default_branch: string
  private: boolean
}

export interface GitHubBranchInfo {
  name: string
  commit: { sha: string }
  protected?: boolean
}

export interface GitHubContentEntry {
  type: 'file' | 'dir' | 'symlink' | 'submodule'
  name: string
  path: string
  sha: string
  size: number
}

interface GitHubFileContent extends GitHubContentEntry {
  /** 'base64', or 'none' for files over 1 MB (then only the raw media type gives the content). */
  encoding?: string
  content?: string
}

/** A path inside a repository, each segment encoded (slashes between segments stay). */
const encodePath = (path: string) => path.split('/').filter(Boolean).map(encodeURIComponent).join('/')

function splitRepository(repository: string): string {
  const [owner, repo, extra] = repository.split('/')
  if (!owner || !repo || extra !== undefined) throw new GitHubError(`Repository must be written owner/repo, got '${repository}'`, 400, null)
  return `${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`
}

/** What GitHub says went wrong, phrased for a person, with GitHub's reason kept. */
function describeFailure(status: number, reason: string | null, what: string): string {
  const because = reason ? `: ${reason}` : ''
  if (status === 401) return `GitHub refused the token${because}`
  if (status === 403) return `GitHub refused access to ${what}${because}`
  if (status === 404) return `${what} was not found on GitHub, or the token cannot read it${because}`
  if (status === 429) return `GitHub's rate limit was reached${because}`
  return `GitHub answered ${status} for ${what}${because}`
}

export class GitHubClient {
  readonly baseUrl: string

  constructor(baseUrl: string, private readonly timeoutMs = DEFAULT_TIMEOUT_MS) {
    this.baseUrl = baseUrl.replace(/\/+$/, '')
  }

  /** GET /repos/{owner}/{repo}: checks that the token reads the repository, and learns its id and exact name. */
  getRepository(repository: string, token: string): Promise<GitHubRepository> {
    return this.get(`/repos/${splitRepository(repository)}`, token, `Repository ${repository}`)
  }

  /** GET /repos/{owner}/{repo}/branches/{branch}: GitHubNotFoundError when the repository has no such branch. */
  getBranch(repository: string, branch: string, token: string): Promise<GitHubBranchInfo> {
    return this.get(`/repos/${splitRepository(repository)}/branches/${encodeURIComponent(branch)}`, token, `Branch ${branch} of ${repository}`)
  }

  /** GET /repos/{owner}/{repo}/contents/{path}?ref=: a folder's entries (GitHub lists up to 1,000 per folder). */
  async listDirectory(repository: string, path: string, ref: string, token: string): Promise<GitHubContentEntry[]> {
    const answer = await this.get<GitHubContentEntry[] | GitHubContentEntry>(this.contentsPath(repository, path, ref), token, `${path} in ${repository}@${ref}`)
    if (!Array.isArray(answer)) throw new GitHubError(`${path} in ${repository}@${ref} is a ${answer.type}, not a folder`, 200, null)
    return answer
  }

  /** GET /repos/{owner}/{repo}/contents/{path}?ref=: a file's text (base64 in the JSON answer; raw for files over 1 MB). */
  async readFile(repository: string, path: string, ref: string, token: string): Promise<string> {
    const what = `${path} in ${repository}@${ref}`
    const answer = await this.get<GitHubFileContent | GitHubContentEntry[]>(this.contentsPath(repository, path, ref), token, what)
    if (Array.isArray(answer) || answer.type !== 'file') throw new GitHubError(`${what} is not a file`, 200, null)
    if (answer.encoding === 'base64' && typeof answer.content === 'string') return Buffer.from(answer.content, 'base64').toString('utf8')
    const raw = await this.request(this.contentsPath(repository, path, ref), token, what, 'application/vnd.github.raw+json')
    return raw.text()
  }

  private contentsPath(repository: string, path: string, ref: string): string {
    return `/repos/${splitRepository(repository)}/contents/${encodePath(path)}?ref=${encodeURIComponent(ref)}`
  }

  private async get<T>(path: string, token: string, what: string): Promise<T> {
    const response = await this.request(path, token, what, 'application/vnd.github+json')
    try {
      return (await response.json()) as T
    } catch {
      throw new GitHubError(`GitHub answered ${what} with something that is not JSON`, response.status, null)
    }
  }

  private async request(path: string, token: string, what: string, accept: string): Promise<Response> {
    let response: Response
    try {
      response = await fetch(this.baseUrl + path, {
        headers: { Authorization: `Bearer ${token}`, Accept: accept, 'X-GitHub-Api-Version': API_VERSION, 'User-Agent': 'stratum' },
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'follow',
      })
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError'
      const cause = timedOut ? `no answer within ${this.timeoutMs / 1000} s` : error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)
      throw new GitHubError(`Cannot reach GitHub at ${this.baseUrl}: ${cause}`, 0, null)
    }
    if (response.ok) return response
    const body = (await response.json().catch(() => null)) as { message?: unknown } | null
    const reason = body && typeof body.message === 'string' ? body.message : null
    const message = describeFailure(response.status, reason, what)
    throw response.status === 404 ? new GitHubNotFoundError(message, 404, reason) : new GitHubError(message, response.status, reason)
  }
}
