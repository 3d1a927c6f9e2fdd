import type { HTMLAttributes, ReactNode } from 'react'
import './badge.css'

export type BadgeTone = 'neutral' | 'success' | 'warning' | 'danger' | 'info'

interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  tone?: BadgeTone
  /** A small coloured dot before the text; 'pulse' animates it for ongoing work. */
  dot?: boolean | 'pulse'
  children: ReactNode
}

export function Badge({ tone = 'neutral', dot, className, children, ...rest }: BadgeProps) {
  return (
    <span {...rest} className={['badge', `badge-${tone}`, className].filter(Boolean).join(' ')}>
      {dot ? <span className={`badge-dot${dot === 'pulse' ? ' badge-dot-pulse' : ''}`} aria-hidden="true" /> : null}
      {children}
    </span>
  )
}
