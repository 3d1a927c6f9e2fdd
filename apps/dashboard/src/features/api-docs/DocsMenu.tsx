import { ExternalLink, Network } from 'lucide-react'
import { Link } from 'react-router'
import type { ActivePage, SectionDef } from './docs-state'

/** The three guides the menu links out to (the API docs spec's drawer): GraphQL, the general documentation, REST. */
export const EXTERNAL_LINKS = [
  { label: 'GraphQL guide', href: 'https://supabase.github.io/pg_graphql/' },
  { label: 'Documentation', href: 'https://supabase.com/docs' },
  { label: 'REST guide', href: 'https://postgrest.org/en/v12/references/api.html' },
] as const

interface DocsMenuProps {
  projectRef: string
  sections: SectionDef[]
  active: ActivePage
  /** Per-item names of the sections that list items (tables, functions, buckets, edge functions). */
  items: Partial<Record<string, string[]>>
  onSelect: (page: ActivePage) => void
  onNavigate: () => void
}

/** The drawer's side menu: the sections, the active section's items, and the links out. */
export function DocsMenu({ projectRef, sections, active, items, onSelect, onNavigate }: DocsMenuProps) {
  const [section, item] = active
  return (
    <nav className="docs-menu" aria-label="API docs sections">
      <ul className="docs-menu-list">
        {sections.map(({ key, label }) => {
          const current = section === key
          const list = current ? items[key] : undefined
          return (
            <li key={key}>
              <button
                type="button"
                className="docs-menu-item"
                aria-current={current && !item ? 'page' : undefined}
                data-active={current || undefined}
                onClick={() => onSelect([key])}
              >
                {label}
              </button>
              {list && list.length > 0 ? (
                <ul className="docs-menu-sublist" aria-label={label}>
                  {list.map((name) => (
                    <li key={name}>
                      <button
                        type="button"
                        className="docs-menu-subitem mono"
                        title={name}
                        aria-current={item === name ? 'page' : undefined}
                        onClick={() => onSelect([key, name])}
                      >
                        {name}
                      </button>
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          )
        })}
      </ul>
      <div className="docs-menu-links">
        <Link to={`/project/${projectRef}/api/graphiql`} className="docs-menu-link" onClick={onNavigate}>
          <Network size={14} aria-hidden="true" />
          GraphiQL
        </Link>
        {EXTERNAL_LINKS.map(({ label, href }) => (
          <a key={label} className="docs-menu-link" href={href} target="_blank" rel="noreferrer">
            <ExternalLink size={14} aria-hidden="true" />
            {label}
          </a>
        ))}
      </div>
    </nav>
  )
}
