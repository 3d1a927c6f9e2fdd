import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { GitHubClient, GitHubError, GitHubNotFoundError } from '../../src/integrations/github/client.js'
import { normalizeWorkdir } from '../../src/integrations/github/connections.js'
import { migrationsFolder } from '../../src/integrations/github/migrations-source.js'
import { startGitHubLoopback, type GitHubLoopback } from '../../../../e2e/github-loopback.mjs'

/** GitHub's REST client against the loopback GitHub (e2e/github-loopback.mjs), and the small rules around it. */
let github: GitHubLoopback
const TOKEN = 'ghp_unit'

beforeAll(async () => {
  const big = 'select 1;\n'.repeat(10)
  github = await startGitHubLoopback({
    repos: { 'Acme/Shop': { id: 7, token: TOKEN, branches: { main: { sha: 'c'.repeat(40), files: { 'db/one.sql': big, 'db/two.sql': '' } } } } },
  })
})
afterAll(() => github?.close())

describe('GitHubClient', () => {
  it('sends the token and GitHub\'s headers, and learns the repository\'s exact name', async () => {
    const client = new GitHubClient(`${github.url}/`)
    const repository = await client.getRepository('acme/shop', TOKEN)
    expect(repository).toMatchObject({ id: 7, full_name: 'Acme/Shop', default_branch: 'main' })
    expect(github.requests.at(-1)).toMatchObject({ path: '/repos/acme/shop', authorization: `Bearer ${TOKEN}`, accept: 'application/vnd.github+json', apiVersion: '2022-11-28' })
  })

  it('maps GitHub\'s refusals to messages that keep GitHub\'s reason', async () => {
    const client = new GitHubClient(github.url)
    await expect(client.getRepository('acme/shop', 'ghp_other')).rejects.toMatchObject({ status: 401, reason: 'Bad credentials', message: 'GitHub refused the token: Bad credentials' })
    const missing = client.getBranch('acme/shop', 'nope', TOKEN)
    await expect(missing).rejects.toBeInstanceOf(GitHubNotFoundError)
    await expect(missing).rejects.toMatchObject({ reason: 'Branch not found' })
    await expect(client.listDirectory('acme/shop', 'db/one.sql', 'main', TOKEN)).rejects.toThrow('is a file, not a folder')
  })

  it('lists a folder and reads files from their base64 content', async () => {
    const client = new GitHubClient(github.url)
    expect((await client.listDirectory('acme/shop', 'db', 'main', TOKEN)).map((entry) => entry.name)).toEqual(['one.sql', 'two.sql'])
    expect(await client.readFile('acme/shop', 'db/one.sql', 'main', TOKEN)).toBe('select 1;\n'.repeat(10))
    expect(await client.readFile('acme/shop', 'db/two.sql', 'main', TOKEN)).toBe('')
  })

  it('says when GitHub cannot be reached, and when it does not answer in time', async () => {
    const closed = http.createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as { port: number }).port
    await new Promise((resolve) => closed.close(resolve))
    const unreachable = new GitHubClient(`http://127.0.0.1:${port}`).getRepository('acme/shop', TOKEN)
    await expect(unreachable).rejects.toBeInstanceOf(GitHubError)
    await expect(unreachable).rejects.toMatchObject({ status: 0, message: expect.stringContaining(`Cannot reach GitHub at http://127.0.0.1:${port}`) })

    // A server that accepts and never answers.
    const silent = http.createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    try {
      const slow = new GitHubClient(`http://127.0.0.1:${(silent.address() as { port: number }).port}`, 200).getRepository('acme/shop', TOKEN)
      await expect(slow).rejects.toMatchObject({ status: 0, message: expect.stringContaining('no answer within 0.2 s') })
    } finally {
      silent.closeAllConnections()
      silent.close()
    }
  })
})

describe('workdir and config', () => {
  it('keeps a connection\'s workdir inside the repository', () => {
    expect(normalizeWorkdir(undefined)).toBe('.')
    expect(normalizeWorkdir('./')).toBe('.')
    expect(normalizeWorkdir(' apps//web/ ')).toBe('apps/web')
    for (const outside of ['..', 'apps/../..', '/etc', 'a/\u0001b']) expect(() => normalizeWorkdir(outside), outside).toThrow('Workdir must be a folder inside the repository')
    expect(migrationsFolder('.')).toBe('supabase/migrations')
    expect(migrationsFolder('apps/web')).toBe('apps/web/supabase/migrations')
  })

  it('reads STRATUM_GITHUB_API_URL, refusing anything but an http(s) URL', () => {
    expect(loadConfig({}).githubApiUrl).toBe('https://api.github.com')
    expect(loadConfig({ STRATUM_GITHUB_API_URL: 'https://ghe.example.com/api/v3/' }).githubApiUrl).toBe('https://ghe.example.com/api/v3')
    expect(() => loadConfig({ STRATUM_GITHUB_API_URL: 'ftp://example.com' })).toThrow('STRATUM_GITHUB_API_URL must be an http(s) URL')
  })
})
