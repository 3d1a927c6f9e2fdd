export type WebhookEvent = 'INSERT' | 'UPDATE' | 'DELETE'
export type WebhookMethod = 'POST' | 'GET'

/** A database webhook: a row trigger calling supabase_functions.http_request(url, method, headers, params, timeout). */
export interface DatabaseWebhook {
  /** The trigger's oid. */
  id: number
  name: string
  schema: string
  table: string
  events: WebhookEvent[]
  url: string
  method: WebhookMethod
  headers: Record<string, string>
  params: Record<string, string>
  timeoutMs: number
  enabled: boolean
}

/** What a webhook is made from (the create and edit form). */
export interface WebhookDraft {
  name: string
  schema: string
  table: string
  events: WebhookEvent[]
  url: string
  method: WebhookMethod
  headers: Array<[string, string]>
  params: Array<[string, string]>
  timeoutMs: number
}

/** One call of a webhook (supabase_functions.hooks) and its answer (net._http_response), when there is one yet. */
export interface WebhookDelivery {
  id: number
  hook_name: string
  schema: string | null
  table: string | null
  created_at: string
  request_id: number | null
  status_code: number | null
  timed_out: boolean | null
  error_msg: string | null
  content: string | null
  answered_at: string | null
}
