import { useState, type FormEvent } from 'react'
import { Button } from '../../components/ui/Button'
import { Checkbox } from '../../components/ui/Checkbox'
import { Dialog } from '../../components/ui/Dialog'
import { SelectField, TextField } from '../../components/ui/Field'
import type { WebhookDraft, WebhookEvent } from '../../data/database-webhooks/types'
import { KeyValueRows } from './KeyValueRows'
import { EVENT_LABELS, WEBHOOK_TEXTS } from './texts'

export type WebhookTarget = 'http' | 'function'

export interface WebhookForm extends WebhookDraft {
  target: WebhookTarget
  /** The edge function's slug when target is 'function'. */
  slug: string
}

interface WebhookEditorDialogProps {
  open: boolean
  /** Editing an existing hook (its name in the title) or creating one. */
  editing: string | null
  initial: WebhookForm
  tables: Array<{ schema: string; table: string }>
  functions: string[]
  /** `${project URL}/functions/v1/`: where the project's edge functions are called. */
  functionsUrl: string | null
  onCancel: () => void
  /** The form as a draft, its URL resolved; the page shows the SQL next. */
  onSubmit: (form: WebhookForm) => void
}

const EVENTS: WebhookEvent[] = ['INSERT', 'UPDATE', 'DELETE']
const tableKey = (schema: string, table: string) => JSON.stringify([schema, table])

function validate(form: WebhookForm): Record<string, string> {
  const errors: Record<string, string> = {}
  if (!form.name.trim()) errors.name = 'Please provide a name for your webhook'
  else if (new TextEncoder().encode(form.name).length > 63) errors.name = 'The name must be at most 63 bytes long'
  if (!form.table) errors.table = 'Please select a table for which your webhook will trigger'
  if (form.events.length === 0) errors.events = 'Please select at least one event'
  if (form.target === 'function') {
    if (!form.slug) errors.url = 'Please select an edge function'
  } else {
    let valid = false
    try {
      valid = ['http:', 'https:'].includes(new URL(form.url).protocol)
    } catch {
      valid = false
    }
    if (!valid) errors.url = 'Please provide a URL starting with http:// or https://'
  }
  if (!Number.isInteger(form.timeoutMs) || form.timeoutMs < 1000 || form.timeoutMs > 10_000) errors.timeout = WEBHOOK_TEXTS.timeoutRange
  return errors
}

/** Create or edit a database webhook: the table and events that fire it, and the request it sends. */
export function WebhookEditorDialog({ open, editing, initial, tables, functions, functionsUrl, onCancel, onSubmit }: WebhookEditorDialogProps) {
  const [form, setForm] = useState(initial)
  const [submitted, setSubmitted] = useState(false)
  const errors = submitted ? validate(form) : {}
  const set = (patch: Partial<WebhookForm>) => setForm((current) => ({ ...current, ...patch }))

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (Object.keys(validate(form)).length > 0) return
    const url = form.target === 'function' && functionsUrl ? `${functionsUrl}${form.slug}` : form.url.trim()
    onSubmit({ ...form, name: form.name.trim(), url })
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onCancel()}
      title={editing ? `Update webhook ${editing}` : 'Create a new database webhook'}
      description="A trigger on the table sends the request after each change is committed."
      footer={
        <>
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="webhook-form">
            {editing ? 'Review changes' : 'Create webhook'}
          </Button>
        </>
      }
    >
      <form id="webhook-form" className="webhook-form" onSubmit={submit} noValidate>
        <TextField label="Name" value={form.name} onChange={(event) => set({ name: event.target.value })} error={errors.name} autoFocus />
        <SelectField
          label="Table"
          value={form.table ? tableKey(form.schema, form.table) : ''}
          error={errors.table}
          hint="The table whose changes call the webhook."
          onChange={(event) => {
            const [schema, table] = event.target.value ? (JSON.parse(event.target.value) as [string, string]) : ['', '']
            set({ schema, table })
          }}
        >
          <option value="">Select a table</option>
          {tables.map(({ schema, table }) => (
            <option key={tableKey(schema, table)} value={tableKey(schema, table)}>
              {schema}.{table}
            </option>
          ))}
        </SelectField>
        <fieldset className="webhook-events" aria-describedby={errors.events ? 'webhook-events-error' : undefined}>
          <legend className="field-label">Events</legend>
          <div className="webhook-event-list">
            {EVENTS.map((name) => (
              <Checkbox
                key={name}
                label={EVENT_LABELS[name]}
                checked={form.events.includes(name)}
                onCheckedChange={(checked) => set({ events: EVENTS.filter((other) => (other === name ? checked : form.events.includes(other))) })}
              />
            ))}
          </div>
          {errors.events ? (
            <div className="field-error" id="webhook-events-error" role="alert">
              {errors.events}
            </div>
          ) : null}
        </fieldset>
        <SelectField label="Type of webhook" value={form.target} onChange={(event) => set({ target: event.target.value as WebhookTarget })}>
          <option value="http">HTTP Request</option>
          <option value="function">Edge Function of this project</option>
        </SelectField>
        <div className="webhook-request-row">
          <SelectField label="Method" value={form.method} onChange={(event) => set({ method: event.target.value as WebhookForm['method'] })}>
            <option value="POST">POST</option>
            <option value="GET">GET</option>
          </SelectField>
          {form.target === 'function' ? (
            <SelectField label="Edge Function" value={form.slug} error={errors.url} onChange={(event) => set({ slug: event.target.value })}>
              <option value="">{functions.length ? 'Select a function' : 'No function deployed yet'}</option>
              {functions.map((slug) => (
                <option key={slug} value={slug}>
                  {slug}
                </option>
              ))}
            </SelectField>
          ) : (
            <TextField label="URL" placeholder="https://example.com/webhook" value={form.url} error={errors.url} onChange={(event) => set({ url: event.target.value })} />
          )}
        </div>
        <TextField
          label="Timeout (ms)"
          type="number"
          min={1000}
          max={10000}
          value={Number.isNaN(form.timeoutMs) ? '' : form.timeoutMs}
          error={errors.timeout}
          onChange={(event) => set({ timeoutMs: event.target.valueAsNumber })}
        />
        <KeyValueRows label="HTTP Headers" noun="Header" rows={form.headers} onChange={(headers) => set({ headers })} />
        <KeyValueRows label="HTTP Parameters" noun="Parameter" rows={form.params} onChange={(params) => set({ params })} />
      </form>
    </Dialog>
  )
}
