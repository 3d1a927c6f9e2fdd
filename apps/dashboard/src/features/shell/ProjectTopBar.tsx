import type { Organization, Project } from '@stratum/contracts'
import { Menu, Sparkles, SquareTerminal } from 'lucide-react'
import { Link } from 'react-router'
import { BrandMark } from '../../components/BrandMark'
import { StatusBadge } from '../../components/StatusBadge'
import { IconButton } from '../../components/ui/Button'
import { ApiDocsButton } from '../api-docs'
import { isMac, modKeyLabel } from '../../lib/platform'
import { AccountMenu } from './AccountMenu'
import type { RightPanelKind } from './SidePanel'
import { ThemeToggle } from './ThemeToggle'

interface ProjectTopBarProps {
  projectRef: string
  project: Project | undefined
  organization: Organization | undefined
  rightPanel: RightPanelKind | null
  onTogglePanel: (kind: RightPanelKind) => void
  /** Present on small screens, where the product menu is an overlay. */
  onOpenMenu?: () => void
}

const shortcut = (key: string) => `${isMac ? 'Meta' : 'Control'}+${key}`

export function ProjectTopBar({ projectRef, project, organization, rightPanel, onTogglePanel, onOpenMenu }: ProjectTopBarProps) {
  const orgSlug = project?.organization_slug
  return (
    <header className="topbar">
      {onOpenMenu ? (
        <IconButton label="Open menu" icon={<Menu size={18} aria-hidden="true" />} onClick={onOpenMenu} />
      ) : null}
      <Link to="/organizations" className="topbar-brand" aria-label="Stratum: all organizations">
        <BrandMark />
      </Link>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <ol>
          {orgSlug ? (
            <li>
              <Link to={`/org/${orgSlug}`} className="breadcrumb-link">
                {organization?.name ?? orgSlug}
              </Link>
            </li>
          ) : null}
          <li>
            <Link to={`/project/${projectRef}`} className="breadcrumb-link breadcrumb-current" aria-current="page">
              {project?.name ?? projectRef}
            </Link>
          </li>
        </ol>
      </nav>
      {project ? <StatusBadge status={project.status} /> : null}
      <span className="spacer" />
      <div className="topbar-actions">
        <ApiDocsButton projectRef={projectRef} orgSlug={orgSlug} />
        <IconButton
          label="Toggle AI assistant"
          tooltip={`AI assistant (${modKeyLabel}+I)`}
          aria-pressed={rightPanel === 'assistant'}
          aria-keyshortcuts={shortcut('I')}
          icon={<Sparkles size={16} aria-hidden="true" />}
          onClick={() => onTogglePanel('assistant')}
        />
        <IconButton
          label="Toggle editor panel"
          tooltip={`SQL editor panel (${modKeyLabel}+E)`}
          aria-pressed={rightPanel === 'editor'}
          aria-keyshortcuts={shortcut('E')}
          icon={<SquareTerminal size={16} aria-hidden="true" />}
          onClick={() => onTogglePanel('editor')}
        />
        <ThemeToggle />
        <AccountMenu />
      </div>
    </header>
  )
}
