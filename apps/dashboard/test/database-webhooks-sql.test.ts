import { describe, expect, it } from 'vitest'
import { createWebhookSql, parseHookRow, updateWebhookSql } from '../src/data/database-webhooks/webhookSql'

const hex = (args: string[]) => [...new TextEncoder().encode(args.map((arg) => `${arg}\0`).join(''))].map((byte) => byte.toString(16).padStart(2, '0')).join('')

describe('database webhooks SQL', () => {
  const draft = {
    name: 'order "placed"',
    schema: 'public',
    table: "o'rders",
    events: ['INSERT', 'DELETE'] as const,
    url: "https://example.com/hook?who='me'",
    method: 'POST' as const,
    headers: [['Content-type', 'application/json'], [' ', 'ignored']] as Array<[string, string]>,
    params: [['q', "it's"]] as Array<[string, string]>,
    timeoutMs: 2500,
  }

  it("writes Supabase's trigger, every name quoted and every argument a literal", () => {
    expect(createWebhookSql({ ...draft, events: [...draft.events] })).toBe(
      `create trigger "order ""placed""" after insert or delete\non "public"."o'rders" for each row\n` +
        `execute function supabase_functions.http_request('https://example.com/hook?who=''me''', 'POST', '{"Content-type":"application/json"}', '{"q":"it''s"}', '2500');`,
    )
  })

  it('reads a trigger back from pg_trigger: events from tgtype, arguments from tgargs (UTF-8)', () => {
    const hook = parseHookRow({
      id: 7,
      name: 'h',
      schema: 'public',
      table: 'tea',
      type: 1 | 4 | 16,
      enabled: true,
      args: hex(['https://example.com/ünï', 'GET', '{"X-A":"b"}', '{"p":"1"}', '3000']),
    })
    expect(hook).toMatchObject({ events: ['INSERT', 'UPDATE'], url: 'https://example.com/ünï', method: 'GET', headers: { 'X-A': 'b' }, params: { p: '1' }, timeoutMs: 3000 })
    expect(updateWebhookSql(hook, { ...draft, events: ['UPDATE'] })).toMatch(/^drop trigger "h" on "public"."tea";\ncreate trigger "order ""placed""" after update\n/)
  })
})
