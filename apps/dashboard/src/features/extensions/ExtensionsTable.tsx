import type { Extension } from '@stratum/contracts'
import { Badge } from '../../components/ui/Badge'
import { Card } from '../../components/ui/Card'
import { Switch } from '../../components/ui/Switch'
import { TableHead } from '../../components/ui/TableHead'

interface ExtensionsTableProps {
  extensions: Extension[]
  /** Enabling and disabling need the full-connection permission; without it the list has no toggles. */
  canWrite: boolean
  /** The extension whose change is on its way (its switch shows busy). */
  pending: string | null
  onEnable: (extension: Extension) => void
  onDisable: (extension: Extension) => void
}

const isEnabled = (extension: Extension) => extension.installed_version !== null

function Status({ extension }: { extension: Extension }) {
  return isEnabled(extension) ? <Badge tone="success">Enabled</Badge> : <Badge tone="neutral">Disabled</Badge>
}

/** One row per extension the project's Postgres ships: what it is, where it lives, and its toggle. */
export function ExtensionsTable({ extensions, canWrite, pending, onEnable, onDisable }: ExtensionsTableProps) {
  return (
    <Card flush>
      <table className="table extensions-table" aria-label="Extensions">
        <TableHead columns={['Name', 'Version', 'Description', 'Schema', 'Enabled']} />
        <tbody>
          {extensions.map((extension) => {
            const enabled = isEnabled(extension)
            // A refused extension can still be disabled (a project made before the deny list may have one).
            const refused = !extension.allowed && !enabled
            return (
              <tr key={extension.name} data-refused={!extension.allowed || undefined}>
                <td className="mono nowrap">{extension.name}</td>
                <td className="mono nowrap">{extension.installed_version ?? extension.default_version ?? ''}</td>
                <td>
                  <div>{extension.comment}</div>
                  {extension.allowed ? null : (
                    <div className="extensions-refusal">
                      <Badge tone="danger">Not available</Badge> <span>{capitalise(extension.reason ?? '')}</span>
                    </div>
                  )}
                </td>
                <td className="mono nowrap">{extension.schema ?? <span className="muted">-</span>}</td>
                <td className="extensions-toggle">
                  {canWrite ? (
                    <Switch
                      label={`${enabled ? 'Disable' : 'Enable'} ${extension.name}`}
                      checked={enabled}
                      busy={pending === extension.name}
                      disabled={refused}
                      disabledReason={refused ? `Not available on this platform: ${extension.reason}` : undefined}
                      onCheckedChange={(next) => (next ? onEnable(extension) : onDisable(extension))}
                    />
                  ) : (
                    <Status extension={extension} />
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </Card>
  )
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
