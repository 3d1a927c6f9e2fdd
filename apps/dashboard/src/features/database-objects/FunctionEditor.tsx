import type { PgMetaFunction } from '@stratum/contracts'
import { useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { SelectField, TextField } from '../../components/ui/Field'
import { useFunctionLanguages } from '../../data/database-objects/useFunctionLanguages'
import { useSchemas } from '../../data/table-editor/useCatalog'
import { FunctionArgumentsEditor } from './FunctionArgumentsEditor'
import { FunctionBodyEditor } from './FunctionBodyEditor'
import { argumentsOfFunction, renderArguments, type FunctionArgument } from './sql/function-arguments'
import { buildSaveFunction, FUNCTION_BEHAVIORS, searchPathForForm, type FunctionBehavior, type FunctionSpec } from './sql/functions'
import { READ_ONLY_REASON } from '../database-pages'

interface FunctionEditorProps {
  projectRef: string
  /** The schema a new function goes to. */
  schema: string
  /** The function edited; undefined for a new one. */
  existing: PgMetaFunction | undefined
  canWrite: boolean
  onCancel: () => void
  onReview: (sql: string, spec: FunctionSpec) => void
}

const COMMON_RETURN_TYPES = ['void', 'trigger', 'text', 'integer', 'bigint', 'boolean', 'numeric', 'uuid', 'jsonb', 'timestamptz', 'record', 'setof record']

function initialSpec(schema: string, existing: PgMetaFunction | undefined): FunctionSpec {
  if (!existing) {
    return { schema, name: '', args: '', returns: 'void', language: 'plpgsql', body: 'begin\n\nend;', securityDefiner: false, behavior: 'VOLATILE', searchPath: '' }
  }
  return {
    schema: existing.schema,
    name: existing.name,
    args: existing.argument_types,
    returns: existing.return_type,
    language: existing.language,
    body: existing.definition,
    securityDefiner: existing.security_definer,
    behavior: existing.behavior,
    searchPath: searchPathForForm(existing.config_params),
  }
}

/** Creating or editing a function: every field of its CREATE FUNCTION, the body in Monaco, then the SQL to review. */
export function FunctionEditor({ projectRef, schema, existing, canWrite, onCancel, onReview }: FunctionEditorProps) {
  const [spec, setSpec] = useState(() => initialSpec(schema, existing))
  // The arguments as rows; undefined while they are edited as SQL text (spec.args), which the form
  // falls back to when an existing list cannot be read into rows.
  const [argumentRows, setArgumentRows] = useState<FunctionArgument[] | undefined>(() => (existing ? argumentsOfFunction(existing.argument_types, existing.args) : []))
  const [error, setError] = useState<string | null>(null)
  const schemas = useSchemas(projectRef)
  const languages = useFunctionLanguages(projectRef)
  const update = (change: Partial<FunctionSpec>) => {
    setError(null)
    setSpec((current) => ({ ...current, ...change }))
  }
  const schemaNames = schemas.data?.includes(spec.schema) ? schemas.data : [spec.schema, ...(schemas.data ?? [])]
  const languageNames = languages.data?.includes(spec.language) ? languages.data : [spec.language, ...(languages.data ?? [])]

  const review = () => {
    if (!canWrite) return
    try {
      const full = argumentRows ? { ...spec, args: renderArguments(argumentRows) } : spec
      onReview(buildSaveFunction(full, existing), full)
    } catch (problem) {
      setError(problem instanceof Error ? problem.message : String(problem))
    }
  }

  return (
    <Card
      title={existing ? `Edit function ${existing.name}` : 'Create a new function'}
      description="The SQL to run is shown before anything changes."
      footer={
        <>
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
          <Button variant="primary" onClick={review} disabled={!canWrite} disabledReason={canWrite ? undefined : READ_ONLY_REASON}>
            Review SQL
          </Button>
        </>
      }
    >
      <form
        className="dbo-form"
        aria-label={existing ? 'Edit function' : 'Create function'}
        onSubmit={(event) => {
          event.preventDefault()
          review()
        }}
      >
        <div className="dbo-form-row">
          <TextField label="Name" value={spec.name} onChange={(event) => update({ name: event.target.value })} autoFocus={!existing} spellCheck={false} />
          <SelectField label="Schema" value={spec.schema} onChange={(event) => update({ schema: event.target.value })}>
            {schemaNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </SelectField>
        </div>
        {argumentRows ? (
          <FunctionArgumentsEditor
            args={argumentRows}
            onChange={(rows) => {
              setError(null)
              setArgumentRows(rows)
            }}
            onEditAsText={() => {
              try {
                update({ args: renderArguments(argumentRows) })
                setArgumentRows(undefined)
              } catch (problem) {
                setError(problem instanceof Error ? problem.message : String(problem))
              }
            }}
          />
        ) : (
          <TextField
            label="Arguments"
            value={spec.args}
            onChange={(event) => update({ args: event.target.value })}
            placeholder="user_id uuid, amount numeric DEFAULT 0"
            hint="Name and type of each argument, separated by commas; leave empty for none."
            className="mono"
            spellCheck={false}
          />
        )}
        <div className="dbo-form-row">
          <TextField label="Return type" value={spec.returns} onChange={(event) => update({ returns: event.target.value })} list="dbo-return-types" className="mono" spellCheck={false} />
          <datalist id="dbo-return-types">
            {COMMON_RETURN_TYPES.map((type) => (
              <option key={type} value={type} />
            ))}
          </datalist>
          <SelectField label="Language" value={spec.language} onChange={(event) => update({ language: event.target.value })} hint="The trusted languages installed in the database.">
            {languageNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="dbo-form-row">
          <SelectField label="Security" value={spec.securityDefiner ? 'definer' : 'invoker'} onChange={(event) => update({ securityDefiner: event.target.value === 'definer' })}>
            <option value="invoker">SECURITY INVOKER: runs with the caller's rights</option>
            <option value="definer">SECURITY DEFINER: runs with the owner's rights</option>
          </SelectField>
          <SelectField label="Behavior" value={spec.behavior} onChange={(event) => update({ behavior: event.target.value as FunctionBehavior })}>
            {FUNCTION_BEHAVIORS.map((behavior) => (
              <option key={behavior} value={behavior}>
                {behavior}
              </option>
            ))}
          </SelectField>
        </div>
        <TextField
          label="search_path"
          value={spec.searchPath}
          onChange={(event) => update({ searchPath: event.target.value })}
          placeholder="public, extensions"
          hint={
            spec.securityDefiner
              ? "Required for a security definer function, so callers cannot put their own objects first: '' for an empty path (then qualify every name)."
              : "Schemas searched while the function runs, separated by commas; '' for an empty path; leave empty to use the caller's."
          }
          className="mono"
          spellCheck={false}
        />
        <div className="field">
          <div className="field-label-row">
            <span className="field-label">Definition</span>
          </div>
          <FunctionBodyEditor projectRef={projectRef} initialValue={spec.body} onChange={(body) => update({ body })} readOnly={!canWrite} />
        </div>
        {error ? (
          <Alert tone="danger" title="Check the function">
            {error}
          </Alert>
        ) : null}
        {/* Enter in a field reviews the SQL, as the button does. */}
        <button type="submit" hidden />
      </form>
    </Card>
  )
}
