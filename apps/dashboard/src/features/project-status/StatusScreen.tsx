import type { ReactNode } from 'react'
import { Spinner } from '../../components/ui/Spinner'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import './status-screens.css'

export type StatusTone = 'progress' | 'neutral' | 'success' | 'danger' | 'warning'

interface StatusScreenProps {
  tone: StatusTone
  /** Left out for 'progress', which shows a spinner. */
  icon?: ReactNode
  title: string
  /** Small line above the title, e.g. the project's name. */
  eyebrow?: ReactNode
  children?: ReactNode
  actions?: ReactNode
  /** An indeterminate progress bar under the text (the server reports no percentage). */
  progress?: boolean
  wide?: boolean
  testId?: string
}

/**
 * The frame of every takeover screen: it replaces the page's content inside the project shell,
 * says what is happening in a heading, and offers what the user can do meanwhile.
 */
export function StatusScreen({ tone, icon, title, eyebrow, children, actions, progress, wide, testId }: StatusScreenProps) {
  useProjectPageTitle(title)
  return (
    <div className={`page ${wide ? '' : 'page-narrow'}`}>
      <section
        className={`status-screen status-screen-${tone}`}
        aria-labelledby="status-screen-title"
        data-testid={testId ?? 'status-screen'}
      >
        <div className="status-screen-icon" aria-hidden="true">
          {tone === 'progress' && !icon ? <Spinner size={20} /> : icon}
        </div>
        <div className="status-screen-text" role={tone === 'progress' ? 'status' : undefined}>
          {eyebrow ? <div className="status-screen-eyebrow">{eyebrow}</div> : null}
          <h1 id="status-screen-title">{title}</h1>
        </div>
        {progress ? (
          <div className="status-progress" aria-hidden="true">
            <div className="status-progress-bar" />
          </div>
        ) : null}
        {children ? <div className="status-screen-body">{children}</div> : null}
        {actions ? <div className="status-screen-actions">{actions}</div> : null}
      </section>
    </div>
  )
}
