import { X } from 'lucide-react'
import { useMemo, useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { IconButton } from '../../components/ui/Button'
import { DialogPrimitive } from '../../components/ui/Dialog'
import { LoadingState } from '../../components/ui/Spinner'
import { errorMessage } from '../../data/api'
import { useOpenApiDocument } from '../../data/api-docs/useOpenApiDocument'
import { apiKeyOf, projectApiUrl, useProjectSettings } from '../../data/api-keys/useProjectSettings'
import { useFunctions } from '../../data/functions/useFunctions'
import { useCan } from '../../data/profile/useCan'
import { useBuckets } from '../../data/storage/useBuckets'
import { BucketPage } from './BucketPage'
import { ConnectPage } from './ConnectPage'
import { DocsMenu } from './DocsMenu'
import { DownloadTypesButton } from './DownloadTypesButton'
import type { ActivePage, SectionDef } from './docs-state'
import { ItemList } from './ItemList'
import { proceduresOf, tablesOf } from './openapi'
import { FunctionPage } from './FunctionPage'
import { ProcedurePage } from './ProcedurePage'
import { RealtimePage } from './RealtimePage'
import { LANGUAGES, type Language } from './snippets'
import { TablePage } from './TablePage'
import { UserManagementPage } from './UserManagementPage'
import './api-docs.css'

interface ApiDocsDrawerProps {
  projectRef: string
  orgSlug: string | undefined
  open: boolean
  onOpenChange: (open: boolean) => void
}

/** The API docs drawer: how to call this project's generated API, with its own names and keys. */
export function ApiDocsDrawer({ projectRef, orgSlug, open, onOpenChange }: ApiDocsDrawerProps) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="dialog-overlay" />
        <DialogPrimitive.Content className="docs-drawer" aria-describedby={undefined}>
          <DocsBody projectRef={projectRef} orgSlug={orgSlug} onClose={() => onOpenChange(false)} />
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  )
}

