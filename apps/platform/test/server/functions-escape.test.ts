import { createHash } from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { V8_RESERVATION_MB } from '../../src/services/functions/sandbox.js'
import { ADMIN_EMAIL, api, projectApi, startTestPlatform, tokenFor, waitFor, waitForStatus, type TestPlatform } from './harness.js'

/**
 * Functions run with nothing of the host (issue 25, item 3): a clean environment, secret names that
 * would steer the loader, Deno, its npm/JSR resolution, Node compatibility, proxies or TLS refused (and
 * ignored when already stored), memory and CPU limits for the whole process, and module loading kept
 * off the ports the network deny list covers. User code is hostile here.
 */
const MEMORY_MB = 128

let t: TestPlatform
let token: string
let ref: string
let neighbourRef: string
/** The project's API base (its own origin, not the dashboard's). */
let projectUrl: string

beforeAll(async () => {
  t = await startTestPlatform({ STRATUM_FUNCTION_MEMORY_MB: String(MEMORY_MB) })
  token = await tokenFor(t, ADMIN_EMAIL)
  const slug = (await api(t, 'GET', '/platform/organizations', { token })).body[0].slug
  const create = async (name: string) =>
    (await api(t, 'POST', '/platform/projects', { token }, { name, organization_slug: slug, db_pass: 'escape-password-1' })).body.ref as string
  ;[ref, neighbourRef] = await Promise.all([create('Escape'), create('Neighbour')])
  await waitForStatus(t, ref, { token }, 'ACTIVE_HEALTHY', 60_000)
  await waitForStatus(t, neighbourRef, { token }, 'ACTIVE_HEALTHY', 60_000)
  projectUrl = (await projectApi(t, ref, { token })).url
}, 180_000)
afterAll(() => t?.cleanup())

