import type { DatabaseWebhook, WebhookDraft, WebhookEvent, WebhookMethod } from './types'

/** Every row trigger calling supabase_functions.http_request(), with its arguments as hex (split in parseHookRow). */
export const HOOKS_QUERY = `select coalesce(json_agg(json_build_object(
    'id', t.oid, 'name', t.tgname, 'schema', n.nspname, 'table', c.relname, 'type', t.tgtype,
    'enabled', t.tgenabled <> 'D', 'args', encode(t.tgargs, 'hex')) order by n.nspname, c.relname, t.tgname), '[]') as data
  from pg_catalog.pg_trigger t
  join pg_catalog.pg_class c on c.oid = t.tgrelid
  join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  join pg_catalog.pg_proc p on p.oid = t.tgfoid
  join pg_catalog.pg_namespace pn on pn.oid = p.pronamespace
 where pn.nspname = 'supabase_functions' and p.proname = 'http_request' and not t.tgisinternal`

/** The latest calls of the project's webhooks, each with its answer once the platform has one. */
export const DELIVERIES_QUERY = `select coalesce(json_agg(d order by d.id desc), '[]') as data from (
  select h.id, h.hook_name, n.nspname as "schema", c.relname as "table", h.created_at, h.request_id,
         r.status_code, r.timed_out, r.error_msg, left(r.content, 300) as content, r.created as answered_at
    from supabase_functions.hooks h
    left join net._http_response r on r.id = h.request_id
    left join pg_catalog.pg_class c on c.oid = h.hook_table_id::oid
    left join pg_catalog.pg_namespace n on n.oid = c.relnamespace
   order by h.id desc
   limit 50) d`

/** Tables a webhook may watch: the project's own, not Postgres's nor the platform's. */
export const WEBHOOK_TABLES_QUERY = `select coalesce(json_agg(json_build_object('schema', n.nspname, 'table', c.relname) order by n.nspname, c.relname), '[]') as data
  from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
 where c.relkind in ('r', 'p') and not c.relispartition
   and n.nspname not like 'pg\\_%' and n.nspname not in ('information_schema', 'net', 'supabase_functions')`

export interface HookRow {
  id: number
  name: string
  schema: string
  table: string
  type: number
  enabled: boolean
  args: string
}

// pg_trigger.tgtype bits (Postgres's trigger.h).
const TYPE_INSERT = 1 << 2
const TYPE_DELETE = 1 << 3
const TYPE_UPDATE = 1 << 4

/** tgargs: each argument's bytes followed by a zero byte. */
function splitArgs(hex: string): string[] {
  const bytes = new Uint8Array((hex.match(/../g) ?? []).map((pair) => parseInt(pair, 16)))
  const args: string[] = []
  let start = 0
  for (let index = 0; index < bytes.length; index++) {
    if (bytes[index] !== 0) continue
    args.push(new TextDecoder().decode(bytes.subarray(start, index)))
    start = index + 1
  }
  return args
}

function jsonObject(text: string | undefined): Record<string, string> {
  if (!text || text === 'null') return {}
  try {
    const value = JSON.parse(text) as unknown
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {}
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, typeof entry === 'string' ? entry : JSON.stringify(entry)]))
  } catch {
    return {}
  }
}

export function parseHookRow(row: HookRow): DatabaseWebhook {
  const [url = '', method = 'POST', headers, params, timeout] = splitArgs(row.args)
  const events: WebhookEvent[] = []
  if (row.type & TYPE_INSERT) events.push('INSERT')
  if (row.type & TYPE_UPDATE) events.push('UPDATE')
  if (row.type & TYPE_DELETE) events.push('DELETE')
  return {
    id: row.id,
    name: row.name,
    schema: row.schema,
    table: row.table,
    events,
    url,
    method: (method === 'GET' ? 'GET' : 'POST') as WebhookMethod,
    headers: jsonObject(headers),
    params: jsonObject(params),
    timeoutMs: Number(timeout) || 1000,
    enabled: row.enabled,
  }
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`
const pairsToJson = (pairs: Array<[string, string]>) =>
  JSON.stringify(Object.fromEntries(pairs.map(([key, value]) => [key.trim(), value] as const).filter(([key]) => key !== '')))

/** The trigger Supabase's dashboard makes for a webhook: after the chosen events, for each row. */
export function createWebhookSql(draft: WebhookDraft): string {
  const events = draft.events.map((event) => event.toLowerCase()).join(' or ')
  const args = [draft.url, draft.method, pairsToJson(draft.headers), pairsToJson(draft.params), String(draft.timeoutMs)].map(literal).join(', ')
  return `create trigger ${ident(draft.name)} after ${events}\non ${ident(draft.schema)}.${ident(draft.table)} for each row\nexecute function supabase_functions.http_request(${args});`
}

export function dropWebhookSql(hook: Pick<DatabaseWebhook, 'name' | 'schema' | 'table'>): string {
  return `drop trigger ${ident(hook.name)} on ${ident(hook.schema)}.${ident(hook.table)};`
}

/** An edit replaces the trigger, in one transaction with the rest of the SQL run. */
export function updateWebhookSql(previous: DatabaseWebhook, draft: WebhookDraft): string {
  return `${dropWebhookSql(previous)}\n${createWebhookSql(draft)}`
}
