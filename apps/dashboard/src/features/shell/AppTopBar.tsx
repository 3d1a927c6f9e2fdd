import { LifeBuoy } from 'lucide-react'
import { Link } from 'react-router'
import { BrandMark } from '../../components/BrandMark'
import { Tooltip } from '../../components/ui/Tooltip'
import { AccountMenu } from './AccountMenu'
import { ThemeToggle } from './ThemeToggle'

interface Crumb {
  label: string
  to: string
}

/** Top bar of the pages outside a project: brand, where you are, support, theme and account. */
export function AppTopBar({ crumbs }: { crumbs: Crumb[] }) {
  return (
    <header className="topbar">
      <Link to="/organizations" className="topbar-brand topbar-brand-named" aria-label="Stratum: all organizations">
        <BrandMark />
        <span className="topbar-brand-name" aria-hidden="true">
          Stratum
        </span>
      </Link>
      {crumbs.length > 0 ? (
        <nav aria-label="Breadcrumb" className="breadcrumb">
          <ol>
            {crumbs.map((crumb, index) => (
              <li key={crumb.to}>
                <Link
                  to={crumb.to}
                  className={`breadcrumb-link${index === crumbs.length - 1 ? ' breadcrumb-current' : ''}`}
                  aria-current={index === crumbs.length - 1 ? 'page' : undefined}
                >
                  {crumb.label}
                </Link>
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
      <span className="spacer" />
      <div className="topbar-actions">
        <Tooltip content="Support" describe={false}>
          <Link to="/support/new" className="btn btn-ghost btn-md btn-icon" aria-label="Support">
            <LifeBuoy size={16} aria-hidden="true" />
          </Link>
        </Tooltip>
        <ThemeToggle />
        <AccountMenu />
      </div>
    </header>
  )
}
