import { CodeSnippet } from './CodeSnippet'
import { graphqlTableSnippets } from './graphql-snippets'
import { ItemHeader } from './ItemHeader'
import type { DocTable } from './openapi'
import { tableSnippets, type Language, type SnippetContext } from './snippets'
import { TableHead } from '../../components/ui/TableHead'

interface TablePageProps {
  table: DocTable
  names: string[]
  lang: Language
  ctx: SnippetContext
  onSelect: (name: string) => void
  onBack: () => void
}

/** One table or view: its columns, then read, filter, insert, update, delete and subscribe snippets, then the same through GraphQL. */
export function TablePage({ table, names, lang, ctx, onSelect, onBack }: TablePageProps) {
  const snippets = tableSnippets(lang, ctx, table)
  const graphql = graphqlTableSnippets(lang, ctx, table)
  const readOnly = !table.canInsert && !table.canUpdate && !table.canDelete
  return (
    <article className="docs-page">
      <ItemHeader
        title={table.name}
        description={table.description || 'No description.'}
        items={names}
        itemLabel="Table or view"
        onSelect={onSelect}
        onBack={onBack}
      />
      <section className="docs-block" aria-label="Columns">
        <h4>Columns</h4>
        <div className="docs-table-wrap">
          <table className="table">
            <TableHead columns={['Name', 'Format', 'Type', 'Description']} />
            <tbody>
              {table.columns.map((column) => (
                <tr key={column.name}>
                  <td className="mono">{column.name}</td>
                  <td className="mono">{column.format}</td>
                  <td className="mono">{column.type}</td>
                  <td>{column.description || <span className="faint">No description</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      {readOnly ? (
        <p className="muted docs-note">Postgres cannot write through this view, so the API only reads it: no insert, update or delete snippets.</p>
      ) : null}
      {snippets.map((snippet) => (
        <CodeSnippet key={snippet.id} label={snippet.title} title={snippet.title} description={snippet.description} code={snippet.code} />
      ))}
      {graphql.length > 0 ? (
        <section className="docs-block" aria-label="GraphQL">
          <h4>GraphQL</h4>
          <p className="muted docs-note">
            The same table through GraphQL: a POST to <code>/graphql/v1</code> in pg_graphql's schema, with the key or a signed-in user's access token as the Bearer. GraphiQL, linked in the menu, runs them as they are.
          </p>
        </section>
      ) : null}
      {graphql.map((snippet) => (
        <CodeSnippet key={snippet.id} label={snippet.title} title={snippet.title} description={snippet.description} code={snippet.code} />
      ))}
    </article>
  )
}
