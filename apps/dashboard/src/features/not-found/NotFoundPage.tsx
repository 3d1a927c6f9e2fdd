import { Link } from 'react-router'
import { BrandMark } from '../../components/BrandMark'
import { usePageTitle } from '../../lib/usePageTitle'
import './not-found.css'

/** `embedded`: inside a layout that already has its <main> (the project shell). */
export function NotFoundPage({ embedded = false }: { embedded?: boolean }) {
  usePageTitle(['Page not found'])
  const Root = embedded ? 'div' : 'main'
  return (
    <Root className={embedded ? 'not-found not-found-embedded' : 'not-found'}>
      <BrandMark size={36} />
      <p className="not-found-code">404</p>
      <h1>Page not found</h1>
      <p className="muted">The address may be mistyped, or the page may have moved.</p>
      <Link className="btn btn-primary btn-md" to="/organizations">
        Go to your organizations
      </Link>
    </Root>
  )
}
