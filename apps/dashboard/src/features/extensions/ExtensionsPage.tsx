import { EXTENSION_TEXTS, type Extension } from '@stratum/contracts'
import { Puzzle, Search } from 'lucide-react'
import { useMemo, useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Card } from '../../components/ui/Card'
import { EmptyState } from '../../components/ui/EmptyState'
import { PageHeader } from '../../components/ui/PageHeader'
import { LoadingState } from '../../components/ui/Spinner'
import { useToast } from '../../components/ui/Toast'
import { useDisableExtension } from '../../data/extensions/useDisableExtension'
import { useEnableExtension } from '../../data/extensions/useEnableExtension'
import { useExtensions } from '../../data/extensions/useExtensions'
import { useCan } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { DisableExtensionDialog } from './DisableExtensionDialog'
import { EnableExtensionDialog } from './EnableExtensionDialog'
import { ExtensionsTable } from './ExtensionsTable'
import './extensions.css'
import { QueryError } from '../../components/ui/QueryState'

/** Search by name or description, case-insensitively. */
function matches(extension: Extension, search: string): boolean {
  const needle = search.trim().toLowerCase()
  return !needle || extension.name.toLowerCase().includes(needle) || (extension.comment ?? '').toLowerCase().includes(needle)
}

/** /project/{ref}/database/extensions: every extension the project's Postgres ships, with a toggle for each. */
export function ExtensionsPage() {
  useProjectPageTitle('Extensions')
  const { ref, project } = useCurrentProject()
  const toast = useToast()
  const extensions = useExtensions(ref)
  const canWrite = useCan(project?.organization_slug, 'sql.write')
  const enable = useEnableExtension()
  const disable = useDisableExtension()
  const [search, setSearch] = useState('')
  const [enabling, setEnabling] = useState<Extension | null>(null)
  const [disabling, setDisabling] = useState<Extension | null>(null)

  const all = useMemo(() => extensions.data ?? [], [extensions.data])
  const shown = useMemo(() => all.filter((extension) => matches(extension, search)), [all, search])
  const enabledCount = all.filter((extension) => extension.installed_version !== null).length
  const pending = enable.isPending ? (enable.variables?.body.name ?? null) : disable.isPending ? (disable.variables?.name ?? null) : null

  const startEnable = (extension: Extension) => {
    enable.reset()
    setEnabling(extension)
  }
  const startDisable = (extension: Extension) => {
    disable.reset()
    setDisabling(extension)
  }

  return (
    <div className="page">
      <PageHeader
        title="Extensions"
        description="Postgres extensions add types, functions and index methods to your database. Those that would reach the server's files, programs or network are not available."
      />
      <div className="stack">
        {canWrite || !project ? null : (
          <Alert tone="info" live={false}>
            {EXTENSION_TEXTS.writePermission}
          </Alert>
        )}
        <div className="extensions-toolbar">
          <div className="input-wrap extensions-search">
            <Search size={14} aria-hidden="true" className="extensions-search-icon" />
            <input
              className="input"
              type="search"
              aria-label="Search for an extension"
              placeholder="Search for an extension"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
          {extensions.data ? (
            <span className="muted extensions-count">
              {enabledCount} of {all.length} enabled
            </span>
          ) : null}
        </div>
        {extensions.isPending ? (
          <LoadingState label="Loading extensions…" />
        ) : extensions.isError ? (
          <QueryError query={extensions} title="Could not load the extensions" />
        ) : shown.length === 0 ? (
          <Card>
            <EmptyState icon={<Puzzle size={22} />} title="No extension matches your search" description={`Nothing named or described like "${search.trim()}".`} />
          </Card>
        ) : (
          <ExtensionsTable extensions={shown} canWrite={canWrite} pending={pending} onEnable={startEnable} onDisable={startDisable} />
        )}
      </div>
      <EnableExtensionDialog
        extension={enabling}
        onClose={() => setEnabling(null)}
        pending={enable.isPending}
        error={enable.error}
        onEnable={(schema) => {
          if (!enabling) return
          const name = enabling.name
          enable.mutate(
            { ref, body: { name, schema, cascade: true } },
            {
              onSuccess: (result) => {
                toast.success(`Extension ${name} is now enabled`, result.schema ? `Its objects are in schema ${result.schema}.` : undefined)
                setEnabling(null)
              },
            },
          )
        }}
      />
      <DisableExtensionDialog
        extension={disabling}
        onClose={() => setDisabling(null)}
        pending={disable.isPending}
        error={disable.error}
        onDisable={(cascade) => {
          if (!disabling) return
          const name = disabling.name
          disable.mutate(
            { ref, name, cascade },
            {
              onSuccess: () => {
                toast.success(`Extension ${name} is now disabled`)
                setDisabling(null)
              },
            },
          )
        }}
      />
    </div>
  )
}
