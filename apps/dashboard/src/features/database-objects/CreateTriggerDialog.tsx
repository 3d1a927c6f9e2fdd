import { useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Checkbox } from '../../components/ui/Checkbox'
import { Dialog } from '../../components/ui/Dialog'
import { SelectField, TextField } from '../../components/ui/Field'
import { useDatabaseFunctions } from '../../data/database-objects/useDatabaseFunctions'
import { useDatabaseTables } from '../../data/database-objects/useDatabaseTables'
import { buildCreateTrigger, TRIGGER_EVENTS, TRIGGER_TIMINGS, type TriggerEvent, type TriggerOrientation, type TriggerSpec, type TriggerTiming } from './sql/triggers'

interface CreateTriggerDialogProps {
  projectRef: string
  /** The schema whose tables are offered. */
  schema: string
  onClose: () => void
  onReview: (sql: string, spec: TriggerSpec) => void
}

/** `schema.name` as a select's value, split back without ambiguity (JSON, since names may hold dots). */
const keyOf = (object: { schema: string; name: string }) => JSON.stringify([object.schema, object.name])
const fromKey = (key: string): { schema: string; name: string } | undefined => {
  if (!key) return undefined
  const [schema, name] = JSON.parse(key) as [string, string]
  return { schema, name }
}

/** A new trigger: the table, the trigger function it calls (functions returning `trigger` only), events, timing and level. */
export function CreateTriggerDialog({ projectRef, schema, onClose, onReview }: CreateTriggerDialogProps) {
  const tables = useDatabaseTables(projectRef, schema)
  const functions = useDatabaseFunctions(projectRef, null)
  const triggerFunctions = (functions.data ?? []).filter((fn) => fn.return_type === 'trigger')
  const [name, setName] = useState('')
  const [table, setTable] = useState('')
  const [fn, setFn] = useState('')
  const [events, setEvents] = useState<TriggerEvent[]>(['INSERT'])
  const [timing, setTiming] = useState<TriggerTiming>('AFTER')
  const [orientation, setOrientation] = useState<TriggerOrientation>('ROW')
  const [error, setError] = useState<string | null>(null)

  const review = () => {
    const chosenTable = fromKey(table)
    const chosenFunction = fromKey(fn)
    if (!chosenTable) return setError('Choose a table')
    if (!chosenFunction) return setError('Choose a trigger function')
    const spec: TriggerSpec = { name, table: chosenTable, function: chosenFunction, events, timing, orientation }
    try {
      onReview(buildCreateTrigger(spec), spec)
    } catch (problem) {
      setError(problem instanceof Error ? problem.message : String(problem))
    }
  }
  const edited = <T,>(set: (value: T) => void) => (value: T) => {
    setError(null)
    set(value)
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Create a new trigger"
      description="A trigger calls a function when rows of a table change."
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" onClick={review}>
            Review SQL
          </Button>
        </>
      }
    >
      <TextField label="Name" value={name} onChange={(event) => edited(setName)(event.target.value)} autoFocus spellCheck={false} />
      <SelectField label="Table" value={table} onChange={(event) => edited(setTable)(event.target.value)} hint={`Tables of schema ${schema}.`}>
        <option value="">{tables.isPending ? 'Loading tables…' : 'Choose a table'}</option>
        {(tables.data ?? []).map((entry) => (
          <option key={entry.id} value={keyOf(entry)}>
            {entry.name}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Function"
        value={fn}
        onChange={(event) => edited(setFn)(event.target.value)}
        hint={functions.data && triggerFunctions.length === 0 ? 'No trigger function yet: create a function that returns trigger first.' : 'Functions that return trigger.'}
      >
        <option value="">{functions.isPending ? 'Loading functions…' : 'Choose a function'}</option>
        {triggerFunctions.map((entry) => (
          <option key={entry.id} value={keyOf(entry)}>
            {entry.schema}.{entry.name}
          </option>
        ))}
      </SelectField>
      <fieldset className="dbo-fieldset">
        <legend>Events</legend>
        {TRIGGER_EVENTS.map((event) => (
          <Checkbox
            key={event}
            label={event}
            checked={events.includes(event)}
            onCheckedChange={(checked) => edited(setEvents)(checked ? [...events, event] : events.filter((other) => other !== event))}
          />
        ))}
      </fieldset>
      <div className="dbo-form-row">
        <SelectField label="Timing" value={timing} onChange={(event) => edited(setTiming)(event.target.value as TriggerTiming)}>
          {TRIGGER_TIMINGS.map((option) => (
            <option key={option} value={option}>
              {option === 'BEFORE' ? 'Before the change' : 'After the change'}
            </option>
          ))}
        </SelectField>
        <SelectField label="Orientation" value={orientation} onChange={(event) => edited(setOrientation)(event.target.value as TriggerOrientation)}>
          <option value="ROW">Row: once per row changed</option>
          <option value="STATEMENT">Statement: once per statement</option>
        </SelectField>
      </div>
      {error ? (
        <Alert tone="danger" title="Check the trigger">
          {error}
        </Alert>
      ) : null}
    </Dialog>
  )
}
