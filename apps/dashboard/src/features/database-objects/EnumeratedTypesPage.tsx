import type { PgMetaType } from '@stratum/contracts'
import { ListOrdered, Pencil, Trash2 } from 'lucide-react'
import { useMemo, useState } from 'react'
import { Badge } from '../../components/ui/Badge'
import { IconButton } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { QueryState } from '../../components/ui/QueryState'
import { TableHead } from '../../components/ui/TableHead'
import { databaseObjectKeys } from '../../data/database-objects/keys'
import { useDatabaseTypes } from '../../data/database-objects/useDatabaseTypes'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { EnumTypeDialog } from './EnumTypeDialog'
import { matchesSearch } from '../../components/project/SchemaSearchToolbar'
import { buildDropType } from './sql/enums'
import { DatabasePage, EmptyList, useDatabasePage, useSchemaSearch } from '../database-pages'
import './database-objects.css'

type Editing = { type: PgMetaType | undefined } | null

/** /project/{ref}/database/types: a schema's enumerated types and their values; create, add and rename values, delete. */
export function EnumeratedTypesPage() {
  useProjectPageTitle('Enumerated Types')
  const page = useDatabasePage(databaseObjectKeys.all)
  const { ref, preview, writeLock } = page
  const schemaSearch = useSchemaSearch()
  const { schema, search } = schemaSearch
  const [editing, setEditing] = useState<Editing>(null)
  const types = useDatabaseTypes(ref, schema)
  const enums = useMemo(
    () => (types.data ?? []).filter((type) => type.enums.length > 0 && matchesSearch(search, type.name, ...type.enums)),
    [types.data, search],
  )
  const writeProps = { disabled: Boolean(writeLock), disabledReason: writeLock }

  return (
    <DatabasePage
      title="Enumerated Types"
      description="Custom data types whose values are one of a fixed list, usable as column types."
      page={page}
      toolbar={{ state: schemaSearch, searchLabel: 'Search for a type' }}
      create={{ label: 'Create a new type', onClick: () => setEditing({ type: undefined }) }}
      dialogs={
        editing ? (
          <EnumTypeDialog
            key={editing.type?.id ?? 'new'}
            schema={schema}
            existing={editing.type}
            onClose={() => setEditing(null)}
            onReview={(sql, name) => {
              setEditing(null)
              preview({ title: editing.type ? `Update type ${name}` : `Create type ${name}`, sql, done: editing.type ? `Type ${name} updated` : `Type ${name} created` })
            }}
          />
        ) : null
      }
    >
      <QueryState
        query={types}
        loadingLabel="Loading types…"
        errorTitle="Could not load the types"
        isEmpty={enums.length === 0}
        empty={
          <EmptyList
            icon={<ListOrdered size={22} />}
            search={search}
            noMatch="No type matches your search"
            empty={`No enumerated types in schema ${schema}`}
            emptyDescription="Create one to restrict a column to a list of values."
          />
        }
      >
        <Card flush>
          <table className="table dbo-table" aria-label="Enumerated types">
            <TableHead columns={['Name', 'Values', 'Description', { hidden: 'Actions' }]} />
            <tbody>
              {enums.map((type) => (
                <tr key={type.id}>
                  <td className="mono nowrap">{type.name}</td>
                  <td>
                    <div className="dbo-badges">
                      {type.enums.map((value) => (
                        <Badge key={value} className="mono">
                          {value}
                        </Badge>
                      ))}
                    </div>
                  </td>
                  <td className="dbo-description">{type.comment ?? <span className="muted">-</span>}</td>
                  <td className="dbo-actions">
                    <IconButton size="sm" icon={<Pencil size={14} />} label={`Edit type ${type.name}`} {...writeProps} onClick={() => setEditing({ type })} />
                    <IconButton
                      size="sm"
                      icon={<Trash2 size={14} />}
                      label={`Delete type ${type.name}`}
                      {...writeProps}
                      onClick={() => preview({ title: `Delete type ${type.name}`, sql: buildDropType(type, false), done: `Type ${type.name} deleted`, destructive: true })}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      </QueryState>
    </DatabasePage>
  )
}
