import { ArrowLeft } from 'lucide-react'
import { useId, type ReactNode } from 'react'
import { IconButton } from '../../components/ui/Button'
import { Select } from '../../components/ui/Field'

interface ItemHeaderProps {
  title: string
  description?: ReactNode
  /** Names of the section's items, for the switcher. */
  items: string[]
  itemLabel: string
  onSelect: (name: string) => void
  onBack: () => void
}

/** The sticky header of an item page: back to the section, the item's name and a switcher. */
export function ItemHeader({ title, description, items, itemLabel, onSelect, onBack }: ItemHeaderProps) {
  const id = useId()
  return (
    <header className="docs-page-header docs-sticky">
      <div className="docs-item-bar">
        <IconButton size="sm" label="Back" icon={<ArrowLeft size={16} aria-hidden="true" />} onClick={onBack} />
        <h3 className="mono">{title}</h3>
        <span className="spacer" />
        <label className="visually-hidden" htmlFor={id}>
          {itemLabel}
        </label>
        <Select id={id} value={title} onChange={(event) => onSelect(event.target.value)} className="docs-item-select">
          {items.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </Select>
      </div>
      {description ? <p className="muted">{description}</p> : null}
    </header>
  )
}
