import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_EMAIL, api, memberWithRole, startTestPlatform, tokenFor, type TestPlatform } from './harness.js'

let t: TestPlatform
let owner: string
let ref: string
let developer: string
let readOnly: string

beforeAll(async () => {
  t = await startTestPlatform()
  owner = await tokenFor(t, ADMIN_EMAIL)
  const slug = (await api(t, 'GET', '/platform/organizations', { token: owner })).body[0].slug
  ref = (await api(t, 'POST', '/platform/projects', { token: owner }, { name: 'Functions', organization_slug: slug, db_pass: 'functions-password-1' })).body.ref
  developer = (await memberWithRole(t, slug, 'developer')).token
  readOnly = (await memberWithRole(t, slug, 'read_only')).token
})
afterAll(() => t?.cleanup())

/** A deploy the way the dashboard and the CLI send it: a real multipart body built by FormData. */
async function deploy(token: string, slug: string | null, form: FormData) {
  const query = slug === null ? '' : `?slug=${encodeURIComponent(slug)}`
  const response = await fetch(`${t.platform.url}/v1/projects/${ref}/functions/deploy${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  return { status: response.status, body: (await response.json()) as any }
}

function form(metadata: unknown, files: [string, string][], metadataAsFile = false): FormData {
  const data = new FormData()
  if (metadata !== undefined) {
    const json = JSON.stringify(metadata)
    if (metadataAsFile) data.append('metadata', new Blob([json], { type: 'application/json' }), 'metadata.json')
    else data.append('metadata', json)
  }
  for (const [name, content] of files) data.append('file', new Blob([content], { type: 'application/typescript' }), name)
  return data
}

const HELLO = `Deno.serve(() => new Response('hello'))\n`
const functionsDir = () => path.join(t.dataDir, 'functions', ref)

describe('edge functions as records', () => {
  it('deploys with defaults (201), lists and gets it in the Management API shape', async () => {
    expect((await api(t, 'GET', `/v1/projects/${ref}/functions`, { token: owner })).body).toEqual([])
    const deployed = await deploy(developer, 'hello-world', form({ name: 'Hello world' }, [['index.ts', HELLO], ['lib/util.ts', 'export const x = 1\n']]))
    expect(deployed.status).toBe(201)
    expect(deployed.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      slug: 'hello-world',
      name: 'Hello world',
      status: 'ACTIVE',
      version: 1,
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
      verify_jwt: true,
      import_map: false,
      // A file:// URL, as the hosted API answers (clients parse it with new URL()).
      entrypoint_path: 'file:///home/deno/functions/hello-world/index.ts',
    })
    expect(Math.abs(deployed.body.created_at - Date.now())).toBeLessThan(60_000)

    const list = await api(t, 'GET', `/v1/projects/${ref}/functions`, { token: readOnly })
    expect(list.status).toBe(200)
    expect(list.headers.get('content-type')).toContain('application/json')
    expect(list.body).toEqual([deployed.body])
    const one = await api(t, 'GET', `/v1/projects/${ref}/functions/hello-world`, { token: readOnly })
    expect(one.body).toEqual(deployed.body)
    expect((await api(t, 'GET', `/v1/projects/${ref}/functions/missing`, { token: owner })).status).toBe(404)
  })

  it('serves the stored files back, as multipart (the deploy shape) and as JSON', async () => {
    const response = await fetch(`${t.platform.url}/v1/projects/${ref}/functions/hello-world/body`, { headers: { authorization: `Bearer ${readOnly}` } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/)
    const body = await response.formData()
    expect(JSON.parse(body.get('metadata') as string)).toEqual({ name: 'Hello world', entrypoint_path: 'index.ts', verify_jwt: true })
    const files = body.getAll('file') as File[]
    expect(files.map((f) => f.name)).toEqual(['index.ts', 'lib/util.ts'])
    expect(await files[0]!.text()).toBe(HELLO)

    const json = await api(t, 'GET', `/platform/projects/${ref}/functions/hello-world/files`, { token: readOnly })
    expect(json.body.files).toEqual([
      { name: 'index.ts', size: HELLO.length, content: HELLO },
      { name: 'lib/util.ts', size: 19, content: 'export const x = 1\n' },
    ])
    expect(fs.readFileSync(path.join(functionsDir(), 'hello-world', '1', 'lib', 'util.ts'), 'utf8')).toBe('export const x = 1\n')
  })

  it('bumps the version on redeploy, replaces the files and keeps what the metadata leaves out', async () => {
    const first = (await api(t, 'GET', `/v1/projects/${ref}/functions/hello-world`, { token: owner })).body
    await new Promise((r) => setTimeout(r, 5))
    // metadata as a JSON file part, a custom entrypoint, verify_jwt off.
    const second = await deploy(owner, 'hello-world', form({ entrypoint_path: './main.ts', verify_jwt: false }, [['main.ts', 'export {}\n']], true))
    expect(second.status).toBe(201)
    expect(second.body).toMatchObject({
      id: first.id, version: 2, name: 'Hello world', verify_jwt: false, entrypoint_path: 'file:///home/deno/functions/hello-world/main.ts', created_at: first.created_at,
    })
    expect(second.body.updated_at).toBeGreaterThan(first.updated_at)
    // The old version's files are gone; the new ones are served.
    expect(fs.readdirSync(path.join(functionsDir(), 'hello-world'))).toEqual(['2'])
    const files = (await api(t, 'GET', `/platform/projects/${ref}/functions/hello-world/files`, { token: owner })).body.files
    expect(files.map((f: { name: string }) => f.name)).toEqual(['main.ts'])
    // Left out: verify_jwt stays false; a file part without a filename is the entrypoint.
    const unnamed = new FormData()
    unnamed.append('metadata', JSON.stringify({ entrypoint_path: 'index.ts' }))
    // (A plain form field: FormData turns its '\n' into '\r\n', so one line without a newline.)
    unnamed.append('file', 'export default 3')
    const third = await deploy(owner, 'hello-world', unnamed)
    expect(third.status).toBe(201)
    expect(third.body).toMatchObject({ version: 3, verify_jwt: false, entrypoint_path: 'file:///home/deno/functions/hello-world/index.ts' })
    expect((await api(t, 'GET', `/platform/projects/${ref}/functions/hello-world/files`, { token: owner })).body.files).toEqual([
      { name: 'index.ts', size: 16, content: 'export default 3' },
    ])
    // A single Blob part (FormData names it 'blob': how Management API clients send the source) is the
    // entrypoint too, and an answer's file:// entrypoint_path is accepted back.
    const blob = new FormData()
    blob.append('metadata', JSON.stringify({ entrypoint_path: third.body.entrypoint_path }))
    blob.append('file', new Blob(['export default 4']))
    const fourth = await deploy(owner, 'hello-world', blob)
    expect(fourth.status).toBe(201)
    expect(fourth.body).toMatchObject({ version: 4, entrypoint_path: 'file:///home/deno/functions/hello-world/index.ts' })
    expect((await api(t, 'GET', `/platform/projects/${ref}/functions/hello-world/files`, { token: owner })).body.files).toEqual([
      { name: 'index.ts', size: 16, content: 'export default 4' },
    ])
  })

  it('answers bad deploys with 400 {message} and writes nothing', async () => {
    const before = (await api(t, 'GET', `/v1/projects/${ref}/functions`, { token: owner })).body
    const dirBefore = fs.readdirSync(functionsDir()).sort()
    const big = 'x'.repeat(10 * 1024 * 1024 + 1)
    const cases: [string | null, FormData | string, RegExp][] = [
      ['fresh', form(undefined, [['index.ts', HELLO]]), /metadata is required/],
      ['fresh', form('not json', [['index.ts', HELLO]]), /metadata must be a JSON object/],
      ['fresh', form({ verify_jwt: 'yes' }, [['index.ts', HELLO]]), /verify_jwt must be true or false/],
      [null, form({}, [['index.ts', HELLO]]), /slug is required/],
      ['1bad', form({}, [['index.ts', HELLO]]), /slug must start with a letter/],
      ['bad slug', form({}, [['index.ts', HELLO]]), /slug must start with a letter/],
      ['fresh', form({}, []), /No files/],
      ['fresh', form({}, [['other.ts', HELLO]]), /The entrypoint index.ts is not among the files sent/],
      ['fresh', form({}, [['index.ts', HELLO], ['../escape.ts', 'x']]), /Invalid file name/],
      ['fresh', form({}, [['index.ts', big]]), /too large/],
      ['fresh', 'metadata={}', /multipart\/form-data/],
    ]
    for (const [slug, body, message] of cases) {
      const result = typeof body === 'string'
        ? await api(t, 'POST', `/v1/projects/${ref}/functions/deploy?slug=${slug}`, { token: owner }, { metadata: {} })
        : await deploy(owner, slug, body)
      expect(result.status, String(message)).toBe(400)
      expect(result.body.message).toMatch(message)
    }
    expect((await api(t, 'GET', `/v1/projects/${ref}/functions`, { token: owner })).body).toEqual(before)
    expect(fs.readdirSync(functionsDir()).sort()).toEqual(dirBefore)
    expect(fs.readdirSync(path.join(functionsDir(), 'hello-world'))).toEqual(['4'])
  })

  it('lets Read-only read but not deploy or delete', async () => {
    const refused = await deploy(readOnly, 'sneaky', form({}, [['index.ts', HELLO]]))
    expect(refused.status).toBe(403)
    expect(refused.body.message).toMatch(/permissions/)
    expect((await api(t, 'DELETE', `/v1/projects/${ref}/functions/hello-world`, { token: readOnly })).status).toBe(403)
    expect((await api(t, 'GET', `/v1/projects/${ref}/functions/sneaky`, { token: owner })).status).toBe(404)
    expect(fs.existsSync(path.join(functionsDir(), 'sneaky'))).toBe(false)
    expect((await api(t, 'GET', `/v1/projects/${ref}/functions`)).status).toBe(401)
  })

  it('deletes a function with its files', async () => {
    const removed = await api(t, 'DELETE', `/v1/projects/${ref}/functions/hello-world`, { token: developer })
    expect(removed.status).toBe(200)
    expect(removed.body).toMatchObject({ slug: 'hello-world', status: 'REMOVED' })
    expect((await api(t, 'GET', `/v1/projects/${ref}/functions`, { token: owner })).body).toEqual([])
    expect(fs.existsSync(path.join(functionsDir(), 'hello-world'))).toBe(false)
    expect((await api(t, 'DELETE', `/v1/projects/${ref}/functions/hello-world`, { token: owner })).status).toBe(404)
    // Deploying again starts over at version 1.
    expect((await deploy(owner, 'hello-world', form({}, [['index.ts', HELLO]]))).body.version).toBe(1)
  })
})
