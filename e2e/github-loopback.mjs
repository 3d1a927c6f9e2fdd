// A loopback stand-in for GitHub's REST API (https://docs.github.com/rest), for the services the tests cannot reach
// (DESIGN.md): real HTTP on 127.0.0.1 in GitHub's shapes, so the platform's client (integrations/github/client.ts)
// runs as it does against api.github.com. Plain JavaScript ESM on node:http only: the server tests (vitest) and the
// Playwright server (e2e/server.mjs) both import it. Types: github-loopback.d.mts.
//
// Answers, as GitHub does:
//   GET /repos/{owner}/{repo}                         the repository (id, full_name, default_branch...)
//   GET /repos/{owner}/{repo}/branches/{branch}       the branch (name, commit.sha, protected); 404 'Branch not found'
//   GET /repos/{owner}/{repo}/contents/{path}?ref=    a folder's entries, or a file with its content in base64
//                                                     (the raw text with Accept: application/vnd.github.raw+json)
// A token GitHub does not know is a 401 'Bad credentials'; no token, or one of another repository, a 404 (GitHub hides
// private repositories). `repos` is read on each request: a test may add branches or files as it goes.
import http from 'node:http'

/** The e2e platform's repository (e2e/server.mjs): the dashboard tests connect it with this token. */
export const E2E_GITHUB_REPOSITORY = 'acme/shop'
export const E2E_GITHUB_TOKEN = 'ghp_e2e'

/** acme/shop for the e2e run: main with two migrations, feature-x with one more. */
export function e2eGitHubRepos() {
  const init = { 'supabase/migrations/20240101000000_init.sql': 'create table public.products (id bigint primary key, name text not null);\n' }
  const prices = { 'supabase/migrations/20240201000000_prices.sql': 'alter table public.products add column price numeric;\n' }
  return {
    [E2E_GITHUB_REPOSITORY]: {
      id: 424242,
      token: E2E_GITHUB_TOKEN,
      branches: {
        main: { sha: 'a'.repeat(40), files: { 'README.md': '# shop\n', ...init } },
        'feature-x': { sha: 'b'.repeat(40), files: { 'README.md': '# shop\n', ...init, ...prices } },
      },
    },
  }
}

const DOCS = 'https://docs.github.com/rest'

function sendJson(res, status, value) {
  const text = JSON.stringify(value)
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'x-github-media-type': 'github.v3' })
  res.end(text)
}

const sendError = (res, status, message) => sendJson(res, status, { message, documentation_url: DOCS, status: String(status) })

/** GitHub wraps base64 content at 60 characters a line. */
const base64Lines = (text) => (Buffer.from(text, 'utf8').toString('base64').match(/.{1,60}/g) ?? []).join('\n') + '\n'

/** A stable fake blob sha for a path on a branch (GitHub's are the blob's SHA-1; any 40 hex digits do here). */
function shaOf(text) {
  let hash = 0n
  for (const char of text) hash = (hash * 131n + BigInt(char.codePointAt(0))) % 2n ** 160n
  return hash.toString(16).padStart(40, '0')
}

function entryOf(base, fullName, branchName, path, type, size) {
  const url = `${base}/repos/${fullName}/contents/${path}?ref=${encodeURIComponent(branchName)}`
  return {
    name: path.split('/').at(-1),
    path,
    sha: shaOf(`${branchName}:${path}`),
    size,
    url,
    html_url: `https://github.com/${fullName}/${type === 'dir' ? 'tree' : 'blob'}/${branchName}/${path}`,
    git_url: `${base}/repos/${fullName}/git/${type === 'dir' ? 'trees' : 'blobs'}/${shaOf(`${branchName}:${path}`)}`,
    download_url: type === 'file' ? `https://raw.githubusercontent.com/${fullName}/${branchName}/${path}` : null,
    type,
    _links: { self: url, git: null, html: null },
  }
}

/** The contents API for one path of a branch: a file, a folder's entries, or null when neither exists. */
function contentsOf(base, fullName, branchName, files, path, wantsRaw) {
  if (path in files) {
    const text = files[path]
    if (wantsRaw) return { raw: text }
    return { json: { ...entryOf(base, fullName, branchName, path, 'file', Buffer.byteLength(text)), content: base64Lines(text), encoding: 'base64' } }
  }
  const prefix = path === '' ? '' : `${path}/`
  const children = new Map()
  for (const [filePath, text] of Object.entries(files)) {
    if (!filePath.startsWith(prefix)) continue
    const [first, ...rest] = filePath.slice(prefix.length).split('/')
    const childPath = prefix + first
    if (!children.has(childPath)) children.set(childPath, rest.length ? entryOf(base, fullName, branchName, childPath, 'dir', 0) : entryOf(base, fullName, branchName, childPath, 'file', Buffer.byteLength(text)))
  }
  if (children.size === 0) return null
  return { json: [...children.values()].sort((a, b) => a.name.localeCompare(b.name)) }
}

