import { Plus } from 'lucide-react'
import type { ReactNode } from 'react'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { EmptyState } from '../../components/ui/EmptyState'
import { PageHeader } from '../../components/ui/PageHeader'
import { SchemaSearchToolbar } from '../../components/project/SchemaSearchToolbar'
import type { DatabasePageState, SchemaSearch } from './useDatabasePage'

interface DatabasePageProps {
  title: string
  description: string
  /** The page's state (useDatabasePage): its read-only notice and SQL preview dialog. */
  page: Pick<DatabasePageState, 'ref' | 'readOnlyNotice' | 'previewDialog' | 'writeLock'>
  /** The header's create button; disabled with `lock` as its reason (the member's write lock unless given). */
  create?: { label: string; onClick: () => void; lock?: string }
  /** The schema picker and search box above the listing (useSchemaSearch), with the search box's label. */
  toolbar?: { state: SchemaSearch; searchLabel: string; placeholder?: string }
  /** Dialogs the page opens, beside the preview. */
  dialogs?: ReactNode
  children: ReactNode
}

/** The frame of a page that lists database objects and changes them through previewed SQL. */
export function DatabasePage({ title, description, page, create, toolbar, dialogs, children }: DatabasePageProps) {
  const lock = create && 'lock' in create ? create.lock : page.writeLock
  return (
    <div className="page">
      <PageHeader
        title={title}
        description={description}
        actions={
          create ? (
            <Button variant="primary" icon={<Plus size={14} aria-hidden="true" />} disabled={Boolean(lock)} disabledReason={lock} onClick={create.onClick}>
              {create.label}
            </Button>
          ) : undefined
        }
      />
      <div className="stack">
        {page.readOnlyNotice}
        {toolbar ? (
          <SchemaSearchToolbar
            projectRef={page.ref}
            schema={toolbar.state.schema}
            onSchemaChange={toolbar.state.setSchema}
            search={toolbar.state.search}
            onSearchChange={toolbar.state.setSearch}
            searchLabel={toolbar.searchLabel}
            placeholder={toolbar.placeholder}
          />
        ) : null}
        {children}
      </div>
      {dialogs}
      {page.previewDialog}
    </div>
  )
}

interface EmptyListProps {
  icon: ReactNode
  /** The search typed, if any: the card then says nothing matched instead of the listing being empty. */
  search?: string
  noMatch: string
  empty: string
  emptyDescription?: string
}

/** A listing with nothing to show: nothing matched the search, or nothing exists yet. */
export function EmptyList({ icon, search = '', noMatch, empty, emptyDescription }: EmptyListProps) {
  const needle = search.trim()
  return (
    <Card>
      <EmptyState icon={icon} title={needle ? noMatch : empty} description={needle ? `Nothing named like "${needle}".` : emptyDescription} />
    </Card>
  )
}
