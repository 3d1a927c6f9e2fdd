import type { ReactNode } from 'react'

interface ItemListProps {
  title: string
  intro: ReactNode
  names: string[]
  emptyText: ReactNode
  listLabel: string
  onSelect: (name: string) => void
}

/** A section's landing page: what it is, then its items. */
export function ItemList({ title, intro, names, emptyText, listLabel, onSelect }: ItemListProps) {
  return (
    <article className="docs-page">
      <header className="docs-page-header">
        <h3>{title}</h3>
        <p className="muted">{intro}</p>
      </header>
      {names.length === 0 ? (
        <p className="muted docs-note">{emptyText}</p>
      ) : (
        <ul className="docs-item-grid" aria-label={listLabel}>
          {names.map((name) => (
            <li key={name}>
              <button type="button" className="docs-item-card mono" title={name} onClick={() => onSelect(name)}>
                {name}
              </button>
            </li>
          ))}
        </ul>
      )}
    </article>
  )
}
