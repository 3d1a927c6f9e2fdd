import { CircleAlert, CircleCheck, Info, TriangleAlert } from 'lucide-react'
import type { ReactNode } from 'react'
import './alert.css'

export type AlertTone = 'info' | 'warning' | 'danger' | 'success'

const ICONS: Record<AlertTone, ReactNode> = {
  info: <Info size={16} aria-hidden="true" />,
  warning: <TriangleAlert size={16} aria-hidden="true" />,
  danger: <CircleAlert size={16} aria-hidden="true" />,
  success: <CircleCheck size={16} aria-hidden="true" />,
}

interface AlertProps {
  tone?: AlertTone
  title?: ReactNode
  children?: ReactNode
  actions?: ReactNode
  /** Announce it when it appears (errors after a submit). */
  live?: boolean
}

export function Alert({ tone = 'info', title, children, actions, live = tone === 'danger' }: AlertProps) {
  return (
    <div className={`alert alert-${tone}`} role={live ? 'alert' : undefined}>
      <span className="alert-icon">{ICONS[tone]}</span>
      <div className="alert-content">
        {title ? <div className="alert-title">{title}</div> : null}
        {children ? <div className="alert-body">{children}</div> : null}
        {actions ? <div className="alert-actions">{actions}</div> : null}
      </div>
    </div>
  )
}
