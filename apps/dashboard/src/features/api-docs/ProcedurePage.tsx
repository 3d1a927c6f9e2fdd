import { Badge } from '../../components/ui/Badge'
import { CodeSnippet } from './CodeSnippet'
import { ItemHeader } from './ItemHeader'
import type { DocProcedure } from './openapi'
import { rpcSnippet, type Language, type SnippetContext } from './snippets'
import { TableHead } from '../../components/ui/TableHead'

interface ProcedurePageProps {
  procedure: DocProcedure
  names: string[]
  lang: Language
  ctx: SnippetContext
  onSelect: (name: string) => void
  onBack: () => void
}

/** One stored procedure: its arguments and how to invoke it. */
export function ProcedurePage({ procedure, names, lang, ctx, onSelect, onBack }: ProcedurePageProps) {
  return (
    <article className="docs-page">
      <ItemHeader
        title={procedure.name}
        description={procedure.description || 'No description.'}
        items={names}
        itemLabel="Stored procedure"
        onSelect={onSelect}
        onBack={onBack}
      />
      <section className="docs-block" aria-label="Function arguments">
        <h4>Function arguments</h4>
        {procedure.params.length === 0 ? (
          <p className="muted">This function takes no arguments.</p>
        ) : (
          <div className="docs-table-wrap">
            <table className="table">
              <TableHead columns={['Name', 'Format', 'Type', { hidden: 'Required' }]} />
              <tbody>
                {procedure.params.map((param) => (
                  <tr key={param.name}>
                    <td className="mono">{param.name}</td>
                    <td className="mono">{param.format}</td>
                    <td className="mono">{param.type}</td>
                    <td>{param.required ? <Badge tone="warning">Required</Badge> : <Badge>Optional</Badge>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <CodeSnippet label="Invoke function" title="Invoke function" code={rpcSnippet(lang, ctx, procedure)} />
    </article>
  )
}
