import http from 'node:http'
import type { AddressInfo } from 'node:net'
import pg from 'pg'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withAdminClient } from '../../../src/control/bootstrap-roles.js'
import { findProject } from '../../../src/control/project-store.js'
import { deliverySettings } from '../../../src/services/net/delivery.js'
import { ensureNetSchema } from '../../../src/services/net/schema.js'
import { ProjectNetWorker } from '../../../src/services/net/worker.js'
import { api, type Caller } from '../harness.js'
import type { IntegrationProject } from './context.js'

interface Received {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

/**
 * Database webhooks and pg_net (issue 29 item 3): requests queued by SQL are sent by the platform after commit and
 * answered in net._http_response. The shared platform allows private hosts (database-integrations.test.ts), so a
 * receiver on loopback stands for the outside service. The refusal without that allowance is tried with a worker of
 * the platform's own class on a database of its own (the shared project's worker is left alone), and in the unit
 * tests (test/unit/net-address-check.test.ts).
 */
export function webhookCases(project: IntegrationProject): void {
  const received: Received[] = []
  let receiver: http.Server
  let base = ''

  beforeAll(async () => {
    receiver = http.createServer((request, response) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        received.push({ method: request.method!, url: request.url!, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') })
        if (request.url?.startsWith('/slow')) return // never answered: the caller's timeout decides
        if (request.url?.startsWith('/redirect')) return void response.writeHead(302, { location: `${base}/elsewhere` }).end()
        response.writeHead(200, { 'content-type': 'application/json', 'x-receiver': 'yes' }).end(JSON.stringify({ ok: true, path: request.url }))
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    receiver?.closeAllConnections()
    await new Promise((resolve) => receiver?.close(resolve))
  })

  const query = (sql: string, caller: Caller = project.owner) => api(project.t, 'POST', `/platform/pg-meta/${project.ref}/query`, caller, { query: sql, read_only: false })
  const rows = async <T = Record<string, unknown>>(sql: string): Promise<T[]> => {
    const result = await query(sql)
    if (result.status !== 201) throw new Error(`${sql}: ${result.status} ${JSON.stringify(result.body)}`)
    return result.body.results.at(-1).rows as T[]
  }
  /** The recorded response of a request, once the worker has written it. */
  const responseOf = async (id: string | number) => {
    let response: Record<string, any> | undefined
    await expect
      .poll(async () => (response = (await rows(`select * from net._http_response where id = ${Number(id)}`))[0]), { timeout: 20_000 })
      .toBeDefined()
    return response!
  }
  const receivedAt = async (path: string) => {
    await expect.poll(() => received.find((request) => request.url.startsWith(path)), { timeout: 20_000 }).toBeDefined()
    return received.find((request) => request.url.startsWith(path))!
  }

  describe('webhooks', () => {
    it("a webhook on insert delivers Supabase's payload after commit, and the hook and its response are recorded", async () => {
      await rows(`create table public.webhook_orders (id bigint primary key, item text);
        create trigger orders_hook after insert on public.webhook_orders for each row execute function supabase_functions.http_request(
          '${base}/orders', 'POST', '{"Content-Type":"application/json","X-Secret":"s3"}', '{"source":"db"}', '5000')`)
      await rows(`insert into public.webhook_orders values (1, 'tea')`)

      const delivery = await receivedAt('/orders')
      expect(delivery.method).toBe('POST')
      expect(delivery.url).toBe('/orders?source=db')
      expect(delivery.headers['x-secret']).toBe('s3')
      expect(delivery.headers['content-type']).toBe('application/json')
      expect(JSON.parse(delivery.body)).toEqual({ type: 'INSERT', table: 'webhook_orders', schema: 'public', record: { id: 1, item: 'tea' }, old_record: null })

      const [hook] = await rows<{ hook_name: string; request_id: string }>(`select hook_name, request_id from supabase_functions.hooks where hook_name = 'orders_hook'`)
      expect(hook?.hook_name).toBe('orders_hook')
      const response = await responseOf(hook!.request_id)
      expect(response).toMatchObject({ status_code: 200, timed_out: false, error_msg: null, content_type: 'application/json' })
      expect(response.headers['x-receiver']).toBe('yes')
    })

    it("net.http_get's answer is readable in net._http_response; redirects are not followed; timeouts are recorded", async () => {
      const [ids] = await rows<{ get: number; redirect: number; slow: number }>(
        `select net.http_get('${base}/get?a=b', '{"q":"1 2"}') as get, net.http_get('${base}/redirect') as redirect,
                net.http_get('${base}/slow', timeout_milliseconds => 300) as slow`,
      )
      const { get, redirect, slow } = ids!
      const answer = await responseOf(get)
      expect(answer.status_code).toBe(200)
      expect(JSON.parse(answer.content)).toEqual({ ok: true, path: '/get?a=b&q=1%202' })
      expect(await responseOf(redirect)).toMatchObject({ status_code: 302, error_msg: null })
      expect(received.some((request) => request.url === '/elsewhere')).toBe(false)
      expect(await responseOf(slow)).toMatchObject({ status_code: null, timed_out: true, error_msg: 'Timeout of 300 ms reached' })
    })

    it("delivers to an edge function of the same project through the project's own URL", async () => {
      const files = new FormData()
      files.append('metadata', JSON.stringify({ verify_jwt: false }))
      const source = `Deno.serve(async (req) => Response.json({ got: await req.json(), method: req.method }))`
      files.append('file', new Blob([source], { type: 'application/typescript' }), 'index.ts')
      const deployed = await fetch(`${project.t.platform.url}/v1/projects/${project.ref}/functions/deploy?slug=hook-echo`, {
        method: 'POST',
        headers: { cookie: project.owner.cookie!, origin: project.t.platform.url },
        body: files,
      })
      expect(deployed.status, await deployed.text()).toBe(201)
      const functionUrl = `${project.t.platform.apiUrl}/projects/${project.ref}/functions/v1/hook-echo`
      const [sent] = await rows<{ id: number }>(`select net.http_post('${functionUrl}', '{"hello":"fn"}', timeout_milliseconds => 30000) as id`)
      const response = await responseOf(sent!.id)
      expect(response).toMatchObject({ status_code: 200, error_msg: null })
      expect(JSON.parse(response.content)).toEqual({ got: { hello: 'fn' }, method: 'POST' })
    })

    it("a tenant cannot put its code on net's tables, nor can the API roles send requests", async () => {
      await rows(`create function public.net_spy() returns trigger language plpgsql as $$ begin return new; end $$;
        create function public.net_spy_value() returns timestamptz language sql as 'select now()'`)
      for (const attempt of [
        'create trigger spy after insert on net._http_response for each row execute function public.net_spy()',
        'create trigger spy before delete on net.http_request_queue for each row execute function public.net_spy()',
        'create rule spy as on insert to net._http_response do also select 1',
        'alter table net._http_response enable row level security',
        'create policy spy on net._http_response using (true)',
        // Anything that would run its code when the platform's superuser writes these tables: a default, a check, an
        // index on an expression, a domain constraint, or the owner's role itself.
        'alter table net._http_response alter column created set default public.net_spy_value()',
        'alter table net._http_response add constraint spy check (public.net_spy_value() is not null)',
        'create index spy on net._http_response ((public.net_spy_value()))',
        'alter domain net.http_method add constraint spy check (public.net_spy_value() is not null)',
        'alter sequence net.http_request_queue_id_seq restart with 1',
        'alter table net._http_response owner to postgres',
        'grant stratum_net to postgres',
        'set role stratum_net',
        'create table net.extra (id int)',
        'alter function net.http_get(text, jsonb, jsonb, integer) security invoker',
        `do $$ begin set local role anon; perform net.http_get('${base}/anon'); end $$`,
        `do $$ begin set local role authenticated; perform net.http_post('${base}/authenticated'); end $$`,
      ]) {
        const result = await query(attempt)
        expect(result.status, attempt).toBe(400)
        expect(result.body.message, attempt).toMatch(/must be owner|permission denied/)
      }
    })

    it('refuses private targets where the installation does not allow them, records why, and sends nothing', async () => {
      const ctx = project.t.platform.ctx
      const row = (await findProject(ctx.db, project.ref))!
      const receiverPort = new URL(base).port
      const platformPort = new URL(project.t.platform.url).port
      await withAdminClient(ctx.projects.adminConnection(row), (admin) => admin.query('CREATE DATABASE net_refusals OWNER postgres'))
      const warnings: string[] = []
      const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) })
      const workerFor = () =>
        new ProjectNetWorker({
          ref: project.ref,
          login: async () => ctx.projects.adminConnection(row, 'net_refusals'),
          settings: { ...deliverySettings(ctx.config), allowPrivate: false },
          log,
        })
      let worker = workerFor()
      const tenant = new pg.Client({ host: '127.0.0.1', port: row.port, user: 'postgres', password: project.dbPassword, database: 'net_refusals' })
      tenant.on('error', () => {})
      try {
        // As a project made before net gets it from its worker; made here first, so that no request is queued before its grants.
        await withAdminClient(ctx.projects.adminConnection(row, 'net_refusals'), (admin) => ensureNetSchema(admin))
        worker.start()
        await tenant.connect()
        // Each target with the address its refusal must name.
        const targets = {
          metadata: ['http://169.254.169.254/latest/meta-data/', /^169\.254\.169\.254$/],
          platform: [`http://127.0.0.1:${platformPort}/platform/profile`, /^127\.0\.0\.1$/],
          mapped: [`http://[::ffff:127.0.0.1]:${receiverPort}/refused-mapped`, /^::ffff:7f00:1$/],
          localhost: [`http://localhost:${receiverPort}/refused-localhost`, /^(127\.0\.0\.1|::1)$/],
          loopback: [`http://127.0.0.1:${receiverPort}/refused-loopback`, /^127\.0\.0\.1$/],
        } as const
        const ids = new Map<string, string>()
        for (const [name, [url]] of Object.entries(targets)) {
          ids.set(name, (await tenant.query<{ id: string }>('SELECT net.http_get($1) AS id', [url])).rows[0]!.id)
        }
        for (const [name, [, address]] of Object.entries(targets)) {
          let answer: Record<string, any> | undefined
          await expect
            .poll(async () => (answer = (await tenant.query('SELECT * FROM net._http_response WHERE id = $1', [ids.get(name)])).rows[0]), { timeout: 20_000 })
            .toBeDefined()
          expect(answer, name).toMatchObject({ status_code: null, content: null, timed_out: false })
          expect(answer!.error_msg, name).toMatch(/^Refused: .+ resolves to .+, a loopback or private address/)
          expect(/ resolves to (\S+), a loopback/.exec(answer!.error_msg)?.[1], name).toMatch(address)
        }
        expect(received.filter((request) => request.url.startsWith('/refused-'))).toEqual([])
        await worker.stop()

        // What the worker checks before writing net's tables as the superuser: no tenant can add a default there (the case
        // above), but a restore or a copy could bring one; then the worker sends nothing and never runs it.
        await tenant.query(`
          CREATE TABLE public.superuser_calls (who text);
          CREATE FUNCTION public.pwn() RETURNS timestamptz LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO public.superuser_calls SELECT current_user WHERE (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user); RETURN now(); END $$`)
        await withAdminClient(ctx.projects.adminConnection(row, 'net_refusals'), (admin) =>
          admin.query('ALTER TABLE net._http_response ALTER COLUMN created SET DEFAULT public.pwn()'),
        )
        const queued = (await tenant.query<{ id: string }>(`SELECT net.http_get('http://169.254.169.254/') AS id`)).rows[0]!.id
        worker = workerFor()
        worker.start()
        await expect.poll(() => warnings.some((line) => line.includes('not as the platform made them')), { timeout: 20_000 }).toBe(true)
        expect((await tenant.query('SELECT id::text FROM net.http_request_queue')).rows).toEqual([{ id: queued }])
        expect((await tenant.query('SELECT who FROM public.superuser_calls')).rows).toEqual([])
      } finally {
        await worker.stop()
        await tenant.end().catch(() => {})
        await withAdminClient(ctx.projects.adminConnection(row), (admin) => admin.query('DROP DATABASE net_refusals WITH (FORCE)'))
      }
    })
  })
}
