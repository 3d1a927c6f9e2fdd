import type { ReactNode } from 'react'

/** Inline markdown: `code`, **bold**, *italic*, [links](http...). Text only, never HTML. */
function inline(text: string): ReactNode[] {
  const out: ReactNode[] = []
  const pattern = /(`[^`]+`|\*\*[^*]+\*\*|\*[^*]+\*|\[[^\]]+\]\((?:https?:\/\/|mailto:)[^)\s]+\))/g
  let last = 0
  for (const match of text.matchAll(pattern)) {
    const token = match[0]
    if (match.index > last) out.push(text.slice(last, match.index))
    const key = `${match.index}`
    if (token.startsWith('`')) out.push(<code key={key}>{token.slice(1, -1)}</code>)
    else if (token.startsWith('**')) out.push(<strong key={key}>{token.slice(2, -2)}</strong>)
    else if (token.startsWith('*')) out.push(<em key={key}>{token.slice(1, -1)}</em>)
    else {
      const [, label, href] = /^\[([^\]]+)\]\((.+)\)$/.exec(token) ?? []
      out.push(
        <a key={key} href={href} target="_blank" rel="noreferrer noopener">
          {label}
        </a>,
      )
    }
    last = match.index + token.length
  }
  if (last < text.length) out.push(text.slice(last))
  return out
}

/** A small, safe markdown reader for cell values: headings, lists, code blocks, paragraphs. */
export function Markdown({ source }: { source: string }) {
  const blocks: ReactNode[] = []
  const lines = source.split(/\r?\n/)
  const at = (n: number) => lines[n] ?? ''
  for (let i = 0; i < lines.length; i++) {
    const line = at(i)
    if (line.startsWith('```')) {
      const code: string[] = []
      for (i++; i < lines.length && !at(i).startsWith('```'); i++) code.push(at(i))
      blocks.push(<pre key={i}>{code.join('\n')}</pre>)
      continue
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line)
    if (heading) {
      const Tag = `h${Math.min(6, (heading[1] ?? '').length + 2)}` as 'h3'
      blocks.push(<Tag key={i}>{inline(heading[2] ?? '')}</Tag>)
      continue
    }
    if (/^\s*[-*]\s+/.test(line)) {
      const items: string[] = []
      for (; i < lines.length && /^\s*[-*]\s+/.test(at(i)); i++) items.push(at(i).replace(/^\s*[-*]\s+/, ''))
      i--
      blocks.push(
        <ul key={i}>
          {items.map((item, n) => (
            <li key={n}>{inline(item)}</li>
          ))}
        </ul>,
      )
      continue
    }
    if (line.trim() === '') continue
    blocks.push(<p key={i}>{inline(line)}</p>)
  }
  return <div className="cell-markdown">{blocks}</div>
}
