import { NetworkRestrictionsRequest } from '@stratum/contracts'
import { Plus, X } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Badge } from '../../components/ui/Badge'
import { Button, IconButton } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { TextField } from '../../components/ui/Field'
import { Switch } from '../../components/ui/Switch'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useApplyNetworkRestrictions, useNetworkRestrictions, useSslEnforcement, useUpdateSslEnforcement } from '../../data/database-config/databaseConfig'

const EVERYONE = ['0.0.0.0/0', '::/0']

/**
 * Who may connect to the database as its users: networks in CIDR form. The platform's own
 * connections (the dashboard, the APIs) are never affected.
 */
export function NetworkRestrictionsCard({ projectRef, canWrite, reason }: { projectRef: string; canWrite: boolean; reason: string }) {
  const toast = useToast()
  const restrictions = useNetworkRestrictions(projectRef)
  const apply = useApplyNetworkRestrictions(projectRef)
  const [entry, setEntry] = useState('')
  const [problem, setProblem] = useState<string>()
  const v4 = restrictions.data?.config.dbAllowedCidrs ?? []
  const v6 = restrictions.data?.config.dbAllowedCidrsV6 ?? []
  const all = [...v4, ...v6]
  const open = all.some((cidr) => EVERYONE.includes(cidr))

  const save = (nextV4: string[], nextV6: string[], done: string) => {
    const check = NetworkRestrictionsRequest.safeParse({ dbAllowedCidrs: nextV4, dbAllowedCidrsV6: nextV6 })
    if (!check.success) return setProblem(check.error.issues[0]?.message)
    setProblem(undefined)
    apply.mutate(
      { dbAllowedCidrs: nextV4, dbAllowedCidrsV6: nextV6 },
      { onSuccess: () => toast.success(done), onError: (error) => setProblem(errorMessage(error)) },
    )
  }
  const add = (event: FormEvent) => {
    event.preventDefault()
    const cidr = entry.trim()
    if (!cidr) return
    const isV6 = cidr.includes(':')
    // While everyone may connect, the first network added is a restriction: it replaces "everyone" in both families.
    const keep = (list: string[]) => (open ? [] : list.filter((item) => !EVERYONE.includes(item)))
    save(isV6 ? keep(v4) : [...keep(v4), cidr], isV6 ? [...keep(v6), cidr] : keep(v6), `Allowed ${cidr}`)
    setEntry('')
  }

  return (
    <Card
      title="Network restrictions"
      description="Networks allowed to connect to the database directly (psql, ORMs, the connection string). The dashboard and the project's APIs are not affected."
      actions={<Badge tone={open ? 'neutral' : 'warning'}>{open ? 'Open to all networks' : 'Restricted'}</Badge>}
    >
      <ul className="database-networks" aria-label="Allowed networks">
        {all.map((cidr) => (
          <li key={cidr} className="database-network">
            <span className="mono">{cidr}</span>
            <IconButton
              size="sm"
              label={`Remove ${cidr}`}
              icon={<X size={14} aria-hidden="true" />}
              disabled={!canWrite || all.length === 1}
              disabledReason={canWrite ? 'Keep at least one network; add 0.0.0.0/0 to allow all' : reason}
              // Busy while a change is applied: the lists are the server's last answer, so a second Remove then sent a
              // list still holding the first network (and put it back).
              loading={apply.isPending}
              onClick={() => save(v4.filter((item) => item !== cidr), v6.filter((item) => item !== cidr), `Removed ${cidr}`)}
            />
          </li>
        ))}
      </ul>
      {canWrite ? (
        <form className="database-network-form" onSubmit={add} aria-label="Allow a network">
          <TextField label="Network (CIDR)" placeholder="203.0.113.0/24 or 2001:db8::/32" value={entry} error={problem} onChange={(event) => setEntry(event.target.value)} />
          <Button type="submit" icon={<Plus size={14} aria-hidden="true" />} loading={apply.isPending}>
            Allow
          </Button>
          {open ? null : (
            <Button onClick={() => save(['0.0.0.0/0'], ['::/0'], 'The database is open to all networks again')} disabled={apply.isPending}>
              Allow all networks
            </Button>
          )}
        </form>
      ) : null}
    </Card>
  )
}

/** Users' connections must use TLS (hostssl); the platform's own are not affected. */
export function SslEnforcementCard({ projectRef, canWrite, reason }: { projectRef: string; canWrite: boolean; reason: string }) {
  const toast = useToast()
  const ssl = useSslEnforcement(projectRef)
  const update = useUpdateSslEnforcement(projectRef)
  const enforced = ssl.data?.currentConfig.database ?? false
  return (
    <Card title="SSL enforcement" description="Refuse direct connections to the database that do not use TLS.">
      <div className="row database-ssl-row">
        <span>Enforce SSL on incoming connections</span>
        <span className="spacer" />
        <Switch
          label="Enforce SSL on incoming connections"
          checked={enforced}
          busy={update.isPending}
          disabled={!canWrite || !ssl.data}
          disabledReason={reason}
          onCheckedChange={(next) =>
            update.mutate(next, {
              onSuccess: () => toast.success(next ? 'Direct connections now need TLS' : 'Direct connections may now skip TLS'),
              onError: (error) => toast.error(`Failed to change SSL enforcement: ${errorMessage(error)}`),
            })
          }
        />
      </div>
    </Card>
  )
}