function DocsBody({ projectRef, orgSlug, onClose }: { projectRef: string; orgSlug: string | undefined; onClose: () => void }) {
  const [active, setActive] = useState<ActivePage>(['introduction'])
  const [lang, setLang] = useState<Language>('js')
  const [showKeys, setShowKeys] = useState(false)
  // The docs sections (project_auth, project_storage, project_edge_function, realtime) belong to
  // every role that may read the project (docs/ARCHITECTURE.md permission table).
  const canReadProject = useCan(orgSlug, 'projects.read')
  const canReadSecrets = useCan(orgSlug, 'service_api_keys.read')
  const settings = useProjectSettings(projectRef)
  const document = useOpenApiDocument(projectRef, 'anon')
  const tables = useMemo(() => tablesOf(document.data), [document.data])
  const procedures = useMemo(() => proceduresOf(document.data), [document.data])
  // Live records (read-only here): the storage and edge function pages list what the project has.
  const buckets = useBuckets(canReadProject ? projectRef : undefined)
  const functions = useFunctions(canReadProject ? projectRef : undefined)

  const sections: SectionDef[] = [
    { key: 'introduction', label: 'Connect' },
    ...(canReadProject ? [{ key: 'user-management' as const, label: 'User Management' }] : []),
    { key: 'entities', label: 'Tables & Views' },
    { key: 'stored-procedures', label: 'Stored Procedures' },
    ...(canReadProject ? [{ key: 'storage' as const, label: 'Storage' }] : []),
    ...(canReadProject ? [{ key: 'edge-functions' as const, label: 'Edge Functions' }] : []),
    ...(canReadProject ? [{ key: 'realtime' as const, label: 'Realtime' }] : []),
  ]
  const tableNames = tables.map((table) => table.name)
  const procedureNames = procedures.map((procedure) => procedure.name)
  const bucketNames = (buckets.data ?? []).map((bucket) => bucket.name)
  const functionSlugs = useMemo(
    () => (functions.data ?? []).map((fn) => fn.slug).sort((a, b) => a.localeCompare(b)),
    [functions.data],
  )

  const url = settings.data ? projectApiUrl(settings.data) : ''
  const anonKey = apiKeyOf(settings.data, 'anon')
  const serviceKey = canReadSecrets ? apiKeyOf(settings.data, 'service_role') : undefined
  const ctx = { url, key: showKeys ? anonKey : undefined }
  const [section, item] = active
  const back = () => setActive([section])
  const select = (name: string) => setActive([section, name])

  const documentState = document.isPending ? (
    <LoadingState label="Reading the project's API…" />
  ) : document.isError ? (
    <Alert tone="danger" title="Could not read the project's API">
      {errorMessage(document.error)}
    </Alert>
  ) : null

  let page
  if (settings.isPending) page = <LoadingState label="Loading API settings…" />
  else if (settings.isError)
    page = (
      <Alert tone="danger" title="Failed to retrieve configuration">
        {errorMessage(settings.error)}
      </Alert>
    )
  else if (section === 'introduction')
    page = (
      <ConnectPage
        lang={lang}
        ctx={ctx}
        url={url}
        anonKey={anonKey}
        serviceKey={serviceKey}
        showKeys={showKeys}
        onToggleKeys={() => setShowKeys((shown) => !shown)}
      />
    )
  else if (section === 'entities') {
    const table = item ? tables.find((t) => t.name === item) : undefined
    page =
      documentState ??
      (table ? (
        <TablePage table={table} names={tableNames} lang={lang} ctx={ctx} onSelect={select} onBack={back} />
      ) : (
        <ItemList
          title="Tables & Views"
          intro={
            <>
              Every table and view the anon role can reach through the API, generated from your database schema. Typed
              clients: generate the <code>Database</code> type of your public schema for supabase-js.{' '}
              <DownloadTypesButton projectRef={projectRef} />
            </>
          }
          names={tableNames}
          listLabel="Tables and views"
          emptyText="No table or view is exposed to the anon role yet. Create one in the public schema and grant the anon role access to it."
          onSelect={select}
        />
      ))
  } else if (section === 'stored-procedures') {
    const procedure = item ? procedures.find((p) => p.name === item) : undefined
    page =
      documentState ??
      (procedure ? (
        <ProcedurePage procedure={procedure} names={procedureNames} lang={lang} ctx={ctx} onSelect={select} onBack={back} />
      ) : (
        <ItemList
          title="Stored Procedures"
          intro="Postgres functions the anon role may execute, callable as remote procedures."
          names={procedureNames}
          listLabel="Stored procedures"
          emptyText="No function is exposed to the anon role yet."
          onSelect={select}
        />
      ))
  } else if (section === 'user-management') page = <UserManagementPage lang={lang} ctx={ctx} />
  else if (section === 'storage') {
    const bucket = item ? buckets.data?.find((b) => b.name === item) : undefined
    page = buckets.isPending ? (
      <LoadingState label="Loading buckets…" />
    ) : buckets.isError ? (
      <Alert tone="danger" title="Could not load the buckets">
        {errorMessage(buckets.error)}
      </Alert>
    ) : bucket ? (
      <BucketPage bucket={bucket} names={bucketNames} lang={lang} ctx={ctx} onSelect={select} onBack={back} />
    ) : (
      <ItemList
        title="Storage"
        intro="Files in buckets: each bucket page shows who may read it, what it accepts, and how to upload, download, list and share its files."
        names={bucketNames}
        listLabel="Buckets"
        emptyText="This project has no bucket yet. Create one on the Storage page."
        onSelect={select}
      />
    )
  } else if (section === 'edge-functions') {
    const fn = item ? functions.data?.find((f) => f.slug === item) : undefined
    page = functions.isPending ? (
      <LoadingState label="Loading edge functions…" />
    ) : functions.isError ? (
      <Alert tone="danger" title="Could not load the edge functions">
        {errorMessage(functions.error)}
      </Alert>
    ) : fn ? (
      <FunctionPage
        projectRef={projectRef}
        fn={fn}
        slugs={functionSlugs}
        lang={lang}
        ctx={ctx}
        onSelect={select}
        onBack={back}
        onNavigate={onClose}
      />
    ) : (
      <ItemList
        title="Edge Functions"
        intro="Server-side TypeScript functions of this project, each with its invoke snippet."
        names={functionSlugs}
        listLabel="Edge functions"
        emptyText="This project has no edge function yet. Deploy one on the Edge Functions page."
        onSelect={select}
      />
    )
  } else page = <RealtimePage lang={lang} ctx={ctx} table={tableNames[0]} />

  return (
    <>
      <div className="docs-drawer-header">
        <DialogPrimitive.Title className="docs-drawer-title">API Docs</DialogPrimitive.Title>
        <span className="spacer" />
        <div className="docs-lang" role="radiogroup" aria-label="Language">
          {LANGUAGES.map(({ id, label }) => (
            <button
              key={id}
              type="button"
              role="radio"
              aria-checked={lang === id}
              className="docs-lang-option"
              onClick={() => setLang(id)}
            >
              {label}
            </button>
          ))}
        </div>
        <DialogPrimitive.Close asChild>
          <IconButton size="sm" label="Close API docs" icon={<X size={16} aria-hidden="true" />} />
        </DialogPrimitive.Close>
      </div>
      <div className="docs-drawer-body">
        <DocsMenu
          projectRef={projectRef}
          sections={sections}
          active={active}
          items={{ entities: tableNames, 'stored-procedures': procedureNames, storage: bucketNames, 'edge-functions': functionSlugs }}
          onSelect={setActive}
          onNavigate={onClose}
        />
        <div className="docs-content" key={active.join('/')}>
          {page}
        </div>
      </div>
    </>
  )
}
