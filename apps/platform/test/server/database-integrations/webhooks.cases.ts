import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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
 * receiver on loopback stands for the outside service; the refusal without that allowance is a unit test
 * (test/unit/net-address-check.test.ts).
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
      await rows(`create function public.net_spy() returns trigger language plpgsql as $$ begin return new; end $$`)
      for (const attempt of [
        'create trigger spy after insert on net._http_response for each row execute function public.net_spy()',
        'create trigger spy before delete on net.http_request_queue for each row execute function public.net_spy()',
        'create rule spy as on insert to net._http_response do also select 1',
        'alter table net._http_response enable row level security',
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
  })
}