/** Deploys the files (the first is the entrypoint) without JWT verification. */
async function deploy(slug: string, files: Record<string, string>) {
  const form = new FormData()
  form.append('metadata', JSON.stringify({ entrypoint_path: Object.keys(files)[0], verify_jwt: false }))
  for (const [name, content] of Object.entries(files)) form.append('file', new Blob([content]), name)
  const response = await fetch(`${t.platform.url}/v1/projects/${ref}/functions/deploy?slug=${slug}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })
  expect(response.status, await response.clone().text()).toBe(201)
}

async function invoke(slug: string, query = '') {
  const response = await fetch(`${projectUrl}/functions/v1/${slug}${query}`)
  const text = await response.text()
  let body: any = text
  try {
    body = JSON.parse(text)
  } catch {
    /* text */
  }
  return { status: response.status, body }
}

/** Stores a secret the way the store does (sealed, with its digest), around the API's name rules. */
async function storeSecretDirectly(name: string, value: string) {
  await t.platform.ctx.db.query(
    `INSERT INTO function_secrets (project_ref, name, value_sealed, value_sha256) VALUES ($1, $2, $3, $4)
     ON CONFLICT (project_ref, name) DO UPDATE SET value_sealed = $3, value_sha256 = $4, updated_at = now()`,
    [ref, name, t.platform.ctx.secrets.seal(value), createHash('sha256').update(value).digest('hex')],
  )
  // The API restarts the project's functions after a change; a direct write does it by hand.
  await t.platform.ctx.functions.stopProject(ref)
}

/** The environment a process really has (as root, or as its own user): /proc/<pid>/environ. */
function environOf(pid: number): Record<string, string> {
  const raw = fs.readFileSync(`/proc/${pid}/environ`, 'utf8')
  return Object.fromEntries(
    raw
      .split('\0')
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  )
}

const REFUSED: [name: string, rule: RegExp][] = [
  ['LD_PRELOAD', /LD_.*dynamic loader/],
  ['ld_library_path', /LD_.*dynamic loader/],
  ['LD_AUDIT', /LD_.*dynamic loader/],
  ['GLIBC_TUNABLES', /C library/],
  ['DENO_DIR', /DENO_.*Deno itself/],
  ['DENO_AUTH_TOKENS', /DENO_.*Deno itself/],
  ['deno_cert', /DENO_.*Deno itself/],
  ['NPM_CONFIG_REGISTRY', /NPM_CONFIG_.*npm/],
  ['npm_config_registry', /NPM_CONFIG_.*npm/],
  ['Npm_Config_Proxy', /NPM_CONFIG_.*npm/],
  ['JSR_URL', /JSR/],
  ['NODE_OPTIONS', /NODE_.*Node compatibility/],
  ['NODE_EXTRA_CA_CERTS', /NODE_.*Node compatibility/],
  ['node_tls_reject_unauthorized', /NODE_.*Node compatibility/],
  ['HTTP_PROXY', /_PROXY.*proxy/],
  ['HTTPS_PROXY', /_PROXY.*proxy/],
  ['ALL_PROXY', /_PROXY.*proxy/],
  ['NO_PROXY', /_PROXY.*proxy/],
  ['https_proxy', /_PROXY.*proxy/],
  ['no_proxy', /_PROXY.*proxy/],
  ['SSL_CERT_FILE', /SSL_CERT_.*TLS/],
  ['SSL_CERT_DIR', /SSL_CERT_.*TLS/],
  ['SSLKEYLOGFILE', /TLS/],
  ['SUPABASE_URL', /SUPABASE_ prefix/],
  ['supabase_anything', /SUPABASE_ prefix/],
  ['PATH', /set by the platform/],
  ['HOME', /set by the platform/],
]

describe('edge functions run with nothing of the host', () => {
  it("reaches its own project URL, never the dashboard's port", async () => {
    const dashboardPort = new URL(t.platform.url).port
    await deploy('reach', {
      'index.ts': `Deno.serve(async () => {
        const tryFetch = async (url: string) => { try { return String((await fetch(url)).status) } catch (error) { return String(error) + ' ' + String((error as Error).cause ?? '') } }
        return Response.json({
          dashboard: await tryFetch('http://localhost:${dashboardPort}/api/health'),
          own: await tryFetch(Deno.env.get('SUPABASE_URL') + '/rest/v1/'),
        })
      })`,
    })
    const { status, body } = await invoke('reach')
    expect(status).toBe(200)
    expect(body.own).toBe('401')
    expect(body.dashboard).toMatch(/NotCapable|Requires net access/)
  })

  it('refuses secret names that the loader, Deno, npm/JSR, Node, proxies or TLS read: 400 naming the rule', async () => {
    for (const [name, rule] of REFUSED) {
      const refused = await api(t, 'POST', `/v1/projects/${ref}/secrets`, { token }, [{ name, value: 'x' }])
      expect(refused.status, name).toBe(400)
      expect(refused.body.message, name).toMatch(rule)
    }
    // One refused name refuses the whole request: nothing of it is stored.
    const mixed = await api(t, 'POST', `/v1/projects/${ref}/secrets`, { token }, [{ name: 'FINE_ONE', value: 'x' }, { name: 'LD_PRELOAD', value: '/x.so' }])
    expect(mixed.status).toBe(400)
    // Names that only look alike stay allowed.
    const lookalikes = ['PROXY_URL', 'MY_PROXY_HOST', 'NODEJS_VERSION', 'DENOMINATOR', 'LDAP_URL', 'SSL_MODE', 'NPM_TOKEN', 'SUPABASE']
    expect((await api(t, 'POST', `/v1/projects/${ref}/secrets`, { token }, lookalikes.map((name) => ({ name, value: 'ok' })))).status).toBe(201)
    const listed = (await api(t, 'GET', `/v1/projects/${ref}/secrets`, { token })).body as { name: string }[]
    expect(listed.map((secret) => secret.name).sort()).toEqual([...lookalikes].sort())
    expect((await api(t, 'DELETE', `/v1/projects/${ref}/secrets`, { token }, lookalikes)).status).toBe(200)
  })

  it('starts Deno from a clean environment: stored secrets with refused names (LD_PRELOAD...) never reach it', async () => {
    expect((await api(t, 'POST', `/v1/projects/${ref}/secrets`, { token }, [{ name: 'MY_SECRET', value: 'mine' }])).status).toBe(201)
    // As a database written before the rules existed would hold them.
    const planted: Record<string, string> = {
      LD_PRELOAD: '/nonexistent/evil.so',
      ld_preload: '/nonexistent/evil.so',
      LD_LIBRARY_PATH: '/nonexistent',
      GLIBC_TUNABLES: 'glibc.malloc.check=3',
      DENO_AUTH_TOKENS: 'token@example.com',
      NPM_CONFIG_REGISTRY: 'http://127.0.0.1:1/',
      JSR_URL: 'http://127.0.0.1:1/',
      NODE_OPTIONS: '--require=/x.js',
      HTTPS_PROXY: 'http://127.0.0.1:1',
      SSL_CERT_FILE: '/nonexistent.pem',
      PATH: '/tmp',
    }
    // (SUPABASE_ names cannot even be stored: the table's CHECK refuses them.)
    for (const [name, value] of Object.entries(planted)) await storeSecretDirectly(name, value)
    process.env.STRATUM_ESCAPE_TEST_MARKER = 'platform-only'
    try {
      await deploy('env', {
        'index.ts': `const names = ${JSON.stringify(['MY_SECRET', 'SUPABASE_URL', ...Object.keys(planted)])}
Deno.serve(() => Response.json(Object.fromEntries(names.map((name) => [name, Deno.env.get(name) ?? null]))))`,
      })
      const { status, body } = await invoke('env')
      expect(status).toBe(200)
      expect(body.MY_SECRET).toBe('mine')
      // The platform's value, whatever was stored.
      expect(body.SUPABASE_URL).toMatch(/^http:\/\/localhost:\d+/)
      for (const name of Object.keys(planted)) expect(body[name], name).toBeNull()

      const pid = t.platform.ctx.functions.processOf(ref, 'env')!.pid!
      const environ = environOf(pid)
      expect(Object.keys(environ).sort()).toEqual(
        [
          'DENO_DIR',
          'DENO_NO_PACKAGE_JSON',
          'DENO_NO_UPDATE_CHECK',
          'DENO_TLS_CA_STORE',
          'HOME',
          'MY_SECRET',
          'NO_COLOR',
          'PATH',
          'SUPABASE_ANON_KEY',
          'SUPABASE_DB_URL',
          'SUPABASE_SERVICE_ROLE_KEY',
          'SUPABASE_URL',
        ].sort(),
      )
      expect(environ.PATH).toBe('/usr/bin:/bin')
      expect(environ.HOME).not.toBe(process.env.HOME)
      expect(environ.SUPABASE_URL).toBe(body.SUPABASE_URL)
      // HOME is the platform's, empty: no ~/.npmrc can steer npm.
      expect(fs.readdirSync(environ.HOME!)).toEqual([])
      expect(fs.statSync(environ.HOME!).uid).toBe(process.getuid!())
      // The pid is Deno's (prlimit exec'd it), with the OS limits on it.
      expect(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain('run')
      const limits = fs.readFileSync(`/proc/${pid}/limits`, 'utf8')
      const dataBytes = (MEMORY_MB + V8_RESERVATION_MB) * 1024 * 1024
      expect(limits).toMatch(new RegExp(`^Max data size\\s+${dataBytes}\\s+${dataBytes}\\s+bytes`, 'm'))
      expect(limits).toMatch(/^Max core file size\s+0\s+0\s+bytes/m)
    } finally {
      delete process.env.STRATUM_ESCAPE_TEST_MARKER
      await t.platform.ctx.db.query('DELETE FROM function_secrets WHERE project_ref = $1', [ref])
      await t.platform.ctx.functions.stopProject(ref)
    }
  }, 60_000)

  it('holds the memory limit for the whole process, Workers included: the request answers a 5xx naming it', async () => {
    await deploy('workers', {
      'index.ts': `const instance = crypto.randomUUID()
Deno.serve(async (req) => {
  if (!new URL(req.url).searchParams.has('eat')) return Response.json({ instance })
  const source = 'const hold = []; for (let i = 0; i < 200; i++) hold.push(new Uint8Array(1 << 20).fill(1)); self.postMessage(hold.length)'
  const url = URL.createObjectURL(new Blob([source], { type: 'application/javascript' }))
  const done = Array.from({ length: 6 }, () => new Promise((resolve, reject) => {
    const worker = new Worker(url, { type: 'module' })
    worker.onmessage = (event) => resolve(event.data)
    worker.onerror = (event) => reject(event.error ?? new Error(event.message))
  }))
  return Response.json({ held: await Promise.all(done) })
})`,
    })
    const first = await invoke('workers')
    expect(first.status).toBe(200)
    const eaten = await invoke('workers', '?eat')
    if (process.env.SHOW_ESCAPES) console.log('workers', eaten)
    expect(eaten.status, JSON.stringify(eaten.body).slice(0, 300)).toBeGreaterThanOrEqual(500)
    expect(eaten.body.message).toMatch(new RegExp(`memory limit of ${MEMORY_MB} MB`))
    const again = await invoke('workers')
    expect(again.status).toBe(200)
    expect(again.body.instance).not.toBe(first.body.instance)
  }, 120_000)

  it('stops a function whose own memory (ArrayBuffers, outside the V8 heap limit) passes the limit', async () => {
    await deploy('hoard', {
      'index.ts': `const hold = []
Deno.serve(async (req) => {
  const mb = Number(new URL(req.url).searchParams.get('mb') ?? 0)
  for (let i = 0; i < mb / 8; i++) {
    hold.push(new Uint8Array(8 << 20).fill(1))
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  return Response.json({ held: hold.length * 8 })
})`,
    })
    // Well under the limit: served.
    expect(await invoke('hoard', '?mb=32')).toMatchObject({ status: 200, body: { held: 32 } })
    const over = await invoke('hoard', '?mb=1024')
    if (process.env.SHOW_ESCAPES) console.log('hoard', over)
    expect(over.status, JSON.stringify(over.body).slice(0, 300)).toBeGreaterThanOrEqual(500)
    expect(over.body.message).toMatch(new RegExp(`out of memory.*memory limit of ${MEMORY_MB} MB`))
    expect((await invoke('hoard', '?mb=8')).status).toBe(200)
  }, 120_000)

  it('stops a request past its CPU-time limit with a 5xx naming it', async () => {
    const runtime = t.platform.ctx.functions
    const before = runtime.cpuLimitMs
    runtime.cpuLimitMs = 1_500
    try {
      await deploy('spin', {
        'index.ts': `const instance = crypto.randomUUID()
Deno.serve((req) => {
  if (new URL(req.url).searchParams.has('spin')) for (;;) {}
  return Response.json({ instance })
})`,
      })
      const first = await invoke('spin')
      expect(first.status).toBe(200)
      const spun = await invoke('spin', '?spin')
      if (process.env.SHOW_ESCAPES) console.log('spin', spun)
      expect(spun.status).toBeGreaterThanOrEqual(500)
      expect(spun.body.message).toMatch(/CPU-time limit of 1500 ms per request/)
      const again = await invoke('spin')
      expect(again.status).toBe(200)
      expect(again.body.instance).not.toBe(first.body.instance)
    } finally {
      runtime.cpuLimitMs = before
      await runtime.functionChanged(ref, 'spin')
    }
  }, 120_000)

  it('never lets module loading connect to a denied port: imports, .npmrc registries, stored registry secrets', async () => {
    // The neighbour is paused: its port stays on every other project's deny list, and a probe listens there.
    expect((await api(t, 'POST', `/v1/projects/${neighbourRef}/pause`, { token })).status).toBeLessThan(300)
    await waitForStatus(t, neighbourRef, { token }, 'INACTIVE', 90_000)
    const port = (await api(t, 'GET', `/platform/projects/${neighbourRef}`, { token })).body.db_port as number
    expect(port).toBeGreaterThan(0)
    let accepts = 0
    const probe = net.createServer((socket) => {
      accepts++
      socket.destroy()
    })
    await waitFor(
      () =>
        new Promise<boolean>((resolve) => {
          probe.once('error', () => resolve(false))
          probe.listen(port, '127.0.0.1', () => resolve(true))
        }),
      { what: "the probe to listen on the paused neighbour's port", timeoutMs: 30_000 },
    )
    try {
      // The probe counts: a connection from here is seen.
      await new Promise<void>((resolve, reject) => net.connect(port, '127.0.0.1', () => resolve()).once('error', reject))
      await waitFor(() => accepts === 1, { what: 'the probe to count a connection' })
      accepts = 0

      await deploy('static-import', { 'index.ts': `import x from 'http://127.0.0.1:${port}/x.js'\nDeno.serve(() => new Response(String(x)))` })
      const staticImport = await invoke('static-import')
      expect(staticImport.status).toBe(503)
      expect(staticImport.body.message).toMatch(/import access/)

      await deploy('dynamic-import', {
        'index.ts': `async function attempt(what) {
  try {
    await what()
    return 'ALLOWED'
  } catch (error) {
    return error.name + ': ' + error.message
  }
}
Deno.serve(async () => Response.json({
  loopback: await attempt(() => import('http://127.0.0.1:${port}/y.js')),
  byName: await attempt(() => import('http://localhost:${port}/z.js')),
  https: await attempt(() => import('https://127.0.0.1:${port}/w.js')),
  connect: await attempt(async () => (await Deno.connect({ hostname: '127.0.0.1', port: ${port} })).close()),
}))`,
      })
      const dynamicImport = await invoke('dynamic-import')
      expect(dynamicImport.status).toBe(200)
      // Imports are refused by the import permission (a TypeError), connections by the net permission.
      expect(dynamicImport.body).toEqual({
        loopback: expect.stringMatching(/Requires import access/),
        byName: expect.stringMatching(/Requires import access/),
        https: expect.stringMatching(/Requires import access/),
        connect: expect.stringMatching(/^NotCapable/),
      })

      for (const [slug, npmrc] of [
        ['npmrc-registry', `registry=http://127.0.0.1:${port}/`],
        ['npmrc-scoped', `; a private scope\n@evil:registry = "http://localhost:${port}/"`],
        ['npmrc-proxy', `https-proxy=http://127.0.0.1:${port}`],
        ['npmrc-variable', '${WHERE}=http://127.0.0.1:1/'],
      ]) {
        await deploy(slug!, {
          'index.ts': `import pad from 'npm:left-pad@1.3.0'\nDeno.serve(() => new Response(pad('x', 3)))`,
          'deno.json': '{}',
          '.npmrc': npmrc!,
        })
        const refused = await invoke(slug!)
        expect(refused.status, slug).toBe(503)
        expect(refused.body.message, slug).toMatch(/\.npmrc sets .*registry\.npmjs\.org only/)
      }
      // An .npmrc with the public registry and its token only is fine (nothing to download here: no npm import).
      await deploy('npmrc-public', {
        'index.ts': `Deno.serve(() => new Response('fine'))`,
        'deno.json': '{}',
        '.npmrc': 'registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=${NPM_TOKEN}',
      })
      expect(await invoke('npmrc-public')).toMatchObject({ status: 200, body: 'fine' })

      // Registry and proxy settings stored as secrets before the rules existed are ignored.
      await storeSecretDirectly('NPM_CONFIG_REGISTRY', `http://127.0.0.1:${port}/`)
      await storeSecretDirectly('npm_config_registry', `http://127.0.0.1:${port}/`)
      await storeSecretDirectly('JSR_URL', `http://127.0.0.1:${port}/`)
      await storeSecretDirectly('HTTPS_PROXY', `http://127.0.0.1:${port}`)
      await storeSecretDirectly('HTTP_PROXY', `http://127.0.0.1:${port}`)
      await deploy('registry-secret', {
        'index.ts': `Deno.serve(async () => {
  const outcomes = []
  for (const specifier of ['npm:left-pad@1.3.0', 'jsr:@std/path@1']) {
    try {
      await import(specifier)
      outcomes.push('loaded')
    } catch (error) {
      outcomes.push(error.name)
    }
  }
  return Response.json(outcomes)
})`,
      })
      const registrySecret = await invoke('registry-secret')
      if (process.env.SHOW_ESCAPES) console.log('registry-secret', registrySecret, staticImport)
      expect(registrySecret.status).toBe(200)

      expect(accepts).toBe(0)
    } finally {
      await new Promise((resolve) => probe.close(resolve))
      await t.platform.ctx.db.query('DELETE FROM function_secrets WHERE project_ref = $1', [ref])
    }
  }, 240_000)
})
