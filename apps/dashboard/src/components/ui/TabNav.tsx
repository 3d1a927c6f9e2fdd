import { NavLink } from 'react-router'
import './tab-nav.css'

interface Tab {
  label: string
  to: string
  end?: boolean
}

/** Page-level navigation drawn as tabs: links (not a tablist) because each tab is a route. */
export function TabNav({ label, tabs }: { label: string; tabs: Tab[] }) {
  return (
    <nav className="tabs" aria-label={label}>
      {tabs.map((tab) => (
        <NavLink key={tab.to} to={tab.to} end={tab.end} className="tab">
          {tab.label}
        </NavLink>
      ))}
    </nav>
  )
}
