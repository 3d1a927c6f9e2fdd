import { Outlet, useLocation, useParams } from 'react-router'
import { useOrganization } from '../../data/organizations/useOrganization'
import { AppTopBar } from '../../features/shell/AppTopBar'
import '../../features/shell/shell.css'

/** Where the top bar says you are, for the pages outside a project. */
function useCrumbs() {
  const { pathname } = useLocation()
  const { slug } = useParams()
  const { data: organization } = useOrganization(slug)
  const orgCrumb = slug ? [{ label: organization?.name ?? slug, to: `/org/${slug}` }] : []

  if (pathname.startsWith('/new/')) return [...orgCrumb, { label: 'New project', to: pathname }]
  if (pathname.startsWith('/org/')) return orgCrumb
  if (pathname.startsWith('/account')) return [{ label: 'Account', to: '/account/me' }]
  if (pathname.startsWith('/support')) return [{ label: 'Support', to: '/support/new' }]
  if (pathname.startsWith('/installation')) return [{ label: 'Installation', to: '/organizations' }]
  // On /organizations itself the brand link already leads here and the heading says where you are.
  return []
}

export function AppLayout() {
  const crumbs = useCrumbs()
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main-content">
        Skip to main content
      </a>
      <AppTopBar crumbs={crumbs} />
      <main id="main-content" className="app-main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  )
}
