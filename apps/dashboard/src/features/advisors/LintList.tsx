import type { Lint, LintLevel } from '@stratum/contracts'
import { ExternalLink } from 'lucide-react'
import { Badge, type BadgeTone } from '../../components/ui/Badge'
import { LintText } from './LintText'

const LEVEL_TONE: Record<LintLevel, BadgeTone> = { ERROR: 'danger', WARN: 'warning', INFO: 'info' }
const LEVEL_ORDER: Record<LintLevel, number> = { ERROR: 0, WARN: 1, INFO: 2 }

/** The object a lint concerns, as `schema.name` (with the foreign key or the kind when there is one). */
function subject(lint: Lint): string | null {
  const { schema, name, type, fkey_name: fkey } = lint.metadata ?? {}
  if (!name) return null
  const object = schema ? `${schema}.${name}` : name
  return [type, object, fkey ? `(${fkey})` : null].filter(Boolean).join(' ')
}

/** Lints worst first, then by title and object, so a list reads the same on every load. */
export function sortLints(lints: Lint[]): Lint[] {
  return [...lints].sort((a, b) => LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level] || a.title.localeCompare(b.title) || a.cache_key.localeCompare(b.cache_key))
}

/** One advisor's findings: level badge, title, the object, the detail and the remediation link. */
export function LintList({ lints }: { lints: Lint[] }) {
  return (
    <ul className="lint-list" aria-label="Findings">
      {sortLints(lints).map((lint) => {
        const object = subject(lint)
        return (
          <li key={lint.cache_key} className="lint-item">
            <div className="lint-heading">
              <Badge tone={LEVEL_TONE[lint.level]}>{lint.level}</Badge>
              <h3 className="lint-title">{lint.title}</h3>
              {object ? <code className="lint-object">{object}</code> : null}
            </div>
            <p className="lint-detail">
              <LintText text={lint.detail} />
            </p>
            <a className="lint-remediation" href={lint.remediation} target="_blank" rel="noreferrer">
              How to fix it <ExternalLink size={12} aria-hidden="true" />
            </a>
          </li>
        )
      })}
    </ul>
  )
}