/** Every token of every repository: a known token reaching a repository it does not belong to gets GitHub's 404. */
const knownTokens = (repos) => new Set(Object.values(repos).map((repo) => repo.token))

function handle(repos, base, req, res, requests) {
  const url = new URL(req.url ?? '/', base)
  const authorization = req.headers.authorization ?? null
  requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, authorization, accept: req.headers.accept ?? null, apiVersion: req.headers['x-github-api-version'] ?? null })
  if (req.method !== 'GET') return sendError(res, 404, 'Not Found')
  const token = authorization?.replace(/^(Bearer|token)\s+/i, '') ?? null
  if (token !== null && !knownTokens(repos).has(token)) return sendError(res, 401, 'Bad credentials')

  const match = /^\/repos\/([^/]+)\/([^/]+)(?:\/(branches|contents)(?:\/(.*))?)?$/.exec(url.pathname)
  if (!match) return sendError(res, 404, 'Not Found')
  const [, owner, name, kind, rest] = match
  const fullName = Object.keys(repos).find((key) => key.toLowerCase() === `${decodeURIComponent(owner)}/${decodeURIComponent(name)}`.toLowerCase())
  const repo = fullName ? repos[fullName] : undefined
  if (!repo || token !== repo.token) return sendError(res, 404, 'Not Found')
  const branchNames = Object.keys(repo.branches)
  const defaultBranch = branchNames.includes('main') ? 'main' : (branchNames[0] ?? 'main')

  if (!kind) {
    const [ownerLogin, repoName] = fullName.split('/')
    return sendJson(res, 200, {
      id: repo.id, node_id: `R_${repo.id}`, name: repoName, full_name: fullName, private: true,
      owner: { login: ownerLogin, id: repo.id + 1, type: 'Organization' },
      html_url: `https://github.com/${fullName}`, url: `${base}/repos/${fullName}`, default_branch: defaultBranch,
      permissions: { admin: false, maintain: false, push: true, triage: true, pull: true },
    })
  }
  if (kind === 'branches') {
    const branchName = decodeURIComponent(rest ?? '')
    const branch = repo.branches[branchName]
    if (!branch) return sendError(res, 404, 'Branch not found')
    return sendJson(res, 200, {
      name: branchName,
      commit: { sha: branch.sha, url: `${base}/repos/${fullName}/commits/${branch.sha}` },
      _links: { self: `${base}/repos/${fullName}/branches/${branchName}`, html: `https://github.com/${fullName}/tree/${branchName}` },
      protected: branchName === defaultBranch,
    })
  }
  const ref = url.searchParams.get('ref') ?? defaultBranch
  const branch = repo.branches[ref]
  if (!branch) return sendError(res, 404, `No commit found for the ref ${ref}`)
  const path = (rest ?? '').split('/').filter(Boolean).map(decodeURIComponent).join('/')
  const wantsRaw = (req.headers.accept ?? '').includes('application/vnd.github.raw')
  const found = contentsOf(base, fullName, ref, branch.files, path, wantsRaw)
  if (!found) return sendError(res, 404, 'Not Found')
  if ('raw' in found) {
    res.writeHead(200, { 'content-type': 'application/vnd.github.raw; charset=utf-8', 'content-length': Buffer.byteLength(found.raw) })
    return res.end(found.raw)
  }
  return sendJson(res, 200, found.json)
}

/** Starts the server on an ephemeral port of 127.0.0.1 (or `port`). */
export async function startGitHubLoopback({ repos, port = 0 } = { repos: e2eGitHubRepos() }) {
  const requests = []
  let base = ''
  const server = http.createServer((req, res) => {
    try {
      handle(repos, base, req, res, requests)
    } catch (error) {
      sendError(res, 500, `Loopback GitHub failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  })
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  base = `http://127.0.0.1:${server.address().port}`
  return {
    url: base,
    repos,
    /** Every request received, oldest first: method, path (with the query), authorization, accept, apiVersion. */
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
