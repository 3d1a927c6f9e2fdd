import { POSTGRES_CONFIG_NAMES, UpdatePostgresConfigBody, type PostgresConfig, type PostgresConfigName } from '@stratum/contracts'
import { useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { QueryState } from '../../components/ui/QueryState'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { usePostgresConfig, useUpdatePostgresConfig } from '../../data/database-config/databaseConfig'

const BOOLEANS = new Set<PostgresConfigName>(['track_commit_timestamp', 'hot_standby_feedback'])
const NUMBERS = new Set<PostgresConfigName>([
  'max_connections', 'max_locks_per_transaction', 'max_parallel_maintenance_workers', 'max_parallel_workers', 'max_parallel_workers_per_gather',
  'max_replication_slots', 'max_wal_senders', 'max_worker_processes',
])

/** Text typed into a field, as the API takes it: numbers as numbers, on/off as booleans. */
function parsed(name: PostgresConfigName, text: string): unknown {
  if (BOOLEANS.has(name)) return text === 'on'
  if (NUMBERS.has(name)) return /^-?\d+$/.test(text.trim()) ? Number(text) : text
  return text.trim()
}

const shown = (value: unknown) => (typeof value === 'boolean' ? (value ? 'on' : 'off') : value === undefined ? '' : String(value))

/** The Postgres settings owners may change (the Management API's list), checked by the server against the running Postgres. */
export function PostgresSettingsCard({ projectRef, canWrite, reason }: { projectRef: string; canWrite: boolean; reason: string }) {
  const toast = useToast()
  const config = usePostgresConfig(projectRef)
  const update = useUpdatePostgresConfig(projectRef)
  const [drafts, setDrafts] = useState<Partial<Record<PostgresConfigName, string>>>({})
  const [restart, setRestart] = useState(false)
  const [problem, setProblem] = useState<string>()
  const changed = Object.keys(drafts) as PostgresConfigName[]

  const save = () => {
    const body = Object.fromEntries(changed.map((name) => [name, parsed(name, drafts[name]!)]))
    const check = UpdatePostgresConfigBody.safeParse({ ...body, ...(restart ? { restart_database: true } : {}) })
    if (!check.success) return setProblem(check.error.issues[0]?.message)
    setProblem(undefined)
    update.mutate(check.data, {
      onSuccess: () => {
        setDrafts({})
        toast.success(restart ? 'Saved the settings; the database restarts to apply them' : 'Saved the settings')
      },
      onError: (error) => setProblem(errorMessage(error)),
    })
  }

  return (
    <Card
      title="Postgres settings"
      description="Applied at once where Postgres allows it. Settings read only at start (shared_buffers, max_connections, max_locks_per_transaction, max_worker_processes...) wait for a restart."
      footer={
        <div className="form-actions database-settings-actions">
          <label className="database-settings-restart">
            <input type="checkbox" checked={restart} disabled={!canWrite} onChange={(event) => setRestart(event.target.checked)} />
            Restart the database if a setting needs it
          </label>
          <Button onClick={() => setDrafts({})} disabled={!changed.length || update.isPending}>
            Cancel
          </Button>
          <Button variant="primary" onClick={save} loading={update.isPending} disabled={!canWrite || !changed.length} disabledReason={canWrite ? undefined : reason}>
            Save
          </Button>
        </div>
      }
    >
      {problem ? (
        <Alert tone="danger" title="The settings were not saved">
          {problem}
        </Alert>
      ) : null}
      <QueryState query={config} loadingLabel="Loading the settings…" errorTitle="Could not load the settings" isEmpty={false} empty={null}>
        <table className="database-settings-table">
          <tbody>
            {POSTGRES_CONFIG_NAMES.map((name) => {
              const current = shown((config.data as Partial<PostgresConfig> | undefined)?.[name])
              const value = drafts[name] ?? current
              const set = (text: string) => setDrafts((now) => (text === current ? withoutKey(now, name) : { ...now, [name]: text }))
              return (
                <tr key={name}>
                  <th scope="row">
                    <label className="mono" htmlFor={`pg-${name}`}>
                      {name}
                    </label>
                  </th>
                  <td>
                    {BOOLEANS.has(name) || name === 'session_replication_role' ? (
                      <select id={`pg-${name}`} className="input" value={value} disabled={!canWrite} onChange={(event) => set(event.target.value)}>
                        {(BOOLEANS.has(name) ? ['on', 'off'] : ['origin', 'replica', 'local']).map((option) => (
                          <option key={option} value={option}>
                            {option}
                          </option>
                        ))}
                      </select>
                    ) : (
                      <input id={`pg-${name}`} className="input mono" value={value} readOnly={!canWrite} onChange={(event) => set(event.target.value)} />
                    )}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </QueryState>
    </Card>
  )
}

function withoutKey<T extends object>(object: T, key: keyof T): T {
  const copy = { ...object }
  delete copy[key]
  return copy
}
