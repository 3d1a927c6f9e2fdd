import { Clock } from 'lucide-react'
import type { ReactNode } from 'react'
import { Badge } from './ui/Badge'
import './coming-later.css'

interface ComingLaterProps {
  title: string
  /** What the feature will do, in a sentence or two. */
  description: ReactNode
  /** Which later release brings it, e.g. 'the SQL editor release'. */
  release: string
  /** What the page will hold, as short items. */
  items?: string[]
  /** Something real the user can do meanwhile (a link, never a fake control). */
  meanwhile?: ReactNode
}

/**
 * The honest placeholder for a route whose feature is not built yet: says what will live
 * here and which release brings it, and offers nothing that pretends to work.
 */
export function ComingLater({ title, description, release, items, meanwhile }: ComingLaterProps) {
  return (
    <div className="page page-narrow">
      <section className="coming-later" aria-labelledby="coming-later-title" data-testid="coming-later">
        <div className="coming-later-icon" aria-hidden="true">
          <Clock size={20} />
        </div>
        <Badge tone="info">Coming in a later release</Badge>
        <h1 id="coming-later-title">{title}</h1>
        <p className="coming-later-description">{description}</p>
        {items && items.length > 0 ? (
          <div className="coming-later-list">
            <h2>What will live here</h2>
            <ul>
              {items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <p className="coming-later-release">
          Arrives with <strong>{release}</strong>. Nothing on this page works yet.
        </p>
        {meanwhile ? <div className="coming-later-meanwhile">{meanwhile}</div> : null}
      </section>
    </div>
  )
}
