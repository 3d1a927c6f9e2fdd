import type { HTMLAttributes, ReactNode } from 'react'
import './card.css'

interface CardProps extends Omit<HTMLAttributes<HTMLDivElement>, 'title'> {
  title?: ReactNode
  description?: ReactNode
  /** Controls at the right of the header. */
  actions?: ReactNode
  /** Footer strip, typically the form's submit button. */
  footer?: ReactNode
  /** Remove the body padding (for tables that run edge to edge). */
  flush?: boolean
  headingLevel?: 2 | 3
}

export function Card({ title, description, actions, footer, flush, headingLevel = 2, className, children, ...rest }: CardProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  return (
    <div {...rest} className={['card', className].filter(Boolean).join(' ')}>
      {title || actions ? (
        <div className="card-header">
          <div className="card-heading">
            {title ? <Heading className="card-title">{title}</Heading> : null}
            {description ? <p className="card-description">{description}</p> : null}
          </div>
          {actions ? <div className="card-actions">{actions}</div> : null}
        </div>
      ) : null}
      {children ? <div className={flush ? 'card-body-flush' : 'card-body'}>{children}</div> : null}
      {footer ? <div className="card-footer">{footer}</div> : null}
    </div>
  )
}
