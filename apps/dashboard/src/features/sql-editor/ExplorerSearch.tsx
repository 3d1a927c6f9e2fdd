import { Search } from 'lucide-react'

interface ExplorerSearchProps {
  label: string
  placeholder: string
  value: string
  maxLength: number
  onChange: (value: string) => void
}

/** The search box at the top of the snippet explorer and the schema browser: Escape clears it. */
export function ExplorerSearch({ label, placeholder, value, maxLength, onChange }: ExplorerSearchProps) {
  return (
    <div className="explorer-search">
      <Search size={14} aria-hidden="true" />
      <input
        type="search"
        className="explorer-input"
        aria-label={label}
        placeholder={placeholder}
        value={value}
        maxLength={maxLength}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onChange('')
        }}
      />
    </div>
  )
}
