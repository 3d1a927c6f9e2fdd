import type { ReactNode } from 'react'
import './page-header.css'

interface PageHeaderProps {
  title: ReactNode
  description?: ReactNode
  /** Small line above the title (e.g. a badge row or the resource kind). */
  eyebrow?: ReactNode
  actions?: ReactNode
  children?: ReactNode
}

export function PageHeader({ title, description, eyebrow, actions, children }: PageHeaderProps) {
  return (
    <header className="page-header">
      <div className="page-header-main">
        <div className="page-header-text">
          {eyebrow ? <div className="page-header-eyebrow">{eyebrow}</div> : null}
          <h1>{title}</h1>
          {description ? <p className="page-header-description">{description}</p> : null}
        </div>
        {actions ? <div className="page-header-actions">{actions}</div> : null}
      </div>
      {children}
    </header>
  )
}
