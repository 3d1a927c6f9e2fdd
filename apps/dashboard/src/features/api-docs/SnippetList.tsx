import { CodeSnippet } from './CodeSnippet'
import type { DocSnippet } from './snippets'

/** Snippets one after the other, each named by its title. */
export function SnippetList({ snippets }: { snippets: DocSnippet[] }) {
  return (
    <>
      {snippets.map((snippet) => (
        <CodeSnippet key={snippet.id} label={snippet.title} title={snippet.title} description={snippet.description} code={snippet.code} />
      ))}
    </>
  )
}
